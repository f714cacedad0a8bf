"""The PAYMENT written directly (solver/payment_writer.py) is the general path's, byte for byte.

For every solution it accepts, :func:`direct_json` must give the very object that
``to_payment(problem, solution).to_json()`` gives (same keys in the same order, same values), on
real boards: the benchmark's Commander boards (Signets and filter lands paying mana costs, pain
lands dealing damage, Sol Ring's two slots, a Treasure sacrificing itself), large lands boards,
the bundled example boards (Phyrexian life, hybrid choices, floating pool mana, Reaper King's
monocolored hybrid) and a converge policy that adds ``spent``/``colors_spent``; solutions of the
default chain and of CP-SAT alike.  Shapes it does not accept (convoke) go the general way.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from manasolver.benchmarks import boards as bd
from manasolver.solver import queries
from manasolver.solver.service.demo import example_state
from manasolver.solver.payment_writer import Written, direct_json, finish_json, writes_directly
from manasolver.solver.service.protocol import answer, build_request

_EXAMPLE_COSTS = ("{2}{W/U}{B/P}", "{1}{B/P}{B/P}", "{W}{W}{W}", "{2/W}{2/U}", "{C}", "{G}", "{5}{R}{R}",
                  "{U}{U}{R}{R}", "{W}{U}{B}{R}{G}", "{2}{G}")


def _cases() -> list[tuple[str, dict[str, Any], str, dict[str, Any]]]:
    out: list[tuple[str, dict[str, Any], str, dict[str, Any]]] = []
    for seed in range(4):
        board = bd.commander_board(seed)
        for cost in bd.costs_for(seed, 8):
            out.append((f"commander-{seed}", board, cost, {}))
    lands = bd.lands_board(300, 1)
    out += [("lands300", lands, bd.tight_cost(lands, 1), {}), ("lands300", lands, bd.generic_cost(lands), {})]
    for name in ("commander", "reaper", "pools", "phyrexian", "basics"):
        for cost in _EXAMPLE_COSTS:
            out.append((name, example_state(name), cost, {}))
    converge = {"policy": ["max_colors_spent"]}
    out += [("commander-0", bd.commander_board(0), "{4}{W}", converge),
            ("commander", example_state("commander"), "{3}", converge)]
    return out


def _both(ans: queries.PayAnswer) -> tuple[str, str]:
    source = ans.source
    assert isinstance(source, Written)
    general = source.payment().to_json()
    return json.dumps(source.to_json()), json.dumps(general)


@pytest.mark.parametrize("backend", [None, "cpsat"])
def test_direct_payment_json_is_the_general_paths_byte_for_byte(backend: str | None) -> None:
    """Every payable case: the answer's PAYMENT equals to_payment(...).to_json() exactly, and the
    direct writer took most of them (the check is not vacuous)."""
    direct = compared = 0
    for label, state, cost, extra in _cases():
        req = build_request({"query": "pay", "state": state, "cost": cost, **extra})
        ans = queries.pay(req, backend=backend)
        if not ans.payable:
            continue
        assert isinstance(ans.source, Written)
        mine, general = _both(ans)
        assert mine == general, (label, cost, extra)
        compared += 1
        direct += writes_directly(ans.source.problem, ans.source.solution)
    assert compared >= 40 and direct >= compared * 3 // 4, (compared, direct)


def test_converge_policy_reports_spent_and_colors_spent_directly() -> None:
    """max_colors_spent adds ``spent`` and ``colors_spent`` after ``floating``, as the general
    path writes them (converge, sunburst)."""
    req = build_request({"query": "pay", "state": bd.commander_board(0), "cost": "{4}{W}",
                         "policy": ["max_colors_spent"]})
    ans = queries.pay(req)
    assert isinstance(ans.source, Written) and writes_directly(ans.source.problem, ans.source.solution)
    out = direct_json(ans.source.problem, ans.source.solution)
    assert list(out)[-3:] == ["floating", "spent", "colors_spent"]
    assert finish_json(ans.source.problem, out) == ans.source.payment().to_json()


def test_convoke_goes_the_general_way_702_51a() -> None:
    """A convoking creature is an assist: the direct writer declines it and the answer is the
    general path's (the creature under ``convoked``)."""
    state = {"players": [{"name": "you"}], "battlefield": [
        bd.permanent("f", "Forest"), bd.permanent("bear", "Grizzly Bears")]}
    req = build_request({"query": "pay", "state": state, "cost": "{1}{G}", "convoke": True})
    ans = queries.pay(req)
    assert isinstance(ans.source, Written)
    assert not writes_directly(ans.source.problem, ans.source.solution)
    out = answer({"query": "pay", "state": state, "cost": "{1}{G}", "convoke": True})
    assert out["payment"]["convoked"] == ["bear"]
    assert out["payment"] == ans.source.payment().to_json()


def test_pay_answer_builds_its_payment_value_only_when_read() -> None:
    """The Python API still gets a Payment (activations as values), equal to the JSON written."""
    req = build_request({"query": "pay", "state": bd.commander_board(1), "cost": "{2}{G}"})
    ans = queries.pay(req)
    assert ans.payable and ans.payment is not None
    assert ans.payment.to_json() == ans.to_json()["payment"]
    assert ans == queries.pay(req)


def test_an_activation_outside_the_supply_is_refused_not_counted_as_nothing() -> None:
    """A PAYMENT naming an activation of a permanent that is no source of its problem's supply (a
    tapped Llanowar Elves: its {T} cost can't be paid, CR 302.6) is refused by the writer's score
    and plan, not scored as an activation that costs, taps and counts nothing (``prefer_lands``
    would not count the Elves).  No query gives the writer such a payment (the argument is beside
    ``Finisher._option_of``); this is what breaking it would do."""
    from manasolver.solver.payment_writer import Finisher
    state = {"players": [{"name": "you"}], "battlefield": [{"id": "f", "card": "Forest"},
                                                           {"id": "e", "card": "Llanowar Elves", "tapped": True}]}
    req = build_request({"query": "pay", "state": state, "cost": "{G}"})
    ans = queries.pay(req)
    assert ans.payable and ans.source is not None
    out = ans.source.to_json()
    assert [a["permanent"] for a in out["activations"]] == ["f"]
    problem = queries.prepare(req, "feasible", 0)
    assert dict(Finisher(problem).score(out))["prefer_lands"] == 0
    stray = json.loads(json.dumps(out).replace('"permanent": "f"', '"permanent": "e"'))
    with pytest.raises(AssertionError, match="no source of the problem's supply"):
        Finisher(problem).score(stray)
    with pytest.raises(AssertionError, match="no source of the problem's supply"):
        Finisher(problem).plan(stray)
