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

from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from manasolver.models.symbols import ANY_TYPE, C

__all__ = ["Assist", "Demand", "Paid", "Plan", "Step", "executable"]

#: Depth-first search nodes tried for an order of the mana-costing activations.
MAX_NODES = 4000

PaidKind = Literal["activation", "pool", "life", "convoke", "delve", "improvise"]


@dataclass(frozen=True, slots=True)
class Step:
    """One activation: the type bits it makes (``mana``), the masks of the mana its cost takes
    (one per unit: ``{U/R}`` is ``U|R``, ``{1}`` is any type), and whether its mana may pay the
    total (``spell_ok``) and mana abilities' costs (``cost_ok``, CR 106.6)."""

    mana: tuple[int, ...]
    cost: tuple[int, ...] = ()
    spell_ok: bool = True
    cost_ok: bool = True


@dataclass(frozen=True, slots=True)
class Demand:
    """One unit of the total: its symbol as written, the types of mana that pay it, and whether
    it is generic (convoke, improvise and delve pay generic; convoke a colored symbol too)."""

    symbol: str
    mask: int
    generic: bool = False


@dataclass(frozen=True, slots=True)
class Assist:
    """A creature convoked, an artifact improvised or a card delved: pays one symbol of the
    total (``mask``: a convoked creature's colors, 702.51a)."""

    kind: Literal["convoke", "improvise", "delve"]
    name: str
    mask: int = 0


@dataclass(frozen=True, slots=True)
class Paid:
    """What paid one symbol: ``kind`` and the activation's index in the order written (or the
    assist's id or name; the pool: ``True``)."""

    symbol: str
    kind: PaidKind
    value: int | str | bool


@dataclass(frozen=True, slots=True)
class Plan:
    """``order``: indices into the given steps, executable; ``paid``: one entry per demand of
    the total, in order; ``ordered``: false when no executable order was found (the given order
    is kept and the allocation does not respect it)."""

    order: tuple[int, ...]
    paid: tuple[Paid, ...]
    ordered: bool = True


# -- the flow over counted classes ------------------------------------------------------------

_Unit = tuple[str, int, int, bool, bool, str]   # (kind, maker, bit, spell_ok, cost_ok, name)
_Want = tuple[str, int, int]                     # ("total", index into totals, mask) | ("cost", i, mask) | ("float", -1, bit)


def _flow(units: dict[_Unit, int], wants: dict[_Want, int], totals: Sequence[Demand],
          rank: dict[int, int], free_rest: frozenset[int] = frozenset()) -> dict[tuple[_Unit, _Want], int] | None:
    """A flow filling every want exactly from ``units`` (equal sizes), or ``None``.  A unit of
    maker ``j`` pays the cost of ``i`` when ``rank[j] < rank[i]``; makers in ``free_rest`` are
    unordered among themselves (each may pay any other of them, never itself)."""
    ulist = list(units)
    wlist = list(wants)

    def ok(u: _Unit, w: _Want) -> bool:
        kind, maker, bit, spell_ok, cost_ok, _ = u
        wk, i, mask = w
        if wk == "float":
            return kind == "made" and bit == mask
        if wk == "cost":
            if kind not in ("made", "pool") or not cost_ok or not bit & mask or maker == i:
                return False
            if kind == "pool" or rank.get(maker, -1) < 0:
                return True
            if maker in free_rest and i in free_rest:
                return True
            return rank[maker] < rank.get(i, len(rank) + 1)
        demand = totals[i]
        if kind in ("improvise", "delve"):
            return demand.generic
        if kind == "convoke":
            return demand.generic or bool(bit & demand.mask and demand.mask != C)
        return spell_ok and bool(bit & mask)

    edges = [[j for j, w in enumerate(wlist) if ok(u, w)] for u in ulist]
    cap_u = [units[u] for u in ulist]
    cap_w = [wants[w] for w in wlist]
    flow: dict[tuple[int, int], int] = {}
    # Greedy start, then augmenting paths (unit -> want -> unit via flow back -> want ...).
    for a, js in enumerate(edges):
        for j in js:
            take = min(cap_u[a], cap_w[j])
            if take:
                flow[(a, j)] = flow.get((a, j), 0) + take
                cap_u[a] -= take
                cap_w[j] -= take
    back: list[list[int]] = [[] for _ in wlist]
    for a, js in enumerate(edges):
        for j in js:
            back[j].append(a)
    while any(cap_w):
        # BFS from units with capacity left to wants with capacity left.
        prev_w: dict[int, int] = {}
        prev_u: dict[int, int] = {}
        queue = deque(a for a in range(len(ulist)) if cap_u[a])
        seen_u = set(queue)
        end = -1
        while queue and end < 0:
            a = queue.popleft()
            for j in edges[a]:
                if j in prev_w:
                    continue
                prev_w[j] = a
                if cap_w[j]:
                    end = j
                    break
                for b in back[j]:
                    if b not in seen_u and flow.get((b, j), 0) > 0:
                        seen_u.add(b)
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
            flow[(a, j)] = flow.get((a, j), 0) + sign * amount
        cap_u[start] -= amount
        cap_w[end] -= amount
    return {(ulist[a], wlist[j]): n for (a, j), n in flow.items() if n > 0}


# -- the order --------------------------------------------------------------------------------

def _greedy(steps: Sequence[Step], costly: list[int], pool: Sequence[int]) -> list[int]:
    """The mana-costing activations, repeatedly the first whose cost the unclaimed mana made
    so far (by cost-free activations, the pool and those placed) pays; those never payable
    at the end.  A candidate for the flow to check."""
    have: dict[int, int] = {}
    for bit in pool:
        have[bit] = have.get(bit, 0) + 1
    for i, s in enumerate(steps):
        if not s.cost and s.cost_ok:
            for bit in s.mana:
                have[bit] = have.get(bit, 0) + 1
    left = list(costly)
    out: list[int] = []
    while left:
        for i in left:
            trial = dict(have)
            ok = True
            for mask in sorted(steps[i].cost, key=lambda m: m.bit_count()):
                bit = next((b for b in sorted(trial, key=lambda b: -trial[b]) if trial[b] and b & mask), 0)
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


def _topological(n: int, before: list[set[int]]) -> list[int] | None:
    """The stable topological order of ``before`` (index -> indices that must precede it)."""
    out: list[int] = []
    done: set[int] = set()
    while len(out) < n:
        ready = next((i for i in range(n) if i not in done and before[i] <= done), None)
        if ready is None:
            return None
        out.append(ready)
        done.add(ready)
    return out


def executable(steps: Sequence[Step], totals: Sequence[Demand], pool: Sequence[int], floating: Sequence[int],
               assists: Sequence[Assist] = (), after: Sequence[set[int]] | None = None) -> Plan:
    """An executable order of ``steps`` (given in board order, with ``after[i]`` the steps that
    must precede step ``i``) and what paid each demand of ``totals`` (see the module docstring).
    ``pool``: the type bits of the pool mana used; ``floating``: those of the mana left over."""
    units: dict[_Unit, int] = {}

    def add(u: _Unit) -> None:
        units[u] = units.get(u, 0) + 1

    for bit in pool:
        add(("pool", -1, bit, True, True, ""))
    for i, s in enumerate(steps):
        for bit in s.mana:
            add(("made", i, bit, s.spell_ok, s.cost_ok, ""))
    for a in assists:
        add((a.kind, -1, a.mask, True, False, a.name))
    wants: dict[_Want, int] = {}

    def want(w: _Want) -> None:
        wants[w] = wants.get(w, 0) + 1

    kinds: list[Demand] = []
    kind_of: list[int] = []
    for d in totals:
        key = Demand("", d.mask, d.generic)
        if key not in kinds:
            kinds.append(key)
        kind_of.append(kinds.index(key))
        want(("total", kind_of[-1], d.mask))
    for i, s in enumerate(steps):
        for mask in s.cost:
            want(("cost", i, mask))
    for bit in floating:
        want(("float", -1, bit))
    constraints = [set(b) for b in after] if after is not None else [set() for _ in steps]
    costly = [i for i, s in enumerate(steps) if s.cost]
    found: tuple[dict[int, int], dict[tuple[_Unit, _Want], int]] | None = None
    if sum(units.values()) == sum(wants.values()):
        rank = {i: k for k, i in enumerate(_greedy(steps, costly, pool))}
        got = _flow(units, wants, kinds, rank)
        found = (rank, got) if got is not None else (_search(units, wants, kinds, costly) if costly else None)
    ordered = found is not None
    if found is None:  # no executable allocation: the given order, and the flow without order
        every = frozenset(range(len(steps)))
        got = _flow(units, wants, kinds, {i: 0 for i in every}, every) if sum(units.values()) == sum(
            wants.values()) else None
        flows = got or {}
    else:
        flows = found[1]
        before = [set(c) for c in constraints]
        for u, w in flows:
            if w[0] == "cost" and u[0] == "made":
                before[w[1]].add(u[1])
        order_list = _topological(len(steps), before)
        if order_list is None:
            ordered = False
    if not ordered or found is None:
        order_list = _topological(len(steps), constraints) or list(range(len(steps)))
    assert order_list is not None
    position = {i: k for k, i in enumerate(order_list)}
    # Each demand of the total takes one unit that flowed to it.
    paid: list[Paid] = []
    for t, d in enumerate(totals):
        w = ("total", kind_of[t], d.mask)
        unit = next((u for (u, ww), n in flows.items() if ww == w and n > 0), None)
        if unit is None:
            paid.append(Paid(d.symbol, "pool", False))
            continue
        flows[(unit, w)] -= 1
        kind, maker = unit[0], unit[1]
        if kind == "made":
            paid.append(Paid(d.symbol, "activation", position[maker]))
        elif kind == "pool":
            paid.append(Paid(d.symbol, "pool", True))
        else:
            paid.append(Paid(d.symbol, kind, unit[5]))  # type: ignore[arg-type]
    return Plan(tuple(order_list), tuple(paid), ordered)


def generic_demands(count: int) -> list[Demand]:
    """``count`` units of generic mana, each written ``{1}``."""
    return [Demand("{1}", ANY_TYPE, True) for _ in range(count)]
