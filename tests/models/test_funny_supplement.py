"""The funny supplement (``data/funny_supplement.tsv``): playtest, Unknown Event, acorn, Heroes of the
Realm and silver-bordered cards that the card data's sources don't mark, each with the public source
that says so.  ``scripts/build_cards.py`` marks them ``funny``; the bundled database keeps the flag;
a board naming such a card is refused as a whole, while real cards beside them keep theirs unset."""

from __future__ import annotations

import gzip
import importlib.util
import json
import re
from functools import lru_cache
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from manasolver.models.carddb import CardDB
from manasolver.solver.service.protocol import answer
from paths import CARD_DATA

ROOT = Path(__file__).resolve().parents[2]
SUPPLEMENT = CARD_DATA / "funny_supplement.tsv"
#: A source is a repository file at a commit or a web page.
SOURCE = re.compile(r"^(github:[\w.-]+/[\w.-]+@[0-9a-f]{40}:\S.*|https?://\S+.*)$")


def _build_cards() -> ModuleType:
    spec = importlib.util.spec_from_file_location("build_cards", ROOT / "scripts" / "build_cards.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@lru_cache(maxsize=1)
def data() -> dict[str, dict[str, Any]]:
    with gzip.open(CARD_DATA / "cards.jsonl.gz", "rt", encoding="utf-8") as fh:
        return {(rec := json.loads(line))["name"]: rec for line in fh if line.strip()}


def _rows() -> list[list[str]]:
    lines = [ln for ln in SUPPLEMENT.read_text(encoding="utf-8").splitlines() if ln and not ln.startswith("#")]
    assert lines[0] == "name\tkind\tsource"
    return [ln.split("\t") for ln in lines[1:]]


def test_every_supplement_card_is_in_the_data_funny_with_a_source() -> None:
    rows = _rows()
    assert len(rows) > 700
    names = _build_cards().read_funny_supplement(SUPPLEMENT)
    assert len(names) == len(rows)
    for name, kind, source in rows:
        assert name in data(), name
        assert data()[name].get("funny") is True, name
        assert kind in {"playtest", "unknown-event", "acorn", "heroes", "silver"}, (name, kind)
        assert SOURCE.match(source), (name, source)


MARKED = ["Chicago Loop", "A-Town", "Black Tulip", "Artist Alley", "Guilded Lotus", "Guildmark", "Your Mana Rock",
          "Built Bear", "Temur Elevator", "The Big Top", "Sole Performer", "The Secret Lair", "Rainbow Dash"]
#: Cards of real sets (tournament-legal or Alchemy) near the marked ones in the survey: never funny.
REAL = ["Glistening Sphere", "Undermountain Adventurer", "Oyaminartok, Polar Werebear", "Paliano, the High City",
        "Cryptic Spires", "Desert Cenote", "Clown Car", "Comet, Stellar Pup"]


@pytest.mark.parametrize("name", MARKED)
def test_marked_card_is_funny_in_the_bundled_database(name: str) -> None:
    record = CardDB().record(name)
    assert record is not None and record.get("funny") is True


@pytest.mark.parametrize("name", REAL)
def test_real_card_is_not_funny(name: str) -> None:
    record = CardDB().record(name)
    assert record is not None and not record.get("funny")
    assert not data()[name].get("funny")


def _pay(name: str) -> dict[str, Any]:
    state = {"players": [{"name": "you"}, {"name": "opponent"}],
             "battlefield": [{"id": "p0", "card": name}, {"id": "p1", "card": "Forest"}]}
    out: dict[str, Any] = answer({"query": "pay", "state": state, "cost": "{1}{G}"})
    return out


def test_chicago_loop_board_is_refused_whole() -> None:
    """Chicago Loop (Unknown Event, funny): "Pay X speed" is no game's resource; the board is refused
    naming the card, never answered as if the ability were not there."""
    out = _pay("Chicago Loop")
    assert out["error"]["code"] == "unsupported"
    assert out["error"]["where"] == "battlefield[0]"
    assert "Chicago Loop" in out["error"]["message"]


def test_read_funny_supplement_names_a_bad_line(tmp_path: Path) -> None:
    bad = tmp_path / "funny.tsv"
    bad.write_text("name\tkind\tsource\nChicago Loop\tjoke\thttps://example.org\n", encoding="utf-8")
    with pytest.raises(SystemExit, match=r"funny\.tsv:2: kind 'joke'"):
        _build_cards().read_funny_supplement(bad)
    bad.write_text("name\tkind\tsource\nChicago Loop\tplaytest\n", encoding="utf-8")
    with pytest.raises(SystemExit, match=r"funny\.tsv:2: expected name<TAB>kind<TAB>source"):
        _build_cards().read_funny_supplement(bad)


def test_mark_funny_marks_named_cards_only_and_refuses_unknown_names() -> None:
    module = _build_cards()
    records = [{"name": "Chicago Loop"}, {"name": "Glistening Sphere"}]
    assert module.mark_funny(records, {"Chicago Loop": "unknown-event"}) == 1
    assert records == [{"name": "Chicago Loop", "funny": True}, {"name": "Glistening Sphere"}]
    with pytest.raises(SystemExit, match="Not A Card"):
        module.mark_funny(records, {"Not A Card": "playtest"})
