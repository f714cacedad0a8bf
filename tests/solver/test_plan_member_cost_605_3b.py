"""``plan`` splits a solution whose mana-ability cost is named by member (CP-SAT's generic cost
``("cost", k, j, "generic")``): Shimmering Grotto's ``{1}, {T}`` paid from the pool (CR 605.3b)."""

from __future__ import annotations

from manasolver.solver.service.protocol import answer

STATE = {"players": [{"name": "you", "life": 7, "pool": "{G}"}, {"name": "opp"}],
         "battlefield": [{"id": "grotto", "card": "Shimmering Grotto"}, {"id": "s1", "card": "Swamp"},
                         {"id": "orb", "card": "Orb of Origin"}, {"id": "w", "card": "Wastes"},
                         {"id": "amp", "card": "Aetheric Amplifier"}, {"id": "s2", "card": "Swamp"}]}
COST = "{B/P}{U/B}{R}{U}"


def test_plan_of_one_cost_with_shimmering_grotto_paid_from_the_pool_agrees_with_pay() -> None:
    plan = answer({"query": "plan", "state": STATE, "costs": [{"cost": COST}]})
    pay = answer({"query": "pay", "state": STATE, "cost": COST})
    assert "error" not in plan, plan
    assert plan["payable"] is True and pay["payable"] is True
    checked = answer({"query": "validate", "state": STATE, "cost": COST, "payment": plan["payments"][0]})
    assert checked == {"legal": True, "problems": []}
