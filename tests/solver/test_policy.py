"""Policies: each criterion changes the payment the way its name says,
and the answer is optimal for it (checked against the alternatives by hand)."""

from __future__ import annotations

import pytest
from manasolver.models.cost import ManaCost
from manasolver.models.errors import BadQuery
from manasolver.solver import queries
from manasolver.solver.policy import check_policy, stages
from manasolver.solver.request import DEFAULT_POLICY, PLAIN_POLICY, Policy
from cards import (
    ADARKAR_WASTES,
    BIRDS,
    CITY_OF_BRASS,
    ELVES,
    FOREST,
    ISLAND,
    MOUNTAIN,
    PLAINS,
    SOL_RING,
    TREASURE,
    TUNDRA,
    WASTES,
    board,
    card,
    perm,
    request,
)


def used(req: object) -> list[str]:
    answer = queries.pay(req)  # type: ignore[arg-type]
    assert answer.payable and answer.payment is not None
    return [a.permanent for a in answer.payment.activations]


def payment(req: object) -> dict[str, object]:
    out = queries.pay(req).to_json()  # type: ignore[arg-type]
    assert out["payable"]
    return out["payment"]  # type: ignore[no-any-return]


def test_no_treasure_when_lands_suffice() -> None:
    """no_sacrifice: a Forest pays {1}; the Treasure stays."""
    state = board(perm("t", TREASURE), perm("f", FOREST))
    assert used(request(state, "{1}")) == ["f"]


def test_treasure_when_needed() -> None:
    """no_sacrifice only prefers: the Treasure is sacrificed when nothing else pays {U}."""
    state = board(perm("t", TREASURE), perm("f", FOREST))
    p = payment(request(state, "{U}{G}"))
    assert p["activations"][0] == {"permanent": "t", "ability": 0,  # type: ignore[index]
                                   "costs": ["{T}", "sacrifice"], "mana": "{U}"}


def test_pain_land_avoided_under_min_life() -> None:
    """min_life: Adarkar Wastes' colorless half (no damage) pays generic; its W/U half
    deals 1 damage and is used only for color."""
    state = board(perm("a", ADARKAR_WASTES), perm("c", CITY_OF_BRASS), perm("p", PLAINS))
    p = payment(request(state, "{1}{W}"))
    assert p["damage"] == 0
    assert {a["permanent"] for a in p["activations"]} == {"a", "p"}  # type: ignore[index,union-attr]
    p = payment(request(state, "{W}{U}{1}"))
    assert p["damage"] == 1


def test_sol_ring_not_wasted() -> None:
    """min_waste: {1} is paid by Wastes, not by Sol Ring's {C}{C} (one would float).
    (With a Forest instead, keep_colors, which comes first, would rightly tap Sol Ring.)"""
    state = board(perm("s", SOL_RING), perm("f", WASTES))
    p = payment(request(state, "{1}"))
    assert [a["permanent"] for a in p["activations"]] == ["f"]  # type: ignore[index]
    assert p["floating"] == ""
    p = payment(request(state, "{2}"))
    assert [a["permanent"] for a in p["activations"]] == ["s"]  # type: ignore[index]


def test_keep_colors_open() -> None:
    """keep_colors: paying {1} with a second Forest keeps the Island's blue available
    (the Island comes first on the board, so only the policy makes this choice)."""
    state = board(perm("i", ISLAND), perm("f1", FOREST), perm("f2", FOREST), perm("f3", FOREST))
    assert used(request(state, "{1}{G}")) == ["f1", "f2"]


def test_keep_castable_defaults_to_hand() -> None:
    """keep_castable: with Counterspell in hand, {2} is paid so {U}{U} stays payable."""
    counterspell = card("Counterspell", "Instant", mana_cost="{U}{U}")
    state = board(perm("i", ISLAND), perm("t", TUNDRA), perm("f", FOREST), perm("m", MOUNTAIN),
                  hand=(counterspell,))
    assert sorted(used(request(state, "{2}"))) == ["f", "m"]
    # with an explicit list that asks for {R} instead, the Mountain is kept
    pol = Policy(keep_castable=(ManaCost.parse("{R}"),))
    assert "m" not in used(request(state, "{2}", policy=pol))


def test_prefer_lands_over_creatures() -> None:
    """prefer_lands: a Forest, not Llanowar Elves, pays {G}."""
    state = board(perm("e", ELVES), perm("f", FOREST))
    assert used(request(state, "{G}", policy=Policy(("prefer_lands",)))) == ["f"]


def test_use_pool_first() -> None:
    """use_pool: floating {G} is spent before tapping a Forest."""
    state = board(perm("f", FOREST), pool="{G}")
    p = payment(request(state, "{G}", policy=Policy(("use_pool",))))
    assert p["pool_used"] == "{G}" and p["activations"] == []


def test_min_sources() -> None:
    """min_sources: Sol Ring alone pays {2} rather than two lands."""
    state = board(perm("f", FOREST), perm("i", ISLAND), perm("s", SOL_RING))
    assert used(request(state, "{2}", policy=Policy(("min_sources",)))) == ["s"]


def test_max_colors_spent_for_converge() -> None:
    """max_colors_spent: {3} from Birds, Plains, Tundra and Forest spends three colors."""
    state = board(perm("b", BIRDS), perm("p", PLAINS), perm("t", TUNDRA), perm("f", FOREST),
                  perm("w", WASTES))
    p = payment(request(state, "{3}", policy=Policy(("max_colors_spent",))))
    colors = "".join(a["mana"] for a in p["activations"])  # type: ignore[index,union-attr]
    assert len({ch for ch in colors if ch in "WUBRG"}) == 3


def test_spend_color_adamant() -> None:
    """spend_color {G: 3}: three green among the mana spent, Birds making green."""
    state = board(perm("b", BIRDS), perm("f1", FOREST), perm("f2", FOREST), perm("p", PLAINS))
    p = payment(request(state, "{2}{G}", policy=Policy(spend_color=(("G", 3),))))
    assert "".join(a["mana"] for a in p["activations"]).count("G") == 3  # type: ignore[index,union-attr]
    impossible = request(state, "{2}{W}", policy=Policy(spend_color=(("G", 3),)))
    assert not queries.pay(impossible).payable


def test_weights_replace_order() -> None:
    """Caller weights: sources weighted above life makes City of Brass the choice for {R}
    over tapping two lands... (only one land can pay): the weighted optimum pays life 1."""
    state = board(perm("c", CITY_OF_BRASS), perm("m", MOUNTAIN))
    p = payment(request(state, "{R}", policy=Policy(weights=(("min_life", 1), ("tiebreak", 0)))))
    assert p["damage"] == 0


def test_tie_break_by_board_order() -> None:
    """Equal payments: the earlier permanent on the board is used."""
    state = board(perm("f2", FOREST), perm("f1", FOREST), perm("f3", FOREST))
    assert used(request(state, "{G}")) == ["f2"]


def test_unknown_criterion_is_an_error() -> None:
    with pytest.raises(BadQuery):
        queries.pay(request(board(), "{0}", policy=Policy(("cheapest",))))


def test_every_policy_but_the_plain_one_is_checked() -> None:
    """``check_policy`` passes :data:`PLAIN_POLICY` (the policy of every query that names none) at
    once, so its default criteria must be good ones; any other policy a caller builds is checked by
    ``prepare`` itself, one of known criteria with a bad weight too."""
    assert PLAIN_POLICY.criteria == DEFAULT_POLICY and not PLAIN_POLICY.weights and not PLAIN_POLICY.spend_color
    check_policy(Policy(PLAIN_POLICY.criteria))  # its criteria, checked as a caller's policy's are
    assert queries.can_pay(request(board(perm("f", FOREST)), "{G}", policy=PLAIN_POLICY)).payable
    with pytest.raises(BadQuery, match="weights must be 0 or more"):
        queries.prepare(request(board(perm("f", FOREST)), "{G}", policy=Policy(weights=(("min_life", -1),))),
                        "optimal")


def test_lexicographic_stages_are_exact_weights() -> None:
    """Weights Π(bound+1) make a merged stage equal to lexicographic comparison."""
    plan = stages(Policy(("min_life", "min_waste")), {"min_life": 3, "min_waste": 4, "tiebreak": 9})
    assert plan == [[("min_life", 50), ("min_waste", 10), ("tiebreak", 1)]]
    big = stages(Policy(("min_life", "min_waste")), {"min_life": 1 << 30, "min_waste": 1 << 30,
                                                     "tiebreak": 9})
    assert len(big) == 2
