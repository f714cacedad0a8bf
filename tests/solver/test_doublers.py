"""Pool doublers (Doubling Cube; CR 106.6 example, Doubling Cube ruling 2004-12-01).

Doubling Cube: "{3}, {T}: Double the amount of each type of unspent mana you have."
The payment queries do not model it and must say so rather than answer a possibly
wrong payment (a payment found without it is answered, naming it as left out;
:func:`manasolver.solver.supply.unmodelled.guard_doublers`);
the ``options`` query applies it exactly (checked against a brute force that plays
every order of activations on concrete pools).
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from manasolver.models.board.load import load_state
from manasolver.models.cost import ManaCost
from manasolver.models.errors import Unsupported
from manasolver.models.state import GameState
from manasolver.solver import queries
from manasolver.solver.request import PaymentRequest


def _state(*cards: str | dict[str, Any], pool: str = "") -> GameState:
    bf = []
    for i, c in enumerate(cards):
        entry = dict(c) if isinstance(c, dict) else {"card": c}
        entry.setdefault("id", f"p{i}")
        bf.append(entry)
    return load_state({"players": [{"name": "you", "pool": pool}, {"name": "opponent"}],
                       "battlefield": bf})


def _req(state: GameState, cost: str) -> PaymentRequest:
    return PaymentRequest(state, ManaCost.parse(cost), "you")


# -- the payment queries refuse what a doubler could change ------------------------------------


def test_guard_t117_can_pay_true_is_kept_with_an_active_cube() -> None:
    """T117: a payment found without the Cube is a payment: can_pay {8} on 8 Forests is true."""
    state = _state(*["Forest"] * 8, {"id": "cube", "card": "Doubling Cube"})
    assert queries.can_pay(_req(state, "{8}")).payable


@pytest.mark.parametrize("cost", ["{8}", "{G}"])
def test_guard_t117_pay_with_an_active_cube_answers_naming_it_left_out(cost: str) -> None:
    """T117: 8 Forests and an untapped Cube: a payment found without the Cube is legal, so ``pay``
    answers it (as ``can_pay`` does), naming the Cube under ``unsupported`` (with it {8} could
    leave a Forest untapped, which the optimiser can't see); ``payments`` lists the payments
    without it and says its list is not complete."""
    state = _state(*["Forest"] * 8, {"id": "cube", "card": "Doubling Cube"})
    answer = queries.pay(_req(state, cost))
    assert answer.payable and [p for p, _ in answer.unsupported] == ["cube"]
    listed = queries.payments(_req(state, cost), 5)
    assert listed.payments and not listed.complete


@pytest.mark.parametrize("query,cost", [("can_pay", "{9}"), ("pay", "{9}"), ("max_x", "{X}")])
def test_guard_t117_active_cube_is_unsupported_naming_it(query: str, cost: str) -> None:
    """T117: 8 Forests and an untapped Cube: {9} is payable (tap 7, pay {3}, double 4 {G}),
    which the optimiser can't see: an answer the Cube could change (no payment without it, the
    most X) is Unsupported, naming the Cube at battlefield[8]."""
    state = _state(*["Forest"] * 8, {"id": "cube", "card": "Doubling Cube"})
    fn = getattr(queries, query)
    with pytest.raises(Unsupported) as err:
        fn(_req(state, cost), 5) if query == "payments" else fn(_req(state, cost))
    assert err.value.where == "battlefield[8]" and "Doubling Cube" in str(err.value)


def test_guard_tapped_cube_does_not_matter() -> None:
    """CR 107.5: a tapped Cube can't pay its {T}: answers are exact without it, an unpayable
    cost is answered as insufficient mana (not Unsupported)."""
    state = _state(*["Forest"] * 8, {"id": "cube", "card": "Doubling Cube", "tapped": True})
    assert queries.pay(_req(state, "{8}")).payable
    answer = queries.pay(_req(state, "{9}"))
    assert not answer.payable and answer.reason is not None
    assert answer.reason.code == "insufficient_mana"
    assert queries.max_x(_req(state, "{X}")).max_x == 8


def test_guard_cube_whose_cost_the_board_cannot_pay_does_not_matter() -> None:
    """Two Forests can't pay the Cube's {3} (CR 601.2g via 602.2b): {2} is paid exactly and
    {3} is unpayable, not Unsupported."""
    state = _state("Forest", "Forest", "Doubling Cube")
    assert queries.pay(_req(state, "{2}")).payable
    assert not queries.can_pay(_req(state, "{3}")).payable


def test_guard_floating_mana_pays_the_cube() -> None:
    """CR 106.4: floating {G}{G} and two Forests pay the Cube's {3} with one mana left to double:
    a {6} cost is refused."""
    state = _state("Forest", "Forest", "Doubling Cube", pool="{G}{G}")
    with pytest.raises(Unsupported):
        queries.can_pay(_req(state, "{6}"))


def test_guard_cube_with_nothing_left_to_double_does_not_matter() -> None:
    """Floating {G}{G} and one Forest are three mana, all of which the Cube's {3} takes: nothing
    would be left unspent to double (CR 106.6 example), so {5} is answered unpayable, not refused."""
    state = _state("Forest", "Doubling Cube", pool="{G}{G}")
    assert not queries.can_pay(_req(state, "{5}")).payable
    assert queries.pay(_req(state, "{2}{G}")).payable


# -- options with doublers: exact ---------------------------------------------------------------

#: A filter with no free ability: "{U}, {T}: Add {W}{W}." (the interleaving example)
BLUE_FILTER = {"name": "Test Blue Filter", "type_line": "Land", "oracle_text": "{U}, {T}: Add {W}{W}."}


def _options(state: GameState, detail: bool = False) -> Any:
    from manasolver.solver.pools.options import options
    return options(state, limit=100_000, detail=detail, budget=30)


def test_t117_cube_doubles_ziggurat_mana_copies_unrestricted() -> None:
    """T117 (CR 106.6 example, Doubling Cube ruling 2004-12-01): two Ancient Ziggurats
    ("Spend this mana only to cast a creature spell") tapped for {R} and {G}, three Wastes
    paying the Cube's {3}: the pool {R}{R}{G}{G} of which only one {R}{G} is restricted."""
    state = _state("Doubling Cube", "Ancient Ziggurat", "Ancient Ziggurat", "Wastes", "Wastes", "Wastes")
    js = _options(state, detail=True).to_json()
    assert js["complete"] is True and "unsupported" not in js
    assert {"mana": "{R}{R}{G}{G}", "restricted": "{R}{G}"} in js["options"]
    # without the Cube: three {C} and two restricted colors; neither contains the other
    assert {"mana": "{R}{G}{C}{C}{C}", "restricted": "{R}{G}"} in js["options"]
    assert {"mana": "{R}{R}{G}{G}", "restricted": "{R}{R}{G}{G}"} not in js["options"]


def test_t117_order_matters_filter_before_or_after_the_cube() -> None:
    """CR 605.3 (each mana ability is paid from the pool as it is then): with {U} floating,
    a "{U}, {T}: Add {W}{W}" filter and three Wastes, filter-then-double gives {W}{W}{W}{W}
    and double-then-filter gives {W}{W}{U}: both are listed, neither contains the other."""
    state = _state("Doubling Cube", BLUE_FILTER, "Wastes", "Wastes", "Wastes", pool="{U}")
    assert sorted(_options(state).to_json()["options"]) == sorted(
        ["{W}{W}{C}{C}{C}", "{W}{W}{W}{W}", "{U}{C}{C}{C}", "{C}{C}{C}{C}", "{W}{W}{U}", "{U}{U}"])


def test_t117_eight_forests_and_a_cube() -> None:
    """8 Forests and a Cube: tap all, pay {3}, double the other five {G}: ten {G}."""
    state = _state(*["Forest"] * 8, "Doubling Cube")
    assert _options(state).to_json() == {"options": ["{G}" * 10], "complete": True}


def test_t117_two_cubes_compose() -> None:
    """Two Cubes, seven Forests: 7 - 3 = 4, doubled 8; 8 - 3 = 5, doubled 10 {G}."""
    state = _state(*["Forest"] * 7, "Doubling Cube", "Doubling Cube")
    assert _options(state).to_json() == {"options": ["{G}" * 10], "complete": True}


def test_tapped_cube_is_no_option_and_not_unsupported() -> None:
    """CR 107.5: a tapped Cube can't be activated; the answer is exact without it."""
    state = _state({"card": "Doubling Cube", "tapped": True}, "Forest")
    assert _options(state).to_json() == {"options": ["{G}"], "complete": True}


def test_cube_under_mana_reflection_is_reported_not_guessed() -> None:
    """Mana Reflection ("If you tap a permanent for mana, it produces twice as much of that
    mana instead") would apply to the Cube's {T} activation (CR 106.12): not modelled, so
    the answer is incomplete and names the Cube."""
    state = _state({"id": "cube", "card": "Doubling Cube"}, "Mana Reflection", *["Forest"] * 3)
    js = _options(state).to_json()
    assert js["complete"] is False
    assert [u["permanent"] for u in js["unsupported"]] == ["cube"]


# -- differential: the engine against a brute force over every order ----------------------------

PALETTE = ["Forest", "Island", "Wastes", "Adarkar Wastes", "Cascade Bluffs", "Fire-Lit Thicket",
           "Sol Ring", "Azorius Signet", "Ancient Ziggurat", "Powerstone", "Treasure", "Lotus Petal",
           "Birds of Paradise", "Darkwater Catacombs"]


def _random_doubler_board(rng: random.Random) -> GameState:
    cards: list[str | dict[str, Any]] = ["Doubling Cube"] * rng.choice([1, 1, 1, 2])
    for _ in range(rng.randint(1, 4)):
        name = rng.choice(PALETTE + ["BLUE_FILTER"])
        if name == "BLUE_FILTER":
            cards.append(dict(BLUE_FILTER))
        elif name == "Treasure":
            cards.append({"card": name, "token": True})
        else:
            cards.append(name)
    rng.shuffle(cards)
    return _state(*cards, pool=rng.choice(["", "", "{U}", "{C}{C}", "{W}{U}{R}"]))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(min_value=0, max_value=10**9))
def test_t117_random_boards_with_cubes_match_brute_force(seed: int) -> None:
    """Small random boards with one or two Cubes: the maximal pools (plain, and detailed with
    the restricted part, CR 106.6) equal those of a brute force that plays every order of
    activations on concrete pools (tests/support/brute_options.py ``brute_options``)."""
    from brute_options import brute_options, maximal_totals
    state = _random_doubler_board(random.Random(seed))
    pairs = brute_options(state)
    plain = _options(state)
    assert plain.complete
    assert {o.mana for o in plain.options} == maximal_totals(pairs)
    detailed = _options(state, detail=True)
    assert {(o.mana, o.restricted) for o in detailed.options} == pairs


@pytest.mark.parametrize("forests", range(5))
@pytest.mark.parametrize("tapped", [False, True])
@pytest.mark.parametrize("pool", ["", "{C}"])
def test_guard_t117_refuses_exactly_when_the_cube_can_be_activated(forests: int, tapped: bool,
                                                                    pool: str) -> None:
    """T117 / CR 602.2b: pay {1} names the Cube as left out exactly when it is untapped (107.5)
    and the rest of the board (Forests, floating {C}) can pay its {3} with mana left over to
    double (the payment without it is answered); otherwise the answer is exact without it."""
    state = _state(*["Forest"] * forests, {"id": "cube", "card": "Doubling Cube", "tapped": tapped},
                   pool=pool)
    can_activate = not tapped and forests + len(pool) // 3 > 3
    answer = queries.pay(_req(state, "{1}"))
    assert answer.payable == (forests + len(pool) // 3 >= 1)
    assert bool(answer.unsupported) == can_activate
