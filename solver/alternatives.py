"""Alternative costs (CR 118.9, 601.2b): a cost paid instead of the mana cost.

Three sources of them:

* printed on the card: ``"impending"`` (Overlord of the Hauntwoods, 702.176a);
* an effect that lets a spell be cast ``"without_paying_mana_cost"`` (cost {0});
* a permanent that grants one: ``"energy"`` for Nissa, Worldsoul Speaker's
  "You may pay eight {E} rather than pay the mana cost for permanent spells
  you cast".

At most one alternative cost applies to a spell (118.9a).  When the cost paid
has no X, X is 0 (107.3b).  Increases and reductions still apply (118.9d): the
caller adds the board's modifiers as for the mana cost.  Mana value never
changes (118.9c).
"""

from __future__ import annotations

from dataclasses import dataclass

from manasolver.models.cost import ManaCost
from manasolver.models.costmods import read_cost_effects
from manasolver.models.errors import BadQuery
from manasolver.models.state import GameState
from manasolver.solver.boardmods import spell_matches
from manasolver.solver.request import SpellInfo

__all__ = ["FREE", "GRANTED", "NotCastable", "alternative_cost"]

FREE = "without_paying_mana_cost"
GRANTED = "energy"


class NotCastable(Exception):
    """The spell can't be cast this way at all: answered with reason ``not_castable``."""


@dataclass(frozen=True, slots=True)
class AlternativeCost:
    """The cost to pay instead of the mana cost, and where it comes from."""

    name: str
    cost: ManaCost
    source: str


def alternative_cost(state: GameState, player: str, spell: SpellInfo | None, name: object,
                     x: int | None) -> AlternativeCost:
    """The alternative cost ``name`` for ``spell``; errors say why it does not exist."""
    if isinstance(name, list):
        if len(name) > 1:
            raise NotCastable("at most one alternative cost can be applied to a spell (CR 118.9a, 601.2b): "
                              f"{', '.join(map(str, name))} were asked for")
        if not name:
            raise BadQuery("alternative is an empty list", "alternative")
        name = name[0]
    if not isinstance(name, str):
        raise BadQuery("alternative must be the name of an alternative cost", "alternative")
    card = spell.card if spell is not None else None
    if card is None:
        raise BadQuery('an alternative cost needs the spell: give "spell": {"card": NAME}', "alternative")
    if name == FREE:
        result = AlternativeCost(name, ManaCost.parse("{0}"), "effect")
    elif card.alternative_cost(name) is not None:
        printed = card.alternative_cost(name)
        assert printed is not None
        result = AlternativeCost(name, printed, "spell")
    elif name == GRANTED:
        result = _granted(state, player, spell)
    else:
        printed_names = [k for k, _ in card.alternative_costs]
        known = printed_names + [FREE, GRANTED]
        raise BadQuery(f"{card.name} has no alternative cost {name!r}; known here: {', '.join(known)}",
                       "alternative")
    if x and not result.cost.variables and card.mana_cost is not None and card.mana_cost.variables:
        raise NotCastable(f"X must be 0 when {card.name} is cast for an alternative cost without X "
                          f"(CR 107.3b), not {x}")
    return result


def _granted(state: GameState, player: str, spell: SpellInfo | None) -> AlternativeCost:
    assert spell is not None and spell.card is not None
    for perm in state.controlled_by(player):
        effects, _ = read_cost_effects(perm.card.oracle_text, perm.card.name)
        for effect in effects:
            if effect.kind == "alternative" and effect.cost is not None and spell_matches(effect, spell):
                return AlternativeCost(GRANTED, effect.cost, perm.id)
    raise NotCastable(f"no permanent you control lets you pay energy rather than the mana cost of "
                      f"{spell.card.name}")
