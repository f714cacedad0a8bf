"""A spell's own spending rule read from its text (CR 106.6 on the spell itself): "Spend only mana
produced by creatures to cast this spell." (Myr Superion), "… produced by basic lands …"
(Imperiosaur).  :func:`own_rule` names the producers, :func:`produced_ok` tests a source, and a
source the rule does not name gets :func:`not_for_spells`' restriction: its mana may pay mana
abilities' costs, never the spell.  The payment queries apply it through the supply
(``solver/supply/own_spending.py``), ``validate`` through its units.
"""

from __future__ import annotations

import dataclasses
import re

from manasolver.models.abilities import Restriction
from manasolver.models.card import Card
from manasolver.models.state import Permanent

__all__ = ["OWN_SPENDING", "PRODUCERS", "not_for_spells", "own_rule", "produced_ok", "rule_text"]

#: The rule, with what must produce the mana.
OWN_SPENDING = re.compile(r"Spend only mana produced by (?P<what>[^.]*?) to cast this spell\.")

#: The producers this engine reads: the card types (and supertypes) the source must have.
PRODUCERS: dict[str, tuple[frozenset[str], frozenset[str]]] = {
    "creatures": (frozenset({"creature"}), frozenset()),
    "basic lands": (frozenset({"land"}), frozenset({"basic"})),
}


def own_rule(card: Card | None) -> str | None:
    """The producers the spell ``card``'s own spending rule names ("creatures", "basic lands", or
    other words as written), or ``None`` when it has none."""
    if card is None:
        return None
    m = OWN_SPENDING.search(card.oracle_text)
    return m.group("what") if m else None


def produced_ok(rule: str, perm: Permanent | None) -> bool:
    """May mana that ``perm`` produced (``None``: a card of the hand, or the pool) be spent on
    a spell whose own rule names ``rule`` (one of :data:`PRODUCERS`)?"""
    if perm is None:
        return False
    types, supertypes = PRODUCERS[rule]
    return bool(types & set(perm.types)) and supertypes <= set(perm.card.type_line.supertypes)


def rule_text(card: Card | None, rule: str) -> str:
    """The restriction's text shown for a source the rule does not name."""
    name = card.name if card is not None else "the spell"
    return f"{name}: spend only mana produced by {rule} to cast it"


def not_for_spells(r: Restriction | None, text: str) -> Restriction:
    """``r`` (``None``: no restriction) that may pay no spell; abilities as before."""
    if r is None:
        return Restriction(text, abilities=True, spells=False, any_ability=True)
    return dataclasses.replace(r, spells=False)
