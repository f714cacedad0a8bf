"""Large boards whose cost needs more than their lands: a min-cost flow over one-unit sources.

When the lands can't pay a cost alone (:mod:`~manasolver.solver.backends.fastopt.floor`
declines), a best payment taps rocks, dorks, Talismans, pain lands' colors or Sol Ring too.
Every criterion of the policy but the keep terms counts per activation, so when each
activation adds one unit the best payment is a min-cost flow: from each class of identical
permanents (capacity its members) to the demands its units may pay, each edge costing the
policy's vector of one activation of the cheapest mode making such a unit (the vector packed
as the digits of one integer, the tie-break last), each demand taking what it asks.

* Sources adding several units at once without a mana cost (Sol Ring) are counted outside
  the flow: every count of their activations is tried (their units then enter the flow
  free), skipped when a bound colors aside can't beat the answer so far.
* A Signet (``{1}, {T}: Add`` two) enters the flow as one unit of either of its types (one
  unit net: its ``{1}`` paid by a source that costs nothing, whose unit the Signet's second
  one replaces); the shared transport then places its two units and its cost, and a count
  it can't place is declined.  That reading can't see a Signet making both its colors for
  one cost, so with Signets, and with the other abilities that cost mana (filter lands,
  Study Hall), which are not in the flow, the answer stands only when it equals the least
  vector any payment could have colors aside (each such ability adding its units net of its
  cost, at its activation's vector), which no payment beats; else the branch and bound decides.
* The keep terms (``keep_castable``, ``keep_colors``) of the answer must be those of the
  untouched board (their floor), else it is declined.
* Generic mana takes any unit, so each source's arc to it is its cheapest: the flow starts
  with the generic demand filled from the cheapest sources (a least-cost flow of that value),
  and the cheapest paths only place the colored demands from there.

Anything outside this shape (floating mana, snow, repeatable or non-exclusive options, a
class with both kinds of modes, too many counts to try) is declined (``None``).
"""

from __future__ import annotations

import bisect
from collections import deque
from collections.abc import Callable
from operator import itemgetter, mul
from itertools import accumulate, product

from manasolver.models.symbols import ANY_TYPE
from manasolver.solver.backends.fastopt.floor import Start, prepared
from manasolver.solver.backends.fastopt.modes import GENERIC_COST, Mode
from manasolver.solver.backends.matching import UnitKind, solution_from_units
from manasolver.solver.backends.problem import Problem, Solution
from manasolver.solver.casting.announce import Form

__all__ = ["MAX_COUNTS", "solve_by_flow"]

#: The most combinations of multi-unit activation counts tried before declining.
MAX_COUNTS = 256
#: The base of the packed vector's digits: above any one term's value on any board.
_DIGIT = 1 << 40
#: The terms of one activation, in the order :func:`_terms_of` lists them (named as
#: :func:`~manasolver.solver.policy.criteria_vector` names them).
_TERMS = ("no_sacrifice", "min_life", "keep_castable", "keep_colors", "min_waste", "prefer_lands",
          "min_sources", "use_pool", "min_energy", "tiebreak")


def _kind(md: Mode) -> tuple[int, int, int]:
    """What the terms of one activation of ``md`` but its tie-break are made of
    (:func:`_terms_of`): its sacrifice, its life paid, whether it is not a land.  Modes alike but
    for their place on the board share it."""
    return (md.sac, md.life, md.nonland)


def _terms_of(kind: tuple[int, int, int], tiebreak: int) -> list[int]:
    """The terms one activation of a mode of ``kind`` (:func:`_kind`) adds, in :data:`_TERMS`
    order: the keep terms, the waste and the pool are counted per payment, not per activation,
    and no mode here costs energy."""
    sac, life, nonland = kind
    return [sac, life, 0, 0, 0, nonland, 1, 0, 0, tiebreak]


def _values(md: Mode) -> list[int]:
    """The terms one activation of ``md`` adds (:func:`_terms_of`)."""
    return _terms_of(_kind(md), md.weight)


def _picker(at: list[int]) -> Callable[[list[int]], tuple[int, ...]]:
    """The terms of a :data:`_TERMS` list at the places ``at``, as a tuple."""
    if len(at) > 1:
        return itemgetter(*at)
    return lambda values: tuple([values[i] for i in at])


_WASTE = _TERMS.index("min_waste")
_TIE = _TERMS.index("tiebreak")
_LIFE = _TERMS.index("min_life")
_KEEP = _TERMS.index("keep_castable")
_COLORS = _TERMS.index("keep_colors")
#: A unit row's (vector, mask), what the flow's arcs are chosen by.
_VEC_MASK = itemgetter(3, 2)
#: A distance above every path's in :meth:`_Flow.run` (the packed vectors of a path stay far below it).
_UNREACHED = 1 << 4096


def _pack(vector: tuple[int, ...]) -> int:
    out = 0
    for v in vector:
        out = out * _DIGIT + v
    return out


class _Flow:
    """A min-cost flow network, augmented along cheapest paths (Bellman-Ford on the residual
    graph, costs as Python integers)."""

    def __init__(self, n: int) -> None:
        self.n = n
        self.head: list[list[int]] = [[] for _ in range(n)]
        self.to: list[int] = []
        self.cap: list[int] = []
        self.cost: list[int] = []

    def edge(self, a: int, b: int, cap: int, cost: int) -> int:
        e = len(self.to)
        self.head[a].append(e)
        self.head[b].append(e + 1)
        self.to += (b, a)
        self.cap += (cap, 0)
        self.cost += (cost, -cost)
        return e

    def prefill(self, paths: list[tuple[int, tuple[int, ...]]]) -> int:
        """Push along each path of edges, cheapest first, as much as it takes: a start for
        :meth:`run` when these pushes make a least-cost flow of their value (no cycle of the
        residual graph then costs less than nothing); the units pushed."""
        cap = self.cap
        flowed = 0
        for _cost, path in sorted(paths, key=lambda p: p[0]):
            push = min(cap[e] for e in path)
            if push > 0:
                for e in path:
                    cap[e] -= push
                    cap[e ^ 1] += push
                flowed += push
        return flowed

    def run(self, s: int, t: int, want: int) -> int:
        """Push up to ``want`` units from ``s`` to ``t`` at least cost; the units pushed.  Each
        cheapest path is found by Bellman-Ford with a queue (a node's edges are read again only
        when its distance fell), which reads a few times fewer edges than passes over every
        node on these networks (sources, their classes, the demands).  Each node's edges with
        room left are kept apart, in the order of its edges (the search reads the same edges
        in the same order, and half of them, a demand's unused arcs back to the classes, have
        none); a push changes only the edges of its path."""
        flowed = 0
        to, cap, cost, n = self.to, self.cap, self.cost, self.n
        #: Per node, its edges with room left, in the order of :attr:`head` (edge numbers rise),
        #: but those back into ``s``: a path from ``s`` back to it costs nothing at least (else
        #: the search would never end), so no such edge ever lowers its distance.
        room = [[e for e in edges if cap[e] > 0 and to[e] != s] for edges in self.head]
        unreached = _UNREACHED
        while flowed < want:
            dist = [unreached] * n
            back = [-1] * n
            dist[s] = 0
            queue = deque((s,))
            pop = queue.popleft
            put = queue.append
            queued = [False] * n
            queued[s] = True
            while queue:
                a = pop()
                queued[a] = False
                da = dist[a]
                for e in room[a]:
                    b = to[e]
                    nd = da + cost[e]
                    if nd < dist[b]:
                        dist[b] = nd
                        back[b] = e
                        if not queued[b]:
                            queued[b] = True
                            put(b)
            if back[t] < 0:
                break
            push = want - flowed
            b = t
            while b != s:
                e = back[b]
                if cap[e] < push:
                    push = cap[e]
                b = to[e ^ 1]
            b = t
            while b != s:
                e = back[b]
                r = e ^ 1
                b = to[r]  # the node the edge leaves
                cap[e] -= push
                if not cap[e]:
                    room[b].remove(e)
                if cap[r] == 0 and b != s:
                    bisect.insort(room[to[e]], r)
                cap[r] += push
            flowed += push
        return flowed


class _Shape:
    """The board's modes sorted for the flow: one-unit cost-free modes per class, multi-unit
    cost-free modes per class, and converters; ``ok`` False outside the modelled shape."""

    def __init__(self, problem: Problem, criteria: tuple[str, ...], modes: list[Mode]) -> None:
        sup = problem.supply
        self.ok = True
        #: Where each criterion, then the tie-break, reads its term in :func:`_values`.
        self.at = [_TERMS.index(c) for c in criteria] + [_TERMS.index("tiebreak")]
        #: The weight of each term in the packed vector (:func:`_pack`: its digit's place; 0 for a
        #: term the policy does not rank), so that a packed vector is the sum of its terms' weights.
        self.weights = [0] * len(_TERMS)
        for place, term in enumerate(reversed(self.at)):
            self.weights[term] += _DIGIT ** place
        #: The terms :attr:`at` reads, as a tuple (the vector of :func:`_values`' list), and those
        #: of the criteria alone (the vector but its tie-break).
        self.pick = _picker(self.at)
        self.pick_criteria = _picker(self.at[:-1])
        #: A one-unit mode's vector but its tie-break, and the packed vector it adds in the flow
        #: but its tie-break, by its kind (:func:`_kind`): a few kinds per board (:meth:`vec_and_cost`).
        self.heads: dict[tuple[int, int, int], tuple[tuple[int, ...], int]] = {}
        self.units: dict[int, list[Mode]] = {}
        self.multi: dict[int, Mode] = {}
        self.converters: list[Mode] = []
        #: The mask of a Signet's unit in the flow (either of its types), by (class, mode index).
        self.signet_mask: dict[tuple[int, int], int] = {}
        if any(not o.exclusive or o.repeat != 1 for k in {md.k for md in modes if md.k >= 0}
               for o in sup.classes[k].options):
            self.ok = False
            return
        for md in modes:
            if md.k < 0 or md.snow:
                self.ok = False
                return
            if md.costs == ((GENERIC_COST, 1),) and len(md.masks) == 2:
                # a Signet ({1}, {T}: Add two): one unit net, of either of its types
                self.units.setdefault(md.k, []).append(md)
                self.signet_mask[(md.k, len(self.units[md.k]) - 1)] = md.masks[0] | md.masks[1]
            elif md.costs:
                self.converters.append(md)
            elif len(md.masks) == 1:
                self.units.setdefault(md.k, []).append(md)
            elif md.k in self.multi:
                self.ok = False  # two multi-unit modes of one class: counts per mode, not modelled here
                return
            else:
                self.multi[md.k] = md
        if set(self.units) & set(self.multi):
            self.ok = False
        self.count = [c.count for c in sup.classes]
        #: Per class of one-unit modes, each mode read once for the flow's arcs: (mode, its index
        #: among the class's modes, the mask of its unit, its vector, its packed unit cost).
        self.unit_rows: dict[int, list[tuple[Mode, int, int, tuple[int, ...], int]]] = {}
        if self.ok:
            # the modes of a class have options of their own, so each mode's index is its place
            signets = self.signet_mask
            for k, mds in self.units.items():
                self.unit_rows[k] = [(md, i, signets.get((k, i), md.masks[0]), *self.vec_and_cost(md))
                                     for i, md in enumerate(mds)]
        #: :attr:`unit_rows` by (vector, mask), ties in their order: the first of them whose unit
        #: may pay a demand is the least that may.
        self.by_cost = {k: rows if len(rows) == 1 else sorted(rows, key=_VEC_MASK)
                        for k, rows in self.unit_rows.items()}

    def vector(self, kinds: dict[tuple[int, int, int], int], tiebreak: int, waste: int) -> tuple[int, ...]:
        """The vector of a payment making ``kinds[kind]`` activations of modes of each kind
        (:func:`_kind`), its tie-break ``tiebreak`` (its activations' weights summed) and
        ``waste`` units left unspent, the form's and the keep terms aside: each term of
        :func:`_terms_of` summed over the activations."""
        totals = [0] * len(_TERMS)
        for kind, n in kinds.items():
            for i, v in enumerate(_terms_of(kind, 0)):
                totals[i] += n * v
        totals[_WASTE] = waste
        totals[_TIE] = tiebreak
        return self.pick(totals)

    def form_vector(self, life: int, keep: tuple[int, int]) -> tuple[int, ...]:
        """The vector a payment of a form paying ``life`` adds with the ``keep`` terms
        (``keep_castable``, ``keep_colors``) of the untouched board."""
        totals = [0] * len(_TERMS)
        totals[_LIFE] = life
        totals[_KEEP], totals[_COLORS] = keep
        return self.pick(totals)

    def vec(self, md: Mode) -> tuple[int, ...]:
        """The vector one activation of ``md`` adds, its unit wasted aside."""
        return self.pick(_values(md))

    def vec_and_cost(self, md: Mode) -> tuple[tuple[int, ...], int]:
        """:meth:`vec`, and the packed vector one activation of a one-unit mode adds inside the
        flow: with the multi-unit activations fixed, each such activation is one unit of theirs
        left unspent.  A vector is the criteria's terms, then the tie-break, and the packed one
        the sum of its terms times their :attr:`weights`: both made once per kind of mode
        (:func:`_kind`) but the tie-break, so that each mode adds only its own (the packed
        integers are ten digits of 40 bits)."""
        kind = _kind(md)
        head = self.heads.get(kind)
        if head is None:
            values = _terms_of(kind, 0)
            criteria = self.pick_criteria(values)
            values[_WASTE] = 1
            head = self.heads[kind] = (criteria, sum([v * w for v, w in zip(values, self.weights) if v]))
        return (*head[0], md.weight), head[1] + md.weight * self.weights[_TIE]

    def colorless_bound(self, total: int, fixed: dict[int, int], pre: _Cheapest) -> tuple[int, ...]:
        """The least vector of a payment of ``total`` mana with ``fixed`` multi-unit activations,
        colors aside: the cheapest one-unit-net activations (``pre``, converters among them) for
        the rest, waste the units over."""
        kinds: dict[tuple[int, int, int], int] = {}
        units = tiebreak = 0
        for k, n in fixed.items():
            md = self.multi[k]
            units += n * len(md.masks)
            kinds[_kind(md)] = kinds.get(_kind(md), 0) + n
            tiebreak += n * md.weight
        vec = pre.least(total - units)
        if vec is None:
            return (1 << 62,)
        own = self.vector(kinds, tiebreak, max(0, units - total))
        return tuple(a + b for a, b in zip(own, vec))


class _Cheapest:
    """The one-unit-net activations by vector, cheapest first (``rows``: vectors and counts), and
    their running counts and sums: the least vector of any number of them is the sum of the
    cheapest, read by a binary search (made once a problem, read for every count of the
    multi-unit activations)."""

    def __init__(self, rows: list[tuple[tuple[int, ...], int]], width: int) -> None:
        self.rows = rows
        self.width = width
        avails = [avail for _each, avail in rows]
        #: How many activations the rows before each hold.
        self.counts = list(accumulate(avails, initial=0))
        #: Per term of the vector, its sum over the rows before each (each row's times its count).
        self.sums = [list(accumulate(map(mul, avails, column), initial=0))
                     for column in zip(*[each for each, _avail in rows])]

    def least(self, need: int) -> list[int] | None:
        """The least vector of ``need`` activations, colors aside (None: there are fewer)."""
        if need <= 0:
            return [0] * self.width
        if need > self.counts[-1]:
            return None
        full = bisect.bisect_left(self.counts, need) - 1  # rows taken whole, then part of the next
        each = self.rows[full][0]
        take = need - self.counts[full]
        return [sums[full] + take * b for sums, b in zip(self.sums, each)]


def solve_by_flow(problem: Problem, criteria: tuple[str, ...], start: Start | None = None) -> Solution | None:
    """The best payment of ``problem`` by the flow (module docstring), or ``None`` when that is
    not proven (the branch and bound decides).  ``start``: its :func:`prepared` start when
    already made (the floor read the same one)."""
    start = start or prepared(problem, criteria)
    if start is None or any(f.energy for _, f in start.forms):
        return None
    forms, x, modes, keep, root = start
    shape = _Shape(problem, criteria, modes)
    if not shape.ok:
        return None
    combos = 1
    for k in shape.multi:
        combos *= shape.count[k] + 1
    if combos > MAX_COUNTS:
        return None
    # one-unit-net activations, converters too (colors aside): the bound's cheapest first
    singles: dict[tuple[int, ...], int] = {}
    for k, rows in shape.by_cost.items():
        v = rows[0][3]  # the least vector of the class's rows (sorted by it)
        singles[v] = singles.get(v, 0) + shape.count[k]
    conv_best: dict[int, tuple[int, ...]] = {}
    for md in shape.converters:
        net = len(md.masks) - sum(n for _, n in md.costs)
        if net == 1:
            v = shape.vec(md)
            if md.k not in conv_best or v < conv_best[md.k]:
                conv_best[md.k] = v
    any_pre = dict(singles)
    for k, v in conv_best.items():
        if k in shape.units:
            continue  # one activation a member: its cheapest one-unit mode is counted already
        any_pre[v] = any_pre.get(v, 0) + shape.count[k]
    pre_all = _Cheapest(sorted(any_pre.items()), len(criteria) + 1)
    if any(len(md.masks) - sum(n for _, n in md.costs) > 1 for md in shape.converters):
        return None  # a converter adding two net: the bound colors aside would need it as multi
    best: tuple[tuple[int, ...], Solution] | None = None
    for fi, form in forms:
        total = form.mana_total(x)
        extra = shape.form_vector(form.life, root)
        multi = sorted(shape.multi)
        bounds = {c: tuple(a + b for a, b in zip(shape.colorless_bound(total, dict(zip(multi, c)), pre_all), extra))
                  for c in product(*[range(shape.count[k], -1, -1) for k in multi])}
        counts_list = sorted(bounds, key=bounds.__getitem__)
        form_best: tuple[tuple[int, ...], Solution] | None = None
        for counts in counts_list:
            fixed = dict(zip(multi, counts))
            bound = bounds[counts]
            if form_best is not None and bound >= form_best[0]:
                break  # sorted by this bound: nothing later does better
            found = _flow_payment(problem, shape, fi, form, x, fixed)
            if found is None:
                if shape.signet_mask:
                    return None  # the Signets' costs unpaid as the flow placed them: not proven
                continue
            vector, sol, used = found
            vector = tuple(a + b for a, b in zip(vector, extra))
            if form_best is None or vector < form_best[0]:
                if keep.policy_terms(used, criteria) != root:
                    return None  # the keep terms above their floor: the branch and bound decides
                form_best = (vector, sol)
        if form_best is None:
            return None  # no payment without converters: they may be needed
        least = min(bounds.values())
        if (shape.converters or shape.signet_mask) and least < form_best[0]:
            return None  # a converter might do better: the converter search decides
        if best is None or form_best[0] < best[0]:
            best = form_best
    if best is None:
        return None
    best[1].objective = best[0]
    return best[1]


def _flow_payment(problem: Problem, shape: _Shape, fi: int, form: Form, x: int, fixed: dict[int, int]
                  ) -> tuple[tuple[int, ...], Solution, list[int]] | None:
    """The least-cost payment of ``form`` with ``fixed`` multi-unit activations and one-unit
    modes chosen by the flow: (vector, solution, members used per class), or None; the vector
    the form's and the keep terms aside (:meth:`_Shape.vector`)."""
    demands: list[tuple[tuple[object, ...], int, int]] = [(("spell", m), m, c) for m, c in form.demands]
    generic = form.generic(x)
    if generic:
        demands.append((("generic",), ANY_TYPE, generic))
    total = sum(c for _, _, c in demands)
    classes = sorted(shape.units)
    fixed_rows: list[tuple[int, int, int]] = []  # (class, mask, units)
    for k, n in fixed.items():
        if n:
            md = shape.multi[k]
            for m in sorted(set(md.masks)):
                fixed_rows.append((k, m, n * md.masks.count(m)))
    nc, nf, nd = len(classes), len(fixed_rows), len(demands)
    s, t = 0, 1 + nc + nf + nd
    g = _Flow(t + 1)
    arcs: list[tuple[int, int, int]] = []  # a class's arcs: (edge, class, index of its mode in the class)
    # Generic mana takes any unit, so each source's arc to it is its cheapest: the generic
    # demand filled from the cheapest sources is a least-cost flow of its value, and the
    # cheapest paths then only place the colored demands (fewer, shorter augmentations).
    gen = nd - 1 if generic else -1
    to_generic: list[tuple[int, int, int]] = []  # (cost, the path's source edge, its demand edge)
    edge = g.edge
    first = 1 + nc + nf  # the node of the first demand
    masks = [dm for _key, dm, _c in demands]
    for i, k in enumerate(classes):
        into = edge(s, 1 + i, shape.count[k], 0)
        rows = shape.by_cost[k]
        for di, dm in enumerate(masks):
            for _md, at, m, _v, unit_cost in rows:  # the first of the least (vector, mask) paying it
                if m & dm:
                    break
            else:
                continue
            e = edge(1 + i, first + di, total, unit_cost)
            arcs.append((e, k, at))
            if di == gen:
                to_generic.append((unit_cost, into, e))
    for j, (_k, m, n) in enumerate(fixed_rows):
        into = edge(s, 1 + nc + j, n, 0)
        for di, dm in enumerate(masks):
            if m & dm:
                e = edge(1 + nc + j, first + di, n, 0)
                if di == gen:
                    to_generic.append((0, into, e))
    paths: list[tuple[int, tuple[int, ...]]] = []
    for di, (_key, _dm, c) in enumerate(demands):
        out = edge(first + di, t, c, 0)
        if di == gen:
            paths = [(cost, (into, e, out)) for cost, into, e in to_generic]
    pre = g.prefill(paths)
    if pre + g.run(s, t, total - pre) < total:
        return None
    used = [0] * len(shape.count)
    units: list[UnitKind] = []
    cost_ok: list[bool] = []
    extra: list[tuple[tuple[object, ...], int, int]] = []
    forced: dict[tuple[int, int], int] = {}
    taken: dict[tuple[int, int], int] = {}  # (class, index of its mode) -> activations
    flows = g.cap  # an edge's flow is its reverse's room
    for e, k, at in arcs:
        flow = flows[e ^ 1]
        if flow:
            taken[(k, at)] = taken.get((k, at), 0) + flow
    kinds: dict[tuple[int, int, int], int] = {}  # the activations of each kind (_kind)
    produced = tiebreak = 0
    for (k, i), n in sorted(taken.items()):
        md = shape.units[k][i]
        used[k] += n
        kind = _kind(md)
        kinds[kind] = kinds.get(kind, 0) + n
        tiebreak += n * md.weight
        produced += n
        if md.costs:  # a Signet: its slots, its {1} paid by sources that cost nothing
            o = md.options[0][1]
            for m in sorted(set(md.masks)):
                units.append((m, False, n * md.masks.count(m), k, md.options))
                cost_ok.append(False)
            extra.append((("cost", k, o, GENERIC_COST), GENERIC_COST, n))
            forced[(k, o)] = n
        else:
            units.append((md.masks[0], False, n, k, md.options))
            cost_ok.append(md.pays_ability)
    for k, n in fixed.items():
        if not n:
            continue
        md = shape.multi[k]
        used[k] += n
        for m in sorted(set(md.masks)):
            units.append((m, False, n * md.masks.count(m), k, md.options))
            cost_ok.append(md.pays_ability)
        forced[(k, md.options[0][1])] = n
        kind = _kind(md)
        kinds[kind] = kinds.get(kind, 0) + n
        tiebreak += n * md.weight
        produced += n * len(md.masks)
    sol = solution_from_units(problem, units, fi, x, tuple(extra), tuple(cost_ok), forced)
    if sol is None:
        return None  # the Signets' costs can't all be paid by sources that cost nothing
    return shape.vector(kinds, tiebreak, produced - total), sol, used
