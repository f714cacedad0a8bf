"""The ``no_sacrifice`` criterion counts what a payment's costs take from the player for good,
one definition for every backend and the written payment's score (see :class:`Option`: one per
activation of an option whose ``sacrifice`` is set, one per permanent or card taken for its
``sacrifice_other``): Lotus Petal and a Treasure sacrifice themselves (one each), Mirrored Lotus is
exiled (one: it leaves for good though CR 701.21a calls it no sacrifice), Ashnod's Altar
sacrifices one creature and stays (one, not two), Simian Spirit Guide's card is exiled (one).

Each board is paid by every backend that takes it (fastopt, CP-SAT, the flow path, the default
chain): the written score's count is the same whoever found the payment, and where the count
decides the payment every optimising backend chooses alike."""

from __future__ import annotations

from typing import Any

import pytest
from cards import json_board, request
from manasolver.models.board.load import load_state
from manasolver.models.errors import Unsupported
from manasolver.solver import queries
from manasolver.solver.payment import Payment
from manasolver.solver.service.protocol import answer

_BACKENDS = (None, "fastopt", "cpsat", "flow")
_TREASURE = {"card": "Treasure", "token": True}


def _paid(board: dict[str, Any], cost: str, backend: str | None) -> Payment | None:
    """The payment ``backend`` gives (None: it does not take the board)."""
    try:
        out = queries.pay(request(load_state(board), cost), backend=backend)
    except Unsupported:
        return None
    assert out.payable and out.payment is not None
    return out.payment


def _sacrificed(payment: Payment) -> int:
    return dict(payment.score)["no_sacrifice"]


@pytest.mark.parametrize(("cards", "cost", "counted"), [
    (("Lotus Petal",), "{R}", 1),
    ((_TREASURE,), "{R}", 1),
    ((_TREASURE, "Lotus Petal"), "{R}{G}", 2),
    (("Mirrored Lotus",), "{R}", 1),
    (("Ashnod's Altar", "Grizzly Bears"), "{2}", 1),
])
def test_no_sacrifice_counts_permanents_sacrificed_by_every_backend(cards: tuple[Any, ...], cost: str,
                                                                     counted: int) -> None:
    """Lotus Petal, a Treasure: one each; Ashnod's Altar's creature: one (the Altar stays, its
    "sacrifice a creature" is not a second); Mirrored Lotus's "exile ~": one."""
    board = json_board(*cards)
    got = {name: _paid(board, cost, name) for name in _BACKENDS}
    assert got[None] is not None and got["cpsat"] is not None
    for name, payment in got.items():
        if payment is not None and payment.activations:
            assert _sacrificed(payment) == counted, name


def test_two_life_are_paid_before_mirrored_lotus_is_exiled() -> None:
    """{R/P} with Mirrored Lotus: exiling it costs the Lotus for good, so under the default policy
    (no_sacrifice, then min_life) 2 life are paid instead, in fastopt and CP-SAT alike, and the
    score says so (the written score counted the exile 0: a payment exiling it tied one paying
    nothing)."""
    board = json_board("Mirrored Lotus")
    for name in (None, "fastopt", "cpsat"):
        payment = _paid(board, "{R/P}", name)
        assert payment is not None
        assert not payment.activations and payment.life == 2, name
    out = answer({"query": "pay", "state": board, "cost": "{R}"})
    assert dict(out["payment"]["score"])["no_sacrifice"] == 1


def test_altar_sacrifice_is_one_against_two_lotus_petals() -> None:
    """{2} with Ashnod's Altar, a creature and two Lotus Petals: the Altar's one creature beats two
    Petals, and the score says 1 (the Altar's own "sacrifice a creature" is that creature)."""
    board = json_board("Ashnod's Altar", "Grizzly Bears", "Lotus Petal", "Lotus Petal")
    out = answer({"query": "pay", "state": board, "cost": "{2}"})
    acts = out["payment"]["activations"]
    assert [(a["permanent"], a.get("sacrificed")) for a in acts] == [("p0", ["p1"])]
    assert dict(out["payment"]["score"])["no_sacrifice"] == 1


def test_simian_spirit_guide_counts_one() -> None:
    """Simian Spirit Guide exiled from the hand for {R}: one card taken, as a Lotus Petal is, in
    the written score as in CP-SAT's choice (a Mountain is tapped first)."""
    board = json_board("Lotus Petal")
    board["players"][0]["hand"] = ["Simian Spirit Guide"]
    out = answer({"query": "pay", "state": board, "cost": "{R}"})
    assert dict(out["payment"]["score"])["no_sacrifice"] == 1
    board = json_board("Mountain")
    board["players"][0]["hand"] = ["Simian Spirit Guide"]
    out = answer({"query": "pay", "state": board, "cost": "{R}"})
    assert [a.get("permanent") for a in out["payment"]["activations"]] == ["p0"]
