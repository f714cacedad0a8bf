"""Sets of reachable pools as integer polymatroids, stored as their 64 ranks.

A pool is a multiset of the six types (CR 106.1, 106.4).  Any choice among the
types of a mask may wait until the mana is spent, so the set of pools reachable
from a multiset of masks is the integer polymatroid with rank ``f(T)`` = the
number of units whose mask meets ``T`` (Hall/Rado).  Such a set is stored as its
64 ranks, one per set of types (index = the set as a bitmask).  Every step keeps
it a polymatroid, and none copies units:

- adding a source's production is a Minkowski sum: ranks add (:func:`rank_sum`);
- paying generic mana ``{g}`` from the pool is a truncation,
  ``f'(T) = min(f(T), f(E) - g)`` (any pool of at most ``f(E) - g`` mana inside
  the old set can be what is left: :func:`truncate`);
- paying one mana of type ``t`` keeps ``{x : x + e_t ∈ P}``, whose ranks are
  ``min over S ⊇ T of f(S) - [t ∈ S]`` (:func:`remove`);
- paying one mana of either color of a hybrid symbol keeps the union of the two
  removals, itself a polymatroid (M-convexity survives paying through a network),
  with the pointwise maximum of their ranks: one state, no branch (:func:`remove_mask`).

One set contains another exactly when its ranks are pointwise at least as large
(:func:`leq`).  A polymatroid's maximal points (its bases) are enumerated in
descending order type by type, with the exact feasible range of each count from
the contraction formula ``max y(S) = min over T ⊆ A of f(S ∪ T) - x(T)``
(:func:`bases`).

The functions work on plain tuples with ``map`` over precomputed index tables:
they run tens of thousands of times per query.

>>> from manasolver.solver.pools.ranks import bases, unit_rank
>>> sorted(bases(unit_rank((32 | 1 | 2,) * 3)))[:3]   # three Adarkar Wastes
[(0, 0, 0, 0, 0, 3), (0, 1, 0, 0, 0, 2), (0, 2, 0, 0, 0, 1)]
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator
from operator import add, gt, itemgetter, le, mul, or_, sub

from manasolver.models.symbols import ANY_TYPE, TYPE_BITS

__all__ = ["ALL", "ZERO", "Rank", "bases", "contains", "leq", "rank_sum", "remove", "remove_mask",
           "subset_sums", "truncate", "unit_rank"]

#: The index of the rank of every type (W U B R G C): the most mana a pool of the set holds.
ALL = ANY_TYPE
Rank = tuple[int, ...]  # 64 ranks, index = set of types as a bitmask
#: The ranks of the set whose one pool is empty.
ZERO: Rank = (0,) * 64
_BIT_SET = frozenset(TYPE_BITS)
_MASK_BITS = [tuple(b for b in TYPE_BITS if m & b) for m in range(64)]
_ONES = (1,) * 64
#: ``_WITH_BIT[b](f)`` is ``(f[T | b] for every T)``
_WITH_BIT = {b: itemgetter(*[t | b for t in range(64)]) for b in TYPE_BITS}


#: The ranks of one unit of each mask (``_UNIT[m][T]`` is 1 when ``m`` meets ``T``), made at import.
_UNIT: tuple[Rank, ...] = tuple(tuple(1 if m & t else 0 for t in range(64)) for m in range(64))


def unit_rank(masks: tuple[int, ...], times: int = 1) -> Rank:
    """Ranks of ``times`` copies of units with these masks: ``f(T)`` = units meeting ``T``."""
    if len(masks) == 1:
        f = _UNIT[masks[0] & ALL]
    else:
        f = ZERO
        for m in masks:
            f = tuple(map(add, f, _UNIT[m & ALL]))
    return f if times == 1 else tuple(map(mul, f, itertools.repeat(times, 64)))


def rank_sum(f: Rank, g: Rank) -> Rank:
    """Minkowski sum: every pool of one plus every pool of the other."""
    return tuple(map(add, f, g))


def truncate(f: Rank, generic: int) -> Rank | None:
    """Pay ``generic`` mana of any types: what is left is any pool of at most f(E) - g mana."""
    r = f[ALL] - generic
    if r < 0:
        return None
    if r >= f[ALL]:
        return f
    return tuple(map(min, f, itertools.repeat(r, 64)))


def remove(f: Rank, bit: int) -> Rank | None:
    """Pay one mana of type ``bit``: the pools x with x + e_bit reachable, or None.

    The ranks ``min over S ⊇ T of f(S) - [bit ∈ S]`` reduce, as ``f`` is monotone, to
    ``f(T) - 1`` when ``bit ∈ T`` and ``min(f(T), f(T ∪ bit) - 1)`` otherwise.
    """
    if f[bit] < 1:
        return None
    return tuple(map(min, f, map(sub, _WITH_BIT[bit](f), _ONES)))


def remove_mask(f: Rank, mask: int) -> Rank | None:
    """Pay one mana of any type of ``mask`` (a hybrid symbol's colored halves), or None.

    The pools left are the union over the types ``t`` of ``mask`` of :func:`remove`
    ``(f, t)``; that union is again a polymatroid (paying one mana through a network
    keeps the bases M-convex: network induction, Murota, *Discrete Convex Analysis*,
    9.6), so its ranks are the pointwise maximum of the parts'.  One state instead
    of one per type: Shadowmoor filter lands ("{U/B}, {T}: ...") do not branch.
    That maximum is ``f(T) - 1``, plus one when some type ``t`` of the mask adds to
    the rank (``f(T ∪ t) > f(T)``; never when ``t ∈ T``, nor when ``f(t) = 0``).
    """
    if mask in _BIT_SET:
        return remove(f, mask)
    bits = _MASK_BITS[mask]
    if not any(f[b] for b in bits):
        return None
    inc: Iterator[bool] | None = None
    for b in bits:
        grows = map(gt, _WITH_BIT[b](f), f)
        inc = grows if inc is None else map(or_, inc, grows)
    assert inc is not None
    return tuple(map(add, f, map(sub, inc, _ONES)))


def leq(f: Rank, g: Rank) -> bool:
    """Every pool of ``f`` is a pool of ``g``."""
    return all(map(le, f, g))


def subset_sums(v: tuple[int, ...]) -> list[int]:
    """Subset sums of a six-type count vector, by set of types (the ranks of the one pool ``v``)."""
    s = [0]
    for c in v:
        s += [a + c for a in s]
    return s


def contains(f: Rank, v: tuple[int, ...]) -> bool:
    """The pool ``v`` is in the polymatroid ``f`` (CR 106.4: it can be had at once)."""
    return all(map(le, subset_sums(v), f))


def bases(f: Rank, above: tuple[Rank, ...] = (), stop: Callable[[], bool] | None = None
          ) -> Iterator[tuple[int, ...]]:
    """Every maximal pool of ``f`` (its bases) that no state in ``above`` contains,
    in descending W, U, B, R, G order; ``stop``, asked every 16 prefixes, ends the list
    early when it answers true (``above`` can hide millions of bases in a row, so a
    caller counting what is yielded would never get to look at its clock).

    For the types fixed so far (W up to some type; set ``A``, counts ``x``), the
    next type ``t`` may take exactly the values from ``lo`` to ``hi``: ``hi`` is the
    most of ``t`` a pool with ``x`` can hold, ``lo`` the least that still lets the
    rest reach ``f(E)`` (contraction formula of the module docstring), so no branch
    is a dead end and the last type, colorless, is what remains.  Because ``A`` is
    always the first ``i`` types, the sets involved are contiguous slices of the
    rank table.  ``above`` holds states of larger rank: a base inside one of them
    is not maximal (the state can extend it), and once W, U, B, R are fixed the
    bases inside one form an interval of G counts, skipped without a test per base.
    """
    total = f[ALL]
    seen = 0
    xs = [0] * 16  # subset sums of the fixed types (sets within W, U, B, R)

    def span(t: int) -> range:
        head = xs[:t]
        hi = min(map(sub, f[t:2 * t], head))
        rest = ALL & ~(2 * t - 1)
        lo = total - xs[t - 1] - min(map(sub, f[rest:rest + t], head))
        return range(hi, max(lo, 0) - 1, -1)

    def alive(ranks: tuple[Rank, ...], t: int) -> tuple[Rank, ...]:
        # states that still contain the fixed prefix (a prefix outside one stays outside)
        return tuple(g for g in ranks if all(map(le, xs[t:2 * t], g[t:2 * t])))

    for w in span(1):
        xs[1] = w
        above_w = alive(above, 1)
        for u in span(2):
            xs[2:4] = [a + u for a in xs[0:2]]
            above_u = alive(above_w, 2)
            for b in span(4):
                xs[4:8] = [a + b for a in xs[0:4]]
                above_b = alive(above_u, 4)
                for r in span(8):
                    seen += 1
                    if stop is not None and not seen & 15 and stop():
                        return
                    xs[8:16] = [a + r for a in xs[0:8]]
                    left = total - xs[15]
                    gs = span(16)
                    skip = []
                    for g_rank in above_b:
                        if all(map(le, xs[8:16], g_rank[8:16])) and \
                                left <= min(map(sub, g_rank[48:64], xs)):
                            skip.append((left - min(map(sub, g_rank[32:48], xs)),
                                         min(map(sub, g_rank[16:32], xs))))
                    if skip:
                        blocked: set[int] = set()
                        for lo, hi in skip:
                            blocked.update(range(max(lo, gs.stop + 1), min(hi, gs.start) + 1))
                        for g in gs:
                            if g not in blocked:
                                yield (w, u, b, r, g, left - g)
                    else:
                        for g in gs:
                            yield (w, u, b, r, g, left - g)
