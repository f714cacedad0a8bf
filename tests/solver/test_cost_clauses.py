"""A card's cost clauses as the cast request reads them (``modifier_clauses.cost_clauses``, ``reading_of``)."""

from __future__ import annotations

from dataclasses import replace

from manasolver.models.carddb import CardDB
from manasolver.solver.casting.modifier_clauses import cost_clauses, reading_of


def test_a_database_card_gives_its_stored_reading(db: CardDB) -> None:
    thalia = db.get("Thalia, Guardian of Thraben")
    assert thalia.text is not None
    effects, unknown = cost_clauses(thalia)
    assert effects is thalia.text.cost_effects and unknown is thalia.text.cost_unknown
    assert [e.kind for e in effects] == ["increase"]


def test_a_card_built_by_hand_is_read_from_its_text(db: CardDB) -> None:
    for name in ("Thalia, Guardian of Thraben", "The Ur-Dragon", "Geyser Drake"):
        stored = db.get(name)
        bare = replace(stored, text=None)
        assert cost_clauses(bare) == cost_clauses(stored)


def test_a_misread_subtype_is_set_apart_and_a_capitalized_one_kept(db: CardDB) -> None:
    drake = db.get("Geyser Drake")  # "During turns other than yours, spells you cast cost {1} less …"
    effects, unknown = cost_clauses(drake)
    misread = [e for e in effects if e.subtypes]
    assert misread, "the reader takes 'turns', 'other', 'yours' for subtypes"
    kept, unread = reading_of(effects, unknown)
    assert not any(e.subtypes for e in kept)
    assert unread == unknown + tuple(e.text for e in misread)
    dragons = db.get("Dragonspeaker Shaman")  # "Dragon spells you cast cost {2} less to cast."
    assert reading_of(*cost_clauses(dragons)) == cost_clauses(dragons)
    assert any(e.subtypes == frozenset({"dragon"}) for e in cost_clauses(dragons)[0])
