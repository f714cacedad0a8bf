"""Pool doublers (Doubling Cube; CR 106.6 example, RULES §1.4, T117).

Doubling Cube: "{3}, {T}: Double the amount of each type of unspent mana you have."
The payment queries do not model it and must say so rather than answer a possibly
wrong or non-optimal payment (:func:`manasolver.solver.queries.guard_doublers`);
the ``options`` query applies it exactly (checked against a brute force that plays
every order of activations on concrete pools).
"""

from __future__ import annotations

from typing import Any

import pytest
from manasolver.models.board import load_state
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


@pytest.mark.parametrize("query,cost", [("can_pay", "{9}"), ("pay", "{8}"), ("pay", "{G}"),
                                        ("max_x", "{X}"), ("payments", "{1}")])
def test_guard_t117_active_cube_is_unsupported_naming_it(query: str, cost: str) -> None:
    """T117: 8 Forests and an untapped Cube: {9} is payable (tap 7, pay {3}, double 4 {G}),
    and {8} can leave a Forest untapped, which the optimiser can't see: every answer but a
    true can_pay is Unsupported, naming the Cube at battlefield[8]."""
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
    """CR 106.4: floating {G}{G} and one Forest pay the Cube's {3}: a {5} cost is refused."""
    state = _state("Forest", "Doubling Cube", pool="{G}{G}")
    with pytest.raises(Unsupported):
        queries.can_pay(_req(state, "{5}"))
