"""The sets a could-produce ability mirrors (CR 106.7) on a board of three players: "lands you
control" is its controller's lands, "lands an opponent controls" every other player's; the
fixed point's union per set and the members read one by one agree."""

from __future__ import annotations

from typing import Any

from manasolver.models.board.load import load_state
from manasolver.models.symbols import mask_letters
from manasolver.solver.graph import abilities_of, could_produce, reference_mask


def _three_players(*cards: tuple[str, str]) -> dict[str, Any]:
    return {"players": [{"name": "you"}, {"name": "ann"}, {"name": "bo"}],
            "battlefield": [{"id": f"p{i}", "card": name, "controller": who} for i, (who, name) in enumerate(cards)]}


def test_opponents_lands_are_every_other_players_lands_106_7() -> None:
    """Exotic Orchard ("Add one mana of any color that a land an opponent controls could
    produce") sees both opponents' Island and Mountain; Reflecting Pool ("… any type that a land
    you control could produce") its controller's Forest and the Orchard's colors; the second
    opponent's Fellwar Stone sees the other two players' lands."""
    state = load_state(_three_players(("you", "Forest"), ("you", "Exotic Orchard"), ("you", "Reflecting Pool"),
                                      ("ann", "Island"), ("bo", "Mountain"), ("bo", "Fellwar Stone")))
    got = could_produce(state)
    assert {pid: mask_letters(m) for pid, m in got.items()} == \
        {"p0": "G", "p1": "UR", "p2": "URG", "p3": "U", "p4": "R", "p5": "URG"}
    for perm in state.battlefield:
        for ability in abilities_of(state, perm):
            if ability.production.reference:
                # the fixed point's union of the set, and its members read one by one
                assert reference_mask(state, perm, ability, got) == \
                    reference_mask(state, perm, ability, dict(got)), perm.card.name
