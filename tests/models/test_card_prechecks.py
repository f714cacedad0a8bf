"""The word tests that let the card builder skip work are exact on every card of the bundled data.

A reader skips part of its work where a word its patterns need is missing from the text; each
test here reads every face of every record of the bundled database (about 30,000 cards) with the
skip and checks it against the reading without it, failing on the first text read differently.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

from manasolver.models.card import TypeLine
from manasolver.models.carddb import CardDB
from manasolver.models.text import oracle, triggers
from manasolver.models.text.oracle import self_reference, strip_reminder

pytestmark = pytest.mark.slow


def _faces() -> Iterator[dict[str, Any]]:
    """Every record of the bundled database and every face of a multi-face one."""
    store = CardDB()._bundled_store
    for (blob,) in store.con().execute("SELECT data FROM card ORDER BY id"):
        record = json.loads(store._inflate(bytes(blob)).decode("utf-8"))
        yield record
        yield from record.get("faces") or ()


FACES = list(_faces())


def _lines() -> Iterator[str]:
    for face in FACES:
        for raw in str(face.get("oracle_text") or "").split("\n"):
            line = strip_reminder(raw)
            yield line
            yield self_reference(line, str(face["name"]), True)


def test_there_are_the_bundled_cards() -> None:
    assert len(FACES) > 30_000


def test_an_ability_word_is_found_only_before_a_spaced_dash() -> None:
    """The three ability-word patterns are tried only on a text holding " — "."""
    for line in _lines():
        if " — " not in line:
            assert oracle._ABILITY_WORD.search(line) is None, line
            assert oracle._LOW_ABILITY_WORD.search(line.lower()) is None, line
            assert triggers._ABILITY_WORD.search(line) is None, line


def test_a_line_naming_lands_without_a_land_type_word_is_read_as_before(monkeypatch: pytest.MonkeyPatch) -> None:
    """parse_oracle reads a line holding "land" only when it holds a land type word too (or another
    word of what it reads): every face reads the same as with "land" alone let through."""
    faces = [(str(f.get("oracle_text") or ""), TypeLine.parse(str(f.get("type_line") or "")), str(f["name"]))
             for f in FACES]
    gated = [oracle.parse_oracle(*face) for face in faces]
    monkeypatch.setattr(oracle, "_MANA_LINE_WORDS", oracle._MANA_LINE_WORDS + ("land",))
    monkeypatch.setattr(oracle, "_holds_land_types", lambda text, low: False)
    for face, read in zip(faces, gated, strict=True):
        assert oracle.parse_oracle(*face) == read, face[2]
