"""A plan of one cost is ``pay``'s answer for it: the same payment, tie-break and refusals, with
nothing split between costs (``plan [A]`` = ``pay A``)."""

from __future__ import annotations

from typing import Any

import pytest
from manasolver.solver.service.protocol import answer


def _board(*cards: str, life: int = 20) -> dict[str, Any]:
    return {"players": [{"name": "you", "life": life}],
            "battlefield": [{"id": f"p{i}", "card": c} for i, c in enumerate(cards)]}


@pytest.mark.parametrize("board,cost", [
    # Springleaf Drum taps the Bears for its cost: a plan used to refuse splitting that between costs
    (_board("Springleaf Drum", "Grizzly Bears"), "{R}"),
    # Vessel of Volatility's {1}{R}, sacrifice: paid by Hidden Grotto's {1}, {T} chain at 1 life
    (_board("Hidden Grotto", "Throne of the High City", "Vessel of Volatility", "Ipnu Rivulet", life=1),
     "{2}{R}{2/R}"),
    (_board("Forest", "Mountain"), "{U}"),
])
def test_plan_of_one_cost_answers_pays_payment(board: dict[str, Any], cost: str) -> None:
    pay = answer({"query": "pay", "state": board, "cost": cost})
    plan = answer({"query": "plan", "state": board, "costs": [{"cost": cost}]})
    assert "error" not in plan and plan["payable"] == pay["payable"]
    if pay["payable"]:
        assert plan["payments"] == [pay["payment"]]
    else:
        assert plan["reason"] == pay["reason"] and plan["index"] == 0
