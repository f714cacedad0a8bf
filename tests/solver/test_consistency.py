"""The queries agree with one another: the short run of ``benchmarks/consistency.py``.

The script draws boards from real cards with mana abilities (weighted toward unusual text) and
from the decklists of data/decks, and checks on each: options against can_pay, the payment
queries against one another and against validate, could_produce against the activations,
monotonicity, renaming and order, sessions, plan, refusals, and every answer against
docs/schema.json.  The long run is ``python benchmarks/consistency.py --boards 20000``.  Every
answer kind is also checked against the schema with the time bound already spent, so that the
time-bound paths (``time_bound``, ``bounded``, ``proved: false``) are covered.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from answer_schema import check
from manasolver.benchmarks import consistency
from manasolver.solver.budget import query_budget
from manasolver.solver.service.protocol import answer


def _no_disagreement(boards: int) -> None:
    report = consistency.run(boards, seed=25, stride=8)
    assert report.boards == boards
    unchecked = [prop for prop in consistency.PROPERTIES if not report.checked[prop]]
    assert not unchecked, f"properties no board exercised: {unchecked}"
    failed = {prop: report.cases[prop] for prop in consistency.PROPERTIES if report.failed[prop]}
    assert not failed, "\n".join(report.lines()) + f"\n{failed}"


def test_consistency_short_run_finds_no_disagreement() -> None:
    """100 boards (every 8th card of the card data, and the decks): no property fails."""
    _no_disagreement(100)


def test_consistency_twenty_boards_check_every_property() -> None:
    """The first 20 boards of the same run, in the fast subset: each property is checked on
    at least one of them, and none fails."""
    _no_disagreement(20)


def _time_bound_queries(state: dict[str, Any]) -> list[dict[str, Any]]:
    return [{"query": "pay", "state": state, "cost": "{2}{G}{W/P}"},
            {"query": "can_pay", "state": state, "cost": "{9}{G}"},
            {"query": "payments", "state": state, "cost": "{3}{G}"},
            {"query": "max_x", "state": state, "cost": "{X}{G}"},
            {"query": "options", "state": state},
            {"query": "could_produce", "state": state},
            {"query": "plan", "state": state, "costs": [{"cost": "{G}"}, {"cost": "{1}"}]}]


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_every_answer_kind_matches_the_schema_when_the_time_bound_is_spent(seed: int) -> None:
    """Each query asked with its time budget already spent answers what docs/schema.json allows
    (flagged answers, or an unsupported error), on drawn boards of real cards."""
    rng = random.Random(seed)
    state = consistency.random_board(rng, consistency.card_pools(8))
    state["battlefield"].extend({"id": f"extra{i}", "card": c} for i, c in
                                enumerate(["Forest", "Sunken Ruins", "Island", "Plains", "Arcane Signet"]))
    for query in _time_bound_queries(state):
        with query_budget(0.0):
            out = answer(query)
        check(query["query"], out)
        paid = out.get("payment")
        if paid is not None:
            check("validate", answer({"query": "validate", "state": state, "cost": query["cost"],
                                      "payment": paid}))


def test_the_other_answer_kinds_match_the_schema() -> None:
    """mana_value, counts, card, open, update and close answers (and their errors) against docs/schema.json."""
    state = consistency.random_board(random.Random(4), consistency.card_pools(8))
    check("mana_value", answer({"query": "mana_value", "cost": "{X}{2/W}{G/P}"}))
    check("mana_value", answer({"query": "mana_value", "card": "Reaper King"}))
    check("counts", answer({"query": "counts", "state": state}))
    check("card", answer({"query": "card", "card": "Springleaf Drum"}))
    check("card", answer({"query": "card", "card": "No Such Card Anywhere"}))
    opened = answer({"query": "open", "state": state})
    check("open", opened)
    changed = answer({"query": "update", "board": opened["board"],
                      "changes": [{"tap": state["battlefield"][0]["id"]}]})
    check("update", changed)
    check("update", answer({"query": "update", "board": opened["board"], "changes": [{"tap": "nobody"}]}))
    check("close", answer({"query": "close", "board": opened["board"]}))
