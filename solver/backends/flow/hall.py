"""The flow's verdicts read over a problem's forms: Hall's condition and the least missing mana,
form by form within the player's life and energy, and two relaxations.

Forms are ranked by their shortfall's total, then its colored part.  The relaxations decide what
the units alone can't: mana that pays colored symbols only (Jegantha's, CR 106.6) as a part kept
from generic (:func:`colored_only_hall`), and every source at its most and free of its costs, which
proves a cost unpayable when even that can't pay it (:func:`beyond_every_source`).
"""

from __future__ import annotations

from manasolver.solver.backends.matching import UnitKind, deficits, hall_barred, hall_fast
from manasolver.solver.backends.problem import Problem

__all__ = ["beyond_every_source", "colored_only_hall", "least_deficits", "ranked_deficits"]


def least_deficits(problem: Problem, units: list[UnitKind],
                   every: bool = False) -> dict[tuple[object, ...], int] | None:
    """The least missing mana when ``units`` pay a form of ``problem`` within the player's life and
    energy (:func:`ranked_deficits`); ``None`` when no form is within them, or, ``every``, when
    some form is not."""
    least, beyond = ranked_deficits(problem, units)
    return None if every and beyond else least


def ranked_deficits(problem: Problem, units: list[UnitKind]) -> tuple[dict[tuple[object, ...], int] | None, bool]:
    """The least missing mana when ``units`` pay a form of ``problem`` within the player's life and
    energy (:func:`~manasolver.solver.backends.matching.deficits`; smallest total, then smallest
    colored part, the first form of equally small ones; ``None`` when no form is within them), and
    whether some form is beyond them.  Nothing missing (an empty shortfall) is Hall's condition
    holding for that form: the units pay it."""
    assert problem.x is not None
    sup = problem.supply
    forms = problem.forms
    if len(forms) == 1:  # most costs: no rank to compare
        form = forms[0]
        if form.life > sup.life or form.energy > sup.energy:
            return None, True
        return deficits(units, form, problem.x), False
    best: dict[tuple[object, ...], int] | None = None
    least = (0, 0)
    beyond = False
    for form in forms:
        if form.life > sup.life or form.energy > sup.energy:
            beyond = True
            continue
        short = deficits(units, form, problem.x)
        total = sum(short.values())
        rank = (total, total - short.get(("generic",), 0))
        if best is None or rank < least:
            best, least = short, rank
    return best, beyond


def colored_only_hall(problem: Problem, units: list[UnitKind]) -> bool:
    """Do ``units`` pay some form of ``problem`` within the player's life and energy when the units
    of classes with an option whose mana can't pay generic costs (Jegantha's, CR 106.6) pay its
    other demands alone (:func:`~manasolver.solver.backends.matching.hall_barred`)?  Forms with
    snow, or paying life beside damage, are not read (CP-SAT decides them)."""
    assert problem.x is not None
    sup = problem.supply
    barred = frozenset(k for k, cls in enumerate(sup.classes)
                       if any(o.restriction is not None and o.restriction.no_generic for o in cls.options))
    return any(hall_barred(units, barred, form, form.generic(problem.x)) for form in problem.forms
               if not form.snow and not (form.life and sup.has_damage)
               and form.life <= sup.life and form.energy <= sup.energy)


def beyond_every_source(problem: Problem) -> bool:
    """Is ``problem`` unpayable even were every option free of its costs (mana, life, other
    permanents to tap or sacrifice, cards to discard) and every member to make the most mana of
    any of its options, of any of their types?  Hall's condition over those units, a relaxation
    of every payment (costs only take mana away), proves such a cost unpayable, as does a generic
    and snow part beyond the units whose mana may pay generic costs (not Jegantha's); convoke,
    improvise and delve, which pay with more than the supply, are left to the backends that
    model them."""
    if problem.has_assists:
        return False
    assert problem.x is not None
    sup = problem.supply
    units: list[UnitKind] = [(bit, False, n, -1, ()) for bit, n in sup.pool]
    generic = sup.pool_total  # the units that may pay generic and snow: not Jegantha's
    for k, cls in enumerate(sup.classes):
        mask = most = repeated = 0
        barred = False
        for o, opt in enumerate(cls.options):
            if not problem.spell_ok[k][o]:
                continue  # its mana pays only costs, here free
            for slot in opt.slots:
                mask |= slot
            if opt.exclusive:
                most = max(most, len(opt.slots))
            else:
                repeated += len(opt.slots) * opt.repeat
            barred = barred or (opt.restriction is not None and opt.restriction.no_generic)
        if mask:
            units.append((mask, cls.snow, cls.count * (most + repeated), k, ()))
            generic += 0 if barred else units[-1][2]
    x = problem.x
    return not any(form.generic(x) + form.snow <= generic and hall_fast(units, form, form.generic(x))
                   for form in problem.forms if form.life <= sup.life and form.energy <= sup.energy)
