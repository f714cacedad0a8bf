"""What the engine does not model is decided in one place (``solver/supply/unmodelled.py``): the
board-wide refusals of :func:`once` run once per board and what they read of the request, and a
refusal is raised again, as a fresh copy, for every later question on the same board; the rules of
paying, which read the request, are read for each question."""

from __future__ import annotations

import pytest

from manasolver.models.board.load import load_state
from manasolver.models.cost import ManaCost
from manasolver.models.errors import Unsupported
from manasolver.solver.service.protocol import answer
from manasolver.solver.casting.build import build_request
from manasolver.solver.request import PLAIN_POLICY, PaymentRequest
from manasolver.solver.service.decode import spell as decode_spell
from manasolver.solver.supply.unmodelled import once, refuse_options, refuse_payment

BOARD = {"players": [{"name": "you"}, {"name": "opponent"}],
         "battlefield": [{"id": "f", "card": "Forest"}, {"id": "s", "card": "Seizures", "attached_to": "e",
                                                         "controller": "opponent"},
                         {"id": "e", "card": "Llanowar Elves"}]}


def test_a_check_runs_once_per_board_and_key_and_its_refusal_is_raised_again_as_a_copy() -> None:
    state = load_state({"players": [{"name": "you"}], "battlefield": [{"id": "f", "card": "Forest"}]})
    runs: list[str] = []

    def refuse() -> None:
        runs.append("refuse")
        raise Unsupported("not modelled", "battlefield[0]")

    errors = []
    for _ in range(3):
        with pytest.raises(Unsupported) as err:
            once(state, ("test", 1), (), refuse)
        errors.append(err.value)
    assert runs == ["refuse"]
    assert errors[0] is not errors[1] and errors[1] is not errors[2]
    assert all(e.message == "not modelled" and e.where == "battlefield[0]" for e in errors)
    passes: list[str] = []
    for _ in range(2):
        once(state, ("test", 2), (), lambda: passes.append("pass"))
    assert passes == ["pass"]


def test_a_key_naming_an_object_by_id_runs_again_for_another_object() -> None:
    state = load_state({"players": [{"name": "you"}], "battlefield": []})
    runs: list[object] = []
    first, second = object(), object()
    for obj in (first, first, second, first):
        once(state, ("by id", id(obj)), (obj,), lambda o=obj: runs.append(o))
    assert runs[:2] == [first, second]


def test_seizures_tap_trigger_refuses_pay_but_not_can_pay_and_options_checks_its_own() -> None:
    """Seizures (its damage on becoming tapped is not applied by payments): ``pay`` states life and
    damage and is refused naming the card; ``can_pay`` is not, since whether a cost is payable
    does not depend on the damage; the ``options`` refusals are their own (prohibitions, haste)."""
    paid = answer({"query": "pay", "state": BOARD, "cost": "{G}{G}"})
    assert paid["error"]["code"] == "unsupported" and "Seizures" in paid["error"]["message"]
    assert answer({"query": "can_pay", "state": BOARD, "cost": "{G}{G}"}) == {"payable": True}
    refuse_options(load_state(BOARD), "you")  # nothing to refuse there
    again = answer({"query": "pay", "state": BOARD, "cost": "{G}"})
    assert again["error"]["code"] == "unsupported" and again["error"]["where"] == paid["error"]["where"]


def test_the_rules_of_paying_are_read_for_each_request_and_kept_nowhere() -> None:
    """K'rrik (life for {B}) on one board: a request with a hybrid {B/G} is refused, one without
    black is not, in either order on the same state, and only the tap triggers' check is kept in
    the board's memo (the rules of paying read the request; what they read of the board is kept
    in its view)."""
    state = load_state({"players": [{"name": "you"}], "battlefield": [
        {"id": "k", "card": "K'rrik, Son of Yawgmoth"}, {"id": "s", "card": "Swamp"}]})
    spell = decode_spell({"spell": {"card": "Dark Ritual"}})

    def request(cost: str) -> PaymentRequest:
        return build_request(state, "you", spell, ManaCost.parse(cost), None, (), PLAIN_POLICY)

    for cost, refused in (("{G}", False), ("{B/G}", True), ("{G}", False), ("{B/G}", True)):
        req = request(cost)
        if refused:
            with pytest.raises(Unsupported, match="K'rrik"):
                refuse_payment(req)
        else:
            refuse_payment(req)
    assert [key[0] for key in state.view.checks] == ["tap_triggers"]
