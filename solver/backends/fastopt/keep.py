"""The keep terms of a policy: ``keep_castable`` and ``keep_colors`` as functions of what is used.

Both depend only on how many members of each class a payment uses, so they are computed
from that vector and remembered per vector (the search asks again for the same counts
along many branches):

* ``keep_castable``: how many of the kept costs (the policy's list, else the cards in
  hand) the members left unused can no longer pay, by Hall's condition over the units
  of their free, exclusive, unrestricted options (:meth:`KeepTerms.keep_lost`);
* ``keep_colors``: how many colors the members left unused can't make any more, filter
  lands fed by other untapped members included (:mod:`manasolver.solver.keepable`;
  :meth:`KeepTerms.colors_lost`), and a lower bound on it when only some classes are
  decided (:meth:`KeepTerms.colors_lost_bound`).

Members the payment can't use that stay untapped after it (``sources.exclude`` and the
preserved permanents it may not use: :func:`~manasolver.solver.backends.problem.idle_classes`)
count as left in both terms, whatever is used.
"""

from __future__ import annotations

from manasolver.models.cost import ManaCost
from manasolver.models.errors import Unsupported
from manasolver.models.effects import SpendTable
from manasolver.solver.backends.matching import demand_sets
from manasolver.solver.backends.problem import Problem, announced, idle_classes, kept_spend_table
from manasolver.solver.casting.announce import Form
from manasolver.solver.policy import keep_counts
from manasolver.solver.keepable import keepable
from manasolver.solver.supply.model import Options

__all__ = ["KeepTerms"]


def _announced(cost: ManaCost, spend: SpendTable) -> tuple[Form, ...] | None:
    """The forms of ``cost`` paid as the 609.4b ``spend`` table allows (the announced costs'
    cache: a card's mana cost is the card's own object, shared by every board), ``None`` when
    :func:`announce` refuses it."""
    try:
        return announced(cost, (), spend).forms
    except Unsupported:
        return None


def _keep_units(options: Options, snow: bool) -> tuple[list[tuple[int, bool, int]], bool]:
    """The units one member of a class with ``options`` offers keep_castable (its free,
    exclusive, unrestricted options) as ``(mask, snow, per member)``, and whether they can be
    read so (False: two or more options, one making several mana).  Kept in the options object
    per snow flag (shared by the boards holding the same card in the same state); only read,
    never changed."""
    kept = options.keep_units
    if kept is None:
        kept = options.keep_units = {}
    hit: tuple[list[tuple[int, bool, int]], bool] | None = kept.get(snow)
    if hit is not None:
        return hit
    opts = [o for o in options if o.free and o.exclusive and o.restriction is None]
    out: tuple[list[tuple[int, bool, int]], bool]
    if not opts:
        out = [], True
    elif all(len(o.slots) == 1 for o in opts):
        m = 0
        for o in opts:
            m |= o.slots[0]
        out = [(m, snow, 1)], True
    elif len(opts) == 1:
        out = [(s, snow, opts[0].slots.count(s)) for s in sorted(set(opts[0].slots))], True
    else:
        out = [], False
    kept[snow] = out
    return out


class KeepTerms:
    """The keep terms of one board under one policy (see the module docstring)."""

    def __init__(self, problem: Problem, criteria: tuple[str, ...]) -> None:
        sup = problem.supply
        #: Does ``keep_castable`` count here (the criteria named it)?  Without it no kept cost is
        #: read, so these terms count for criteria that name it as they named it.
        self.castable = "keep_castable" in criteria
        self.class_cap: list[int] = [k.count for k in sup.classes]
        self._keep_cache: dict[tuple[int, ...], int] = {}
        self._colors_cache: dict[tuple[int, ...], int] = {}
        #: Hall rows per kept form (:meth:`_hall_rows`), by the identity of a form of
        #: :attr:`keep_forms` (held as long as this object).
        self._rows: dict[int, list[tuple[int, int, int, bool, bool]]] = {}
        self._pooled: dict[tuple[int, bool], int] | None = None
        self.keep_forms: list[list[Form]] = []
        #: How many listed costs each entry of ``keep_forms`` stands for (repeats merged).
        self.keep_weight: list[int] = []
        if self.castable:
            spend = kept_spend_table(problem)  # the kept costs paid as the 609.4b rules allow
            for cost, times in keep_counts(problem.policy, problem.req.state, sup.player):
                every = _announced(cost, spend)
                if every is None:
                    continue
                forms = [f for f in every if f.life <= sup.life and not f.energy]
                if forms:
                    self.keep_forms.append(forms)
                    self.keep_weight.append(times)
        # Units each class offers to keep_castable (free, exclusive, unrestricted options).
        self.keep_units: list[list[tuple[int, bool, int]]] = []  # per class: (mask, snow, per member)
        #: False when a class's options can't be read as units for keep_castable.
        self.shape_ok = True
        for cls in sup.classes:
            units, readable = _keep_units(cls.options, cls.snow)
            self.keep_units.append(units)
            if not readable and self.keep_forms:
                self.shape_ok = False
        #: The classes of the permanents the payment can't use that stay untapped after it
        #: (:func:`~manasolver.solver.backends.problem.idle_classes`), with their members: their
        #: keep units and colors are always left.
        self.idle = idle_classes(problem)
        #: The keep units of every idle member: ``(mask, snow, units)``.
        self.idle_units: list[tuple[int, bool, int]] = []
        for cls, n in self.idle:
            units, readable = _keep_units(cls.options, cls.snow)
            self.idle_units += [(m, s, n * mult) for m, s, mult in units]
            if not readable and self.keep_forms:
                self.shape_ok = False
        # Colors each class could still make (cost-free options, restricted ones too, as
        # CP-SAT counts them, and converters such as filter lands fed by other untapped
        # members: solver.keepable).
        self.keepable = keepable(sup, self.idle)
        self.class_colors = [self.keepable.class_colors(k) for k in range(len(sup.classes))]
        self.able_colors = self.keepable.kept(self.class_cap)
        self._able_count = self.able_colors.bit_count()
        #: The colors kept whatever the payment uses: those of the idle members alone.
        self.idle_colors = self.keepable.kept([0] * len(sup.classes)) if self.idle else 0

    def policy_terms(self, used: list[int], criteria: tuple[str, ...]) -> tuple[int, int]:
        """The ``keep_castable`` and ``keep_colors`` terms with ``used`` members of each class
        tapped, each 0 when ``criteria`` does not ask for it."""
        return (self.keep_lost(used) if "keep_castable" in criteria else 0,
                self.colors_lost(used) if "keep_colors" in criteria else 0)

    def keep_lost(self, used: list[int]) -> int:
        """How many keep_castable costs the members left unused can no longer pay.

        Hall's condition of :func:`~manasolver.solver.backends.matching.hall_ok` over the
        units of the members left: each of its sums (the units in all, those able to pay a
        set of demands) is linear in the members used, so it is the sum with every member
        left (:meth:`_hall_rows`, once per kept form) less what the used members give."""
        if not self.keep_forms:
            return 0
        key = tuple(used)
        hit = self._keep_cache.get(key)
        if hit is not None:
            return hit
        spent = [(k, n) for k, n in enumerate(used) if n and self.keep_units[k]]
        lost = 0
        for forms, times in zip(self.keep_forms, self.keep_weight):
            if not any(self._payable_after(f, spent) for f in forms):
                lost += times
        self._keep_cache[key] = lost
        return lost

    def _payable_after(self, form: Form, spent: list[tuple[int, int]]) -> bool:
        """Is ``form`` payable from the keep units of the members left when ``spent``
        (class, members) are used?"""
        units = self.keep_units
        for need, full, mask, snow, every in self._hall_rows(form):
            have = full
            for k, n in spent:
                for m, s, mult in units[k]:
                    if every or m & mask or (snow and s):
                        have -= n * mult
            if need > have:
                return False
        return True

    def _hall_rows(self, form: Form) -> list[tuple[int, int, int, bool, bool]]:
        """Hall's condition of ``form`` over the keep units as rows ``(need, units with every
        member left, the demand mask, snow, every unit)``: the whole cost first (every unit),
        then every nonempty set of its demands (the snow demand included), in
        :func:`hall_ok`'s order.  A row's units count the keep units of every member alike."""
        rows = self._rows.get(id(form))
        if rows is not None:
            return rows
        pooled = self._pooled
        if pooled is None:  # every member's keep units by (mask, snow), the idle ones' too
            pooled = self._pooled = {}
            for cap, per in zip(self.class_cap, self.keep_units):
                for m, s, mult in per:
                    pooled[(m, s)] = pooled.get((m, s), 0) + cap * mult
            for m, s, units in self.idle_units:
                pooled[(m, s)] = pooled.get((m, s), 0) + units
        rows = [(form.generic(0) + form.fixed_mana, sum(pooled.values()), 0, False, True)]
        for mask, snow, need in demand_sets(form):
            full = sum(c for (m, s), c in pooled.items() if m & mask or (snow and s))
            rows.append((need, full, mask, snow, False))
        self._rows[id(form)] = rows
        return rows

    def colors_lost_bound(self, decided_kept: int, gains: list[int], k_left: int) -> int:
        """A lower bound on colors lost when ``decided_kept`` (a color mask) is kept for
        sure (the idle members' colors are too) and at most ``k_left`` more classes, with
        color masks ``gains``, stay untapped."""
        able = self.able_colors
        kept = (decided_kept | self.idle_colors) & able
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
