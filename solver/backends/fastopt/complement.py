"""The complement search of the fast optimiser: which units stay unused.

When a cost needs most of the board (a 300-land board paying 298 mana), the forward
search over how many members of each class to *use* has a large tree, while the members
left *unused* are few.  This search decides those instead, heaviest (latest on the
board) first, with the same lexicographic vector and lower bounds: colors still
producible by the few untapped units (exact for one or two), the tie-break off the
heaviest remaining members, Hall's condition on what is used.  It applies when every
class is one single-mana mode (:meth:`ComplementSearch.fits`; the forward search handles
the rest); a greedy first answer (most new colors, then latest) makes the bounds bite
from the start.  Up to :data:`SMALL_SPARE` units left unused, every choice is scored
instead.  The search that holds it passes the modes of each pass; the incumbent and the
node budget are shared with it.
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Callable, Iterator

from manasolver.solver.backends.fastopt.incumbent import Incumbent
from manasolver.solver.backends.fastopt.keep import KeepTerms
from manasolver.solver.backends.fastopt.modes import Mode, mode_cap
from manasolver.solver.backends.fastopt.tables import SNOW
from manasolver.solver.casting.announce import Form
from manasolver.solver.policy import criteria_vector
from manasolver.solver.supply.model import Supply

__all__ = ["SMALL_SPARE", "ComplementSearch"]

#: Up to this many units left unused, every choice of them is scored (no search).
SMALL_SPARE = 2


class ComplementSearch:
    """The complement search of one board under one policy (see the module docstring),
    updating the shared incumbent ``inc``."""

    def __init__(self, sup: Supply, criteria: tuple[str, ...], keep: KeepTerms,
                 inc: Incumbent) -> None:
        self.sup = sup
        self.criteria = criteria
        self.keep = keep
        self.inc = inc

    def fits(self, modes: list[Mode], form: Form, x: int) -> bool:
        """Should ``form`` be searched here?  When the unused units are fewer than the used
        ones (costs that need most of the board) and every class is one single-mana mode."""
        seen: set[int] = set()
        total = 0
        for md in modes:
            if len(md.masks) != 1 or (md.k >= 0 and md.k in seen):
                return False
            if md.k >= 0:
                seen.add(md.k)
            total += mode_cap(md, self.sup)
        spare = total - form.mana_total(x)
        return 0 <= spare < form.mana_total(x)

    def search(self, fi: int, form: Form, x: int, modes: list[Mode]) -> bool:
        """Search the units left unused of ``form`` over ``modes``; False when the node
        budget ran out."""
        return _UnusedSearch(self, fi, form, x, modes).run()

    def terms(self, form: Form, sac: int, life: int, used: list[int], colors: Callable[[], int],
              nonland: int, sources: int, pool_unused: int, tb: int) -> dict[str, int]:
        """The policy's terms for a payment's totals; ``used``: members used per
        class; ``colors``: the colors lost, computed only when the policy counts them."""
        crit = self.criteria
        return {"no_sacrifice": sac, "min_life": life + form.life,
                "keep_castable": self.keep.keep_lost(used) if "keep_castable" in crit else 0,
                "keep_colors": colors() if "keep_colors" in crit else 0,
                "min_waste": 0, "prefer_lands": nonland, "min_sources": sources,
                "use_pool": pool_unused, "min_energy": form.energy, "tiebreak": tb}


class _UnusedSearch:
    """The complement search of one form: ``u[i]`` units of mode ``i`` left unused, decided
    heaviest first (``order``), ``unused`` per demand set; Hall's condition asks that what
    stays used still covers every demand set."""

    def __init__(self, owner: ComplementSearch, fi: int, form: Form, x: int,
                 modes: list[Mode]) -> None:
        sup = owner.sup
        self.owner = owner
        self.inc = owner.inc
        self.keep = owner.keep
        self.criteria = owner.criteria
        self.fi = fi
        self.form = form
        self.x = x
        self.modes = modes
        self.n_classes = len(sup.classes)
        nm = self.nm = len(modes)
        caps = self.caps = [mode_cap(md, sup) for md in modes]
        self.spare = sum(caps) - form.mana_total(x)
        kinds: list[tuple[int, int]] = list(form.demands)
        if form.snow:
            kinds.append((SNOW, form.snow))
        nk = len(kinds)
        subsets = self.subsets = 1 << nk
        need = self.need = [0] * subsets
        full = self.full = [0] * subsets
        rows: list[list[int]] = []
        for md in modes:
            row = [0] * subsets
            for t in range(1, subsets):
                for j in range(nk):
                    if t >> j & 1:
                        m = kinds[j][0]
                        if (m == SNOW and md.snow) or (m > 0 and md.masks[0] & m):
                            row[t] = 1
                            break
            rows.append(row)
        self.rows = rows
        for t in range(1, subsets):
            need[t] = sum(kinds[j][1] for j in range(nk) if t >> j & 1)
            full[t] = sum(rows[i][t] * caps[i] for i in range(nm))
        self.unused = [0] * subsets
        self.order = sorted(range(nm), key=lambda i: -modes[i].weight)  # latest permanents first
        self.u = [0] * nm
        self.decided = [False] * nm
        self.sup_life = sup.life
        self.pool_total = sup.pool_total
        self.sac_a = [md.sac for md in modes]
        self.life_a = [md.life for md in modes]
        self.nonland_a = [md.nonland for md in modes]
        self.weight_a = [md.weight for md in modes]
        self.act = [i for i in range(nm) if modes[i].k >= 0]
        kept_static = 0
        in_modes = {modes[i].k for i in self.act}
        for k in range(self.n_classes):
            if k not in in_modes:
                kept_static |= self.keep.class_colors[k]
        self.kept_static = kept_static

    def run(self) -> bool:
        """Search the form; False when the node budget ran out."""
        need, full = self.need, self.full
        if any(need[t] > full[t] for t in range(1, self.subsets)):
            return True  # this form can't be paid at all
        if self.spare <= SMALL_SPARE:
            return self.every_choice()
        self.warm_start()
        return self.dfs(0, self.spare)

    def score(self, per_mode: list[int]) -> tuple[int, ...]:
        """The criteria vector of using ``per_mode`` units of each mode; ``()`` when the
        player can't pay its life."""
        modes = self.modes
        per_class = [0] * self.n_classes
        sac = life = ab_life = nonland = sources = tb = pool_used = 0
        for i, md in enumerate(modes):
            n = per_mode[i]
            if md.k < 0:
                pool_used += n
                continue
            per_class[md.k] += n
            sac += md.sac * n
            life += md.life * n
            ab_life += md.ab_life * n
            nonland += md.nonland * n
            sources += n
            tb += md.weight * n
        form = self.form
        sup_life = self.sup_life
        if ab_life > sup_life or (form.life and life + form.life > sup_life):
            return ()
        return criteria_vector(self.owner.terms(
            form, sac, life, per_class, functools.partial(self.keep.colors_lost, per_class),
            nonland, sources, self.pool_total - pool_used, tb), self.criteria)

    def leaf(self) -> None:
        """Score the units left unused (``u``, every mode decided) against the incumbent."""
        modes = self.modes
        nm = self.nm
        caps = self.caps
        u = self.u
        per_mode = [caps[i] - u[i] for i in range(nm)]
        pool_ok = _pool_side_ok(self.form, self.x, [(per_mode[i], modes[i].masks[0])
                                                    for i in range(nm) if modes[i].k < 0])
        vec = self.score(per_mode) if pool_ok else ()
        inc = self.inc
        if vec and (inc.best is None or vec < inc.best):
            inc.best = vec
            inc.plan = (self.fi, per_mode)

    def lb_components(self, k_left: int) -> Iterator[int]:
        """The lower-bound vector with ``k_left`` units still to leave unused, one component
        at a time (computed lazily)."""
        caps, u, decided, act, modes = self.caps, self.u, self.decided, self.act, self.modes
        keep = self.keep
        per_mode = [caps[i] - u[i] if decided[i] else max(0, caps[i] - k_left)
                    for i in range(self.nm)]
        for name in self.criteria:
            if name == "no_sacrifice":
                sac_a = self.sac_a
                yield sum(sac_a[i] * per_mode[i] for i in act)
            elif name == "min_life":
                life_a = self.life_a
                yield sum(life_a[i] * per_mode[i] for i in act) + self.form.life
            elif name == "keep_castable":
                per_class = [0] * self.n_classes
                for i in act:
                    per_class[modes[i].k] += per_mode[i]
                yield keep.keep_lost(per_class)
            elif name == "keep_colors":
                kept = self.kept_static
                gains = []
                for i in act:
                    if decided[i]:
                        if u[i]:
                            kept |= keep.class_colors[modes[i].k]
                    else:
                        gains.append(keep.class_colors[modes[i].k])
                yield keep.colors_lost_bound(kept, gains, k_left)
            elif name == "prefer_lands":
                nonland_a = self.nonland_a
                yield sum(nonland_a[i] * per_mode[i] for i in act)
            elif name == "min_sources":
                yield sum(per_mode[i] for i in act)
            elif name == "min_energy":
                yield self.form.energy
            else:  # min_waste (none here) and use_pool (only known at the end)
                yield 0
        weight_a = self.weight_a
        tb = sum(weight_a[i] * per_mode[i] for i in act)
        budget = k_left
        for i in self.order:  # heaviest first: the unused units come off the heaviest
            if decided[i] or modes[i].k < 0:
                continue
            rest = caps[i] - per_mode[i]
            off = min(rest, budget)
            tb += (rest - off) * modes[i].weight
            budget -= off
        yield tb

    def lb_no_better(self, k_left: int) -> bool:
        """Is nothing below this node better than the incumbent?"""
        best, strict = self.inc.bar()
        if best is None:
            return False
        for j, v in enumerate(self.lb_components(k_left)):
            if v != best[j]:
                return bool(v > best[j])
        return not strict

    def dfs(self, pos: int, k_left: int) -> bool:
        """Decide the units left unused of ``order[pos]`` and after, ``k_left`` in all."""
        inc = self.inc
        inc.nodes += 1
        if inc.nodes > inc.budget:
            return False
        need, full, unused, subsets = self.need, self.full, self.unused, self.subsets
        for t in range(1, subsets):
            if need[t] > full[t] - unused[t]:
                return True
        if k_left == 0 or pos == self.nm:
            if not k_left:
                self.leaf()
            return True
        if self.lb_no_better(k_left):
            return True
        i = self.order[pos]
        u, decided, row = self.u, self.decided, self.rows[i]
        decided[i] = True
        ok = True
        for n in range(min(self.caps[i], k_left), -1, -1):
            u[i] = n
            for t in range(1, subsets):
                unused[t] += row[t] * n
            ok = self.dfs(pos + 1, k_left - n)
            for t in range(1, subsets):
                unused[t] -= row[t] * n
            if not ok:
                break
        u[i] = 0
        decided[i] = False
        return ok

    def every_choice(self) -> bool:
        """Every way to leave ``spare`` (at most :data:`SMALL_SPARE`) units unused, scored
        exactly: for a cost that needs all but one or two units of a large board this is
        fewer steps than a search proving its bounds (the tie-break rarely bounds well).
        Each choice is scored as the totals of using everything minus what it leaves."""
        inc = self.inc
        keep = self.keep
        fi, form, x, modes, caps, rows = self.fi, self.form, self.x, self.modes, self.caps, self.rows
        need, full, spare, order = self.need, self.full, self.spare, self.order
        nm = len(modes)
        subsets = len(need)
        # Demand sets with less room than ``spare`` units: only these can fail Hall's test.
        tight = [t for t in range(1, subsets) if full[t] - need[t] < spare]
        totals = {"sac": 0, "life": 0, "ab_life": 0, "nonland": 0, "sources": 0, "tb": 0,
                  "pool": 0}
        used_all = [0] * self.n_classes
        for i, md in enumerate(modes):
            n = caps[i]
            if md.k < 0:
                totals["pool"] += n
                continue
            used_all[md.k] += n
            totals["sac"] += md.sac * n
            totals["life"] += md.life * n
            totals["ab_life"] += md.ab_life * n
            totals["nonland"] += md.nonland * n
            totals["sources"] += n
            totals["tb"] += md.weight * n
        sup_life = self.sup_life
        pool_total = self.pool_total
        # Latest permanents first: the first best of equal vectors wins, as in the search.
        for combo in itertools.combinations_with_replacement(order, spare):
            inc.nodes += 1
            if inc.nodes > inc.budget:
                return False
            if spare == 2 and combo[0] == combo[1] and caps[combo[0]] < 2:
                continue
            if any(sum(rows[i][t] for i in combo) > full[t] - need[t] for t in tight):
                continue
            off = [m for m in (modes[i] for i in combo)]
            pool_left = sum(1 for md in off if md.k < 0)
            if pool_left:
                per_pool = [(caps[i] - combo.count(i), modes[i].masks[0])
                            for i in range(nm) if modes[i].k < 0]
                if not _pool_side_ok(form, x, per_pool):
                    continue
            sac = totals["sac"] - sum(md.sac for md in off if md.k >= 0)
            life = totals["life"] - sum(md.life for md in off if md.k >= 0)
            ab_life = totals["ab_life"] - sum(md.ab_life for md in off if md.k >= 0)
            if ab_life > sup_life or (form.life and life + form.life > sup_life):
                continue
            used = list(used_all)
            for md in off:
                if md.k >= 0:
                    used[md.k] -= 1
            vec = criteria_vector(self.owner.terms(
                form, sac, life, used, functools.partial(keep.colors_lost, used),
                totals["nonland"] - sum(md.nonland for md in off if md.k >= 0),
                totals["sources"] - sum(1 for md in off if md.k >= 0), pool_total - totals["pool"] + pool_left,
                totals["tb"] - sum(md.weight for md in off if md.k >= 0)), self.criteria)
            if inc.best is None or vec < inc.best:
                inc.best = vec
                inc.plan = (fi, [caps[i] - combo.count(i) for i in range(nm)])
        return True

    def warm_start(self) -> None:
        """A first answer for the complement search, so its bounds bite early: leave
        untapped, one unit at a time, the class adding the most colors still producible
        (then the latest on the board), as long as the rest still pays the cost."""
        keep = self.keep
        modes, caps, rows, need, full = self.modes, self.caps, self.rows, self.need, self.full
        order, u = self.order, self.u
        subsets = len(need)
        unused = [0] * subsets
        kept = 0
        for k, cm in enumerate(keep.class_colors):
            if not any(md.k == k for md in modes):
                kept |= cm
        left = self.spare
        while left > 0:
            best_i = -1
            best_key: tuple[int, int] | None = None
            for i in order:
                if u[i] >= caps[i]:
                    continue
                if any(need[t] > full[t] - unused[t] - rows[i][t] for t in range(1, subsets)):
                    continue
                gain = (keep.class_colors[modes[i].k] & ~kept).bit_count() if modes[i].k >= 0 else -1
                key = (gain, modes[i].weight)
                if best_key is None or key > best_key:
                    best_i, best_key = i, key
            if best_i < 0:
                break
            u[best_i] += 1
            for t in range(1, subsets):
                unused[t] += rows[best_i][t]
            if modes[best_i].k >= 0:
                kept |= keep.class_colors[modes[best_i].k]
            left -= 1
        if left == 0:
            self.leaf()
        for i in range(len(u)):
            u[i] = 0


def _pool_side_ok(form: Form, x: int, chosen: list[tuple[int, int]]) -> bool:
    """Every chosen pool unit can be spent on the form (pool-side Hall)."""
    chosen = [(n, m) for n, m in chosen if n]
    g = form.generic(x)
    for sub in range(1, 1 << len(chosen)):
        units = mask = 0
        for j, (n, m) in enumerate(chosen):
            if sub >> j & 1:
                units += n
                mask |= m
        if units > g + sum(c for m, c in form.demands if m & mask):
            return False
    return True

