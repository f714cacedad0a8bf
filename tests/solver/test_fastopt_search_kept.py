"""The searches the fast optimiser keeps (fastopt/search.py): one per board's supply.

The queries on one board (one state: its supply kept in its view) share the search built for
the first of them; a board loaded again, even with equal content, builds its own: no search is
found by what a board holds, whose permanent ids change from one game to the next.
"""

from __future__ import annotations

import pytest

from manasolver.benchmarks import boards as bd
from manasolver.models.board.load import load_state
from manasolver.models.cost import ManaCost
from manasolver.solver import queries
from manasolver.solver.backends.fastopt.search import search_for
from manasolver.solver.request import PaymentRequest
from manasolver.solver.service import boards as board_cache
from manasolver.solver.service import protocol


def _problem(board: dict[str, object], cost: str) -> queries.Problem:
    board_cache.clear()  # a new state object
    return queries.prepare(protocol.build_request({"query": "pay", "state": board, "cost": cost}), "optimal", 0)


def test_the_queries_on_one_board_share_its_search_and_a_board_loaded_again_builds_its_own() -> None:
    board = bd.commander_board(2)
    state = load_state(board)
    first = queries.prepare(PaymentRequest(state, ManaCost.parse("{2}{W}{U}"), "you"), "optimal", 0)
    again = queries.prepare(PaymentRequest(state, ManaCost.parse("{1}{G}"), "you"), "optimal", 0)
    criteria = first.policy.criteria
    assert first.supply is again.supply  # one board: one supply
    search = search_for(first, criteria)
    assert search is not None and search_for(again, criteria) is search
    other = queries.prepare(PaymentRequest(load_state(board), ManaCost.parse("{2}{W}{U}"), "you"), "optimal", 0)
    fresh = search_for(other, criteria)
    assert fresh is not None and fresh is not search and fresh.sup is other.supply


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
