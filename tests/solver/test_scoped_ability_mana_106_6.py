"""Mana restricted to the abilities of one type of permanent (CR 106.6): Soldevi Machinist's
"Spend this mana only to activate abilities of artifacts" pays an artifact's mana ability
(Crosis's Attendant's {1}, a Signet's {1}) and no other permanent's, in every query alike."""

from __future__ import annotations

from typing import Any

import pytest
from manasolver.solver.service.protocol import answer


def _board(*perms: dict[str, Any]) -> dict[str, Any]:
    return {"players": [{"name": "you"}], "battlefield": list(perms)}


MACHINIST_ATTENDANT = _board({"id": "m", "card": "Soldevi Machinist"}, {"id": "c", "card": "Crosis's Attendant"})


@pytest.mark.parametrize("backend", [None, "cpsat"])
def test_soldevi_machinist_mana_pays_crosis_attendants_cost(backend: str | None) -> None:
    """The Machinist's {C}{C} pays the Attendant's {1} (an artifact creature's mana ability), so
    {U}{B}{R} is payable; the payment validates and lists the same activations."""
    query: dict[str, Any] = {"query": "pay", "state": MACHINIST_ATTENDANT, "cost": "{U}{B}{R}"}
    if backend:
        query["backend"] = backend
    out = answer(query)
    assert out["payable"] is True
    assert [a["permanent"] for a in out["payment"]["activations"]] == ["m", "c"]
    check = answer({"query": "validate", "state": MACHINIST_ATTENDANT, "cost": "{U}{B}{R}",
                    "payment": out["payment"]})
    assert check == {"legal": True, "problems": []}


def test_soldevi_machinist_every_query_agrees_with_options() -> None:
    """``options`` lists {U}{B}{R}{C} (one {C} restricted); ``can_pay``, ``payments``, ``plan`` and
    ``max_x`` answer the same: {U}{B}{R} payable, the restricted {C} never paying the spell."""
    opts = answer({"query": "options", "state": MACHINIST_ATTENDANT, "detail": True})
    assert {"mana": "{U}{B}{R}{C}", "restricted": "{C}"} in opts["options"]
    assert answer({"query": "can_pay", "state": MACHINIST_ATTENDANT, "cost": "{U}{B}{R}"})["payable"] is True
    assert answer({"query": "can_pay", "state": MACHINIST_ATTENDANT, "cost": "{U}{B}{R}{C}"})["payable"] is False
    listed = answer({"query": "payments", "state": MACHINIST_ATTENDANT, "cost": "{U}{B}{R}"})
    assert listed["complete"] is True and len(listed["payments"]) == 1
    planned = answer({"query": "plan", "state": MACHINIST_ATTENDANT, "costs": [{"cost": "{U}{B}{R}"}]})
    assert planned["payable"] is True
    assert answer({"query": "max_x", "state": MACHINIST_ATTENDANT, "cost": "{X}{U}"})["max_x"] == 2


def test_soldevi_machinist_mana_does_not_pay_a_lands_ability() -> None:
    """Shimmering Grotto's "{1}, {T}: Add one mana of any color" is a land's ability, not an
    artifact's: the Machinist's mana can't pay it, so {R} is unpayable in every query."""
    board = _board({"id": "m", "card": "Soldevi Machinist"}, {"id": "g", "card": "Shimmering Grotto"})
    out = answer({"query": "can_pay", "state": board, "cost": "{R}"})
    assert out["payable"] is False
    listed = answer({"query": "payments", "state": board, "cost": "{R}"})
    assert listed["payments"] == []
