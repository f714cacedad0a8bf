"""The flow's wider units: the plain units with the options the rooms make free (paying life or
energy, tapping other permanents) and free repeatable options (Pentad Prism's counters) beside what
each member taps for.

Asked only where the plain units leave something out and do not find the cost payable.  A payment
by repeatable rows or by options that tap other permanents is not written from these units: their
rows do not say which activation each unit is.
"""

from __future__ import annotations

from manasolver.solver.backends.flow.rooms import life_room
from manasolver.solver.backends.flow.units import exclusive_rows
from manasolver.solver.backends.matching import UnitKind
from manasolver.solver.backends.problem import Problem
from manasolver.solver.supply.model import Option, Options

__all__ = ["repeat_rows", "usable_options", "wide_units", "wider"]


def wide_units(problem: Problem, taps: bool = False) -> tuple[list[UnitKind], bool]:
    """:func:`~.units.plain_units` with options paying life or energy as free ones when
    :func:`~.rooms.life_room` says they never limit a payment, and free repeatable options (Pentad
    Prism) beside what each member taps for (rows without a pick:
    :func:`~manasolver.solver.backends.matching.solution_from_units` writes exclusive activations
    alone); whether anything was still left out.  ``taps``: options that tap other permanents as
    free ones too (what :func:`~.rooms.tap_room` allows; a payment by them is not written from
    these units, which do not say what they tap)."""
    sup = problem.supply
    life_ok = life_room(problem)
    # (a comprehension is a call of its own: most pools are empty)
    out: list[UnitKind] = [(bit, False, n, -1, ()) for bit, n in sup.pool] if sup.pool else []
    partial = False
    for k, cls in enumerate(sup.classes):
        ok = problem.spell_ok[k]
        usable, part = usable_options(cls.options, ok, life_ok, taps)
        rows, odd = exclusive_rows(usable)
        extra, odd_repeat = repeat_rows(cls.options, ok)
        partial = partial or part or odd or odd_repeat
        out += [(mask, cls.snow, cls.count * mult, k, pick) for mask, mult, pick in rows]
        out += [(mask, cls.snow, cls.count * n, k, ()) for mask, n in extra]
    return out, partial


def wider(problem: Problem) -> bool:
    """Would :func:`wide_units` count more than :func:`~.units.plain_units`: an option paying life
    or energy, or a repeatable one?"""
    return any(opt.life or opt.energy or not opt.exclusive for cls in problem.supply.classes for opt in cls.options)


def usable_options(options: Options, ok: tuple[bool, ...], life_ok: bool, taps_ok: bool = False,
                   fodder_ok: bool = False) -> tuple[list[tuple[int, Option]], bool]:
    """The exclusive options of a member the flow may use (free; paying life or energy only when
    ``life_ok``: :func:`~.rooms.life_room`; tapping other permanents only when ``taps_ok``:
    :func:`~.rooms.tap_room`; taking another permanent or card only when ``fodder_ok``:
    :func:`~.rooms.fodder_room`), and whether some exclusive option was left out."""
    usable: list[tuple[int, Option]] = []
    partial = False
    for o, opt in enumerate(options):
        if not ok[o] or not opt.exclusive:
            continue
        if (not opt.free or (opt.tap_creatures and not taps_ok) or (opt.sacrifice_other and not fodder_ok)
                or opt.nonsnow_tail or ((opt.life or opt.energy) and not life_ok)):
            partial = True
            continue
        usable.append((o, opt))
    return usable, partial


def repeat_rows(options: Options, ok: tuple[bool, ...]) -> tuple[tuple[tuple[int, int], ...], bool]:
    """What one member adds by its free repeatable options (Pentad Prism's counters), beside
    whatever it taps for: ``(mask, units)`` rows, and ``True`` when some repeatable option is not
    modelled here (one that costs mana, life or energy, removes a chosen number of counters, or a
    second repeatable ability, whose counters the two might share).  One ability's options count
    within one limit (CR 602.5b): one-mana options give that many units of the union of their types,
    a single option every slot that many times."""
    repeat = [opt for o, opt in enumerate(options) if ok[o] and not opt.exclusive]
    if not repeat:
        return (), False
    first = repeat[0]
    if any(not opt.free or opt.life or opt.energy or opt.tap_creatures or opt.sacrifice_other or opt.nonsnow_tail
           or opt.ability != first.ability or opt.repeat != first.repeat or opt.removes_any for opt in repeat):
        return (), True
    if all(len(opt.slots) == 1 for opt in repeat):
        mask = 0
        for opt in repeat:
            mask |= opt.slots[0]
        return ((mask, first.repeat),), False
    if len(repeat) == 1:
        return tuple((m, first.repeat * first.slots.count(m)) for m in sorted(set(first.slots))), False
    return (), True
