"""Hostile boards of real cards (hypothesis strategies over real card names): every query kind on
random boards and costs; each payment answered is legal by the independent checker (``validate``),
``can_pay`` agrees with ``pay``, ``payments`` lists only legal payments, ``could_produce``'s detail
gives a chain for each type; never an internal error."""

from __future__ import annotations

from typing import Any

from fuzzing import FUZZ, boards, check_answer, costs, cut_short
from hypothesis import given
from hypothesis import strategies as st

from manasolver.solver.service.protocol import answer


@FUZZ
@given(state=boards(), cost=costs(), policy=st.sampled_from([None, ["min_life"], "keep_colors,min_waste"]))
def test_pay_is_legal_and_agrees_with_can_pay(state: dict[str, Any], cost: str, policy: Any) -> None:
    query: dict[str, Any] = {"query": "pay", "state": state, "cost": cost}
    if policy is not None:
        query["policy"] = policy
    paid = check_answer(query, answer(query))
    can = check_answer(query, answer({**query, "query": "can_pay"}))
    if "error" in paid or "error" in can or cut_short(paid) or cut_short(can):
        return
    assert paid["payable"] == can["payable"], (paid, can)


@FUZZ
@given(state=boards(most=8), cost=costs(most=5))
def test_payments_are_each_legal(state: dict[str, Any], cost: str) -> None:
    query = {"query": "payments", "state": state, "cost": cost, "limit": 5}
    check_answer(query, answer(query))


@FUZZ
@given(state=boards(), cost=st.sampled_from(["{X}", "{X}{G}", "{X}{X}{U}", "{X}{W/P}"]))
def test_max_x_is_legal(state: dict[str, Any], cost: str) -> None:
    query = {"query": "max_x", "state": state, "cost": cost}
    check_answer(query, answer(query))


@FUZZ
@given(state=boards())
def test_could_produce_detail_and_options(state: dict[str, Any]) -> None:
    detail = check_answer({}, answer({"query": "could_produce", "state": state, "detail": True}))
    if "error" not in detail:
        for pid, letters in detail["could_produce"].items():
            assert sorted(detail["why"][pid]) == sorted(letters), (pid, detail["why"][pid])
            assert all(chain and chain[0] == pid for chain in detail["why"][pid].values())
    check_answer({}, answer({"query": "options", "state": state, "limit": 20}))
