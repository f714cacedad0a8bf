"""The plain plan's allocation taken a run of demands at a time (solver/payment_order.py).

A payment whose activations cost no mana is written with a greedy allocation: each symbol of
one type paid by the pool first and then by the activations in board order, each other symbol
by the first type (pool first, then activations, in the order first met) with units left that
pays it.  Demands alike (the generic mana of a large cost, a run of one hybrid) take what one
type has left at once; the allocation must be the one the demand-by-demand reading gives,
entry for entry, on random activations, pools, floating mana and totals.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from manasolver.models.symbols import ANY_TYPE, B, C, G, R, U, W
from manasolver.solver.payment_order import Demand, Paid, Plan, Step, _plain_plan

_TYPES = (W, U, B, R, G, C)
_DEMANDS = (Demand("{1}", ANY_TYPE, True), Demand("{W}", W), Demand("{U}", U), Demand("{C}", C),
            Demand("{W/U}", W | U), Demand("{U/W}", W | U), Demand("{B/G}", B | G), Demand("{G/W}", G | W))


def _one_by_one(steps: list[Step], totals: list[Demand], pool: list[int], floating: list[int]) -> Plan | None:
    """The allocation demand by demand over a list of units (the reading the runs must equal):
    the floating mana is the last unit of its type, a symbol of one type takes the pool's unit
    of that type, else the first activation's; any other the first type with units left that
    pays it, the pool's types first, each list in the order its types are first met."""
    units = [(i, bit) for i, s in enumerate(steps) for bit in s.mana]
    made_types = list(dict.fromkeys(bit for _i, bit in units))
    for bit in floating:
        last = [j for j, (_i, b) in enumerate(units) if b == bit]
        if not last:
            return None
        del units[last[-1]]
    left = list(pool)
    pool_types = list(dict.fromkeys(pool))

    def from_pool(bit: int, symbol: str) -> Paid | None:
        if bit in left:
            left.remove(bit)
            return (symbol, "pool", True)
        return None

    def from_activation(bit: int, symbol: str) -> Paid | None:
        hit = next((j for j, (_i, b) in enumerate(units) if b == bit), None)
        return None if hit is None else (symbol, "activation", units.pop(hit)[0])

    paid: list[Paid | None] = [None] * len(totals)
    for t, d in enumerate(totals):
        if not d.generic and d.mask.bit_count() == 1:
            paid[t] = from_pool(d.mask, d.symbol) or from_activation(d.mask, d.symbol)
            if paid[t] is None:
                return None
    for t, d in enumerate(totals):
        if paid[t] is None:
            paid[t] = next((from_pool(b, d.symbol) for b in pool_types if b & d.mask and b in left), None) or \
                next((from_activation(b, d.symbol) for b in made_types
                      if b & d.mask and any(u == b for _i, u in units)), None)
            if paid[t] is None:
                return None
    if left or units:
        return None
    return Plan(tuple(range(len(steps))), tuple(p for p in paid if p is not None))


@st.composite
def _cases(draw: st.DrawFn) -> tuple[list[Step], list[Demand], list[int], list[int]]:
    steps = [Step(tuple(draw(st.lists(st.sampled_from(_TYPES), min_size=1, max_size=2))))
             for _ in range(draw(st.integers(0, 14)))]
    made = [b for s in steps for b in s.mana]
    pool = draw(st.lists(st.sampled_from(_TYPES), max_size=3))
    floating = draw(st.lists(st.sampled_from(made), max_size=2)) if made else []
    totals = draw(st.lists(st.sampled_from(_DEMANDS), max_size=len(made) + len(pool) + 1))
    totals.sort(key=lambda d: not d.generic)  # as a written total reads: generic first
    return steps, totals, pool, floating


@settings(max_examples=600, deadline=None)
@given(_cases())
def test_plain_plan_runs_equal_the_demand_by_demand_allocation(
        case: tuple[list[Step], list[Demand], list[int], list[int]]) -> None:
    steps, totals, pool, floating = case
    assert _plain_plan(steps, totals, pool, floating, ()) == _one_by_one(steps, totals, pool, floating)


def test_plain_plan_generic_run_takes_the_pool_then_activations_in_order() -> None:
    """{3}{W} from a pool of {U} and three activations ({W}, {G}, {G}): the {W} from the first
    activation, the generic from the pool's {U}, then the {G}s in board order."""
    steps = [Step((W,)), Step((G,)), Step((G,))]
    got = _plain_plan(steps, [_DEMANDS[0]] * 3 + [_DEMANDS[1]], [U], [], ())
    assert got is not None
    assert got.paid == (("{1}", "pool", True), ("{1}", "activation", 1), ("{1}", "activation", 2),
                        ("{W}", "activation", 0))


@pytest.mark.parametrize("seed", range(600))
def test_plain_plan_read_per_step_object_equals_the_demand_by_demand_allocation(seed: int) -> None:
    """Activations alike sharing their step object (some making two units of one type, some
    objects making the same types), as a payment's steps do; totals as written (generic first)
    or in any order."""
    rng = random.Random(seed)
    kinds = [Step(tuple(rng.choice(_TYPES) for _ in range(rng.randint(1, 2)))) for _ in range(rng.randint(1, 4))]
    steps = [rng.choice(kinds) for _ in range(rng.randint(0, 16))]
    made = [b for s in steps for b in s.mana]
    pool = [rng.choice(_TYPES) for _ in range(rng.randint(0, 3))]
    floating = [made[k] for k in rng.sample(range(len(made)), min(len(made), rng.randint(0, 2)))]
    units = list(pool) + made
    for bit in floating:
        units.remove(bit)
    # mostly a total the units pay exactly (a demand each, of a kind its type pays), now and then
    # one unit short or over
    totals = [rng.choice([d for d in _DEMANDS if d.mask & bit]) for bit in units]
    if rng.random() < 0.1:
        totals = totals[1:] if rng.random() < 0.5 else [*totals, _DEMANDS[0]]
    rng.shuffle(totals)
    if rng.random() < 0.7:
        totals.sort(key=lambda d: not d.generic)
    assert _plain_plan(steps, totals, pool, floating, ()) == _one_by_one(steps, totals, pool, floating), seed
