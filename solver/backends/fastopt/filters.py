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
  every term of the policy (SPEC §6) is monotone in the counts, so a node's own vector is a
  lower bound for everything below it and a node that pays is a leaf;
* a node is tried when its units cover the cost by count and by Hall's condition over the
  cost's demand kinds (converter inputs left out: a relaxation);
* whether a count vector really pays is decided exactly by :func:`fires`: a search over the
  order of the converters' activations, on the pool as a multiset of masks (a unit keeps
  every type it may still become), each converter taking a unit able to pay its symbol —
  only the minimal masks among those able, as a wider unit is never worse to keep — and
  putting its slots in; the pool left pays the cost by Hall's condition.  Every legal
  payment is such an order (CR 601.2g: each activation is paid from what the pool holds
  then), so the test is exact, states memoised.

:func:`solve_converters` answers ``None`` (the general search then decides) for what it does
not model: floating mana, options that cost energy or other permanents, restricted mana,
snow symbols, repeatable options, and mana costs that are not one converter symbol.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from itertools import combinations_with_replacement

from manasolver.models.symbols import TYPE_BITS
from manasolver.solver.backends.fastopt.keep import KeepTerms
from manasolver.solver.backends.matching import UnitKind, hall_ok, transport
from manasolver.solver.backends.problem import Problem, Solution, lowest_bit
from manasolver.solver.casting.announce import Form
from manasolver.solver.policy import criteria_vector
from manasolver.solver.pools.keepable import converter_input
from manasolver.solver.supply.model import Option, SourceClass

__all__ = ["MAX_NODES", "MAX_STEPS", "fires", "solve_converters"]

#: Nodes of the branch and bound before it gives the problem back (``None``).
MAX_NODES = 6_000
#: Steps of one exact firing test before the search gives the problem back.
MAX_STEPS = 2_000


@dataclass(frozen=True, slots=True)
class _Mode:
    """One way to use members of class ``k``: ``slots`` (unit masks one activation adds),
    ``need`` (the converter's input mask; 0 for a cost-free mode), the option per type for a
    merged one-mana mode (``pick``), or the options of a converter (``opts``, by their slot
    multisets), and its terms per activation."""

    k: int
    slots: tuple[int, ...]
    need: int
    pick: tuple[tuple[int, int], ...]
    opts: tuple[tuple[tuple[int, ...], int], ...]
    sac: int
    life: int
    ab_life: int
    nonland: int
    weight: int


def _types(mask: int) -> list[int]:
    return [b for b in TYPE_BITS if mask & b]


def _converter(cls: SourceClass, k: int, costly: list[tuple[int, Option]], nonland: int) -> _Mode | None:
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
    return _Mode(k, slots, need, (), opts, int(first.sacrifice), first.life + first.damage,
                 first.life, nonland, cls.positions[0] + 1)


def _modes(problem: Problem) -> list[_Mode] | None:
    """The supply's modes, converters first; None when outside the modelled shape."""
    sup = problem.supply
    if sup.pool:
        return None
    out: list[_Mode] = []
    free_modes: list[_Mode] = []
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
                free_modes.append(_Mode(k, opt.slots, 0, ((0, o),), (), int(opt.sacrifice),
                                        opt.life + opt.damage, opt.life, nonland, weight))
        for (sac, life, ab_life), members in sorted(groups.items()):
            mask = 0
            pick: list[tuple[int, int]] = []
            for o, opt in members:
                for b in TYPE_BITS:
                    if opt.slots[0] & b and not mask & b:
                        pick.append((b, o))
                mask |= opt.slots[0]
            free_modes.append(_Mode(k, (mask,), 0, tuple(pick), (), sac, life, ab_life, nonland, weight))
        if costly:
            conv = _converter(cls, k, costly, nonland)
            if conv is None:
                return None
            out.append(conv)
            any_converter = True
    if not any_converter:
        return None
    return out + free_modes


class _Search:
    """The branch and bound of one problem (see the module docstring)."""

    def __init__(self, problem: Problem, criteria: tuple[str, ...], modes: list[_Mode],
                 keep: KeepTerms) -> None:
        self.p = problem
        self.sup = problem.supply
        self.criteria = criteria
        self.modes = modes
        self.keep = keep
        self.cap = [cls.count for cls in self.sup.classes]
        self.used = [0] * len(self.cap)
        self.counts = [0] * len(modes)
        self.best: tuple[int, ...] | None = None
        self.plan: tuple[int, list[int], list[tuple[int, int]]] | None = None
        self.nodes = 0
        self.keep_castable = "keep_castable" in criteria
        self.keep_colors = "keep_colors" in criteria

    # -- terms --------------------------------------------------------------------------

    def vector(self, form: Form, units: int, need: int, more: int = 0, more_tb: int = 0) -> tuple[int, ...]:
        """The policy's vector of the counts chosen; a lower bound below this node (``more``
        activations at least ``more_tb`` of tie-break weight still to come)."""
        sac = life = nonland = 0
        sources = more
        tb = more_tb
        for md, n in zip(self.modes, self.counts):
            if n:
                sac += md.sac * n
                life += md.life * n
                nonland += md.nonland * n
                sources += n
                tb += md.weight * n
        terms = {"no_sacrifice": sac, "min_life": life + form.life,
                 "keep_castable": self.keep.keep_lost(self.used) if self.keep_castable else 0,
                 "keep_colors": self.keep.colors_lost(self.used) if self.keep_colors else 0,
                 "min_waste": max(0, units - need), "prefer_lands": nonland, "min_sources": sources,
                 "use_pool": 0, "min_energy": form.energy, "tiebreak": tb}
        return criteria_vector(terms, self.criteria)

    # -- the search ---------------------------------------------------------------------

    def run(self) -> bool:
        """Search every form; False when the node budget ran out."""
        sup = self.sup
        x = self.p.x
        assert x is not None
        self.n_conv = sum(1 for md in self.modes if md.need)
        for fi, form in enumerate(self.p.forms):
            if form.life > sup.life or form.energy > sup.energy or form.snow:
                continue
            run = _FormRun(self, fi, form, form.mana_total(x), form.generic(x))
            if not run.converters(0, 0, form.mana_total(x), 0, 0):
                return False
        return True


class _FormRun:
    """The depth-first search of one form: the converters' counts first, then, for each
    choice of them, the cost-free modes against the cost's demand kinds and the converters'
    input masks (Hall's condition, relaxed: converters may pay one another)."""

    def __init__(self, s: _Search, fi: int, form: Form, total: int, generic: int) -> None:
        self.s = s
        self.fi = fi
        self.form = form
        self.total = total
        self.generic = generic
        self.tried: dict[tuple[int, ...], list[tuple[int, int]] | None] = {}
        self.tables: dict[tuple[int, ...], tuple[list[int], dict[int, list[int]], list[int], int,
                                                 dict[int, int]]] = {}
        self.free_types = 0
        for md in s.modes:
            if not md.need:
                for sl in md.slots:
                    self.free_types |= sl
        caps = [s.cap[md.k] for md in s.modes]
        self.free_max = sum(len(md.slots) * c for md, c in zip(s.modes, caps) if not md.need)
        #: The most units the converters from mode i on may add beyond their inputs.
        self.conv_net = [0] * (len(s.modes) + 1)
        for i in range(len(s.modes) - 1, -1, -1):
            md = s.modes[i]
            self.conv_net[i] = self.conv_net[i + 1] + ((len(md.slots) - 1) * caps[i] if md.need else 0)
        # A converter whose symbol neither a cost-free mode nor another converter can pay
        # never fires.
        self.possible = [bool(md.need & (self.free_types | _slots_of(s.modes, i))) if md.need else True
                         for i, md in enumerate(s.modes)]

    def _table(self, masks: tuple[int, ...]) -> tuple[list[int], dict[int, list[int]], list[int], int,
                                                       dict[int, int]]:
        """What the cost-free phase reads for one list of demand masks: the union mask of each
        set of kinds, each free mode's units able to pay each set, the sums over every member,
        and each mode's union mask (0 when it can pay no kind and there is no generic part)."""
        s = self.s
        subsets = 1 << len(masks)
        kmask = [0] * subsets
        for t in range(1, subsets):
            low = t & -t
            kmask[t] = kmask[t ^ low] | masks[low.bit_length() - 1]
        every = kmask[subsets - 1]
        rows: dict[int, list[int]] = {}
        future = [0] * subsets
        fut_units = 0
        useful: dict[int, int] = {}
        for j in range(s.n_conv, len(s.modes)):
            md = s.modes[j]
            row = [0] * subsets
            for t in range(1, subsets):
                row[t] = sum(1 for sl in md.slots if sl & kmask[t])
            rows[j] = row
            cap = s.cap[md.k]
            for t in range(1, subsets):
                future[t] += row[t] * cap
            fut_units += len(md.slots) * cap
            um = 0
            for sl in md.slots:
                um |= sl
            useful[j] = um if (um & every or self.generic) else 0
        return kmask, rows, future, fut_units, useful

    def pruned(self, units: int, need: int, life: int, ab_life: int, more: int = 0,
               more_tb: int = 0) -> tuple[int, ...] | None:
        """The node's vector, or None when nothing below it can pay or beat the answer found."""
        s = self.s
        s.nodes += 1
        if s.nodes > MAX_NODES:
            raise _OutOfNodes
        sup = s.sup
        if ab_life > sup.life or (self.form.life and life + self.form.life > sup.life):
            return None
        vec = s.vector(self.form, units, need, more, more_tb)
        if s.best is not None and vec >= s.best:
            return None
        return vec

    def converters(self, i: int, units: int, need: int, life: int, ab_life: int) -> bool:
        try:
            self._converters(i, units, need, life, ab_life)
        except _OutOfNodes:
            return False
        return True

    def _converters(self, i: int, units: int, need: int, life: int, ab_life: int) -> None:
        s = self.s
        if self.pruned(units, need, life, ab_life) is None:
            return
        if units + self.free_max + self.conv_net[i] < need:
            return
        if i == s.n_conv:
            self._free_phase(units, need, life, ab_life)
            return
        md = s.modes[i]
        left = s.cap[md.k] - s.used[md.k] if self.possible[i] else 0
        size = len(md.slots)
        for n in range(0, left + 1):
            s.counts[i] += n
            s.used[md.k] += n
            self._converters(i + 1, units + size * n, need + n, life + md.life * n, ab_life + md.ab_life * n)
            s.used[md.k] -= n
            s.counts[i] -= n

    def _free_phase(self, units: int, need: int, life: int, ab_life: int) -> None:
        s = self.s
        modes = s.modes
        active = [(md, s.counts[j]) for j, md in enumerate(modes[:s.n_conv]) if s.counts[j]]
        # Every converter counted must be reachable from some cost-free type.
        fed = self.free_types
        waiting = [md for md, _ in active]
        grew = True
        while waiting and grew:
            grew = False
            rest = []
            for md in waiting:
                if md.need & fed:
                    for sl in md.slots:
                        fed |= sl
                    grew = True
                else:
                    rest.append(md)
            waiting = rest
        if waiting:
            return
        # The converters' inputs as one demand kind of their union mask: Hall's condition over
        # fewer kinds is implied by the one over all of them (a relaxation, and few tables).
        in_mask = in_count = 0
        for md, n in active:
            in_mask |= md.need
            in_count += n
        kinds = list(self.form.demands) + ([(in_mask, in_count)] if in_count else [])
        nk = len(kinds)
        subsets = 1 << nk
        masks = tuple(m for m, _ in kinds)
        table = self.tables.get(masks)
        if table is None:
            table = self.tables[masks] = self._table(masks)
        kmask, rows, future0, fut_units, useful0 = table
        need_t = [0] * subsets
        for t in range(1, subsets):
            low = t & -t
            need_t[t] = need_t[t ^ low] + kinds[low.bit_length() - 1][1]
        have = [0] * subsets
        for md, n in active:
            for sl in md.slots:
                for t in range(1, subsets):
                    if sl & kmask[t]:
                        have[t] += n
        free = list(range(s.n_conv, len(modes)))
        future = list(future0)
        # An optimal payment spends a unit of every activation (one that spends none only adds
        # waste and sources): at most as many as the demands its units may pay.
        useful = {j: self.generic + sum(c for (m, c) in kinds if m & um) if um else 0
                  for j, um in useful0.items()}
        run = _FreeRun(self, free, rows, have, future, fut_units, need_t, useful)
        run.dfs(0, units, need, life, ab_life)


def _slots_of(modes: list[_Mode], skip: int) -> int:
    """Every type the converters other than mode ``skip`` may add."""
    out = 0
    for i, md in enumerate(modes):
        if md.need and i != skip:
            for sl in md.slots:
                out |= sl
    return out


class _OutOfNodes(Exception):
    """The node budget ran out."""


class _FreeRun:
    """The cost-free modes' part of one choice of converters."""

    def __init__(self, fr: _FormRun, free: list[int], rows: dict[int, list[int]], have: list[int],
                 future: list[int], fut_units: int, need_t: list[int], useful: dict[int, int]) -> None:
        self.fr = fr
        self.free = free
        self.rows = rows
        self.have = have
        self.future = future
        self.fut_units = fut_units
        self.need_t = need_t
        self.subsets = len(need_t)
        self.useful = useful

    def dfs(self, d: int, units: int, need: int, life: int, ab_life: int) -> None:
        fr = self.fr
        s = fr.s
        more = more_tb = 0
        if need > units and d < len(self.free):
            rest = self.free[d:]
            biggest = max(len(s.modes[j].slots) for j in rest)
            more = -(-(need - units) // biggest) if biggest else 0
            more_tb = more * min(s.modes[j].weight for j in rest)
        vec = fr.pruned(units, need, life, ab_life, more, more_tb)
        if vec is None:
            return
        have, fut, need_t = self.have, self.future, self.need_t
        subsets = self.subsets
        if units + self.fut_units < need:
            return
        for t in range(1, subsets):
            if have[t] + fut[t] < need_t[t]:
                return
        if units >= need and all(have[t] >= need_t[t] for t in range(1, subsets)):
            key = tuple(s.counts)
            if key in fr.tried:
                order = fr.tried[key]
            else:
                order = fr.tried[key] = fires(s.modes, s.counts, fr.form, fr.generic)
            if order is not None:
                s.best = vec
                s.plan = (fr.fi, list(s.counts), order)
                return
        if d == len(self.free):
            return
        i = self.free[d]
        md = s.modes[i]
        row = self.rows[i]
        cap = s.cap[md.k]
        left = s.cap[md.k] - s.used[md.k]
        size = len(md.slots)
        for t in range(1, subsets):
            fut[t] -= row[t] * cap
        self.fut_units -= size * cap
        hi = min(left, self.useful[i])
        for n in range(hi, -1, -1):
            if n:
                s.counts[i] += n
                s.used[md.k] += n
                for t in range(1, subsets):
                    have[t] += row[t] * n
                self.dfs(d + 1, units + size * n, need, life + md.life * n, ab_life + md.ab_life * n)
                for t in range(1, subsets):
                    have[t] -= row[t] * n
                s.used[md.k] -= n
                s.counts[i] -= n
            else:
                self.dfs(d + 1, units, need, life, ab_life)
        for t in range(1, subsets):
            fut[t] += row[t] * cap
        self.fut_units += size * cap


def fires(modes: list[_Mode], counts: list[int], form: Form, generic: int) -> list[tuple[int, int]] | None:
    """Can the converters counted fire in some order so that the pool left pays ``form``?
    The order as ``(mode, mask of the unit it took)`` pairs, or None (see the module
    docstring)."""
    pool: Counter[int] = Counter()
    convs: list[int] = []
    for i, (md, n) in enumerate(zip(modes, counts)):
        if not n:
            continue
        if md.need:
            convs.append(i)
        else:
            for sl in md.slots:
                pool[sl] += n
    remaining = [counts[i] for i in convs]
    failed: set[tuple[object, ...]] = set()
    path: list[tuple[int, int]] = []

    def pays() -> bool:
        units: list[UnitKind] = [(m, False, c, 0, ()) for m, c in pool.items() if c > 0]
        return hall_ok(units, form, generic)

    steps = [0]

    def walk() -> bool:
        if not any(remaining):
            return pays()
        key = (tuple(sorted((m, c) for m, c in pool.items() if c)), tuple(remaining))
        if key in failed:
            return False
        steps[0] += 1
        if steps[0] > MAX_STEPS:
            raise _OutOfNodes
        # Relaxed: the pool and every slot still to come must cover the cost.
        later: Counter[int] = Counter(pool)
        for j, i in enumerate(convs):
            if remaining[j]:
                for sl in modes[i].slots:
                    later[sl] += remaining[j]
        net = sum(pool.values()) + sum(r * (len(modes[i].slots) - 1) for r, i in zip(remaining, convs))
        if net < generic + form.fixed_mana or not hall_ok(
                [(m, False, c, 0, ()) for m, c in later.items() if c > 0 and m], form, generic):
            failed.add(key)
            return False
        for j, i in enumerate(convs):
            if not remaining[j]:
                continue
            md = modes[i]
            able = [m for m, c in pool.items() if c > 0 and m & md.need]
            able = [m for m in able if not any(o != m and o & ~m == 0 for o in able)]
            for m in able:
                pool[m] -= 1
                for sl in md.slots:
                    pool[sl] += 1
                remaining[j] -= 1
                path.append((i, m))
                if walk():
                    return True
                path.pop()
                remaining[j] += 1
                for sl in md.slots:
                    pool[sl] -= 1
                pool[m] += 1
        failed.add(key)
        return False

    return list(path) if walk() else None


def solve_converters(problem: Problem, criteria: tuple[str, ...]) -> Solution | bool | None:
    """The optimal payment of a board with converters (see the module docstring): a
    :class:`Solution`, False when none exists, None when declined."""
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
    fi, counts, order = search.plan
    sol = _solution(problem, modes, fi, counts, order)
    if sol is None:  # pragma: no cover - fires() checked the order and Hall's condition
        return None
    sol.objective = search.best or ()
    return sol


@dataclass(slots=True)
class _Unit:
    """One unit of mana of a payment being written: its mask, the activation and slot it
    comes from, the type it takes and where it goes (None: it floats)."""

    mask: int
    act: int
    slot: int
    bit: int = 0
    dst: tuple[object, ...] | None = None


def _solution(problem: Problem, modes: list[_Mode], fi: int, counts: list[int],
              order: list[tuple[int, int]]) -> Solution | None:
    """The payment of a count vector along the firing order found."""
    sup = problem.supply
    form = problem.forms[fi]
    x = problem.x
    assert x is not None
    units: list[_Unit] = []
    acts: list[tuple[int, int]] = []  # (mode, member) per activation
    member: dict[int, int] = {}
    by_mask: dict[int, list[int]] = {}

    def activate(i: int) -> int:
        md = modes[i]
        a = len(acts)
        m = member.get(md.k, 0)
        member[md.k] = m + 1
        acts.append((i, m))
        for si, sl in enumerate(md.slots):
            by_mask.setdefault(sl, []).append(len(units))
            units.append(_Unit(sl, a, si))
        return a

    for i, (md, n) in enumerate(zip(modes, counts)):
        if not md.need:
            for _ in range(n):
                activate(i)
    for i, m in order:
        u = by_mask[m].pop()
        a = activate(i)
        units[u].bit = lowest_bit(m & modes[i].need)
        units[u].dst = ("cost", a)
    kinds = [mask for mask, left in by_mask.items() if left]
    rows = transport([(mask, False, len(by_mask[mask])) for mask in kinds], form, x)
    if rows is None:
        return None
    for ui, dkey, bit, n in rows:
        for _ in range(n):
            u = by_mask[kinds[ui]].pop()
            units[u].bit = bit
            units[u].dst = dkey
    for unit in units:
        if not unit.bit:
            unit.bit = lowest_bit(unit.mask)
    # Each activation's option, from the types its units took.
    per_act: dict[int, list[_Unit]] = {}
    for unit in units:
        per_act.setdefault(unit.act, []).append(unit)
    option: list[int] = []
    for a, (i, _m) in enumerate(acts):
        md = modes[i]
        mine = sorted(per_act[a], key=lambda u: u.slot)
        if md.opts:
            types = tuple(sorted(u.bit for u in mine))
            o = next((o for sl, o in md.opts if sl == types), md.opts[0][1])
        elif md.pick[0][0] == 0:
            o = md.pick[0][1]
        else:
            o = next((o for b, o in md.pick if b == mine[0].bit), md.pick[0][1])
        option.append(o)
    spend: list[tuple[tuple[object, ...], int, tuple[object, ...], int]] = []
    for unit in units:
        i, _m = acts[unit.act]
        k = modes[i].k
        o = option[unit.act]
        opt = sup.classes[k].options[o]
        dst = unit.dst
        if dst is None:
            continue
        if dst[0] == "cost":
            ca = int(str(dst[1]))
            ci, _cm = acts[ca]
            dst = ("cost", modes[ci].k, option[ca], modes[ci].need)
        if modes[i].opts:
            slot_mask = unit.bit
        elif modes[i].pick[0][0] == 0:
            slot_mask = opt.slots[unit.slot]
        else:
            slot_mask = opt.slots[0]
        spend.append((("act", k, o, slot_mask), unit.bit, dst, 1))
    sol_acts = [(modes[i].k, m, option[a]) for a, (i, m) in enumerate(acts)]
    return Solution(fi, x, sol_acts, spend)
