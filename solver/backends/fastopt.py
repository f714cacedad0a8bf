"""A fast exact optimiser in plain Python over the grouped board (SPEC §8).

Branch and bound over *modes* (a class of identical permanents used a certain
way: one option, or several one-mana options with identical costs merged into
one type mask) deciding how many members activate each mode, with:

* the objective as the same lexicographic vector CP-SAT minimises (the policy's
  criteria in order, then the tie-break by board position), computed exactly
  at each leaf;
* component-wise lower bounds at every node (all terms only grow as more
  permanents are used), compared lexicographically against the incumbent, the
  costly ones (``keep_castable``) computed only when the earlier components tie;
* a Hall-condition feasibility bound per node (chosen units plus everything
  still undecided must be able to cover the form), kept incrementally over the
  subsets of the form's demand kinds;
* a stop as soon as the chosen units cover the form (more activations can only
  be worse under every supported criterion).

Activations that cost mana (filter lands, Signets) are modes whose choice adds
demands; they are decided first.  A cover counts only when their costs can be
paid by sources that cost nothing (then an order exists: free sources first); a
cover that needs them to pay one another is remembered, and if it could beat the
answer found the problem goes to CP-SAT, which models the order exactly.

It answers only what it models exactly: exclusive options without energy
costs; policies
made of ``no_sacrifice``, ``min_life``, ``keep_castable``, ``keep_colors``,
``min_waste``, ``prefer_lands``, ``min_sources``, ``use_pool``, ``min_energy``
(no caller weights, no ``spend_color``/``max_colors_spent``); fixed X.  Anything
else, or a search longer than :data:`NODE_BUDGET` nodes, is declined (``None``)
and goes to CP-SAT.  Tests check its optimum against CP-SAT's on random boards.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from manasolver.models.errors import Unsupported
from manasolver.solver.announce import Form, announce
from manasolver.solver.backends.base import Problem, Solution
from manasolver.solver.backends.complement import ComplementSearch
from manasolver.solver.backends.flow import UnitKind, hall_ok, solution_from_units
from manasolver.solver.policy import keep_costs
from manasolver.solver.supply import restriction_pays_abilities

__all__ = ["COSTLY_NODE_BUDGET", "MAX_COSTLY_KINDS", "NODE_BUDGET", "SUPPORTED", "FastOptBackend",
           "evaluate"]

#: Nodes explored before the search gives the problem to CP-SAT.
NODE_BUDGET = 1500
#: The same with activations that cost mana (Signets, filter lands): such boards are
#: usually answered faster by CP-SAT than by a long search here.
COSTLY_NODE_BUDGET = 600
#: With activations that cost mana, the most demand kinds (the cost's and the activation
#: costs') the search takes on.
MAX_COSTLY_KINDS = 4
SUPPORTED = frozenset({"no_sacrifice", "min_life", "keep_castable", "keep_colors", "min_waste",
                       "prefer_lands", "min_sources", "use_pool", "min_energy"})
COLOR_BITS = (1, 2, 4, 8, 16)


@dataclass(frozen=True, slots=True)
class _Mode:
    k: int                 # class index (-1: the pool)
    options: tuple[tuple[int, int], ...]   # (type bit or 0, option index): which option makes a type
    masks: tuple[int, ...]  # unit masks one activation adds
    snow: bool
    sac: int
    life: int               # life paid plus damage taken per activation
    ab_life: int            # life paid per activation (119.4 check)
    nonland: int
    weight: int             # tie-break weight (board position + 1)
    costs: tuple[tuple[int, int], ...] = ()  # its activation's mana cost: (mask, n); mask -2 generic
    pays_ability: bool = True  # its mana may pay an activation's mana cost


def _pays_ability(opt: Any) -> bool:
    """May this option's mana pay a mana ability's activation cost (as CP-SAT reads it)?"""
    return restriction_pays_abilities(opt.restriction)


def _cost_kinds(opt: Any) -> tuple[tuple[int, int], ...] | None:
    """An option's mana cost as ``(mask, n)`` pairs (``-2``: generic), or None if unmodelled."""
    out: dict[int, int] = {}
    for sym in opt.mana_cost.symbols:
        if sym.special:
            continue
        if sym.is_numeral:
            if sym.generic:
                out[-2] = out.get(-2, 0) + sym.generic
            continue
        if sym.phyrexian or sym.snow or sym.variable or sym.generic:
            return None
        mask = sym.colors | (32 if sym.colorless else 0)
        out[mask] = out.get(mask, 0) + 1
    return tuple(sorted(out.items()))


class _Search(ComplementSearch):
    """The branch and bound for one problem (see the module docstring)."""

    def __init__(self, problem: Problem, criteria: tuple[str, ...]) -> None:
        self.p = problem
        self.sup = problem.supply
        self.criteria = criteria
        self.nodes = 0
        self.best: tuple[int, ...] | None = None
        self.best_plan: tuple[int, list[int]] | None = None
        self.uncertain: tuple[int, ...] | None = None
        self.budget = NODE_BUDGET
        self.modes: list[_Mode] = []
        self.class_cap: list[int] = [k.count for k in self.sup.classes]
        self._keep_cache: dict[tuple[int, ...], int] = {}
        self._prepare_keep()

    # -- supply shape ---------------------------------------------------------------------
    def build_modes(self) -> bool:
        """Turn the supply into modes; False when a class is outside the modelled shape.

        One-mana options with identical costs merge into one mode of their union mask;
        every other option is a mode of its own; a class's modes share its members."""
        for bit, _n in self.sup.pool:
            self.modes.append(_Mode(-1, ((bit, -1),), (bit,), False, 0, 0, 0, 0, 0))
        self.costly = False
        for k, cls in enumerate(self.sup.classes):
            ok = self.p.spell_ok[k]
            usable = [(o, opt) for o, opt in enumerate(cls.options) if ok[o]]
            for o, opt in enumerate(cls.options):
                if not opt.exclusive or opt.energy or opt.tap_creatures:
                    return False
                if not ok[o] and _pays_ability(opt):
                    self.restricted_ability_mana = True
            if not usable:
                continue
            nonland = 0 if cls.kind == "land" else 1
            weight = cls.positions[0] + 1
            groups: dict[tuple[int, int, int, bool], list[tuple[int, Any]]] = {}
            for o, opt in usable:
                if len(opt.slots) == 1 and opt.free:
                    key = (int(opt.sacrifice), opt.life + opt.damage, opt.life, _pays_ability(opt))
                    groups.setdefault(key, []).append((o, opt))
                    continue
                costs = _cost_kinds(opt)
                if costs is None:
                    return False
                if costs:
                    self.costly = True
                self.modes.append(_Mode(k, ((0, o),), opt.slots, cls.snow, int(opt.sacrifice),
                                        opt.life + opt.damage, opt.life, nonland, weight,
                                        costs, _pays_ability(opt)))
            for (sac, life, ab_life, pays), members in sorted(groups.items()):
                mask = 0
                pick: list[tuple[int, int]] = []
                for o, opt in members:
                    for b in (1, 2, 4, 8, 16, 32):
                        if opt.slots[0] & b and not mask & b:
                            pick.append((b, o))
                    mask |= opt.slots[0]
                self.modes.append(_Mode(k, tuple(pick), (mask,), cls.snow, sac, life, ab_life,
                                        nonland, weight, (), pays))
        if self.costly and getattr(self, "restricted_ability_mana", False):
            return False  # restricted mana that could still pay activations: CP-SAT decides
        # The pool first, then modes whose activation costs mana (so that every cost is
        # known before the free sources are counted), then the rest in board order.
        self.modes.sort(key=lambda md: (md.k >= 0, not md.costs, md.weight, len(md.masks)))
        return True

    # -- keep terms ---------------------------------------------------------------------
    def _prepare_keep(self) -> None:
        sup = self.sup
        self.keep_forms: list[list[Form]] = []
        if "keep_castable" in self.criteria:
            for cost in keep_costs(self.p.policy, self.p.req.state, sup.player):
                try:
                    forms = [f for f in announce(cost, 0).forms if f.life <= sup.life and not f.energy]
                except Unsupported:
                    continue
                if forms:
                    self.keep_forms.append(forms)
        # Units each class offers to keep_castable (free, exclusive, unrestricted options).
        self.keep_units: list[list[tuple[int, bool, int]]] = []  # per class: (mask, snow, per member)
        self.keep_shape_ok = True
        for cls in sup.classes:
            opts = [o for o in cls.options if o.free and o.exclusive and o.restriction is None]
            if not opts:
                self.keep_units.append([])
            elif all(len(o.slots) == 1 for o in opts):
                m = 0
                for o in opts:
                    m |= o.slots[0]
                self.keep_units.append([(m, cls.snow, 1)])
            elif len(opts) == 1:
                self.keep_units.append([(s, cls.snow, opts[0].slots.count(s))
                                        for s in sorted(set(opts[0].slots))])
            else:
                self.keep_units.append([])
                if self.keep_forms:
                    self.keep_shape_ok = False
        # Colors some free option could still make (restricted ones too, as CP-SAT counts).
        self.class_colors = [0] * len(sup.classes)
        for k, cls in enumerate(sup.classes):
            for o in cls.options:
                if o.free:
                    self.class_colors[k] |= o.union & 31
        self.able_colors = 0
        for m in self.class_colors:
            self.able_colors |= m
        self.color_makers: list[list[int]] = []
        for bit in COLOR_BITS:
            makers = [k for k, cls in enumerate(sup.classes)
                      if any(o.free and o.union & bit for o in cls.options)]
            if makers:
                self.color_makers.append(makers)

    def keep_lost(self, used: list[int]) -> int:
        """How many keep_castable costs the members left unused can no longer pay."""
        if not self.keep_forms:
            return 0
        key = tuple(used)
        hit = self._keep_cache.get(key)
        if hit is not None:
            return hit
        units: list[UnitKind] = []
        for k, per in enumerate(self.keep_units):
            left = self.class_cap[k] - used[k]
            if left > 0:
                for m, snow, mult in per:
                    units.append((m, snow, left * mult, k, ()))
        lost = 0
        for forms in self.keep_forms:
            if not any(hall_ok(units, f, f.generic(0)) for f in forms):
                lost += 1
        self._keep_cache[key] = lost
        return lost

    def colors_lost_bound(self, decided_kept: int, gains: list[int], k_left: int) -> int:
        """A lower bound on colors lost when ``decided_kept`` (a color mask) is kept for
        sure and at most ``k_left`` more classes, with color masks ``gains``, stay untapped."""
        able = self.able_colors
        kept = decided_kept & able
        fresh = {g & able & ~kept for g in gains} - {0}
        if k_left <= 2 and len(fresh) <= 40:
            # Few units left to keep: the best one or two classes, exactly.
            best = 0
            opts = list(fresh)
            for i, a in enumerate(opts):
                best = max(best, a.bit_count())
                if k_left == 2:
                    for b in opts[i + 1:]:
                        best = max(best, (a | b).bit_count())
            return max(0, able.bit_count() - kept.bit_count() - best)
        extra = sorted((g.bit_count() for g in fresh), reverse=True)[:k_left]
        union = 0
        for g in fresh:
            union |= g
        ub = kept.bit_count() + min(sum(extra), union.bit_count())
        return max(0, able.bit_count() - ub)

    def colors_lost(self, used: list[int]) -> int:
        return sum(1 for makers in self.color_makers
                   if all(used[k] >= self.class_cap[k] for k in makers))

    # -- search ------------------------------------------------------------------------------
    def run(self) -> bool:
        """Search every form; False when the node budget ran out."""
        sup = self.sup
        x = self.p.x
        assert x is not None
        for fi, form in enumerate(self.p.forms):
            if form.life > sup.life or form.energy > sup.energy:
                continue
            if self._complement_fits(form, x):
                if not self._complement_form(fi, form, x):
                    return False
            elif not self._search_form(fi, form, x):
                return False
        return True

    def _search_form(self, fi: int, form: Form, x: int) -> bool:
        """The forward search: how many members activate each mode (module docstring)."""
        modes = self.modes
        nm = len(modes)
        # Demand kinds: the form's mask demands and snow, then the masks of activation costs
        # (only mana that may pay abilities) and their generic part; ``need`` grows as
        # activations with mana costs are chosen (filter lands, Signets).
        kinds: list[tuple[int, bool]] = [(m, False) for m, _ in form.demands]
        base: list[int] = [c for _, c in form.demands]
        if form.snow:
            kinds.append((-1, False))
            base.append(form.snow)
        cost_masks = sorted({m for md in modes for m, _ in md.costs})
        for m in cost_masks:
            kinds.append((m if m != -2 else -3, True))
            base.append(0)
        nk = len(kinds)
        subsets = 1 << nk
        kind_of_cost = {m: nk - len(cost_masks) + j for j, m in enumerate(cost_masks)}

        def pays(md: _Mode, unit: int, j: int, restricted: bool) -> bool:
            m, ability = kinds[j]
            if ability:
                if not md.pays_ability or (restricted and md.costs):
                    return False
                return m == -3 or bool(unit & m)
            return (md.snow if m == -1 else bool(unit & m))

        contrib: list[list[int]] = []
        contrib_r: list[list[int]] = []
        cost_row: list[list[int]] = []
        cost_total: list[int] = []
        for md in modes:
            row = [0] * subsets
            row_r = [0] * subsets
            crow = [0] * subsets
            for t in range(1, subsets):
                js = [j for j in range(nk) if t >> j & 1]
                row[t] = sum(1 for u in md.masks if any(pays(md, u, j, False) for j in js))
                row_r[t] = sum(1 for u in md.masks if any(pays(md, u, j, True) for j in js))
                crow[t] = sum(n for m, n in md.costs if t >> kind_of_cost[m] & 1)
            contrib.append(row)
            contrib_r.append(row_r)
            cost_row.append(crow)
            cost_total.append(sum(n for _, n in md.costs))
        need = [0] * subsets
        for t in range(1, subsets):
            need[t] = sum(base[j] for j in range(nk) if t >> j & 1)
        size = [len(md.masks) for md in modes]
        caps = [self._mode_cap(i) for i in range(nm)]
        costly = any(cost_total)
        undecided = [0] * subsets
        und_total = 0
        for i in range(nm):
            for t in range(1, subsets):
                undecided[t] += contrib[i][t] * caps[i]
            und_total += size[i] * caps[i]
        have = [0] * subsets
        have_r = [0] * subsets
        counts = [0] * nm
        used = [0] * len(self.sup.classes)
        pool_used = 0
        life_form = form.life
        spell_total = form.mana_total(x)
        state = {"sac": 0, "life": life_form, "ab_life": 0, "nonland": 0, "sources": 0,
                 "tb": 0, "units": 0, "need": spell_total, "overshoot": 0}
        pool_total = self.sup.pool_total
        sup_life = self.sup.life
        n_pool = sum(1 for md in modes if md.k < 0)
        # Mana that may go unspent: at most all but one unit of each multi-mana activation.
        slack = sum((size[i] - 1) * caps[i] for i in range(nm) if size[i] > 1)
        suf_size = [0] * (nm + 1)
        for i in range(nm - 1, -1, -1):
            suf_size[i] = max(suf_size[i + 1], size[i] if modes[i].k >= 0 and caps[i] else 0)
        by_weight = sorted((i for i in range(nm) if modes[i].k >= 0 and caps[i]),
                           key=lambda i: modes[i].weight)
        by_unit_cost = [sorted((i for i in range(nm) if modes[i].k >= 0 and caps[i]
                                and contrib[i][t]), key=lambda i: modes[i].weight / contrib[i][t])
                        for t in range(subsets)]
        pool_modes = [(i, md.masks[0]) for i, md in enumerate(modes) if md.k < 0]
        generic_spell = form.generic(x)
        # The most units of each demand set one undecided activation can add (suffix max),
        # and the demand sets the bounds look at (small ones: cheap, and still valid).
        suf_best = [[0] * (nm + 1) for _ in range(subsets)]
        for t in range(1, subsets):
            for i in range(nm - 1, -1, -1):
                c = contrib[i][t] if modes[i].k >= 0 else 0
                suf_best[t][i] = max(suf_best[t][i + 1], c)
        bound_sets = [t for t in range(1, subsets) if t.bit_count() <= 2 or t == subsets - 1]

        def covered(table: list[int]) -> bool:
            if state["units"] < state["need"]:
                return False
            return all(need[t] <= table[t] for t in range(1, subsets))

        def pool_fits() -> bool:
            """Every chosen pool unit can be spent (pool-side Hall; with the demand side
            covered, Mendelsohn–Dulmage gives one assignment saturating both)."""
            chosen = [(counts[i], m) for i, m in pool_modes if counts[i]]
            if not chosen:
                return True
            generic = generic_spell + sum(counts[i] * n for i, md in enumerate(modes)
                                          for m, n in md.costs if m == -2)
            for sub in range(1, 1 << len(chosen)):
                units = 0
                mask = 0
                for j, (n, m) in enumerate(chosen):
                    if sub >> j & 1:
                        units += n
                        mask |= m
                room = generic + sum(c for m, c in form.demands if m & mask)
                room += sum(counts[i] * n for i, md in enumerate(modes)
                            for m, n in md.costs if m != -2 and m & mask)
                if units > room:
                    return False
            return True

        def vector(final: bool, i: int) -> tuple[int, ...]:
            more = 0  # activations still needed, at least (lower bound)
            tb_more = 0
            if not final and i >= n_pool:
                room = state["need"] - state["units"]
                if room > 0 and suf_size[i]:
                    more = -(-room // suf_size[i])
                    tb_more = tb_bound(i, more)
                    for t in bound_sets:
                        d = need[t] - have[t]
                        if d > 0:
                            acts, cost = deficit_bound(i, t, d)
                            more = max(more, acts)
                            tb_more = max(tb_more, cost)
            out: list[int] = []
            for name in self.criteria:
                if name == "no_sacrifice":
                    out.append(state["sac"])
                elif name == "min_life":
                    out.append(state["life"])
                elif name == "keep_castable":
                    out.append(-1)  # computed lazily, only when earlier terms tie
                elif name == "keep_colors":
                    out.append(self.colors_lost(used))
                elif name == "min_waste":
                    out.append(state["units"] - state["need"] if final else 0)
                elif name == "prefer_lands":
                    out.append(state["nonland"])
                elif name == "min_sources":
                    out.append(state["sources"] + more)
                elif name == "use_pool":
                    out.append(pool_total - pool_used if final or i >= n_pool else 0)
                elif name == "min_energy":
                    out.append(form.energy)
            out.append(state["tb"] + tb_more)
            return tuple(out)

        def deficit_bound(i: int, t: int, d: int) -> tuple[int, int]:
            """At least how many activations, and how much tie-break weight, covering ``d``
            more units of demand set ``t`` takes from the modes still undecided
            (fractional, cheapest per unit first: a valid lower bound)."""
            cost = 0.0
            best_per = 0
            left = d
            for j in by_unit_cost[t]:
                if j < i:
                    continue
                c = contrib[j][t]
                best_per = max(best_per, c)
                take = min(left, caps[j] * c)
                cost += take * modes[j].weight / c
                left -= take
                if left <= 0:
                    break
            if left > 0:
                return 1 << 30, 1 << 60  # cannot be covered: any bound prunes
            return -(-d // max(1, suf_best[t][i])), int(cost)

        def tb_bound(i: int, more: int) -> int:
            """The least tie-break weight ``more`` further activations can add."""
            total = 0
            for j in by_weight:
                if j < i:
                    continue
                take = min(more, caps[j])
                total += take * modes[j].weight
                more -= take
                if not more:
                    break
            return total

        def no_better(vec: tuple[int, ...]) -> bool:
            """Is this (lower bound) vector no better than the incumbent, lexicographically?"""
            best = self.best
            if best is None:
                return False
            for j, v in enumerate(vec):
                if v == -1:
                    v = self.keep_lost(used)
                if v != best[j]:
                    return v > best[j]
            return True

        def apply(i: int, md: _Mode, d: int) -> None:
            nonlocal pool_used
            counts[i] += d
            row = contrib[i]
            row_r = contrib_r[i]
            crow = cost_row[i]
            for t in range(1, subsets):
                have[t] += row[t] * d
                have_r[t] += row_r[t] * d
                need[t] += crow[t] * d
            state["units"] += size[i] * d
            state["overshoot"] += max(0, size[i] - 1) * d
            state["need"] += cost_total[i] * d
            if md.k < 0:
                pool_used += d
                return
            used[md.k] += d
            state["sac"] += md.sac * d
            state["life"] += md.life * d
            state["ab_life"] += md.ab_life * d
            state["nonland"] += md.nonland * d
            state["sources"] += d
            state["tb"] += md.weight * d

        def life_ok() -> bool:
            if state["ab_life"] > sup_life:
                return False  # 119.4
            return not (life_form and state["life"] > sup_life)

        def dfs(i: int) -> bool:
            nonlocal und_total
            self.nodes += 1
            if self.nodes > self.budget:
                return False
            uncertain = False
            if covered(have):
                if not costly or covered(have_r):
                    if pool_fits():
                        vec = vector(True, i)
                        if not no_better(vec):
                            self.best = tuple(self.keep_lost(used) if v == -1 else v for v in vec)
                            self.best_plan = (fi, list(counts))
                    return True
                # Covered only if activations with mana costs pay one another's costs: legal
                # or not depending on an order this search does not model.  Remember its
                # score (nothing built on it scores better); if it could beat the answer
                # found, the problem goes to CP-SAT.
                uncertain = True
                vec = tuple(self.keep_lost(used) if v == -1 else v for v in vector(True, i))
                if self.uncertain is None or vec < self.uncertain:
                    self.uncertain = vec
            units = state["units"]
            total_need = state["need"]
            if i == nm or units + und_total < total_need:
                return True
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
            if no_better(vector(False, i)):
                return True
            md = modes[i]
            cap_i = caps[i]
            left = cap_i if md.k < 0 else min(cap_i, self.class_cap[md.k] - used[md.k])
            row = contrib[i]
            for t in range(1, subsets):
                undecided[t] -= row[t] * cap_i
            und_total -= size[i] * cap_i
            # Mana a multi-mana activation adds beyond what it pays may go unspent (Sol
            # Ring paying {1}), so it doesn't count against what is still needed.
            room = max(0, total_need - units + state["overshoot"])
            if uncertain:
                room = max(1, max(need[t] - have_r[t] for t in range(1, subsets)))
            net = size[i] - cost_total[i]
            hi = left if net <= 0 else min(left, -(-room // net))
            ok = True
            # Modes with mana costs (decided first, before any free source) are tried from
            # none upwards; the others from as many as are useful downwards.
            for n in (range(hi + 1) if md.costs else range(hi, -1, -1)):
                if n:
                    apply(i, md, n)
                    if life_ok():
                        ok = dfs(i + 1)
                    apply(i, md, -n)
                else:
                    ok = dfs(i + 1)
                if not ok:
                    break
            und_total += size[i] * cap_i
            for t in range(1, subsets):
                undecided[t] += row[t] * cap_i
            return ok

        return dfs(0)

    def _mode_cap(self, i: int) -> int:
        md = self.modes[i]
        if md.k < 0:
            bit = md.masks[0]
            return dict(self.sup.pool)[bit]
        return self.class_cap[md.k]


class FastOptBackend:
    """The plain-Python exact optimiser; ``None`` when it declines (see module docstring)."""

    name = "fastopt"

    def solve(self, problem: Problem) -> Solution | bool | None:
        if problem.mode not in ("optimal", "feasible") or problem.x is None or problem.has_assists:
            return None  # convoke/improvise/delve: CP-SAT decides them with the mana
        pol = problem.policy
        if pol.weights or pol.spend_color or any(c not in SUPPORTED for c in pol.criteria):
            return None
        criteria = pol.criteria if problem.mode == "optimal" else ("min_sources",)
        search = _Search(problem, criteria)
        if not search.build_modes() or not search.keep_shape_ok:
            return None
        if search.costly:
            search.budget = COSTLY_NODE_BUDGET
            kinds = len({m for md in search.modes for m, _ in md.costs}) + max(
                len(f.demands) + (1 if f.snow else 0) for f in problem.forms)
            if kinds > MAX_COSTLY_KINDS:
                return None  # 2^kinds demand sets per node: CP-SAT is faster here
        if not search.run():
            return None
        if search.uncertain is not None and (search.best is None or search.uncertain < search.best):
            return None  # a circular-looking cover might be better: CP-SAT decides
        if search.best_plan is None:
            return False
        fi, counts = search.best_plan
        units: list[UnitKind] = []
        cost_ok: list[bool] = []
        extra: list[tuple[tuple[object, ...], int, int]] = []
        forced: dict[tuple[int, int], int] = {}
        for md, n in zip(search.modes, counts):
            if not n:
                continue
            for m in sorted(set(md.masks)):
                units.append((m, md.snow, n * md.masks.count(m), md.k, md.options))
                cost_ok.append(md.pays_ability and not md.costs)
            if md.costs:
                o = md.options[0][1]
                forced[(md.k, o)] = n
                for m, c in md.costs:
                    extra.append((("cost", md.k, o, m), m, n * c))
        sol = solution_from_units(problem, units, fi, problem.x, tuple(extra), tuple(cost_ok),
                                  forced)
        if sol is None:  # pragma: no cover - the search checked Hall's condition
            return None
        sol.objective = search.best or ()
        return sol


def evaluate(problem: Problem, sol: Solution, criteria: tuple[str, ...]) -> tuple[int, ...]:
    """The objective vector of any backend's solution, as the fast optimiser scores it
    (for tests comparing optima)."""
    search = _Search(problem, criteria)
    used = [0] * len(problem.supply.classes)
    sac = life = nonland = tb = produced = 0
    for k, _m, o in sol.acts:
        opt = problem.supply.classes[k].options[o]
        used[k] += 1
        sac += int(opt.sacrifice)
        life += opt.life + opt.damage
        nonland += problem.supply.classes[k].kind != "land"
        tb += problem.supply.classes[k].positions[0] + 1
        produced += len(opt.slots)
    form = problem.forms[sol.form]
    spent_act = sum(n for src, _b, _d, n in sol.spend if src[0] == "act")
    pool_spent = sum(n for src, _b, _d, n in sol.spend if src[0] == "pool")
    out: list[int] = []
    for name in criteria:
        out.append({
            "no_sacrifice": sac, "min_life": life + form.life,
            "keep_castable": search.keep_lost(used) if name == "keep_castable" else 0,
            "keep_colors": search.colors_lost(used), "min_waste": produced - spent_act,
            "prefer_lands": nonland, "min_sources": len(sol.acts),
            "use_pool": problem.supply.pool_total - pool_spent, "min_energy": form.energy,
        }[name])
    out.append(tb)
    return tuple(out)
