"""Counts of permanents by type and subtype (CR 205.1a, 205.3d, 305.7, 702.176a): what an amount of
:func:`manasolver.models.rules.amounts.evaluate_amount` counts reads each permanent's types and
subtypes now, once per board."""

from __future__ import annotations

from typing import Any

from cards import json_board
from manasolver.models.abilities import Amount
from manasolver.models.board.load import load_state
from manasolver.models.rules.amounts import evaluate_amount
from manasolver.models.state import GameState


def _state(*cards: str | dict[str, Any]) -> GameState:
    """Player "you" controls ``cards`` (names or inline entries), "opp" a Forest."""
    return load_state(json_board(*cards, {"id": "o0", "card": "Forest", "controller": "opp"}))


def _count(state: GameState, controller: str = "you", other: bool = False, **what: Any) -> int:
    """How many permanents of ``controller`` ("you", "opponents", "any") a ``count`` amount of
    ``what`` counts for the ability of "you"'s first permanent (``other``: not that one)."""
    amount = Amount("count", **{k: frozenset(v) for k, v in what.items()}, controller=controller, other=other)
    return evaluate_amount(amount, state, state.battlefield[0])


def test_cr_702_176a_an_impending_overlord_has_no_creature_types() -> None:
    """CR 702.176a, 205.3d: an impending Overlord with a time counter is an enchantment, not a
    creature, so its creature types (Avatar Horror) are gone; without time counters it is a
    Horror again.  A kindred card keeps its creature types (Bitterblossom's Faerie, 205.3d)."""
    impending = {"card": "Overlord of the Hauntwoods", "cast_for": "impending", "counters": {"time": 2}}
    assert _count(_state("Forest", impending), subtypes={"horror"}) == 0
    assert _count(_state("Forest", impending), types={"enchantment"}) == 1
    assert _count(_state("Forest", impending), types={"creature"}) == 0
    assert _count(_state("Forest", dict(impending, counters={})), subtypes={"horror"}) == 1
    assert _count(_state("Forest", dict(impending, counters={})), types={"creature"}) == 1
    assert _count(_state("Forest", "Bitterblossom"), subtypes={"faerie"}) == 1


def test_cr_305_7_land_subtypes_counted_under_urborg_and_blood_moon() -> None:
    """CR 305.7: under Urborg every land is a Swamp too (Dryad Arbor keeps its Dryad); under
    Blood Moon a nonbasic land is a Mountain only; the opponent's Forest is not "you control"."""
    assert _count(_state("Forest", "Dryad Arbor"), subtypes={"swamp"}) == 0
    urborg = _state("Forest", "Dryad Arbor", "Urborg, Tomb of Yawgmoth")
    assert _count(urborg, subtypes={"swamp"}) == 3
    assert _count(urborg, subtypes={"dryad"}) == 1
    mooned = _state("Forest", "Urza's Tower", "Blood Moon")
    assert _count(mooned, subtypes={"mountain"}) == 1
    assert _count(mooned, subtypes={"tower"}) == 0
    assert _count(mooned, subtypes={"forest"}) == 1


def test_temple_of_the_false_god_counts_by_controller_and_other() -> None:
    """"Lands you control", "lands your opponents control", "each land", "other lands you control"
    (Temple of the False God, Gaea's Cradle's kind of count), by card types alone and by subtypes."""
    state = _state("Forest", "Swamp", "Llanowar Elves")
    assert _count(state, types={"land"}) == 2
    assert _count(state, types={"land"}, other=True) == 1
    assert _count(state, "opponents", types={"land"}) == 1
    assert _count(state, "any", types={"land"}) == 3
    assert _count(state, "any", subtypes={"forest"}) == 2
    assert _count(state, "any", subtypes={"forest"}, other=True) == 1
    assert _count(state, "opponents", subtypes={"forest"}) == 1
    assert _count(state, types={"creature", "artifact"}) == 1
