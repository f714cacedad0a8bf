"""Exact ``options`` for boards whose mana-costing abilities each take at most one mana: a
dynamic program over what the converters make, not over the orders they are activated in.

A *converter* is an activation paid with at most one mana: a filter land's ``{U/R}, {T}: Add
{U}{U}, {U}{R}, or {R}{R}``, a Signet's ``{1}, {T}: Add {W}{U}``, an Odyssey filter's ``{1}``.
Every other permanent's mana abilities cost no mana, so they can all come first (CR 605.3:
mana made earlier only helps).  Then the question is which converters can be fed, and in
what order (CR 601.2g: a cost is paid from the pool as it is then).

Activations that each take one mana from the pool are the transitions of a
*communication-free* Petri net (types are places, the pool a marking), and for those the
order question has a closed answer (J. Esparza, "Petri nets, commutative context-free
grammars, and basic parallel processes", Fundamenta Informaticae 31, 1997, theorem 3.1:
a marking is reachable iff the state equation holds and every siphon of the used subnet is
marked).  Read for pools: a choice, for every converter, of its free ability or of one
activation with an input type and a production, can be played in some order exactly when

1. the pool it ends with (start, plus every production, minus every input) has no type
   below zero, and
2. every type used as an input is *reachable*: present at the start (after the free
   activations), or made by a chosen activation whose own input is reachable.

So the program takes the converters one at a time, in any fixed order, each member of a
class of identical ones by itself, and keeps per *reach summary* (types reached, inputs not
yet reached, edges input → made between unreached types) the set of pools so far, each pool
one integer of six biased fields; a step adds a constant to every integer of a set
(intermediate pools may go below zero in a type, repaid by a later converter, as the order
is not the one played).  A pool is kept at the end when it is nonnegative (one mask test:
each field's top bit) and its summary has no unreached input; the answer is its maximal
pools.  Ten different Shadowmoor filters and ten basics (33,493 pools) take well under a
second this way, where the search over orders (:mod:`~manasolver.solver.pools.search`)
takes minutes.

What this does not model it declines (``None``) and the search over orders answers: costs
of more than one mana (Cascading Cataracts' ``{5}``, a ``{2/W}``'s generic half), restricted
mana anywhere on the board (blocks other than 0), life or energy that can run out,
repeatable converters, converters that sacrifice or tap other permanents, pool doublers,
and boards whose free abilities leave more than :data:`MAX_STARTS` different largest starting
pools.  Past :data:`MAX_WORK` pools handled it declines too; past the deadline it raises
:class:`~manasolver.solver.pools.context.Budget`.
"""

from __future__ import annotations

import dataclasses
import functools
import itertools
import struct
import time
from collections.abc import Callable, Iterable
from operator import le

from manasolver.models.symbols import TYPE_BITS
from manasolver.solver.pools.activations import payment_forms
from manasolver.solver.pools.context import Budget, Search
from manasolver.solver.pools.ranks import ZERO, bases, rank_sum, unit_rank
from manasolver.solver.pools.search import State, free_phase
from manasolver.solver.supply.model import Option, SourceClass, Supply

__all__ = ["MAX_STARTS", "MAX_WORK", "converter_pools"]

#: Most largest starting pools (bases of the free activations) the program starts from.
MAX_STARTS = 256
#: Most pools the program handles (summed over its steps) before it declines.
MAX_WORK = 2_000_000

Vec = tuple[int, ...]
#: A reach summary: (types reached, inputs not reached, per type its unreached successors).
Summary = tuple[int, int, tuple[int, ...]]
#: One thing one member can do: (its change to the pool, its input type bit or 0, the type
#: bits it makes; ``-1`` as the input: a free ability, whose mana is there from the start).
Move = tuple[Vec, int, int]

_FREE = -1
_ALL_TYPES = 63


def _picks(slots: tuple[int, ...]) -> set[Vec]:
    """The distinct pools one production can add (each slot one type of its mask)."""
    out = set()
    for pick in itertools.product(*[[i for i, b in enumerate(TYPE_BITS) if s & b] for s in slots]):
        v = [0] * 6
        for i in pick:
            v[i] += 1
        out.add(tuple(v))
    return out


def _mask(v: Vec) -> int:
    """The type bits of the types ``v`` has."""
    m = 0
    for i, c in enumerate(v):
        if c > 0:
            m |= TYPE_BITS[i]
    return m


def _moves(search: Search, cls: SourceClass) -> list[Move] | None:
    """Every move of one member of a converter class, or None when the class is not one this
    program models (see the module docstring)."""
    moves: list[Move] = []
    free = False
    for o in cls.options:
        if not o.exclusive or o.tap_creatures or o.sacrifice_other:
            return None
        if o.free:
            free = True
            moves.extend((v, _FREE, _mask(v)) for v in _picks(o.slots))
            continue
        got = _costly_moves(search, cls, o)
        if got is None:
            return None
        moves.extend(got)
    if not free:
        moves.append(((0,) * 6, _FREE, 0))  # a member with no free ability may do nothing
    return list(dict.fromkeys(moves))


def _costly_moves(search: Search, cls: SourceClass, o: Option) -> list[Move] | None:
    """The moves of one activation that costs mana: per way to pay (one mana of a type of its
    symbol, or none) and per production; None when a way takes more than one mana."""
    forms = payment_forms(search, o.mana_cost, o.life, o.energy, cls.name, f"battlefield.{cls.members[0]}")
    out: list[Move] = []
    for colored, generic, _life, _energy in forms:
        if len(colored) + generic > 1:
            return None
        if generic:
            inputs = list(TYPE_BITS)
        elif colored:
            inputs = [b for b in TYPE_BITS if colored[0] & b]
        else:
            inputs = [0]
        for prod in _picks(o.slots):
            made = _mask(prod)
            for bit in inputs:
                delta = list(prod)
                if bit:
                    delta[TYPE_BITS.index(bit)] -= 1
                out.append((tuple(delta), bit if bit else _FREE, made))
    return out


def _close(reached: int, pending: int, edges: list[int]) -> Summary:
    """The summary with everything reachable from ``reached`` through ``edges`` reached."""
    grew = True
    while grew:
        grew = False
        for s in range(6):
            if edges[s] and reached & TYPE_BITS[s]:
                reached |= edges[s]
                edges[s] = 0
                grew = True
    return (reached, pending & ~reached,
            tuple(0 if reached & TYPE_BITS[s] else e & ~reached for s, e in enumerate(edges)))


def _step(summary: Summary, bit: int, made: int) -> Summary:
    """The summary after one move (input ``bit``, or ``_FREE`` for mana there from the start)."""
    reached, pending, edges = summary
    if bit == _FREE:
        if not made & ~reached:
            return summary
        return _close(reached | made, pending, list(edges))
    if reached & bit:
        if not made & ~reached:
            return summary
        return _close(reached | made, pending, list(edges))
    e = list(edges)
    e[TYPE_BITS.index(bit)] |= made & ~reached & ~bit
    return reached, pending | bit, tuple(e)


class _Codec:
    """Pools as integers: six fields of ``width`` bits (a multiple of 8), each the count plus
    ``half`` (so a count may go below zero, and a pool is nonnegative exactly when every
    field's top bit is set)."""

    def __init__(self, bound: int) -> None:
        width = 8
        while 1 << (width - 1) <= 2 * bound + 1:
            width += 8
        self.width = width
        self.half = 1 << (width - 1)
        self.field = (1 << width) - 1
        self.top = sum(self.half << (width * t) for t in range(6))

    def delta(self, v: Vec) -> int:
        return sum(c << (self.width * t) for t, c in enumerate(v))

    def encode(self, v: Vec) -> int:
        return self.top + self.delta(v)

    def decode(self, code: int) -> Vec:
        w, f, h = self.width, self.field, self.half
        return ((code & f) - h, (code >> w & f) - h, (code >> 2 * w & f) - h,
                (code >> 3 * w & f) - h, (code >> 4 * w & f) - h, (code >> 5 * w & f) - h)

    def decode_all(self, codes: Iterable[int]) -> list[Vec]:
        """:meth:`decode` of nonnegative pools, in bulk (one byte a field: bytes and
        ``struct``, not arithmetic per field)."""
        if self.width != 8:
            return list(map(self.decode, codes))
        data = b"".join(map(_six_bytes, codes)).translate(_UNBIAS)
        return list(struct.iter_unpack("6B", data))


#: Six bytes, little-endian, of a pool's code (the method itself: no Python call per pool).
_six_bytes: Callable[[int], bytes] = functools.partial(int.to_bytes, length=6, byteorder="little")
#: A nonnegative count's byte (count + 128) back to the count.
_UNBIAS = bytes((x - 128) & 255 for x in range(256))


def _starts(search: Search, supply: Supply, plain: tuple[SourceClass, ...]) -> set[Vec] | None:
    """The largest pools the free abilities of the classes without converters can leave, on
    top of the floating mana (the bases of the free phase's states)."""
    pool_rank = ZERO
    for bit, n in supply.pool:
        pool_rank = rank_sum(pool_rank, unit_rank((bit,), n))
    states: list[State] = [((), supply.life, supply.energy, (pool_rank,))]
    states, waiting = free_phase(search, dataclasses.replace(supply, classes=plain), states, False)
    assert not waiting
    out: set[Vec] = set()
    for st in states:
        for v in bases(st[3][0]):
            out.add(v)
            if len(out) > MAX_STARTS:
                return None
    return out


def converter_pools(search: Search, supply: Supply) -> list[Vec] | None:
    """The maximal pools of a board of converters (module docstring), in the answer's order
    (largest first, then W, U, B, R, G, C counts descending); None when the board is not one
    this program models."""
    if search.life_binding or search.energy_binding:
        return None
    plain: list[SourceClass] = []
    conv: list[tuple[SourceClass, list[Move]]] = []
    for cls in supply.classes:
        if cls.hand or any(o.restriction is not None for o in cls.options):
            return None
        if all(o.free for o in cls.options):
            plain.append(cls)
            continue
        moves = _moves(search, cls)
        if moves is None:
            return None
        conv.append((cls, moves))
    if not conv:
        return None
    starts = _starts(search, supply, tuple(plain))
    if starts is None:
        return None
    members = [moves for cls, moves in conv for _ in range(cls.count)]
    most = max(sum(v) for v in starts) + sum(max(sum(x for x in m[0] if x > 0) for m in moves)
                                             for moves in members)
    codec = _Codec(max(most, len(members)))
    # what the members after each step can still add of each type (a pool further below
    # zero in a type than that can never be repaid)
    caps: list[int] = []
    room = [0] * 6
    for moves in reversed(members):
        caps.append(codec.top + codec.delta(tuple(room)))
        room = [r + max(max(m[0][t], 0) for m in moves) for t, r in enumerate(room)]
    caps.reverse()
    # only types some move takes as input need to be reached
    relevant = 0
    for moves in members:
        for _d, bit, _made in moves:
            if bit != _FREE:
                relevant |= bit
    members = [list(dict.fromkeys((d, bit, made & relevant) for d, bit, made in moves))
               for moves in members]
    level: dict[Summary, set[int]] = {}
    for v in starts:
        summ = _close(_mask(v) & relevant, 0, [0] * 6)
        level.setdefault(summ, set()).add(codec.encode(v))
    work = 0
    top = codec.top
    for moves, cap in zip(members, caps):
        deltas = [(codec.delta(d), bit, made) for d, bit, made in moves]
        nxt: dict[Summary, set[int]] = {}
        for summ, codes in level.items():
            # moves with the same change to the pool and to the summary are one move here
            for ns, same in _by_summary(summ, deltas).items():
                tgt = nxt.get(ns)
                if tgt is None:
                    nxt[ns] = tgt = set()
                for delta in same:
                    tgt.update(map(delta.__add__, codes) if delta else codes)
                work += len(codes) * len(same)
            if work > MAX_WORK:
                return None
            if time.perf_counter() > search.deadline:
                raise Budget
        lift = cap - top
        level = _undominated({s: {c for c in codes if (c + lift) & top == top}
                              for s, codes in nxt.items()}, search.deadline)
        search.states += sum(map(len, level.values()))
    # (the last step's bound is zero in every type: every pool left is nonnegative)
    found: set[int] = set()
    for (_reached, pending, _edges), codes in level.items():
        if not pending:
            found.update(codes)
    points = codec.decode_all(found)
    # every member's moves adding the same total, from starts of one total: all are maximal
    if len({sum(v) for v in starts}) == 1 and all(len({sum(d) for d, _b, _m in moves}) == 1
                                                  for moves in members):
        points.sort(reverse=True)
        return points
    return _maximal(search, points)


def _by_summary(summ: Summary, deltas: list[tuple[int, int, int]]) -> dict[Summary, list[int]]:
    """The moves from ``summ`` by the summary they lead to: their pool changes, each once."""
    out: dict[Summary, list[int]] = {}
    for delta, bit, made in deltas:
        same = out.setdefault(_step(summ, bit, made), [])
        if delta not in same:
            same.append(delta)
    return out


def _better(a: Summary, b: Summary) -> bool:
    """Every way to finish that makes ``b`` valid makes ``a`` valid too: ``a`` has reached
    more, waits on fewer inputs, and every edge of ``b`` to a type ``a`` has not reached is an
    edge of ``a`` from a type ``a`` has not reached either."""
    ra, pa, ea = a
    rb, pb, eb = b
    if rb & ~ra or pa & ~pb:
        return False
    return all(not eb[s] & ~ra & ~(0 if ra & TYPE_BITS[s] else ea[s]) for s in range(6))


def _undominated(level: dict[Summary, set[int]], deadline: float) -> dict[Summary, set[int]]:
    """``level`` without a pool under a summary when a better summary (:func:`_better`) has it."""
    if len(level) < 2:
        return level
    order = sorted(level, key=lambda s: (-bin(s[0]).count("1"), bin(s[1]).count("1")))
    for i, a in enumerate(order):
        codes_a = level[a]
        if not codes_a:
            continue
        if time.perf_counter() > deadline:
            raise Budget
        for b in order[i + 1:]:
            if level[b] and _better(a, b):
                level[b] -= codes_a
    return {s: c for s, c in level.items() if c}


def _maximal(search: Search, points: list[Vec]) -> list[Vec]:
    """The points no other one contains, in the answer's order (largest first, then W, U, B,
    R, G, C counts descending); only a point of a larger total can contain another."""
    by_total: dict[int, list[Vec]] = {}
    for v in points:
        by_total.setdefault(sum(v), []).append(v)
    kept: list[Vec] = []
    for total in sorted(by_total, reverse=True):
        bigger = len(kept)
        group = sorted(by_total[total], reverse=True)
        for i, v in enumerate(group):
            if i & 63 == 63 and time.perf_counter() > search.deadline:
                raise Budget
            if not any(all(map(le, v, q)) for q in kept[:bigger]):
                kept.append(v)
    return kept
