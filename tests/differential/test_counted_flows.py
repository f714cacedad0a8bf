"""The flows the flow backend counts instead of running, against the augmenting-path flows they
stand for, on random units and costs: a REASON's least missing mana per demand
(:func:`~manasolver.solver.backends.matching.deficits`, counted where every maximum flow serves each
demand alike) and the converter search's staged flow (``flow.staged.staged``, counted for one demand but
generic).  Identical dictionaries, keys in the same order."""

from __future__ import annotations

import random

import pytest
from manasolver.solver.backends import matching
from manasolver.solver.backends.flow import staged
from manasolver.solver.casting.announce import Form

_BITS = (1, 2, 4, 8, 16, 32)


def _mask(rng: random.Random) -> int:
    out = 0
    for bit in rng.sample(_BITS, rng.choice((1, 1, 2, 3, 5, 6))):
        out |= bit
    return out


def _form(rng: random.Random) -> Form:
    demands = tuple(sorted((rng.choice(_BITS) if rng.random() < 0.8 else _mask(rng), rng.randint(1, 4))
                           for _ in range(rng.choice((0, 1, 1, 1, 2, 3)))))
    return Form(demands, rng.choice((0, 0, 0, 1, 2)), rng.randint(0, 6), 0, 0, 0, 0, 0, (), ())


def _flowed_deficits(units: list[matching.UnitKind], form: Form, x: int) -> dict[tuple[object, ...], int]:
    """:func:`matching.deficits` with its first stage always flowed."""
    out: dict[tuple[object, ...], int] = {}
    served = matching._first_stage(units, form, out)
    generic = form.generic(x) + served - sum(u[2] for u in units)
    if generic > 0:
        out[("generic",)] = generic
    return out


@pytest.mark.parametrize("seed", range(2))
def test_deficits_counted_as_the_flow_serves_them(seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(1500):
        form = _form(rng)
        units = [(_mask(rng) if rng.random() < 0.9 else 0, rng.random() < 0.2, rng.randint(0, 4), -1, ())
                 for _ in range(rng.randint(0, 10))]
        got = matching.deficits(units, form, 0)
        assert list(got.items()) == list(_flowed_deficits(units, form, 0).items()), (units, form)


@pytest.mark.parametrize("seed", range(2))
def test_staged_flow_counted_as_the_flow_serves_it(seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    rng = random.Random(seed)
    cases = []
    for _ in range(1500):
        form = _form(rng)
        n = rng.choice((0, 1, 1, 2, 3, 4))
        costs = [(rng.choice((0, 0) + _BITS), rng.randint(1, 2)) for _ in range(n)]
        everything = frozenset(range(n))
        sources: list[staged.Source] = []
        for _ in range(rng.randint(0, 9)):
            r = rng.random()
            some = frozenset(c for c in everything if rng.random() < 0.5)
            pays = None if r < 0.2 else everything if r < 0.5 else some
            sources.append((_mask(rng), rng.random() < 0.2, rng.randint(1, 4), pays))
        cases.append((sources, costs, form, staged.staged(sources, costs, form, 0)))
    monkeypatch.setattr(staged, "_CUT_COSTS", -1)  # every staged flow run as a flow
    for sources, costs, form, got in cases:
        want = staged.staged(sources, costs, form, 0)
        assert (got is None) == (want is None), (sources, costs, form)
        assert got is None or want is None or list(got.items()) == list(want.items()), (sources, costs, form)


@pytest.mark.parametrize("seed", range(2))
def test_hall_condition_by_kinds_of_units_as_over_every_unit(seed: int) -> None:
    """:func:`matching.hall_fast` sums the units by (mask, snow) once, then each Hall sum over
    those kinds: the verdict of :func:`matching.hall_ok` over the units one by one, on boards of
    many units repeating a few masks (snow and not), and forms with a snow demand."""
    rng = random.Random(seed)
    masks = [_mask(rng) for _ in range(6)]
    seen = set()
    for _ in range(2000):
        form = _form(rng)
        if rng.random() < 0.3:
            form = Form(form.demands, rng.randint(1, 3), form.generic_base, 0, 0, 0, 0, 0, (), ())
        units = [(rng.choice(masks), rng.random() < 0.2, rng.randint(0, 5), k, ())
                 for k in range(rng.randint(0, 40))]
        for generic in (0, rng.randint(0, 30)):
            got = matching.hall_fast(units, form, generic)
            assert got == matching.hall_ok(units, form, generic), (units, form, generic)
            seen.add(got)
    assert seen == {True, False}


@pytest.mark.parametrize("seed", range(2))
def test_nothing_missing_exactly_when_hall_condition_holds(seed: int) -> None:
    """The flow decides payability over units that leave nothing out by the least missing mana
    alone (``FlowBackend.decide``): :func:`matching.deficits` finds nothing missing exactly when
    :func:`matching.hall_ok` holds, snow demands and generic included."""
    rng = random.Random(seed)
    seen = set()
    for _ in range(2000):
        form = _form(rng)
        if rng.random() < 0.3:
            form = Form(form.demands, rng.randint(1, 3), form.generic_base, 0, 0, 0, 0, 0, (), ())
        units = [(_mask(rng) if rng.random() < 0.9 else 0, rng.random() < 0.2, rng.randint(0, 4), -1, ())
                 for _ in range(rng.randint(0, 10))]
        x = rng.randint(0, 2)
        payable = matching.hall_ok(units, form, form.generic(x))
        assert (not matching.deficits(units, form, x)) == payable, (units, form, x)
        seen.add(payable)
    assert seen == {True, False}
