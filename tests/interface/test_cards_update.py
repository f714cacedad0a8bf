"""``manasolver cards update`` through real subprocesses, against a real HTTP server on 127.0.0.1
(:mod:`http.server` in a thread) serving a Scryfall-shaped bulk-data list and its oracle-cards file:
the card file is ``tests/data/scryfall/oracle-cards.json`` (seven real cards with their oracle
text, written from ``data/cards.jsonl.gz`` in Scryfall's shape, and a token); the list is built
here in the shape of ``https://api.scryfall.com/bulk-data``, naming the server's address.

Checked: the download with its progress bar, the import and the card then read from the new
database; ``--from`` a direct file URL, a local file, a gzip transfer; and the failures (a closed
port, HTTP 404, a file cut short, a size that disagrees with the list, a list without the oracle
cards, too few cards), each a one-line error, exit status 1, the previous database unchanged and no
temporary file left behind.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import os
import socket
import sqlite3
import subprocess
import sys
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

CLI = [sys.executable, "-m", "manasolver.solver.service.cli"]
ORACLE = Path(__file__).resolve().parents[1] / "data" / "scryfall" / "oracle-cards.json"


@dataclass
class Site:
    """What the test server serves: path -> (status, body, extra headers); ``base`` its address."""

    base: str = ""
    routes: dict[str, tuple[int, bytes, dict[str, str]]] = field(default_factory=dict)
    gzip_paths: set[str] = field(default_factory=set)

    def bulk_list(self, size: int | None = None, kind: str = "oracle_cards", path: str = "/oracle-cards.json",
                  sha256: str | None = None) -> None:
        """Serve ``/bulk-data``: Scryfall's list with an entry of type ``kind`` pointing at ``path``."""
        entry: dict[str, object] = {
            "object": "bulk_data", "id": "27bf3214-1271-490b-bdfe-c0be6c23d02e", "type": kind,
            "updated_at": "2026-06-30T09:05:00.000+00:00", "uri": f"{self.base}/bulk-data/{kind}",
            "name": "Oracle Cards" if kind == "oracle_cards" else "Default Cards",
            "description": "A JSON file containing one Scryfall card object for each Oracle ID on Scryfall.",
            "size": ORACLE.stat().st_size if size is None else size,
            "download_uri": f"{self.base}{path}", "content_type": "application/json",
            "content_encoding": "gzip"}
        if sha256 is not None:
            entry["sha256"] = sha256
        body = json.dumps({"object": "list", "has_more": False, "data": [entry]}).encode()
        self.routes["/bulk-data"] = (200, body, {"Content-Type": "application/json"})


@pytest.fixture()
def site() -> Iterator[Site]:
    state = Site()

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            status, body, headers = state.routes.get(self.path, (404, b"not found", {}))
            if self.path in state.gzip_paths and "gzip" in (self.headers.get("Accept-Encoding") or ""):
                body = gzip.compress(body)
                headers = {**headers, "Content-Encoding": "gzip"}
            cut = headers.get("X-Cut")
            self.send_response(status)
            for key, value in headers.items():
                if key != "X-Cut":
                    self.send_header(key, value)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body[: int(cut)] if cut else body)

        def log_message(self, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    state.base = f"http://127.0.0.1:{server.server_address[1]}"
    state.routes["/oracle-cards.json"] = (200, ORACLE.read_bytes(), {"Content-Type": "application/json"})
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield state
    finally:
        server.shutdown()
        server.server_close()
        thread.join(5)


@pytest.fixture()
def env(tmp_path: Path) -> dict[str, str]:
    out = {**os.environ, "XDG_DATA_HOME": str(tmp_path / "xdg")}
    out.pop("MANASOLVER_CARDS", None)
    return out


def run(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    proc = subprocess.run([*CLI, *args], capture_output=True, text=True, timeout=120, env=env, check=False)
    assert "Traceback" not in proc.stderr, proc.stderr
    return proc


def _cards_in(db: Path) -> int:
    con = sqlite3.connect(db)
    try:
        return int(con.execute("SELECT count(*) FROM card").fetchone()[0])
    finally:
        con.close()


def _meta(db: Path) -> dict[str, str]:
    con = sqlite3.connect(db)
    try:
        return {k: bytes(v).decode() for k, v in con.execute("SELECT key, value FROM meta WHERE key != 'zdict'")}
    finally:
        con.close()


def _previous(tmp_path: Path, env: dict[str, str]) -> tuple[Path, bytes]:
    """A database made by ``cards import`` from a one-card file: the one an update must not touch."""
    db = tmp_path / "cards.sqlite"
    src = Path(__file__).resolve().parents[1] / "data" / "scryfall" / "emerias-call.json"
    assert run("cards", "import", str(src), "--out", str(db), env=env).returncode == 0
    return db, db.read_bytes()


def _unchanged(db: Path, before: bytes) -> None:
    assert db.read_bytes() == before
    assert sorted(p.name for p in db.parent.iterdir() if p.name.startswith((".cards-update", "cards.sqlite."))) == []


# -- success -----------------------------------------------------------------------------------------

def test_update_from_bulk_list_with_progress_then_card_read(site: Site, tmp_path: Path, env: dict[str, str]) -> None:
    """The list is read, its oracle_cards file downloaded with a progress bar (bytes of the total,
    100% at the end), checked and imported; the back face of Delver of Secrets is then read from the
    new database by ``card --cards DB``."""
    site.bulk_list()
    db, _ = _previous(tmp_path, env)
    proc = run("cards", "update", "--from", f"{site.base}/bulk-data", "--out", str(db), env=env)
    assert proc.returncode == 0, proc.stderr
    size_kb = f"{ORACLE.stat().st_size / 1e3:,.1f}"
    assert f"downloading Oracle Cards: {size_kb} of {size_kb} kB [{'#' * 30}] 100%" in proc.stderr
    assert f"imported 7 cards from {site.base}/oracle-cards.json, dated 2026-06-30" in proc.stdout
    assert f"--cards {db}" in proc.stdout
    assert _cards_in(db) == 7 and _meta(db)["source"] == f"{site.base}/oracle-cards.json"
    assert _meta(db)["source_updated_at"].startswith("2026-06-30")
    card = run("card", "Insectile Aberration", "--cards", str(db), "--json", env=env)
    assert card.returncode == 0, card.stderr
    out = json.loads(card.stdout)
    assert out["name"] == "Insectile Aberration" and out["mana_value"] == 1 and out["colors"] == ["U"]
    _unchanged(db, db.read_bytes())


def test_progress_by_tenths_of_a_large_download(site: Site, tmp_path: Path, env: dict[str, str]) -> None:
    """A file of some 2 MB (the seven cards 200 times over, as Scryfall's "default cards" repeats a
    name per printing) arrives in chunks: the progress bar, written to a log, gains a line at each
    tenth, and the repeats are merged."""
    cards = json.loads(ORACLE.read_text(encoding="utf-8"))
    body = json.dumps(cards * 200).encode()
    site.routes["/oracle-cards.json"] = (200, body, {})
    site.bulk_list(size=len(body))
    db = tmp_path / "big.sqlite"
    proc = run("cards", "update", "--from", f"{site.base}/bulk-data", "--out", str(db), env=env)
    assert proc.returncode == 0, proc.stderr
    lines = [line for line in proc.stderr.splitlines() if line.startswith("downloading Oracle Cards: ")]
    assert len(lines) >= 5 and lines[-1].endswith("100%") and f"of {len(body) / 1e6:,.1f} MB" in lines[0]
    percents = [int(line.rsplit(" ", 1)[1].rstrip("%")) for line in lines]
    assert percents == sorted(percents) and percents[0] < 50
    assert "imported 7 cards" in proc.stdout and "1393 repeats of a name merged" in proc.stdout
    assert _cards_in(db) == 7


def test_update_to_the_user_data_folder_by_default(site: Site, env: dict[str, str]) -> None:
    site.bulk_list()
    proc = run("cards", "update", "--from", f"{site.base}/bulk-data", env=env)
    assert proc.returncode == 0, proc.stderr
    db = Path(env["XDG_DATA_HOME"]) / "manasolver" / "cards.sqlite"
    assert str(db) in proc.stdout and _cards_in(db) == 7
    got = run("mana-value", "Bonecrusher Giant", "--json", env={**env, "MANASOLVER_CARDS": str(db)})
    assert got.returncode == 0 and json.loads(got.stdout)["mana_value"] == 3


def test_update_from_direct_file_url_gzip_transfer_sha256_and_size(site: Site, tmp_path: Path,
                                                                    env: dict[str, str]) -> None:
    """``--from`` the card file's own URL, sent gzip-compressed (Content-Encoding), is imported; a
    list giving a sha256 that matches is accepted, and a size that is the file's or the compressed
    transfer's."""
    site.gzip_paths.add("/oracle-cards.json")
    db = tmp_path / "direct.sqlite"
    proc = run("cards", "update", "--from", f"{site.base}/oracle-cards.json", "--out", str(db), env=env)
    assert proc.returncode == 0, proc.stderr
    assert _cards_in(db) == 7
    site.bulk_list(sha256=hashlib.sha256(ORACLE.read_bytes()).hexdigest())
    proc = run("cards", "update", "--from", f"{site.base}/bulk-data", "--out", str(db), env=env)
    assert proc.returncode == 0, proc.stderr
    # a list whose size is the compressed transfer's agrees too
    site.bulk_list(size=len(gzip.compress(ORACLE.read_bytes())))
    proc = run("cards", "update", "--from", f"{site.base}/bulk-data", "--out", str(db), env=env)
    assert proc.returncode == 0, proc.stderr


def test_update_from_local_file(tmp_path: Path, env: dict[str, str]) -> None:
    db = tmp_path / "local.sqlite"
    proc = run("cards", "update", "--from", str(ORACLE), "--out", str(db), env=env)
    assert proc.returncode == 0, proc.stderr
    assert f"imported 7 cards from {ORACLE}" in proc.stdout and _cards_in(db) == 7


# -- failures: one line, exit 1, nothing changed ----------------------------------------------------------

def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _fails(args: list[str], db: Path, before: bytes, env: dict[str, str], *words: str) -> str:
    proc = run("cards", "update", *args, "--out", str(db), env=env)
    assert proc.returncode == 1, proc.stdout
    line = proc.stderr.strip().splitlines()[-1]
    assert line.startswith("manasolver: error: cards update: ") and line.endswith("the card database is unchanged")
    for word in words:
        assert word in line, line
    _unchanged(db, before)
    return line


def test_offline_closed_port_changes_nothing(tmp_path: Path, env: dict[str, str]) -> None:
    db, before = _previous(tmp_path, env)
    port = _closed_port()
    _fails(["--from", f"http://127.0.0.1:{port}/bulk-data"], db, before, env,
           f"can't reach 127.0.0.1:{port}", "refused")


def test_http_404_changes_nothing(site: Site, tmp_path: Path, env: dict[str, str]) -> None:
    db, before = _previous(tmp_path, env)
    _fails(["--from", f"{site.base}/nothing-here"], db, before, env, "answered HTTP 404")


def test_download_cut_short_changes_nothing(site: Site, tmp_path: Path, env: dict[str, str]) -> None:
    """The server promises the whole file (Content-Length) and closes after half of it."""
    site.bulk_list()
    body = ORACLE.read_bytes()
    site.routes["/oracle-cards.json"] = (200, body, {"X-Cut": str(len(body) // 2)})
    db, before = _previous(tmp_path, env)
    _fails(["--from", f"{site.base}/bulk-data"], db, before, env, "broke off after")


def test_corrupt_file_changes_nothing(site: Site, tmp_path: Path, env: dict[str, str]) -> None:
    """A whole transfer of a JSON array cut in the middle of a card: the import's check fails."""
    body = ORACLE.read_bytes()[: ORACLE.stat().st_size // 2]
    site.routes["/oracle-cards.json"] = (200, body, {})
    site.bulk_list(size=len(body))
    db, before = _previous(tmp_path, env)
    _fails(["--from", f"{site.base}/bulk-data"], db, before, env, "cut short")


def test_not_an_array_changes_nothing(site: Site, tmp_path: Path, env: dict[str, str]) -> None:
    site.routes["/oracle-cards.json"] = (200, b"<html><body>maintenance</body></html>", {})
    db, before = _previous(tmp_path, env)
    _fails(["--from", f"{site.base}/oracle-cards.json"], db, before, env, "not a JSON array of cards")


def test_size_disagreeing_with_the_list_changes_nothing(site: Site, tmp_path: Path, env: dict[str, str]) -> None:
    site.bulk_list(size=ORACLE.stat().st_size + 1)
    db, before = _previous(tmp_path, env)
    _fails(["--from", f"{site.base}/bulk-data"], db, before, env, "the bulk-data list says")


def test_sha256_disagreeing_with_the_list_changes_nothing(site: Site, tmp_path: Path, env: dict[str, str]) -> None:
    site.bulk_list(sha256="0" * 64)
    db, before = _previous(tmp_path, env)
    _fails(["--from", f"{site.base}/bulk-data"], db, before, env, "sha256")


def test_list_without_oracle_cards_changes_nothing(site: Site, tmp_path: Path, env: dict[str, str]) -> None:
    site.bulk_list(kind="default_cards")
    db, before = _previous(tmp_path, env)
    _fails(["--from", f"{site.base}/bulk-data"], db, before, env, "lists no oracle_cards file", "default_cards")


def test_too_few_cards_changes_nothing(site: Site, tmp_path: Path, env: dict[str, str]) -> None:
    site.bulk_list()
    db, before = _previous(tmp_path, env)
    _fails(["--from", f"{site.base}/bulk-data", "--min-cards", "100"], db, before, env,
           "holds 7 cards; at least 100")


def test_missing_local_file_changes_nothing(tmp_path: Path, env: dict[str, str]) -> None:
    db, before = _previous(tmp_path, env)
    _fails(["--from", str(tmp_path / "nowhere.json")], db, before, env, "is not a file or an http(s) URL")
