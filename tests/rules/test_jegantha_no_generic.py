"""Jegantha, the Wellspring: "{T}: Add {W}{U}{B}{R}{G}. This mana can't be spent to pay generic mana
costs." (CR 106.6; {X}, {S} and a {2/W} paid as {2} are generic, CR 107.4): its mana pays colored
symbols of a spell or of a mana ability's cost (a filter land's {R/G}), never {1}, X or a Signet's
{1}; read alike by ``pay``, ``can_pay``, ``max_x``, ``payments``, ``validate`` and the brute force."""

from __future__ import annotations

import pytest
from brute import brute
from cards import board, perm
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typing import Any

from manasolver.models.carddb import default_db
from manasolver.models.cost import ManaCost
from manasolver.solver.request import PaymentRequest
from manasolver.solver.service.protocol import answer

JEGANTHA = "Jegantha, the Wellspring"


def _board(*cards: str) -> dict[str, Any]:
    return {"players": [{"name": "you"}], "battlefield": [{"id": f"p{i}", "card": c} for i, c in enumerate(cards)]}


def _pay(cost: str, *cards: str) -> dict[str, Any]:
    state = _board(*cards)
    out = answer({"query": "pay", "state": state, "cost": cost})
    if out.get("payable"):
        check = answer({"query": "validate", "state": state, "cost": cost, "payment": out["payment"]})
        assert check["legal"], check
    return out


def test_jegantha_pays_colored_symbols_and_a_forest_the_generic() -> None:
    out = _pay("{1}{G}{R}", JEGANTHA, "Forest")
    assert out["payable"] is True
    paid = {a["symbol"]: a["paid_by"] for a in out["payment"]["allocation"]}
    assert paid["{1}"] == {"activation": 1}  # the Forest, not Jegantha


def test_jegantha_never_pays_generic_mana() -> None:
    out = _pay("{2}{G}{R}", JEGANTHA, "Forest")
    assert out["payable"] is False and out["reason"]["missing"] == "{1}"
    assert answer({"query": "can_pay", "state": _board(JEGANTHA), "cost": "{1}"})["payable"] is False
    assert _pay("{W}{U}{B}{R}{G}", JEGANTHA)["payable"] is True


def test_jegantha_pays_monocolored_hybrid_only_by_its_color() -> None:
    out = _pay("{2/W}{2/U}", JEGANTHA)
    assert out["payable"] is True
    assert {c["paid_as"] for c in out["payment"]["choices"]} == {"{W}", "{U}"}
    assert _pay("{2/W}{2/W}", JEGANTHA)["payable"] is False  # one W; the other {2/W} would be generic


def test_jegantha_cant_pay_a_signets_generic_cost() -> None:
    assert _pay("{U}{U}{R}{R}", JEGANTHA, "Izzet Signet")["payable"] is False
    assert _pay("{U}{U}{R}{R}", JEGANTHA, "Izzet Signet", "Forest")["payable"] is True


def test_jegantha_pays_a_filter_lands_hybrid_cost() -> None:
    """Fire-Lit Thicket's {R/G} is a colored cost: Jegantha's {R} pays it, the land adds {R}{R}."""
    assert _pay("{W}{R}{R}{G}", JEGANTHA, "Fire-Lit Thicket")["payable"] is True


def test_jegantha_max_x_counts_only_other_mana_for_x() -> None:
    out = answer({"query": "max_x", "state": _board(JEGANTHA, "Forest", "Forest"), "cost": "{X}{G}"})
    assert out["max_x"] == 2


def test_jegantha_validate_refuses_its_mana_on_generic() -> None:
    paid = {"total": "{1}", "choices": [], "x": 0, "pool_used": "", "convoked": [], "delved": [],
            "improvised": [], "life": 0, "energy": 0, "damage": 0, "floating": "{U}{B}{R}{G}",
            "activations": [{"permanent": "p0", "ability": 0, "costs": ["{T}"], "mana": "{W}{U}{B}{R}{G}"}]}
    check = answer({"query": "validate", "state": _board(JEGANTHA), "cost": "{1}", "payment": paid})
    assert check["legal"] is False


def test_jegantha_payments_lists_only_colored_uses() -> None:
    """The enumeration keeps Jegantha's mana from {1}: with a Forest, {1}{G} has one payment (the
    Forest's {G} for {1}, Jegantha's for {G}); {1} alone has none; each listed payment validates."""
    state = _board(JEGANTHA, "Forest")
    out = answer({"query": "payments", "state": state, "cost": "{1}{G}"})
    assert out["complete"] is True and len(out["payments"]) == 1
    for payment in out["payments"]:
        assert answer({"query": "validate", "state": state, "cost": "{1}{G}", "payment": payment})["legal"]
    assert answer({"query": "payments", "state": _board(JEGANTHA), "cost": "{1}"}) == {"payments": [],
                                                                                       "complete": True}


SYMBOLS = ("{W}", "{U}", "{B}", "{R}", "{G}", "{1}", "{2}", "{2/W}", "{G/U}", "{X}")
OTHERS = ("Forest", "Island", "Mountain", "Izzet Signet", "Fire-Lit Thicket", "Llanowar Elves")


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from(OTHERS), min_size=0, max_size=3),
       st.lists(st.sampled_from(SYMBOLS), min_size=1, max_size=5), st.integers(0, 2))
def test_jegantha_agrees_with_brute_force(others: list[str], symbols: list[str], x: int) -> None:
    db = default_db()
    perms = [perm("j", db.get(JEGANTHA))] + [perm(f"o{i}", db.get(n)) for i, n in enumerate(others)]
    cost = "".join(symbols)
    req = PaymentRequest(board(*perms), ManaCost.parse(cost), "you", x=x if "{X}" in cost else None)  # type: ignore[arg-type]
    from manasolver.solver import queries
    got = queries.pay(req)
    assert got.payable == brute(req, enumerate_all=False).payable, f"{cost} x={x} with {others}"
    listed = queries.payments(req)
    assert listed.complete and bool(listed.payments) == got.payable, f"payments: {cost} x={x} with {others}"


@pytest.mark.parametrize("cost", ["{1}", "{X}", "{2/W}{2/W}"])
def test_jegantha_alone_pays_no_generic(cost: str) -> None:
    state = _board(JEGANTHA)
    q: dict[str, Any] = {"query": "can_pay", "state": state, "cost": cost}
    if "{X}" in cost:
        q["x"] = 1
    assert answer(q)["payable"] is False


def test_jegantha_options_pay_colored_ability_costs_only() -> None:
    """``options``: Jegantha's mana pays no Signet's or Coal Golem's generic cost but does pay Fire-Lit
    Thicket's {R/G}; every listing is complete and every pool listed is payable as a cost."""
    expected = {
        (JEGANTHA, "Izzet Signet", "Forest"): ["{W}{U}{U}{B}{R}{R}{G}", "{W}{U}{B}{R}{G}{G}"],
        (JEGANTHA, "Coal Golem"): ["{W}{U}{B}{R}{G}"],
        (JEGANTHA, "Fire-Lit Thicket"): ["{W}{U}{B}{R}{R}{R}", "{W}{U}{B}{R}{R}{G}", "{W}{U}{B}{R}{G}{G}",
                                         "{W}{U}{B}{R}{G}{C}", "{W}{U}{B}{G}{G}{G}"],
    }
    for cards, pools in expected.items():
        state = _board(*cards)
        out = answer({"query": "options", "state": state})
        assert out == {"options": pools, "complete": True}, (cards, out)
        for pool in pools:
            assert answer({"query": "can_pay", "state": state, "cost": pool})["payable"] is True, (cards, pool)
