"""The keep terms of a policy: ``keep_castable`` and ``keep_colors`` as functions of what is used.

Both depend only on how many members of each class a payment uses, so they are computed
from that vector and remembered per vector (the search asks again for the same counts
along many branches):

* ``keep_castable``: how many of the kept costs (the policy's list, else the cards in
  hand) the members left unused can no longer pay, by Hall's condition over the units
  of their free, exclusive, unrestricted options (:meth:`KeepTerms.keep_lost`);
* ``keep_colors``: how many colors the members left unused can't make any more, filter
  lands fed by other untapped members included (:mod:`manasolver.solver.pools.keepable`;
  :meth:`KeepTerms.colors_lost`), and a lower bound on it when only some classes are
  decided (:meth:`KeepTerms.colors_lost_bound`).
"""

from __future__ import annotations

from manasolver.models.errors import Unsupported
from manasolver.solver.backends.matching import UnitKind, hall_ok
from manasolver.solver.backends.problem import Problem
from manasolver.solver.casting.announce import Form, announce
from manasolver.solver.policy import keep_counts
from manasolver.solver.pools.keepable import keepable

__all__ = ["KeepTerms"]


class KeepTerms:
    """The keep terms of one board under one policy (see the module docstring)."""

    def __init__(self, problem: Problem, criteria: tuple[str, ...]) -> None:
        sup = problem.supply
        self.class_cap: list[int] = [k.count for k in sup.classes]
        self._keep_cache: dict[tuple[int, ...], int] = {}
        self._colors_cache: dict[tuple[int, ...], int] = {}
        self.keep_forms: list[list[Form]] = []
        #: How many listed costs each entry of ``keep_forms`` stands for (repeats merged).
        self.keep_weight: list[int] = []
        if "keep_castable" in criteria:
            for cost, times in keep_counts(problem.policy, problem.req.state, sup.player):
                try:
                    forms = [f for f in announce(cost, 0).forms if f.life <= sup.life and not f.energy]
                except Unsupported:
                    continue
                if forms:
                    self.keep_forms.append(forms)
                    self.keep_weight.append(times)
        # Units each class offers to keep_castable (free, exclusive, unrestricted options).
        self.keep_units: list[list[tuple[int, bool, int]]] = []  # per class: (mask, snow, per member)
        #: False when a class's options can't be read as units for keep_castable.
        self.shape_ok = True
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
                    self.shape_ok = False
        # Colors each class could still make (cost-free options, restricted ones too, as
        # CP-SAT counts them, and converters such as filter lands fed by other untapped
        # members: solver.pools.keepable).
        self.keepable = keepable(sup)
        self.class_colors = [self.keepable.class_colors(k) for k in range(len(sup.classes))]
        self.able_colors = self.keepable.kept(self.class_cap)
        self._able_count = self.able_colors.bit_count()

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
        for forms, times in zip(self.keep_forms, self.keep_weight):
            if not any(hall_ok(units, f, f.generic(0)) for f in forms):
                lost += times
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
        """How many colors the members left unused can't make any more (keep_colors)."""
        key = tuple(used)
        hit = self._colors_cache.get(key)
        if hit is None:
            left = [c - u for c, u in zip(self.class_cap, used)]
            hit = self._able_count - self.keepable.kept(left).bit_count()
            if len(self._colors_cache) > 4096:
                self._colors_cache.clear()
            self._colors_cache[key] = hit
        return hit
