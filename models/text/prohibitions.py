"""Prohibitions on activating abilities that reach mana abilities (CR 602.5, 605.3).

"Activated abilities of artifacts can't be activated." (Null Rod, Stony Silence), "Activated
abilities of creatures can't be activated." (Cursed Totem), "Activated abilities of artifacts
and creatures your opponents control can't be activated." (Linvala … , Karn, the Great Creator):
each clause and the words naming what it reaches, lower case.  A prohibition that spares mana
abilities ("… unless they're mana abilities": Pithing Needle, Damping Matrix) is not listed.
Which permanents a prohibition reaches on a board is
:func:`manasolver.models.rules.board_effects.mana_prohibitions`.

>>> read_prohibitions("Activated abilities of artifacts can't be activated.")
(("Activated abilities of artifacts can't be activated.", 'artifacts'),)
"""

from __future__ import annotations

import re
from functools import lru_cache

from manasolver.models.card import Card

__all__ = ["prohibitions_of", "read_prohibitions"]

_PROHIBITION = re.compile(r"Activated abilities of (?P<what>[^.]*?) can't be activated(?P<unless> unless "
                          r"they're mana abilities)?\.", re.IGNORECASE)


def read_prohibitions(text: str) -> tuple[tuple[str, str], ...]:
    """The prohibitions of one card's text that reach mana abilities: (clause, what it names)."""
    if "can't be activated" not in text:
        return ()
    return tuple((m.group(0), m.group("what").lower()) for m in _PROHIBITION.finditer(text) if not m.group("unless"))


_cached = lru_cache(maxsize=4096)(read_prohibitions)


def prohibitions_of(card: Card) -> tuple[tuple[str, str], ...]:
    """The prohibitions printed on ``card``: the reading stored on the card when it was built;
    a card built by hand is read here (cached)."""
    text = card.text
    if text is not None:
        return text.prohibitions
    return _cached(card.oracle_text or "")
