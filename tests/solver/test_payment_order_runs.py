"""The executable order's shortcuts (solver/payment_order.py) against the plain algorithms.

* The stable topological order is taken in runs (the ready indices in order up to the next one
  others wait for, or the least of those that became ready later); on random constraints of the
  shape a payment has (a few activations after the ones that paid their costs, some order
  constraints of sacrifices, cycles among them) it is the order of the plain rule: each time the
  smallest index whose predecessors are all placed, None on a cycle.
* ``executable(..., allocate=False)`` is the order ``executable`` writes, without the allocation,
  on the client benchmark's mixed boards where Signets' ``{1}`` order the payment (CR 605.3a).
"""

from __future__ import annotations

import heapq
import random

import pytest
from manasolver.benchmarks import boards as bd
from manasolver.solver import queries
from manasolver.solver.payment_order import _topological, executable
from manasolver.solver.payment_writer import Finisher, Written, _steps, _widen
from manasolver.solver.payment_order import mana_bits, total_demands, widened
from manasolver.solver.service.protocol import build_request


def _plain_topological(n: int, before: dict[int, set[int]]) -> list[int] | None:
    """Each time the smallest index whose predecessors are all placed (a heap of the ready ones)."""
    waiting = [len(before.get(i, ())) for i in range(n)]
    after: list[list[int]] = [[] for _ in range(n)]
    for i, b in before.items():
        for j in b:
            after[j].append(i)
    ready = [i for i in range(n) if not waiting[i]]
    heapq.heapify(ready)
    out: list[int] = []
    while ready:
        i = heapq.heappop(ready)
        out.append(i)
        for k in after[i]:
            waiting[k] -= 1
            if not waiting[k]:
                heapq.heappush(ready, k)
    return out if len(out) == n else None


@pytest.mark.parametrize("seed", range(300))
def test_topological_order_in_runs_is_the_smallest_ready_index_each_time(seed: int) -> None:
    rng = random.Random(seed)
    n = rng.randint(1, 40)
    before: dict[int, set[int]] = {}
    for _ in range(rng.randint(0, 8)):
        i = rng.randrange(n)
        before.setdefault(i, set()).update(rng.sample(range(n), rng.randint(1, min(3, n))))
        before[i].discard(i) if rng.random() < 0.9 else None  # now and then a step after itself: a cycle
    assert _topological(n, before) == _plain_topological(n, before), before


def test_order_alone_is_the_order_executable_writes_signets_605_3a() -> None:
    exercised = 0
    for seed in range(4):
        board = bd.mixed_board(300, 7000 + seed)
        cost = bd.mana_cost_share(board, 0.75, seed)
        ans = queries.pay(build_request({"query": "pay", "state": board, "cost": cost}))
        assert ans.payable and isinstance(ans.source, Written)
        problem = ans.source.problem
        out = ans.source.to_json()
        widen = _widen(problem)
        options = Finisher(problem).options
        founds = [options[(a["permanent"], a["ability"])] for a in out["activations"]]
        steps = _steps(problem.req.state, widen, out["activations"], founds)
        exercised += any(s.cost for s in steps)
        args = (steps, widened(total_demands(out["total"]), widen), mana_bits(out["pool_used"]),
                mana_bits(out["floating"]))
        full = executable(*args)
        alone = executable(*args, allocate=False)
        assert alone.order == full.order and alone.ordered == full.ordered and alone.paid == (), seed
    assert exercised, "no activation cost mana: the order was not exercised"
