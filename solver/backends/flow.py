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

from collections import deque

from manasolver.solver.casting.announce import Form
from manasolver.solver.backends.problem import Problem, Solution, lowest_bit
from manasolver.solver.supply.build import Option

__all__ = ["FlowBackend", "deficits", "hall_ok", "plain_units", "solution_from_units", "transport"]

#: A unit kind: (mask, snow, count, class index or -1 for the pool, option per type bit).
UnitKind = tuple[int, bool, int, int, tuple[tuple[int, int], ...]]

_UNITS: dict[tuple[int, tuple[tuple[bool, ...], ...]], tuple[object, object]] = {}


def plain_units(problem: Problem) -> tuple[list[UnitKind], bool]:
    """The plain part of the supply as grouped units, and whether anything was left out
    (options that cost mana, life or energy, or are repeatable; classes whose options
    mix several multi-mana productions).  With nothing left out the check is exact
    both ways; otherwise a "payable" from the plain part is still exact (the rest only
    adds ways to pay) and an "unpayable" is declined."""
    sup = problem.supply
    key = (id(sup), problem.spell_ok)
    hit = _UNITS.get(key)
    if hit is not None and hit[0] is sup:
        return hit[1]  # type: ignore[return-value]
    out: list[UnitKind] = []
    partial = False
    for bit, n in sup.pool:
        out.append((bit, False, n, -1, ()))
    for k, cls in enumerate(sup.classes):
        shape, part = _class_shape(cls.options, problem.spell_ok[k])
        partial = partial or part
        for mask, mult, pick in shape:
            out.append((mask, cls.snow, cls.count * mult, k, pick))
    if len(_UNITS) > 256:
        _UNITS.clear()
    _UNITS[key] = (sup, (out, partial))
    return out, partial


_SHAPES: dict[tuple[int, tuple[bool, ...]], tuple[object, tuple[tuple[tuple[int, int, tuple[tuple[int, int], ...]], ...], bool]]] = {}


def _class_shape(options: tuple[Option, ...], ok: tuple[bool, ...]
                 ) -> tuple[tuple[tuple[int, int, tuple[tuple[int, int], ...]], ...], bool]:
    """What one member of a class supplies: ``(mask, units per member, pick)`` rows and
    whether options were left out; remembered per options tuple (shared by the supply's
    option cache across boards)."""
    key = (id(options), ok)
    hit = _SHAPES.get(key)
    if hit is not None and hit[0] is options:
        return hit[1]
    usable = []
    partial = False
    for o, opt in enumerate(options):
        if not ok[o]:
            continue
        if (not (opt.free and opt.exclusive) or opt.life or opt.energy or opt.tap_creatures
                or opt.nonsnow_tail):  # a snow land's nonsnow Wild Growth mana: CP-SAT counts it
            partial = True
            continue
        usable.append((o, opt))
    rows: list[tuple[int, int, tuple[tuple[int, int], ...]]] = []
    if usable and all(len(opt.slots) == 1 for _, opt in usable):
        mask = 0
        pick: list[tuple[int, int]] = []
        for o, opt in usable:
            for b in (1, 2, 4, 8, 16, 32):
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
    result = (tuple(rows), partial)
    if len(_SHAPES) > 4096:
        _SHAPES.clear()
    _SHAPES[key] = (options, result)
    return result


def hall_ok(units: list[UnitKind], form: Form, generic: int) -> bool:
    """Hall's condition over the form's non-generic demands (exact for grouped units)."""
    need_total = generic + form.fixed_mana
    if need_total > sum(u[2] for u in units):
        return False
    kinds = list(form.demands)
    if form.snow:
        kinds.append((-1, form.snow))  # -1 marks the snow demand
    n = len(kinds)
    for subset in range(1, 1 << n):
        mask = 0
        snow = False
        need = 0
        for i in range(n):
            if subset >> i & 1:
                m, c = kinds[i]
                need += c
                if m == -1:
                    snow = True
                else:
                    mask |= m
        have = 0
        for u in units:
            if u[0] & mask or (snow and u[1]):
                have += u[2]
        if need > have:
            return False
    return True


_COVER: dict[int, tuple[object, tuple[int, list[int], list[int]]]] = {}


def _coverage(units: list[UnitKind]) -> tuple[int, list[int], list[int]]:
    """For a unit list: the total, and for every type mask ``m`` how many units could pay
    a demand of ``m`` (without and with snow demands): Hall's sums by table lookup."""
    hit = _COVER.get(id(units))
    if hit is not None and hit[0] is units:
        return hit[1]
    total = sum(u[2] for u in units)
    plain = [0] * 64
    snowy = [0] * 64
    for m in range(64):
        a = b = 0
        for u in units:
            if u[0] & m:
                a += u[2]
                b += u[2]
            elif u[1]:
                b += u[2]
        plain[m] = a
        snowy[m] = b
    result = (total, plain, snowy)
    if len(_COVER) > 256:
        _COVER.clear()
    _COVER[id(units)] = (units, result)
    return result


def _hall_fast(units: list[UnitKind], form: Form, generic: int) -> bool:
    """:func:`hall_ok` with the sums looked up in :func:`_coverage`'s tables."""
    total, plain, snowy = _coverage(units)
    if generic + form.fixed_mana > total:
        return False
    demands = form.demands
    n = len(demands)
    snow = form.snow
    for subset in range(1, 1 << n):
        mask = need = 0
        for i in range(n):
            if subset >> i & 1:
                m, c = demands[i]
                mask |= m
                need += c
        if need > plain[mask]:
            return False
        if snow and need + snow > snowy[mask]:
            return False
    return not snow or snow <= snowy[0]


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
            if _hall_fast(units, form, form.generic(problem.x)):
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


def _edge(adj: dict[int, list[int]], cap: dict[tuple[int, int], int], a: int, b: int, c: int) -> None:
    """Add capacity ``c`` from ``a`` to ``b`` in a residual network (the reverse arc at 0)."""
    if (a, b) not in cap:
        adj[a].append(b)
        adj[b].append(a)
        cap[(b, a)] = cap.get((b, a), 0)
    cap[(a, b)] = cap.get((a, b), 0) + c


def transport(units: list[tuple[int, bool, int]], form: Form, x: int,
              first: frozenset[int] = frozenset(),
              extra: tuple[tuple[tuple[object, ...], int, int], ...] = (),
              cost_ok: tuple[bool, ...] = ()) -> list[tuple[int, tuple[object, ...], int, int]] | None:
    """Assign grouped units ``(mask, snow, count)`` to the demands of ``form`` by an
    augmenting-path max-flow: ``(unit index, demand key, type bit, count)`` rows, or
    ``None`` when the units cannot cover the form.  Units in ``first`` (the pool) are
    routed in a first phase; augmenting paths never lower a source edge's flow, so
    they stay as used as they can be.  ``extra`` adds demands ``(key, mask, count)``
    (mask ``-2``: any type) that only units with ``cost_ok`` may pay: the mana costs of
    activations, paid from sources that cost nothing (never circularly)."""
    dsts: list[tuple[tuple[object, ...], int, int]] = [(("spell", m), m, c) for m, c in form.demands]
    if form.snow:
        dsts.append((("snow",), -1, form.snow))
    g = form.generic(x)
    if g:
        dsts.append((("generic",), -2, g))
    n_spell = len(dsts)
    dsts.extend(extra)
    nu = len(units)
    sink = nu + len(dsts) + 1  # node 0 source, 1..nu units, then demands, then sink
    cap: dict[tuple[int, int], int] = {}
    adj: dict[int, list[int]] = {i: [] for i in range(sink + 1)}

    def edge(a: int, b: int, c: int) -> None:
        _edge(adj, cap, a, b, c)

    for ui, (mask, snow, count) in enumerate(units):
        edge(0, 1 + ui, count if not first or ui in first else 0)
        for di, (_, m, _c) in enumerate(dsts):
            if di >= n_spell and not (cost_ok and cost_ok[ui]):
                continue
            if (m == -2) or (m == -1 and snow) or (m > 0 and mask & m):
                edge(1 + ui, nu + 1 + di, count)
    for di, (_, _, c) in enumerate(dsts):
        edge(nu + 1 + di, sink, c)
    flowed = _augment(adj, cap, sink)
    if first:
        for ui, (_mask, _snow, count) in enumerate(units):
            if ui not in first:
                cap[(0, 1 + ui)] += count
        flowed += _augment(adj, cap, sink)
    if flowed < sum(c for _, _, c in dsts):
        return None
    rows: list[tuple[int, tuple[object, ...], int, int]] = []
    for ui, (mask, _snow, _count) in enumerate(units):
        for di, (dkey, m, _c) in enumerate(dsts):
            flow = cap.get((nu + 1 + di, 1 + ui), 0)
            if flow:
                rows.append((ui, dkey, lowest_bit(mask & m if m > 0 else mask), flow))
    return rows


def deficits(units: list[tuple[int, bool, int]], form: Form, x: int) -> dict[tuple[object, ...], int]:
    """The least unmet demand when grouped units pay ``form``, per demand key
    (``("spell", mask)``, ``("snow",)``, ``("generic",)``): a maximum flow that first
    serves the colored, colorless, hybrid and snow demands and then generic, so the
    shortfall is smallest in total and, among those, falls on generic (a flow never
    gives back what reached the sink)."""
    dsts: list[tuple[tuple[object, ...], int, int]] = [(("spell", m), m, c) for m, c in form.demands]
    if form.snow:
        dsts.append((("snow",), -1, form.snow))
    g = form.generic(x)
    nu = len(units)
    sink = nu + len(dsts) + 2
    gen_node = nu + len(dsts) + 1
    cap: dict[tuple[int, int], int] = {}
    adj: dict[int, list[int]] = {i: [] for i in range(sink + 1)}

    def edge(a: int, b: int, c: int) -> None:
        _edge(adj, cap, a, b, c)

    for ui, (mask, snow, count) in enumerate(units):
        edge(0, 1 + ui, count)
        for di, (_, m, _c) in enumerate(dsts):
            if (m == -1 and snow) or (m > 0 and mask & m):
                edge(1 + ui, nu + 1 + di, count)
        edge(1 + ui, gen_node, count)
    for di, (_, _, c) in enumerate(dsts):
        edge(nu + 1 + di, sink, c)
    edge(gen_node, sink, 0)
    _augment(adj, cap, sink)
    cap[(gen_node, sink)] += g
    _augment(adj, cap, sink)
    out: dict[tuple[object, ...], int] = {}
    for di, (key, _m, c) in enumerate(dsts):
        short = cap[(nu + 1 + di, sink)]
        if short:
            out[key] = short
    if cap[(gen_node, sink)]:
        out[("generic",)] = cap[(gen_node, sink)]
    return out


def _augment(adj: dict[int, list[int]], cap: dict[tuple[int, int], int], sink: int) -> int:
    """Push flow along shortest augmenting paths from node 0 until none is left."""
    flowed = 0
    while True:
        prev = {0: 0}
        q = deque([0])
        while q and sink not in prev:
            a = q.popleft()
            for b in adj[a]:
                if b not in prev and cap[(a, b)] > 0:
                    prev[b] = a
                    q.append(b)
        if sink not in prev:
            break
        path = []
        b = sink
        while b != 0:
            path.append((prev[b], b))
            b = prev[b]
        push = min(cap[e] for e in path)
        flowed += push
        for a, b in path:
            cap[(a, b)] -= push
            cap[(b, a)] += push
    return flowed


def solution_from_units(problem: Problem, units: list[UnitKind], fi: int, x: int,
                        extra: tuple[tuple[tuple[object, ...], int, int], ...] = (),
                        cost_ok: tuple[bool, ...] = (),
                        forced: dict[tuple[int, int], int] | None = None) -> Solution | None:
    """A :class:`Solution` paying form ``fi`` from grouped units (``UnitKind`` rows, as
    :func:`plain_units` makes them); members of a class are numbered across its unit kinds.
    ``extra``/``cost_ok`` are activation costs and who may pay them (see :func:`transport`);
    ``forced`` fixes how many times a multi-mana option is activated (those with costs)."""
    pool = frozenset(i for i, u in enumerate(units) if u[3] < 0)
    rows = transport([(u[0], u[1], u[2]) for u in units], problem.forms[fi], x, pool, extra,
                     cost_ok)
    if rows is None:
        return None
    spend: list[tuple[tuple[object, ...], int, tuple[object, ...], int]] = []
    used: dict[int, dict[int, int]] = {}
    for ui, dkey, bit, n in rows:
        mask, _snow, _count, k, pick = units[ui]
        used.setdefault(ui, {})
        used[ui][bit] = used[ui].get(bit, 0) + n
        if k < 0:
            spend.append((("pool", mask), bit, dkey, n))
            continue
        o = _option_for(pick, bit)
        slot = mask if pick[0][0] == 0 else problem.supply.classes[k].options[o].slots[0]
        spend.append((("act", k, o, slot), bit, dkey, n))
    acts: list[tuple[int, int, int]] = []
    next_member: dict[int, int] = {}
    multi_need: dict[tuple[int, int], int] = {}
    for ui, per_bit in sorted(used.items()):
        mask, _snow, _count, k, pick = units[ui]
        if k < 0:
            continue
        if pick[0][0] == 0:  # one option with several slots: an activation gives them all
            o = pick[0][1]
            mult = problem.supply.classes[k].options[o].slots.count(mask)
            need = -(-sum(per_bit.values()) // mult)
            multi_need[(k, o)] = max(multi_need.get((k, o), 0), need)
            continue
        for bit, n in sorted(per_bit.items()):
            o = _option_for(pick, bit)
            for _ in range(n):
                member = next_member.get(k, 0)
                acts.append((k, member, o))
                next_member[k] = member + 1
    for key, n in (forced or {}).items():
        multi_need[key] = n
    for (k, o), need in sorted(multi_need.items()):
        for _ in range(need):
            member = next_member.get(k, 0)
            acts.append((k, member, o))
            next_member[k] = member + 1
    return Solution(fi, x, acts, spend)


def _option_for(pick: tuple[tuple[int, int], ...], bit: int) -> int:
    """The first option of a class that can make type ``bit``."""
    for b, o in pick:
        if b == bit or b == 0:
            return o
    return pick[0][1]
