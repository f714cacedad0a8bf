"""The searches kept by board content (fastopt/search.py): a class's options read by identity.

The same board sent again as a new state finds the search built for it (test_fastopt.py); a
board with the same permanent ids, positions and classes of members whose one rock is another
card (Sol Ring where Mind Stone was: the same members, kind and snow, other options) must not:
its options are another object, so its key differs, and its own search pays with its own mana.
"""

from __future__ import annotations

import copy
from collections import Counter

from manasolver.benchmarks import boards as bd
from manasolver.solver import queries
from manasolver.solver.backends.fastopt.search import search_for
from manasolver.solver.service import boards as board_cache
from manasolver.solver.service import protocol

_ROCKS = ("Mind Stone", "Sol Ring", "Arcane Signet", "Fellwar Stone", "Thought Vessel", "Commander's Sphere")


def _problem(board: dict[str, object], cost: str) -> queries.Problem:
    board_cache.clear()  # a new state object
    return queries.prepare(protocol.build_request({"query": "pay", "state": board, "cost": cost}), "optimal", 0)


def test_a_rock_that_is_another_card_builds_its_own_search() -> None:
    for seed in range(12):
        board = bd.commander_board(seed)
        perms = board["battlefield"]
        names = Counter(p["card"] for p in perms)
        at = next((i for i, p in enumerate(perms) if p["card"] in _ROCKS and names[p["card"]] == 1), None)
        swap = next((r for r in _ROCKS if r not in names), None)
        if at is None or swap is None:
            continue
        first = _problem(board, "{3}")
        criteria = first.policy.criteria
        kept = search_for(first, criteria)
        assert kept is not None
        assert search_for(_problem(board, "{3}"), criteria) is kept  # the same content: reused
        other = copy.deepcopy(board)
        other["battlefield"][at]["card"] = swap
        problem = _problem(other, "{3}")
        mine = [c for c in problem.supply.classes if perms[at]["id"] in c.members]
        theirs = [c for c in first.supply.classes if perms[at]["id"] in c.members]
        assert [c.members for c in mine] == [c.members for c in theirs]  # only the options differ
        search = search_for(problem, criteria)
        assert search is not None and search is not kept and search.sup is problem.supply
        return
    raise AssertionError("no board with a lone rock to swap")


def test_the_keep_terms_of_a_large_board_answer_are_those_its_score_reads() -> None:
    """The large-board paths (the floor, the min-cost flow) count a payment's keep terms with
    terms of their own; the payment's score reads the same terms (:func:`kept_keep_terms`), for
    that problem only, and they count as terms built anew."""
    from manasolver.solver import backends
    from manasolver.solver.backends.fastopt.backend import FastOptBackend
    from manasolver.solver.backends.fastopt.keep import KeepTerms
    from manasolver.solver.backends.fastopt.search import kept_keep_terms
    from manasolver.solver.backends.problem import Solution

    for share, seed in ((0.6, 3), (0.75, 4)):
        board = bd.mixed_board(120, seed)
        cost = bd.mana_cost_share(board, share, seed)
        problem = _problem(board, cost)
        criteria = problem.policy.criteria
        assert kept_keep_terms(problem, criteria) is None  # nothing answered it yet
        sol = FastOptBackend().solve(problem)
        assert isinstance(sol, Solution)
        kept = kept_keep_terms(problem, criteria)
        assert kept is not None and backends.keep_terms(problem, criteria) is kept
        used = [0] * len(problem.supply.classes)
        for k, _m, _o in sol.acts:
            used[k] += 1
        fresh = KeepTerms(problem, criteria)
        assert kept.policy_terms(used, criteria) == fresh.policy_terms(used, criteria)
        assert kept_keep_terms(_problem(board, cost), criteria) is None  # another problem: its own terms
