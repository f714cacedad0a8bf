"""Which permanents each board-wide reader reads (``models/rules/marks.py``): a card's marks,
read once from its text, its reading and its mana abilities, and one pass per board."""

from __future__ import annotations

import pytest

from manasolver.models.board.load import load_state
from manasolver.models.carddb import default_db
from manasolver.models.rules.marks import (COLOR_READERS, COSTS, DOUBLING, GRAVEYARD, LAYERS, NOTABLE, OWN_SPENDING,
                                          PAYING, POWER, POWER_READERS, RECOLORS, TAP_TRIGGERS, UNCERTAIN, marked,
                                          marks)


@pytest.mark.parametrize("name, expected", [
    ("Grizzly Bears", set()),
    ("Ruby Medallion", {COSTS, COLOR_READERS}),
    ("Glorious Anthem", {POWER}),
    ("Selvala, Heart of the Wilds", {POWER_READERS}),
    ("Foraging Wickermaw", {RECOLORS}),
    ("Jack-o'-Lantern", {GRAVEYARD}),
    ("Llanowar Elves", set()),
    ("Doubling Cube", {DOUBLING}),
    ("Rhystic Cave", {UNCERTAIN}),
    ("City of Brass", {TAP_TRIGGERS}),
    ("Fervor", {NOTABLE}),
    ("Chromatic Lantern", {NOTABLE, UNCERTAIN}),
    ("K'rrik, Son of Yawgmoth", {PAYING}),
    ("Mycosynth Lattice", {LAYERS, NOTABLE, UNCERTAIN}),
    ("Myr Superion", {OWN_SPENDING}),
    ("Pillar of the Paruns", {COLOR_READERS}),
])
def test_a_cards_marks_are_read_from_its_text_and_its_mana_abilities(name: str, expected: set[str]) -> None:
    """A card's marks, read from its text, its reading and its mana abilities.  ``UNCERTAIN``
    errs wide: every card whose reading holds effects on mana may read a top card (Chromatic
    Lantern does not; rules.uncertain reads which)."""
    card = default_db().get(name)
    assert card is not None
    assert set(marks(card)) == expected


def test_one_pass_marks_the_permanents_of_every_reader_in_board_order() -> None:
    """The board's marked permanents, by mark, with their positions; a mark no permanent has is
    empty, and a board is passed over once (its view keeps the index)."""
    state = load_state({"players": [{"name": "you"}, {"name": "opponent"}],
                        "battlefield": [{"id": "a", "card": "Forest"}, {"id": "b", "card": "Doubling Cube"},
                                        {"id": "c", "card": "Fervor"}, {"id": "d", "card": "Grizzly Bears"},
                                        {"id": "e", "card": "Chromatic Lantern", "controller": "opponent"}]})
    assert [(i, p.id) for i, p in marked(state, NOTABLE)] == [(2, "c"), (4, "e")]
    assert [(i, p.id) for i, p in marked(state, DOUBLING)] == [(1, "b")]
    assert [(i, p.id) for i, p in marked(state, UNCERTAIN)] == [(4, "e")]
    assert marked(state, TAP_TRIGGERS) == ()
    index = state.view.marked
    assert marked(state, POWER) == () and state.view.marked is index


def test_the_loader_finds_the_marked_permanents_that_a_pass_over_the_board_finds() -> None:
    """The board's loader keeps the positions of the permanents whose card has marks or is not read
    for them yet (a plain permanent, one with counters or a choice, one read field by field, a card of
    inline characteristics met for the first time), and the marked permanents read there are those of
    one pass over the same battlefield in a state made otherwise."""
    from manasolver.models.rules.marks import board_marks
    from manasolver.models.state import GameState

    state = load_state({"players": [{"name": "you"}, {"name": "opponent"}], "battlefield": [
        {"id": "a", "card": "Forest"}, {"id": "b", "card": "Doubling Cube", "tapped": True},
        {"id": "c", "card": "Fervor", "counters": {"time": 1}}, {"id": "d", "card": "Grizzly Bears"},
        {"id": "e", "card": "Chromatic Lantern", "controller": "opponent", "x": 2},
        {"id": "f", "name": "Test Anthem", "type_line": "Enchantment",
         "oracle_text": "Creatures you control get +1/+1."},
        {"id": "g", "card": "Llanowar Elves", "chosen": {"color": "G"}}]})
    assert state.view.marked_at == (1, 2, 4, 5)
    scanned = GameState(state.players, state.turn, state.battlefield)
    assert scanned.view.marked_at is None
    assert board_marks(state) == board_marks(scanned)
    assert [(i, p.id) for i, p in marked(state, POWER)] == [(5, "f")]
    assert [(i, p.id) for i, p in marked(state, NOTABLE)] == [(2, "c"), (4, "e")]
