"""The flow's plain units: what a supply adds by its free, exclusive options, grouped.

A member whose usable options each add one mana is one unit of the union of their types (the
type is chosen as the ability resolves); a member with exactly one usable option supplies every
slot of it.  Units are grouped by ``(type mask, snow)``
(:data:`~manasolver.solver.backends.matching.UnitKind`), so Hall's condition reads a few sums
however large the board.  What the units leave out (options costing mana, life or energy,
repeatable ones, a choice among several multi-mana options) is said beside them, so that an
"unpayable" read from them alone is never taken as exact.  A card's rows in one state are kept in
its ``Options`` (``shapes``), which every board's rows share, and a supply's units in
``Supply.derived`` (``units``).
"""

from __future__ import annotations

from manasolver.solver.backends.matching import UnitKind
from manasolver.solver.backends.problem import Problem, merged_pick
from manasolver.solver.supply.model import Option, Options

__all__ = ["ShapeRows", "class_shape", "exclusive_rows", "plain_units"]


#: A class member's supply rows: ``(mask, units per member, pick)``.
ShapeRows = tuple[tuple[int, int, tuple[tuple[int, int], ...]], ...]


def plain_units(problem: Problem) -> tuple[list[UnitKind], bool]:
    """The plain part of the supply as grouped units, and whether anything was left out
    (options that cost mana, life or energy, or are repeatable; classes whose options
    mix several multi-mana productions).  With nothing left out the check is exact
    both ways; otherwise a "payable" from the plain part is still exact (the rest only
    adds ways to pay) and an "unpayable" is declined.  Kept with the supply per restriction
    rows; the supply's own rows (every option allowed), the usual ones, under the key ``()``,
    which no other rows of it can be (``()`` are the rows of a supply without classes), so that
    they are not hashed on every look-up."""
    sup = problem.supply
    rows_ok = problem.spell_ok
    key = () if rows_ok is sup.all_ok else rows_ok
    kept = sup.derived.units
    hit = kept.get(key)
    if hit is not None:
        return hit
    # (a comprehension is a call of its own: most pools are empty)
    out: list[UnitKind] = [(bit, False, n, -1, ()) for bit, n in sup.pool] if sup.pool else []
    partial = False
    for k, cls in enumerate(sup.classes):
        options = cls.options
        ok = rows_ok[k]
        shapes = options.shapes
        found = None if shapes is None else shapes.get(ok)
        shape, part = class_shape(options, ok) if found is None else found
        if part:
            partial = True
        if shape:
            n = len(cls.members)
            snow = cls.snow
            for mask, mult, pick in shape:
                out.append((mask, snow, n * mult, k, pick))
    if len(kept) >= 8:
        kept.clear()
    made = kept[key] = (out, partial)
    return made


def class_shape(options: Options, ok: tuple[bool, ...]) -> tuple[ShapeRows, bool]:
    """What one member of a class supplies: ``(mask, units per member, pick)`` rows and
    whether options were left out; kept in the options object per restriction row ``ok`` (the
    options of a card in one state are shared by every board's rows)."""
    shapes = options.shapes
    if shapes is None:
        shapes = options.shapes = {}
    hit: tuple[ShapeRows, bool] | None = shapes.get(ok)
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
    rows, odd = exclusive_rows(usable)
    partial = partial or odd
    made = shapes[ok] = (tuple(rows), partial)
    return made


def exclusive_rows(usable: list[tuple[int, Option]]) -> tuple[ShapeRows, bool]:
    """The rows one member supplies from its usable exclusive options (free, no other cost): one
    unit of the union of their types when each adds one mana, every slot of the only one, and
    otherwise nothing and ``True`` (several options, some adding more than one mana: a choice the
    flow does not model)."""
    rows: list[tuple[int, int, tuple[tuple[int, int], ...]]] = []
    if usable and all(len(opt.slots) == 1 for _, opt in usable):
        mask, pick = merged_pick(usable)
        rows.append((mask, 1, tuple(pick)))
    elif len(usable) == 1:
        o, opt = usable[0]
        for mask in sorted(set(opt.slots)):
            rows.append((mask, opt.slots.count(mask), ((0, o),)))
    elif usable:
        return (), True
    return tuple(rows), False
