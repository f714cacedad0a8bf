"""An ability whose production reads nothing of the board has the same results on every board
without effects that alter an activation (CR 106.5, 605.1b, 614, 616.1): those results are a fact
of the ability (:func:`~manasolver.models.rules.production.fixed_results`), used where
:func:`~manasolver.models.rules.production.alters_activations` is false."""

from __future__ import annotations

from typing import Any

import pytest
from cards import json_board
from manasolver.models.board.load import load_state
from manasolver.models.rules.production import activation_results, alters_activations, fixed_results
from manasolver.models.state import GameState
from manasolver.models.symbols import ANY_COLOR, C, G, R, W
from manasolver.solver.supply.build import build_supply


def _state(*cards: str | dict[str, Any], commander: tuple[str, ...] = ()) -> GameState:
    """Player "you" controls ``cards`` (names or inline entries), "opp" an Island."""
    board = json_board(*cards, {"id": "o0", "card": "Island", "controller": "opp"})
    board["players"][0]["commander"] = list(commander)
    return load_state(board)


@pytest.mark.parametrize("name,options", [
    ("Forest", ((G,),)),
    ("Sol Ring", ((C, C),)),
    ("Arcane Signet", None),            # the commander's identity (CR 903.4)
    ("Temple of the False God", None),  # "Activate only if you control five or more lands" (602.5b)
    ("Exotic Orchard", None),           # what other lands could produce (106.7)
    ("Gaea's Cradle", None),            # an amount: a creature count
    ("Thriving Heath", None),           # the color chosen as it entered
    ("City of Brass", ((ANY_COLOR,),)),    # one mana of any color: one slot of any color
    ("Boros Signet", ((R, W),)),
])
def test_fixed_results_forest_sol_ring_signets_and_none_for_arcane_signet_temple_orchard_cradle(
        name: str, options: tuple[tuple[int, ...], ...] | None) -> None:
    """Printed options alone, each once, are fixed; a condition, amount, chosen color, commander
    identity or could-produce reference is read from the board: none.  Where fixed, they are what
    :func:`activation_results` gives on a board that does not alter them."""
    state = _state(name, "Forest")
    perm = state.battlefield[0]
    ability = perm.card.mana_abilities[-1]
    fixed = fixed_results(ability)
    if options is None:
        assert fixed is None
        return
    assert fixed is not None
    assert tuple(r.mana for r in fixed) == options
    assert not alters_activations(state)
    assert fixed == activation_results(state, perm, ability)


def test_cr_605_1b_616_1_wild_growth_mana_reflection_contamination_alter_an_activation() -> None:
    """Wild Growth (a triggered mana ability, 605.1b), Mana Reflection and Contamination
    (replacements, 614, 616.1) alter what a Forest adds; Chromatic Lantern only grants an ability
    (613.1f), so results stay each ability's own."""
    assert alters_activations(_state({"card": "Wild Growth", "attached_to": "p1"}, "Forest"))
    assert alters_activations(_state("Mana Reflection", "Forest"))
    assert alters_activations(_state("Contamination", "Forest"))
    assert not alters_activations(_state("Chromatic Lantern", "Forest"))


def _forest_adds(state: GameState) -> set[tuple[int, ...]]:
    """What the Forest ("p1") offers in the supply of "you"."""
    supply = build_supply(state, "you")
    return {o.slots for k in supply.classes if "p1" in k.members for o in k.options}


def test_cr_605_1b_614_a_forest_row_under_effects_that_alter_it() -> None:
    """A Forest's {T}: Add {G} is fixed, and its row follows what the board does to it: Wild Growth
    adds {G} (605.1b), Mana Reflection doubles it (614), Chromatic Lantern gives it any color."""
    assert _forest_adds(_state("Swamp", "Forest")) == {(G,)}
    assert _forest_adds(_state("Swamp", "Forest", {"card": "Wild Growth", "attached_to": "p1"})) == {(G, G)}
    assert _forest_adds(_state("Swamp", "Forest", "Mana Reflection")) == {(G, G)}
    assert _forest_adds(_state("Swamp", "Forest", "Chromatic Lantern")) == {(G,), (ANY_COLOR,)}
