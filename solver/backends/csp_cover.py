"""The enumeration's concrete productions and the checks of one candidate payment.

A candidate of :mod:`manasolver.solver.backends.csp` is a list of concrete productions (:class:`Prod`:
one activation of one member with the mana it makes).  This module says whether a candidate is
legal (the tapping and sacrificing costs it names can be met: CR 118.3, 601.2h, 701.21a), whether its
mana covers one concrete total (a bipartite matching of mana units to demands, restricted mana only
where its restriction allows), and which of its activations are redundant, so that only irredundant
payments are listed (:func:`pruned`: a payment that needs every source it uses).
"""

from __future__ import annotations

import itertools
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from manasolver.models.symbols import TYPE_BITS, C
from manasolver.solver.backends.csp_totals import Total
from manasolver.models.rules.ability_scope import ability_scope, scope_pays
from manasolver.solver.supply.model import Option

__all__ = ["COLORED_ONLY", "DemandKey", "Prod", "UnitKey", "concrete", "cover", "mask_bits", "match_units",
           "pays_ability", "plain_removable", "pruned", "sacrifices_ok", "saturates", "taps_ok", "transports"]


def mask_bits(mask: int) -> list[int]:
    return [b for b in TYPE_BITS if mask & b]


@dataclass(frozen=True)
class Prod:
    """One concrete activation of one permanent: the option and the type of each slot."""

    k: int
    member: int
    o: int
    opt: Option
    mana: tuple[int, ...]
    snow: tuple[bool, ...]  # per unit of ``mana``: is it snow (107.4h; Wild Growth's is not)
    spell_ok: bool
    sacrificed: str = ""
    tapped: tuple[str, ...] = ()
    slot: int = 0
    types: frozenset[str] = frozenset()  # its permanent's card types (CR 106.6 scoped mana)

    @property
    def cost_units(self) -> int:
        return sum(s.generic if s.is_numeral else 1 for s in self.opt.mana_cost.symbols if not s.special)


def concrete(k: int, j: int, o: int, opt: Option, snow: bool, ok: bool,
             types: frozenset[str] = frozenset()) -> list[Prod]:
    """Every concrete production of one option of member ``j`` of class ``k`` (``snow``: the
    class's flag; a snow member's nonsnow triggered mana keeps its own flag per unit; ``types``:
    the member's card types)."""
    out: list[Prod] = []
    seen: set[tuple[tuple[int, bool], ...]] = set()
    n_snow = len(opt.slots) - opt.nonsnow_tail if snow else 0
    flags = [True] * n_snow + [False] * (len(opt.slots) - n_snow)  # opt.slot_snow of each slot
    if all(s in TYPE_BITS for s in opt.slots):  # one production (a Chalice's n {C}): counted, not sorted
        counts = Counter(zip(opt.slots, flags))
        order = sorted(counts, key=lambda u: (TYPE_BITS.index(u[0]), not u[1]))
        return [Prod(k, j, o, opt, tuple(b for b, f in order for _ in range(counts[(b, f)])),
                     tuple(f for b, f in order for _ in range(counts[(b, f)])), ok, types=types)]
    for bits in itertools.product(*(mask_bits(s) for s in opt.slots)):
        key = tuple(sorted(zip(bits, flags), key=lambda u: (TYPE_BITS.index(u[0]), not u[1])))
        if key not in seen:
            seen.add(key)
            out.append(Prod(k, j, o, opt, tuple(b for b, _ in key), tuple(f for _, f in key), ok, types=types))
    return out


def taps_ok(chosen: list[Prod], ids: dict[tuple[int, int], str]) -> bool:
    """Each permanent tapped once (its own {T} or one cost), and the activations of one
    repeatable tapping ability counted once (slots filled in order, tapped groups increasing)."""
    seen: set[str] = set()
    last: dict[tuple[int, int, int], tuple[int, tuple[str, ...]]] = {}
    for p in chosen:
        own = (ids[(p.k, p.member)],) if p.opt.tap else ()
        for pid in p.tapped + own:
            if pid in seen:
                return False
            seen.add(pid)
        if p.tapped and not p.opt.exclusive:
            key = (p.k, p.member, p.o)
            prev = last.get(key, (-1, ()))
            if p.slot != prev[0] + 1 or (prev[1] and p.tapped <= prev[1]):
                return False
            last[key] = (p.slot, p.tapped)
    return True


def sacrifices_ok(chosen: list[Prod], ids: dict[tuple[int, int], str]) -> bool:
    """No permanent sacrificed by itself and by an Altar, and no circle of sacrifices: each
    sacrificed permanent's own activations must come before the one sacrificing it."""
    gone = {p.sacrificed for p in chosen if p.sacrificed}
    if not gone:
        return True
    if any(p.opt.sacrifice and ids[(p.k, p.member)] in gone for p in chosen):
        return False
    left = list(range(len(chosen)))
    while left:
        for i in left:
            who = chosen[i].sacrificed
            if not who or all(j == i or ids[(chosen[j].k, chosen[j].member)] != who for j in left):
                left.remove(i)
                break
        else:
            return False
    return True


def pays_ability(p: Prod, chosen: Sequence[Prod] = ()) -> bool | frozenset[int]:
    """Whose mana abilities' costs ``p``'s mana may pay (CR 106.6): ``True`` any, ``False``
    none, else the indices of ``chosen`` whose permanents are of the types its restriction names."""
    scope = ability_scope(p.opt.restriction)
    if isinstance(scope, bool):
        return scope
    return frozenset(i for i, q in enumerate(chosen) if q.opt.mana_cost and scope_pays(scope, q.types))


#: A class of identical mana units: (type bit, with :data:`COLORED_ONLY` for mana that pays no
#: generic cost; snow, pays spells, pays abilities, maker: the index of the activation that made it,
#: -1 for pool mana).
UnitKey = tuple[int, bool, bool, bool | frozenset[int], int]
#: Set on a unit's type bit: its mana can't be spent to pay generic mana costs (Jegantha's; {S} is
#: generic too, CR 107.4h).
COLORED_ONLY = 1 << 17


def _colored_only(p: Prod) -> int:
    """:data:`COLORED_ONLY` for the units of ``p`` when its mana pays colored symbols only, else 0."""
    r = p.opt.restriction
    return COLORED_ONLY if r is not None and r.no_generic else 0
#: A class of identical demands: (kind "t" typed / "s" snow / "g" generic / "f" floating, mask,
#: payer: the activation whose cost it is, -1 the total, -2 floating).
DemandKey = tuple[str, int, int]


def cover(total: Total, chosen: list[Prod], pool_used: Counter[int],
           floating: Counter[int] | None) -> bool:
    """Is there an exact assignment: every demand (the total, every activation's mana cost,
    and ``floating`` when given) takes a distinct unit, every pool unit is used, and every
    produced unit is used when ``floating`` is given?  Some order of the activations that
    cost mana must let each be paid by mana made before it (601.2g).  Units and demands are
    counted by class (a Chalice's thousand {C} are one class), so the work grows with the
    classes, not the units."""
    units: Counter[UnitKey] = Counter()
    for b, n in pool_used.items():
        if n:
            units[(b, False, True, True, -1)] += n
    for i, p in enumerate(chosen):
        ability_ok = pays_ability(p, chosen)
        flag = _colored_only(p)
        for (b, sn), n in Counter(zip(p.mana, p.snow)).items():
            units[(b | flag, sn, p.spell_ok, ability_ok, i)] += n
    demands: Counter[DemandKey] = Counter()
    for b, n in total.demands:  # masks of the mana that may pay each (CR 609.4b)
        if n:
            demands[("t", b, -1)] += n
    if total.snow:
        demands[("s", 0, -1)] += total.snow
    if total.generic:
        demands[("g", 0, -1)] += total.generic
    costly = [i for i, p in enumerate(chosen) if p.opt.mana_cost]
    for i in costly:
        for s in chosen[i].opt.mana_cost.symbols:
            if s.special:
                continue
            if s.is_numeral:
                if s.generic:
                    demands[("g", 0, i)] += s.generic
            else:
                demands[("t", s.colors | (C if s.colorless else 0), i)] += 1
    n_units, n_demands = sum(units.values()), sum(demands.values())
    if floating is not None:
        for b, n in floating.items():
            if n:
                demands[("f", b, -2)] += n
        n_demands += sum(floating.values())
        if n_demands != n_units:
            return False
    elif n_demands > n_units:
        return False
    pool_n = sum(pool_used.values())
    orders = itertools.permutations(costly) if costly else [()]
    for order in orders:
        rank = {i: r for r, i in enumerate(order)}
        if match_units(units, demands, rank, pool_n):
            return True
    return False


def match_units(units: Counter[UnitKey], demands: Counter[DemandKey], rank: dict[int, int],
                pool_n: int) -> bool:
    """Can every demand take a distinct unit it accepts (``rank``: the order of the
    activations that cost mana), with every pool unit used too?  A transport between the
    classes (:func:`transports`)."""
    def ok(u: UnitKey, d: DemandKey) -> bool:
        bit, snow, spell_ok, ability_ok, maker = u
        kind, mask, payer = d
        if kind == "f":
            return maker >= 0 and bit & ~COLORED_ONLY == mask
        if payer >= 0:
            if maker == payer or (maker in rank and rank[maker] > rank[payer]) or not (
                    ability_ok if isinstance(ability_ok, bool) else payer in ability_ok):
                return False
        elif not spell_ok:
            return False
        if kind == "t":
            return bool(bit & mask)
        if bit & COLORED_ONLY:
            return False  # a generic demand, or {S}
        if kind == "s":
            return snow
        return True

    ukeys, dkeys = list(units), list(demands)
    adj = [[j for j, u in enumerate(ukeys) if ok(u, d)] for d in dkeys]
    if not transports([demands[d] for d in dkeys], [units[u] for u in ukeys], adj):
        return False
    if not pool_n:
        return True
    # Every pool unit said used must be spent too.  By the Mendelsohn–Dulmage theorem a
    # matching covering all demands and one covering all pool units give one covering both.
    pool = [j for j, u in enumerate(ukeys) if u[4] < 0]
    back = [[i for i, js in enumerate(adj) if j in js] for j in pool]
    return transports([units[ukeys[j]] for j in pool], [demands[d] for d in dkeys], back)


def transports(supply: list[int], capacity: list[int], adj: list[list[int]]) -> bool:
    """Can every left class ``i`` send ``supply[i]`` units to the right classes of ``adj[i]``,
    right class ``j`` taking at most ``capacity[j]``?  A max-flow by shortest augmenting paths
    over the classes (each path moves its bottleneck, so the work does not grow with the
    counts)."""
    need = sum(supply)
    if need > sum(capacity):
        return False
    n_left = len(supply)
    left = list(supply)  # still to send, per left class
    room = list(capacity)  # still free, per right class
    flow: dict[tuple[int, int], int] = {}  # (left, right) -> units sent
    back: list[list[int]] = [[] for _ in capacity]  # right -> lefts that sent to it
    for i in range(n_left):  # greedy first: most classes fit without a path
        for j in adj[i]:
            if not left[i]:
                break
            n = min(left[i], room[j])
            if n:
                if (i, j) not in flow:
                    back[j].append(i)
                flow[(i, j)] = flow.get((i, j), 0) + n
                left[i] -= n
                room[j] -= n
    for i in range(n_left):
        while left[i]:
            # BFS over left classes: from i, a right class with room, or through a right
            # class full to a left class that sent to it and may move its units elsewhere
            prev: dict[int, tuple[int, int]] = {i: (-1, -1)}
            queue = [i]
            end = None
            for a in queue:
                for j in adj[a]:
                    if room[j] > 0:
                        end = (a, j)
                        break
                    for b in back[j]:
                        if b not in prev and flow.get((b, j), 0) > 0:
                            prev[b] = (a, j)
                            queue.append(b)
                if end is not None:
                    break
            if end is None:
                return False
            # the path i -> ... -> a -> j(room): its bottleneck
            a, j = end
            amount = min(left[i], room[j])
            node = a
            while node != i:
                pa, pj = prev[node]
                amount = min(amount, flow[(node, pj)])
                node = pa
            # apply: a sends to j; each step, the predecessor takes over node's units on pj
            _send(flow, back, a, j, amount)
            node = a
            while node != i:
                pa, pj = prev[node]
                _send(flow, back, node, pj, -amount)
                _send(flow, back, pa, pj, amount)
                node = pa
            left[i] -= amount
            room[j] -= amount
    return True


def _send(flow: dict[tuple[int, int], int], back: list[list[int]], i: int, j: int, n: int) -> None:
    if (i, j) not in flow:
        flow[(i, j)] = 0
        back[j].append(i)
    flow[(i, j)] += n


def _augment(adj: list[list[int]], owner: list[int], i: int, seen: list[bool]) -> bool:
    """One augmenting path from left vertex ``i`` (Kuhn), updating ``owner`` (right vertex ->
    its left vertex, ``-1`` when free) in place; ``seen`` marks right vertices already tried."""
    for j in adj[i]:  # a free vertex first: most take one without a path
        if owner[j] < 0 and not seen[j]:
            seen[j] = True
            owner[j] = i
            return True
    for j in adj[i]:
        if seen[j]:
            continue
        seen[j] = True
        if _augment(adj, owner, owner[j], seen):
            owner[j] = i
            return True
    return False


def saturates(adj: list[list[int]], n_right: int) -> bool:
    """Kuhn's augmenting paths: does some matching cover every left vertex?"""
    owner: list[int] = [-1] * n_right
    for i in sorted(range(len(adj)), key=lambda i: len(adj[i])):
        if not _augment(adj, owner, i, [False] * n_right):
            return False
    return True


def plain_removable(total: Total, chosen: list[Prod], used: Counter[int]) -> int | None:
    """The index of an activation of ``chosen`` that could be left out with the total still
    covered, ``-1`` when none can (or ``chosen`` does not cover it), ``None`` when an activation
    costs mana or pool mana is used (then :func:`cover` decides each case).

    One matching of the demands into the produced units, then per activation only the
    demands it served are matched again without its units (Kuhn's augmenting paths from a
    matching: a demand that can't be re-matched now never can be), instead of a new
    matching per activation: a 150-activation payment is checked in milliseconds."""
    if sum(used.values()) or any(p.opt.mana_cost for p in chosen):
        return None
    units: list[tuple[int, bool, int]] = []  # bit, snow, maker (spell-restricted units left out)
    for i, p in enumerate(chosen):
        if p.spell_ok:
            flag = _colored_only(p)
            units += [(b | flag, sn, i) for b, sn in zip(p.mana, p.snow)]
    demands: list[tuple[str, int]] = [("t", b) for b, n in total.demands for _ in range(n)]
    demands += [("s", 0)] * total.snow + [("g", 0)] * total.generic
    adj = [[j for j, (bit, snow, _) in enumerate(units)
            if (bit & mask if kind == "t" else not bit & COLORED_ONLY and (snow if kind == "s" else True))]
           for kind, mask in demands]
    owner = [-1] * len(units)
    for d in range(len(demands)):
        if not _augment(adj, owner, d, [False] * len(units)):
            return -1  # chosen alone doesn't cover the total
    serving = {u[2] for j, u in enumerate(units) if owner[j] >= 0}
    for i in range(len(chosen)):
        if i not in serving:
            return i  # none of its mana is spent
    full = owner[:]
    for i in range(len(chosen)):
        mine = [j for j, u in enumerate(units) if u[2] == i]
        if len(units) - len(mine) < len(demands):
            continue
        owner[:] = full
        served = [owner[j] for j in mine if owner[j] >= 0]
        blocked = [False] * len(units)
        for j in mine:
            blocked[j] = True
            owner[j] = -1
        if all(_augment(adj, owner, d, blocked[:]) for d in served):
            return i
    return -1


def pruned(total: Total, chosen: list[Prod], used: Counter[int], deadline: float) -> list[Prod] | None:
    """``chosen`` with activations left out one at a time until none can be: an irredundant
    set paying the total, or ``None`` (not the plain shape, no cover, or past ``deadline``)."""
    while True:
        i = plain_removable(total, chosen, used)
        if i is None or time.monotonic() > deadline:
            return None
        if i < 0:
            return chosen if cover(total, chosen, used, None) else None
        chosen = chosen[:i] + chosen[i + 1:]
