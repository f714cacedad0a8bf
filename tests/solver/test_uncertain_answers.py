"""Mana that depends on chance or another player's choice is counted as the least it can give, and
every answer that reads the board's mana says so under ``uncertain``: ``options`` and ``plan`` as
well as the payment queries (Rhystic Cave's "unless any player pays {1}", CR 118.12)."""

from __future__ import annotations

from typing import Any

from answer_schema import check
from cards import json_board

from manasolver.solver.service.protocol import answer


def _uncertain(out: dict[str, Any]) -> list[str]:
    return [u["permanent"] for u in out.get("uncertain", ())]


def test_options_names_rhystic_cave_uncertain_and_lists_no_pool_relying_on_it_118_12() -> None:
    """``options`` beside a Forest: the pools are the Forest's alone, and the Cave is named."""
    out = answer({"query": "options", "state": json_board("Rhystic Cave", "Forest")})
    assert out["options"] == ["{G}"]
    assert _uncertain(out) == ["p0"] and "{1}" in out["uncertain"][0]["reason"]
    check("options", out)
    tapped = answer({"query": "options", "state": json_board({"card": "Rhystic Cave", "tapped": True}, "Forest")})
    assert "uncertain" not in tapped and tapped["options"] == ["{G}"]


def test_plan_names_rhystic_cave_uncertain_paid_or_not_118_12() -> None:
    """``plan``: paid from the Forest with the Cave named; unpayable with it named too; ``plan [A]``
    answers as ``pay A`` does, ``uncertain`` included."""
    board = json_board("Rhystic Cave", "Forest")
    paid = answer({"query": "plan", "state": board, "costs": [{"cost": "{G}"}]})
    assert paid["payable"] is True and _uncertain(paid) == ["p0"]
    check("plan", paid)
    pay = answer({"query": "pay", "state": board, "cost": "{G}"})
    assert paid["payments"][0] == pay["payment"] and paid["uncertain"] == pay["uncertain"]
    short = answer({"query": "plan", "state": board, "costs": [{"cost": "{G}"}, {"cost": "{U}"}]})
    assert short["payable"] is False and _uncertain(short) == ["p0"]
    check("plan", short)
