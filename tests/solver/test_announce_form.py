"""A :class:`~manasolver.solver.casting.announce.Form` as its written-out ``__init__`` makes it:
every field as given, its fixed mana summed, its demand sets not yet filled, frozen, and the same
through ``dataclasses.replace`` (the plans change a form's life so)."""

from __future__ import annotations

import dataclasses

import pytest
from manasolver.models.cost import ManaCost
from manasolver.models.symbols import B, G, U, W
from manasolver.solver.casting.announce import Form, announce


def test_a_form_keeps_its_fields_and_sums_its_fixed_mana() -> None:
    form = Form(((W, 2), (U | B, 1)), 1, 3, 1, 1, 0, 2, 0, (), (), ("{W} as {W}",), ((W, 2),))
    assert (form.demands, form.snow, form.generic_base, form.x_count, form.generic_reduction, form.minimum,
            form.life, form.energy, form.plan, form.order, form.reduction_choices, form.printed) == (
        ((W, 2), (U | B, 1)), 1, 3, 1, 1, 0, 2, 0, (), (), ("{W} as {W}",), ((W, 2),))
    assert form.fixed_mana == 4 and form.demand_sets is None
    assert form.generic(2) == 4 and form.mana_total(2) == 8
    with pytest.raises(dataclasses.FrozenInstanceError):
        form.life = 0  # type: ignore[misc]
    again = dataclasses.replace(form, life=0, snow=0)
    assert again.life == 0 and again.fixed_mana == 3 and again.demands == form.demands
    assert again == dataclasses.replace(form, life=0, snow=0) and again != form


def test_an_announced_cost_has_its_forms_fixed_mana() -> None:
    forms = announce(ManaCost.parse("{2}{G}{G}{W/U}{S}"), None).forms
    assert [(f.demands, f.snow, f.fixed_mana) for f in forms] == [(((W | U, 1), (G, 2)), 1, 4)]



@pytest.mark.parametrize("amounts", [(), (-3,), (-3, -1), (2, -5), (0, 4)])
def test_rule_601_2f_the_largest_minimum_is_the_one_validation_reads(amounts: tuple[int, ...]) -> None:
    """CR 601.2f: the largest minimum counts; announce keeps the one the validator's totals read
    (``max`` of the given minimums, 0 when none is), whatever a caller of the API passes."""
    from manasolver.solver.request import Modifier
    mods = tuple(Modifier("minimum", amount=a) for a in amounts)
    (form,) = announce(ManaCost.parse("{1}{G}"), None, mods).forms
    assert form.minimum == max(amounts, default=0)
