"""The linear criteria packed as the digits of one integer.

The criteria counted per activation (sacrifices, life and damage, non-lands, activations:
:data:`LINEAR`) and the tie-break by board position are packed, in the policy's order, as
the base-:data:`DIGIT` digits of one integer.  Digit order is lexicographic order, so one
fractional relaxation of that integer (the cheapest units per mana) bounds all of them
lexicographically at once, even when rounded up from a fraction.  :class:`LinearCosts`
holds the place value of each digit under one policy and the packed cost of one
activation of each mode.
"""

from __future__ import annotations

import math
from collections.abc import Iterable

from manasolver.solver.backends.fastopt.modes import Mode

__all__ = ["COLORS_LOST", "DIGIT", "DIGIT_BITS", "ENERGY", "KEEP_LOST", "LINEAR", "POOL", "WASTE",
           "LinearCosts", "lcm_of", "lcm_upto", "lin_digits"]

#: Criteria counted per activation (sacrifices, life, non-lands, activations); with the
#: tie-break they form the digits of one integer the search bounds as a whole.
LINEAR = ("no_sacrifice", "min_life", "prefer_lands", "min_sources")
#: The base of those digits: above any one criterion's value on any board.
DIGIT_BITS = 48
DIGIT = 1 << DIGIT_BITS

# How a criterion that is not a digit of the packed cost is read (:attr:`LinearCosts.codes`).
KEEP_LOST = -1
COLORS_LOST = -2
WASTE = -3
POOL = -4
ENERGY = -5
_CODES = {"keep_castable": KEEP_LOST, "keep_colors": COLORS_LOST, "min_waste": WASTE,
          "use_pool": POOL, "min_energy": ENERGY}


def lcm_of(values: Iterable[int]) -> int:
    """The least common multiple of the positive ``values``: exact integer per-unit costs
    for exactly the unit counts that occur (its size grows with their number and digits,
    not with their magnitude, as an LCM of 1..n over a counter's value would)."""
    return math.lcm(1, *{v for v in values if v > 0})


def lcm_upto(n: int) -> int:
    """The least common multiple of 1..n: exact integer per-unit costs for sizes up to n."""
    out = 1
    for k in range(2, n + 1):
        out = out * k // math.gcd(out, k)
    return out


def lin_digits(value: int, n: int) -> list[int]:
    """``value`` as ``n`` base-:data:`DIGIT` digits, most significant first.

    Digit order is lexicographic order: a lower bound on the integer is a lexicographic
    lower bound on the criteria it packs, even when rounded up from a fraction."""
    out = [0] * n
    for j in range(n - 1, 0, -1):
        value, out[j] = divmod(value, DIGIT)
    out[0] = value
    return out


class LinearCosts:
    """The packing of the linear criteria of one policy: ``names`` (the policy's linear
    criteria in order, then ``tiebreak``), the place value of each, and the packed cost of
    one activation of a mode.  ``codes`` says how to read each
    criterion of the policy, in order, when a vector is built in the search: the index of
    its digit, or one of :data:`KEEP_LOST`, :data:`COLORS_LOST`, :data:`WASTE`,
    :data:`POOL`, :data:`ENERGY` (decided once, not per node)."""

    __slots__ = ("_at", "codes", "names", "place")

    def __init__(self, criteria: tuple[str, ...]) -> None:
        self.names = [n for n in criteria if n in LINEAR] + ["tiebreak"]
        self.place: dict[str, int] = {n: 1 << (DIGIT_BITS * (len(self.names) - 1 - j))
                                      for j, n in enumerate(self.names)}
        self.codes = [self.names.index(n) if n in LINEAR else _CODES[n] for n in criteria]
        #: The place values of sacrifices, life, non-lands and activations (0: not counted).
        place = self.place
        self._at = (place.get("no_sacrifice", 0), place.get("min_life", 0), place.get("prefer_lands", 0),
                    place.get("min_sources", 0))

    def act_cost(self, md: Mode) -> int:
        """One activation of ``md`` as the linear criteria's packed integer."""
        sac, life, nonland, source = self._at
        return md.sac * sac + md.life * life + md.nonland * nonland + source + md.weight

    def digits(self, value: int) -> list[int]:
        """``value`` unpacked: one digit per name of :attr:`names`."""
        return lin_digits(value, len(self.names))
