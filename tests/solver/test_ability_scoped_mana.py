"""Restricted mana and the costs of mana abilities (CR 106.6): mana "only to … activate abilities of
Elementals" pays an Elemental's mana ability and no other; mana "only on costs that contain {X}"
pays no mana ability's cost (none has {X}).  Every query agrees: ``pay``, ``can_pay``, ``options``
and ``validate``."""

from __future__ import annotations

from typing import Any

from cards import json_board, pay_validated

from manasolver.solver.service.protocol import answer


def _validate(state: dict[str, Any], cost: str, payment: dict[str, Any]) -> dict[str, Any]:
    return answer({"query": "validate", "state": state, "cost": cost, "payment": payment})


def test_rosheen_meanderer_mana_pays_no_signets_one_106_6() -> None:
    """Rosheen Meanderer's {C}{C}{C}{C} is for costs that contain {X}; Izzet Signet's {1} has none."""
    board = json_board("Rosheen Meanderer", "Izzet Signet")
    assert pay_validated(board, "{U}{R}")["payable"] is False
    assert answer({"query": "can_pay", "state": board, "cost": "{U}{R}"})["payable"] is False
    assert all("{U}" not in o for o in answer({"query": "options", "state": board})["options"])
    paid_by_rosheen = {"total": "{U}{R}", "activations": [
        {"permanent": "p0", "ability": 0, "mana": "{C}{C}{C}{C}"},
        {"permanent": "p1", "ability": 0, "mana": "{U}{R}"}], "floating": "{C}{C}{C}"}
    assert _validate(board, "{U}{R}", paid_by_rosheen)["legal"] is False
    # a cost with {X} is what it pays
    assert pay_validated(json_board("Rosheen Meanderer"), "{X}{X}")["payable"] is True


def test_smokebraider_pays_an_elementals_ability_and_not_a_signet_106_6() -> None:
    """Smokebraider's two mana "only to cast Elemental spells or activate abilities of Elementals":
    Manaforge Cinder (an Elemental) turns each into {B} or {R}; Izzet Signet is no Elemental."""
    cinder = json_board("Smokebraider", "Manaforge Cinder")
    out = pay_validated(cinder, "{B}{R}")
    assert out["payable"] is True
    assert [a["permanent"] for a in out["payment"]["activations"]].count("p1") == 2
    signet = json_board("Smokebraider", "Izzet Signet")
    assert pay_validated(signet, "{U}{R}")["payable"] is False
    assert answer({"query": "can_pay", "state": signet, "cost": "{U}{R}"})["payable"] is False


def _ask(kind: str, state: dict[str, Any], cost: str, spell: str | None = None) -> dict[str, Any]:
    query: dict[str, Any] = {"query": kind, "state": state, "cost": cost}
    if spell is not None:
        query["spell"] = {"card": spell}
    return answer(query)


def test_cultivator_drone_pays_colorless_spells_colorless_permanents_and_costs_with_c_106_6() -> None:
    """Cultivator Drone: "Spend this mana only to cast a colorless spell, activate an ability of a
    colorless permanent, or pay a cost that contains {C}": its {C} pays {C}, a colorless spell (Sol
    Ring's {1}), Izzet Signet's {1} (a colorless artifact's ability); not a {1} of no spell, a
    colored spell's {G}{1}, nor Sea Scryer's {1} (a blue creature's ability)."""
    drone = json_board("Cultivator Drone")
    assert pay_validated(drone, "{C}")["payable"] is True
    assert _ask("pay", drone, "{1}")["payable"] is False
    ring = _ask("pay", drone, "{1}", "Sol Ring")
    assert ring["payable"] is True
    checked = answer({"query": "validate", "state": drone, "cost": "{1}", "spell": {"card": "Sol Ring"},
                      "payment": ring["payment"]})
    assert checked["legal"] is True
    assert _validate(drone, "{1}", ring["payment"])["legal"] is False  # no spell named: no colorless spell
    with_forest = json_board("Cultivator Drone", "Forest")
    assert _ask("can_pay", with_forest, "{1}{G}", "Llanowar Elves")["payable"] is False
    assert pay_validated(json_board("Cultivator Drone", "Izzet Signet"), "{U}{R}")["payable"] is True
    assert pay_validated(json_board("Cultivator Drone", "Sea Scryer"), "{U}")["payable"] is False
    assert answer({"query": "can_pay", "state": drone, "cost": "{C}"})["payable"] is True
