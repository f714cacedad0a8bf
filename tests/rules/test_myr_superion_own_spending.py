"""A spell's own spending rule (CR 106.6): Myr Superion's "Spend only mana produced by creatures to
cast this spell." and Imperiosaur's "… produced by basic lands …", read alike by ``pay``,
``can_pay``, ``payments``, ``plan``, ``max_x`` and ``validate``; what it can't be read against
(floating mana, mana another permanent adds) is refused, naming it."""

from __future__ import annotations

from typing import Any

from manasolver.solver.service.protocol import answer

SUPERION = {"card": "Myr Superion"}


def _board(*cards: str, pool: str = "") -> dict[str, Any]:
    you: dict[str, Any] = {"name": "you"}
    if pool:
        you["pool"] = pool
    return {"players": [you], "battlefield": [{"id": f"p{i}", "card": c} for i, c in enumerate(cards)]}


def test_myr_superion_two_elves_pay_it() -> None:
    board = _board("Llanowar Elves", "Llanowar Elves", "Forest")
    out = answer({"query": "pay", "state": board, "spell": SUPERION})
    assert out["payable"] is True
    assert sorted(a["permanent"] for a in out["payment"]["activations"]) == ["p0", "p1"]
    assert answer({"query": "validate", "state": board, "spell": SUPERION, "payment": out["payment"]})["legal"]
    listed = answer({"query": "payments", "state": board, "spell": SUPERION})
    assert listed["complete"] is True and len(listed["payments"]) == 1
    planned = answer({"query": "plan", "state": board, "costs": [{"spell": SUPERION}]})
    assert planned["payments"][0] == out["payment"]


def test_myr_superion_a_forests_mana_cant_pay_it_in_any_query() -> None:
    board = _board("Llanowar Elves", "Forest", "Forest")
    for kind in ("pay", "can_pay"):
        out = answer({"query": kind, "state": board, "spell": SUPERION})
        assert out["payable"] is False and out["reason"]["code"] == "restricted_mana"
    assert answer({"query": "payments", "state": board, "spell": SUPERION}) == {"payments": [], "complete": True}
    forest_paid = {"total": "{2}", "choices": [], "x": 0, "pool_used": "", "convoked": [], "delved": [],
                   "improvised": [], "life": 0, "energy": 0, "damage": 0, "floating": "",
                   "activations": [{"permanent": "p0", "ability": 0, "costs": ["{T}"], "mana": "{G}"},
                                   {"permanent": "p1", "ability": 0, "costs": ["{T}"], "mana": "{G}"}]}
    check = answer({"query": "validate", "state": board, "spell": SUPERION, "payment": forest_paid})
    assert check["legal"] is False and "106.6" in check["problems"][0]


def test_myr_superion_floating_mana_and_triggered_mana_are_refused() -> None:
    """Who produced floating mana is not on the board; Utopia Sprawl's extra mana is the aura's."""
    out = answer({"query": "pay", "state": _board("Llanowar Elves", "Llanowar Elves", pool="{G}"),
                  "spell": SUPERION})
    assert out["error"]["code"] == "unsupported" and out["error"]["where"] == "players.pool"
    out = answer({"query": "can_pay", "state": _board("Llanowar Elves", "Forest", "Utopia Sprawl"),
                  "spell": SUPERION})
    assert out["error"]["code"] == "unsupported" and "Utopia Sprawl" in out["error"]["message"]


def test_imperiosaur_only_basic_lands_pay_it() -> None:
    """Imperiosaur ({2}{G}{G}): four basic Forests pay it; a Llanowar Elves' mana can't."""
    spell = {"card": "Imperiosaur"}
    four = _board("Forest", "Forest", "Forest", "Forest")
    assert answer({"query": "can_pay", "state": four, "spell": spell})["payable"] is True
    three = _board("Forest", "Forest", "Forest", "Llanowar Elves")
    assert answer({"query": "can_pay", "state": three, "spell": spell})["payable"] is False
