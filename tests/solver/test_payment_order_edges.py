"""The executable order's flow read per class (solver/payment_order.py) against the plain reading.

* ``_payable``: the wants a unit may fill, with shortcuts for the common units (of the pool or of
  an activation without a mana cost: every cost its type pays but its maker's; of a ranked maker:
  those of the steps ranked after it; of the pool or an activation, each demand of the total of
  its type, ``{S}`` snow only), is the plain want-by-want reading on random units, wants, ranks.
* ``_step_runs``: one pass over the steps, each object without a mana cost listed once where it
  first comes with its indices, is the reading by grouping the indices by object, on steps that
  share their objects as a payment's alike activations do.
"""

from __future__ import annotations

import random
from itertools import groupby

import pytest
from manasolver.models.symbols import ANY_COLOR, ANY_TYPE, C, B, G, R, U, W
from manasolver.solver.payment_order import (COLORED_UNIT, SNOW_UNIT, Demand, Step, _payable, _step_runs,
                                             _Unit, _want_kinds)

_BITS = (W, U, B, R, G, C)


def _may_fill(u: _Unit, want: tuple[str, int, int], totals: list[Demand], rank: dict[int, int],
              free_rest: frozenset[int]) -> bool:
    """May unit ``u`` fill ``want``: the rules of :func:`_flow`'s docstring read for one want."""
    kind, maker, bit, spell_ok, cost_ok, _ = u
    wkind, i, mask = want
    mana = kind in ("made", "pool")
    if wkind == "float":
        return kind == "made" and bit & ~(SNOW_UNIT | COLORED_UNIT) == mask
    if wkind == "cost":
        if not mana or cost_ok is False or maker == i or not bit & mask:
            return False
        if not isinstance(cost_ok, bool) and i not in cost_ok:
            return False
        if bit & COLORED_UNIT and mask & ANY_TYPE == ANY_TYPE:
            return False  # a unit that pays no generic cost
        if kind == "pool" or maker not in rank:
            return True  # unordered: any cost
        return (maker in free_rest and i in free_rest) or rank[maker] < rank.get(i, len(rank) + 1)
    demand = totals[i]
    if kind in ("improvise", "delve"):
        return demand.generic
    if kind == "convoke":
        return demand.generic or bool(bit & demand.mask and demand.mask != C)
    if bit & COLORED_UNIT and (demand.generic or demand.snow):
        return False
    return spell_ok and bool(bit & mask) and (not demand.snow or bool(bit & SNOW_UNIT))


@pytest.mark.parametrize("seed", range(400))
def test_payable_shortcuts_are_the_want_by_want_reading(seed: int) -> None:
    rng = random.Random(seed)
    steps = rng.randint(1, 12)
    totals = [Demand("{1}", ANY_TYPE, True), Demand("{S}", ANY_TYPE, snow=True)]
    totals += [Demand("{X}", rng.choice(_BITS) | (rng.choice(_BITS) if rng.random() < 0.3 else 0))
               for _ in range(rng.randint(0, 4))]
    wlist: list[tuple[str, int, int]] = [("total", k, d.mask) for k, d in enumerate(totals)]
    for i in rng.sample(range(steps), rng.randint(0, steps)):
        wlist += [("cost", i, rng.choice((ANY_TYPE, rng.choice(_BITS), W | U)))
                  for _ in range(rng.randint(1, 2))]
    wlist += [("float", -1, rng.choice(_BITS)) for _ in range(rng.randint(0, 2))]
    rng.shuffle(wlist)
    kinds = _want_kinds(wlist)
    placed = rng.sample(range(steps), rng.randint(0, steps))
    rank = {i: k for k, i in enumerate(placed)}
    free_rest = frozenset(rng.sample(placed, rng.randint(0, len(placed)))) if rng.random() < 0.5 else frozenset()
    for free in free_rest:
        rank[free] = len(placed)
    for _ in range(20):
        kind = rng.choice(("made", "made", "made", "pool", "convoke", "improvise", "delve"))
        maker = rng.choice((-1, *range(steps))) if kind == "made" else -1
        bit = rng.choice(_BITS) | (SNOW_UNIT if rng.random() < 0.2 else 0) | \
            (COLORED_UNIT if rng.random() < 0.15 else 0)
        if kind == "convoke":
            bit = rng.randint(0, ANY_COLOR)
        cost_ok: bool | frozenset[int] = rng.choice((True, True, False, frozenset(rng.sample(range(steps), 1))))
        unit: _Unit = (kind, maker, bit, rng.random() < 0.85, cost_ok, "")
        plain = [j for j, want in enumerate(wlist) if _may_fill(unit, want, totals, rank, free_rest)]
        assert _payable(unit, kinds, totals, rank, free_rest) == plain, (unit, wlist, rank, free_rest)


def _grouped_step_runs(steps: list[Step]) -> list[tuple[int, list[int] | None]]:
    """The indices grouped by object (a stable sort by id), then listed by first index."""
    ids = list(map(id, steps))
    out: list[tuple[int, list[int] | None]] = []
    for _key, group in groupby(sorted(range(len(steps)), key=ids.__getitem__), ids.__getitem__):
        run = list(group)
        if steps[run[0]].cost:
            out.extend((i, None) for i in run)
        else:
            out.append((run[0], run))
    out.sort(key=lambda r: r[0])
    return out


@pytest.mark.parametrize("seed", range(200))
def test_step_runs_are_the_indices_grouped_by_object(seed: int) -> None:
    rng = random.Random(seed)
    kinds = [Step((rng.choice(_BITS),), (ANY_TYPE,) if rng.random() < 0.3 else ()) for _ in range(rng.randint(1, 6))]
    steps = [rng.choice(kinds) for _ in range(rng.randint(0, 40))]
    assert _step_runs(steps) == _grouped_step_runs(steps)
