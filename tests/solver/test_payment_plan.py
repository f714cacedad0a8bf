"""A PAYMENT as a plan a client carries out: executable order, allocation, warnings, score.

Each field has its test by card and rule; then every ``pay`` and ``payments`` entry on the
bundled boards and on boards drawn from real decklists passes ``validate`` in its stated order,
and ``payments`` comes best first with ``pay``'s payment leading.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from manasolver.models.carddb import default_db
from manasolver.models.errors import ManasolverError
from manasolver.solver import answer
from manasolver.solver.service.demo import example_state

DECKS = Path(__file__).resolve().parents[2] / "data" / "decks"


def _board(*perms: tuple[str, str], **player: Any) -> dict[str, Any]:
    return {"players": [{"name": "you", **player}, {"name": "opponent"}],
            "battlefield": [{"id": pid, "card": card} for pid, card in perms]}


def _pay(state: dict[str, Any], cost: str, **extra: Any) -> dict[str, Any]:
    out = answer({"query": "pay", "state": state, "cost": cost, **extra})
    assert out.get("payable"), out
    payment: dict[str, Any] = out["payment"]
    context = {k: v for k, v in extra.items() if k != "policy"}
    check = answer({"query": "validate", "state": state, "cost": cost, "payment": payment, **context})
    assert check == {"legal": True, "problems": []}, (payment, check)
    return payment


def _order(payment: dict[str, Any]) -> list[str]:
    return [a["permanent"] for a in payment["activations"]]


# -- the order (CR 605.3a, 601.2g) --------------------------------------------------------------

def test_filter_land_cascade_bluffs_comes_after_the_island_paying_its_hybrid_605_3a() -> None:
    payment = _pay(example_state("filters"), "{U}{U}{R}{R}")
    order = _order(payment)
    assert order.index("island") < order.index("bluffs")
    assert order == ["island", "bluffs", "thicket", "gate"]  # ties keep the board's order


def test_azorius_signet_comes_after_the_land_paying_its_generic_605_3a() -> None:
    state = _board(("signet", "Azorius Signet"), ("mountain", "Mountain"))
    payment = _pay(state, "{W}{U}")
    assert _order(payment) == ["mountain", "signet"]
    assert payment["allocation"] == [{"symbol": "{W}", "paid_by": {"activation": 1}},
                                     {"symbol": "{U}", "paid_by": {"activation": 1}}]


def test_validate_names_the_activation_whose_cost_is_not_yet_payable_605_3a() -> None:
    state = example_state("filters")
    payment = _pay(state, "{U}{U}{R}{R}")
    payment["activations"] = payment["activations"][1:] + payment["activations"][:1]
    del payment["allocation"]
    check = answer({"query": "validate", "state": state, "cost": "{U}{U}{R}{R}", "payment": payment})
    assert not check["legal"]
    assert check["problems"][0].startswith("activations[0]: the mana cost {U/R} of Cascade Bluffs bluffs")


# -- the allocation -----------------------------------------------------------------------------

def test_allocation_of_a_hybrid_symbol_names_the_land_that_paid_it_107_4e() -> None:
    payment = _pay(_board(("plains", "Plains"), ("island", "Island")), "{1}{W/U}")
    assert payment["allocation"][0]["symbol"] == "{1}"
    paid = {e["symbol"]: e["paid_by"] for e in payment["allocation"]}
    assert payment["choices"][0]["symbol"] == "{W/U}"
    color = payment["choices"][0]["paid_as"]
    payer = payment["activations"][paid[color]["activation"]]
    assert payer["mana"] == color


def test_allocation_of_a_phyrexian_symbol_paid_with_life_107_4f() -> None:
    payment = _pay(_board(("island", "Island")), "{U}{B/P}")
    assert {"symbol": "{B/P}", "paid_by": {"life": 2}} in payment["allocation"]
    assert "pays_life" in payment["warnings"]


def test_allocation_of_convoke_names_the_creature_702_51a() -> None:
    state = _board(("forest", "Forest"), ("bear", "Grizzly Bears"))
    payment = _pay(state, "{1}{G}", convoke=True)
    assert payment["convoked"] == ["bear"]
    assert {"convoke": "bear"} in [e["paid_by"] for e in payment["allocation"]]


def test_allocation_of_pool_mana_106_4() -> None:
    payment = _pay(_board(("forest", "Forest"), pool="{R}"), "{R}")
    assert payment["activations"] == []
    assert payment["allocation"] == [{"symbol": "{R}", "paid_by": {"pool": True}}]


def test_validate_refuses_an_allocation_naming_a_payer_without_that_mana() -> None:
    state = _board(("plains", "Plains"), ("island", "Island"))
    payment = _pay(state, "{W}{U}")
    payment["allocation"] = [{"symbol": "{W}", "paid_by": {"activation": 1}},
                             {"symbol": "{U}", "paid_by": {"activation": 1}}]
    check = answer({"query": "validate", "state": state, "cost": "{W}{U}", "payment": payment})
    assert not check["legal"] and any(p.startswith("allocation[") for p in check["problems"])


# -- the warnings -------------------------------------------------------------------------------

def test_warning_sacrifices_treasure_701_21a() -> None:
    state = {"players": [{"name": "you"}], "battlefield": [{"id": "t", "card": "Treasure", "token": True}]}
    assert _pay(state, "{R}")["warnings"] == ["sacrifices"]


def test_warning_deals_damage_shivan_reef() -> None:
    assert _pay(_board(("reef", "Shivan Reef")), "{U}")["warnings"] == ["deals_damage"]


def test_warning_floats_mana_sol_ring_106_4() -> None:
    payment = _pay(_board(("ring", "Sol Ring")), "{1}")
    assert payment["floating"] == "{C}" and payment["warnings"] == ["floats_mana"]


def test_warning_spends_energy_aether_hub_107_14() -> None:
    payment = _pay(_board(("hub", "Aether Hub"), energy=1), "{W}")
    assert payment["energy"] == 1 and payment["warnings"] == ["spends_energy"]


def test_warning_discards_and_sacrifices_lions_eye_diamond() -> None:
    state = _board(("led", "Lion's Eye Diamond"), hand=["Opt"])
    payment = _pay(state, "{B}{B}{B}", spell={"types": ["Instant"]})
    assert payment["warnings"] == ["sacrifices", "discards"]


def test_warning_exiles_simian_spirit_guide_from_hand() -> None:
    payment = _pay(_board(hand=["Simian Spirit Guide"]), "{R}")
    assert "exiles" in payment["warnings"]


# -- the score and payments best first -----------------------------------------------------------

def test_score_lists_the_policys_criteria_in_its_order() -> None:
    payment = _pay(_board(("island", "Island")), "{U}{B/P}", policy=["min_sources", "min_life"])
    assert payment["score"] == [["min_sources", 1], ["min_life", 2]]


@pytest.mark.parametrize("cost", ["{U}{R}", "{2}{W/U}", "{W}{B}"])
def test_payments_come_best_first_and_the_first_is_pays(cost: str) -> None:
    state = example_state("filters")
    best = answer({"query": "pay", "state": state, "cost": cost})["payment"]
    listed = answer({"query": "payments", "state": state, "cost": cost, "limit": 40})["payments"]
    assert listed[0] == best
    scores = [[v for _n, v in p["score"]] for p in listed]
    assert scores[1:] == sorted(scores[1:]) and all(scores[0] <= s for s in scores)


# -- every answer passes validate in its stated order --------------------------------------------

_COSTS = ("{2}{W/U}{B/P}", "{W}{W}{W}", "{2/W}{2/U}", "{C}", "{G}", "{5}{R}{R}", "{U}{U}{R}{R}",
          "{W}{U}{B}{R}{G}", "{2}{G}", "{U}{R}", "{3}")


def _all_valid(state: dict[str, Any], cost: str, limit: int = 12) -> int:
    checked = 0
    query = {"state": state, "cost": cost}
    answers = [answer({"query": "pay", **query})]
    listed = answer({"query": "payments", "limit": limit, **query})
    payments = ([answers[0]["payment"]] if answers[0].get("payable") else []) + listed.get("payments", [])
    for payment in payments:
        check = answer({"query": "validate", "payment": payment, **query})
        assert check == {"legal": True, "problems": []}, (cost, payment, check)
        checked += 1
    return checked


@pytest.mark.parametrize("name", ["commander", "reaper", "pools", "phyrexian", "basics", "filters"])
def test_every_pay_and_payments_entry_validates_in_its_order_on_bundled_boards(name: str) -> None:
    state = example_state(name)
    assert sum(_all_valid(state, cost) for cost in _COSTS) > 0


def _deck_board(path: Path, rng: random.Random) -> dict[str, Any]:
    db = default_db()
    names: list[str] = []
    for line in path.read_text(encoding="utf-8").splitlines():
        head, _, rest = line.partition(" ")
        if head.isdigit() and rest:
            names.extend([rest.strip()] * int(head))
    perms = []
    for name in names:
        try:
            card = db.get(name)
        except ManasolverError:  # a name the bundled data lacks: not on this board
            continue
        if card.mana_abilities and any(card.type_line.has(t) for t in ("land", "artifact", "creature")):
            perms.append(name)
    picked = rng.sample(perms, min(len(perms), rng.randint(4, 10)))
    return {"players": [{"name": "you"}, {"name": "opponent"}],
            "battlefield": [{"id": f"p{i}", "card": n} for i, n in enumerate(picked)]}


@pytest.mark.parametrize("seed", range(6))
def test_every_pay_and_payments_entry_validates_on_boards_from_real_decks(seed: int) -> None:
    rng = random.Random(seed)
    decks = sorted(DECKS.glob("*/*.txt"))
    board = _deck_board(rng.choice(decks), rng)
    checked = sum(_all_valid(board, cost, limit=6) for cost in rng.sample(_COSTS, 4))
    assert checked >= 0 and board["battlefield"]
