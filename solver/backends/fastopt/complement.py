"""The complement search of :mod:`~manasolver.solver.backends.fastopt`: which units stay unused.

When a cost needs most of the board (a 300-land board paying 298 mana), the
forward search over how many members of each class to *use* has a large tree,
while the members left *unused* are few.  This search decides those instead,
heaviest (latest on the board) first, with the same lexicographic vector and
lower bounds: colors still producible by the few untapped units (exact for one
or two), the tie-break off the heaviest remaining members, Hall's condition on
what is used.  It applies when every class is one single-mana mode (the forward
search handles the rest); a greedy first answer (most new colors, then latest)
makes the bounds bite from the start.
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Callable
from typing import Any

from manasolver.solver.casting.announce import Form
from manasolver.solver.backends.problem import Problem
from manasolver.solver.supply.build import Supply

__all__ = ["SMALL_SPARE", "ComplementSearch"]

#: Up to this many units left unused, every choice of them is scored (no search).
SMALL_SPARE = 2


class ComplementSearch:
    """Mixed into the fast optimiser's search; uses its modes, bounds and incumbent."""

    p: Problem
    sup: Supply
    criteria: tuple[str, ...]
    modes: list[Any]
    nodes: int
    budget: int
    best: tuple[int, ...] | None
    best_plan: tuple[int, list[int]] | None
    class_colors: list[int]
    able_colors: int

    def keep_lost(self, used: list[int]) -> int:  # pragma: no cover - provided by the search
        raise NotImplementedError

    def colors_lost(self, used: list[int]) -> int:  # pragma: no cover - provided by the search
        raise NotImplementedError

    def colors_lost_bound(self, decided_kept: int, gains: list[int],
                          k_left: int) -> int:  # pragma: no cover - provided by the search
        raise NotImplementedError

    def _mode_cap(self, i: int) -> int:  # pragma: no cover - provided by the search
        raise NotImplementedError

    def _criteria_vector(self, form: Form, sac: int, life: int, used: list[int], colors: Callable[[], int],
                         nonland: int, sources: int, pool_unused: int) -> list[int]:
        """The policy's criteria in order for a payment's totals (SPEC §6); ``used``: members
        used per class; ``colors``: the colors lost, computed only when asked for."""
        out: list[int] = []
        for name in self.criteria:
            if name == "no_sacrifice":
                out.append(sac)
            elif name == "min_life":
                out.append(life + form.life)
            elif name == "keep_castable":
                out.append(self.keep_lost(used))
            elif name == "keep_colors":
                out.append(colors())
            elif name == "min_waste":
                out.append(0)
            elif name == "prefer_lands":
                out.append(nonland)
            elif name == "min_sources":
                out.append(sources)
            elif name == "use_pool":
                out.append(pool_unused)
            elif name == "min_energy":
                out.append(form.energy)
        return out

    def _complement_fits(self, form: Form, x: int) -> bool:
        """Search the unused units instead of the used ones when they are fewer (costs that
        need most of the board) and every class is one single-mana mode."""
        seen: set[int] = set()
        total = 0
        for i, md in enumerate(self.modes):
            if len(md.masks) != 1 or (md.k >= 0 and md.k in seen):
                return False
            if md.k >= 0:
                seen.add(md.k)
            total += self._mode_cap(i)
        spare = total - form.mana_total(x)
        return 0 <= spare < form.mana_total(x)

    def _complement_form(self, fi: int, form: Form, x: int) -> bool:
        modes = self.modes
        nm = len(modes)
        caps = [self._mode_cap(i) for i in range(nm)]
        total_need = form.mana_total(x)
        spare = sum(caps) - total_need
        kinds: list[tuple[int, int]] = list(form.demands)
        if form.snow:
            kinds.append((-1, form.snow))
        nk = len(kinds)
        subsets = 1 << nk
        need = [0] * subsets
        full = [0] * subsets
        rows: list[list[int]] = []
        for i, md in enumerate(modes):
            row = [0] * subsets
            for t in range(1, subsets):
                for j in range(nk):
                    if t >> j & 1:
                        m = kinds[j][0]
                        if (m == -1 and md.snow) or (m > 0 and md.masks[0] & m):
                            row[t] = 1
                            break
            rows.append(row)
        for t in range(1, subsets):
            need[t] = sum(kinds[j][1] for j in range(nk) if t >> j & 1)
            full[t] = sum(rows[i][t] * caps[i] for i in range(nm))
        if any(need[t] > full[t] for t in range(1, subsets)):
            return True  # this form can't be paid at all
        unused = [0] * subsets
        order = sorted(range(nm), key=lambda i: -modes[i].weight)  # latest permanents first
        u = [0] * nm
        decided = [False] * nm
        sup_life = self.sup.life
        pool_total = self.sup.pool_total

        def used_lower(k_left: int) -> tuple[list[int], list[int]]:
            """Per-mode used counts: exact where decided, the least possible elsewhere;
            and per class."""
            per_mode = [caps[i] - u[i] if decided[i] else max(0, caps[i] - k_left)
                        for i in range(nm)]
            per_class = [0] * len(self.sup.classes)
            for i, md in enumerate(modes):
                if md.k >= 0:
                    per_class[md.k] += per_mode[i]
            return per_mode, per_class

        def score(per_mode: list[int], per_class: list[int], k_left: int, final: bool) -> list[int]:
            sac = life = ab_life = nonland = sources = tb = pool_used = 0
            for i, md in enumerate(modes):
                n = per_mode[i]
                if md.k < 0:
                    pool_used += n
                    continue
                sac += md.sac * n
                life += md.life * n
                ab_life += md.ab_life * n
                nonland += md.nonland * n
                sources += n
                tb += md.weight * n
            if not final:
                # The undecided modes leave at most k_left units unused: take them off the
                # heaviest weights (``order`` is heaviest first), the best case for the
                # tie-break; per_mode counted only max(0, cap - k_left) for them.
                budget = k_left
                for i in order:
                    if decided[i] or modes[i].k < 0:
                        continue
                    rest = caps[i] - per_mode[i]
                    off = min(rest, budget)
                    tb += (rest - off) * modes[i].weight
                    budget -= off
            def colors() -> int:
                if final:
                    return self.colors_lost(per_class)
                kept = 0
                gains = []
                in_modes = set()
                for i, md in enumerate(modes):
                    if md.k < 0:
                        continue
                    in_modes.add(md.k)
                    if decided[i]:
                        if u[i]:
                            kept |= self.class_colors[md.k]
                    else:
                        gains.append(self.class_colors[md.k])
                for k in range(len(self.sup.classes)):
                    if k not in in_modes:
                        kept |= self.class_colors[k]
                return self.colors_lost_bound(kept, gains, k_left)

            out = self._criteria_vector(form, sac, life, per_class, colors, nonland, sources,
                                        pool_total - pool_used if final else 0)
            out.append(tb)
            if final and (ab_life > sup_life or (form.life and life + form.life > sup_life)):
                return []
            return out

        sac_a = [md.sac for md in modes]
        life_a = [md.life for md in modes]
        nonland_a = [md.nonland for md in modes]
        weight_a = [md.weight for md in modes]
        act = [i for i in range(nm) if modes[i].k >= 0]
        kept_static = 0
        in_modes = {modes[i].k for i in act}
        for k in range(len(self.sup.classes)):
            if k not in in_modes:
                kept_static |= self.class_colors[k]

        def lb_components(k_left: int) -> Any:
            """The lower-bound vector, one component at a time (computed lazily)."""
            per_mode = [caps[i] - u[i] if decided[i] else max(0, caps[i] - k_left)
                        for i in range(nm)]
            per_class: list[int] | None = None

            def classes() -> list[int]:
                nonlocal per_class
                if per_class is None:
                    per_class = [0] * len(self.sup.classes)
                    for i in act:
                        per_class[modes[i].k] += per_mode[i]
                return per_class

            for name in self.criteria:
                if name == "no_sacrifice":
                    yield sum(sac_a[i] * per_mode[i] for i in act)
                elif name == "min_life":
                    yield sum(life_a[i] * per_mode[i] for i in act) + form.life
                elif name == "keep_castable":
                    yield self.keep_lost(classes())
                elif name == "keep_colors":
                    kept = kept_static
                    gains = []
                    for i in act:
                        if decided[i]:
                            if u[i]:
                                kept |= self.class_colors[modes[i].k]
                        else:
                            gains.append(self.class_colors[modes[i].k])
                    yield self.colors_lost_bound(kept, gains, k_left)
                elif name == "prefer_lands":
                    yield sum(nonland_a[i] * per_mode[i] for i in act)
                elif name == "min_sources":
                    yield sum(per_mode[i] for i in act)
                elif name == "min_energy":
                    yield form.energy
                else:  # min_waste (none here) and use_pool (only known at the end)
                    yield 0
            tb = sum(weight_a[i] * per_mode[i] for i in act)
            budget = k_left
            for i in order:  # heaviest first: the unused units come off the heaviest
                if decided[i] or modes[i].k < 0:
                    continue
                rest = caps[i] - per_mode[i]
                off = min(rest, budget)
                tb += (rest - off) * modes[i].weight
                budget -= off
            yield tb

        def lb_no_better(k_left: int) -> bool:
            best = self.best
            if best is None:
                return False
            for j, v in enumerate(lb_components(k_left)):
                if v != best[j]:
                    return bool(v > best[j])
            return True

        def better(vec: list[int]) -> bool:
            return self.best is None or tuple(vec) < self.best

        def dfs(pos: int, k_left: int) -> bool:
            self.nodes += 1
            if self.nodes > self.budget:
                return False
            for t in range(1, subsets):
                if need[t] > full[t] - unused[t]:
                    return True
            if k_left == 0 or pos == nm:
                if k_left:
                    return True
                saved = [(i, decided[i]) for i in range(nm)]
                for i in range(nm):
                    decided[i] = True
                per_mode, per_class = used_lower(0)
                counts = per_mode
                ok_pool = self._pool_side_ok(form, x, [(counts[i], modes[i].masks[0])
                                                       for i in range(nm) if modes[i].k < 0])
                vec = score(per_mode, per_class, 0, True) if ok_pool else []
                for i, d in saved:
                    decided[i] = d
                if vec and better(vec):
                    self.best = tuple(vec)
                    self.best_plan = (fi, list(counts))
                return True
            if lb_no_better(k_left):
                return True
            i = order[pos]
            decided[i] = True
            ok = True
            for n in range(min(caps[i], k_left), -1, -1):
                u[i] = n
                for t in range(1, subsets):
                    unused[t] += rows[i][t] * n
                ok = dfs(pos + 1, k_left - n)
                for t in range(1, subsets):
                    unused[t] -= rows[i][t] * n
                if not ok:
                    break
            u[i] = 0
            decided[i] = False
            return ok

        if spare <= SMALL_SPARE:
            return self._complement_enumerate(fi, form, x, caps, rows, need, full, spare, order)
        self._complement_warm_start(fi, form, x, caps, rows, need, full, spare, order, u, decided,
                                    used_lower, score)
        return dfs(0, spare)

    def _complement_enumerate(self, fi: int, form: Form, x: int, caps: list[int],
                              rows: list[list[int]], need: list[int], full: list[int],
                              spare: int, order: list[int]) -> bool:
        """Every way to leave ``spare`` (at most :data:`SMALL_SPARE`) units unused, scored
        exactly: for a cost that needs all but one or two units of a large board this is
        fewer steps than a search proving its bounds (the tie-break rarely bounds well).
        Each choice is scored as the totals of using everything minus what it leaves."""
        modes = self.modes
        nm = len(modes)
        subsets = len(need)
        # Demand sets with less room than ``spare`` units: only these can fail Hall's test.
        tight = [t for t in range(1, subsets) if full[t] - need[t] < spare]
        totals = {"sac": 0, "life": 0, "ab_life": 0, "nonland": 0, "sources": 0, "tb": 0,
                  "pool": 0}
        used_all = [0] * len(self.sup.classes)
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
        sup_life = self.sup.life
        pool_total = self.sup.pool_total
        # Latest permanents first: the first best of equal vectors wins, as in the search.
        for combo in itertools.combinations_with_replacement(order, spare):
            self.nodes += 1
            if self.nodes > self.budget:
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
                if not self._pool_side_ok(form, x, per_pool):
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
            vec = self._criteria_vector(
                form, sac, life, used, functools.partial(self.colors_lost, used),
                totals["nonland"] - sum(md.nonland for md in off if md.k >= 0),
                totals["sources"] - sum(1 for md in off if md.k >= 0), pool_total - totals["pool"] + pool_left)
            vec.append(totals["tb"] - sum(md.weight for md in off if md.k >= 0))
            if self.best is None or tuple(vec) < self.best:
                self.best = tuple(vec)
                self.best_plan = (fi, [caps[i] - combo.count(i) for i in range(nm)])
        return True

    def _complement_warm_start(self, fi: int, form: Form, x: int, caps: list[int],
                               rows: list[list[int]], need: list[int], full: list[int],
                               spare: int, order: list[int], u: list[int], decided: list[bool],
                               used_lower: Any, score: Any) -> None:
        """A first answer for the complement search, so its bounds bite early: leave
        untapped, one unit at a time, the class adding the most colors still producible
        (then the latest on the board), as long as the rest still pays the cost."""
        modes = self.modes
        nm = len(modes)
        subsets = len(need)
        unused = [0] * subsets
        kept = 0
        for k, cm in enumerate(self.class_colors):
            if not any(md.k == k for md in modes):
                kept |= cm
        left = spare
        while left > 0:
            best_i = -1
            best_key: tuple[int, int] | None = None
            for i in order:
                if u[i] >= caps[i]:
                    continue
                if any(need[t] > full[t] - unused[t] - rows[i][t] for t in range(1, subsets)):
                    continue
                gain = (self.class_colors[modes[i].k] & ~kept).bit_count() if modes[i].k >= 0 else -1
                key = (gain, modes[i].weight)
                if best_key is None or key > best_key:
                    best_i, best_key = i, key
            if best_i < 0:
                break
            u[best_i] += 1
            for t in range(1, subsets):
                unused[t] += rows[best_i][t]
            if modes[best_i].k >= 0:
                kept |= self.class_colors[modes[best_i].k]
            left -= 1
        if left == 0:
            for i in range(nm):
                decided[i] = True
            per_mode, per_class = used_lower(0)
            pool_ok = self._pool_side_ok(form, x, [(per_mode[i], modes[i].masks[0])
                                                   for i in range(nm) if modes[i].k < 0])
            vec = score(per_mode, per_class, 0, True) if pool_ok else []
            if vec and (self.best is None or tuple(vec) < self.best):
                self.best = tuple(vec)
                self.best_plan = (fi, list(per_mode))
        for i in range(nm):
            u[i] = 0
            decided[i] = False

    def _pool_side_ok(self, form: Form, x: int, chosen: list[tuple[int, int]]) -> bool:
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

