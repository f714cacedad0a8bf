"""Readers that ask ``Production.reads_board`` (set once as a production is made) instead of
keeping their own list of production fields: each is given a production that reads the board in
one way at a time, beside the same ability reading nothing (CR 106.7, 107.1b, 903.4)."""

from __future__ import annotations

import dataclasses

import pytest
from cards import json_board
from manasolver.models.abilities import ManaAbility, Production
from manasolver.models.board.load import load_state
from manasolver.models.card import Card
from manasolver.models.carddb import default_db
from manasolver.models.symbols import mask_letters
from manasolver.models.text.hand import hand_abilities
from manasolver.solver.castability.lands import _simple_colors
from manasolver.solver.graph import could_produce
from manasolver.solver.pools.options import _free_units

_G = 16
_KINDS = ("amount", "reference", "chosen", "commander", "colors_among", "instead")


def _reading(kind: str) -> Production:
    """A production of {G} that also reads one thing of the board: Gaea's Cradle's count of
    creatures, Reflecting Pool's lands, a chosen color, the commander's identity, Meteor Crater's
    colors among permanents, Urza's Tower's "instead"."""
    tower = default_db().get("Urza's Tower").mana_abilities[0].production
    reads: dict[str, object] = {
        "amount": {"amount": default_db().get("Gaea's Cradle").mana_abilities[0].production.amount},
        "reference": {"reference": "lands_you_control"},
        "chosen": {"chosen": 1},
        "commander": {"commander": 1},
        "colors_among": {"colors_among": "permanents_you_control"},
        "instead": {"instead": tower.instead, "instead_options": tower.instead_options},
    }[kind]
    assert isinstance(reads, dict)
    made = Production(options=((_G,),), **reads)
    assert made.reads_board
    return made


def _with(ability: ManaAbility, production: Production) -> ManaAbility:
    return dataclasses.replace(ability, production=production)


@pytest.mark.parametrize("kind", _KINDS)
def test_a_free_hand_ability_reading_the_board_adds_no_fixed_mana(kind: str) -> None:
    """Elvish Spirit Guide's "Exile this card from your hand: Add {G}." adds a fixed {G} to every
    pool ``options`` lists; the same ability reading the board is left to the payment queries."""
    (ability,) = hand_abilities(default_db().get("Elvish Spirit Guide"))
    assert _free_units((ability,)) == (_G,)
    assert _free_units((_with(ability, _reading(kind)),)) is None


@pytest.mark.parametrize("kind", _KINDS)
def test_a_land_reading_the_board_has_no_simple_colors(kind: str) -> None:
    """Forest adds {G} on every castability board; a land whose {T} ability reads the board is not
    one a fetch may trade for another by its colors."""
    forest: Card = default_db().get("Forest")
    assert _simple_colors(forest) == _G
    (ability,) = forest.mana_abilities
    assert _simple_colors(dataclasses.replace(forest, mana_abilities=(_with(ability, _reading(kind)),))) is None


def test_permanents_of_one_card_could_produce_what_each_chose() -> None:
    """Two Coldsteel Hearts, one with green chosen and one with blue, on a board without effects on
    mana: what one could produce is not its card's (106.7), so the second is not given the first's."""
    hearts = json_board({"card": "Coldsteel Heart", "chosen": {"color": "G"}},
                        {"card": "Coldsteel Heart", "chosen": {"color": "U"}})
    got = could_produce(load_state(hearts))
    assert (mask_letters(got["p0"]), mask_letters(got["p1"])) == ("G", "U")


def test_permanents_of_one_card_could_produce_what_each_board_gives() -> None:
    """Gaea's Cradle with a creature could produce {G}, without one nothing (107.1b): two players'
    Cradles on one board, one with a Llanowar Elves beside it."""
    cradles = json_board({"card": "Gaea's Cradle", "controller": "opp"}, "Gaea's Cradle", "Llanowar Elves")
    got = could_produce(load_state(cradles))
    assert (got["p0"], got["p1"]) == (0, _G)
