"""Simian Spirit Guide's mana, an ability of a card in the hand (CR 605.1a, no permanent), paying
Izzet Signet's ``{1}``: the payment's executable order reads the card types and snow of each
activation's source, and a card of the hand has neither (it once raised ``KeyError`` there)."""

from __future__ import annotations

from manasolver.solver import answer


def _query(query: str, cost: str) -> dict[str, object]:
    return {"query": query, "cost": cost,
            "state": {"players": [{"name": "you", "hand": ["Simian Spirit Guide"]}, {"name": "them"}],
                      "battlefield": [{"id": "s", "card": "Izzet Signet"}]}}


def test_max_x_simian_spirit_guide_pays_izzet_signets_cost() -> None:
    out = answer(_query("max_x", "{X}"))
    assert out["max_x"] == 2, out
    acts = out["payment"]["activations"]
    assert acts[0]["card"] == "Simian Spirit Guide" and acts[1]["permanent"] == "s", acts
    assert answer({**_query("validate", "{X}"), "x": 2, "payment": out["payment"]})["legal"] is True


def test_pay_simian_spirit_guide_alone_for_red() -> None:
    out = answer(_query("pay", "{R}"))
    assert out["payable"] is True and out["payment"]["activations"][0]["hand"] == 0, out
