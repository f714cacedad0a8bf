"""The exact optimiser for boards with converters: filter lands and their kin.

A *converter* is a mana ability that costs one mana symbol of one or two colors (or ``{C}``)
and ``{T}``: a filter land's ``{W/U}, {T}: Add {W}{W}, {W}{U}, or {U}{U}`` consumes one mana
of its pair and gives two, each of either type (its three options are one converter with two
slots of mask ``{W/U}``).  The general forward search reads a converter's cost as a demand
kind of its own (ten filter lands: ten kinds, 2^k demand sets per node) and can't tell
whether converters paying one another can be ordered; this search works on what the
converters convert instead:

* the activations are *counts*, per mode (one way to use a class of identical permanents:
  a cost-free mode, or its converter), decided by a depth-first branch and bound whose
  every term of the policy is monotone in the counts, so a node's own vector is a
  lower bound for everything below it and a node that pays is a leaf; the keep terms are
  kept along the branch (:mod:`~manasolver.solver.backends.fastopt.filter_terms`), a node is
  first bounded with its parent's, and a node that does not pay is bounded as if one more
  member were activated below it (the least waste, source and board position that adds);
* first passes cut every node whose bound exceeds a ceiling (the least vector the forms
  allow, then the least bound the last pass cut; the tie-break left open): when one finds a
  payment, the optimum is within its ceiling and the pass found the payment the whole
  search would (nodes tying the ceiling are kept); else the whole search runs;
* a node is tried when its units cover the cost by count and by Hall's condition over the
  cost's demand kinds (converter inputs left out: a relaxation);
* whether a count vector really pays is decided exactly by :func:`fires`: a search over the
  order of the converters' activations, on the pool as a multiset of masks (a unit keeps
  every type it may still become), each converter taking a unit able to pay its symbol —
  only the minimal masks among those able, as a wider unit is never worse to keep — and
  putting its slots in; the pool left pays the cost by Hall's condition.  Every legal
  payment is such an order (CR 601.2g: each activation is paid from what the pool holds
  then), so the test is exact, states memoised.

Floating mana (CR 106.4) is a unit of one type in that pool from the start: it may pay a
converter's cost (CR 605.3a) or a symbol, or stay.  For a count vector every term but two is
fixed; of the mana it spends, ``s`` from the floating pool, ``min_waste`` is ``net - total + s``
and ``use_pool`` is ``pool - s``.  So the firing test also finds the least ``s`` (``min_waste``
ranked first) or the most (``use_pool`` first): pool units are keyed apart
(:data:`POOL`), taking one for a converter costs 1 (or -1), and the cost's own share of pool
mana is the deficiency of the activations' units alone (or ``total`` less that of the pool
units alone: Hall's deficiency, with Mendelsohn–Dulmage saying one assignment reaches it).
Those two terms are not monotone in the counts (a Signet fed by a wasted unit can free two
pool units), so a node that pays ends its branch only when its vector equals its bound; else
its children are searched under the bound as usual, and a pass under a ceiling is
conclusive only when its answer is below every bound it cut.

:func:`solve_converters` answers ``None`` (the general search then decides) for what it does
not model: options that cost energy or other permanents, restricted mana, snow symbols,
repeatable options, and mana costs that are not one converter symbol.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from itertools import combinations_with_replacement

from manasolver.models.symbols import ANY_TYPE, TYPE_BITS
from manasolver.solver.backends.fastopt.filter_payment import POOL, ConverterMode, converter_solution, pool_direction
from manasolver.solver.backends.fastopt.filter_terms import KeepTracker
from manasolver.solver.backends.fastopt.keep import KeepTerms
from manasolver.solver.backends.problem import merged_pick
from manasolver.solver.backends.matching import demand_sets, hall_ok
from manasolver.solver.backends.problem import Problem, Solution
from manasolver.solver.casting.announce import Form
from manasolver.solver.keepable import converter_input
from manasolver.solver.supply.model import Option, SourceClass

__all__ = ["MAX_NODES", "MAX_STEPS", "fires", "solve_converters"]

#: Nodes of the branch and bound before it gives the problem back (``None``).
MAX_NODES = 20_000
#: Steps of the exact firing tests of one query before the search gives the problem back.
MAX_STEPS = 20_000
#: Passes under a ceiling before the whole search, and the node budget of each.
CEILING_PASSES = 3
CEILING_NODES = 5_000


#: A tie-break no payment reaches (the first pass's ceiling leaves it open).
_OPEN = 1 << 62

#: The terms a node's values list holds, in order (the policy's criteria pick from them).
_TERMS = ("no_sacrifice", "min_life", "keep_castable", "keep_colors", "min_waste", "prefer_lands",
          "min_sources", "use_pool", "min_energy", "tiebreak")


def _types(mask: int) -> list[int]:
    return [b for b in TYPE_BITS if mask & b]


def _converter(cls: SourceClass, k: int, costly: list[tuple[int, Option]],
               nonland: int) -> ConverterMode | None:
    """The class's options that cost mana as one converter mode, or None."""
    first = costly[0][1]
    need = converter_input(first)
    if not need:
        return None
    for _, o in costly:
        if (o.mana_cost != first.mana_cost or o.ability != first.ability or o.life != first.life
                or o.damage != first.damage or o.sacrifice != first.sacrifice
                or len(o.slots) != len(first.slots)):
            return None
    opts = tuple((tuple(sorted(o.slots)), i) for i, o in costly)
    if len(costly) == 1:
        slots = first.slots
        if any(s & (s - 1) for s in slots):
            return None  # one option choosing a type per slot: read as its own units below
    else:
        union = 0
        for _, o in costly:
            for s in o.slots:
                if s & (s - 1):
                    return None
                union |= s
        every = {tuple(sorted(c)) for c in combinations_with_replacement(_types(union), len(first.slots))}
        if {s for s, _ in opts} != every or len(opts) != len(every):
            return None
        slots = (union,) * len(first.slots)
    return ConverterMode(k, slots, need, (), opts, int(first.sacrifice), first.life + first.damage,
                 first.life, nonland, cls.positions[0] + 1)


def _modes(problem: Problem) -> list[ConverterMode] | None:
    """The supply's modes, converters first; None when outside the modelled shape."""
    sup = problem.supply
    out: list[ConverterMode] = []
    free_modes: list[ConverterMode] = []
    any_converter = False
    for k, cls in enumerate(sup.classes):
        if cls.hand or cls.kind not in ("land", "creature", "artifact", "other"):
            return None
        nonland = 0 if cls.kind == "land" else 1
        weight = cls.positions[0] + 1
        costly: list[tuple[int, Option]] = []
        groups: dict[tuple[int, int, int], list[tuple[int, Option]]] = {}
        for o, opt in enumerate(cls.options):
            if (not opt.exclusive or opt.energy or opt.tap_creatures or opt.sacrifice_other
                    or opt.restriction is not None or opt.nonsnow_tail or not problem.spell_ok[k][o]):
                return None
            if opt.mana_cost:
                costly.append((o, opt))
            elif len(opt.slots) == 1:
                groups.setdefault((int(opt.sacrifice), opt.life + opt.damage, opt.life), []).append((o, opt))
            elif opt.slots:
                free_modes.append(ConverterMode(k, opt.slots, 0, ((0, o),), (), int(opt.sacrifice),
                                        opt.life + opt.damage, opt.life, nonland, weight))
        for (sac, life, ab_life), members in sorted(groups.items()):
            mask, pick = merged_pick(members)
            free_modes.append(ConverterMode(k, (mask,), 0, tuple(pick), (), sac, life, ab_life, nonland, weight))
        if costly:
            conv = _converter(cls, k, costly, nonland)
            if conv is None:
                return None
            out.append(conv)
            any_converter = True
    if not any_converter:
        return None
    return out + free_modes


@dataclass(frozen=True, slots=True)
class _Group:
    """Modes of one class that score the same per activation (sacrifice, life, kind, board
    position, units added beyond what they consume): the search counts the group's
    activations, and the firing test decides which of its modes each one is.  ``free``: its
    cost-free mode (or -1); ``conv``: its converter mode (or -1)."""

    k: int
    free: int
    conv: int
    net: int
    row_slots: tuple[int, ...]
    sac: int
    life: int
    ab_life: int
    nonland: int
    weight: int


def _groups(modes: list[ConverterMode]) -> list[_Group]:
    """The modes as groups, in board order: a filter land's ``{C}`` and its converter score
    the same (one member, one unit net), so they are one group."""
    out: list[_Group] = []
    taken: set[int] = set()
    for i, md in enumerate(modes):
        if i in taken or not md.need:
            continue
        net = len(md.slots) - 1
        twin = next((j for j, o in enumerate(modes)
                     if j not in taken and not o.need and o.k == md.k and len(o.slots) == net
                     and (o.sac, o.life, o.ab_life) == (md.sac, md.life, md.ab_life)), -1)
        taken.add(i)
        if twin >= 0:
            taken.add(twin)
        slots = md.slots + (modes[twin].slots if twin >= 0 else ())
        out.append(_Group(md.k, twin, i, net, slots, md.sac, md.life, md.ab_life, md.nonland, md.weight))
    for i, md in enumerate(modes):
        if i not in taken:
            out.append(_Group(md.k, i, -1, len(md.slots), md.slots, md.sac, md.life, md.ab_life,
                              md.nonland, md.weight))
    out.sort(key=lambda g: (g.weight, g.conv < 0))
    return out


class _OutOfNodes(Exception):
    """The node budget ran out."""


class _Search:
    """The branch and bound of one problem over group counts (see the module docstring)."""

    def __init__(self, problem: Problem, criteria: tuple[str, ...], modes: list[ConverterMode],
                 keep: KeepTerms) -> None:
        self.p = problem
        self.sup = problem.supply
        self.criteria = criteria
        self.modes = modes
        self.groups = _groups(modes)
        self.keep = keep
        self.cap = [cls.count for cls in self.sup.classes]
        self.used = [0] * len(self.cap)
        self.gcounts = [0] * len(self.groups)
        #: Over ``groups[d:]``: the most and the least units one activation adds net, and the
        #: least board weight.
        self.max_net = [max(g.net for g in self.groups[d:]) for d in range(len(self.groups))]
        self.min_net = [min(g.net for g in self.groups[d:]) for d in range(len(self.groups))]
        self.min_weight = [min(g.weight for g in self.groups[d:]) for d in range(len(self.groups))]
        self.best: tuple[int, ...] | None = None
        #: With no payment found yet: cut only the nodes whose bound exceeds this (see run).
        self.ceiling: tuple[int, ...] | None = None
        #: The least bound cut past the ceiling in this pass, the tie-break open.
        self.raised: tuple[int, ...] | None = None
        #: The least bound cut past the ceiling in this pass, as it was: a pass's payment is
        #: the whole search's when it is below this (or nothing was cut).
        self.cut_least: tuple[int, ...] | None = None
        #: The floating mana: all of it (``use_pool`` counts what is left), the units of a type
        #: some symbol of a form or some converter's cost takes (the rest can only stay) and
        #: how many, and which way the firing test counts what it spends (:func:`pool_direction`).
        self.pool_total = self.sup.pool_total
        takes = 0
        for form in problem.forms:
            takes |= ANY_TYPE if form.generic(problem.x or 0) else 0
            for mask, _n in form.demands:
                takes |= mask
        for md in modes:
            takes |= md.need
        self.pool = tuple((b, n) for b, n in self.sup.pool if b & takes)
        self.pool_useful = sum(n for _, n in self.pool)
        #: The floating mana no payment spends: ``use_pool``'s floor.
        self.pool_kept = self.pool_total - self.pool_useful
        self.direction = pool_direction(criteria) if self.pool_total else 0
        #: The node budget of the pass.
        self.budget = MAX_NODES
        #: The keep terms with no member used (keep_castable, keep_colors).
        self.root_keep = (0, 0)
        self.plan: tuple[int, list[int], list[tuple[int, int]]] | None = None
        self.nodes = 0
        #: Firing-test steps of the whole query, against :data:`MAX_STEPS`.
        self.steps = [0]
        self.keep_castable = "keep_castable" in criteria
        self.keep_colors = "keep_colors" in criteria
        self.terms = KeepTracker(keep, self.keep_castable, self.keep_colors)
        #: Where each criterion (then the tie-break) reads its term in a node's values.
        self.vidx = [_TERMS.index(c) for c in criteria] + [_TERMS.index("tiebreak")]

    def vector(self, vals: list[int]) -> tuple[int, ...]:
        """The policy's vector of the terms ``vals`` (in :data:`_TERMS` order)."""
        return tuple([vals[i] for i in self.vidx])

    def run(self) -> bool:
        """Search every form; False when the node budget ran out.

        First passes keep only payments whose vector is at most a *ceiling*: a node whose
        bound exceeds it is cut, one that ties it is not, so when a pass finds a payment the
        optimum is within the ceiling and the pass found the same first least payment the
        whole search would.  The first ceiling is :meth:`_FormRun.floor`'s least over the
        forms (what a payment could score if nothing cost more than the counts force), the
        next the least bound a pass cut (the optimum is below a cut node), the tie-break
        left open in each; after :data:`CEILING_PASSES` that find nothing, or one over its
        budget, the whole search runs afresh (its own budgets)."""
        sup = self.sup
        x = self.p.x
        assert x is not None
        runs = [_FormRun(self, fi, form, form.mana_total(x), form.generic(x))
                for fi, form in enumerate(self.p.forms)
                if form.life <= sup.life and form.energy <= sup.energy]
        if not runs:
            return True
        kmask, kc = self.terms.lost(0)  # the keep terms with nothing used: every node's floor
        kcol = self.terms.colors_lost()
        self.root_keep = (kc, kcol)
        ceiling = min(r.floor() for r in runs)
        for _ in range(CEILING_PASSES):
            self.ceiling, self.raised, self.cut_least = ceiling, None, None
            self.nodes = self.steps[0] = 0
            self.budget = CEILING_NODES
            try:
                for r in runs:
                    r.dfs(0, 0, 0, 0, 0, 0, 0, 0, kmask, kc, kcol, True)
            except _OutOfNodes:
                self.best = self.plan = None
                break
            if self.plan is not None:
                assert self.best is not None
                if self.cut_least is None or self.best < self.cut_least:
                    return True
                # a payment above its bound (floating mana spent) and above a node cut: every
                # node up to it is searched next
                ceiling = self.best
                self.best = self.plan = None
                continue
            if self.raised is None:
                return True  # nothing cut past the ceiling and nothing found: no payment
            ceiling = self.raised
        self.ceiling = None
        self.best = None
        self.nodes = self.steps[0] = 0
        self.budget = MAX_NODES
        try:
            for r in runs:
                r.tried = {}
                r.dfs(0, 0, 0, 0, 0, 0, 0, 0, kmask, kc, kcol, True)
        except _OutOfNodes:
            return False
        return True

    def cut(self, v: tuple[int, ...]) -> bool:
        """Is a node of bound ``v`` cut: no better than the best payment found, or (none found
        yet) past the ceiling?  A node past the ceiling may raise the next one."""
        best = self.best
        if best is not None:
            return v >= best
        ceiling = self.ceiling
        if ceiling is None or v <= ceiling:
            return False
        w = (*v[:-1], _OPEN)
        if self.raised is None or w < self.raised:
            self.raised = w
        if self.cut_least is None or v < self.cut_least:
            self.cut_least = v
        return True


class _FormRun:
    """The depth-first search of one form over the groups' counts, with Hall's condition over
    the cost's demand kinds (each group's units as its widest mode gives them: a relaxation)."""

    def __init__(self, s: _Search, fi: int, form: Form, total: int, generic: int) -> None:
        self.s = s
        self.fi = fi
        self.form = form
        self.total = total
        self.generic = generic
        kinds = list(form.demands)
        nk = len(kinds)
        self.subsets = subsets = 1 << nk
        kmask = [0] * subsets
        self.need_t = [0] * subsets
        for t in range(1, subsets):
            low = t & -t
            kmask[t] = kmask[t ^ low] | kinds[low.bit_length() - 1][0]
            self.need_t[t] = self.need_t[t ^ low] + kinds[low.bit_length() - 1][1]
        self.rows: list[list[int]] = []
        self.future = [0] * subsets
        self.fut_net = 0
        self.useful: list[int] = []
        needs = 0
        for md in s.modes:
            needs |= md.need
        for g in s.groups:
            row = [0] * subsets
            for t in range(1, subsets):
                row[t] = sum(1 for sl in g.row_slots if sl & kmask[t])
            self.rows.append(row)
            cap = s.cap[g.k]
            for t in range(1, subsets):
                self.future[t] += row[t] * cap
            self.fut_net += g.net * cap
            um = 0
            for sl in g.row_slots:
                um |= sl
            # An optimal payment spends a unit of every activation: at most as many as the
            # demands its units may pay (units that may feed a converter: not bounded).
            self.useful.append(cap if g.conv >= 0 or um & needs else
                               generic + sum(c for m, c in kinds if m & um))
        #: The units on hand, per set of demands: the floating pool's to start with.
        self.have = [sum(c for b, c in s.pool if b & kmask[t]) if t else 0 for t in range(subsets)]
        self.tried: dict[tuple[int, ...], tuple[list[tuple[int, int]], int] | None] = {}

    def dfs(self, d: int, net: int, life: int, ab_life: int, sac: int, nonland: int, sources: int,
            tb: int, kmask: int, kc: int, kcol: int, fresh: bool) -> None:
        """One node: the counts of ``groups[:d]`` chosen, with their terms so far (``kmask``,
        ``kc``, ``kcol``: the keep terms, exact when ``fresh``, else an ancestor's: a lower
        bound, as both only grow with what is used)."""
        s = self.s
        s.nodes += 1
        if s.nodes > s.budget:
            raise _OutOfNodes
        sup = s.sup
        form = self.form
        if ab_life > sup.life or (form.life and life + form.life > sup.life):
            return
        groups = s.groups
        more = more_tb = 0
        pool = s.pool_useful
        if self.total > net + pool and d < len(groups):
            biggest = s.max_net[d]
            more = -(-(self.total - net - pool) // biggest) if biggest > 0 else 0
            more_tb = more * s.min_weight[d]
        vals = [sac, life + form.life, kc, kcol, max(0, net - self.total), nonland, sources + more,
                s.pool_kept, form.energy, tb + more_tb]
        bounded = s.best is not None or s.ceiling is not None
        if bounded:
            # the vector with the keep terms known so far bounds the node's own from below
            if s.cut(s.vector(vals)):
                return
            if not fresh:
                kmask, kc, kcol, fresh = self._keep_terms(kmask)
                vals[2] = kc
                vals[3] = kcol
                if s.cut(s.vector(vals)):
                    return
        have, fut, need_t = self.have, self.future, self.need_t
        subsets = self.subsets
        if net + pool + self.fut_net < self.total:
            return
        for t in range(1, subsets):
            if have[t] + fut[t] < need_t[t]:
                return
        if net + pool >= self.total and all(have[t] >= need_t[t] for t in range(1, subsets)):
            key = tuple(s.gcounts)
            if key in self.tried:
                found = self.tried[key]
            else:
                found = self.tried[key] = fires(s.modes, groups, s.gcounts, self.form, self.generic, s.steps,
                                                s.pool, s.direction)
            if found is not None:
                order, spent = found
                if not fresh:
                    kmask, kc, kcol, fresh = self._keep_terms(kmask)
                    vals[2] = kc
                    vals[3] = kcol
                bound = s.vector(vals)
                if s.direction:
                    # the floating mana spent: the node's own waste and pool left
                    vals[4] = net - self.total + spent
                    vals[7] = s.pool_total - spent
                own = s.vector(vals)
                if s.best is None or own < s.best:
                    s.best = own
                    s.plan = (self.fi, list(s.gcounts), order)
                if own == bound:
                    return  # nothing below does better (every term of the bound only grows)
                bounded = True
        if d == len(groups):
            return
        if not more and bounded:
            # a payment below it activates one more member at least
            vals[4] = max(0, net + s.min_net[d] - self.total)
            vals[6] = sources + 1
            vals[7] = s.pool_kept
            vals[9] = tb + s.min_weight[d]
            if s.cut(s.vector(vals)):
                return
        g = groups[d]
        row = self.rows[d]
        cap = s.cap[g.k]
        left = cap - s.used[g.k]
        for t in range(1, subsets):
            fut[t] -= row[t] * cap
        self.fut_net -= g.net * cap
        hi = min(left, self.useful[d])
        terms = s.terms
        try:
            for n in range(hi, -1, -1):
                if n:
                    s.gcounts[d] += n
                    s.used[g.k] += n
                    terms.use(g.k, n)
                    for t in range(1, subsets):
                        have[t] += row[t] * n
                    try:
                        self.dfs(d + 1, net + g.net * n, life + g.life * n, ab_life + g.ab_life * n,
                                 sac + g.sac * n, nonland + g.nonland * n, sources + n, tb + g.weight * n,
                                 kmask, kc, kcol, False)
                    finally:
                        for t in range(1, subsets):
                            have[t] -= row[t] * n
                        terms.use(g.k, -n)
                        s.used[g.k] -= n
                        s.gcounts[d] -= n
                else:
                    self.dfs(d + 1, net, life, ab_life, sac, nonland, sources, tb, kmask, kc, kcol, fresh)
        finally:
            for t in range(1, subsets):
                fut[t] += row[t] * cap
            self.fut_net += g.net * cap

    def floor(self) -> tuple[int, ...]:
        """The root's bound with the tie-break left open: the least vector a payment of this
        form may have, but for the positions of what it uses."""
        s = self.s
        short = max(0, self.total - s.pool_useful)
        more = -(-short // s.max_net[0]) if s.max_net[0] > 0 else 0
        kc, kcol = s.root_keep
        vals = [0, self.form.life, kc, kcol, 0, 0, more, s.pool_kept, self.form.energy, _OPEN]
        return s.vector(vals)

    def _keep_terms(self, kmask: int) -> tuple[int, int, int, bool]:
        """The node's own keep terms, from an ancestor's mask of kept costs lost."""
        terms = self.s.terms
        kmask, kc = terms.lost(kmask)
        return kmask, kc, terms.colors_lost(), True


def fires(modes: list[ConverterMode], groups: list[_Group], gcounts: list[int], form: Form,
          generic: int, steps: list[int] | None = None, pool: tuple[tuple[int, int], ...] = (),
          direction: int = 0) -> tuple[list[tuple[int, int]], int] | None:
    """Can the activations counted pay ``form``: converters fired in some order, each from a
    unit of the pool able to pay its symbol, a group's member that does not fire making its
    cost-free mode's mana instead?  The firing order as ``(mode, key of the unit it took)``
    pairs (a key is a mask, with :data:`POOL` for floating mana) and how much floating mana
    ``pool`` the payment spends, or None (see the module docstring).  ``direction``: 1 for
    the least floating mana spent, -1 for the most, 0 for any (the first order that pays;
    the amount then reads 0)."""
    units: Counter[int] = Counter()
    for bit, n in pool:
        units[bit | POOL] += n
    convs: list[int] = []      # converter modes
    fallback: list[int] = []   # the cost-free mode a member that does not fire uses, or -1
    remaining: list[int] = []
    for g, n in zip(groups, gcounts):
        if not n:
            continue
        if g.conv < 0:
            for sl in modes[g.free].slots:
                units[sl] += n
        else:
            convs.append(g.conv)
            fallback.append(g.free)
            remaining.append(n)
    failed: set[tuple[object, ...]] = set()
    path: list[tuple[int, int]] = []
    if steps is None:
        steps = [0]
    total = generic + form.fixed_mana
    #: The least (or most) floating mana any payment spends: reaching it ends the search.
    floor = 0
    if direction > 0:
        floor = max(0, total - sum(g.net * n for g, n in zip(groups, gcounts)))
    elif direction < 0:
        floor = -sum(n for _, n in pool)
    best: list[tuple[int, list[tuple[int, int]]]] = []
    #: Per state met: the least spent on the way to it (met again at no less: nothing new).
    seen: dict[tuple[object, ...], int] = {}

    def final() -> Counter[int] | None:
        """The units at the end: the pool's, and each member that does not fire (None when a
        converter without a cost-free mode has members left: they must fire)."""
        out = Counter(units)
        for f, r in zip(fallback, remaining):
            if r:
                if f < 0:
                    return None
                for sl in modes[f].slots:
                    out[sl] += r
        return out

    def walk(spent: int) -> bool:
        """Search from here; True when nothing can do better than what was found."""
        key = (tuple(sorted((m, c) for m, c in units.items() if c)), tuple(remaining))
        if key in failed:
            return False
        if direction:
            before = seen.get(key)
            if before is not None and before <= spent:
                return False
            seen[key] = spent
            if best and spent - (sum(c for m, c in units.items() if m & POOL) if direction < 0 else 0) >= best[0][0]:
                return False
        steps[0] += 1
        if steps[0] > MAX_STEPS:
            raise _OutOfNodes
        out = final()
        if out is not None and hall_ok([(m, False, c, 0, ()) for m, c in out.items() if c > 0], form, generic):
            if not direction:
                best.append((0, list(path)))
                return True
            value = spent + _on_cost(out, form, total, direction)
            if not best or value < best[0][0]:
                best[:] = [(value, list(path))]
                if value == floor:
                    return True
        # Relaxed: the pool, every slot still to come and the mana of every member that may
        # not fire must cover the cost.
        later: Counter[int] = Counter(units)
        for j, i in enumerate(convs):
            if remaining[j]:
                for sl in modes[i].slots:
                    later[sl] += remaining[j]
                if fallback[j] >= 0:
                    for sl in modes[fallback[j]].slots:
                        later[sl] += remaining[j]
        if not hall_ok([(m, False, c, 0, ()) for m, c in later.items() if c > 0], form, generic):
            failed.add(key)
            return False
        found = len(best)
        for j, i in enumerate(convs):
            if not remaining[j]:
                continue
            md = modes[i]
            able = [m for m, c in units.items() if c > 0 and m & md.need]
            if pool:
                able = [m for m in able if not any(o != m and _beats(m, o, direction) for o in able)]
            else:  # a wider unit is never worse to keep
                able = [m for m in able if not any(o != m and o & ~m == 0 for o in able)]
            for m in able:
                units[m] -= 1
                for sl in md.slots:
                    units[sl] += 1
                remaining[j] -= 1
                path.append((i, m))
                done = walk(spent + direction if m & POOL else spent)
                path.pop()
                remaining[j] += 1
                for sl in md.slots:
                    units[sl] -= 1
                units[m] += 1
                if done:
                    return True
        if not direction or (len(best) == found == 0):
            failed.add(key)
        return False

    walk(0)
    if not best:
        return None
    value, order = best[0]
    return order, value if direction > 0 else -value


def _on_cost(units: Counter[int] | None, form: Form, total: int, direction: int) -> int:
    """The floating mana (:data:`POOL` keys) the cost itself takes from ``units`` at the least
    (``direction`` 1), or the most (-1, negated): Hall's deficiency of the other units, or
    ``total`` less that of the pool's (Mendelsohn–Dulmage: one assignment reaches it)."""
    assert units is not None
    floating = direction < 0
    kinds = [(m, c) for m, c in units.items() if c > 0 and bool(m & POOL) == floating]
    short = total - sum(c for _, c in kinds)
    for mask, _snow, need in demand_sets(form):
        short = max(short, need - sum(c for m, c in kinds if m & mask))
    short = max(0, short)
    return short if direction > 0 else short - total


def _beats(a: int, b: int, direction: int) -> bool:
    """Is keeping a unit of key ``b`` rather than of key ``a`` never worse: ``b`` able to pay
    whatever ``a`` may, at no more cost (a floating unit costs ``direction``, ties to the lower
    key)?"""
    ma, mb = a & ~POOL, b & ~POOL
    if mb & ~ma:
        return False
    ca = direction if a & POOL else 0
    cb = direction if b & POOL else 0
    if ma != mb:
        return cb <= ca
    return cb < ca or (cb == ca and b < a)


def solve_converters(problem: Problem, criteria: tuple[str, ...]) -> Solution | bool | None:
    """The optimal payment of a board with converters (see the module docstring): a
    :class:`Solution`, False when none exists, None when declined."""
    if any(f.snow for f in problem.forms):
        return None  # {S}: the general search counts snow sources
    modes = _modes(problem)
    if modes is None:
        return None
    keep = KeepTerms(problem, criteria)
    if not keep.shape_ok:
        return None
    search = _Search(problem, criteria, modes, keep)
    if not search.run():
        return None
    if search.plan is None:
        return False
    fi, gcounts, order = search.plan
    counts = [0] * len(modes)
    fired: Counter[int] = Counter(i for i, _ in order)
    for g, n in zip(search.groups, gcounts):
        if g.conv < 0:
            counts[g.free] += n
        else:
            counts[g.conv] += fired[g.conv]
            if g.free >= 0:
                counts[g.free] += n - fired[g.conv]
    sol = converter_solution(problem, modes, fi, counts, order, search.direction)
    if sol is None:  # pragma: no cover - fires() checked the order and Hall's condition
        return None
    sol.objective = search.best or ()
    return sol
