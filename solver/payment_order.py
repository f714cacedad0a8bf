"""A payment as a plan a player can carry out: an executable order and what paid each symbol.

A backend's payment says which mana abilities are activated and how much mana each made, but a
mana ability whose own cost is mana (a filter land's ``{U/R}``, a Signet's ``{1}``) can only be
activated once mana for that cost is in the pool (CR 605.3a, 601.2g): the Island that pays
Cascade Bluffs' ``{U/R}`` has to come first.  :func:`executable` finds an order of the
activations in which every activation's mana cost is paid by mana that the pool or earlier
activations made, and an allocation of every unit of mana (and of every creature convoked,
artifact improvised and card delved) to what it pays: a symbol of the total, an activation's
cost, or the floating mana.

The algorithm: units and demands are counted classes, and one maximum flow decides whether the
supply fills every demand exactly (the same question the payment's validity asks, CR 601.2h);
a unit made by activation ``j`` may pay the cost of activation ``i`` only when ``j`` comes
before ``i``.  Activations without a mana cost come first in any case; the order of the
mana-costing ones is found greedily (the first, in board order, whose cost the mana made so far
pays), checked by the flow, and searched otherwise (a bounded depth-first search whose nodes are
pruned by the flow with the order of the rest left free).  The order written is then the
stable topological order of the flow's own edges (a payer before what it paid) and of the
``after`` constraints (sacrifices), ties in the given order, so an activation moves only as far
as its cost needs.
"""

from __future__ import annotations

import bisect
import heapq
from collections import deque
from itertools import groupby
from operator import itemgetter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, cast

from manasolver.models.cost import ManaCost
from manasolver.models.symbols import ANY_COLOR, ANY_TYPE, C, type_bit
from manasolver.models.slots import slot_setters

__all__ = ["Assist", "Demand", "Paid", "Plan", "Step", "cost_masks", "executable", "mana_bits", "order_of",
           "total_demands", "widened"]

#: Depth-first search nodes tried for an order of the mana-costing activations.
MAX_NODES = 4000

PaidKind = Literal["activation", "pool", "life", "convoke", "delve", "improvise"]


@dataclass(frozen=True, slots=True, init=False)
class Step:
    """One activation: the type bits it makes (``mana``), the masks of the mana its cost takes
    (one per unit: ``{U/R}`` is ``U|R``, ``{1}`` is any type), and whether its mana may pay the
    total (``spell_ok``) and mana abilities' costs (``cost_ok``, CR 106.6: ``True`` any,
    ``False`` none, a set of card types: those of permanents of these types); ``types``: the
    card types of its own permanent (whose scoped mana may pay its cost); ``snow``: which of its
    units are snow, for the total's ``{S}`` (CR 107.4h)."""

    mana: tuple[int, ...]
    cost: tuple[int, ...] = ()
    spell_ok: bool = True
    cost_ok: bool | frozenset[str] = True
    types: frozenset[str] = frozenset()
    snow: tuple[bool, ...] = ()  # per unit of ``mana``: is it snow (CR 107.4h; empty: none is)
    colored_only: bool = False  # its mana pays no generic cost (Jegantha's, CR 106.6)
    #: The flow's units of its mana when it costs none and its ``cost_ok`` is a flag
    #: (:func:`_free_units`): filled when :func:`executable` first reads it (a step is read by
    #: the order and again by the plan); a field of this frozen object, so two threads reading
    #: it at once compute the same value, and either write stands.
    free_units: tuple[_Unit, ...] | None = field(init=False, repr=False, compare=False, default=None)

    def __init__(self, mana: tuple[int, ...], cost: tuple[int, ...] = (), spell_ok: bool = True,
                 cost_ok: bool | frozenset[str] = True, types: frozenset[str] = frozenset(),
                 snow: tuple[bool, ...] = (), colored_only: bool = False) -> None:
        # Each field set through its slot (see slot_setters): a step per kind of activation of a payment.
        s0, s1, s2, s3, s4, s5, s6, s7 = _STEP_SLOTS
        s0(self, mana)
        s1(self, cost)
        s2(self, spell_ok)
        s3(self, cost_ok)
        s4(self, types)
        s5(self, snow)
        s6(self, colored_only)
        s7(self, None)


_STEP_SLOTS = slot_setters(Step)
_FREE_UNITS = _STEP_SLOTS[-1]


@dataclass(frozen=True, slots=True)
class Demand:
    """One unit of the total: its symbol as written, the types of mana that pay it, and whether
    it is generic (convoke, improvise and delve pay generic; convoke a colored symbol too), and
    whether it is ``{S}`` (snow mana only, CR 107.4h)."""

    symbol: str
    mask: int
    generic: bool = False
    snow: bool = False  # {S}: paid by snow mana only


@dataclass(frozen=True, slots=True)
class Assist:
    """A creature convoked, an artifact improvised or a card delved: pays one symbol of the
    total (``mask``: a convoked creature's colors, 702.51a)."""

    kind: Literal["convoke", "improvise", "delve"]
    name: str
    mask: int = 0


#: What paid one symbol, ``(symbol, kind, value)``: ``kind`` and the activation's index in the
#: order written (or the assist's id or name; the pool: ``True``).  A plain tuple: one is made per
#: unit of a payment's total, and the plan reads it only as its three fields.
Paid = tuple[str, PaidKind, int | str | bool]
_FIRST = itemgetter(0)


@dataclass(frozen=True, slots=True)
class Plan:
    """``order``: indices into the given steps, executable; ``paid``: one entry per demand of
    the total, in order; ``ordered``: false when no executable order was found (the given order
    is kept and the allocation does not respect it)."""

    order: tuple[int, ...]
    paid: tuple[Paid, ...]
    ordered: bool = True


# -- the flow over counted classes ------------------------------------------------------------

# (kind, maker, bit, spell_ok, cost_ok: True, False or the steps whose costs it may pay, name)
_Unit = tuple[str, int, int, bool, bool | frozenset[int], str]
# ("total", index into totals, mask) | ("cost", i, mask) | ("float", -1, bit)
_Want = tuple[str, int, int]


def _flow(units: dict[_Unit, int], wants: dict[_Want, int], totals: Sequence[Demand],
          rank: dict[int, int], free_rest: frozenset[int] = frozenset()) -> dict[tuple[_Unit, _Want], int] | None:
    """A flow filling every want exactly from ``units`` (equal sizes), or ``None``.  A unit of
    maker ``j`` pays the cost of ``i`` when ``rank[j] < rank[i]``; makers in ``free_rest`` are
    unordered among themselves (each may pay any other of them, never itself)."""
    ulist = list(units)
    wlist = list(wants)
    kinds = _want_kinds(wlist)
    edges = [_payable(u, kinds, totals, rank, free_rest) for u in ulist]
    cap_u = [units[u] for u in ulist]
    cap_w = [wants[w] for w in wlist]
    flow: dict[tuple[int, int], int] = {}
    into: list[dict[int, int]] = [{} for _ in wlist]  # the same flow by want, then unit
    # Greedy start, then augmenting paths (unit -> want -> unit via flow back -> want ...).
    # (a unit's wants are distinct, so each edge is met once here; a unit spent meets no more)
    for a, js in enumerate(edges):
        left = cap_u[a]
        for j in js:
            if not left:
                break
            room = cap_w[j]
            if room:
                take = left if left < room else room
                flow[(a, j)] = into[j][a] = take
                left -= take
                cap_w[j] = room - take
        cap_u[a] = left
    while any(cap_w):
        # BFS from units with capacity left to wants with capacity left.
        prev_w = [-1] * len(wlist)  # the unit each want was reached from
        prev_u: dict[int, int] = {}
        seen_u = [bool(c) for c in cap_u]
        queue = deque([a for a, c in enumerate(cap_u) if c])
        end = -1
        while queue and end < 0:
            a = queue.popleft()
            for j in edges[a]:
                if prev_w[j] >= 0:
                    continue
                prev_w[j] = a
                if cap_w[j]:
                    end = j
                    break
                # the units paying want j, in unit order (those with an edge to it that the
                # flow fills: every unit that pays it is one of those)
                paid = into[j]
                for b in sorted(paid):
                    if paid[b] > 0 and not seen_u[b]:
                        seen_u[b] = True
                        prev_u[b] = j
                        queue.append(b)
        if end < 0:
            return None
        path: list[tuple[int, int, int]] = []  # (unit, want, +1/-1)
        j = end
        while True:
            a = prev_w[j]
            path.append((a, j, 1))
            if a in prev_u:
                j2 = prev_u[a]
                path.append((a, j2, -1))
                j = j2
            else:
                break
        start = path[-1][0]
        amount = min(cap_u[start], cap_w[end])
        for a, j, sign in path:
            if sign < 0:
                amount = min(amount, flow[(a, j)])
        for a, j, sign in path:
            flow[(a, j)] = into[j][a] = flow.get((a, j), 0) + sign * amount
        cap_u[start] -= amount
        cap_w[end] -= amount
    return {(ulist[a], wlist[j]): n for (a, j), n in flow.items() if n > 0}


def _payable(u: _Unit, wants: tuple[list[tuple[int, int, int]], ...], totals: Sequence[Demand],
             rank: dict[int, int], free_rest: frozenset[int]) -> list[int]:
    """The indices of the wants that unit ``u`` may fill (see :func:`_flow`), in order: what it is
    read once, then each want of the kinds it may pay (``wants``: :func:`_want_kinds`)."""
    floats, costs, whole = wants
    kind, maker, bit, spell_ok, cost_ok, _ = u
    made = kind == "made"
    colored = bit & COLORED_UNIT
    out: list[int] = []
    if (made or kind == "pool") and cost_ok is not False:
        # a unit of a maker placed in ``rank`` pays the costs of the steps after it; the pool's, or
        # a maker's outside it, any cost
        mine = rank.get(maker, -1)
        ranked = kind != "pool" and mine >= 0
        free = maker in free_rest
        beyond = len(rank) + 1
        scope = None if isinstance(cost_ok, bool) else cost_ok
        if scope is None and not colored and not ranked:
            # the common unit (of the pool, or of an activation without a mana cost): every cost
            # its type pays but its own maker's
            out = [j for j, i, mask in costs if bit & mask and maker != i]
        elif scope is None and not colored and not free:
            # a unit of a ranked maker: the costs its type pays of the steps ranked after it
            out = [j for j, i, mask in costs if bit & mask and maker != i and mine < rank.get(i, beyond)]
        else:
            for j, i, mask in costs:
                if not bit & mask or maker == i or (scope is not None and i not in scope):
                    continue
                if colored and mask & ANY_TYPE == ANY_TYPE:
                    continue  # a generic unit of the cost
                if not ranked or (free and i in free_rest) or mine < rank.get(i, beyond):
                    out.append(j)
    if made and floats:
        plain = bit & ~(SNOW_UNIT | COLORED_UNIT)
        out.extend(j for j, _i, mask in floats if plain == mask)
    snowy = bit & SNOW_UNIT
    if (made or kind == "pool") and not colored:
        # mana of the pool or of an activation: each demand of its type (``{S}``: snow mana only)
        if spell_ok:
            out.extend([j for j, i, mask in whole if bit & mask and (snowy or not totals[i].snow)])
        out.sort()
        return out
    for j, i, mask in whole:
        demand = totals[i]
        if kind in ("improvise", "delve"):
            ok = demand.generic
        elif kind == "convoke":
            ok = demand.generic or bool(bit & demand.mask and demand.mask != C)
        elif colored and (demand.generic or demand.snow):
            ok = False  # {S} is generic too (CR 107.4h)
        else:
            ok = spell_ok and bool(bit & mask) and (not demand.snow or bool(snowy))
        if ok:
            out.append(j)
    out.sort()
    return out


def _want_kinds(wlist: list[_Want]) -> tuple[list[tuple[int, int, int]], ...]:
    """The wants of ``wlist`` as (index, step or demand kind, mask), by kind: the floating mana,
    the activations' costs, the total's demands (what :func:`_payable` reads of each)."""
    floats: list[tuple[int, int, int]] = []
    costs: list[tuple[int, int, int]] = []
    whole: list[tuple[int, int, int]] = []
    for j, (wk, i, mask) in enumerate(wlist):
        (floats if wk == "float" else costs if wk == "cost" else whole).append((j, i, mask))
    return floats, costs, whole


# -- the order --------------------------------------------------------------------------------

def _step_runs(steps: Sequence[Step]) -> list[tuple[int, list[int] | None]]:
    """The steps in index order as ``(index, run)``: each step object without a mana cost once,
    where it first comes, with every index holding it (``run``, in order); each step costing
    mana at each of its indices (``run`` None: its units are its own there).  One pass in index
    order: a run is listed where its object first comes and filled as the object comes again."""
    runs: dict[int, list[int]] = {}
    out: list[tuple[int, list[int] | None]] = []
    for i, s in enumerate(steps):
        if s.cost:
            out.append((i, None))
            continue
        run = runs.get(id(s))
        if run is None:
            runs[id(s)] = run = [i]
            out.append((i, run))
        else:
            run.append(i)
    return out


def _greedy(steps: Sequence[Step], costly: list[int], have: dict[int, int]) -> list[int]:
    """The mana-costing activations, repeatedly the first whose cost the unclaimed mana made
    so far (``have``: the pool's and the cost-free activations' whose mana may pay costs, by
    type in the order first made; then those placed) pays; those never payable at the end.  A
    candidate for the flow to check."""
    left = list(costly)
    out: list[int] = []
    while left:
        for i in left:
            trial = dict(have)
            ok = True
            for mask in sorted(steps[i].cost, key=int.bit_count):
                # the types most left first, ties in the order first made (a stable sort)
                bit = next((b for b in sorted(trial, key=trial.__getitem__, reverse=True) if trial[b] and b & mask), 0)
                if not bit:
                    ok = False
                    break
                trial[bit] -= 1
            if ok:
                have = trial
                if steps[i].cost_ok:
                    for bit in steps[i].mana:
                        have[bit] = have.get(bit, 0) + 1
                out.append(i)
                left.remove(i)
                break
        else:
            return out + left
    return out


def _search(units: dict[_Unit, int], wants: dict[_Want, int], totals: Sequence[Demand],
            costly: list[int]) -> tuple[dict[int, int], dict[tuple[_Unit, _Want], int]] | None:
    """A depth-first search over orders of the mana-costing activations: a prefix is pruned
    when the flow fails even with the rest unordered among themselves."""
    nodes = 0
    placed: list[int] = []

    def rec() -> tuple[dict[int, int], dict[tuple[_Unit, _Want], int]] | None:
        nonlocal nodes
        nodes += 1
        if nodes > MAX_NODES:
            return None
        rest = [i for i in costly if i not in placed]
        rank = {i: k for k, i in enumerate(placed)}
        for i in rest:
            rank[i] = len(placed)
        got = _flow(units, wants, totals, rank, frozenset(rest))
        if got is None:
            return None
        if not rest:
            return rank, got
        for i in rest:
            placed.append(i)
            found = rec()
            if found is not None:
                return found
            placed.pop()
        return None

    return rec()


def _topological(n: int, before: Mapping[int, set[int]]) -> list[int] | None:
    """The stable topological order of ``before`` (index -> indices that must precede it; an
    index not there has none): each time the smallest index whose predecessors are all placed;
    None on a cycle.  The indices ready from the start are taken in order from their list, in
    runs up to the next one that others wait for or the least of a heap holding those that
    become ready later (a few: the activations whose costs others pay)."""
    if not any(before.values()):
        return list(range(n))
    waiting = [0] * n
    after: dict[int, list[int]] = {}
    for i, b in before.items():
        waiting[i] = len(b)
        for j in b:
            after.setdefault(j, []).append(i)
    start = [i for i, w in enumerate(waiting) if not w]
    #: The places in ``start`` of the indices others wait for, in order.
    hubs = [at for at, i in enumerate(start) if i in after]
    hub = 0
    at = 0
    later: list[int] = []
    out: list[int] = []

    def release(i: int) -> None:
        for k in after.get(i, ()):
            waiting[k] -= 1
            if not waiting[k]:
                heapq.heappush(later, k)

    while at < len(start) or later:
        if later and (at == len(start) or later[0] < start[at]):
            i = heapq.heappop(later)
            out.append(i)
            release(i)
            continue
        end = bisect.bisect_left(start, later[0], at) if later else len(start)
        while hub < len(hubs) and hubs[hub] < at:
            hub += 1
        if hub < len(hubs) and hubs[hub] < end:
            end = hubs[hub] + 1
        out.extend(start[at:end])
        at = end
        release(start[end - 1])
    return out if len(out) == n else None


def _first_left(order: Sequence[int], left: Mapping[int, Any], mask: int, start: int) -> int:
    """The index in ``order``, from ``start``, of the first type in ``mask`` with units ``left``
    (``len(order)`` when none has)."""
    i = start
    while i < len(order):
        b = order[i]
        if left[b] and b & mask:
            return i
        i += 1
    return i


def _plain_plan(steps: Sequence[Step], totals: Sequence[Demand], pool: Sequence[int], floating: Sequence[int],
                assists: Sequence[Assist]) -> Plan | None:
    """The plan of a payment whose activations cost no mana and whose mana may all pay the
    spell, when a greedy allocation fills it: the board order, the floating mana taken from the
    last activations that made its type, symbols of one type paid by the pool first and then by
    activations in board order, the others by what is left.  None when it does not apply or the
    greedy allocation gets stuck (the flow decides then).

    Activations alike share their step object and a total's demands alike share theirs (the
    generic mana's, each letter's): each object is read once, with the run of indices holding it."""
    if assists or any(s.cost or not s.spell_ok or s.colored_only for s in steps):
        return None
    made = _made_by_type(steps, list(map(id, steps)))
    have: dict[int, int] = {}
    for bit in pool:
        have[bit] = have.get(bit, 0) + 1
    for bit in floating:
        queue = made.get(bit)
        if not queue:
            return None
        queue.pop()
    paid: list[Paid | None] = [None] * len(totals)
    # A symbol of one type: the pool's units of its type first, then the activations' in order.
    # The others are left for below, in runs of one mask and symbol ((start, end) in ``todo``).
    todo: list[int] = []
    runs: list[tuple[int, int, int, str]] = []
    t = 0
    for _id, alike in groupby(totals, id):
        d = totals[t]
        end = t + len(list(alike))
        mask, symbol = d.mask, d.symbol
        if d.generic or mask.bit_count() != 1:
            if runs and runs[-1][2] == mask and runs[-1][3] == symbol:
                runs[-1] = (runs[-1][0], runs[-1][1] + end - t, mask, symbol)
            else:
                runs.append((len(todo), len(todo) + end - t, mask, symbol))
            todo.extend(range(t, end))
            t = end
            continue
        pooled = have.get(mask, 0)
        if pooled:
            n = min(pooled, end - t)
            have[mask] = pooled - n
            paid[t:t + n] = [(symbol, "pool", True)] * n
            t += n
        if t < end:
            queue = made.get(mask)
            if queue is None or len(queue) < end - t:
                return None
            popleft = queue.popleft
            paid[t:end] = [(symbol, "activation", popleft()) for _ in range(end - t)]
            t = end
    # The others take the first type (pool first, then activations, each in the order first
    # met) with units left that pays them.  Units only run out here, so a type passed over for a
    # mask stays passed over: a cursor per mask finds each in time proportional to the types,
    # and a run of demands alike (the generic mana, mostly) takes what one type has left at once.
    have_order = list(have)
    made_order = list(made)
    cursors: dict[int, list[int]] = {}
    for at, end, mask, symbol in runs:
        cursor = cursors.get(mask)
        if cursor is None:
            cursor = cursors[mask] = [0, 0]
        while at < end:
            cursor[0] = _first_left(have_order, have, mask, cursor[0])
            if cursor[0] < len(have_order):
                bit = have_order[cursor[0]]
                n = min(end - at, have[bit])
                have[bit] -= n
                _fill(paid, todo, at, [(symbol, "pool", True)] * n)
                at += n
                continue
            cursor[1] = _first_left(made_order, made, mask, cursor[1])
            if cursor[1] >= len(made_order):
                return None
            queue = made[made_order[cursor[1]]]
            n = min(end - at, len(queue))
            popleft = queue.popleft
            _fill(paid, todo, at, [(symbol, "activation", popleft()) for _ in range(n)])
            at += n
    if any(have.values()) or any(made.values()):
        return None
    return Plan(tuple(range(len(steps))), cast(tuple[Paid, ...], tuple(paid)))  # every demand is paid here


def _made_by_type(steps: Sequence[Step], ids: list[int]) -> dict[int, deque[int]]:
    """The index of the activation making each unit of mana, by type (ascending, an index once
    per unit it makes of the type), the types in the order first made.  Read per step object:
    the indices holding each (``ids``: the objects' ids by index) are grouped by a stable sort,
    and a type made by several objects has their runs merged by a sort."""
    grouped = [list(g) for _k, g in groupby(sorted(range(len(steps)), key=ids.__getitem__), ids.__getitem__)]
    grouped.sort(key=_FIRST)  # the objects in the order first met
    lists: dict[int, list[int]] = {}
    merged: set[int] = set()
    for run in grouped:
        for bit in steps[run[0]].mana:
            got = lists.get(bit)
            if got is None:
                lists[bit] = run[:]
            else:
                got.extend(run)
                merged.add(bit)
    return {bit: deque(sorted(got) if bit in merged else got) for bit, got in lists.items()}


def _fill(paid: list[Paid | None], todo: list[int], at: int, values: list[Paid]) -> None:
    """``paid`` at the indices ``todo[at:at + len(values)]`` set to ``values`` (a slice when they
    are consecutive, as a run of the generic mana's are)."""
    n = len(values)
    if not n:
        return
    first = todo[at]
    if todo[at + n - 1] - first == n - 1:
        paid[first:first + n] = values
        return
    for t, p in zip(todo[at:at + n], values):
        paid[t] = p


def _unit_keys(s: Step, group: int, steps: Sequence[Step]) -> tuple[_Unit, ...]:
    """The flow's unit of each mana ``s`` makes (``group``: its own index when it costs mana, so
    that its units pay only later steps; -1 for a step without a mana cost)."""
    scope = s.cost_ok if isinstance(s.cost_ok, bool) else frozenset(
        j for j, t in enumerate(steps) if t.cost and not s.cost_ok.isdisjoint(t.types))
    snow = s.snow
    colored = COLORED_UNIT if s.colored_only else 0
    return tuple(("made", group, bit | (SNOW_UNIT if at < len(snow) and snow[at] else 0) | colored, s.spell_ok,
                  scope, "") for at, bit in enumerate(s.mana))


def _free_units(s: Step, steps: Sequence[Step]) -> tuple[_Unit, ...]:
    """:func:`_unit_keys` of a step without a mana cost (read once per step object: on the
    step itself when its ``cost_ok`` is a flag, since they then depend on nothing else)."""
    if not isinstance(s.cost_ok, bool):
        return _unit_keys(s, -1, steps)
    got = s.free_units
    if got is None:
        got = _unit_keys(s, -1, steps)
        _FREE_UNITS(s, got)
    return got


def executable(steps: Sequence[Step], totals: Sequence[Demand], pool: Sequence[int], floating: Sequence[int],
               assists: Sequence[Assist] = (), after: Sequence[set[int]] | None = None,
               allocate: bool = True) -> Plan:
    """An executable order of ``steps`` (given in board order, with ``after[i]`` the steps that
    must precede step ``i``) and what paid each demand of ``totals`` (see the module docstring).
    ``pool``: the type bits of the pool mana used; ``floating``: those of the mana left over;
    ``allocate``: False for the order alone (``paid`` is then empty).

    The mana of the activations without a mana cost is counted by type and flags, not by
    activation (it may come first in any order); each unit of such a class is given back to an
    activation that made it, in board order, as the flow hands it out."""
    if after is None or not any(after):
        quick = _plain_plan(steps, totals, pool, floating, assists)
        if quick is not None:
            return quick if allocate else Plan(quick.order, ())
    #: The makers of each unit, in order (-1: the pool or an assist); how many there are is the
    #: unit's count.
    makers: dict[_Unit, deque[int]] = {}

    def queue_of(u: _Unit) -> deque[int]:
        q = makers.get(u)
        if q is None:
            q = makers[u] = deque()
        return q

    for bit in pool:
        queue_of(("pool", -1, bit, True, True, "")).append(-1)
    # A step without a mana cost makes the same units wherever it is: read once per step object
    # (activations alike share theirs), with all the indices holding it at once.  The steps are
    # read in index order, each object where it first comes, so the units are met in the same
    # order as reading the steps one by one.
    costly: list[int] = []
    #: What the pool and the cost-free steps whose mana may pay costs make, by type in the order
    #: first made (what :func:`_greedy` starts from).
    have: dict[int, int] = {}
    for bit in pool:
        have[bit] = have.get(bit, 0) + 1
    #: The units two runs of indices (or one run twice) make: their queues merged in order after.
    merged: set[_Unit] = set()
    for first, run in _step_runs(steps):
        s = steps[first]
        if run is None:  # a step costing mana: its units pay only the steps after it
            costly.append(first)
            for u in _unit_keys(s, first, steps):
                queue_of(u).append(first)
            continue
        for u in _free_units(s, steps):
            q = queue_of(u)
            if q:
                merged.add(u)
            q.extend(run)
        if s.cost_ok:
            for bit in s.mana:
                have[bit] = have.get(bit, 0) + len(run)
    for u in merged:
        makers[u] = deque(sorted(makers[u]))
    for a in assists:
        queue_of((a.kind, -1, a.mask, True, False, a.name)).append(-1)
    units = {u: len(q) for u, q in makers.items()}
    wants: dict[_Want, int] = {}

    def want(w: _Want) -> None:
        wants[w] = wants.get(w, 0) + 1

    kinds: list[Demand] = []
    index: dict[tuple[int, bool, bool], int] = {}
    kind_of: list[int] = []
    counted: dict[int, int] = {}  # demands of each kind, kinds in the order first met
    for _id, alike in groupby(totals, id):  # a run of one demand object (the generic mana's) read once
        same = list(alike)
        d = same[0]
        k = index.get((d.mask, d.generic, d.snow), -1)
        if k < 0:
            k = index[(d.mask, d.generic, d.snow)] = len(kinds)
            kinds.append(Demand("", d.mask, d.generic, d.snow))
        kind_of.extend([k] * len(same))
        counted[k] = counted.get(k, 0) + len(same)
    #: The want of each kind of demand of the total, counted in the order first met.
    want_of = [("total", k, kinds[k].mask) for k in range(len(kinds))]
    for k, n in counted.items():
        wants[want_of[k]] = n
    for i in costly:
        for mask in steps[i].cost:
            want(("cost", i, mask))
    for bit in floating:
        want(("float", -1, bit))
    #: The steps that must precede each step, by its index (none: not there).
    constraints = {i: set(b) for i, b in enumerate(after) if b} if after is not None else {}
    flows: dict[tuple[_Unit, _Want], int] | None = None
    ordered = False
    if sum(units.values()) == sum(wants.values()):
        rank = {i: k for k, i in enumerate(_greedy(steps, costly, have))}
        flows = _flow(units, wants, kinds, rank)
        if flows is None and costly:
            found = _search(units, wants, kinds, costly)
            flows = found[1] if found is not None else None
        ordered = flows is not None
        if flows is None:  # no executable allocation: the flow without order, the given order
            every = frozenset(range(len(steps)))
            flows = _flow(units, wants, kinds, {i: 0 for i in every}, every)
    if flows is None and any(not d.generic for d in totals):
        # No allocation by type (a payment this module reads more narrowly than the rules that
        # made it): every symbol taken as generic, so each still names a real payer.
        loose = executable(steps, [Demand(d.symbol, ANY_TYPE, True) for d in totals], pool, floating, assists, after,
                           allocate)
        return Plan(loose.order, loose.paid, False)
    flows = flows or {}
    by_want: dict[_Want, list[list[Any]]] = {}
    for (u, w), n in flows.items():
        by_want.setdefault(w, []).append([u, n])
    # The makers of the units that paid each activation's cost come before it.
    before = {i: set(b) for i, b in constraints.items()}
    for w, rows in by_want.items():
        if w[0] == "cost":
            for u, n in rows:
                if u[0] == "made":
                    into = before.get(w[1])
                    if into is None:
                        into = before[w[1]] = set()
                    queue = makers[u]
                    for _ in range(n):
                        into.add(queue.popleft())
    order_list = _topological(len(steps), before) if ordered else None
    if order_list is None:
        ordered = False
        order_list = _topological(len(steps), constraints) or list(range(len(steps)))
    if not allocate:
        return Plan(tuple(order_list), (), ordered)
    return Plan(tuple(order_list), _allocation(totals, kind_of, want_of, by_want, makers, order_list), ordered)


def _allocation(totals: Sequence[Demand], kind_of: list[int], want_of: list[_Want],
                by_want: dict[_Want, list[list[Any]]], makers: dict[_Unit, deque[int]],
                order_list: list[int]) -> tuple[Paid, ...]:
    """What paid each demand of the total: one unit that flowed to its want, the first row of
    the want with units left (rows only run out, so a cursor per want finds it); a run of
    demands alike (one want, one symbol: the generic mana, mostly) taken row by row."""
    position = sorted(range(len(order_list)), key=order_list.__getitem__)  # the order's inverse
    paid: list[Paid] = []
    cursor: dict[_Want, int] = {}
    t = 0
    while t < len(totals):
        symbol = totals[t].symbol
        kind = kind_of[t]
        end = t + 1
        while end < len(totals) and kind_of[end] == kind and totals[end].symbol == symbol:
            end += 1
        w = want_of[kind]
        rows = by_want.get(w, [])
        at = cursor.get(w, 0)
        while t < end:
            while at < len(rows) and rows[at][1] <= 0:
                at += 1
            if at == len(rows):
                paid.extend([(symbol, "pool", False)] * (end - t))
                break
            row = rows[at]
            n = min(end - t, row[1])
            row[1] -= n
            unit = row[0]
            if unit[0] == "made":
                popleft = makers[unit].popleft
                paid.extend([(symbol, "activation", position[popleft()]) for _ in range(n)])
            elif unit[0] == "pool":
                paid.extend([(symbol, "pool", True)] * n)
            else:
                paid.extend([(symbol, unit[0], unit[5])] * n)
            t += n
        cursor[w] = at
        t = end
    return tuple(paid)


#: A flag on a unit's type bit inside :func:`executable`'s flow: the unit is snow mana.
SNOW_UNIT = 1 << 16
#: A unit of mana that can't be spent to pay generic mana costs (Jegantha's), as :data:`SNOW_UNIT`.
COLORED_UNIT = 1 << 17

#: One unit of generic mana as a demand.
_GENERIC = Demand("{1}", ANY_TYPE, True)


def generic_demands(count: int) -> list[Demand]:
    """``count`` units of generic mana, each written ``{1}`` (one shared immutable value)."""
    return [_GENERIC] * count


def mana_bits(text: str) -> tuple[int, ...]:
    """The type bits of a mana string such as ``{U}{R}{C}`` (one bit per symbol)."""
    return tuple(type_bit(part) for part in text.replace("}", "").split("{")[1:])


def cost_masks(cost: ManaCost, times: int = 1, widen: Callable[[int], int] | None = None) -> tuple[int, ...]:
    """One mask per unit of mana a mana ability's cost takes, ``times`` activations of it (each
    colored or colorless symbol's mask widened by ``widen``, the payment's 609.4b table)."""
    one: list[int] = []
    for sym in cost.symbols:
        if sym.special or sym.variable:
            continue
        if sym.is_numeral:
            one.extend([ANY_TYPE] * sym.generic)
        elif sym.snow:
            one.append(ANY_TYPE)
        else:
            mask = (sym.colors & ANY_COLOR) | (C if sym.colorless else 0) or ANY_TYPE
            one.append(widen(mask) if widen is not None else mask)
    return tuple(one) * times


#: The demand of each one-letter symbol of a total (read without the cost parser).
_LETTER_DEMANDS = {t: Demand(f"{{{t}}}", type_bit(t)) for t in "WUBRGC"}


def _plain_demands(total: str) -> tuple[Demand, ...] | None:
    """The demands of a total written only of numerals and one-letter symbols (``{3}{W}{W}{U}``,
    what a large payment's total is), read as :func:`total_demands` reads it; None for any other."""
    out: list[Demand] = []
    generic = 0
    if not total.startswith("{") or not total.endswith("}"):
        return None if total else ()
    for part in total[1:-1].split("}{"):
        if part.isdigit():
            generic += int(part)
            continue
        hit = _LETTER_DEMANDS.get(part)
        if hit is None:
            return None
        out.append(hit)
    return (*generic_demands(generic), *out) if generic else tuple(out)


def total_demands(total: str) -> tuple[Demand, ...]:
    """The demands of a written total, in order: generic as ``{1}`` each, then each symbol."""
    plain = _plain_demands(total)
    if plain is not None:
        return plain
    out: list[Demand] = []
    for sym in ManaCost.parse(total, allow_empty=True).symbols:
        if sym.special or sym.variable:
            continue
        if sym.is_numeral:
            out.extend(generic_demands(sym.generic))
        elif sym.snow:
            out.append(Demand(sym.text, ANY_TYPE, snow=True))
        else:
            out.append(Demand(sym.text, (sym.colors & ANY_COLOR) | (C if sym.colorless else 0) or ANY_TYPE))
    return tuple(out)


def widened(demands: Sequence[Demand], widen: Callable[[int], int] | None) -> Sequence[Demand]:
    """The demands with the types of mana that may pay each (``widen``: the 609.4b table of the
    payment, a symbol's mask to its payers; None: paid by type)."""
    if widen is None:
        return demands
    return tuple(d if d.generic else Demand(d.symbol, widen(d.mask), snow=d.snow) for d in demands)


def order_of(steps: Sequence[Step], total: str, pool_used: str, floating: str, assists: Sequence[Assist] = (),
             after: Sequence[set[int]] | None = None, widen: Callable[[int], int] | None = None) -> tuple[int, ...]:
    """:func:`executable`'s order for a payment written as text (its total, pool used, floating)."""
    return executable(steps, widened(total_demands(total), widen), mana_bits(pool_used), mana_bits(floating),
                      assists, after).order
