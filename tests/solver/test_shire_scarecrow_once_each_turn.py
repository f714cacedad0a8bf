"""Shire Scarecrow: "{1}: Add one mana of any color. Activate only once each turn." (CR 602.5b):
one activation at most, so ``options`` reads it as exactly as the payment queries do."""

from __future__ import annotations

from manasolver.solver.service.protocol import answer

BOARD = {"players": [{"name": "you"}], "battlefield": [{"id": "s", "card": "Shire Scarecrow"},
                                                       {"id": "f", "card": "Forest"}, {"id": "g", "card": "Forest"}]}


def test_shire_scarecrow_options_are_complete_and_each_payable() -> None:
    out = answer({"query": "options", "state": BOARD})
    assert out == {"options": ["{W}{G}", "{U}{G}", "{B}{G}", "{R}{G}", "{G}{G}"], "complete": True}
    for pool in out["options"]:
        assert answer({"query": "can_pay", "state": BOARD, "cost": pool})["payable"] is True


def test_shire_scarecrow_converts_once_each_turn() -> None:
    """Two Forests: {U} once, never {U}{U} (a second activation is not allowed)."""
    assert answer({"query": "can_pay", "state": BOARD, "cost": "{U}{G}"})["payable"] is True
    assert answer({"query": "can_pay", "state": BOARD, "cost": "{U}{U}"})["payable"] is False
    assert answer({"query": "max_x", "state": BOARD, "cost": "{X}{U}"})["max_x"] == 1
    listed = answer({"query": "payments", "state": BOARD, "cost": "{U}{U}"})
    assert listed == {"payments": [], "complete": True}
