"""Activated abilities that are not mana abilities (CR 602), read from oracle text.

These are what a player pays for when they activate rather than cast: Roil
Cartographer's ``{T}, Pay six {E}: Draw three cards.``, an Equipment's
``Equip {2}``, a card's ``Unearth {B}`` or ``Cycling {2}``.  They are numbered
0, 1, … in printed order (keyword abilities such as equip included, mana
abilities and loyalty abilities left out: mana abilities have their own index,
the protocol's ``ability``), and each knows

* its cost, as an :class:`~manasolver.models.abilities.AbilityCost` (``None``
  when the parser cannot read a part of it; ``unread`` holds that part),
* the zone it is activated from (``battlefield``; ``hand`` for cycling,
  ninjutsu, channel; ``graveyard`` for unearth, embalm, scavenge …),
* whether it is activated only as a sorcery (CR 602.5d, and the keyword
  abilities defined that way: equip 702.6a, unearth 702.84a, …),
* ``extra``: cost parts the caller pays outside the mana engine (discard this
  card, exile it from the graveyard, return an unblocked attacker).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from manasolver.models.abilities import AbilityCost
from manasolver.models.card_text import ActivatedAbility
from manasolver.models.text.mana_abilities import Unreadable, parse_cost
from manasolver.models.card import Card
from manasolver.models.errors import BadCost
from manasolver.models.text.oracle import (
    activated_parts,
    is_loyalty_cost,
    is_mana_ability,
    self_reference,
    strip_reminder,
)

__all__ = ["KEYWORD_ABILITIES", "ActivatedAbility", "activated_abilities", "read_activated"]

_SYMBOLS = r"(?:\{[^}\s]+\})+"


@dataclass(frozen=True, slots=True)
class _Keyword:
    zone: str
    sorcery: bool
    tap: bool = False
    sacrifice_self: bool = False
    extra: tuple[str, ...] = ()


_DISCARD = ("discard this card",)
_EXILE_GY = ("exile this card from your graveyard",)
#: Keyword abilities with a mana cost: where they are activated from, whether only as a
#: sorcery, and the rest of the cost their definition adds.
KEYWORD_ABILITIES: dict[str, _Keyword] = {
    "cycling": _Keyword("hand", False, extra=_DISCARD),               # 702.29a
    "equip": _Keyword("battlefield", True),                            # 702.6a
    "reconfigure": _Keyword("battlefield", True),                      # 702.151a
    "fortify": _Keyword("battlefield", True),                          # 702.67a
    "outlast": _Keyword("battlefield", True, tap=True),                # 702.107a
    "level up": _Keyword("battlefield", True),                         # 702.87a
    "transfigure": _Keyword("battlefield", True, sacrifice_self=True),  # 702.71a
    "unearth": _Keyword("graveyard", True),                            # 702.84a
    "embalm": _Keyword("graveyard", True, extra=_EXILE_GY),            # 702.128a
    "eternalize": _Keyword("graveyard", True, extra=_EXILE_GY),        # 702.129a
    "encore": _Keyword("graveyard", True, extra=_EXILE_GY),            # 702.141a
    "scavenge": _Keyword("graveyard", True, extra=_EXILE_GY),          # 702.97a
    "transmute": _Keyword("hand", True, extra=_DISCARD),               # 702.53a
    "reinforce": _Keyword("hand", False, extra=_DISCARD),              # 702.77a
    "ninjutsu": _Keyword("hand", False, extra=("reveal this card",
                                               "return an unblocked attacker you control to its owner's hand")),
}
_KEYWORD_LINE = re.compile(
    rf"^(?P<kw>Level up|Basic landcycling|[A-Z][a-z]*)(?: [a-z ]+?)?(?: \d+)?(?: |—)(?P<cost>{_SYMBOLS})\s*$")




def activated_abilities(card: Card) -> tuple[ActivatedAbility, ...]:
    """The card's non-mana activated abilities in printed order (see the module docstring): the
    reading stored on the card when it was built; a card built by hand is read here."""
    text = card.text
    if text is not None:
        return text.activated
    return read_activated(card)


def read_activated(card: Card) -> tuple[ActivatedAbility, ...]:
    """The card's non-mana activated abilities in printed order, read now."""
    legendary = "legendary" in card.type_line.supertypes
    out: list[ActivatedAbility] = []
    for raw in (card.oracle_text or "").split("\n"):
        keyword = _keyword_ability(raw.strip(), len(out)) if "{" in raw else None  # its cost's symbols
        if keyword is not None:
            out.append(keyword)
            continue
        if ":" not in raw:
            continue  # an activated ability has a colon; a self reference takes none away that was not there
        line = strip_reminder(raw)
        text = self_reference(line, card.name, legendary) if line else ""
        parts = activated_parts(text) if text else None
        if parts is None:
            continue
        cost_text, effect = parts
        if is_loyalty_cost(cost_text) or is_mana_ability(cost_text, effect):
            continue  # loyalty abilities follow CR 606; mana abilities are listed apart (605.1a)
        out.append(_ability(len(out), line, cost_text, effect))
    return tuple(out)


def _keyword_ability(line: str, index: int) -> ActivatedAbility | None:
    m = _KEYWORD_LINE.match(strip_reminder(line).rstrip("."))
    if not m:
        return None
    word = m.group("kw").lower()
    key = "cycling" if word.endswith("cycling") else word
    spec = KEYWORD_ABILITIES.get(key)
    if spec is None:
        return None
    from manasolver.models.cost import ManaCost
    try:
        mana = ManaCost.parse(m.group("cost"), "oracle_text")
    except BadCost:
        return None
    cost = AbilityCost(tap=spec.tap, mana=mana.without_special(), energy=mana.energy,
                       sacrifice_self=spec.sacrifice_self)
    return ActivatedAbility(index, strip_reminder(line), cost, keyword=word, zone=spec.zone,
                            sorcery_speed=spec.sorcery, extra=spec.extra)


def _ability(index: int, line: str, cost_text: str, effect: str) -> ActivatedAbility:
    low_effect = effect.lower()
    sorcery = "activate only as a sorcery" in low_effect
    per_turn = 1 if "activate only once each turn" in low_effect else 0
    zone = "battlefield"
    extra: list[str] = []
    readable: list[str] = []
    for part in (p.strip() for p in cost_text.split(",")):
        low = part.lower()
        if low == "discard ~":
            zone = "hand"
            extra.append("discard this card")
        elif low == "exile ~ from your graveyard":
            zone = "graveyard"
            extra.append("exile this card from your graveyard")
        else:
            readable.append(part)
    try:
        cost: AbilityCost | None = parse_cost(", ".join(readable)) if readable else AbilityCost()
        unread = ""
    except (Unreadable, BadCost) as err:
        cost, unread = None, str(err) or cost_text
    return ActivatedAbility(index, line, cost, zone=zone, sorcery_speed=sorcery, per_turn=per_turn,
                            extra=tuple(extra), unread=unread)
