"""The payment request's written-out ``__init__`` (it stores through the slots, for speed) is the one
a frozen dataclass would generate: the fields in order with their defaults, and nothing set twice
or left out."""

from __future__ import annotations

import dataclasses
import inspect

import pytest

from manasolver.models.cost import ManaCost
from manasolver.models.state import GameState
from manasolver.solver.request import Modifier, PaymentRequest, Policy, Sources


def test_request_init_takes_the_fields_in_order_with_their_defaults() -> None:
    params = list(inspect.signature(PaymentRequest).parameters.values())
    fields = dataclasses.fields(PaymentRequest)
    assert [p.name for p in params] == [f.name for f in fields]
    for p, f in zip(params, fields):
        assert f.default_factory is dataclasses.MISSING
        assert p.default == (inspect.Parameter.empty if f.default is dataclasses.MISSING else f.default), f.name


def test_request_init_stores_every_field_and_the_request_stays_frozen() -> None:
    state = GameState(players=(), turn=None)  # type: ignore[arg-type]
    values = {"state": state, "cost": ManaCost.parse("{2}{G}"), "player": "you", "spell": None, "x": 2,
              "modifiers": (Modifier("reduce", cost=ManaCost.parse("{1}")),), "alternative": "flashback",
              "convoke": True, "delve": True, "improvise": True, "policy": Policy(criteria=("min_waste",)),
              "activation": None, "sources": Sources(exclude=("a",))}
    req = PaymentRequest(**values)
    assert {f.name: getattr(req, f.name) for f in dataclasses.fields(req)} == values
    assert dataclasses.replace(req, x=3).x == 3 and dataclasses.replace(req) == req
    with pytest.raises(dataclasses.FrozenInstanceError):
        req.x = 4  # type: ignore[misc]
    assert PaymentRequest(state, values["cost"], "you").policy == Policy()
