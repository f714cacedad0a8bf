"""The demand tables of one forward search: what each mode adds to each set of demand kinds.

A form's *demand kinds* are its mask demands (``{W}``, a merged hybrid ``{W/U}``), its snow
symbols, and the masks of the activation costs of the modes searched (only mana that may
pay abilities pays those) with their generic part.  For every subset of the kinds,
:func:`build_tables` computes what one activation of each mode adds to it (freely, and
without paying another activation's cost: the no-chain reading), what it adds to the
demand, the initial demand and undecided totals, and the orders the relaxation bounds walk
(cheapest units per mana first).  Hall's condition over these subsets is the search's
feasibility bound.  :func:`greedy_plan` is the first dive of the search: a cheap cover,
so the bounds bite from the start.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass

from manasolver.models._memo import KeyMemo
from manasolver.solver.backends.fastopt.linear import lcm_of
from manasolver.solver.backends.fastopt.modes import GENERIC_COST, Mode
from manasolver.solver.casting.announce import Form

__all__ = ["ABILITY_GENERIC", "SNOW", "Tables", "build_tables", "greedy_plan", "kind_rows_masks"]

#: The demand kind of a form's snow symbols (``{S}``: any type from a snow source).
SNOW = -1
#: The demand kind of the generic part of activation costs.
ABILITY_GENERIC = -3


@dataclass(slots=True)
class Tables:
    """The precomputed part of one forward search (see :func:`build_tables`): demand
    kinds and their subsets, what each mode adds to each subset (freely / without paying
    activation costs), activation costs per subset, the initial demand and undecided
    totals, sizes and caps, the relaxation's orders and the greedy plan."""

    kinds: list[tuple[int, bool]]
    base: list[int]
    nk: int
    subsets: int
    contrib: list[list[int]]
    contrib_r: list[list[int]]
    cost_row: list[list[int]]
    cost_total: list[int]
    need: list[int]
    size: list[int]
    caps: list[int]
    costly: bool
    undecided: list[int]
    und_total: int
    n_pool: int
    slack: int
    pool_modes: list[tuple[int, int]]
    bound_sets: list[int]
    contrib_t: dict[int, list[int]]
    reach: list[int]
    act_cost: list[int]
    scale: int
    by_unit_total: list[int]
    by_unit_set: dict[int, list[int]]
    plan_of: Callable[[], list[int]]
    first_free: int
    most_size: list[int]
    plan: list[int] | None = None

    def first_plan(self) -> list[int]:
        """The greedy plan of the search's first dive (:func:`greedy_plan`), computed when
        first asked (a search the seed answers for never needs it unless plans tie)."""
        if self.plan is None:
            self.plan = self.plan_of()
        return self.plan


def kind_rows_masks(form: Form) -> list[tuple[int, int]]:
    """A form's demand kinds as ``(mask, count)``, snow as mask :data:`SNOW`."""
    return list(form.demands) + ([(SNOW, form.snow)] if form.snow else [])


def build_tables(modes: list[Mode], form: Form, x: int, caps: list[int], class_cap: list[int],
                 act_cost: list[int]) -> Tables:
    """What the forward search of ``form`` over ``modes`` precomputes; ``caps``: the most
    activations of each mode, ``class_cap``: members per class, ``act_cost``: each mode's
    packed linear cost (0 for the pool)."""
    nm = len(modes)
    # Demand kinds: the form's mask demands and snow, then the masks of activation costs
    # (only mana that may pay abilities) and their generic part; ``need`` grows as
    # activations with mana costs are chosen (filter lands, Signets).
    kinds: list[tuple[int, bool]] = [(m, False) for m, _ in form.demands]
    base: list[int] = [c for _, c in form.demands]
    if form.snow:
        kinds.append((SNOW, False))
        base.append(form.snow)
    cost_masks = sorted({m for md in modes for m, _ in md.costs})
    for m in cost_masks:
        kinds.append((m if m != GENERIC_COST else ABILITY_GENERIC, True))
        base.append(0)
    nk = len(kinds)
    subsets = 1 << nk
    kind_of_cost = {m: nk - len(cost_masks) + j for j, m in enumerate(cost_masks)}

    kinds_key = tuple(kinds)
    contrib: list[list[int]] = []
    contrib_r: list[list[int]] = []
    cost_row: list[list[int]] = []
    cost_total: list[int] = []
    # Rows are shared by modes with the same per-unit demand kinds (most lands of a
    # color), within a board and across boards (_ROWS): the search only reads them.
    shared: dict[int, list[int]] = {}
    shared_r: dict[int, list[int]] = {}
    weight_of: dict[int, int] = {}  # caps per shared row
    size: list[int] = []
    und_total = 0
    for md, cap in zip(modes, caps):
        costs = md.costs
        if costs:
            row, row_r, crow = _rows(kinds_key, subsets, md.masks, md.snow, md.pays_ability,
                                     tuple((kind_of_cost[m], n) for m, n in costs))
            cost_total.append(sum(n for _, n in costs))
        else:
            row, row_r, crow = _rows(kinds_key, subsets, md.masks, md.snow, md.pays_ability, ())
            cost_total.append(0)
        key = id(row)
        if key in weight_of:
            weight_of[key] += cap
        else:
            shared[key] = row
            weight_of[key] = cap
        shared_r[id(row_r)] = row_r
        contrib.append(row)
        contrib_r.append(row_r)
        cost_row.append(crow)
        n = len(md.masks)
        size.append(n)
        und_total += n * cap
    need = [0] * subsets
    for t in range(1, subsets):  # a set's demand: the set without its lowest kind, plus that kind
        low = t & -t
        need[t] = need[t ^ low] + base[low.bit_length() - 1]
    costly = any(cost_total)
    undecided = [0] * subsets
    for key, row in shared.items():
        w = weight_of[key]
        if w:
            for t in range(1, subsets):
                undecided[t] += row[t] * w
    n_pool = sum(1 for md in modes if md.k < 0)
    # Mana that may go unspent: at most all but one unit of each multi-mana activation.
    slack = sum((size[i] - 1) * caps[i] for i in range(nm) if size[i] > 1)
    pool_modes = [(i, md.masks[0]) for i, md in enumerate(modes) if md.k < 0]
    bound_sets = [t for t in range(1, subsets) if t.bit_count() <= 2 or t == subsets - 1]
    contrib_t = {t: [row[t] for row in contrib] for t in bound_sets}
    reach_of = {key: sum(1 << kk for kk in range(nk) if row[1 << kk]) for key, row in shared.items()}
    reach = [reach_of[id(row)] for row in contrib]

    # Every per-activation unit count that occurs divides it (the rows' values, each shared
    # row read once).
    counts = set(size)
    for row in shared.values():
        counts.update(row)
    for row in shared_r.values():
        counts.update(row)
    scale = lcm_of(counts)
    sources = [j for j in range(nm) if modes[j].k >= 0 and caps[j]]  # in mode order: stable sorts
    by_unit_total = sorted((j for j in sources if size[j]), key=lambda j: act_cost[j] * (scale // size[j]))
    by_unit_set = {t: sorted((j for j in sources if per[j]), key=lambda j: act_cost[j] * (scale // per[j]))
                   for t, per in contrib_t.items()}
    plan_of = functools.partial(greedy_plan, modes, class_cap, form, x, kinds, base, contrib, size, caps,
                                act_cost)
    first_free = next((j for j in range(nm) if modes[j].k >= 0 and not modes[j].costs), nm)
    # The most units one activation of a mode from each level on adds (the waste bound).
    most_size = [0] * (nm + 1)
    for j in range(nm - 1, -1, -1):
        most_size[j] = max(most_size[j + 1], size[j] if modes[j].k >= 0 and caps[j] else 0)
    return Tables(kinds, base, nk, subsets, contrib, contrib_r, cost_row, cost_total, need,
                  size, caps, costly, undecided, und_total, n_pool, slack, pool_modes,
                  bound_sets, contrib_t, reach, act_cost, scale, by_unit_total, by_unit_set,
                  plan_of, first_free, most_size)


#: The rows of :func:`_rows`, by their arguments, all values (kept across boards: the same cards
#: make the same rows).  Bounded and thread-safe as every :class:`KeyMemo`: the rows are only read.
_ROWS: KeyMemo[tuple[object, ...], tuple[list[int], list[int], list[int]]] = KeyMemo(8193)


def _rows(kinds: tuple[tuple[int, bool], ...], subsets: int, masks: tuple[int, ...], snow: bool,
          pays_ability: bool, costs: tuple[tuple[int, int], ...]) -> tuple[list[int], list[int], list[int]]:
    """What one activation of a mode adds to each subset of the demand ``kinds``: the units
    that can pay it freely, the same without paying another activation's cost (the no-chain
    reading), and its cost (``costs``: (kind index, n)).  Only read by the search."""
    key = (kinds, masks, snow, pays_ability, costs)
    hit = _ROWS.get(key, None)
    if hit is not None:
        return hit
    nk = len(kinds)

    def pays(unit: int, j: int, restricted: bool) -> bool:
        m, ability = kinds[j]
        if ability:
            if not pays_ability or (restricted and costs):
                return False
            return m == ABILITY_GENERIC or bool(unit & m)
        return (snow if m == SNOW else bool(unit & m))

    # Per unit, the demand kinds it can pay (as a bit set), freely and without paying
    # another activation's cost.
    ub = [sum(1 << j for j in range(nk) if pays(u, j, False)) for u in masks]
    ub_r = [sum(1 << j for j in range(nk) if pays(u, j, True)) for u in masks]
    cb = [(1 << j, n) for j, n in costs]
    row = [0] * subsets
    row_r = [0] * subsets
    crow = [0] * subsets
    for t in range(1, subsets):
        row[t] = sum(1 for b in ub if b & t)
        row_r[t] = sum(1 for b in ub_r if b & t)
        crow[t] = sum(n for b, n in cb if b & t)
    return _ROWS.put(key, None, (row, row_r, crow))


def greedy_plan(modes: list[Mode], class_cap: list[int], form: Form, x: int,
                kinds: list[tuple[int, bool]], base: list[int], contrib: list[list[int]],
                size: list[int], caps: list[int], act_cost: list[int]) -> list[int]:
    """Activations per mode of a cheap cover, tried first by the search so that its
    first leaf is a good incumbent: the pool first, then each demand kind (fewest able
    units first) from the cheapest units per mana able to pay it, then the generic
    part; modes with mana costs are left out.  Only an order: never assumed feasible."""
    nm = len(modes)
    plan = [0] * nm
    left = list(class_cap)
    pool_left = {i: caps[i] for i in range(nm) if modes[i].k < 0}
    spare: dict[int, int] = {}  # units made but not yet assigned, per mode

    def avail(i: int) -> int:
        return pool_left[i] if modes[i].k < 0 else left[modes[i].k]

    def take(i: int, want: int, per: int) -> int:
        """Activate mode ``i`` for up to ``want`` units it gives ``per`` of each time."""
        got = 0
        while got < want and avail(i) > 0:
            if modes[i].k < 0:
                pool_left[i] -= 1
            else:
                left[modes[i].k] -= 1
            plan[i] += 1
            got += per
            spare[i] = spare.get(i, 0) + size[i] - per
        if got > want:
            spare[i] = spare.get(i, 0) + got - want
            got = want
        return got

    free = [i for i in range(nm) if not modes[i].costs and size[i]]
    spell_kinds = [j for j in range(len(kinds)) if not kinds[j][1] and base[j] > 0]
    spell_kinds.sort(key=lambda j: sum(caps[i] * contrib[i][1 << j] for i in free))
    for j in spell_kinds:
        want = base[j]
        for i in list(spare):
            if want and contrib[i][1 << j]:
                use = min(want, spare[i])
                spare[i] -= use
                want -= use
        order = sorted((i for i in free if contrib[i][1 << j]),
                       key=lambda i: (modes[i].k >= 0, act_cost[i] / contrib[i][1 << j]))
        for i in order:
            if want <= 0:
                break
            want -= take(i, want, contrib[i][1 << j])
    want = form.generic(x) - sum(spare.values())
    for i in sorted(free, key=lambda i: (modes[i].k >= 0, act_cost[i] / size[i])):
        if want <= 0:
            break
        want -= take(i, want, size[i])
    return plan
