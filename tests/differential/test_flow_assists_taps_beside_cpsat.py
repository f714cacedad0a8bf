"""``can_pay`` decided by the flow on boards where convoke or improvise (CR 702.51a, 702.126a) meet
costs that tap other permanents (Jaspera Sentinel, Holdout Settlement: CR 118.3) and mana that can't
pay generic costs (Jegantha, the Wellspring: CR 106.6), against the CP-SAT model on the same boards:
the same payability, and for an unpayable cost the same reason code, amount missing and colored part
of it.  The flow proves "payable" there by Hall's condition over the assisted units without the
options that tap others, and Jegantha's mana paying every demand but generic; an "unpayable" is left
to the search and CP-SAT as before.  Costs that discard a card (Bog Witch, CR 701.21a) with cards
enough in the hand are decided and explained by the converter search."""

from __future__ import annotations

import re
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from manasolver.solver.service.protocol import answer

_PERMANENTS = ("Forest", "Plains", "Island", "Llanowar Elves", "Grizzly Bears", "Serra Angel", "Ornithopter",
               "Sol Ring", "Memnite", "Jaspera Sentinel", "Holdout Settlement", "Jegantha, the Wellspring",
               "Birds of Paradise", "Savannah")
_COSTS = ("{3}{G}{W}", "{2}{G}{G}", "{1}{U}", "{4}", "{5}{G}{G}", "{W}{U}{B}", "{2}{R}{G}", "{6}")

_seldom = st.sampled_from((False, False, False, True))
_permanent = st.fixed_dictionaries({"card": st.sampled_from(_PERMANENTS), "tapped": _seldom, "sick": _seldom})


def _size(missing: str) -> tuple[int, int]:
    generic = sum(int(n) for n in re.findall(r"\{(\d+)\}", missing))
    colored = len(re.findall(r"\{[^0-9}][^}]*\}", missing))
    return generic + colored, colored


def _agrees_with_cpsat(query: dict[str, Any]) -> None:
    """The answer to ``query`` and CP-SAT's: the same payability, and for an unpayable cost the same
    reason code and the same amount missing with the same colored part."""
    got = answer(query)
    want = answer({**query, "backend": "cpsat"})
    assert got.get("payable") == want.get("payable"), (query, got, want)
    if "reason" in want:
        assert got["reason"]["code"] == want["reason"]["code"], (query, got, want)
        if "missing" in want["reason"]:
            assert _size(got["reason"]["missing"]) == _size(want["reason"]["missing"]), (query, got, want)


@pytest.mark.slow  # 10 s: CP-SAT answers every board
@settings(max_examples=150, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(_permanent, min_size=1, max_size=7), st.sampled_from(_COSTS),
       st.sampled_from(("convoke", "improvise", None)))
def test_assisted_and_barred_boards_decided_as_the_cpsat_model_702_51a_106_6(
        perms: list[dict[str, Any]], cost: str, assist: str | None) -> None:
    state = {"players": [{"name": "you"}],
             "battlefield": [{"id": f"p{i}", **p} for i, p in enumerate(perms)]}
    query: dict[str, Any] = {"query": "can_pay", "state": state, "cost": cost}
    if assist is not None:
        query[assist] = True
    _agrees_with_cpsat(query)


_FODDER_BOARD = ("Forest", "Swamp", "Swamp", "Island", "Bog Witch", "Bog Witch", "Llanowar Elves", "Golgari Signet",
                 "Sol Ring")
_HAND = ("Llanowar Elves", "Island", "Grizzly Bears", "Simian Spirit Guide")


@pytest.mark.slow  # 9 s: CP-SAT answers every board
@settings(max_examples=150, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.fixed_dictionaries({"card": st.sampled_from(_FODDER_BOARD), "sick": _seldom}), min_size=1,
                max_size=7),
       st.lists(st.sampled_from(_HAND), max_size=2), st.sampled_from(_COSTS))
def test_discard_costs_decided_as_the_cpsat_model_701_21a(perms: list[dict[str, Any]], hand: list[str],
                                                          cost: str) -> None:
    """Bog Witch's "{B}, {T}, Discard a card: Add {B}{B}{B}" beside Signets: with cards enough in the
    hand for every Witch the converter search decides and explains the cost; CP-SAT agrees."""
    state = {"players": [{"name": "you", "hand": hand}],
             "battlefield": [{"id": f"p{i}", **p} for i, p in enumerate(perms)]}
    query: dict[str, Any] = {"query": "can_pay", "state": state, "cost": cost}
    _agrees_with_cpsat(query)
