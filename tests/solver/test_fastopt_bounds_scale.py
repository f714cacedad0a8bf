"""The relaxation's scale read without each mode's exact unit counts (fastopt/bounds.py).

The relaxation's tables divide a mode's cost by the units it gives (in all, net of its mana
cost, of each demand kind) and scale every row by a common multiple of those counts.  The
exact counts per demand kind (:meth:`Mode.counts`) cost a subset enumeration per mode, so the
common modes (units of one mask, or a few of several masks) are read as "every count up to
its size": the scale is then a multiple of the exact one, and every bound is the same.
"""

from __future__ import annotations

import itertools
import math

import pytest

from manasolver.benchmarks import boards as bd
from manasolver.models.symbols import ANY_TYPE, B, C, G, R, U, W
from manasolver.solver import queries
from manasolver.solver.backends.fastopt import bounds
from manasolver.solver.backends.fastopt.modes import GENERIC_COST, Mode
from manasolver.solver.backends.fastopt.search import Search
from manasolver.solver.service.protocol import build_request

_MASKS = (W, U, B | R, W | U, C, G | U | R, ANY_TYPE)


def _mode(masks: tuple[int, ...], costs: tuple[tuple[int, int], ...]) -> Mode:
    return Mode(0, ((0, 0),), masks, False, 0, 0, 0, 0, 1, costs)


@pytest.mark.parametrize("size", [1, 2, 3, 4, 5])
def test_unit_counts_scale_divides_by_every_exact_count(size: int) -> None:
    """Every mask tuple of up to five units of seven masks, with and without a mana cost:
    the size and cost read alike, and the LCM of the counts read is a multiple of the LCM of
    the exact ones (so each row's cost stays an exact integer)."""
    seen = 0
    for masks in itertools.combinations_with_replacement(_MASKS, size):
        for costs in ((), ((GENERIC_COST, 1),), ((W | U, 1),)):
            md = _mode(masks, costs)
            exact = md.counts()
            got = bounds._unit_counts(_mode(masks, costs))
            assert got[:2] == exact[:2], (masks, costs)
            want = math.lcm(1, *(v for v in exact[2] if v > 0))
            have = math.lcm(1, *(v for v in got[2] if v > 0))
            assert have % want == 0, (masks, costs, exact[2], got[2])
            seen += 1
    assert seen > 0


def _relaxation_answers(problem: queries.Problem) -> list[object]:
    """Every bound of the board's relaxation on each form: alone, with each activation that
    costs mana, and whether any (and any pair) of those may win against no answer yet."""
    search = Search.build(problem, problem.policy.criteria)
    assert search is not None
    relax = search.relax
    x = problem.x or 0
    costly = [md for md in search.modes_all if md.costs]
    out: list[object] = []
    for form in problem.forms:
        out.append(relax.lower_vector(form, x))
        out.append(relax.floor(form, x))
        out.extend(relax.lower_vector(form, x, (md,)) for md in costly)
        out.extend(relax.lower_vector(form, x, pair) for pair in itertools.combinations(costly, 2))
    return out


def test_relaxation_bounds_equal_with_the_exact_counts(monkeypatch: pytest.MonkeyPatch) -> None:
    """On the benchmark's Commander boards (Signets, Sol Ring, filter lands, Talismans, dorks)
    and its mixed boards, every bound of the relaxation is the same with the exact unit
    counts of each mode as with the counts read."""
    problems = []
    for seed in range(6):
        board = bd.commander_board(seed)
        for cost in bd.costs_for(seed, 4):
            problems.append(queries.prepare(build_request({"query": "pay", "state": board, "cost": cost}),
                                            "optimal", 0))
    mixed = bd.mixed_board(120, 3)
    problems.append(queries.prepare(build_request({"query": "pay", "state": mixed,
                                                   "cost": bd.mana_cost_share(mixed, 0.75, 3)}), "optimal", 0))
    compared = 0
    for problem in problems:
        if Search.build(problem, problem.policy.criteria) is None:
            continue
        fast = _relaxation_answers(problem)
        with monkeypatch.context() as m:
            m.setattr(bounds, "_unit_counts", lambda md: md.counts())
            exact = _relaxation_answers(problem)
        assert fast == exact
        compared += len(fast)
    assert compared >= 100, compared
