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

    def _terms(self, form: Form, sac: int, life: int, used: list[int], colors: Callable[[], int],
               nonland: int, sources: int, pool_unused: int, tb: int) -> dict[str, int]:
        """The policy's terms for a payment's totals (SPEC §6); ``used``: members used per
        class; ``colors``: the colors lost, computed only when the policy counts them."""
        crit = self.criteria
        return {"no_sacrifice": sac, "min_life": life + form.life,
                "keep_castable": self.keep.keep_lost(used) if "keep_castable" in crit else 0,
                "keep_colors": colors() if "keep_colors" in crit else 0,
                "min_waste": 0, "prefer_lands": nonland, "min_sources": sources,
                "use_pool": pool_unused, "min_energy": form.energy, "tiebreak": tb}

    def fits(self, modes: list[Mode], form: Form, x: int) -> bool:
        """Should ``form`` be searched here?  When the unused units are fewer than the used
        ones (costs that need most of the board) and every class is one single-mana mode."""
        seen: set[int] = set()
        total = 0
        for i, md in enumerate(modes):
            if len(md.masks) != 1 or (md.k >= 0 and md.k in seen):
                return False
            if md.k >= 0:
                seen.add(md.k)
            total += mode_cap(modes[i], self.sup)
        spare = total - form.mana_total(x)
        return 0 <= spare < form.mana_total(x)

    def search(self, fi: int, form: Form, x: int, modes: list[Mode]) -> bool:
        """Search the units left unused of ``form`` over ``modes`` (see the module docstring);
        False when the node budget ran out."""
        inc = self.inc
        keep = self.keep
        nm = len(modes)
        caps = [mode_cap(modes[i], self.sup) for i in range(nm)]
        total_need = form.mana_total(x)
        spare = sum(caps) - total_need
        kinds: list[tuple[int, int]] = list(form.demands)
        if form.snow:
            kinds.append((SNOW, form.snow))
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
                        if (m == SNOW and md.snow) or (m > 0 and md.masks[0] & m):
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

        def score(per_mode: list[int], per_class: list[int], k_left: int, final: bool) -> tuple[int, ...]:
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
                    return keep.colors_lost(per_class)
                kept = 0
                gains = []
                in_modes = set()
                for i, md in enumerate(modes):
                    if md.k < 0:
                        continue
                    in_modes.add(md.k)
                    if decided[i]:
                        if u[i]:
                            kept |= keep.class_colors[md.k]
                    else:
                        gains.append(keep.class_colors[md.k])
                for k in range(len(self.sup.classes)):
                    if k not in in_modes:
                        kept |= keep.class_colors[k]
                return keep.colors_lost_bound(kept, gains, k_left)

            if final and (ab_life > sup_life or (form.life and life + form.life > sup_life)):
                return ()
            return criteria_vector(self._terms(form, sac, life, per_class, colors, nonland, sources,
                                               pool_total - pool_used if final else 0, tb),
                                   self.criteria)

        sac_a = [md.sac for md in modes]
        life_a = [md.life for md in modes]
        nonland_a = [md.nonland for md in modes]
        weight_a = [md.weight for md in modes]
        act = [i for i in range(nm) if modes[i].k >= 0]
        kept_static = 0
        in_modes = {modes[i].k for i in act}
        for k in range(len(self.sup.classes)):
            if k not in in_modes:
                kept_static |= keep.class_colors[k]

        def lb_components(k_left: int) -> Iterator[int]:
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
                    yield keep.keep_lost(classes())
                elif name == "keep_colors":
                    kept = kept_static
                    gains = []
                    for i in act:
                        if decided[i]:
                            if u[i]:
                                kept |= keep.class_colors[modes[i].k]
                        else:
                            gains.append(keep.class_colors[modes[i].k])
                    yield keep.colors_lost_bound(kept, gains, k_left)
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
            best = inc.best
            if best is None:
                return False
            for j, v in enumerate(lb_components(k_left)):
                if v != best[j]:
                    return bool(v > best[j])
            return True

        def better(vec: tuple[int, ...]) -> bool:
            return inc.best is None or vec < inc.best

        def dfs(pos: int, k_left: int) -> bool:
            inc.nodes += 1
            if inc.nodes > inc.budget:
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
                ok_pool = _pool_side_ok(form, x, [(counts[i], modes[i].masks[0])
                                                  for i in range(nm) if modes[i].k < 0])
                vec = score(per_mode, per_class, 0, True) if ok_pool else ()
                for i, d in saved:
                    decided[i] = d
                if vec and better(vec):
                    inc.best = vec
                    inc.plan = (fi, list(counts))
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
            return self._enumerate(fi, form, x, modes, caps, rows, need, full, spare, order)
        self._warm_start(fi, form, x, modes, caps, rows, need, full, spare, order, u, decided,
                         used_lower, score)
        return dfs(0, spare)

    def _enumerate(self, fi: int, form: Form, x: int, modes: list[Mode], caps: list[int],
                   rows: list[list[int]], need: list[int], full: list[int],
                   spare: int, order: list[int]) -> bool:
        """Every way to leave ``spare`` (at most :data:`SMALL_SPARE`) units unused, scored
        exactly: for a cost that needs all but one or two units of a large board this is
        fewer steps than a search proving its bounds (the tie-break rarely bounds well).
        Each choice is scored as the totals of using everything minus what it leaves."""
        inc = self.inc
        keep = self.keep
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
            vec = criteria_vector(self._terms(
                form, sac, life, used, functools.partial(keep.colors_lost, used),
                totals["nonland"] - sum(md.nonland for md in off if md.k >= 0),
                totals["sources"] - sum(1 for md in off if md.k >= 0), pool_total - totals["pool"] + pool_left,
                totals["tb"] - sum(md.weight for md in off if md.k >= 0)), self.criteria)
            if inc.best is None or vec < inc.best:
                inc.best = vec
                inc.plan = (fi, [caps[i] - combo.count(i) for i in range(nm)])
        return True

    def _warm_start(self, fi: int, form: Form, x: int, modes: list[Mode], caps: list[int],
                    rows: list[list[int]], need: list[int], full: list[int],
                    spare: int, order: list[int], u: list[int], decided: list[bool],
                    used_lower: Callable[[int], tuple[list[int], list[int]]],
                    score: Callable[[list[int], list[int], int, bool], tuple[int, ...]]) -> None:
        """A first answer for the complement search, so its bounds bite early: leave
        untapped, one unit at a time, the class adding the most colors still producible
        (then the latest on the board), as long as the rest still pays the cost."""
        inc = self.inc
        keep = self.keep
        nm = len(modes)
        subsets = len(need)
        unused = [0] * subsets
        kept = 0
        for k, cm in enumerate(keep.class_colors):
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
            for i in range(nm):
                decided[i] = True
            per_mode, per_class = used_lower(0)
            pool_ok = _pool_side_ok(form, x, [(per_mode[i], modes[i].masks[0])
                                              for i in range(nm) if modes[i].k < 0])
            vec = score(per_mode, per_class, 0, True) if pool_ok else ()
            if vec and (inc.best is None or vec < inc.best):
                inc.best = vec
                inc.plan = (fi, list(per_mode))
        for i in range(nm):
            u[i] = 0
            decided[i] = False


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

