"""Matching grouped mana units to a cost's demands: Hall's condition and an augmenting-path max-flow.

A *unit kind* is a group of identical one-mana units: ``(type mask, snow, count, class index or -1
for the pool, option per type bit)``.  Demands are grouped by mask, so payability is Hall's condition
for a transportation problem: the cost is payable exactly when, for every set ``T`` of non-generic
demands, the units able to pay some demand of ``T`` are at least the demand of ``T``, and all units
cover the whole cost (every unit pays generic).  :func:`hall_ok` checks it directly,
:func:`hall_fast` with each sum computed once; :func:`transport` writes an actual
assignment by shortest augmenting paths (pool first), :func:`deficits` the least missing mana of an
unpayable cost, and :func:`solution_from_units` turns an assignment into a backend
:class:`~manasolver.solver.backends.problem.Solution`.  The backends share these; none imports
another backend.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence

from manasolver.solver.backends.problem import Problem, Solution, lowest_bit
from manasolver.solver.casting.announce import Form

__all__ = ["Network", "UnitKind", "deficits", "demand_sets", "hall_barred", "hall_fast", "hall_ok",
           "solution_from_units", "transport"]


#: A unit kind: (mask, snow, count, class index or -1 for the pool, option per type bit).
UnitKind = tuple[int, bool, int, int, tuple[tuple[int, int], ...]]


def demand_sets(form: Form) -> list[tuple[int, bool, int]]:
    """Every nonempty set of ``form``'s non-generic demands, the snow demand included, as
    ``(union of the demand masks, snow among them, mana they need)``, in subset order: the sets
    whose Hall sums :func:`hall_ok` checks (kept in the form: forms are kept per announced cost
    and shared by queries).  Only read, never changed."""
    hit = form.demand_sets
    if hit is not None:
        return hit
    kinds = list(form.demands)
    if form.snow:
        kinds.append((-1, form.snow))  # -1 marks the snow demand
    n = len(kinds)
    out: list[tuple[int, bool, int]] = []
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
        out.append((mask, snow, need))
    object.__setattr__(form, "demand_sets", out)  # a field filled once (see Form)
    return out


def hall_ok(units: list[UnitKind], form: Form, generic: int) -> bool:
    """Hall's condition over the form's non-generic demands (exact for grouped units)."""
    need_total = generic + form.fixed_mana
    if need_total > sum(u[2] for u in units):
        return False
    for mask, snow, need in demand_sets(form):
        have = 0
        for u in units:
            if u[0] & mask or (snow and u[1]):
                have += u[2]
        if need > have:
            return False
    return True


def hall_fast(units: Sequence[tuple[int, bool, int] | UnitKind], form: Form, generic: int) -> bool:
    """:func:`hall_ok` with each Hall sum computed once per distinct union of demand masks
    (a form has a few demands, so a few sums, never a table of all 64 masks), over the units
    summed by (mask, snow) first (a large board's classes make a few kinds of units); a form of
    one demand or none in one pass over the units."""
    demands = form.demands
    n = len(demands)
    snow = form.snow
    if n <= 1 and not snow:
        m, need = demands[0] if n else (0, 0)
        total = paying = 0
        for u in units:
            total += u[2]
            if u[0] & m:
                paying += u[2]
        return generic + need <= total and need <= paying
    # the units by (mask, snow): a board's many classes make a few kinds of units, read once a sum
    kinds: dict[tuple[int, bool], int] = {}
    total = 0
    for u in units:
        key = (u[0], u[1])
        kinds[key] = kinds.get(key, 0) + u[2]
        total += u[2]
    if generic + form.fixed_mana > total:
        return False
    rows = list(kinds.items())
    sums: dict[int, tuple[int, int]] = {}

    def have(mask: int) -> tuple[int, int]:
        """How many units could pay a demand of ``mask``: without, and with, snow units."""
        hit = sums.get(mask)
        if hit is None:
            a = b = 0
            for (m, snowy), c in rows:
                if m & mask:
                    a += c
                    b += c
                elif snowy:
                    b += c
            hit = sums[mask] = (a, b)
        return hit

    for subset in range(1, 1 << n):
        mask = need = 0
        for i in range(n):
            if subset >> i & 1:
                m, c = demands[i]
                mask |= m
                need += c
        plain, snowy = have(mask)
        if need > plain:
            return False
        if snow and need + snow > snowy:
            return False
    return not snow or snow <= have(0)[1]


def hall_barred(units: Sequence[UnitKind], barred: frozenset[int], form: Form, generic: int) -> bool:
    """:func:`hall_ok` for a ``form`` without snow when the units of the classes ``barred`` pay its
    colored, colorless and hybrid demands but not generic (mana that can't be spent to pay generic
    mana costs, CR 106.6: Jegantha's): generic is one demand more, which the other units alone pay,
    and Hall's condition over every set of the demands is exact for this transportation problem.
    The sets are the form's own (:func:`demand_sets`), each alone and with generic, and generic
    alone."""
    assert not form.snow
    free = [(u[0], u[2]) for u in units if u[3] not in barred]  # (mask, count): these may pay generic
    held = [(u[0], u[2]) for u in units if u[3] in barred]
    free_total = sum(c for _, c in free)
    if generic > free_total:
        return False
    for mask, _, need in demand_sets(form):
        held_have = sum(c for m, c in held if m & mask)
        if need > sum(c for m, c in free if m & mask) + held_have:
            return False
        if generic and need + generic > free_total + held_have:
            return False
    return True


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
    net = Network(sink + 1)
    into: list[int] = []  # the source's edge to each unit
    out: list[list[tuple[int, int]]] = []  # per unit: (demand, its edge)
    for ui, (mask, snow, count) in enumerate(units):
        into.append(net.edge(0, 1 + ui, count if not first or ui in first else 0))
        mine: list[tuple[int, int]] = []
        for di, (_, m, _c) in enumerate(dsts):
            if di >= n_spell and not (cost_ok and cost_ok[ui]):
                continue
            if (m == -2) or (m == -1 and snow) or (m > 0 and mask & m):
                mine.append((di, net.edge(1 + ui, nu + 1 + di, count)))
        out.append(mine)
    for di, (_, _, c) in enumerate(dsts):
        net.edge(nu + 1 + di, sink, c)
    flowed = net.augment(sink)
    if first:
        for ui, (_mask, _snow, count) in enumerate(units):
            if ui not in first:
                net.cap[into[ui]] += count
        flowed += net.augment(sink)
    if flowed < sum(c for _, _, c in dsts):
        return None
    rows: list[tuple[int, tuple[object, ...], int, int]] = []
    for ui, (mask, _snow, _count) in enumerate(units):
        for di, e in out[ui]:
            flow = net.cap[e ^ 1]
            if flow:
                dkey, m, _c = dsts[di]
                rows.append((ui, dkey, lowest_bit(mask & m if m > 0 else mask), flow))
    return rows


class Network:
    """A residual network of paired edges (edge ``e`` and its reverse ``e ^ 1``), each node's
    edges in the order they were added, augmented along shortest paths breadth-first without a
    dictionary look-up per arc."""

    __slots__ = ("cap", "head", "to")

    def __init__(self, n: int) -> None:
        self.head: list[list[int]] = [[] for _ in range(n)]
        self.to: list[int] = []
        self.cap: list[int] = []

    def edge(self, a: int, b: int, c: int) -> int:
        """Add capacity ``c`` from ``a`` to ``b`` (a new pair of arcs); the forward edge."""
        e = len(self.to)
        self.head[a].append(e)
        self.head[b].append(e + 1)
        self.to += (b, a)
        self.cap += (c, 0)
        return e

    def augment(self, sink: int) -> int:
        """Push flow along shortest augmenting paths from node 0 until none is left (each the
        path :meth:`_search` finds)."""
        head, to, cap = self.head, self.to, self.cap
        #: Each node's edges to the sink, in its order: the pairs of the sink's own edges, in the
        #: order they were added, as each node lists its own (no network here loops on the sink).
        exits: list[tuple[int, ...]] = [()] * len(head)
        for e in head[sink]:
            exits[to[e]] += (e ^ 1,)
        near = frozenset(to[e] for e in head[0])
        # The source's neighbours are searched as they are found only when none of them has an
        # edge to the sink (a transport's units): see :meth:`_search`.
        eager = any(exits[b] for b in near)
        # No path enters the source, so its edges only lose room: those full stay full.
        source = head[0]
        full = 0
        flowed = 0
        while True:
            while full < len(source) and cap[source[full]] <= 0:
                full += 1
            back, found = self._search(sink, exits, near, eager, full)
            if found < 0:
                return flowed
            back[sink] = found
            push = cap[found]
            b = sink
            while b != 0:
                e = back[b]
                push = min(push, cap[e])
                b = to[e ^ 1]
            flowed += push
            b = sink
            while b != 0:
                e = back[b]
                cap[e] -= push
                cap[e ^ 1] += push
                b = to[e ^ 1]

    def _search(self, sink: int, exits: list[tuple[int, ...]], near: frozenset[int],
                eager: bool, full: int = 0) -> tuple[list[int], int]:
        """The breadth-first search from node 0: the edge each node was found by, and the edge
        into the sink of the shortest augmenting path (-1: none); ``full``: how many of the
        source's first edges have no room.

        The sink is reached from the first node, in the order nodes are found, with an edge to the
        sink that has room (by the first such edge of that node), so the search stops as soon as
        it finds such a node instead of reading every node found before it.  Unless ``eager``,
        each neighbour of the source is searched as soon as it is found rather than after all of
        them: the same nodes are found in the same order (those the neighbours find queued
        behind them) as long as no neighbour finds another neighbour (``near``), which sends the
        search back to the plain order, and none has an edge to the sink (``eager`` then); on a
        transport's network, the first unit with room then finds its demand at once."""
        head, to, cap = self.head, self.to, self.cap
        back = [-1] * len(head)
        back[0] = -2
        for x in exits[0]:
            if cap[x] > 0:
                return back, x
        q: deque[int] = deque()

        def visit(a: int, guard: bool) -> int:
            """Find the nodes ``a`` leads to, queued: the edge into the sink when one of them has
            an edge there with room, -1 when none, -2 when ``guard`` and one is ``near``."""
            for e in head[a]:
                b = to[e]
                if back[b] == -1 and cap[e] > 0:
                    if guard and b in near:
                        return -2
                    back[b] = e
                    if b == sink:
                        return e
                    for x in exits[b]:
                        if cap[x] > 0:
                            return x
                    q.append(b)
            return -1

        if eager:
            q.append(0)
        else:
            for e in head[0][full:]:
                b = to[e]
                if back[b] != -1 or cap[e] <= 0:
                    continue
                back[b] = e
                got = visit(b, True)
                if got == -2:
                    return self._search(sink, exits, near, True)
                if got >= 0:
                    return back, got
        while q:
            got = visit(q.popleft(), False)
            if got >= 0:
                return back, got
        return back, -1


def deficits(units: Sequence[tuple[int, bool, int] | UnitKind], form: Form, x: int) -> dict[tuple[object, ...], int]:
    """The least unmet demand when grouped units pay ``form``, per demand key
    (``("spell", mask)``, ``("snow",)``, ``("generic",)``): a maximum flow that first
    serves the colored, colorless, hybrid and snow demands and then generic, so the
    shortfall is smallest in total and, among those, falls on generic (a flow never
    gives back what reached the sink).  Every unit pays generic, so the second stage adds
    what the units left over by the first can give (the whole network's maximum flow is the
    least of all the units and the first stage's flow with generic): counted, not flowed.

    The first stage is counted without a flow where every maximum flow serves each demand
    alike: when no unit pays two of the demands (each demand then served as far as the units
    paying it go: one demand alone is such a case), and when the units can serve every demand
    (Hall's condition, :func:`hall_fast`)."""
    g = form.generic(x)
    demands = form.demands
    snow = form.snow
    out: dict[tuple[object, ...], int] = {}
    total = 0
    if len(demands) == 1 and not snow:  # one demand: served as far as the units paying it go
        m, need = demands[0]
        have = 0
        for u in units:
            total += u[2]
            if u[0] & m:
                have += u[2]
        served = need
        if have < need:
            served = have
            out[("spell", m)] = need - have
    else:
        for u in units:
            total += u[2]
        served = form.fixed_mana
        alone = _alone(units, form)
        if alone is not None:
            served = 0
            for (m, need), have in zip(demands, alone):
                if have < need:
                    out[("spell", m)] = need - have
                    served += have
                else:
                    served += need
            if snow:
                have = alone[-1]
                if have < snow:
                    out[("snow",)] = snow - have
                    served += have
                else:
                    served += snow
        elif not hall_fast(units, form, 0):
            served = _first_stage(units, form, out)
    if g + served > total:
        out[("generic",)] = g + served - total
    return out


def _alone(units: Sequence[tuple[int, bool, int] | UnitKind], form: Form) -> list[int] | None:
    """The units paying each demand of ``form`` (its demands in order, then its snow demand when
    it has one) when no unit pays two of them, else ``None``."""
    demands = form.demands
    snow = form.snow
    have = [0] * (len(demands) + (1 if snow else 0))
    for u in units:
        mask = u[0]
        hit = -1
        for i, (m, _c) in enumerate(demands):
            if mask & m:
                if hit >= 0:
                    return None
                hit = i
        if snow and u[1]:
            if hit >= 0:
                return None
            hit = len(demands)
        if hit >= 0:
            have[hit] += u[2]
    return have


def _first_stage(units: Sequence[tuple[int, bool, int] | UnitKind], form: Form,
                 out: dict[tuple[object, ...], int]) -> int:
    """The maximum flow from ``units`` to ``form``'s demands but generic, by shortest augmenting
    paths: how much it serves; what each demand still lacks is put in ``out``."""
    dsts: list[tuple[tuple[object, ...], int, int]] = [(("spell", m), m, c) for m, c in form.demands]
    if form.snow:
        dsts.append((("snow",), -1, form.snow))
    nu = len(units)
    sink = nu + len(dsts) + 1
    net = Network(sink + 1)
    for ui, u in enumerate(units):
        mask, snow, count = u[0], u[1], u[2]
        net.edge(0, 1 + ui, count)
        for di, (_, m, _c) in enumerate(dsts):
            if (m == -1 and snow) or (m > 0 and mask & m):
                net.edge(1 + ui, nu + 1 + di, count)
    edges = [net.edge(nu + 1 + di, sink, c) for di, (_, _, c) in enumerate(dsts)]
    served = net.augment(sink)
    for (key, _m, _c), e in zip(dsts, edges):
        if net.cap[e]:
            out[key] = net.cap[e]
    return served


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
            member = next_member.get(k, 0)
            acts.extend([(k, m, o) for m in range(member, member + n)])
            next_member[k] = member + n
    for key, n in (forced or {}).items():
        multi_need[key] = n
    for (k, o), need in sorted(multi_need.items()):
        member = next_member.get(k, 0)
        acts.extend([(k, m, o) for m in range(member, member + need)])
        next_member[k] = member + need
    return Solution(fi, x, acts, spend)


def _option_for(pick: tuple[tuple[int, int], ...], bit: int) -> int:
    """The first option of a class that can make type ``bit``."""
    for b, o in pick:
        if b == bit or b == 0:
            return o
    return pick[0][1]
