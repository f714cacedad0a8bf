"""``pay`` of a cost the flow check proves unpayable (Hall's condition fails for every form) goes to
its reason without an optimiser, with the same answer."""

from __future__ import annotations

import pytest
from manasolver.solver import queries
from manasolver.solver.service.protocol import answer


def test_pay_of_an_unpayable_cost_on_plain_lands_asks_no_optimiser(monkeypatch: pytest.MonkeyPatch) -> None:
    """Two Forests can't pay {U}{U} (CR 601.2h): the reason names the two blue mana missing."""
    board = {"players": [{"name": "you"}],
             "battlefield": [{"id": "a", "card": "Forest"}, {"id": "b", "card": "Forest"}]}
    query = {"query": "pay", "state": board, "cost": "{U}{U}"}
    want = answer(query)

    def no_optimiser(*args: object, **kwargs: object) -> None:
        raise AssertionError("an optimiser was asked")

    monkeypatch.setattr(queries, "_solve", no_optimiser)
    got = answer(query)
    assert got == want == {"payable": False, "reason": {"code": "insufficient_mana", "message":
                                                        "{U}{U} more mana is needed", "missing": "{U}{U}"}}


def test_pay_of_a_payable_cost_still_optimises() -> None:
    board = {"players": [{"name": "you"}],
             "battlefield": [{"id": "a", "card": "Island"}, {"id": "b", "card": "Forest"}]}
    got = answer({"query": "pay", "state": board, "cost": "{1}{U}"})
    assert got["payable"] and {a["permanent"] for a in got["payment"]["activations"]} == {"a", "b"}
