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


def _used(times: object) -> dict[str, object]:
    """The board with the Scarecrow's mana ability already activated ``times`` this turn."""
    battlefield = [dict(p) for p in BOARD["battlefield"]]  # type: ignore[attr-defined]
    battlefield[0]["activated_this_turn"] = times
    return {"players": BOARD["players"], "battlefield": battlefield}


def test_shire_scarecrow_already_activated_this_turn_adds_nothing_more() -> None:
    """``activated_this_turn`` {"0": 1}: its once this turn is spent (CR 602.5b), so blue can't be made,
    in every query; ``validate`` calls a payment activating it again illegal, naming the limit."""
    used = _used({"0": 1})
    assert answer({"query": "can_pay", "state": used, "cost": "{U}"})["payable"] is False
    assert answer({"query": "can_pay", "state": used, "cost": "{G}{G}"})["payable"] is True
    assert answer({"query": "options", "state": used}) == {"options": ["{G}{G}"], "complete": True}
    paid = answer({"query": "pay", "state": BOARD, "cost": "{U}"})
    assert paid["payable"] is True
    checked = answer({"query": "validate", "state": used, "cost": "{U}", "payment": paid["payment"]})
    assert checked["legal"] is False and any("602.5b" in p for p in checked["problems"]), checked
    assert answer({"query": "can_pay", "state": _used({}), "cost": "{U}"})["payable"] is True


def test_shire_scarecrow_activated_this_turn_bad_values_are_named() -> None:
    for bad, where in (([1], "battlefield[0].activated_this_turn"), ({"x": 1}, "battlefield[0].activated_this_turn.x"),
                       ({"0": -1}, "battlefield[0].activated_this_turn.0"),
                       ({"0": True}, "battlefield[0].activated_this_turn.0")):
        out = answer({"query": "can_pay", "state": _used(bad), "cost": "{U}"})
        assert out["error"]["where"] == where, (bad, out)
