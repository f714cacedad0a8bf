"""The forward search of one form: how many members activate each mode.

A depth-first branch and bound over the modes in search order (the pool, then the modes
whose activation costs mana, then the free sources in board order), deciding the number
of activations of one mode per level, with:

* the objective as the same lexicographic vector CP-SAT minimises, computed exactly at
  each leaf; below a node, the linear criteria (packed as the digits of one integer, see
  :mod:`~manasolver.solver.backends.fastopt.linear`) are bounded by the cheapest units per
  mana still undecided, for the whole cost and for small sets of its demand kinds, and a
  nested covering bound; ``keep_castable`` and ``keep_colors`` are bounded by what is
  already used, and computed only when the earlier components tie;
* Hall's condition per node over the subsets of the form's demand kinds (chosen units
  plus everything still undecided must be able to cover the form), kept incrementally;
* the greedy plan of the tables tried first at every level, so the first dive finds a
  good incumbent;
* a stop as soon as the chosen units cover the form (more activations can only be worse,
  except that with ``use_pool`` before ``min_waste`` and ``min_sources`` floating mana may
  be sunk into activation costs).

A cover counts only when the activations' mana costs are paid by sources that cost
nothing or by the pool; a cover that needs them to pay one another is remembered in the
incumbent as *uncertain* (CP-SAT decides it when it could beat the answer found).
"""

from __future__ import annotations

from manasolver.solver.backends.fastopt.incumbent import Incumbent
from manasolver.solver.backends.fastopt.keep import KeepTerms
from manasolver.solver.backends.fastopt.linear import COLORS_LOST, KEEP_LOST, POOL, WASTE, LinearCosts, lin_digits
from manasolver.solver.backends.fastopt.modes import GENERIC_COST, Mode
from manasolver.solver.backends.fastopt.tables import Tables
from manasolver.solver.casting.announce import Form

__all__ = ["FormSearch"]



class FormSearch:
    """One forward search of form ``fi`` over ``modes`` with the tables ``tab``; the
    running totals of the activations chosen are its attributes, changed by
    :meth:`apply` on the way down and back."""

    __slots__ = ("ab_life", "act_cost", "after_waste", "bound_sets", "by_unit_set", "by_unit_total",
                 "caps", "class_cap", "codes", "contrib", "contrib_r", "contrib_t", "cost_row",
                 "cost_total", "costly", "counts", "criteria", "done", "fi", "first_free", "first_plan", "form",
                 "generic_spell", "have", "have_r", "inc", "keep", "ks", "life", "life_form", "lin",
                 "modes", "most_size", "n_pool", "nd", "need", "need_total", "nm", "overshoot",
                 "plan", "pool_modes", "pool_sink", "pool_total", "pool_used", "reach", "scale",
                 "size", "skip", "slack", "stop_at", "subsets", "sup_life", "und_total", "undecided", "units",
                 "used", "waste_at")

    def __init__(self, fi: int, form: Form, x: int, modes: list[Mode], tab: Tables,
                 inc: Incumbent, keep: KeepTerms, lin: LinearCosts, criteria: tuple[str, ...],
                 sup_life: int, pool_total: int, skip_free_only: bool,
                 plan: list[int] | None = None) -> None:
        self.fi = fi
        self.form = form
        self.modes = modes
        self.ks = [md.k for md in modes]  # each mode's class, read in the bounds' inner loops
        self.nm = len(modes)
        self.inc = inc
        self.keep = keep
        self.class_cap = keep.class_cap
        self.criteria = criteria
        self.subsets = tab.subsets
        self.contrib = tab.contrib
        self.contrib_r = tab.contrib_r
        self.cost_row = tab.cost_row
        self.cost_total = tab.cost_total
        self.size = tab.size
        self.caps = tab.caps
        self.costly = tab.costly
        self.n_pool = tab.n_pool
        self.slack = tab.slack
        self.pool_modes = tab.pool_modes
        self.bound_sets = tab.bound_sets
        self.contrib_t = tab.contrib_t
        self.reach = tab.reach
        self.act_cost = tab.act_cost
        self.scale = tab.scale
        self.by_unit_total = tab.by_unit_total
        self.by_unit_set = tab.by_unit_set
        self.plan = plan if plan is not None else tab.first_plan()  # the first dive's
        self.first_free = tab.first_free
        self.need = list(tab.need)
        self.undecided = list(tab.undecided)
        self.und_total = tab.und_total
        self.generic_spell = form.generic(x)
        self.pool_total = pool_total
        self.sup_life = sup_life
        self.have = [0] * tab.subsets
        self.have_r = [0] * tab.subsets
        self.counts = [0] * self.nm
        self.used = [0] * len(keep.class_cap)
        self.pool_used = 0
        self.life_form = form.life
        self.life = form.life
        self.ab_life = 0
        self.units = 0
        self.need_total = form.mana_total(x)
        self.overshoot = 0
        # The linear criteria (counted per activation) as digits of one integer, in the
        # policy's order, the tie-break last: a fractional relaxation of that integer is a
        # lexicographic lower bound (see linear.lin_digits).
        self.codes = lin.codes
        self.nd = len(lin.names)
        self.lin = form.life * lin.place.get("min_life", 0)
        self.skip = skip_free_only
        #: A vector known to be the least of this search's tree: the search ends at the
        #: first payment it reaches with it (nothing after it could replace it).
        self.stop_at: tuple[int, ...] | None = None
        #: A feasibility question: the search ends at the first payment it reaches.
        self.first_plan = False
        self.done = False
        crit = criteria
        # Where min_waste stands in the vector (-1: not counted), which packed digits come
        # after it, and the largest activation from each level on (see vector).
        self.waste_at = crit.index("min_waste") if "min_waste" in crit else -1
        self.after_waste = [self.waste_at >= 0 and (name == "tiebreak" or crit.index(name) > self.waste_at)
                            for name in lin.names]
        self.most_size = tab.most_size
        self.pool_sink = pool_total > 0 and "use_pool" in crit and all(
            crit.index("use_pool") < crit.index(c) for c in ("min_waste", "min_sources") if c in crit)

    def run(self) -> bool:
        """Search the form; False when the node budget ran out."""
        return self.dfs(0) or self.done

    def covered(self, table: list[int]) -> bool:
        """Do the chosen units (``table``: per demand set) cover the form and the costs?"""
        if self.units < self.need_total:
            return False
        need = self.need
        return all(need[t] <= table[t] for t in range(1, self.subsets))

    def pool_fits(self) -> bool:
        """Every chosen pool unit can be spent (pool-side Hall; with the demand side
        covered, Mendelsohn–Dulmage gives one assignment saturating both)."""
        counts = self.counts
        modes = self.modes
        chosen = [(counts[i], m) for i, m in self.pool_modes if counts[i]]
        if not chosen:
            return True
        generic = self.generic_spell + sum(counts[i] * n for i, md in enumerate(modes)
                                           for m, n in md.costs if m == GENERIC_COST)
        for sub in range(1, 1 << len(chosen)):
            units = 0
            mask = 0
            for j, (n, m) in enumerate(chosen):
                if sub >> j & 1:
                    units += n
                    mask |= m
            room = generic + sum(c for m, c in self.form.demands if m & mask)
            room += sum(counts[i] * n for i, md in enumerate(modes)
                        for m, n in md.costs if m != GENERIC_COST and m & mask)
            if units > room:
                return False
        return True

    def relax(self, i: int, order: list[int], per: list[int], d: int, most: int = 0) -> int:
        """The least linear cost of ``d`` more units from the modes from ``i`` on, each
        giving ``per[j]`` units per activation (fractional: a lower bound); only modes of at
        most ``most`` units an activation when ``most`` is set."""
        size = self.size
        ks = self.ks
        caps = self.caps
        class_cap = self.class_cap
        used = self.used
        act_cost = self.act_cost
        scale = self.scale
        num = 0  # in 1/scale units: activations × act_cost × scale / per
        for j in order:
            if j < i or (most and size[j] > most):
                continue
            k = ks[j]
            left = min(caps[j], class_cap[k] - used[k])
            if left <= 0:
                continue
            give = per[j]
            take = min(d, left * give)
            num += take * act_cost[j] * scale // give
            d -= take
            if d <= 0:
                return -(-num // scale)
        return -1  # cannot be covered

    def nested(self, i: int, t: int, d: int, room: int, most: int = 0) -> int:
        """The least linear cost of ``d`` more units able to pay demand set ``t`` among
        ``room`` more units in all, each unit at its share of its activation (the
        covering problem is nested, so cheapest first is exact for it: a lower bound);
        only modes of at most ``most`` units an activation when ``most`` is set."""
        ks = self.ks
        caps = self.caps
        class_cap = self.class_cap
        used = self.used
        act_cost = self.act_cost
        scale = self.scale
        size = self.size
        contrib = self.contrib
        by_unit_total = self.by_unit_total
        num = 0
        taken: dict[int, int] = {}
        want = d
        for j in by_unit_total:
            if j < i or not contrib[j][t] or (most and size[j] > most):
                continue
            k = ks[j]
            left = min(caps[j], class_cap[k] - used[k])
            if left <= 0:
                continue
            take = min(want, left * contrib[j][t])
            num += take * act_cost[j] * (scale // size[j])
            taken[j] = take
            want -= take
            if want <= 0:
                break
        if want > 0:
            return -1
        want = room - d
        for j in by_unit_total:
            if want <= 0:
                break
            if j < i or (most and size[j] > most):
                continue
            k = ks[j]
            left = min(caps[j], class_cap[k] - used[k])
            pieces = left * size[j] - taken.get(j, 0)
            if pieces <= 0:
                continue
            take = min(want, pieces)
            num += take * act_cost[j] * (scale // size[j])
            want -= take
        if want > 0:
            return -1
        return -(-num // scale)

    def extra(self, i: int, room: int, most: int) -> int:
        """The least packed linear cost of completing this node at level ``i`` (``room``
        units still owed in all), from activations of at most ``most`` units each (0: any);
        -1 when none covers the form."""
        extra = 0
        if room > 0:
            extra = self.relax(i, self.by_unit_total, self.size, room, most)
            if extra < 0:
                return -1
        need = self.need
        have = self.have
        for t in self.bound_sets:
            d = need[t] - have[t]
            if d > 0:
                got = self.relax(i, self.by_unit_set[t], self.contrib_t[t], d, most)
                if got < 0:
                    return -1
                extra = max(extra, got)
                if room > d:
                    got = self.nested(i, t, d, room, most)
                    if got < 0:
                        return -1
                    extra = max(extra, got)
        return extra

    def vector(self, final: bool, i: int) -> tuple[int, ...] | None:
        """The criteria vector of the activations chosen (``final``), or a lower bound on
        every payment below this node at level ``i``; ``None`` when none covers the form.
        ``keep_castable`` and ``keep_colors`` are left as the lazy markers :data:`KEEP_LOST`
        and :data:`COLORS_LOST` (see :meth:`resolve`).

        Below a node whose activation costs are all known (level :attr:`first_free` on),
        ``min_waste`` is at least the units chosen beyond the cost, and it is 0 only if the
        units still owed come exactly from activations no larger than them: the criteria
        after ``min_waste`` are bounded over those completions alone (a payment that wastes
        more is already worse at ``min_waste``), and when there is none, ``min_waste`` is
        at least 1.  (Gaea's Cradle's ten {G} are the cheapest mana per unit, but not for a
        payment of three that wastes nothing.)"""
        lin = self.lin
        post = lin
        waste = 0
        if not final and i >= self.n_pool:
            room = self.need_total - self.units
            extra = self.extra(i, room, 0)
            if extra < 0:
                return None
            post = lin + extra
            if self.waste_at >= 0 and i >= self.first_free:
                if room <= 0:
                    waste = -room
                elif self.most_size[i] > room:
                    exact = self.extra(i, room, room)
                    if exact < 0:
                        waste = 1
                    else:
                        post = lin + max(extra, exact)
            lin += extra
        digits = lin_digits(lin, self.nd)
        if post != lin:
            late = lin_digits(post, self.nd)
            digits = [late[j] if self.after_waste[j] else digits[j] for j in range(self.nd)]
        out: list[int] = []
        for code in self.codes:
            if code >= 0:
                out.append(digits[code])
            elif code >= COLORS_LOST:
                out.append(code)  # KEEP_LOST, COLORS_LOST: computed lazily, only when earlier terms tie
            elif code == WASTE:
                out.append(self.units - self.need_total if final else waste)
            elif code == POOL:
                out.append(self.pool_total - self.pool_used if final or i >= self.n_pool else 0)
            else:
                out.append(self.form.energy)
        out.append(digits[-1])
        return tuple(out)

    def no_better(self, vec: tuple[int, ...] | None) -> bool:
        """Is this (lower bound) vector no better than the incumbent, lexicographically?
        (``None``: nothing below this node covers the cost; against a seed, only a vector
        strictly worse: :meth:`Incumbent.bar`.)"""
        if vec is None:
            return True
        best, strict = self.inc.bar()
        if best is None:
            return False
        for j, v in enumerate(vec):
            if v < 0:
                v = self.resolve(v)
            if v != best[j]:
                return v > best[j]
        return not strict

    def resolve(self, v: int) -> int:
        """A vector component, the lazy ones (-1, -2) computed."""
        if v >= 0:
            return v
        if v == KEEP_LOST:
            return self.keep.keep_lost(self.used)
        return self.keep.colors_lost(self.used)

    def apply(self, i: int, md: Mode, d: int) -> None:
        """Add ``d`` activations of mode ``i`` (``md``) to the totals (negative: remove)."""
        self.counts[i] += d
        row = self.contrib[i]
        row_r = self.contrib_r[i]
        crow = self.cost_row[i]
        have = self.have
        have_r = self.have_r
        need = self.need
        for t in range(1, self.subsets):
            have[t] += row[t] * d
            have_r[t] += row_r[t] * d
            need[t] += crow[t] * d
        size_i = self.size[i]
        self.units += size_i * d
        self.overshoot += max(0, size_i - 1) * d
        self.need_total += self.cost_total[i] * d
        if md.k < 0:
            self.pool_used += d
            return
        self.used[md.k] += d
        self.life += md.life * d
        self.ab_life += md.ab_life * d
        self.lin += self.act_cost[i] * d

    def life_ok(self) -> bool:
        """Can the player pay the life chosen?"""
        if self.ab_life > self.sup_life:
            return False  # 119.4
        return not (self.life_form and self.life > self.sup_life)

    def dfs(self, i: int) -> bool:
        """Decide the activations of mode ``i`` and below; False when the budget ran out."""
        inc = self.inc
        inc.nodes += 1
        if inc.nodes > inc.budget:
            return False
        costly = self.costly
        first_free = self.first_free
        counts = self.counts
        if self.skip and i == first_free and not any(counts[j] for j in range(self.n_pool, first_free)):
            return True  # no costly activation: the first pass searched this
        uncertain = False
        have = self.have
        have_r = self.have_r
        if self.covered(have):
            if not costly or self.covered(have_r):
                if self.pool_fits():
                    vec = self.vector(True, i)
                    assert vec is not None
                    if not self.no_better(vec):
                        found = tuple(self.resolve(v) for v in vec)
                        if inc.ties is not None:
                            if found == inc.best:
                                inc.ties.append(list(counts))
                            else:
                                inc.ties = [list(counts)]
                        if inc.ties is None or found != inc.best:
                            inc.best = found
                            inc.plan = (self.fi, list(counts))
                        if inc.best == self.stop_at or self.first_plan:
                            self.done = True
                            return False  # unwinds the search: run() reads done
                    if not (self.pool_sink and costly and i < first_free):
                        return True
                elif not (costly and i < first_free):
                    return True
                # Floating mana chosen that the cost can't absorb: an activation cost
                # still to be decided may.
            # Covered only if activations with mana costs pay one another's costs: legal
            # or not depending on an order this search does not model.  Remember its
            # score (nothing built on it scores better); if it could beat the answer
            # found, the problem goes to CP-SAT.
            uncertain = True
            leaf = self.vector(True, i)
            assert leaf is not None
            vec = tuple(self.resolve(v) for v in leaf)
            if inc.uncertain is None or vec < inc.uncertain:
                inc.uncertain = vec
        units = self.units
        total_need = self.need_total
        if i == self.nm or units + self.und_total < total_need:
            return True
        need = self.need
        undecided = self.undecided
        subsets = self.subsets
        slack = self.slack
        for t in range(1, subsets):
            if need[t] > have[t] + undecided[t]:
                return True
            # Every chosen unit is spent (up to the multi-mana overshoot): units that
            # can't pay T must fit in the demands outside T (not with mana costs to
            # come: they add demands).
            if not costly and units - have[t] > total_need - need[t] + slack:
                return True
        if not costly and total_need + slack - units < 0:
            return True
        if self.no_better(self.vector(False, i)):
            return True
        md = self.modes[i]
        cap_i = self.caps[i]
        left = cap_i if md.k < 0 else min(cap_i, self.class_cap[md.k] - self.used[md.k])
        row = self.contrib[i]
        for t in range(1, subsets):
            undecided[t] -= row[t] * cap_i
        size_i = self.size[i]
        self.und_total -= size_i * cap_i
        # Mana a multi-mana activation adds beyond what it pays may go unspent (Sol
        # Ring paying {1}), so it doesn't count against what is still needed.
        room = max(0, total_need - units + self.overshoot)
        if uncertain:
            room = max(1, max(need[t] - have_r[t] for t in range(1, subsets)))
        net = size_i - self.cost_total[i]
        hi = left if net <= 0 else min(left, -(-room // net))
        if (md.k < 0 and costly) or md.costs:
            # The pool may pay activation costs not chosen yet (decided after it); an
            # activation with a mana cost may be worth making with enough mana chosen
            # already: to turn floating mana into colors the cost needs (Mystic Gate
            # paid with {W} from the pool for {W}{U}), or, with use_pool before
            # min_waste and min_sources, only to spend floating mana on its cost.
            hi = left
        # Each activation of an optimal payment spends at least one of its units (one
        # that spends none only adds waste, sources and tie-break weight), on a demand
        # it can pay: the form's generic part or a demand kind of its own.
        # (Known only once every activation cost is: after the modes with mana costs.)
        if i >= first_free:
            hi = min(hi, need[self.reach[i]] + self.generic_spell)
        ok = True
        # Modes with mana costs (decided first, before any free source) are tried from
        # none upwards; the others from as many as are useful downwards.
        tries = list(range(hi + 1) if md.costs else range(hi, -1, -1))
        plan_i = self.plan[i]
        if plan_i <= hi:  # the greedy plan first: an incumbent on the first dive
            tries.remove(plan_i)
            tries.insert(0, plan_i)
        for n in tries:
            if n:
                self.apply(i, md, n)
                if self.life_ok():
                    ok = self.dfs(i + 1)
                self.apply(i, md, -n)
            else:
                ok = self.dfs(i + 1)
            if not ok:
                break
        self.und_total += size_i * cap_i
        for t in range(1, subsets):
            undecided[t] += row[t] * cap_i
        return ok
