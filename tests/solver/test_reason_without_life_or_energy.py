"""The REASON of an unpayable cost on a board where neither life nor energy can limit a payment:
the least missing mana (CR 601.2g-h: an ability that costs mana is paid from mana made before it)."""

from __future__ import annotations

from manasolver.solver.service.protocol import answer


def _board(*cards: str) -> dict[str, object]:
    return {"players": [{"name": "you", "life": 1}],
            "battlefield": [{"id": f"p{i}", "card": c} for i, c in enumerate(cards)]}


def test_azorius_signet_paid_by_an_island_leaves_two_white_missing() -> None:
    """Island pays the Signet's {1}; the Signet adds {W}{U}: {W}{W}{W} lacks {W}{W}."""
    got = answer({"query": "can_pay", "state": _board("Island", "Azorius Signet"), "cost": "{W}{W}{W}"})
    assert got == {"payable": False, "reason": {"code": "insufficient_mana", "message": "{W}{W} more mana is needed",
                                                "missing": "{W}{W}"}}


def test_pain_land_at_one_life_is_no_life_shortfall_for_a_cost_without_phyrexian_mana() -> None:
    """Adarkar Wastes' damage is not a cost (CR 118.3, 120.3): at 1 life only mana is missing. The
    Wastes' {C} pays the Signet's {1} and the Signet adds one {W}: three more {W} are needed."""
    got = answer({"query": "can_pay", "state": _board("Adarkar Wastes", "Azorius Signet"), "cost": "{W}{W}{W}{W}"})
    assert got["payable"] is False and got["reason"]["code"] == "insufficient_mana", got
    assert got["reason"]["missing"] == "{W}{W}{W}", got


def test_a_phyrexian_symbol_at_one_life_with_a_signet_is_missing_mana_of_the_form_paying_white() -> None:
    """{W/P} paid with life needs 2 (CR 119.4, 107.4f), beyond 1 life: the form paying {W} for it
    lacks {W}{W}, and that is the reason (life and energy weighed, as they can limit here)."""
    got = answer({"query": "can_pay", "state": _board("Island", "Azorius Signet"), "cost": "{W}{W}{W/P}"})
    assert got["payable"] is False and got["reason"]["missing"] == "{W}{W}", got
