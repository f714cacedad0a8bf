"""Payment vectors that need more than an input and an expected answer.

The input → answer vectors are data (``tests/data/rules_*.json``, run by
``test_vectors.py``); these are the ones whose checks are Python: an error *or* an unpayable
answer (T39), a refusal raised as :class:`Unsupported`, one board asked three ways (T89), and the
exact field sets of the protocol's answers.  Boards are the hand-built cards of
``tests/support/cards.py``; every payment a backend returns passes the independent ``validate``.
"""

from __future__ import annotations

import pytest
from backends import backend_answers
from cards import BIRDS, ELVES, FOREST, ISLAND, MYSTERY_RELIC, SPRINGLEAF_DRUM, board, perm, reduce, request
from manasolver.models.errors import Unsupported
from manasolver.solver import queries
from manasolver.solver.request import PaymentRequest


def payable_everywhere(req: PaymentRequest) -> bool:
    """Payability from every backend that accepts the problem; they must agree."""
    seen = backend_answers(req)
    assert "cpsat" in seen
    assert len(set(seen.values())) == 1, seen
    answer = queries.can_pay(req)
    assert answer.payable == seen["cpsat"]
    return seen["cpsat"]


def test_T39_no_mana_cost_is_unpayable() -> None:
    """CR 118.6, 202.1b: a card with no mana cost can't be cast by paying it (protocol)."""
    from manasolver.solver.service import protocol
    out = protocol.answer({"query": "can_pay", "state": {"players": [{"name": "you"}],
                                                          "battlefield": []},
                           "spell": {"card": "Ancestral Vision"}})
    assert "error" in out or out.get("payable") is False


def test_T89_springleaf_drum_taps_a_summoning_sick_creature() -> None:
    """Springleaf Drum ruling, CR 302.6: "{T}, Tap an untapped creature you control" may
    tap a creature that entered this turn; one creature pays one cost (118.10), so an
    Elves tapped for {G} can't also be tapped for the Drum."""
    req = request(board(perm("d", SPRINGLEAF_DRUM, sick=True), perm("e", ELVES, sick=True)), "{W}")
    assert payable_everywhere(req)
    paid = queries.pay(req).to_json()
    assert paid["payable"], paid
    assert paid["payment"]["activations"][0]["costs"] == ["{T}", "tap 1 untapped creature you control"]
    both = request(board(perm("d", SPRINGLEAF_DRUM), perm("e", ELVES)), "{W}{G}")
    assert not queries.pay(both).payable
    assert queries.pay(request(board(perm("d", SPRINGLEAF_DRUM), perm("e", ELVES), perm("b", BIRDS)),
                               "{W}{G}")).payable


def test_unreadable_source_is_not_called_unpayable() -> None:
    """A permanent whose mana text could not be read makes an unpayable answer Unsupported."""
    with pytest.raises(Unsupported, match="Mystery Relic"):
        queries.can_pay(request(board(perm("v", MYSTERY_RELIC)), "{1}"))
    # but a payable cost is still answered
    assert queries.can_pay(request(board(perm("v", MYSTERY_RELIC), perm("f", FOREST)), "{1}")).payable


PAYMENT_KEYS = {"total", "choices", "x", "activations", "pool_used", "convoked", "delved",
                "improvised", "life", "energy", "damage", "floating", "allocation", "warnings", "score"}


def test_answers_have_exactly_the_protocol_shapes() -> None:
    """The protocol: pay, can_pay and max_x answers and PAYMENT carry exactly these fields."""
    state = board(perm("f", FOREST), perm("i", ISLAND), pool="{C}")
    paid = queries.pay(request(state, "{2}{U}{B/P}", mods=(reduce("{W/U}"),))).to_json()
    assert set(paid) == {"payable", "payment"} and set(paid["payment"]) == PAYMENT_KEYS
    act = paid["payment"]["activations"][0]
    assert set(act) == {"permanent", "ability", "costs", "mana"}
    assert queries.can_pay(request(state, "{1}")).to_json() == {"payable": True}
    no = queries.can_pay(request(state, "{W}{W}")).to_json()
    assert set(no) == {"payable", "reason"} and set(no["reason"]) == {"code", "message", "missing"}
    mx = queries.max_x(request(state, "{X}{U}")).to_json()
    assert set(mx) == {"max_x", "payment"} and mx["max_x"] == 2
    assert set(mx["payment"]) == PAYMENT_KEYS
    none = queries.max_x(request(state, "{X}{W}")).to_json()
    assert none["max_x"] is None and none["reason"]["code"] == "no_legal_x"
