"""The flow fast path: exact feasibility of plain payments in pure Python.

"Plain" means: feasibility only; options that are free (no mana cost), exclusive
(one activation per permanent) and pay no life or energy; a permanent either has
only one-mana options (it supplies one unit of the union of their types: the type
is chosen as the ability resolves) or exactly one option (it supplies every slot
of it); damage (pain lands) matters only for forms that pay life.  When the
board has other options too, the plain part alone still answers "payable"
exactly (the rest only adds ways to pay); an "unpayable" is then declined
(``None``) and goes to CP-SAT.

Units are grouped by ``(type mask, snow)`` and demands by mask, so the check is
Hall's condition for a transportation problem: the total is payable exactly
when, for every set ``T`` of non-generic demands, the units able to pay some
demand of ``T`` are at least the demand of ``T``, and all units cover the whole
cost (every unit pays generic).  With at most a handful of demand kinds this is
a few dozen additions.  A small augmenting-path max-flow writes an actual payment
when one is asked for (pool first), and gives the least missing mana of an
unpayable cost (colored demands first, so the shortfall falls on generic).  No
networkx, no OR-Tools.
"""

from __future__ import annotations

from manasolver.models._memo import KeyMemo
from manasolver.models.symbols import TYPE_BITS
from manasolver.solver.backends.matching import (
    UnitKind,
    deficits,
    hall_fast,
    solution_from_units,
)
from manasolver.solver.backends.problem import Problem, Solution
from manasolver.solver.supply.model import Option

__all__ = ["FlowBackend", "class_units", "plain_units"]


#: Grouped units per supply object and restriction flags (see :func:`plain_units`).
_UNITS: KeyMemo[tuple[int, tuple[tuple[bool, ...], ...]], tuple[list[UnitKind], bool]] = KeyMemo(257)


def plain_units(problem: Problem) -> tuple[list[UnitKind], bool]:
    """The plain part of the supply as grouped units, and whether anything was left out
    (options that cost mana, life or energy, or are repeatable; classes whose options
    mix several multi-mana productions).  With nothing left out the check is exact
    both ways; otherwise a "payable" from the plain part is still exact (the rest only
    adds ways to pay) and an "unpayable" is declined."""
    sup = problem.supply
    key = (id(sup), problem.spell_ok)
    hit = _UNITS.get(key, sup)
    if hit is not None:
        return hit
    out: list[UnitKind] = []
    partial = False
    for bit, n in sup.pool:
        out.append((bit, False, n, -1, ()))
    for k, cls in enumerate(sup.classes):
        shape, part = _class_shape(cls.options, problem.spell_ok[k])
        partial = partial or part
        for mask, mult, pick in shape:
            out.append((mask, cls.snow, cls.count * mult, k, pick))
    return _UNITS.put(key, sup, (out, partial))


#: A class member's supply rows: ``(mask, units per member, pick)``.
ShapeRows = tuple[tuple[int, int, tuple[tuple[int, int], ...]], ...]
#: Shapes per options tuple and restriction flags (see :func:`_class_shape`).
_SHAPES: KeyMemo[tuple[int, tuple[bool, ...]], tuple[ShapeRows, bool]] = KeyMemo(4097)


def _class_shape(options: tuple[Option, ...], ok: tuple[bool, ...]) -> tuple[ShapeRows, bool]:
    """What one member of a class supplies: ``(mask, units per member, pick)`` rows and
    whether options were left out; remembered per options tuple (shared by the supply's
    option cache across boards)."""
    key = (id(options), ok)
    hit = _SHAPES.get(key, options)
    if hit is not None:
        return hit
    usable = []
    partial = False
    for o, opt in enumerate(options):
        if not ok[o]:
            continue
        if (not (opt.free and opt.exclusive) or opt.life or opt.energy or opt.tap_creatures
                or opt.sacrifice_other or opt.nonsnow_tail):  # a snow land's nonsnow Wild Growth mana: CP-SAT counts it
            partial = True
            continue
        usable.append((o, opt))
    rows: list[tuple[int, int, tuple[tuple[int, int], ...]]] = []
    if usable and all(len(opt.slots) == 1 for _, opt in usable):
        mask = 0
        pick: list[tuple[int, int]] = []
        for o, opt in usable:
            for b in TYPE_BITS:
                if opt.slots[0] & b and not mask & b:
                    pick.append((b, o))
            mask |= opt.slots[0]
        rows.append((mask, 1, tuple(pick)))
    elif len(usable) == 1:
        o, opt = usable[0]
        for mask in sorted(set(opt.slots)):
            rows.append((mask, opt.slots.count(mask), ((0, o),)))
    elif usable:
        partial = True
    return _SHAPES.put(key, options, (tuple(rows), partial))


def class_units(options: tuple[Option, ...], ok: tuple[bool, ...], snow: bool) -> list[tuple[int, bool, int]]:
    """The plain units one member of a class adds, as ``(mask, snow, count)``: the rows of
    :func:`plain_units` for a class of one member (what the fresh-board lane sums)."""
    shape, _ = _class_shape(options, ok)
    return [(mask, snow, mult) for mask, mult, _pick in shape]


class FlowBackend:
    """Exact feasibility for plain problems; declines (``None``) everything else."""

    name = "flow"

    def shortfall(self, problem: Problem) -> tuple[dict[tuple[object, ...], int], int, int] | None:
        """For an unpayable plain problem without restrictions: the least missing mana
        per demand over the forms the player's life and energy allow (smallest total,
        then most of it generic), and the life and energy a form with no missing mana
        would still lack; ``None`` when it declines (same shapes as CP-SAT's answer)."""
        if problem.x is None or problem.supply.restricted or problem.has_assists:
            return None  # convoke/improvise/delve: CP-SAT decides them with the mana
        units, partial = plain_units(problem)
        sup = problem.supply
        if partial or any(o.damage for k in sup.classes for o in k.options):
            return None
        light = [(u[0], u[1], u[2]) for u in units]
        best: tuple[int, int, dict[tuple[object, ...], int]] | None = None
        lacking: list[tuple[int, int]] = []  # (energy, life) short of forms with mana enough
        beyond: list[tuple[int, int]] = []   # the same for every form beyond life or energy
        for form in problem.forms:
            short = deficits(light, form, problem.x)
            if form.life > sup.life or form.energy > sup.energy:
                gap = (max(0, form.energy - sup.energy), max(0, form.life - sup.life))
                beyond.append(gap)
                if not short:
                    lacking.append(gap)
                continue
            total = sum(short.values())
            colored = total - short.get(("generic",), 0)
            if best is None or (total, colored) < best[:2]:
                best = (total, colored, short)
        if best is None:
            energy_short, life_short = min(beyond)
            return {}, life_short, energy_short
        if lacking:
            energy_short, life_short = min(lacking)
            return best[2], life_short, energy_short
        return best[2], 0, 0

    def feasible(self, problem: Problem) -> tuple[int, bool] | None:
        """``(form index, payable)`` for the first payable form, or ``None`` if declined."""
        if problem.mode != "feasible" or problem.x is None or problem.has_assists:
            return None  # convoke/improvise/delve: CP-SAT decides them with the mana
        units, partial = plain_units(problem)
        sup = problem.supply
        damage = sup.has_damage
        skipped = False
        for i, form in enumerate(problem.forms):
            if form.life and damage:
                skipped = True  # damage taken before the life payment matters: CP-SAT decides
                continue
            if form.life > sup.life or form.energy > sup.energy:
                continue
            if hall_fast(units, form, form.generic(problem.x)):
                return i, True
        if partial or skipped:
            return None
        return 0, False

    def solve(self, problem: Problem) -> Solution | bool | None:
        """A payment (any one, not optimised) or ``False``; ``None`` when declined."""
        found = self.feasible(problem)
        if found is None:
            return None
        i, ok = found
        if not ok:
            return False
        units, _ = plain_units(problem)
        assert problem.x is not None
        sol = solution_from_units(problem, units, i, problem.x)
        assert sol is not None  # Hall's condition held
        return sol


