"""The PAYMENT written directly equals the general path's on mixed boards of real cards.

Mixed boards (lands, dorks, rocks, Signets, Talismans, filter and utility lands) with a cost of
60% and 75% of their mana: at 75% the best payment taps Signets, whose ``{1}`` orders the
activations (CR 605.3a), so the direct writer's executable order, made from steps shared per
class, option and mana, must be the general path's one (``to_payment(...)`` then the plan),
key for key; and each payment passes ``validate``.
"""

from __future__ import annotations

import json

import pytest

from manasolver.benchmarks import boards as bd
from manasolver.solver import queries
from manasolver.solver.payment_writer import Written, writes_directly
from manasolver.solver.service.protocol import answer, build_request


@pytest.mark.parametrize(("size", "share"), [(60, 0.75), (120, 0.6), (120, 0.75), (300, 0.75)])
def test_mixed_board_payment_written_directly_is_the_general_paths(size: int, share: float) -> None:
    costly = 0
    for seed in range(3):
        board = bd.mixed_board(size, 300 + seed)
        cost = bd.mana_cost_share(board, share, seed)
        ans = queries.pay(build_request({"query": "pay", "state": board, "cost": cost}))
        assert ans.payable and isinstance(ans.source, Written)
        assert writes_directly(ans.source.problem, ans.source.solution)
        mine = ans.source.to_json()
        assert json.dumps(mine) == json.dumps(ans.source.payment().to_json()), (size, share, seed)
        check = answer({"query": "validate", "state": board, "cost": cost, "payment": mine})
        assert check == {"legal": True, "problems": []}, check
        costly += any(a["costs"][0].startswith("{") for a in mine["activations"])
    if share > 0.7:
        assert costly, "no payment activated an ability that costs mana: the order was not exercised"
