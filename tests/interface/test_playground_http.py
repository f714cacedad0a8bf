"""The playground without a browser: the playground's routes of a real ``manasolver serve`` (card-name
search, example boards, the page's files) and the files the package ships (self-contained, their
licences beside them)."""

from __future__ import annotations

import fnmatch
import http.client
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote, urlsplit

import pytest
from served import serving

from manasolver.solver.service.demo import example_state
from manasolver.solver.service.playground.search import MAX_LIMIT, MAX_QUERY

ROOT = Path(__file__).resolve().parents[2]
STATIC = ROOT / "solver" / "service" / "playground" / "static"


class Served:
    def __init__(self, url: str) -> None:
        parts = urlsplit(url)
        self.host, self.port = str(parts.hostname), int(parts.port or 0)

    def get(self, path: str, method: str = "GET", headers: dict[str, str] | None = None
            ) -> tuple[int, dict[str, str], bytes]:
        conn = http.client.HTTPConnection(self.host, self.port, timeout=60)
        try:
            conn.request(method, path, headers=headers or {})
            response = conn.getresponse()
            return response.status, {k.lower(): v for k, v in response.getheaders()}, response.read()
        finally:
            conn.close()

    def json(self, path: str, status: int = 200) -> Any:
        got, headers, data = self.get(path)
        assert got == status, (got, data[:300])
        assert headers["content-type"] == "application/json"
        return json.loads(data)


@pytest.fixture(scope="module")
def server() -> Iterator[Served]:
    with serving() as url:
        yield Served(url)


def _names(found: dict[str, Any]) -> list[str]:
    return [card["name"] for card in found["cards"]]


# -- GET /v1/cards ---------------------------------------------------------------------------


def test_card_search_puts_names_that_start_with_the_query_first(server: Served) -> None:
    found = server.json("/v1/cards?q=casc&limit=20")
    names = _names(found)
    assert "Cascade Bluffs" in names and all("casc" in n.lower() for n in names)
    starting = [n.lower().startswith("casc") for n in names]
    assert starting == sorted(starting, reverse=True) and starting[0]
    bluffs = found["cards"][names.index("Cascade Bluffs")]
    assert bluffs["type_line"] == "Land" and bluffs["mana_cost"] == ""


def test_card_search_finds_words_inside_names_and_the_faces_of_multiface_cards(server: Served) -> None:
    assert "Cascade Bluffs" in _names(server.json("/v1/cards?q=bluff"))
    names = _names(server.json("/v1/cards?q=" + quote("Bonecrusher Giant")))
    assert names[0] == "Bonecrusher Giant" and "Bonecrusher Giant // Stomp" in names
    assert "Treasure" in _names(server.json("/v1/cards?q=treasu"))  # the predefined token


def _first(server: Served, query: str, zone: str | None = None) -> list[dict[str, Any]]:
    path = "/v1/cards?q=" + quote(query) + (f"&zone={zone}" if zone else "")
    cards: list[dict[str, Any]] = server.json(path)["cards"]
    return cards


def test_card_search_llanowar_offers_llanowar_elves_first_and_no_plane_as_a_permanent(server: Served) -> None:
    cards = _first(server, "llanowar", "battlefield")
    assert cards[0]["name"] == "Llanowar Elves"
    assert "Llanowar" not in [c["name"] for c in cards]  # the plane of that name
    assert "Llanowar" == _first(server, "llanowar")[0]["name"]  # no zone: every name, the exact one first


def test_card_search_bolt_offers_lightning_bolt_first_for_a_hand_and_no_instant_as_a_permanent(server: Served) -> None:
    hand = _first(server, "bolt", "hand")
    assert hand[0]["name"] == "Lightning Bolt" and hand[0]["type_line"] == "Instant"
    battlefield = _first(server, "bolt", "battlefield")
    assert battlefield and all("Instant" not in c["type_line"] and "Sorcery" not in c["type_line"]
                               for c in battlefield)
    names = [c["name"] for c in server.json("/v1/cards?q=bolt&zone=graveyard&limit=50")["cards"]]
    words = [any(w.startswith("bolt") for w in n.lower().split()) for n in names]
    assert "Firebolt" in names and words == sorted(words, reverse=True)  # a word starting so, then inside one


def test_card_search_is_typo_tolerant_swmp_finds_swamp(server: Served) -> None:
    for zone in ("battlefield", "hand", None):
        assert _first(server, "swmp", zone)[0]["name"] == "Swamp", zone
    assert _first(server, "llanowar elfs", "battlefield")[0]["name"] == "Llanowar Elves"
    assert _first(server, "zzqxjv", "battlefield") == []


def test_card_search_offers_tokens_only_for_the_battlefield(server: Served) -> None:
    assert _first(server, "treasure", "battlefield")[0]["name"] == "Treasure"
    for zone in ("hand", "graveyard", "command"):
        assert "Treasure" not in [c["name"] for c in _first(server, "treasure", zone)], zone


def test_card_search_names_the_zone_it_does_not_know(server: Served) -> None:
    error = server.json("/v1/cards?q=sol&zone=library", 400)["error"]
    assert error["code"] == "bad_query" and error["where"] == "zone" and "battlefield" in error["message"]


def test_printings_file_is_what_the_build_script_writes_from_the_card_data() -> None:
    """``printings.tsv.gz`` (the search's ranking) is in step with ``data/cards.jsonl.gz``."""
    import gzip
    import importlib.util

    spec = importlib.util.spec_from_file_location("build_carddb", ROOT / "scripts" / "build_carddb.py")
    assert spec is not None and spec.loader is not None
    script = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(script)
    shipped = gzip.decompress((STATIC.parent / "printings.tsv.gz").read_bytes()).decode("utf-8")
    assert shipped == script.printings_text(ROOT / "data" / "cards.jsonl.gz")
    assert "116\tSwamp\n" in shipped and "14\tLightning Bolt\n" in shipped


def test_card_search_limit_is_capped_and_checked(server: Served) -> None:
    found = server.json("/v1/cards?q=a&limit=100000")
    assert len(found["cards"]) == MAX_LIMIT and found["more"] is True
    assert len(server.json("/v1/cards?q=a")["cards"]) == 20
    assert len(server.json("/v1/cards?q=a&limit=3")["cards"]) == 3
    for bad in ("0", "-1", "abc", "1e3", "99999999999", quote("٣")):
        error = server.json(f"/v1/cards?q=a&limit={bad}", 400)["error"]
        assert error["code"] == "bad_query" and error["where"] == "limit", (bad, error)


def test_card_search_with_an_empty_query_matches_nothing(server: Served) -> None:
    for path in ("/v1/cards", "/v1/cards?q=", "/v1/cards?q=%20%20", "/v1/cards?limit=5"):
        assert server.json(path) == {"query": server.json(path)["query"], "cards": [], "more": False}


def test_card_search_folds_accents_and_ligatures(server: Served) -> None:
    for q in ("lim-dûl's vault", "LIM-DUL'S VAULT", "Lim-Dûl's Vault"):
        assert "Lim-Dûl's Vault" in _names(server.json("/v1/cards?q=" + quote(q))), q
    assert "Aether Vial" in _names(server.json("/v1/cards?q=" + quote("Æther Vial")))
    assert server.json("/v1/cards?q=" + quote("火のドラゴン"))["cards"] == []
    error = server.json("/v1/cards?q=%ff%fe", 400)["error"]  # not UTF-8
    assert error["where"] == "q"


def test_card_search_refuses_a_10_kb_query_at_q(server: Served) -> None:
    error = server.json("/v1/cards?q=" + "x" * 10_000, 400)["error"]
    assert error["code"] == "bad_query" and error["where"] == "q" and str(MAX_QUERY) in error["message"]
    assert server.json("/v1/cards?q=" + "x" * MAX_QUERY)["cards"] == []


def test_card_search_is_refused_from_a_foreign_origin_and_only_answers_get(server: Served) -> None:
    status, _, data = server.get("/v1/cards?q=sol", headers={"Origin": "http://evil.example"})
    assert status == 403 and json.loads(data)["error"]["where"] == "Origin"
    status, _, data = server.get("/v1/cards?q=sol", headers={"Host": "rebound.example"})
    assert status == 403 and json.loads(data)["error"]["where"] == "Host"
    status, headers, _ = server.get("/v1/cards?q=sol", method="POST")
    assert status == 405 and headers["allow"] == "GET"


# -- GET /v1/examples ------------------------------------------------------------------------


def test_examples_are_the_bundled_boards_with_their_questions(server: Served) -> None:
    examples = server.json("/v1/examples")["examples"]
    bundled = sorted(p.stem for p in (ROOT / "solver" / "service" / "examples").glob("*.json"))
    assert [e["name"] for e in examples] == bundled
    for example in examples:
        assert example["state"] == example_state(example["name"])
    commander = next(e for e in examples if e["name"] == "commander")
    assert {"query": "pay", "cost": "{2}{W/U}{B/P}"} in [q["query"] for q in commander["questions"]]


# -- the page's files ------------------------------------------------------------------------


@pytest.mark.parametrize(("path", "kind"), [
    ("/", "text/html; charset=utf-8"),
    ("/static/index.html", "text/html; charset=utf-8"),
    ("/static/app.js", "text/javascript; charset=utf-8"),
    ("/static/style.css", "text/css; charset=utf-8"),
    ("/static/mana.css", "text/css; charset=utf-8"),
    ("/static/fonts/mana.woff2", "font/woff2"),
    ("/static/fonts/mana.woff", "font/woff"),
    ("/static/LICENSES/mana-font-OFL.txt", "text/plain; charset=utf-8"),
])
def test_static_files_are_served_with_their_content_type(server: Served, path: str, kind: str) -> None:
    status, headers, data = server.get(path)
    assert status == 200 and headers["content-type"] == kind
    assert headers["x-content-type-options"] == "nosniff"
    name = "index.html" if path == "/" else path[len("/static/"):]
    assert data == (STATIC / name).read_bytes()
    status, headers, data = server.get(path, method="HEAD")
    assert status == 200 and data == b"" and headers["content-type"] == kind


def test_the_page_allows_nothing_but_its_own_origin(server: Served) -> None:
    _, headers, _ = server.get("/")
    policy = headers["content-security-policy"]
    assert "default-src 'self'" in policy and "connect-src 'self'" in policy and "http" not in policy


@pytest.mark.parametrize("path", [
    "/static/../../etc/passwd", "/static/../serve.py", "/static/%2e%2e/%2e%2e/etc/passwd",
    "/static/..%2f..%2fetc%2fpasswd", "/static//etc/passwd", "/static/", "/static/fonts",
    "/static/fonts/", "/static/LICENSES", "/static/../__init__.py", "/static/./app.js",
    "/static/APP.JS", "/static/app.js%00.css", "/static/fonts/mana.ttf",
])
def test_paths_outside_the_shipped_files_are_refused(server: Served, path: str) -> None:
    status, _, data = server.get(path)
    assert status == 404, (path, data[:200])
    assert json.loads(data)["error"]["where"] == "path"


# -- what the package ships ------------------------------------------------------------------


def _shipped() -> list[Path]:
    return sorted(p for p in STATIC.rglob("*") if p.is_file())


def test_no_shipped_text_file_names_an_external_address() -> None:
    """The page is offline: no http:// or https:// in the HTML, JS or CSS (licence texts may cite
    where a licence is published)."""
    texts = [p for p in _shipped() if p.suffix in (".html", ".js", ".css")]
    assert {p.name for p in texts} >= {"index.html", "app.js", "style.css", "mana.css"}
    for path in texts:
        text = path.read_text(encoding="utf-8")
        assert not re.search(r"https?://", text, re.I), path
        assert not re.search(r"""(?:src|href)\s*=\s*["'](?!/(?!/)|#|data:)""", text), path
        for target in re.findall(r"""url\(\s*["']?([^"')]*)""", text):
            assert ":" not in target and not target.startswith("//"), (path, target)


def test_the_mana_font_is_shipped_with_its_licences_and_nothing_of_mplantin_or_beleren() -> None:
    names = {p.relative_to(STATIC).as_posix() for p in _shipped()}
    assert {"fonts/mana.woff2", "fonts/mana.woff", "LICENSES/mana-font-OFL.txt", "LICENSES/mana-css-MIT.txt",
            "LICENSES/fan-content.txt"} <= names
    assert not [n for n in names if re.search(r"mplantin|beleren", n, re.I)]
    css = (STATIC / "mana.css").read_text(encoding="utf-8")
    assert "MPlantin" not in css and "Beleren" not in css
    assert "SIL OPEN FONT LICENSE Version 1.1" in (STATIC / "LICENSES" / "mana-font-OFL.txt").read_text()
    assert "MIT License" in (STATIC / "LICENSES" / "mana-css-MIT.txt").read_text()


def test_the_page_carries_the_fan_content_notice() -> None:
    page = (STATIC / "index.html").read_text(encoding="utf-8")
    text = re.sub(r"\s+", " ", page)
    assert "unofficial Fan Content permitted under the Fan Content Policy" in text
    assert "Not approved/endorsed by Wizards" in text
    assert "property of Wizards of the Coast" in text
    assert "/static/LICENSES/mana-font-OFL.txt" in page and "/static/LICENSES/mana-css-MIT.txt" in page


def test_every_shipped_file_is_package_data() -> None:
    """pyproject's package-data globs cover every file of static/, so an installed package
    serves the same page as a checkout."""
    tomllib = pytest.importorskip("tomllib")
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert "manasolver.solver.service.playground" in config["tool"]["setuptools"]["packages"]
    globs = config["tool"]["setuptools"]["package-data"]["manasolver.solver.service.playground"]
    base = STATIC.parent
    for path in _shipped():
        name = path.relative_to(base).as_posix()
        assert any(fnmatch.fnmatchcase(name, g) and name.count("/") == g.count("/") for g in globs), name
