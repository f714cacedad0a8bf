"""The real decklists of ``data/decks`` against the bundled card data: every card of every deck
(1997-2026, Commander precons to 2026) is a card the data knows, and the index agrees with the files."""

from __future__ import annotations

import json
import re
from pathlib import Path

from manasolver.models.carddb import CardDB

DECKS = Path(__file__).resolve().parents[2] / "data" / "decks"


def _cards(path: Path) -> list[tuple[str, int]]:
    out = []
    for line in path.read_text(encoding="utf-8").splitlines():
        m = re.fullmatch(r"(\d+) (.+)", line)
        if m:
            out.append((m.group(2), int(m.group(1))))
    return out


def test_every_card_of_every_real_deck_is_known() -> None:
    """All 146 decks: each name resolves in the bundled data (no unknown card), each Commander deck
    has 100 cards with its commander first, as index.json says."""
    db = CardDB()
    index = json.loads((DECKS / "index.json").read_text(encoding="utf-8"))
    assert len(index) >= 146
    unknown = []
    for entry in index:
        cards = _cards(DECKS / entry["file"])
        unknown.extend(f"{entry['file']}: {name}" for name, _ in cards if db.record(name) is None)
        assert sum(n for _, n in cards) == entry["card_count"], entry["file"]
        if entry["format"] == "commander":
            assert [name for name, _ in cards[:len(entry["commander"])]] == entry["commander"]
    assert unknown == []


def test_commander_precons_reach_2026() -> None:
    """Commander precons of every year 2022-2026 are in the corpus (Marvel Super Heroes' Doom Prevails
    among them), read with the cards of their own year."""
    index = json.loads((DECKS / "index.json").read_text(encoding="utf-8"))
    years = {e["year"] for e in index if e["format"] == "commander"}
    assert {2022, 2023, 2024, 2025, 2026} <= years
    doom = next(e for e in index if e["name"] == "Doom Prevails")
    assert doom["set"] == "MSC" and doom["commander"] == ["Doctor Doom, King of Latveria"]
    db = CardDB()
    assert db.get("Doctor Doom, King of Latveria").type_line.supertypes == ("legendary",)
