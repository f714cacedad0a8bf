"""What a client drives a payment with, on boards sampled from games of the real decks
(``benchmarks/deck_boards.py``) and on large boards: every ``pay`` and ``payments`` entry passes
``validate`` in its stated order, ``payments[0]`` is ``pay``'s payment, the ``preserve``
criterion stands where the policy names it, and writing a payment as a plan reads what it
activated, not the whole board."""

from __future__ import annotations

from typing import Any

import pytest

from manasolver.benchmarks import deck_boards
from manasolver.benchmarks.boards import lands_board
from manasolver.models.board.load import load_state
from manasolver.models.cost import ManaCost
from manasolver.solver import backends, queries
from manasolver.solver.backends import DEFAULT_CHAINS
from manasolver.solver.backends.problem import Solution, to_payment
from manasolver.solver.payment_writer import Finisher, Written, finish_json
from manasolver.solver.service.protocol import answer
from manasolver.solver.request import PaymentRequest


def _checked(q: dict[str, Any]) -> int:
    """Validate ``pay``'s payment and every ``payments`` entry in their stated order; how many."""
    got = answer({**q, "query": "pay"})
    if not got.get("payable"):
        return 0
    listed = answer({**q, "query": "payments", "limit": 8})
    assert listed["payments"][0] == got["payment"], (q["cost"], listed["payments"][0], got["payment"])
    for payment in listed["payments"]:
        check = answer({**q, "query": "validate", "payment": payment})
        assert check == {"legal": True, "problems": []}, (q["cost"], payment, check)
    return len(listed["payments"])


@pytest.mark.parametrize("family", ["commander", "sixty"])
def test_every_pay_and_payments_entry_validates_in_order_on_deck_boards(family: str) -> None:
    checked = 0
    for seed in range(8):
        q = deck_boards.query(family, "pay", 700 + seed)  # type: ignore[arg-type]
        q.pop("id")
        checked += _checked(q)
    assert checked > 0


def test_preserve_criterion_named_first_prefers_sacrificing_a_treasure_to_a_preserved_plains() -> None:
    """``preserve`` is a criterion like the others: named before ``no_sacrifice`` it outranks it
    (the Treasure is sacrificed), by default it ranks after it (the preserved Plains is tapped)."""
    state = {"players": [{"name": "you"}], "battlefield": [
        {"id": "plains", "card": "Plains"}, {"id": "gold", "card": "Treasure", "token": True}]}
    base = {"query": "pay", "state": state, "cost": "{W}", "sources": {"preserve": ["plains"]}}
    default = answer(base)["payment"]
    assert [a["permanent"] for a in default["activations"]] == ["plains"]
    assert default["score"][:2] == [["no_sacrifice", 0], ["preserve", 1]]
    first = answer({**base, "policy": ["preserve", "no_sacrifice"]})["payment"]
    assert [a["permanent"] for a in first["activations"]] == ["gold"]
    assert first["score"] == [["preserve", 0], ["no_sacrifice", 1]]
    assert "sacrifices" in first["warnings"]
    without = answer({"query": "pay", "state": state, "cost": "{W}", "policy": ["preserve", "no_sacrifice"]})
    assert [a["permanent"] for a in without["payment"]["activations"]] == ["plains"]  # no effect without them


@pytest.mark.parametrize("size", [40, 1000])
def test_a_payment_is_written_as_a_plan_without_reading_the_board(size: int) -> None:
    """On a board of basic and dual lands of ``size`` permanents, the direct writer hands the
    finisher each activation's class and option, so the map of every permanent's options is
    never built; the plan is the one the general path writes."""
    state = load_state(lands_board(size, 1))
    req = PaymentRequest(state, ManaCost.parse("{3}{W}{U}{G}"), state.players[0].name)
    problem = queries.prepare(req, "optimal", 0)
    sol = backends.solve(problem, DEFAULT_CHAINS["pay"])
    assert isinstance(sol, Solution)
    keys: dict[int, tuple[int, int]] = {}
    from manasolver.solver.payment_writer import direct_json
    raw = direct_json(problem, sol, keys)
    assert raw is not None and len(keys) == len(raw["activations"])
    finisher = Finisher(problem)
    out = finisher.plan(raw, keys)
    assert finisher._options is None
    assert out == Written(problem, sol).to_json() == finish_json(problem, to_payment(problem, sol).to_json())
