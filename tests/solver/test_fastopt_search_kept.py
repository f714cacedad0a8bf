"""The searches kept by board content (fastopt/search.py): a class's options read by identity.

The same board sent again as a new state finds the search built for it (test_fastopt.py); a
board with the same permanent ids, positions and classes of members whose one rock is another
card (Sol Ring where Mind Stone was: the same members, kind and snow, other options) must not:
its options are another object, so its key differs, and its own search pays with its own mana.
"""

from __future__ import annotations

import copy
from collections import Counter

import pytest

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


def test_an_answer_carries_the_keep_terms_its_score_reads(monkeypatch: pytest.MonkeyPatch) -> None:
    """The fast optimiser counts a payment's keep terms with terms of its own (the large-board
    paths, the floor and the min-cost flow, and the branch and bound); its solution carries them
    (``Solution.keep``), they count as terms built anew, and the payment's score reads them
    rather than building its own: with the builder broken, the answer is still written, and
    without the solution's terms it is not."""
    from manasolver.solver.backends.fastopt import keep
    from manasolver.solver.backends.fastopt.backend import FastOptBackend
    from manasolver.solver.backends.fastopt.keep import KeepTerms
    from manasolver.solver.backends.problem import Solution
    from manasolver.solver.payment_writer import Written

    def unbuilt(*args: object) -> KeepTerms:
        raise AssertionError("keep terms built again")

    boards = [(bd.mixed_board(120, seed), share, seed) for share, seed in ((0.6, 3), (0.75, 4))]
    boards.append((bd.commander_board(5), 0.3, 5))  # a small board: the branch and bound
    for board, share, seed in boards:
        cost = bd.mana_cost_share(board, share, seed)
        problem = _problem(board, cost)
        criteria = problem.policy.criteria
        assert "keep_castable" in criteria or "keep_colors" in criteria
        sol = FastOptBackend().solve(problem)
        assert isinstance(sol, Solution) and sol.keep is not None
        used = [0] * len(problem.supply.classes)
        for k, _m, _o in sol.acts:
            used[k] += 1
        fresh = KeepTerms(problem, criteria)
        assert sol.keep.policy_terms(used, criteria) == fresh.policy_terms(used, criteria)
        with monkeypatch.context() as patched:
            patched.setattr(keep, "KeepTerms", unbuilt)
            scored = Written(problem, sol).to_json()["score"]
            sol.keep = None
            with pytest.raises(AssertionError, match="built again"):
                Written(problem, sol).to_json()
        assert Written(problem, sol).to_json()["score"] == scored
