"""The large-board flow's shortcuts (fastopt/unitflow.py, backends/matching.py) against the plain algorithms.

* Generic mana takes any unit, so each source's arc to the generic demand is its cheapest: the
  generic demand filled from the cheapest sources (:meth:`_Flow.prefill`) is a least-cost flow
  of its value, and the cheapest paths from there reach the least cost of the whole network.
  On random networks of the flow's shape (classes with members as capacity, colored demands,
  a generic demand every class reaches at its least cost): the units pushed and their cost
  equal those of the cheapest paths from no flow at all.
* ``transport`` places units by augmenting paths on paired-edge lists; the flow (every row) is
  the one the dictionary network of :func:`_edge` and :func:`_augment` finds, the same
  breadth-first order, on random units and demands, with the pool routed first.
* The transport's search takes each unit's demands as soon as the unit is found, and stops at the
  first node found with room to the sink: on transport networks and on other shapes (edges
  between units, into the source, from a unit to the sink, where it falls back to the plain
  order) it pushes along the very paths of the plain breadth-first search.
* The bound colors aside reads the cheapest activations' running sums by a binary search: for
  every count it is the greedy sum of the cheapest, and none past what they hold.
* On the client benchmark's mixed boards of 300 permanents with a cost needing ~75% of their
  mana, ``pay`` is answered without a time bound and ``validate`` accepts every payment.
"""

from __future__ import annotations

import random
from collections import deque

import pytest
from manasolver.benchmarks import boards as bd
from manasolver.models.cost import ManaCost
from manasolver.models.symbols import ANY_TYPE, TYPE_BITS
from manasolver.solver.backends.fastopt.unitflow import _DIGIT, _Cheapest, _Flow
from manasolver.solver.backends.matching import Network, transport
from manasolver.solver.casting.announce import announce
from manasolver.solver.service.protocol import answer

# -- the reference: a residual network of dictionaries, augmented along shortest paths ---------------

def _edge(adj: dict[int, list[int]], cap: dict[tuple[int, int], int], a: int, b: int, c: int) -> None:
    """Add capacity ``c`` from ``a`` to ``b`` in a residual network (the reverse arc at 0)."""
    if (a, b) not in cap:
        adj[a].append(b)
        adj[b].append(a)
        cap[(b, a)] = cap.get((b, a), 0)
    cap[(a, b)] = cap.get((a, b), 0) + c


def _augment(adj: dict[int, list[int]], cap: dict[tuple[int, int], int], sink: int) -> int:
    """Push flow along shortest augmenting paths from node 0 until none is left."""
    flowed = 0
    while True:
        prev = {0: 0}
        q = deque([0])
        while q and sink not in prev:
            a = q.popleft()
            for b in adj[a]:
                if b not in prev and cap[(a, b)] > 0:
                    prev[b] = a
                    q.append(b)
        if sink not in prev:
            break
        path = []
        b = sink
        while b != 0:
            path.append((prev[b], b))
            b = prev[b]
        push = min(cap[e] for e in path)
        flowed += push
        for a, b in path:
            cap[(a, b)] -= push
            cap[(b, a)] += push
    return flowed


def _random_network(seed: int) -> tuple[list[tuple[int, int, int]], list[int], list[tuple[int, list[int]]]]:
    """A random network: colored arcs ``(class, demand, cost)``, the colored demands' counts, and
    per class its members and its costs (the generic arc's first, the least of them)."""
    rng = random.Random(seed)
    classes, colored = rng.randint(1, 12), rng.randint(0, 4)
    needs = [rng.randint(1, 4) for _ in range(colored)]
    arcs: list[tuple[int, int, int]] = []
    rows: list[tuple[int, list[int]]] = []
    for k in range(classes):
        base = rng.randint(0, 3) * _DIGIT + k + 1
        costs = [base]
        for d in range(colored):
            if rng.random() < 0.5:
                c = base + rng.randint(0, 2) * _DIGIT * _DIGIT
                arcs.append((k, d, c))
                costs.append(c)
        rows.append((rng.randint(1, 5), costs))
    return arcs, needs, rows


def _solve(seed: int, generic: int, prefill: bool) -> tuple[int, int]:
    """The units pushed and their cost on the network of ``seed`` with ``generic`` generic mana."""
    arcs, needs, rows = _random_network(seed)
    nc, nd = len(rows), len(needs) + 1
    s, t = 0, 1 + nc + nd
    g = _Flow(t + 1)
    gen = nd - 1
    priced: list[tuple[int, int]] = []  # (edge, cost)
    paths: list[tuple[int, tuple[int, ...]]] = []
    for k, (members, costs) in enumerate(rows):
        into = g.edge(s, 1 + k, members, 0)
        e = g.edge(1 + k, 1 + nc + gen, 99, costs[0])
        priced.append((e, costs[0]))
        paths.append((costs[0], (into, e)))
    for k, d, c in arcs:
        priced.append((g.edge(1 + k, 1 + nc + d, 99, c), c))
    for d, n in enumerate(needs):
        g.edge(1 + nc + d, t, n, 0)
    out = g.edge(1 + nc + gen, t, generic, 0)
    total = sum(needs) + generic
    pre = g.prefill([(c, (*path, out)) for c, path in paths]) if prefill else 0
    pushed = pre + g.run(s, t, total - pre)
    return pushed, sum(g.cap[e ^ 1] * c for e, c in priced)


@pytest.mark.parametrize("seed", range(60))
def test_generic_filled_first_reaches_the_least_cost(seed: int) -> None:
    generic = random.Random(seed + 1000).randint(0, 12)
    assert _solve(seed, generic, True) == _solve(seed, generic, False)


def _dictionary_transport(units: list[tuple[int, bool, int]], demands: list[tuple[tuple[object, ...], int, int]],
                          first: frozenset[int]) -> list[tuple[int, int, int]]:
    """The flow of ``transport``'s network built on :func:`_edge` and augmented by
    :func:`_augment`: ``(unit, demand, units)`` rows."""
    nu = len(units)
    sink = nu + len(demands) + 1
    cap: dict[tuple[int, int], int] = {}
    adj: dict[int, list[int]] = {i: [] for i in range(sink + 1)}
    for ui, (mask, _snow, count) in enumerate(units):
        _edge(adj, cap, 0, 1 + ui, count if not first or ui in first else 0)
        for di, (_key, m, _c) in enumerate(demands):
            if m == -2 or (m > 0 and mask & m):
                _edge(adj, cap, 1 + ui, nu + 1 + di, count)
    for di, (_key, _m, c) in enumerate(demands):
        _edge(adj, cap, nu + 1 + di, sink, c)
    _augment(adj, cap, sink)
    if first:
        for ui, (_mask, _snow, count) in enumerate(units):
            if ui not in first:
                cap[(0, 1 + ui)] += count
        _augment(adj, cap, sink)
    return [(ui, di, cap[(nu + 1 + di, 1 + ui)]) for ui in range(nu) for di in range(len(demands))
            if cap.get((nu + 1 + di, 1 + ui), 0)]


@pytest.mark.parametrize("seed", range(60))
def test_transport_finds_the_dictionary_networks_flow(seed: int) -> None:
    rng = random.Random(seed)
    cost = "".join(rng.choice(["{W}", "{U}", "{B}", "{R}", "{G}", "{C}", "{W/U}", "{1}", "{2}"])
                   for _ in range(rng.randint(1, 7)))
    form = announce(ManaCost.parse(cost), 0).forms[0]
    units = [(rng.choice([b for b in TYPE_BITS] + [ANY_TYPE, 3, 24]), False, rng.randint(1, 3))
             for _ in range(rng.randint(1, 8))]
    first = frozenset(i for i in range(len(units)) if rng.random() < 0.3)
    rows = transport(units, form, 0, first)
    demands: list[tuple[tuple[object, ...], int, int]] = [(("spell", m), m, c) for m, c in form.demands]
    if form.generic(0):
        demands.append((("generic",), -2, form.generic(0)))
    want = _dictionary_transport(units, demands, first)
    where = f"{cost} {units} first={sorted(first)}"
    if sum(n for *_, n in want) < sum(c for _, _, c in demands):
        assert rows is None, where
        return
    assert rows is not None, where
    keys = [key for key, _m, _c in demands]
    assert sorted((ui, keys.index(dkey), n) for ui, dkey, _bit, n in rows) == sorted(want), where


def _plain_augment(net: Network, sink: int) -> int:
    """Shortest augmenting paths on ``net``'s paired edges by the plain breadth-first search: every
    node found is queued and read in turn until the sink is found."""
    head, to, cap = net.head, net.to, net.cap
    flowed = 0
    while True:
        back = [-1] * len(head)
        back[0] = -2
        queue = [0]
        for a in queue:
            if back[sink] != -1:
                break
            for e in head[a]:
                if back[to[e]] == -1 and cap[e] > 0:
                    back[to[e]] = e
                    queue.append(to[e])
        if back[sink] == -1:
            return flowed
        path, b = [], sink
        while b != 0:
            path.append(back[b])
            b = to[back[b] ^ 1]
        push = min(cap[e] for e in path)
        for e in path:
            cap[e] -= push
            cap[e ^ 1] += push
        flowed += push


@pytest.mark.parametrize("seed", range(300))
def test_transport_search_on_other_shapes_is_the_plain_breadth_first_search(seed: int) -> None:
    rng = random.Random(seed)
    nu, nd = rng.randint(1, 8), rng.randint(1, 4)
    sink = nu + nd + 1
    spec = [(0, 1 + u, rng.randint(0, 4)) for u in range(nu)]
    spec += [(1 + u, nu + 1 + d, rng.randint(1, 4)) for u in range(nu) for d in range(nd) if rng.random() < 0.5]
    for _ in range(rng.randint(0, 4) if seed % 3 else 0):  # between units, into the source, to the sink
        a, b = rng.randint(0, sink - 1), rng.randint(0, sink)
        if a != b:
            spec.append((a, b, rng.randint(0, 3)))
    spec += [(nu + 1 + d, sink, rng.randint(0, 5)) for d in range(nd)]
    rng.shuffle(spec)
    nets = [Network(sink + 1), Network(sink + 1)]
    for net in nets:
        for a, b, c in spec:
            net.edge(a, b, c)
    assert nets[0].augment(sink) == _plain_augment(nets[1], sink), spec
    assert nets[0].cap == nets[1].cap, spec


@pytest.mark.parametrize("seed", range(40))
def test_cheapest_activations_running_sums_are_the_greedy_sum(seed: int) -> None:
    rng = random.Random(seed)
    rows = sorted(((rng.randint(0, 3), rng.randint(0, 9)), rng.randint(0, 4)) for _ in range(rng.randint(0, 6)))
    cheapest = _Cheapest(rows, 2)
    for need in range(-1, sum(n for _v, n in rows) + 3):
        left, vec = need, [0, 0]
        for each, avail in rows:
            if left <= 0:
                break
            take = min(avail, left)
            left -= take
            vec = [a + take * b for a, b in zip(vec, each)]
        assert cheapest.least(need) == (None if left > 0 else vec), (rows, need)


@pytest.mark.parametrize("seed", range(3))
def test_mixed_board_of_300_at_75_percent_is_paid_validly(seed: int) -> None:
    board = bd.mixed_board(300, 7000 + seed)
    cost = bd.mana_cost_share(board, 0.75, seed)
    got = answer({"query": "pay", "state": board, "cost": cost})
    assert got.get("payable") is True and not got.get("time_bound"), got
    checked = answer({"query": "validate", "state": board, "cost": cost, "payment": got["payment"]})
    assert checked["legal"], checked
