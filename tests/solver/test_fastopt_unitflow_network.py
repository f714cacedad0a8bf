"""The min-cost flow of the large-board path (fastopt/unitflow.py) against networkx.

Each cheapest augmenting path is found by Bellman-Ford with a queue; on random networks of the
flow's shape (the source, classes with their members as capacity, demands with their counts,
the sink; edge costs as large as the packed vectors of the policy), the units pushed and their
total cost are those of networkx's max-flow min-cost on the same network with the source
capped at the units asked for.
"""

from __future__ import annotations

import random

import networkx as nx
import pytest

from manasolver.solver.backends.fastopt.unitflow import _DIGIT, _Flow


def _network(seed: int) -> tuple[_Flow, nx.DiGraph, int, list[tuple[int, int, int]]]:
    rng = random.Random(seed)
    classes, demands = rng.randint(1, 14), rng.randint(1, 5)
    s, t = 0, 1 + classes + demands
    flow = _Flow(t + 1)
    graph = nx.DiGraph()
    graph.add_edge("cap", s, capacity=0, weight=0)
    edges: list[tuple[int, int, int]] = []  # (edge index, cost, ...)
    want = 0
    for d in range(demands):
        c = rng.randint(1, 6)
        want += c
        flow.edge(1 + classes + d, t, c, 0)
        graph.add_edge(1 + classes + d, t, capacity=c, weight=0)
    for k in range(classes):
        n = rng.randint(1, 5)
        flow.edge(s, 1 + k, n, 0)
        graph.add_edge(s, 1 + k, capacity=n, weight=0)
        for d in range(demands):
            if rng.random() < 0.6:
                # a packed vector: a few criteria, the tie-break last (distinct per class or not)
                cost = rng.randint(0, 2) * _DIGIT * _DIGIT + rng.randint(0, 3) * _DIGIT + rng.choice([k + 1, 1])
                e = flow.edge(1 + k, 1 + classes + d, want, cost)
                graph.add_edge(1 + k, 1 + classes + d, capacity=want, weight=cost)
                edges.append((e, cost, 0))
    want -= rng.randint(0, 2)  # sometimes less than the demands ask
    graph["cap"][s]["capacity"] = max(want, 0)
    return flow, graph, max(want, 0), edges


@pytest.mark.parametrize("seed", range(150))
def test_unit_flow_pushes_the_max_flow_at_networkx_min_cost(seed: int) -> None:
    flow, graph, want, edges = _network(seed)
    pushed = flow.run(0, len(flow.head) - 1, want)
    cost = sum(flow.cap[e ^ 1] * c for e, c, _ in edges)
    best = nx.max_flow_min_cost(graph, "cap", len(flow.head) - 1)
    assert pushed == sum(best["cap"].values())
    assert cost == nx.cost_of_flow(graph, best)


@pytest.mark.parametrize("order", [0, 1, 2])
def test_a_unit_arc_costs_its_packed_vector_whatever_the_order_of_the_criteria(order: int) -> None:
    """Each one-unit mode's arc in the flow costs the packed vector of one activation whose unit
    is left unspent (waste 1), and its vector is the one activation's (waste 0): the costs summed
    once per kind of mode count every term wherever the policy ranks it, the tie-break last, and
    a payment's vector sums its activations' vectors."""
    from manasolver.benchmarks import boards as bd
    from manasolver.solver import queries
    from manasolver.solver.backends.fastopt.floor import prepared
    from manasolver.solver.backends.fastopt.unitflow import _TERMS, _Shape, _kind, _pack
    from manasolver.solver.policy import criteria_vector
    from manasolver.solver.service import protocol

    state = bd.mixed_board(300, 7000)
    req = protocol.build_request({"query": "pay", "state": state, "cost": bd.mana_cost_share(state, 0.75, 0)})
    problem = queries.prepare(req, "optimal", 0)
    criteria = problem.policy.criteria
    criteria = (criteria, criteria[::-1], tuple(sorted(criteria)))[order]
    start = prepared(problem, criteria)
    assert start is not None
    shape = _Shape(problem, criteria, start.modes)
    rows = [row for rows in shape.unit_rows.values() for row in rows]
    assert len({(md.sac, md.life, md.nonland) for md, *_ in rows}) > 1  # several kinds of mode
    for md, _i, _m, vec, cost in rows:
        # one activation's terms by name, as the policy reads a payment's (not through _values)
        terms = {**dict.fromkeys(_TERMS, 0), "no_sacrifice": md.sac, "min_life": md.life,
                 "prefer_lands": md.nonland, "min_sources": 1, "tiebreak": md.weight}
        assert vec == shape.vec(md) == criteria_vector(terms, criteria)
        assert shape.vector({_kind(md): 2}, 2 * md.weight, 0) == tuple(2 * v for v in vec)
        assert cost == _pack(criteria_vector({**terms, "min_waste": 1}, criteria))
        assert vec[-1] == md.weight


@pytest.mark.parametrize("seed", range(20))
def test_the_least_vector_of_n_activations_sums_the_n_cheapest(seed: int) -> None:
    """:class:`_Cheapest`: the least vector of ``need`` one-unit-net activations is the sum of the
    ``need`` cheapest, each row counted as many times as it holds activations; None past them."""
    from manasolver.solver.backends.fastopt.unitflow import _Cheapest

    rng = random.Random(seed)
    width = rng.randint(1, 4)
    rows = sorted((tuple(rng.randint(0, 9) for _ in range(width)), rng.randint(1, 4))
                  for _ in range(rng.randint(0, 6)))
    cheapest = _Cheapest(rows, width)
    each = [vec for vec, avail in rows for _ in range(avail)]
    for need in range(-1, len(each) + 2):
        got = cheapest.least(need)
        if need > len(each):
            assert got is None
        else:
            assert got == ([sum(col) for col in zip(*each[:need])] if need > 0 else [0] * width)
