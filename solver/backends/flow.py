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

from manasolver.models.symbols import TYPE_BITS
from manasolver.solver.backends.matching import (
    UnitKind,
    _augment,
    _edge,
    deficits,
    hall_fast,
    solution_from_units,
)
from manasolver.solver.backends.problem import Problem, Solution
from manasolver.solver.casting.announce import Form
from manasolver.solver.supply.model import Option, Options

__all__ = ["CONVERTER_CHOICES", "FlowBackend", "assisted_units", "class_units", "converter_shortfall",
           "plain_units"]


def plain_units(problem: Problem) -> tuple[list[UnitKind], bool]:
    """The plain part of the supply as grouped units, and whether anything was left out
    (options that cost mana, life or energy, or are repeatable; classes whose options
    mix several multi-mana productions).  With nothing left out the check is exact
    both ways; otherwise a "payable" from the plain part is still exact (the rest only
    adds ways to pay) and an "unpayable" is declined."""
    sup = problem.supply
    kept = sup.derived.units  # per restriction flags, kept with the supply
    hit = kept.get(problem.spell_ok)
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
    if len(kept) >= 8:
        kept.clear()
    kept[problem.spell_ok] = (out, partial)
    return out, partial


#: A class member's supply rows: ``(mask, units per member, pick)``.
ShapeRows = tuple[tuple[int, int, tuple[tuple[int, int], ...]], ...]
def _class_shape(options: Options, ok: tuple[bool, ...]) -> tuple[ShapeRows, bool]:
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
    made = shapes[ok] = (tuple(rows), partial)
    return made


def class_units(options: Options, ok: tuple[bool, ...], snow: bool) -> list[tuple[int, bool, int]]:
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
        if problem.x is None or problem.supply.restricted:
            return None
        sup = problem.supply
        found = _units(problem)
        if found is None:
            return None
        units, partial = found
        if sup.has_damage and any(form.life for form in problem.forms):
            return None  # damage is taken before a form's life payment (CR 601.2g-h): CP-SAT weighs it
        if partial:
            short = converter_shortfall(problem)
            return None if short is None else (short, 0, 0)
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
        if problem.mode != "feasible" or problem.x is None:
            return None
        found = _units(problem)
        if found is None:
            return None
        units, partial = found
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
        """A payment (any one, not optimised) or ``False``; ``None`` when declined (convoke,
        improvise and delve among them: this writes no assisted payment)."""
        if problem.has_assists:
            return None
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


def _units(problem: Problem) -> tuple[list[UnitKind], bool] | None:
    """The units the flow sums and whether some were left out (:func:`plain_units`), with the
    assists when the problem has them (:func:`assisted_units`; ``None``: CP-SAT weighs them)."""
    if not problem.has_assists:
        return plain_units(problem)
    assisted = assisted_units(problem)
    return None if assisted is None else (assisted, False)


# -- convoke, improvise and delve -----------------------------------------------------------------

def assisted_units(problem: Problem) -> list[UnitKind] | None:
    """The grouped units of a plain board with the assists of convoke, improvise and delve
    (:class:`~manasolver.solver.supply.resources.Assists`), or ``None`` to decline.

    A member taps once (CR 118.10): for its own mana, or to convoke (it pays {1} or one mana of
    its colors, 702.51a) or improvise (it pays {1}, 702.126a), so a member of a class that adds
    one mana of a mask is one unit of that mask and its colors, and one with no mana ability
    (or summoning sick: it may convoke all the same) one unit of its colors; a unit with no color
    pays only generic.  Each card delve may exile pays {1} (702.66a).  Declined when some class is
    not plain, a class whose members assist adds more than one mana, or the board has sacrifice or
    tapping costs."""
    sup = problem.supply
    if sup.fodder or sup.tappable:
        return None
    assists = problem.assists
    assisting: dict[int, list[tuple[int, int]]] = {}  # class -> [(colors, members)]
    out: list[UnitKind] = [(bit, False, n, -1, ()) for bit, n in sup.pool]
    for grp in assists.groups:
        colors = grp.colors if grp.creature else 0
        if grp.cls < 0:
            out.append((colors, False, len(grp.members), -1, ()))
        else:
            assisting.setdefault(grp.cls, []).append((colors, len(grp.members)))
    for k, cls in enumerate(sup.classes):
        shape, part = _class_shape(cls.options, problem.spell_ok[k])
        if part:
            return None
        helpers = assisting.get(k)
        if helpers is None:
            out += [(mask, cls.snow, cls.count * mult, k, pick) for mask, mult, pick in shape]
            continue
        if len(shape) > 1 or (shape and shape[0][1] != 1):
            return None
        mask = shape[0][0] if shape else 0
        rest = cls.count
        for colors, n in helpers:
            out.append((mask | colors, cls.snow, n, k, ()))
            rest -= n
        if rest < 0:
            return None
        if rest and shape:
            out.append((mask, cls.snow, rest, k, ()))
    if assists.graveyard:
        out.append((0, False, len(assists.graveyard), -1, ()))
    return out


# -- the least missing mana with converters ------------------------------------------------------

#: Choices of how many members of each class activate which converter, tried at most.
CONVERTER_CHOICES = 256


def _cost_demands(opt: Option) -> list[int] | None:
    """A converter's own mana cost as demand masks, generic as 0 (``None``: a symbol this search
    does not pay: X, snow, Phyrexian, monocolored hybrid)."""
    out: list[int] = []
    for sym in opt.mana_cost.symbols:
        if sym.variable or sym.special or sym.snow or sym.phyrexian:
            return None
        if sym.is_numeral:
            out += [0] * sym.generic
        elif sym.generic:
            return None
        elif sym.colors:
            out.append(sym.colors)
        elif sym.colorless:
            out.append(TYPE_BITS[5])
        else:
            return None
    return out


def _compositions(n: int, parts: int) -> list[tuple[int, ...]]:
    """Every way to write ``n`` as an ordered sum of ``parts`` counts."""
    if parts == 1:
        return [(n,)]
    return [(k, *rest) for k in range(n + 1) for rest in _compositions(n - k, parts - 1)]


def converter_shortfall(problem: Problem) -> dict[tuple[object, ...], int] | None:
    """The least missing mana per demand (smallest total, then most of it generic) of an unpayable
    problem whose sources are plain but for converters: exclusive abilities whose cost is mana and
    nothing else (Signets, filter lands, Crypt of the Eternals), paid from mana made before them
    (CR 601.2g, 605.3: never their own).  ``None`` when it declines.

    Every choice of how many members of each class activate each converter is tried (at most
    :data:`CONVERTER_CHOICES`), each form of the cost with it, by a flow that pays the converters'
    costs first, then the colored demands, then generic.  Two bounds: converters' costs paid only
    by other sources and the pool (every such payment legal: an upper bound on what is missing),
    and by any mana, their own included (a lower bound).  The answer is the upper bound's when the
    two agree on the total and on its colored part; otherwise the search declines (a chain of
    converters paying one another decides, which the CP-SAT model orders)."""
    sup = problem.supply
    x = problem.x
    if x is None or sup.restricted or problem.has_assists or sup.fodder or sup.tappable:
        return None
    if any(f.life or f.energy for f in problem.forms):
        return None
    plain: list[tuple[int, bool, int]] = [(bit, False, n) for bit, n in sup.pool]
    # per converter class: (members, plain rows of a member, [(slots, cost demands)] per converter)
    flexible: list[tuple[int, ShapeRows, bool, list[tuple[tuple[int, ...], list[int]]]]] = []
    choices = 1
    for k, cls in enumerate(sup.classes):
        ok = problem.spell_ok[k]
        converters: list[tuple[tuple[int, ...], list[int]]] = []
        plain_ok = list(ok)
        for o, opt in enumerate(cls.options):
            if not ok[o]:
                continue
            if opt.life or opt.energy or opt.tap_creatures or opt.nonsnow_tail or opt.sacrifice_other \
                    or opt.tap_types or not opt.exclusive:
                return None
            if opt.free:
                continue
            demands = _cost_demands(opt)
            if demands is None or not opt.slots:
                return None
            converters.append((opt.slots, demands))
            plain_ok[o] = False
        shape, part = _class_shape(cls.options, tuple(plain_ok))
        if part:
            return None
        if not converters:
            plain += [(mask, cls.snow, cls.count * mult) for mask, mult, _ in shape]
            continue
        flexible.append((cls.count, shape, cls.snow, converters))
        choices *= len(_compositions(cls.count, len(converters) + 1))
        if choices > CONVERTER_CHOICES:
            return None
    if not flexible:
        return None
    best: dict[bool, tuple[int, int, dict[tuple[object, ...], int]] | None] = {False: None, True: None}
    picks = [_compositions(n, len(conv) + 1) for n, _, _, conv in flexible]
    for choice in _product(picks):
        units = list(plain)
        made: list[tuple[int, bool, int]] = []
        costs: dict[int, int] = {}
        for (_, shape, snow, conv), counts in zip(flexible, choice):
            units += [(mask, snow, counts[0] * mult) for mask, mult, _ in shape if counts[0]]
            for (slots, demands), n in zip(conv, counts[1:]):
                if not n:
                    continue
                for mask in slots:
                    made.append((mask, snow, n))
                for m in demands:
                    costs[m] = costs.get(m, 0) + n
        for own in (False, True):
            for form in problem.forms:
                short = _short(units, made, costs, form, x, own)
                if short is None:
                    continue
                total = sum(short.values())
                key = (total, total - short.get(("generic",), 0), short)
                if best[own] is None or key[:2] < best[own][:2]:  # type: ignore[index]
                    best[own] = key
    upper, lower = best[False], best[True]
    if upper is None or lower is None or upper[:2] != lower[:2]:
        return None
    return upper[2]


def _product(picks: list[list[tuple[int, ...]]]) -> list[list[tuple[int, ...]]]:
    out: list[list[tuple[int, ...]]] = [[]]
    for options in picks:
        out = [prefix + [p] for prefix in out for p in options]
    return out


def _short(units: list[tuple[int, bool, int]], made: list[tuple[int, bool, int]], costs: dict[int, int],
           form: Form, x: int, own: bool) -> dict[tuple[object, ...], int] | None:
    """What ``form`` lacks when ``units`` and the converters' mana ``made`` pay it and the
    converters' ``costs`` (demand mask, 0 for generic: count) are paid first, by ``units`` alone
    or (``own``) by any mana; ``None`` when the costs can't all be paid."""
    dsts: list[tuple[tuple[object, ...], int, int]] = [(("spell", m), m, c) for m, c in form.demands]
    if form.snow:
        dsts.append((("snow",), -1, form.snow))
    conv = sorted(costs.items())
    every = units + made
    nu, nd, nc = len(every), len(dsts), len(conv)
    gen_node = 1 + nu + nd + nc
    sink = gen_node + 1
    adj: dict[int, list[int]] = {i: [] for i in range(sink + 1)}
    cap: dict[tuple[int, int], int] = {}
    for ui, (mask, snow, count) in enumerate(every):
        node = 1 + ui
        _edge(adj, cap, 0, node, count)
        for di, (_, m, _c) in enumerate(dsts):
            if (m == -1 and snow) or (m > 0 and mask & m):
                _edge(adj, cap, node, 1 + nu + di, count)
        _edge(adj, cap, node, gen_node, count)
        if ui < len(units) or own:
            for ci, (m, _c) in enumerate(conv):
                if m == 0 or mask & m:
                    _edge(adj, cap, node, 1 + nu + nd + ci, count)
    for ci in range(nc):
        _edge(adj, cap, 1 + nu + nd + ci, sink, 0)
    for di in range(nd):
        _edge(adj, cap, 1 + nu + di, sink, 0)
    _edge(adj, cap, gen_node, sink, 0)
    for ci, (_, c) in enumerate(conv):
        cap[(1 + nu + nd + ci, sink)] = c
    _augment(adj, cap, sink)
    if any(cap[(1 + nu + nd + ci, sink)] for ci in range(nc)):
        return None
    for di, (_, _, c) in enumerate(dsts):
        cap[(1 + nu + di, sink)] = c
    _augment(adj, cap, sink)
    cap[(gen_node, sink)] = form.generic(x)
    _augment(adj, cap, sink)
    out: dict[tuple[object, ...], int] = {}
    for di, (key, _m, _c) in enumerate(dsts):
        if cap[(1 + nu + di, sink)]:
            out[key] = cap[(1 + nu + di, sink)]
    if cap[(gen_node, sink)]:
        out[("generic",)] = cap[(gen_node, sink)]
    return out
