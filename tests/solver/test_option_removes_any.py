"""``Option.removes_any``: an option whose cost removes a number of counters chosen on activation
(storage lands, CR 107.3) is told by that field, set where the option is made from
``AbilityCost.remove_any``, never by the words of its cost.

Each reader is given the option twice with the same cost text: once with the field set and once
without; a reader that ignored the field (or read the text again) would answer both alike.  CP-SAT's
model, which counts the counters a member's activations remove, is pinned end to end by
``test_repeatable_costs.py`` (Petalmane Baku)."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

import pytest
from cards import json_board, request
from manasolver.models.board.load import load_state
from manasolver.models.cost import ManaCost
from manasolver.solver import queries
from manasolver.solver.backends.cpsat.repeats import merged
from manasolver.solver.backends.fastopt import FastOptBackend
from manasolver.solver.backends.flow.modes import repeatable_converter
from manasolver.solver.backends.flow.wide import repeat_rows
from manasolver.solver.backends.problem import Solution
from manasolver.solver.pools.untapped import _readable, _reshaped, _storage_land
from manasolver.solver.service.protocol import answer
from manasolver.solver.supply.build import build_supply
from manasolver.solver.supply.model import Option, Options, SourceClass

#: Calciform Pools' "{1}, Remove X storage counters: Add X mana in any combination of {W} and/or
#: {U}." with X = 1 and X = 2, as the supply makes it (W | U = 3), and its "{T}: Add {C}.".
_COST = ("{1}", "remove any number of storage counters")
_ONE = Option(1, (3,), _COST, ManaCost.parse("{1}"), exclusive=False, repeat=64, removes_any=True)
_TWO = Option(1, (3, 3), _COST, ManaCost.parse("{1}"), exclusive=False, repeat=64, removes_any=True)
_TAP = Option(0, (32,), ("{T}",), tap=True)


def _without(*opts: Option) -> tuple[Option, ...]:
    """``opts`` with the field cleared and their cost text kept."""
    return tuple(dataclasses.replace(o, removes_any=False) for o in opts)


def _storage(*opts: Option) -> SourceClass:
    return SourceClass(("p0",), (0,), opts, False, "land", "Calciform Pools")


def test_supply_marks_the_options_of_a_chosen_number_of_counters_107_3() -> None:
    """The supply sets the field on Calciform Pools' removal options only, whatever the count."""
    state = load_state(json_board("Forest", {"card": "Calciform Pools", "counters": {"storage": 2}}))
    pools = next(cls for cls in build_supply(state, state.players[0].name, resources=True).classes
                 if cls.name == "Calciform Pools")
    by_ability = {(o.ability, o.slots): o.removes_any for o in pools.options}
    assert by_ability == {(0, (32,)): False, (1, (3,)): True, (1, (3, 3)): True}


#: The one activation the options query reads a storage land's removal as; one that costs no mana.
_ONCE = dataclasses.replace(_TWO, repeat=1)
_FREE = dataclasses.replace(_ONE, mana_cost=ManaCost())

#: Per reader: a call on a member's options, the options, and what it answers with the field set.
_READERS: dict[str, tuple[Callable[[tuple[Option, ...]], Any], tuple[Option, ...], Any]] = {
    # a free repeatable option removing X counters is not one of the flow's rows
    "flow repeat_rows": (lambda opts: repeat_rows(Options(opts), (True,) * len(opts)), (_FREE,), ((), True)),
    # nor a converter the flow's search repeats
    "flow repeatable_converter": (lambda opts: repeatable_converter(Options(opts), (True,) * len(opts)), (_ONE,), None),
    # CP-SAT activates a storage land once, removing X1 + X2 counters (same masks whatever X)
    "cpsat merged": (lambda opts: merged(list(opts)), (_ONE, _TWO), True),
    # the options query reads it as one activation removing every counter
    "options _readable": (_readable, (_TAP, _ONE, _TWO), True),
    "options _storage_land": (lambda opts: _storage_land(_storage(*opts)), (_TAP, _ONCE), True),
    "options _reshaped": (lambda opts: [(o.slots, o.repeat) for o in _reshaped(opts)], (_TAP, _ONE, _TWO),
                          [((32,), 1), ((3, 3), 1)]),
}


@pytest.mark.parametrize("reader", sorted(_READERS))
def test_readers_tell_a_chosen_number_of_counters_by_the_field(reader: str) -> None:
    call, opts, expected = _READERS[reader]
    assert call(opts) == expected
    assert call(_without(*opts)) != expected


def test_calciform_pools_one_counter_pays_one_white_with_forest_107_3() -> None:
    """Forest and Calciform Pools with one storage counter: the Forest pays the {1}, the counter
    makes one {W}; {W}{W} would need a second counter (the flow's converter search once repeated
    the ability without limit)."""
    state = json_board("Forest", {"card": "Calciform Pools", "counters": {"storage": 1}})
    for backend in (None, "cpsat"):
        extra = {"backend": backend} if backend else {}
        assert answer({"query": "can_pay", "state": state, "cost": "{W}", **extra})["payable"] is True
        assert answer({"query": "can_pay", "state": state, "cost": "{W}{W}", **extra})["payable"] is False


def test_fastopt_answers_a_storage_land_whose_removal_taps_it() -> None:
    """Bottomless Vault (2 storage counters): "{T}, Remove any number of storage counters: Add {B}
    for each storage counter removed this way." taps it, so each number removed is one exclusive
    choice, which the fast optimiser models: it answers {B}{B} itself rather than leave it to
    CP-SAT, and declines nothing for the field."""
    state = load_state(json_board("Swamp", {"card": "Bottomless Vault", "counters": {"storage": 2}}))
    problem = queries.prepare(request(state, "{B}{B}", x=0), "optimal", 0)
    assert any(o.removes_any and o.exclusive for cls in problem.supply.classes for o in cls.options)
    assert isinstance(FastOptBackend().solve(problem), Solution)
