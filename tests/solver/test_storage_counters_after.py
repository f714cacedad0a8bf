"""Storage lands after a payment (CR 118.3, 606: "Remove X storage counters", CR 107.3): the
counters an activation of a remove-any ability removed are gone on the board after it, on both
paths that carry a payment out: the guide's board after a partial payment and a session's
``"apply": true``, each taking off the number validation counts for the activation's mana
(:func:`~manasolver.solver.carry.removed_for`).  The guide never proposes a completion validation
refuses."""

from __future__ import annotations

import itertools
from typing import Any

import pytest
from cards import json_board
from manasolver.models.board.load import load_state
from manasolver.solver.carry import effects_of
from manasolver.solver.service.protocol import answer

_POOLS = "Calciform Pools"  # {1}, Remove X storage counters: Add X mana of {W} and/or {U}


def _pools(counters: int, *others: str) -> dict[str, Any]:
    return json_board(*others, {"card": _POOLS, "counters": {"storage": counters}})


def test_cr_118_3_guide_takes_the_removed_storage_counters_off_calciform_pools() -> None:
    """Plains, Plains, Calciform Pools with 2 storage counters, {W}{W}{W}: once a partial payment
    removed one counter for {W}, one is left; the completion the guide proposes removes at most
    that one and validates (it proposed removing 3 of 2)."""
    board = _pools(2, "Plains", "Plains")
    partial = [{"permanent": "p0", "ability": 0}, {"permanent": "p2", "ability": 1, "mana": "{W}"}]
    out = answer({"query": "guide", "state": board, "cost": "{W}{W}{W}", "partial": partial})
    assert out["completable"] is True
    checked = answer({"query": "validate", "state": board, "cost": "{W}{W}{W}", "payment": out["completion"]})
    assert checked == {"legal": True, "problems": []}
    assert {"permanent": "p2", "ability": 1, "mana": "{W}{W}"} not in out["next"]


def test_cr_118_3_guide_after_both_storage_counters_removed_offers_no_more() -> None:
    """Calciform Pools with 2 storage counters and a Plains: after a partial payment took {W}{W}
    from both counters, the Pools' remove-any ability is lit no more (its {T} still is), and {W}{W}{W}{W} (which
    needed a third counter) is not completable."""
    board = _pools(2, "Plains", "Plains")
    partial = [{"permanent": "p0", "ability": 0}, {"permanent": "p2", "ability": 1, "mana": "{W}{W}"}]
    out = answer({"query": "guide", "state": board, "cost": "{W}{W}{W}", "partial": partial})
    assert out["completable"] is True and ("p2", 1) not in {(n["permanent"], n["ability"]) for n in out["next"]}
    more = answer({"query": "guide", "state": board, "cost": "{W}{W}{W}{W}", "partial": partial})
    assert more["completable"] is False


def test_cr_118_3_apply_takes_the_removed_storage_counters_off_calciform_pools() -> None:
    """A session's ``"apply": true`` of a payment that removed both storage counters of
    Calciform Pools leaves it none: untapped again beside a Plains, it pays {W} but not {W}{W}."""
    handle = answer({"query": "open", "state": _pools(2, "Plains")})["board"]
    out = answer({"query": "pay", "board": handle, "cost": "{W}{W}", "apply": True})
    assert out["applied"] is True
    assert any(a["permanent"] == "p1" and a["ability"] == 1 for a in out["payment"]["activations"])
    untap = [{"untap": "p0"}, {"untap": "p1"}]
    assert answer({"query": "can_pay", "board": handle, "cost": "{W}", "changes": untap})["payable"] is True
    assert answer({"query": "can_pay", "board": handle, "cost": "{W}{W}"})["payable"] is False
    answer({"query": "close", "board": handle})


def test_cr_118_3_effects_of_counts_the_storage_counters_removed_for_the_mana() -> None:
    """Two activations of Calciform Pools' remove-any ability that made {W}{U}{U} removed 3
    counters (the number validation counts for that mana), one that made {U} one."""
    state = load_state(_pools(4))
    act = {"permanent": "p0", "ability": 1, "costs": ["{1}", "remove any number of storage counters"],
           "mana": "{W}{U}{U}", "times": 2}
    assert effects_of(state, "you", {"activations": [act]}).counters[("p0", "storage")] == 3
    one = {**act, "mana": "{U}", "times": 1}
    assert effects_of(state, "you", {"activations": [one]}).counters[("p0", "storage")] == 1


@pytest.mark.parametrize(("counters", "cost"), [(1, "{W}{W}"), (2, "{W}{W}{W}"), (2, "{W}{U}{1}"), (3, "{W}{W}{W}{W}")])
def test_cr_118_3_every_guide_completion_on_a_storage_board_validates(counters: int, cost: str) -> None:
    """On small Calciform Pools boards (with a Plains and an Island), every partial payment of one
    or two steps the guide lights (each step one it offered as ``next``) gets a completion that
    validates, and is completable exactly when that completion exists."""
    board = _pools(counters, "Plains", "Island")
    seen = 0
    first = answer({"query": "guide", "state": board, "cost": cost, "partial": []})
    for step in first.get("next", []):
        partial = [step]
        out = answer({"query": "guide", "state": board, "cost": cost, "partial": partial})
        for more in itertools.chain([None], out.get("next", [])):
            now = partial if more is None else [*partial, more]
            got = out if more is None else answer({"query": "guide", "state": board, "cost": cost, "partial": now})
            assert got["completable"] is ("completion" in got), now
            if got["completable"]:
                checked = answer({"query": "validate", "state": board, "cost": cost, "payment": got["completion"]})
                assert checked["legal"] is True, (now, checked["problems"])
                seen += 1
    assert seen
