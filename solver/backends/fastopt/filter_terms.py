"""The keep terms of the converter search, kept up to date along its branch.

The converter search (:mod:`~manasolver.solver.backends.fastopt.filters`) changes one class's
count at a time, and both keep terms of the policy depend only on how many members of each
class are used (:class:`~manasolver.solver.backends.fastopt.keep.KeepTerms` says what they
count).  So they are kept here as the branch goes, instead of recomputed from the whole
vector at every node:

* ``keep_castable``: a kept cost is payable from the members left by Hall's condition, one
  inequality per set of the form's demands (and one for the whole cost): *have* ≥ *need*.
  A class's units count toward an inequality by a fixed coefficient, so each inequality's
  slack (have − need) moves by ``n`` times that coefficient when ``n`` members of the class
  are used, and a form is payable while every slack of its own is ≥ 0.  Costs lost stay
  lost below (using more never helps), so a node checks only the costs its parent kept
  (:meth:`KeepTracker.lost`).
* ``keep_colors``: the colors kept depend only on *which* classes still have a member left
  (:func:`~manasolver.solver.keepable.kept_colors` reads ``left > 0``), so the loss
  is remembered per set of exhausted classes, a bit mask (:meth:`KeepTracker.colors_lost`).

Both terms only grow as members are used, which is what lets the search bound a node by
its parent's values before computing its own.
"""

from __future__ import annotations

from manasolver.solver.backends.fastopt.keep import KeepTerms

__all__ = ["KeepTracker"]


class KeepTracker:
    """The two keep terms of one problem, updated per class as members are used."""

    def __init__(self, keep: KeepTerms, keep_castable: bool, keep_colors: bool) -> None:
        self.keep = keep
        self.cap = list(keep.class_cap)
        nk = len(self.cap)
        #: Per Hall inequality: its slack (have - need) with every member left.
        self.slack: list[int] = []
        #: Per class: (inequality, units one member adds to its "have") where nonzero.
        self.coef: list[list[tuple[int, int]]] = [[] for _ in range(nk)]
        #: Per kept cost: (its weight, its forms as lists of inequalities).
        self.costs: list[tuple[int, list[list[int]]]] = []
        if keep_castable:
            for forms, times in zip(keep.keep_forms, keep.keep_weight):
                rows = [self._form_rows(f.demands, f.snow, f.generic(0) + f.fixed_mana) for f in forms]
                self.costs.append((times, rows))
        self.keep_colors = keep_colors
        #: Classes with no member left, a bit per class.
        self.gone = 0
        self.used = [0] * nk
        self._colors: dict[int, int] = {}
        self._able = keep.able_colors.bit_count()

    def _form_rows(self, demands: tuple[tuple[int, int], ...], snow: int, total: int) -> list[int]:
        """The inequalities of one form (Hall's condition as matching.hall_ok states it)."""
        kinds: list[tuple[int, int]] = list(demands)
        if snow:
            kinds.append((-1, snow))  # -1: the snow demand
        checks: list[tuple[int, bool, int]] = [(-1, False, total)]  # -1 as a mask: every unit
        for subset in range(1, 1 << len(kinds)):
            mask = need = 0
            has_snow = False
            for i, (m, c) in enumerate(kinds):
                if subset >> i & 1:
                    need += c
                    if m == -1:
                        has_snow = True
                    else:
                        mask |= m
            checks.append((mask, has_snow, need))
        rows = []
        for mask, has_snow, need in checks:
            j = len(self.slack)
            have = 0
            for k, per in enumerate(self.keep.keep_units):
                c = sum(mult for m, snow, mult in per if m & mask or (has_snow and snow))
                if c:
                    self.coef[k].append((j, c))
                    have += c * self.cap[k]
            # the idle members' units are always left (KeepTerms.idle_units)
            have += sum(units for m, snow, units in self.keep.idle_units if m & mask or (has_snow and snow))
            self.slack.append(have - need)
            rows.append(j)
        return rows

    def use(self, k: int, n: int) -> None:
        """``n`` more members of class ``k`` used (negative: given back)."""
        slack = self.slack
        for j, c in self.coef[k]:
            slack[j] -= c * n
        self.used[k] += n
        if self.used[k] >= self.cap[k]:
            self.gone |= 1 << k
        else:
            self.gone &= ~(1 << k)

    def lost(self, parent: int) -> tuple[int, int]:
        """The kept costs lost now, as a bit mask (a superset of ``parent``, the mask of an
        ancestor), and their weight: ``keep_castable``."""
        slack = self.slack
        mask = parent
        value = 0
        for i, (times, forms) in enumerate(self.costs):
            if mask >> i & 1 or not any(all(slack[j] >= 0 for j in rows) for rows in forms):
                mask |= 1 << i
                value += times
        return mask, value

    def colors_lost(self) -> int:
        """How many colors the members left can't make any more: ``keep_colors``."""
        if not self.keep_colors:
            return 0
        hit = self._colors.get(self.gone)
        if hit is None:
            left = [0 if self.gone >> k & 1 else 1 for k in range(len(self.cap))]
            hit = self._colors[self.gone] = self._able - self.keep.keepable.kept(left).bit_count()
        return hit
