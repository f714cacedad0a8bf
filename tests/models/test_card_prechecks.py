"""The word tests that let the card builder skip work are exact on every card of the bundled data.

A reader skips part of its work where a word its patterns need is missing from the text; each
test here reads every face of every record of the bundled database (about 30,000 cards) both ways,
with the skip and without it, and fails on the first text read differently.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

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
