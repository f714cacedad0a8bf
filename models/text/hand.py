"""Mana abilities activated from the hand: Simian and Elvish Spirit Guide.

"Exile Simian Spirit Guide from your hand: Add {R}." is a mana ability that works only
while the card is in its owner's hand (CR 605.1a, 602.2a: an activated ability of a card in
a hand may be activated when its text says so).  The oracle parser leaves the clause in
``Card.unsupported`` (it reads abilities of permanents); this module reads it, apart from
the parser, so that the payment engine can treat the cards in a player's hand (the board's
``hand``) as sources.  Only the shape printed on real cards is read — exile *this card*
from your hand, add fixed mana or one mana of any color — anything else stays unread.

>>> from manasolver.models.card import Card
>>> guide = Card("Simian Spirit Guide", oracle_text="Exile Simian Spirit Guide from your hand: Add {R}.")
>>> [ab.production.options for ab in hand_abilities(guide)]
[((8,),)]
"""

from __future__ import annotations

import re
from functools import lru_cache

from manasolver.models.abilities import AbilityCost, ManaAbility, Production
from manasolver.models.card import Card
from manasolver.models.symbols import ANY_COLOR, C, mask_from_letters

__all__ = ["HAND_COST", "hand_abilities", "is_hand_clause", "read_hand_abilities"]

#: The cost part a payment lists for exiling the card from the hand (the protocol's ``costs``).
HAND_COST = "exile this card from your hand"

_CLAUSE = re.compile(
    r"^Exile (?P<who>.+?) from your hand: Add (?P<mana>(?:\{[WUBRGC]\})+|one mana of any color)\.$")


def _names(card: Card) -> set[str]:
    """How the card may name itself in its text: its name, the name before a comma
    (legendary short names), "this card", "this creature" (today's wording) and "~"."""
    return {card.name, card.name.split(",")[0], "this card", "this creature", "~"}


def _clause_ability(card: Card, clause: str, index: int) -> ManaAbility | None:
    m = _CLAUSE.match(clause.strip())
    if m is None or m.group("who") not in _names(card):
        return None
    mana = m.group("mana")
    if mana == "one mana of any color":
        slots: tuple[int, ...] = (ANY_COLOR,)
    else:
        slots = tuple(C if letter == "C" else mask_from_letters(letter) for letter in re.findall(r"\{(\w)\}", mana))
    return ManaAbility(AbilityCost(), Production(options=(slots,)), text=clause.strip(), index=index)


def is_hand_clause(card: Card, clause: str) -> bool:
    """True when ``clause`` is a mana ability of ``card`` activated from the hand (read here)."""
    return _clause_ability(card, clause, 0) is not None


def hand_abilities(card: Card) -> tuple[ManaAbility, ...]:
    """The mana abilities ``card`` has while in its owner's hand, indexed in printed order
    (stored on the card when it was built; a card built by hand is read here, cached)."""
    text = card.text
    if text is not None:
        return text.hand_abilities
    return _cached(card.name, card.oracle_text)


def read_hand_abilities(name: str, oracle_text: str) -> tuple[ManaAbility, ...]:
    """The hand mana abilities of the card ``name`` with rules text ``oracle_text``."""
    card = Card(name, oracle_text=oracle_text)
    out: list[ManaAbility] = []
    for line in oracle_text.splitlines():
        ab = _clause_ability(card, line, len(out))
        if ab is not None:
            out.append(ab)
    return tuple(out)


_cached = lru_cache(maxsize=1024)(read_hand_abilities)
