"""What restricted mana may pay of mana abilities' costs (CR 106.6): every one, none, or those of
permanents that are what the restriction names (card types, subtypes, colorless).

A restriction of :class:`~manasolver.models.abilities.Restriction` read for the costs of mana
abilities (a Signet's ``{1}``, a filter land's ``{W/U}``), the same way by the supply and every
backend, the payment writer and the castability decider: :func:`ability_scope` says what it pays,
:func:`permanent_words` what a permanent is, :func:`scope_pays` whether one pays the other.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from manasolver.models.abilities import Restriction
from manasolver.models.card import Card

__all__ = ["COLORLESS_WORD", "AbilityScope", "ability_scope", "card_words", "permanent_words",
           "restriction_pays_abilities", "scope_pays"]


def restriction_pays_abilities(r: Restriction | None) -> bool:
    """May mana with restriction ``r`` pay every mana ability's activation cost (a Signet's {1})?

    Unrestricted mana may; so may mana that "can't be spent to cast nonartifact spells"
    (Powerstone: any activated ability, ``any_ability``) and mana restricted to abilities
    without naming what they are of.  Mana for the abilities of some types or subtypes only
    (Primal Beyond's Elementals, Eldrazi Temple's Eldrazi) pays those alone
    (:func:`ability_scope`), and mana "only on costs that contain {X}" (Rosheen Meanderer) pays
    no mana ability's cost: none the engine reads has {X} in it."""
    if r is not None and r.any_of:
        return any(restriction_pays_abilities(a) for a in r.any_of)
    return r is None or r.any_ability or (
        r.abilities and not (r.spell_types or r.subtypes or r.x_only or r.c_only or r.colorless))


#: Which mana abilities' costs restricted mana may pay: ``True`` any, ``False`` none, a set of
#: words: those of permanents with one of them (:func:`permanent_words`, CR 106.6).
AbilityScope = bool | frozenset[str]


def ability_scope(r: Restriction | None) -> AbilityScope:
    """Which mana abilities' activation costs mana under restriction ``r`` may pay: every one
    (:func:`restriction_pays_abilities`), only those of permanents of the card types or subtypes it
    names ("Spend this mana only to activate abilities of artifacts": a Signet's {1}; "… or
    activate an ability of an Elemental": Manaforge Cinder's {1}, CR 106.6), or none.  A set holds
    card types and subtypes alike (lower case, no word is both), matched against
    :func:`permanent_words`."""
    if restriction_pays_abilities(r):
        return True
    if r is None:
        return False
    if r.any_of:
        words: frozenset[str] = frozenset()
        for a in r.any_of:
            scope = ability_scope(a)
            if scope is True:
                return True
            if scope is not False:
                words |= scope
        return words or False
    if r.abilities and not (r.x_only or r.c_only) and (r.spell_types or r.subtypes):
        return r.spell_types | r.subtypes
    if r.abilities and not (r.x_only or r.c_only) and r.colorless:
        return COLORLESS_WORD  # "an ability of a colorless permanent" (Cultivator Drone)
    return False


def card_words(card: Card, types: Iterable[str] | None = None) -> frozenset[str]:
    """A card's card types (``types``: its current ones, else its printed ones) and subtypes, lower
    case, and ``colorless`` for a card of no printed color: what an :func:`ability_scope` names."""
    words = frozenset(card.type_line.types if types is None else types) | frozenset(card.type_line.subtypes)
    return words | COLORLESS_WORD if not card.colors else words


def permanent_words(perm: Any) -> frozenset[str]:
    """:func:`card_words` of a permanent, with its types now (an impending one is no creature)."""
    return card_words(perm.card, perm.types)


#: The word of a colorless permanent in :func:`permanent_words` (no type or subtype is spelt so).
COLORLESS_WORD = frozenset({"colorless"})


def scope_pays(scope: AbilityScope, types: frozenset[str] | tuple[str, ...]) -> bool:
    """May mana of ``scope`` pay a mana ability's cost of a permanent of these words (card types,
    subtypes, ``colorless``: :func:`permanent_words`)?"""
    if isinstance(scope, bool):
        return scope
    return not scope.isdisjoint(types)
