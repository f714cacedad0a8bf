"""Which cards are *plain*: what a permanent of the card adds depends on its own fields alone.

A plain card's own mana abilities read nothing of the board but its controller's life, energy and
commander, and nothing on it reaches another permanent or a payment: no effect on mana, no granted
keyword, no prohibition, no trigger on becoming tapped but its own damage already on its ``{T}``
abilities (City of Brass), no cost modifier, no clause left unread, no rule of paying the engine
refuses.  Basics, dual and pain lands, Signets, Sol Ring, Command Tower, plain mana creatures and
Treasures are plain; Null Rod, Manabarbs, Fervor and Gaea's Cradle are not.  A fact of the card,
computed from what its text reading stored when it was built; kept in its facts (``card.facts``).
"""

from __future__ import annotations

from manasolver.models.card import Card
from manasolver.models.text.read import card_text
from manasolver.models.text.tap_triggers import tap_triggers_of
from manasolver.models.text.triggers import self_tap_damage
from manasolver.solver.supply.build import card_context
from manasolver.solver.supply.unmodelled import ONLY_AS_COLORLESS

__all__ = ["counting", "quiet"]

#: What a counting card's mana may read of the board: a count of permanents, or the lands' could-produce.
_COUNTED_REFERENCES = ("", "lands_you_control", "lands_opponents_control")


def quiet(card: Card) -> bool:
    """Is ``card`` plain: its own mana abilities read nothing of the board but its controller's
    life, energy and commander, and nothing on it reaches another permanent or a payment?"""
    facts = card.facts
    found: bool | None = facts.quiet
    if found is None:
        found = facts.quiet = _calm(card) and card_context(card) is not None
    return found


def counting(card: Card) -> bool:
    """Is ``card`` plain but for what its own mana reads of the board: a count of permanents
    (Elvish Archdruid, Priest of Titania, Gaea's Cradle, CR 107.1b) or what lands could produce
    (Exotic Orchard, Reflecting Pool, Fellwar Stone, CR 106.7)?  Such a permanent only adds ways to
    pay, so a payable answer from the rest of a board stands without it."""
    facts = card.facts
    found: bool | None = facts.counting
    if found is None:
        found = facts.counting = _counting(card)
    return found


def _counting(card: Card) -> bool:
    if not card.mana_abilities or not _calm(card):
        return False
    for ab in card.mana_abilities:
        production = ab.production
        if (production.amount is not None and production.amount.kind != "count") \
                or production.reference not in _COUNTED_REFERENCES or ab.condition is not None \
                or production.chosen or production.colors_among or production.instead \
                or ab.cost.remove_any:
            return False
    return True


def _calm(card: Card) -> bool:
    """Nothing on ``card`` reaches another permanent or a payment, and no clause of it is left unread."""
    text = card_text(card)
    oracle = card.oracle_text
    return not (text.mana_effects or text.granted_keywords or text.prohibitions or text.unread
                or text.tap_costs or text.cost_effects or text.cost_unknown or text.about_activation
                or text.keyword_costs is None or card.unsupported or not _own_tap_triggers(card)
                or "rather than pay that mana" in oracle or ONLY_AS_COLORLESS in oracle.lower())


def _own_tap_triggers(card: Card) -> bool:
    """Are ``card``'s triggers on becoming tapped (if any) all read, and each harmless or its own
    damage to its controller that the parser already put on its ``{T}`` abilities (City of Brass):
    the ones the board's tap damage passes over
    (:func:`~manasolver.models.rules.board_effects.tap_damage_from_attachments`)?"""
    return all(t is not None and (t.harmless or (t.reach == "self" and bool(self_tap_damage(card))
                                                 and bool(t.hurt_you)))
               for _, t in tap_triggers_of(card))
