"""Mana abilities whose cost taps other untapped permanents the player controls.

Heritage Druid ("Tap three untapped Elves you control: Add {G}{G}{G}."), Birchlore Rangers,
Seton, Krosan Protector ("Tap an untapped Druid you control: Add {G}."), Urza, Lord High
Artificer ("Tap an untapped artifact you control: Add {U}."), Moonsnare Prototype ("{T},
Tap an untapped artifact or creature you control: Add {C}.").  The oracle parser leaves
these clauses in ``Card.unsupported`` (only Springleaf Drum's "{T}, Tap an untapped creature
you control" becomes ``AbilityCost.tap_creatures``); this module reads them apart from the
parser, as :class:`TapCost` values: the ability (its cost without the tapping part), the
types any of which each tapped permanent must have, and how many are tapped.

Rules: tapping an untapped permanent is a cost any untapped permanent of the type can pay,
summoning sick or not (CR 302.6 restricts only the {T} and {Q} abilities of the creature
itself; Heritage Druid rulings); each permanent is tapped once (it is tapped afterwards,
CR 118.3, 701.26a), and Heritage Druid may tap itself.  Only plain filters are read (a
card type or a subtype, or "artifact or creature"); a filter with a color ("an untapped
blue creature", Grand Architect) or a spending restriction stays unread.

>>> from manasolver.models.card import Card
>>> druid = Card("Heritage Druid", unsupported=("Tap three untapped Elves you control: Add {G}{G}{G}.",))
>>> [(t.types, t.count, t.ability.production.options) for t in tap_costs(druid)]
[(('elf',), 3, ((16, 16, 16),))]
"""

from __future__ import annotations

import re
from functools import lru_cache

from manasolver.models.abilities import AbilityCost, ManaAbility, Production
from manasolver.models.card_text import TapCost
from manasolver.models.card import Card
from manasolver.models.symbols import ANY_COLOR, mask_from_letters

__all__ = ["TapCost", "is_tap_cost_clause", "read_tap_costs", "tap_costs", "tap_costs_after"]

_COUNTS = {"an": 1, "a": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5}
#: Plural and singular spellings of the filters read, to the lower-case type or subtype.
_TYPES = {"creature": "creature", "creatures": "creature", "artifact": "artifact", "artifacts": "artifact",
          "elf": "elf", "elves": "elf", "druid": "druid", "druids": "druid", "goblin": "goblin",
          "goblins": "goblin", "merfolk": "merfolk", "land": "land", "lands": "land"}
_CLAUSE = re.compile(
    r"^(?P<self>\{T\}, )?Tap (?P<n>an|a|one|two|three|four|five) untapped (?P<what>[A-Za-z ]+?) you control: "
    r"Add (?P<mana>(?:\{[WUBRGC]\})+|one mana of any color)\.$")




def _read(clause: str, index: int) -> TapCost | None:
    m = _CLAUSE.match(clause.strip())
    if m is None:
        return None
    words = m.group("what").lower().split(" or ")
    if not all(w in _TYPES for w in words):
        return None
    types = tuple(dict.fromkeys(_TYPES[w] for w in words))
    mana = m.group("mana")
    if mana == "one mana of any color":
        slots: tuple[int, ...] = (ANY_COLOR,)
    else:
        slots = tuple(mask_from_letters(letter) for letter in re.findall(r"\{(\w)\}", mana))
    own_tap = bool(m.group("self"))
    ability = ManaAbility(AbilityCost(tap=own_tap), Production(options=(slots,)), text=clause.strip(),
                          index=index)
    tap_part = clause.strip().split(":")[0].split(", ")[-1]
    parts = (("{T}",) if own_tap else ()) + (tap_part[0].lower() + tap_part[1:],)
    return TapCost(ability, types, _COUNTS[m.group("n")], parts)


def is_tap_cost_clause(clause: str) -> bool:
    """True when ``clause`` is read here (a clause the oracle parser leaves unread)."""
    return _read(clause, 0) is not None


def tap_costs(card: Card) -> tuple[TapCost, ...]:
    """The tap-other-permanents mana abilities of ``card`` among its unread clauses, indexed
    after its parsed mana abilities."""
    return tap_costs_after(card, len(card.mana_abilities))


def tap_costs_after(card: Card, first_index: int) -> tuple[TapCost, ...]:
    """As :func:`tap_costs`, indexed from ``first_index`` (after the permanent's effective
    mana abilities, which land-type changes and granted abilities may lengthen).  The
    reading stored on the card is indexed after ``card.mana_abilities``; another
    ``first_index`` is read here (cached)."""
    text = card.text
    if text is not None:
        stored = text.tap_costs
        if not stored or stored[0].ability.index == first_index:
            return stored
    return _cached(card.unsupported, first_index)


def read_tap_costs(clauses: tuple[str, ...], first_index: int) -> tuple[TapCost, ...]:
    """The tapping mana abilities among ``clauses`` (a card's unread clauses), indexed from
    ``first_index``."""
    out: list[TapCost] = []
    for clause in clauses:
        got = _read(clause, first_index + len(out))
        if got is not None:
            out.append(got)
    return tuple(out)


_cached = lru_cache(maxsize=1024)(read_tap_costs)
