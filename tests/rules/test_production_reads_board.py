"""What a mana ability's production reads of the board (an amount, CR 107.1b; a could-produce
reference, 106.7; a chosen color; the commander's color identity, 903.4; colors among; an
"instead" condition) is one fact of the production
(:attr:`~manasolver.models.abilities.Production.reads_board`), asked by the results fixed per
ability (:func:`~manasolver.models.rules.production.fixed_results`), the supply's card facts
(:func:`~manasolver.solver.supply.build.card_context`) and the options read now
(:func:`~manasolver.models.rules.amounts.ability_options`)."""

from __future__ import annotations

import pytest
from manasolver.models.abilities import ManaAbility
from manasolver.models.board.load import load_state
from manasolver.models.carddb import default_db
from manasolver.models.rules.amounts import ability_options
from manasolver.models.rules.production import activation_results, alters_activations, fixed_results
from manasolver.models.state import GameState
from manasolver.models.symbols import C, R, W
from manasolver.solver.supply.build import build_supply, card_context


def _state(*names: str) -> GameState:
    """Player "you" (commander Boros Reckoner: {R}{W}) controls ``names`` as "y0", "y1", …"""
    field = [{"id": f"y{i}", "card": name} for i, name in enumerate(names)]
    return load_state({"players": [{"name": "you", "commander": ["Boros Reckoner"]}, {"name": "opp"}],
                       "battlefield": field})


def _ability(name: str, index: int = -1) -> ManaAbility:
    return default_db().get(name).mana_abilities[index]


@pytest.mark.parametrize("name,reads,besides", [
    ("Forest", False, False),
    ("Sol Ring", False, False),
    ("Temple of the False God", False, False),  # its condition is the ability's (602.5b), not the production's
    ("Rhystic Cave", False, False),             # uncertain: no option whatever the board
    ("Doubling Cube", False, False),            # doubles the unspent mana (106.6 example)
    ("Gaea's Cradle", True, True),              # an amount: a creature count (107.1b)
    ("Exotic Orchard", True, True),             # what opponents' lands could produce (106.7)
    ("Thriving Heath", True, True),             # the color chosen as it entered
    ("Meteor Crater", True, True),              # a color among permanents you control
    ("Urza's Tower", True, True),               # "instead" when Mine and Power-Plant are there
    ("Incubation Druid", True, True),           # could produce, three "instead" with a +1/+1 counter
    ("Command Tower", True, False),             # the commander's color identity alone (903.4)
    ("Command Mine", True, True),               # that, and "instead" when Tower and Power Plant are there
])
def test_reads_board_of_forest_sol_ring_cradle_orchard_urzas_tower_command_tower_and_mine(
        name: str, reads: bool, besides: bool) -> None:
    """Each production says whether it reads the board, and whether through more than the
    commander's identity; an ability's results are fixed exactly where neither its production
    nor an activation condition reads the board."""
    ability = _ability(name)
    production = ability.production
    assert production.reads_board is reads
    assert production.reads_besides_commander is besides
    assert (fixed_results(ability) is None) is (reads or ability.condition is not None)


def test_cr_106_6_doubling_cube_reads_the_pool_not_the_board_its_fixed_results_are_none() -> None:
    """Doubling Cube doubles the unspent mana (CR 106.6 example): its ability adds no option of its
    own on any board, so its fixed results are empty, as :func:`activation_results` gives them;
    its supply row reads no more of the board than a Forest's (the supply leaves it out, named)."""
    state = _state("Doubling Cube", "Forest")
    cube = state.battlefield[0]
    ability = cube.card.mana_abilities[-1]
    assert not alters_activations(state)
    assert fixed_results(ability) == () == activation_results(state, cube, ability)
    assert card_context(cube.card) == (False, False)
    assert [e.permanent for e in build_supply(state, "you").excluded] == ["y0"]


def test_cr_903_4_command_tower_reads_only_the_commander_command_mine_reads_more() -> None:
    """A row that reads the board only through the commander's color identity (Command Tower) is
    kept apart from one that reads more (Command Mine's "instead" counts permanents)."""
    assert card_context(default_db().get("Command Tower")) == (False, True)
    assert card_context(default_db().get("Arcane Signet")) == (False, True)
    assert card_context(default_db().get("Command Mine")) is None
    assert card_context(default_db().get("Forest")) == (False, False)


def test_ability_options_of_a_production_that_reads_nothing_are_its_printed_options() -> None:
    """A production that reads nothing of the board adds its printed options, each once and only
    those adding mana (CR 106.5); one that reads it adds what the board gives (Command Tower: the
    commander's {R}{W})."""
    state = _state("Boros Signet", "Sol Ring", "Command Tower")
    signet, ring, tower = state.battlefield
    assert ability_options(signet.card.mana_abilities[-1], state, signet) == ((R, W),)
    assert ability_options(ring.card.mana_abilities[-1], state, ring) == ((C, C),)
    assert ability_options(tower.card.mana_abilities[-1], state, tower) == ((R | W,),)
