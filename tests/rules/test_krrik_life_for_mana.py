"""K'rrik, Son of Yawgmoth: "For each {B} in a cost, you may pay 2 life rather than pay that mana."

Each {B} of its controller's costs (increases included) is paid as {B} or with 2 life, as a
Phyrexian {B/P} is (CR 107.4f); the mana cost and mana value do not change (K'rrik's ruling).
"""

from __future__ import annotations

from typing import Any

from manasolver.solver.service.protocol import answer


def _board(*cards: str, life: int = 20, controller: str = "you") -> dict[str, Any]:
    perms = [{"id": "k", "card": "K'rrik, Son of Yawgmoth", "controller": controller}]
    perms += [{"id": f"p{i}", "card": c} for i, c in enumerate(cards)]
    return {"players": [{"name": "you", "life": life}, {"name": "opp"}], "battlefield": perms}


def test_krrik_pays_each_black_symbol_with_two_life() -> None:
    state = _board("Forest")
    out = answer({"query": "pay", "state": state, "cost": "{B}{B}{G}"})
    assert out["payable"] is True and out["payment"]["life"] == 4 and out["payment"]["total"] == "{G}"
    assert answer({"query": "validate", "state": state, "cost": "{B}{B}{G}", "payment": out["payment"]})["legal"]


def test_krrik_black_paid_with_mana_needs_no_announcement() -> None:
    """A client's payment of {B} with a Swamp, naming no choice, is legal; the engine's own
    payment prefers the mana to the life (min_life)."""
    state = _board("Swamp")
    out = answer({"query": "pay", "state": state, "cost": "{B}"})
    assert out["payment"]["life"] == 0
    plain = {"total": "{B}", "activations": [{"permanent": "p0", "ability": 0, "costs": ["{T}"], "mana": "{B}"}]}
    assert answer({"query": "validate", "state": state, "cost": "{B}", "payment": plain})["legal"] is True


def test_krrik_needs_the_life() -> None:
    """At 1 life, 2 life can't be paid (CR 119.4): {B} beside a Forest is unpayable."""
    out = answer({"query": "can_pay", "state": _board("Forest", life=1), "cost": "{B}"})
    assert out["payable"] is False and out["reason"]["code"] == "insufficient_life"


def test_krrik_of_an_opponent_does_nothing_for_you() -> None:
    out = answer({"query": "can_pay", "state": _board("Forest", controller="opp"), "cost": "{B}"})
    assert out["payable"] is False


def test_krrik_applies_to_an_increase() -> None:
    """An increase of {B} (601.2f) is paid with 2 life as well."""
    state = _board("Forest")
    query: dict[str, Any] = {"state": state, "cost": "{G}", "modifiers": [{"increase": "{B}"}]}
    out = answer({"query": "pay", **query})
    assert out["payable"] is True and out["payment"]["life"] == 2
    assert answer({"query": "validate", **query, "payment": out["payment"]})["legal"] is True


def test_krrik_mana_value_is_unchanged() -> None:
    assert answer({"query": "mana_value", "cost": "{B}{B}"})["mana_value"] == 2
