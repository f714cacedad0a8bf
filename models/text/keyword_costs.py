"""Costs printed as keywords: additional costs and alternative costs of spells.

A spell's total cost (CR 601.2f) is its mana cost, or one alternative cost
(CR 118.9), plus every additional cost the caster chooses to pay (CR 118.8):

* additional: kicker (702.33; "Kicker {A} and/or {B}" gives ``kicker`` and
  ``kicker2``), multikicker (702.33c, any number of times), buyback (702.27),
  entwine (702.42), replicate (702.56, any number of times), escalate (702.120,
  once per mode beyond the first), squad (702.157, any number of times),
  offspring (702.175);
* alternative: flashback (702.34, from the graveyard), evoke (702.74), dash
  (702.109), overload (702.96), spectacle (702.137), surge (702.117), prowl
  (702.76), blitz (702.152), bestow (702.103, cast as an Aura spell), mutate
  (702.140), miracle (702.94), madness (702.35, from exile), cleave (702.148),
  disturb (702.146, the back face from the graveyard).

Impending (702.176) is read by the card builder into ``Card.alternative_costs``.
What the condition of an alternative cost asks (an opponent lost life this turn
for spectacle, the card was just drawn for miracle) is history that a board does
not hold: naming the alternative cost asserts it.
"""

from __future__ import annotations

import re
from functools import lru_cache

from manasolver.models.card import Card
from manasolver.models.card_text import KeywordCost
from manasolver.models.cost import ManaCost

__all__ = ["ADDITIONAL", "ALTERNATIVE", "KeywordCost", "keyword_cost", "keyword_costs", "read_keyword_costs"]

#: Additional-cost keywords and whether they may be paid more than once.
ADDITIONAL = {"kicker": False, "multikicker": True, "buyback": False, "entwine": False,
              "replicate": True, "escalate": True, "squad": True, "offspring": False}
#: Alternative-cost keywords and the zone the card is cast from.
ALTERNATIVE = {"flashback": "graveyard", "evoke": "hand", "dash": "hand", "overload": "hand",
               "spectacle": "hand", "surge": "hand", "prowl": "hand", "blitz": "hand", "bestow": "hand",
               "mutate": "hand", "miracle": "hand", "madness": "exile", "cleave": "hand",
               "disturb": "graveyard"}

_SYMBOLS = r"(?:\{[^}\s]+\})+"
_LINE = re.compile(rf"^(?P<kw>[A-Z][a-z]+)(?: \d+)?(?: |—)(?P<cost>{_SYMBOLS})"
                   rf"(?: and/or (?P<second>{_SYMBOLS}))?(?:\s*\(.*\))?\s*$")




def keyword_costs(card: Card) -> tuple[KeywordCost, ...]:
    """The keyword additional and alternative costs printed on ``card``, in printed order.

    Costs that are not mana (``Kicker—Sacrifice a creature``) are not listed: the
    engine pays mana, and a request naming them is refused as unknown.  The reading stored
    on the card when it was built; a card built by hand (or whose text could not be read,
    which raises here) is read here, cached.
    """
    text = card.text
    if text is not None and text.keyword_costs is not None:
        return text.keyword_costs
    return _keyword_costs(card.oracle_text or "")


def read_keyword_costs(oracle_text: str) -> tuple[KeywordCost, ...]:
    """The keyword costs of one rules text, in printed order."""
    out: list[KeywordCost] = []
    for line in oracle_text.split("\n"):
        m = _LINE.match(line.strip())
        if not m:
            continue
        kw = m.group("kw").lower()
        try:
            cost = ManaCost.parse(m.group("cost"), "oracle_text")
        except ValueError:
            continue
        if kw in ADDITIONAL:
            out.append(KeywordCost(kw, "additional", cost, ADDITIONAL[kw]))
            if kw == "kicker" and m.group("second"):
                out.append(KeywordCost("kicker2", "additional", ManaCost.parse(m.group("second"), "oracle_text")))
        elif kw in ALTERNATIVE:
            out.append(KeywordCost(kw, "alternative", cost, zone=ALTERNATIVE[kw]))
    return tuple(out)


_keyword_costs = lru_cache(maxsize=2048)(read_keyword_costs)


def keyword_cost(card: Card, name: str, kind: str) -> KeywordCost | None:
    """The keyword cost ``name`` of ``kind`` printed on ``card``, if any."""
    return next((k for k in keyword_costs(card) if k.name == name and k.kind == kind), None)
