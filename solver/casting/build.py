"""The request of a payment query: casting a spell or activating an ability up to its payment.

:func:`build_request` follows CR 601.2a-f for a spell: the cost is the caller's, or the card's
mana cost, or an alternative cost printed on the card or granted by the board (601.2b,
118.9; :mod:`~manasolver.solver.casting.alternatives`), plus the additional costs chosen
(601.2b, 601.2f), with the caller's modifiers after the board's (601.2f;
:mod:`~manasolver.solver.casting.modifiers`) and convoke, delve and improvise allowed by the
card's keywords unless the caller says otherwise.  :func:`build_activation` does the same for an
activated ability (602.2; :mod:`~manasolver.solver.casting.abilities`).  Both raise
:class:`~manasolver.solver.casting.alternatives.NotCastable` or
:class:`~manasolver.solver.casting.abilities.NotActivatable` when the spell or ability can't
be cast or activated whatever mana there is; :func:`timing_refusal` says when it can't be now
(117, 307.1, 602.5d).  The inputs are already decoded (:mod:`manasolver.solver.service.decode`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any, Final

from manasolver.models.card import Card
from manasolver.models.cost import ManaCost
from manasolver.models.errors import BadQuery
from manasolver.models.rules.granted import spell_keywords
from manasolver.models.rules.life_for_mana import (
    life_for_mana_colors,
    with_life_for_mana,
)
from manasolver.models.rules.marks import NOTABLE, PAYING, marked
from manasolver.models.state import GameState
from manasolver.solver.casting.abilities import activation, activation_timing
from manasolver.solver.casting.alternatives import (
    NotCastable,
    additional_costs,
    alternative_cost,
    cast_as,
)
from manasolver.solver.casting.modifiers import board_modifiers, order_modifiers
from manasolver.solver.request import Modifier, PaymentRequest, Policy, SpellInfo

__all__ = ["NOT_GIVEN", "build_activation", "build_request", "timing_refusal"]

#: ``additional`` when the query does not give it (``null`` is given, and refused).
NOT_GIVEN: Final = object()


def build_request(state: GameState, player: str, spell: SpellInfo | None, cost: ManaCost | None,
                  x: int | None, modifiers: tuple[Modifier, ...], policy: Policy, *,
                  alternative: object = None, additional: object = NOT_GIVEN,
                  convoke: bool | None = None, delve: bool | None = None,
                  improvise: bool | None = None) -> PaymentRequest:
    """The request for casting ``spell`` (or paying a caller's ``cost``).

    When ``cost`` is missing but ``spell`` names a card, the card's mana cost is the
    cost (or the named ``alternative`` cost printed on it).  ``convoke``, ``delve``,
    ``improvise``: ``None`` means "as the spell's keywords say": the card's own and those its
    player's permanents give it (CR 613.1f; :func:`manasolver.models.rules.granted.spell_keywords`).
    """
    alt_name: str | None = None
    if alternative is not None:
        if cost is not None and not _printed(spell, cost):
            raise BadQuery("a cost given beside an alternative cost must be the spell's printed mana "
                           "cost (which the alternative replaces)", "cost")
        alt = alternative_cost(state, player, spell, alternative, x)
        cost, alt_name = alt.cost, alt.name
        spell = cast_as(spell, alt_name)
    elif cost is None:
        card = spell.card if spell is not None else None
        if card is None:
            raise BadQuery('missing "cost" (or a "spell" naming a card)', "cost")
        if card.mana_cost is None:
            raise NotCastable(f"{card.name} has no mana cost, so it can't be cast by paying one "
                              f"(CR 118.6, 202.1b); an alternative cost such as "
                              f"without_paying_mana_cost can (118.6a)")
        cost = card.mana_cost
    if additional is not NOT_GIVEN:
        cost = cost + additional_costs(spell, additional)
    mods = modifiers
    if spell is not None and spell.card is not None:
        applied = board_modifiers(state, player, spell, alt_name)
        if applied:  # (most casts have none)
            mods = tuple(m.modifier for m in applied) + modifiers
    cost, mods = _life_for_mana(state, player, cost, mods)
    keywords = spell.card.keywords if spell is not None and spell.card is not None else frozenset()
    if spell is not None and not spell.ability and spell.types and marked(state, NOTABLE):
        # keywords the board gives the spell (Chief Engineer: "Artifact spells you cast have convoke."),
        # printed by the permanents marked NOTABLE (most boards have none)
        keywords = keywords | spell_keywords(state, player, types=tuple(spell.types))
    ordered = order_modifiers(mods)
    # The fields by position, in order (state, cost, player, spell, x, modifiers, alternative,
    # convoke, delve, improvise, policy): a class called with keywords packs them into a dictionary
    # that its __init__ unpacks again, as much work as storing the fields.
    return PaymentRequest(state, cost, player, spell, _x_of(cost, ordered, x), ordered, alt_name,
                          convoke if convoke is not None else "convoke" in keywords,
                          delve if delve is not None else "delve" in keywords,
                          improvise if improvise is not None else "improvise" in keywords, policy)


def build_activation(state: GameState, player: str, ability: dict[str, Any], card_lookup: Callable[[str], Card],
                     x: int | None, modifiers: tuple[Modifier, ...], policy: Policy, *,
                     convoke: bool | None = None, delve: bool | None = None,
                     improvise: bool | None = None) -> PaymentRequest:
    """The request for activating the ability that the ``spell`` object ``ability`` names
    (:func:`~manasolver.solver.casting.abilities.activation`).  Convoke, delve and improvise
    pay for spells only."""
    act = activation(ability, state, player, card_lookup)
    flags = {"convoke": convoke, "delve": delve, "improvise": improvise}
    if any(flags.values()):
        raise BadQuery("convoke, delve and improvise pay for spells, not abilities (CR 702.51a, "
                       "702.66a, 702.126a)", next(k for k, v in flags.items() if v))
    cost, mods = _life_for_mana(act.state, player, act.cost, modifiers)
    ordered = order_modifiers(mods)
    return PaymentRequest(state=act.state, cost=cost, player=player, spell=act.spell,
                          x=_x_of(cost, ordered, x), modifiers=ordered, policy=policy, activation=act)


def _life_for_mana(state: GameState, player: str, cost: ManaCost, mods: tuple[Modifier, ...]
                   ) -> tuple[ManaCost, tuple[Modifier, ...]]:
    """The cost and its increases as the player may pay them: each plain symbol of a color that
    K'rrik lets them pay with 2 life read as its Phyrexian symbol
    (:mod:`manasolver.models.rules.life_for_mana`)."""
    if not marked(state, PAYING):
        return cost, mods  # (no K'rrik on the board: its permanents' marks, read once per board)
    colors = life_for_mana_colors(state, player)
    if not colors:
        return cost, mods
    return with_life_for_mana(cost, colors), tuple(
        replace(m, cost=with_life_for_mana(m.cost, colors)) if m.kind == "increase" and m.cost is not None else m
        for m in mods)


def _printed(spell: SpellInfo | None, cost: ManaCost) -> bool:
    """Is ``cost`` the printed mana cost of the spell's card (a client sends it beside the
    alternative cost it casts the card for, which replaces it, CR 118.9)?"""
    card = spell.card if spell is not None else None
    printed = card.mana_cost if card is not None else None
    return printed is not None and printed.format() == cost.format()


def _x_of(cost: ManaCost, modifiers: tuple[Modifier, ...], x: int | None) -> int | None:
    """The request's X: the caller's when the cost (or an increase of it) has ``{X}``; with none,
    a given ``x`` is ignored (there is no X to choose, CR 107.3), so every query reads the cost
    the same way and a payment says ``x: 0``.  A negative ``x`` is refused all the same."""
    if x is None:
        return None
    if x < 0:
        raise BadQuery(f"x must be 0 or more, not {x}", "x")
    if cost.variables or any(m.cost is not None and m.cost.variables for m in modifiers):
        return x
    return None


def timing_refusal(req: PaymentRequest) -> str | None:
    """Why the spell or ability of ``req`` can't be cast or activated now (a sentence), or
    ``None``: for a known card cast as a spell, or an ability named by the query."""
    if req.activation is not None:
        return activation_timing(req.activation, req.state.turn, req.player)
    spell = req.spell
    if spell is None or spell.card is None or spell.ability:
        return None
    if req.alternative in ("madness", "miracle"):
        return None  # cast while its trigger resolves, ignoring timing permissions (CR 702.35a, 702.94a)
    from manasolver.solver.casting.timing import check_timing
    verdict = check_timing(spell.card, req.state.turn, req.player, req.alternative)
    return None if verdict.allowed else verdict.message
