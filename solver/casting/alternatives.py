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

import dataclasses
from dataclasses import dataclass

from manasolver.models.cost import ManaCost
from manasolver.models.errors import BadQuery
from manasolver.models.text.read import card_text
from manasolver.models.state import GameState
from manasolver.solver.casting.modifiers import spell_matches
from manasolver.solver.request import SpellInfo

__all__ = ["FREE", "GRANTED", "NotCastable", "additional_costs", "alternative_cost", "cast_as"]

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
    from manasolver.models.text.keyword_costs import keyword_cost, keyword_costs
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
    elif (keyword := keyword_cost(card, name, "alternative")) is not None:
        result = AlternativeCost(name, keyword.cost, "spell")
        if keyword.zone == "graveyard" and all(c.name != card.name for c in state.player(player).graveyard):
            raise NotCastable(f"{card.name} is not in {player}'s graveyard, where {name} casts it from "
                              f"(CR 702.34a, 702.146a)")
    elif name == GRANTED:
        result = _granted(state, player, spell)
    else:
        printed_names = [k for k, _ in card.alternative_costs] + \
            [k.name for k in keyword_costs(card) if k.kind == "alternative"]
        known = printed_names + [FREE, GRANTED]
        raise BadQuery(f"{card.name} has no alternative cost {name[:40]!r}; known here: {', '.join(known)}",
                       "alternative")
    if x and not result.cost.variables and card.mana_cost is not None and card.mana_cost.variables:
        raise NotCastable(f"X must be 0 when {card.name} is cast for an alternative cost without X "
                          f"(CR 107.3b), not {x}")
    return result


def _granted(state: GameState, player: str, spell: SpellInfo | None) -> AlternativeCost:
    from manasolver.models.text.cost_modifiers import cost_effects_of
    assert spell is not None and spell.card is not None
    for perm in state.controlled_by(player):
        effects, _ = cost_effects_of(perm.card)
        for effect in effects:
            if effect.kind == "alternative" and effect.cost is not None and spell_matches(effect, spell):
                return AlternativeCost(GRANTED, effect.cost, perm.id)
    raise NotCastable(f"no permanent you control lets you pay energy rather than the mana cost of "
                      f"{spell.card.name}")


def cast_as(spell: SpellInfo | None, alternative: str) -> SpellInfo | None:
    """The spell as it is cast for ``alternative``: bestowed, it is an Aura enchantment
    spell, not a creature spell (CR 702.103b), so creature-only mana and reductions don't
    apply; disturbed, it is its back face (CR 702.146a)."""
    if spell is None or spell.card is None:
        return spell
    if alternative == "bestow":
        return dataclasses.replace(spell, types=frozenset({"enchantment"}),
                                   subtypes=frozenset({"aura"}))
    if alternative == "disturb" and len(spell.card.faces) > 1:
        back = spell.card.faces[1]
        return dataclasses.replace(spell, types=frozenset(back.type_line.types),
                                   subtypes=frozenset(back.type_line.subtypes), colors=back.colors)
    return spell


def additional_costs(spell: SpellInfo | None, raw: object) -> ManaCost:
    """The mana of the additional costs a query names (CR 118.8, 601.2b, 601.2f):
    ``["kicker"]``, ``[{"name": "multikicker", "times": 3}]``; names are keyword costs
    printed on the spell's card (:mod:`manasolver.models.text.keyword_costs`)."""
    from manasolver.models.text.keyword_costs import keyword_costs
    card = spell.card if spell is not None else None
    if card is None:
        raise BadQuery('additional costs need the spell: give "spell": {"card": NAME}', "additional")
    if not isinstance(raw, list):
        raise BadQuery('additional must be a list such as ["kicker"]', "additional")
    known = [k for k in keyword_costs(card) if k.kind == "additional"]
    total = ManaCost()
    seen: set[str] = set()
    for i, item in enumerate(raw):
        where = f"additional[{i}]"
        name, times = (item, 1) if isinstance(item, str) else _named_times(item, where)
        found = next((k for k in known if k.name == name), None)
        if found is None:
            names = ", ".join(k.name for k in known) or "none"
            raise BadQuery(f"{card.name} has no additional cost {name[:40]!r}; its additional costs: {names}",
                           where)
        if (times > 1 or name in seen) and not found.repeatable:
            raise BadQuery(f"{card.name}'s {name} cost can be paid only once (CR 702.33a)", where)
        if name == "escalate":
            modes = card_text(card).modes
            if modes and times > modes - 1:
                raise BadQuery(f"{card.name} has {modes} modes: escalate is paid once per mode beyond the "
                               f"first, at most {modes - 1} times (CR 702.120a)", where)
        seen.add(name)
        for _ in range(times):
            total = total + found.cost
    return total


def _named_times(item: object, where: str) -> tuple[str, int]:
    if not isinstance(item, dict) or set(item) - {"name", "times"} or not isinstance(item.get("name"), str):
        raise BadQuery('an additional cost is a name or {"name": NAME, "times": N}', where)
    times = item.get("times", 1)
    if isinstance(times, bool) or not isinstance(times, int) or not 0 <= times <= 100:
        raise BadQuery("times must be a whole number from 0 to 100", f"{where}.times")
    return str(item["name"]), times
