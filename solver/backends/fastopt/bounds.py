"""The relaxation that bounds a form, and the activations with mana costs, before searching.

:meth:`Relaxation.lower_vector` is a lexicographic lower bound on every payment of a form
(that makes some given activations): every mode gives its units at its packed linear cost
per unit (:mod:`~manasolver.solver.backends.fastopt.linear`), cheapest first and
fractionally, the total and each demand kind alone must be covered, the mana paying the
given activations' own costs is charged at the cheapest cost per unit of any mode (or
counted net of each activation's cost), and the pool pays anything.  The search uses it to
order forms (best bound first) and skip those that can't beat the answer found, and to
drop activations with mana costs (Signets, filter lands) that can't improve it, alone
(:meth:`Relaxation.costly_may_win`) or in pairs (:meth:`Relaxation.pairs_may_win`).

What depends only on the board (the per-mask tables) is kept with the relaxation; bounds
are remembered per form, X and activations.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable

from manasolver.models._memo import KeyMemo
from manasolver.solver.backends.fastopt.incumbent import Incumbent
from manasolver.solver.backends.fastopt.keep import KeepTerms
from manasolver.solver.backends.fastopt.linear import COLORS_LOST, ENERGY, KEEP_LOST, WASTE, LinearCosts, lcm_of
from manasolver.solver.backends.fastopt.modes import Mode
from manasolver.solver.backends.fastopt.tables import kind_rows_masks
from manasolver.solver.casting.announce import Form

__all__ = ["Relaxation"]

#: A relaxation table: ``(cost per unit × scale, units per activation, class, mode)`` rows.
Table = list[tuple[int, int, int, Mode]]
#: A form's relaxation tables: the scale, the total's table, and per demand kind
#: ``(mask, count, table)``.
FormRows = tuple[int, Table, list[tuple[int, int, Table]]]


class Relaxation:
    """The relaxation bounds of one board under one policy (see the module docstring)."""

    def __init__(self, modes_all: list[Mode], class_cap: list[int], pool_total: int,
                 criteria: tuple[str, ...], lin: LinearCosts, keep: KeepTerms) -> None:
        self.modes_all = modes_all
        self.class_cap = class_cap
        self.pool_total = pool_total
        self.criteria = criteria
        self.lin = lin
        self.keep = keep
        self._relax_rows: KeyMemo[tuple[int, int], FormRows] = KeyMemo(limit=256)
        self._kind_tables: dict[int | str, Table] = {}
        self._payer = 0  # set with the tables (_rows_for)
        self._scale = 0  # set with the tables (_rows_for): the LCM of the unit counts
        self._lower_memo: KeyMemo[tuple[int, ...], tuple[tuple[int, ...] | None]] = KeyMemo(limit=4096)
        self._floor_memo: KeyMemo[tuple[int, int], tuple[tuple[int, ...] | None]] = KeyMemo(limit=256)

    def vector_of(self, form: Form, lin: int, mds: list[Mode]) -> tuple[int, ...]:
        """The criteria vector of the packed linear cost ``lin`` (plus the form's life),
        keep terms counted with the members of ``mds`` used, waste and pool at 0.

        Asked for every activation with a mana cost and form of every query, so it reads
        the terms by the codes decided once (:attr:`LinearCosts.codes`) rather than through
        :func:`~manasolver.solver.policy.criteria_vector`: the same vector, measured 40 %
        faster."""
        used = [0] * len(self.class_cap)
        for md in mds:
            used[md.k] += 1
        codec = self.lin
        return self._assemble(codec.digits(lin + form.life * codec.place.get("min_life", 0)), used, form, 0)

    def _assemble(self, digits: list[int], used: list[int], form: Form, waste: int) -> tuple[int, ...]:
        """The criteria vector from the packed digits, the keep terms of ``used`` members per
        class, the form's energy, ``min_waste`` at ``waste`` and ``use_pool`` at 0."""
        out: list[int] = []
        for code in self.lin.codes:
            if code >= 0:
                out.append(digits[code])
            elif code == KEEP_LOST:
                out.append(self.keep.keep_lost(used))
            elif code == COLORS_LOST:
                out.append(self.keep.colors_lost(used))
            elif code == ENERGY:
                out.append(form.energy)
            elif code == WASTE:
                out.append(waste)
            else:  # use_pool: at least 0
                out.append(0)
        out.append(digits[-1])
        return tuple(out)

    def costly_may_win(self, form: Form, x: int, md: Mode, inc: Incumbent) -> bool:
        """Could a payment of ``form`` that activates ``md`` (an ability with a mana cost)
        beat the incumbent's answer?  (:meth:`lower_vector`.)"""
        if inc.bar()[0] is None:
            return True
        if inc.prunes(self.vector_of(form, self.lin.act_cost(md), [md])):
            return False  # its own activation already costs too much: no tables needed
        return not inc.prunes(self.lower_vector(form, x, (md,)))

    def any_may_win(self, forms: list[tuple[int, Form]], x: int, costly: list[Mode], inc: Incumbent,
                    count: int = 1) -> bool:
        """Could a payment of any of ``forms`` making ``count`` (1 or 2) activations of
        ``costly`` beat the incumbent's answer?  One relaxation below every
        :meth:`lower_vector` of one of them, or of a pair (False here: :meth:`costly_may_win`,
        or :meth:`pairs_may_win`, is False too; on most boards the activations with mana
        costs are ruled out at once)."""
        if inc.bar()[0] is None or not costly:
            return True
        base = count * min(self.lin.act_cost(md) for md in costly)
        for _, form in forms:
            # The activations' own cost alone (no units still to find): below the full
            # bound, and on most boards already pruned, without the relaxation's tables.
            if inc.prunes(self._any_vector(form, costly, base)):
                continue
            if not inc.prunes(self._any_lower(form, x, costly, count, inc)):
                return True
        return False

    def _any_lower(self, form: Form, x: int, mds: list[Mode], count: int = 1,
                   inc: Incumbent | None = None) -> tuple[int, ...] | None:
        """A lexicographic lower bound on :meth:`lower_vector` of ``form`` with any ``count``
        of ``mds``: the relaxation with no member taken, ``count`` times the most units any of
        them gives (in all, net of its cost, and of each demand kind), the least cost any of
        them asks and the least linear cost, and the least keep terms of using any one of
        them (using more loses no less): each component at most that of every choice, so
        the vector is too.  With ``inc``: ``None`` as soon as the bound of the total alone
        is pruned by it (the vector grows with each demand kind's part)."""
        scale, total_rows = self._totals()
        cap = self.class_cap
        pool = self.pool_total

        def relax(d: int, table: Table) -> int:
            num = 0
            for unit_cost, per, k, _m in table:
                take = min(d, cap[k] * per)
                num += take * unit_cost
                d -= take
                if d <= 0:
                    return -(-num // scale)
            return -1

        own = count * max(len(md.masks) for md in mds)
        costs = count * min(sum(n for _, n in md.costs) for md in mds)
        net_own = count * max(len(md.masks) - sum(n for _, n in md.costs) for md in mds)
        paid = self._payer * costs
        total = form.mana_total(x) - own - pool
        extra = relax(total, total_rows) + paid if total > 0 else paid
        if total > 0 and extra < paid:
            return None
        need = form.mana_total(x) - pool - net_own
        if need > 0:
            net = relax(need, self._kind_tables["net"])
            if net < 0:
                return None
            extra = max(extra, net)
        base = count * min(self.lin.act_cost(md) for md in mds)
        if inc is not None and inc.prunes(self._any_vector(form, mds, base + extra)):
            return None  # pruned already: the demand kinds' tables are not needed
        for mask, n in kind_rows_masks(form):
            d = n - count * max(sum(1 for u in md.masks if (u & mask if mask > 0 else md.snow)) for md in mds)
            d -= pool if mask > 0 else 0
            if d > 0:
                got = relax(d, self._kind_table(mask))
                if got < 0:
                    return None
                extra = max(extra, got + paid)
        return self._any_vector(form, mds, base + extra)

    def _any_vector(self, form: Form, mds: list[Mode], packed: int) -> tuple[int, ...]:
        """The vector of :meth:`_any_lower` at packed linear cost ``packed`` (plus the form's
        life): the least keep terms of using any one of ``mds``, waste and pool at 0.  It
        grows with ``packed`` (digit order is lexicographic order), so at a smaller
        ``packed`` it is a lower bound on :meth:`_any_lower` too."""
        codec = self.lin
        digits = codec.digits(packed + form.life * codec.place.get("min_life", 0))
        out: list[int] = []
        for code in codec.codes:
            if code >= 0:
                out.append(digits[code])
            elif code == KEEP_LOST:
                out.append(self._least(self.keep.keep_lost, mds))
            elif code == COLORS_LOST:
                out.append(self._least(self.keep.colors_lost, mds))
            elif code == ENERGY:
                out.append(form.energy)
            else:  # min_waste, use_pool: at least 0
                out.append(0)
        out.append(digits[-1])
        return tuple(out)

    def _least(self, term: Callable[[list[int]], int], mds: list[Mode]) -> int:
        """The least keep term ``term`` of using one member of any of ``mds`` (none is below
        0: the first 0 ends the search)."""
        least = -1
        for md in mds:
            got = term(self._one_used(md))
            if least < 0 or got < least:
                least = got
                if not got:
                    break
        return least

    def _one_used(self, md: Mode) -> list[int]:
        """Members used per class when one member of ``md``'s class is."""
        used = [0] * len(self.class_cap)
        used[md.k] += 1
        return used

    def pairs_may_win(self, forms: list[tuple[int, Form]], x: int, keep: list[Mode],
                      inc: Incumbent) -> bool:
        """Could a payment with two or more costly activations (two of ``keep``) beat the
        incumbent's answer?  The relaxation of :meth:`lower_vector` with both taken."""
        if inc.bar()[0] is None:
            return True
        if not self.any_may_win(forms, x, keep, inc, 2):
            return False
        for a, b in itertools.combinations_with_replacement(keep, 2):
            if a.k == b.k and self.class_cap[a.k] < 2:
                continue  # one member makes one exclusive activation
            for _, form in forms:
                if not inc.prunes(self.lower_vector(form, x, (a, b))):
                    return True
        return False

    def lower_vector(self, form: Form, x: int,
                     mds: tuple[Mode, ...] = ()) -> tuple[int, ...] | None:
        """A lexicographic lower bound on every payment of ``form`` (that makes the
        activations ``mds``), or None when none exists.  A relaxation: every mode gives its
        units at its cost per unit (net of its own activation cost for the total), the
        members of ``mds`` are taken; the total and each demand kind alone must be covered;
        the costs of ``mds`` need their units more; the pool pays anything."""
        key = (id(form), x)
        rows = self._relax_rows.get(key, form)
        if rows is None:
            rows = self._relax_rows.put(key, form, self._rows_for(form))
        memo_key = (id(form), x) + tuple(id(md) for md in mds)
        memo = self._lower_memo.get(memo_key, form)
        if memo is not None:
            return memo[0]
        low = self._lower_vector_of(form, x, mds, rows)
        self._lower_memo.put(memo_key, form, (low,))
        return low

    def floor(self, form: Form, x: int) -> tuple[int, ...] | None:
        """:meth:`lower_vector` of ``form`` with ``min_waste`` bounded too: a payment wastes
        nothing only if each of its activations adds no more units than the payment spends
        (the form's mana and the activation costs), so the criteria after ``min_waste`` are
        bounded over those activations alone, and ``min_waste`` is at least 1 when they
        can't pay the form (the same reading as the forward search's bound).  For skipping
        forms, not ordering them."""
        low = self.lower_vector(form, x)
        if low is None or "min_waste" not in self.criteria:
            return low
        key = (id(form), x)
        memo = self._floor_memo.get(key, form)
        if memo is not None:
            return memo[0]
        rows = self._relax_rows.get(key, form)
        if rows is None:
            rows = self._relax_rows.put(key, form, self._rows_for(form))
        every = self._packed(form, x, rows, 0)
        out = low
        if every is not None:
            most = form.mana_total(x) + sum(n * self.class_cap[m.k] for m in self.modes_all
                                            for _, n in m.costs)
            exact = self._packed(form, x, rows, most)
            if exact is None:
                out = self._mixed_vector(form, every, every, 1)
            elif exact > every:
                out = self._mixed_vector(form, every, exact, 0)
        self._floor_memo.put(key, form, (out,))
        return out

    def _packed(self, form: Form, x: int, rows: FormRows, most: int) -> int | None:
        """The packed linear part of :meth:`lower_vector` with no activation given, from modes
        of at most ``most`` units an activation (0: any); ``None`` when none covers it."""
        scale, total_rows, kind_rows = rows
        cap = self.class_cap
        pool = self.pool_total

        def relax(d: int, table: Table) -> int:
            num = 0
            for unit_cost, per, k, m in table:
                if most and len(m.masks) > most:
                    continue
                take = min(d, cap[k] * per)
                num += take * unit_cost
                d -= take
                if d <= 0:
                    return -(-num // scale)
            return -1

        total = form.mana_total(x) - pool
        extra = 0
        if total > 0:
            extra = relax(total, total_rows)
            if extra < 0:
                return None
            net = relax(total, self._kind_tables["net"])
            if net < 0:
                return None
            extra = max(extra, net)
        for mask, n, table in kind_rows:
            d = n - (pool if mask > 0 else 0)
            if d > 0:
                got = relax(d, table)
                if got < 0:
                    return None
                extra = max(extra, got)
        return extra

    def _mixed_vector(self, form: Form, lin: int, late: int, waste: int) -> tuple[int, ...]:
        """:meth:`vector_of` with no activation given, the criteria after ``min_waste`` read
        from ``late`` instead of ``lin`` (``late >= lin``) and ``min_waste`` at ``waste``."""
        codec = self.lin
        life = form.life * codec.place.get("min_life", 0)
        early = codec.digits(lin + life)
        after = codec.digits(late + life)
        crit = self.criteria
        at = crit.index("min_waste")
        names = codec.names
        digits = [after[j] if name == "tiebreak" or crit.index(name) > at else early[j]
                  for j, name in enumerate(names)]
        return self._assemble(digits, [0] * len(self.class_cap), form, waste)

    def _lower_vector_of(self, form: Form, x: int, mds: tuple[Mode, ...],
                         rows: FormRows) -> tuple[int, ...] | None:
        """:meth:`lower_vector`, computed."""
        scale, total_rows, kind_rows = rows
        cap = self.class_cap
        pool = self.pool_total
        taken: dict[int, int] = {}
        for md in mds:
            taken[md.k] = taken.get(md.k, 0) + 1
        if any(cap[k] < n for k, n in taken.items()):
            return None

        def relax(d: int, table: Table) -> int:
            num = 0
            for unit_cost, per, k, _m in table:
                left = cap[k] - taken.get(k, 0)
                if left <= 0:
                    continue
                take = min(d, left * per)
                num += take * unit_cost
                d -= take
                if d <= 0:
                    return -(-num // scale)
            return -1

        own = [(u, md.snow) for md in mds for u in md.masks]
        base = 0  # packed linear cost (the form's life is added by vector_of)
        if len(mds) == 1 and not form.generic(x) and not any(
                u & mask if mask > 0 else snow for u, snow in own
                for mask, _ in kind_rows_masks(form)):
            # Its mana pays nothing of the form: only another activation's cost (a
            # payment using it activates another costly mode too, if there is one).
            md = mds[0]
            if not any(m.costs and m is not md and (m.k != md.k or cap[m.k] > 1)
                       for m in self.modes_all):
                return None
            own = []
        # Two bounds on the mana still to find: the mana paying the costs of ``mds`` charged
        # at ``payer`` per unit and every unit counted (total_rows), or those costs asked
        # for and each activation counted net of its own cost (the "net" rows).
        costs = sum(n for md in mds for _, n in md.costs)
        paid = self._payer * costs
        total = form.mana_total(x) - len(own) - pool
        extra = relax(total, total_rows) + paid if total > 0 else paid
        if total > 0 and extra < paid:
            return None
        if total + costs > 0:
            net = relax(total + costs, self._kind_tables["net"])
            if net < 0:
                return None
            extra = max(extra, net)
        for mask, n, table in kind_rows:
            d = n - sum(1 for u, snow in own if (u & mask if mask > 0 else snow))
            d -= pool if mask > 0 else 0
            if d > 0:
                got = relax(d, table)
                if got < 0:
                    return None
                extra = max(extra, got + paid)
        base += sum(self.lin.act_cost(md) for md in mds)
        return self.vector_of(form, base + extra, list(mds))

    def _rows_for(self, form: Form) -> FormRows:
        """The relaxation's tables for one form: every mode's units as
        ``(cost per unit × scale, units per activation, class, mode)``, cheapest first, for
        the total (net of activation costs) and for each demand kind."""
        scale, total_rows = self._totals()
        return scale, total_rows, [(mask, n, self._kind_table(mask)) for mask, n in kind_rows_masks(form)]

    def _totals(self) -> tuple[int, Table]:
        """The scale (the LCM of every unit count a table divides by: per mode, per demand
        kind) and the table of the total; sets the ``payer`` cost and the "net" table too.
        They depend on the board only, not on the form."""
        memo = self._kind_tables
        total_rows = memo.get("total")
        if total_rows is not None:
            return self._scale, total_rows
        act_cost = self.lin.act_cost
        unit_counts: set[int] = set()
        read: list[tuple[Mode, int, int, int]] = []  # (mode, units, units its cost asks, cost)
        for m in self.modes_all:
            if m.k < 0:
                continue
            size, asked, counts = _unit_counts(m)
            unit_counts |= counts
            read.append((m, size, asked, act_cost(m)))
        scale = self._scale = lcm_of(unit_counts)
        # An activation with a mana cost also spends the units paying it: at least the
        # cheapest cost per unit of any mode each (0 with floating mana), rounded down.
        payer = self._payer = 0 if self.pool_total else min(
            (cost // size for _, size, _, cost in read if size), default=0)
        # The total's rows as _table makes them (every unit counted), and each activation's
        # units net of its own cost, at its own cost only.
        total_rows = []
        net_rows = []
        for m, size, asked, cost in read:
            if size > 0:
                total_rows.append((cost * (scale // size) + payer * asked * (scale // size), size, m.k, m))
            per = size - asked
            if per > 0:
                net_rows.append((cost * (scale // per), per, m.k, m))
        total_rows.sort(key=lambda r: r[0])
        net_rows.sort(key=lambda r: r[0])
        memo["total"] = total_rows
        memo["net"] = net_rows
        return scale, total_rows

    def _kind_table(self, mask: int) -> Table:
        """The table of demand kind ``mask`` (a negative mask: snow), kept per mask: it depends
        on the board, not on the form (Reaper King's 32 forms share five masks).

        Rows cheapest first: a unit costs its share of the activation (1/size) plus the
        units paying the activation's cost (``payer`` each) over the units it gives of the
        kind; the mana paying activation costs is not counted as given (shares of one
        payment never overlap, so this bounds its linear cost)."""
        memo = self._kind_tables
        table = memo.get(mask)
        if table is not None:
            return table
        self._totals()
        scale = self._scale
        payer = self._payer
        act_cost = self.lin.act_cost
        rows: Table = []
        for m in self.modes_all:
            if m.k < 0:
                continue
            masks = m.masks
            # The units one activation gives of the kind.
            per = sum(1 for u in masks if u & mask) if mask > 0 else (len(masks) if m.snow else 0)
            if per <= 0:
                continue
            paid = payer * sum(n for _, n in m.costs) if m.costs else 0
            cost = act_cost(m) * (scale // len(masks)) + paid * (scale // per)
            rows.append((cost, per, m.k, m))
        rows.sort(key=lambda r: r[0])
        memo[mask] = rows
        return rows


#: The most units of a mode making mana of several masks whose possible counts per demand kind
#: are taken as every count up to its size (above it, the exact counts of :meth:`Mode.counts`).
_SMALL_MIXED = 4


def _unit_counts(m: Mode) -> tuple[int, int, set[int] | frozenset[int]]:
    """The units one activation of ``m`` adds, the units its mana cost asks, and counts that
    every count a table divides by for it divides (:meth:`Mode.counts` gives exactly those):
    its size, its size net of its cost, and the units it gives of any demand kind, which are
    its size (or none) when its units are of one mask, and at most its size otherwise.  Only
    their LCM is read (the tables' scale), and any common multiple gives the same bounds (each
    row's cost is exact in units of the scale), so the common modes skip the exact reading."""
    masks = m.masks
    size = len(masks)
    if size > _SMALL_MIXED and any(u != masks[0] for u in masks):
        return m.counts()
    asked = sum(n for _, n in m.costs) if m.costs else 0
    counts = {size, size - asked}
    if size > 1 and any(u != masks[0] for u in masks):
        counts.update(range(1, size))
    return size, asked, counts
