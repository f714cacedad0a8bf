"""``can_pay`` decided by the flow backend on boards its Hall check alone leaves to the optimisers:
Signets paying one another (the converter search, CR 605.3), Jegantha's mana that can't pay generic
costs (CR 106.6), costs beyond every source whatever their costs (Bog Witch's discard), and "tap an
untapped creature you control" costs with creatures enough that make no mana (CR 118.3).  Each
verdict and REASON is CP-SAT's, and CP-SAT is not asked."""

from __future__ import annotations

from typing import Any

import pytest
from manasolver.solver import backends
from manasolver.solver.service.protocol import answer


def _board(*names: str) -> dict[str, Any]:
    return {"players": [{"name": "you"}],
            "battlefield": [{"id": f"p{i}", "card": n} for i, n in enumerate(names)]}


def _answers(query: dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> tuple[dict[str, Any], dict[str, Any]]:
    """The default chain's answer and CP-SAT's (``backend: cpsat``); the test fails when the default
    chain asks CP-SAT to decide (its slack model may still explain an unpayable cost)."""
    want = answer({**query, "backend": "cpsat"})
    cpsat = backends.backend("cpsat")

    def refuse(problem: object) -> backends.Verdict:
        raise AssertionError("CP-SAT was asked to decide")

    monkeypatch.setattr(cpsat, "decide", refuse)
    return answer(query), want


@pytest.mark.parametrize(("names", "cost"), [
    (("Forest", "Golgari Signet", "Golgari Signet"), "{B}{G}{G}"),
    (("Forest", "Golgari Signet", "Golgari Signet"), "{B}{B}{G}{G}"),
    (("Plains", "Azorius Signet"), "{W}{W}{U}"),
    (("Island", "Izzet Signet", "Mystic Gate"), "{U}{U}{R}"),
])
def test_signets_paying_one_another_decided_by_the_converter_search_605_3(
        names: tuple[str, ...], cost: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """One Forest pays a Signet whose mana pays the other (never its own, CR 605.3): the converter
    search finds the payment, or the least missing mana (its colors may differ from CP-SAT's among
    equally small answers)."""
    got, want = _answers({"query": "can_pay", "state": _board(*names), "cost": cost}, monkeypatch)
    assert got["payable"] is want["payable"]
    if not want["payable"]:
        assert got["reason"]["code"] == want["reason"]["code"]
        assert len(got["reason"]["missing"]) == len(want["reason"]["missing"])


@pytest.mark.parametrize(("names", "cost", "payable"), [
    (("Jegantha, the Wellspring", "Island", "Forest", "Forest", "Plains"), "{3}{U}", True),
    (("Jegantha, the Wellspring", "Thriving Isle"), "{4}{U}", False),
    (("Jegantha, the Wellspring", "Island"), "{5}", False),
    (("Jegantha, the Wellspring", "Island", "Island"), "{2}{R}{G}", True),
    (("Jegantha, the Wellspring", "Plains", "Forest"), "{1}{W}{W}{U}", True),
    (("Jegantha, the Wellspring", "Wastes", "Wastes"), "{1}{C}{G}", True),
])
def test_jegantha_mana_pays_no_generic_106_6(names: tuple[str, ...], cost: str, payable: bool,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """Payable with Jegantha's mana paying colored symbols alone and the lands the rest, or with more
    generic than the mana that may pay it: the flow decides; CP-SAT agrees."""
    got, want = _answers({"query": "can_pay", "state": _board(*names), "cost": cost}, monkeypatch)
    assert got["payable"] is payable and got == want


@pytest.mark.parametrize("cost", ["{2}{G}{G}", "{4}{G}"])
def test_bog_witch_cost_beyond_every_source(cost: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Forest and Bog Witch ({B}, {T}, discard a card: add {B}{B}{B}): even were the Witch free,
    {G}{G} or five mana is more than the board makes."""
    state = _board("Forest", "Bog Witch")
    state["players"][0]["hand"] = ["Llanowar Elves"]
    got, want = _answers({"query": "can_pay", "state": state, "cost": cost}, monkeypatch)
    assert got["payable"] is False and got == want


@pytest.mark.parametrize(("names", "cost", "payable"), [
    (("Plains", "Plains", "Jaspera Sentinel", "Grizzly Bears", "Sol Ring"), "{3}{G}{W}", True),
    (("Holdout Settlement", "Holdout Settlement", "Grizzly Bears", "Grizzly Bears"), "{U}{B}", True),
    (("Forest", "Jaspera Sentinel", "Grizzly Bears"), "{G}{G}{G}", False),
    (("Holdout Settlement", "Holdout Settlement", "Grizzly Bears", "Grizzly Bears"), "{3}", False),
])
def test_tapped_creatures_that_make_no_mana_limit_no_payment_118_3(
        names: tuple[str, ...], cost: str, payable: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    """Jaspera Sentinel and Holdout Settlement tap an untapped creature as part of their cost; with
    as many creatures that make no mana as activations, the costs take nothing a payment needs, and
    Hall's condition over the wider units decides what CP-SAT decides."""
    got, want = _answers({"query": "can_pay", "state": _board(*names), "cost": cost}, monkeypatch)
    assert got["payable"] is payable and got == want


def test_jegantha_mana_beside_one_colorless_source_106_6() -> None:
    """{1}{C} from Jegantha and one Wastes: the Wastes alone may pay {C} and Jegantha's mana can't pay
    the {1}, so one unit would pay both: unpayable (Hall's condition over {C} with generic), as CP-SAT
    finds; the flow must not prove it payable by counting the Wastes for each demand alone."""
    query = {"query": "can_pay", "state": _board("Jegantha, the Wellspring", "Wastes"), "cost": "{1}{C}"}
    got = answer(query)
    assert got["payable"] is False and got == answer({**query, "backend": "cpsat"})


@pytest.mark.parametrize(("names", "cost", "payable"), [
    (("Forest", "Forest", "Jaspera Sentinel", "Grizzly Bears", "Llanowar Elves"), "{3}{G}{G}", True),
    (("Jaspera Sentinel", "Serra Angel", "Grizzly Bears"), "{1}{W}{G}", True),
])
def test_convoke_beside_costs_that_tap_creatures_702_51a(names: tuple[str, ...], cost: str, payable: bool,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """Convoke on a board where Jaspera Sentinel's ability taps another creature (CR 118.3): a
    payment by the lands, the other mana abilities and convoke alone is a payment, so the flow
    proves it payable without that ability; CP-SAT agrees."""
    query = {"query": "can_pay", "state": _board(*names), "cost": cost, "convoke": True}
    got, want = _answers(query, monkeypatch)
    assert got["payable"] is payable and got == want


def test_reason_with_creatures_spare_for_tapping_costs_118_3(monkeypatch: pytest.MonkeyPatch) -> None:
    """Jaspera Sentinel's and Holdout Settlement's "tap an untapped creature you control" with as many
    creatures that make no mana: the least missing mana is the flow's count over units with those
    options free, as CP-SAT's slack model finds it; the slack model is not asked."""
    query = {"query": "can_pay", "state": _board("Forest", "Jaspera Sentinel", "Holdout Settlement",
                                                 "Grizzly Bears", "Grizzly Bears"), "cost": "{4}{G}{W}"}
    want = answer({**query, "backend": "cpsat"})

    def refuse(*args: object, **kwargs: object) -> object:
        raise AssertionError("CP-SAT was asked")

    cpsat = backends.relaxer("cpsat")
    monkeypatch.setattr(cpsat, "relaxed", refuse)
    monkeypatch.setattr(backends.backend("cpsat"), "decide", refuse)
    got = answer(query)
    assert got == want and got["reason"]["missing"] == "{3}"


@pytest.mark.parametrize(("hand", "cost", "payable"), [
    (["Island", "Forest"], "{6}", True),
    (["Island", "Forest"], "{7}", False),
    (["Island", "Forest"], "{4}{G}", False),
])
def test_bog_witches_with_cards_to_discard_701_21a(hand: list[str], cost: str, payable: bool,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """Two Bog Witches ({B}, {T}, discard a card: add {B}{B}{B}) and two Swamps with two cards in the
    hand: each Witch has a card of its own to discard, so the converter search decides and explains
    the cost as if the discard cost nothing; neither CP-SAT model is asked."""
    state = _board("Swamp", "Swamp", "Bog Witch", "Bog Witch")
    state["players"][0]["hand"] = hand
    query = {"query": "can_pay", "state": state, "cost": cost}
    want = answer({**query, "backend": "cpsat"})

    def refuse(*args: object, **kwargs: object) -> object:
        raise AssertionError("CP-SAT was asked")

    monkeypatch.setattr(backends.relaxer("cpsat"), "relaxed", refuse)
    monkeypatch.setattr(backends.backend("cpsat"), "decide", refuse)
    got = answer(query)
    assert got["payable"] is payable and got == want


def test_bog_witches_with_one_card_to_discard_701_21a() -> None:
    """Two Bog Witches and one card in the hand: one Witch's mana pays the other's {B}, but only one
    can discard, so two Swamps and one Witch make four mana; the flow does not count the second."""
    state = _board("Swamp", "Swamp", "Bog Witch", "Bog Witch")
    state["players"][0]["hand"] = ["Island"]
    query = {"query": "can_pay", "state": state, "cost": "{6}"}
    got = answer(query)
    assert got == answer({**query, "backend": "cpsat"})
    assert got["payable"] is False and got["reason"]["missing"] == "{2}"


@pytest.mark.parametrize(("names", "cost", "spend"), [
    (("Plains", "Azorius Signet"), "{2}", {"U": 2}),
    (("Island", "Azorius Signet"), "{3}", {"W": 1}),
    (("Jegantha, the Wellspring", "Island", "Island", "Island"), "{1}{U}", {"G": 1}),
])
def test_spend_color_payments_left_to_the_optimisers(names: tuple[str, ...], cost: str,
                                                      spend: dict[str, int]) -> None:
    """A policy requiring colors spent (adamant): a payment the converter search or Jegantha's
    Hall check finds may not spend them, so can_pay's answer is CP-SAT's, which models it."""
    query = {"query": "can_pay", "state": _board(*names), "cost": cost, "policy": {"spend_color": spend}}
    assert answer(query) == answer({**query, "backend": "cpsat"})


@pytest.mark.parametrize(("names", "cost", "spend"), [
    (("Island", "Island"), "{2}", {"W": 1}),
    (("Island", "Island", "Plains"), "{1}{U}", {"W": 2}),
    (("Forest", "Forest", "Llanowar Elves"), "{2}", {"U": 1}),
    (("Island", "Island", "Plains"), "{2}", {"W": 1}),
])
def test_spend_color_can_pay_agrees_with_pay_on_plain_boards(names: tuple[str, ...], cost: str,
                                                              spend: dict[str, int]) -> None:
    """Adamant-like requirements on a board of lands and dorks alone: Hall's condition does not
    read them, so can_pay says what pay says (two Islands pay {2}, but not spending a {W})."""
    query = {"query": "can_pay", "state": _board(*names), "cost": cost, "policy": {"spend_color": spend}}
    got = answer(query)
    paid = answer({**query, "query": "pay"})
    assert got["payable"] is paid["payable"]
    assert got == answer({**query, "backend": "cpsat"})
    if not got["payable"]:
        assert "spend_color" in got["reason"]["message"] and got["reason"] == paid["reason"]
