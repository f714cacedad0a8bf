"""A grant of a mana ability whose reach can't be read (CR 613.1f): the board's reach of effects
on mana (``reached_by_effects``) is "any permanent" whether it is the grant's condition or whom it
reaches that refuses, and the payment queries refuse naming what could not be read."""

from __future__ import annotations

from typing import Any

import pytest
from manasolver.models.board.load import load_state
from manasolver.models.rules.board_effects import reached_by_effects
from manasolver.solver.service.protocol import answer

#: Whom it reaches needs every creature's power; Tarmogoyf's is '*', which the engine does not
#: evaluate.  (Its words put "you control" last, where the grant reader looks for it.)
_GRANT = 'creatures with power 4 or greater you control have "{T}: Add {G}."'


def _board(condition: str) -> dict[str, Any]:
    grant = {"id": "g", "name": "Test Grant", "type_line": "Enchantment", "mana_cost": "{2}",
             "oracle_text": f"As long as you control {condition}, {_GRANT}" if condition else "C" + _GRANT[1:]}
    return {"players": [{"name": "you"}, {"name": "opp"}],
            "battlefield": [grant, {"id": "t", "card": "Tarmogoyf"}, {"id": "f", "card": "Forest"}]}


@pytest.mark.parametrize("condition", ["", "a Forest"])
def test_a_grant_whose_reach_refuses_reaches_any_permanent_613_1f(condition: str) -> None:
    """Unconditional, or with a condition that holds: the reach is unknown, not an error."""
    board = _board(condition)
    assert reached_by_effects(load_state(board)) is None
    out = answer({"query": "can_pay", "state": board, "cost": "{G}{G}"})
    assert out["error"]["code"] == "unsupported" and "Tarmogoyf" in out["error"]["message"]


def test_a_grant_whose_condition_does_not_hold_reaches_nothing_613_1f() -> None:
    """With fewer than six lands the grant gives nothing: whom it would reach is not read."""
    board = _board("six or more lands")
    assert reached_by_effects(load_state(board)) == frozenset()
    assert answer({"query": "can_pay", "state": board, "cost": "{G}"}) == {"payable": True}
