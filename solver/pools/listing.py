"""The ``options`` answer: the maximal pools of the states the search ends in, listed in order.

The answer is the set of maximal points of the union of the final states.  A
state's maximal points are its polymatroid's bases
(:func:`~manasolver.solver.pools.ranks.bases`); a base of one state is dropped
when another state with a larger rank contains it (then some strictly larger pool
is reachable).  The streams of all states are merged in the answer's order
(largest first, then W, U, B, R, G, C counts descending), so a ``limit`` stops
the work.  When many states have the same total (filter lands), no pool of one
can contain a different pool of another, and the union of their bases is sorted
instead of merged.

Restricted mana (CR 106.6) is counted in the pools; with ``detail`` it is listed
again as the restricted part of each pool, and a pool with more unrestricted mana
is worth more than the same pool with less.

Past the time bound the listing stops once a first page is listed, or 50 ms
later at most: a bounded answer still lists what it can, and what it does after the bound
is linear in what it lists (the states of the largest size first, which need no test
against others).
"""

from __future__ import annotations

import heapq
import itertools
import time
from dataclasses import dataclass, field
from operator import itemgetter, le, mul
from typing import Any, NamedTuple

from manasolver.models.symbols import TYPES
from manasolver.solver.pools.context import Budget, Search
from manasolver.solver.pools.ranks import ALL, ZERO, Rank, bases, contains, rank_sum
from manasolver.solver.pools.search import State

__all__ = ["MAX_DETAIL_CANDIDATES", "ManaOption", "OptionsAnswer", "list_points", "list_pools"]

#: Bound on the options examined when ``detail`` lists restricted mana separately.
MAX_DETAIL_CANDIDATES = 200_000

_SYMBOLS = tuple("{" + t + "}" for t in TYPES)
_NONE = (0, 0, 0, 0, 0, 0)


def _fmt(v: tuple[int, ...]) -> str:
    """Counts by type as mana symbols in canonical WUBRGC order."""
    return "".join(map(mul, _SYMBOLS, v))  # map, not a generator: tens of thousands of pools


class ManaOption(NamedTuple):
    """One maximal pool: counts by type (W, U, B, R, G, C) and the restricted part of it (a
    named tuple: answers list tens of thousands of them)."""

    mana: tuple[int, ...]
    restricted: tuple[int, ...] = (0, 0, 0, 0, 0, 0)

    @property
    def text(self) -> str:
        """The pool in mana symbols, canonical WUBRGC order: ``{W}{U}{U}{C}``."""
        return _fmt(self.mana)

    @property
    def restricted_text(self) -> str:
        return _fmt(self.restricted)


@dataclass(frozen=True, slots=True)
class OptionsAnswer:
    """The answer to ``options``: the pools, largest first, and whether the list is all of them.

    ``complete`` is false when ``limit`` cut the list, when the time or size bound
    was hit (``bounded``), or when permanents were left out (``unsupported``:
    ``(id, reason)`` pairs); every listed pool can then still be had, but others
    may exist and may contain listed ones.  ``uncertain``: ``(id, reason)`` of the sources whose
    mana depends on chance or another player's choice (Rhystic Cave), counted as the least they
    can give (nothing), so that no listed pool relies on them.
    """

    options: tuple[ManaOption, ...]
    complete: bool
    detail: bool = False
    bounded: bool = False
    unsupported: tuple[tuple[str, str], ...] = ()
    states: int = field(default=0, compare=False)
    uncertain: tuple[tuple[str, str], ...] = ()

    def to_json(self) -> dict[str, Any]:
        """The protocol's answer."""
        out: dict[str, Any]
        if self.detail:
            out = {"options": [{"mana": o.text, "restricted": o.restricted_text}
                               for o in self.options]}
        else:
            out = {"options": list(map(_fmt, map(itemgetter(0), self.options)))}
        out["complete"] = self.complete
        if self.unsupported:
            out["unsupported"] = [{"permanent": p, "reason": r} for p, r in self.unsupported]
        if self.bounded:
            out["bounded"] = True
        if self.uncertain:
            out["uncertain"] = [{"permanent": p, "reason": r} for p, r in self.uncertain]
        return out


def _split(s: State, nblocks: int) -> tuple[Rank, Rank]:
    """(unrestricted ranks, ranks of all restricted mana) of a state."""
    blocks = s[3] + (ZERO,) * (nblocks - len(s[3]))
    rest = ZERO
    for r in blocks[1:]:
        rest = rank_sum(rest, r)
    return blocks[0], rest


def _maximal_ranks(ranks: list[Rank], deadline: float = float("inf")) -> tuple[list[Rank], bool]:
    """The ranks no other one contains (fewer streams to merge), largest first.

    When all have the same total, a contained state's bases are bases of the one
    containing it, and the merge in :func:`list_pools` drops repeated pools: the
    quadratic test is then skipped (filter-land boards end with thousands of states,
    every one of the same total, and the test cost more than the bases).  Past
    ``deadline`` the rest is dropped and the second value says so: the ones kept
    are the largest, so their bases that no kept state contains are still maximal.
    """
    uniq = sorted(set(ranks), key=lambda f: (-f[ALL], -sum(f)))
    if len(uniq) > 64 and uniq[0][ALL] == uniq[-1][ALL]:
        return uniq, False
    kept: list[Rank] = []
    for i, f in enumerate(uniq):
        # each step compares with every state kept so far: the clock is read as often as that grows
        if (i & 127 == 127 or len(kept) > 128) and time.perf_counter() > deadline:
            return kept, True
        for g in kept:
            if all(map(le, f, g)):
                break
        else:
            kept.append(f)
    return kept, False


def list_pools(search: Search, finals: list[State], limit: int, detail: bool
               ) -> tuple[list[ManaOption], bool, bool]:
    """The maximal pools of the union of the final states: (options, more exist, bound hit).

    The states are listed a size at a time, largest first (every pool of a state has its
    state's size, so this is the answer's order): the streams of one size are merged, and each
    base is tested against the states of larger sizes only.  The largest states need no test at
    all, so past the time bound the listing still gives a page of them in time linear in what it
    lists; no stream of a smaller size is started once the bound has passed (starting one costs
    a pass over the larger states, and there may be thousands of both).
    """
    nblocks = max(len(s[3]) for s in finals)
    pairs = [_split(s, nblocks) for s in finals]
    if detail and any(r[ALL] for _, r in pairs):
        return _list_detail(search, pairs, limit)
    polys, cut = _maximal_ranks([rank_sum(u, r) for u, r in pairs], search.deadline + 0.05)
    if len(polys) > 64 and polys[0][ALL] == polys[-1][ALL]:
        return _list_flat(search, polys, limit)

    hit = False

    def late() -> bool:
        nonlocal hit
        if time.perf_counter() > search.deadline + 0.05:
            hit = True
        return hit

    found: list[ManaOption] = []
    last: tuple[int, ...] | None = None
    count = 0
    above: list[Rank] = []
    for _, group in itertools.groupby(polys, key=itemgetter(ALL)):
        same = list(group)
        if above and late():
            break
        larger = tuple(above)
        streams = []
        for f in same:
            if larger and late():
                break
            # with nothing larger, every prefix gives a base: the merge's own check ends that stream
            streams.append(bases(f, larger, late if larger else None))
        for v in heapq.merge(*streams, reverse=True):
            count += 1
            if count & 255 == 0 and _stop(search, len(found), limit):
                hit = True
                break
            if v == last:
                continue
            last = v
            if len(found) == limit:
                return found, True, hit or cut
            found.append(ManaOption(v))
        else:
            above.extend(same)
            continue
        break
    return found, False, hit or cut


def list_points(ordered: list[tuple[int, ...]], limit: int) -> tuple[list[ManaOption], bool]:
    """Maximal pools given as points (no restricted mana), already in the answer's order:
    (options, more exist)."""
    # ``_make`` is tuple.__new__: tens of thousands of options without a Python call each
    return list(map(ManaOption._make, zip(ordered[:limit], itertools.repeat(_NONE)))), \
        len(ordered) > limit


def _stop(search: Search, listed: int, limit: int) -> bool:
    """Past the time bound, the listing stops once a first page (``limit``, at most 1,024)
    is listed, or 50 ms later at most: a bounded answer still lists what it can."""
    now = time.perf_counter()
    return now > search.deadline and (listed >= min(limit, 1024) or now > search.deadline + 0.05)


def _list_flat(search: Search, polys: list[Rank], limit: int) -> tuple[list[ManaOption], bool, bool]:
    """:func:`list_pools` for many states of one total (filter lands): no pool of one can
    contain a different pool of another, so the answer is the union of their bases, in
    the answer's order; a set is cheaper than merging thousands of sorted streams."""
    seen: set[tuple[int, ...]] = set()
    for f in polys:
        # one state can have millions of bases: the bound is checked while they are listed
        # (every base of one of these states is a maximal pool, so a part of them is an answer)
        for n, v in enumerate(bases(f), 1):
            seen.add(v)
            if not n & 1023 and _stop(search, len(seen), limit):
                return [ManaOption(v) for v in sorted(seen, reverse=True)[:limit]], True, True
        if _stop(search, len(seen), limit):
            return [ManaOption(v) for v in sorted(seen, reverse=True)[:limit]], True, True
    ordered = sorted(seen, reverse=True)
    return [ManaOption(v) for v in ordered[:limit]], len(ordered) > limit, False


def _list_detail(search: Search, pairs: list[tuple[Rank, Rank]], limit: int
                 ) -> tuple[list[ManaOption], bool, bool]:
    """Maximal (pool, restricted part) pairs: unrestricted mana is worth more than restricted.

    ``(u1, r1)`` is below ``(u2, r2)`` when ``u1 ≤ u2`` and ``u1 + r1 ≤ u2 + r2`` (the
    restricted units of the first fit in what the second has beyond ``u1``).
    """
    uniq = list(dict.fromkeys(pairs))
    cands: list[tuple[tuple[int, ...], tuple[int, ...], int]] = []
    hit = False
    for i, (fu, fr) in enumerate(uniq):
        rs = list(bases(fr))
        for u in bases(fu):
            for r in rs:
                cands.append((u, r, i))
                if len(cands) > MAX_DETAIL_CANDIDATES or time.perf_counter() > search.deadline:
                    hit = True
                    break
            if hit:
                break
        if hit:
            break

    def below(u: tuple[int, ...], r: tuple[int, ...], j: int) -> bool:
        # is there a split r = a + (r - a) with u + a a pool of fu and r - a one of fr?
        fu, fr = uniq[j]
        if fu[ALL] == sum(u) and fu[ALL] + fr[ALL] == sum(u) + sum(r):
            return False  # only equal pairs could be above
        ranges = []
        for i, c in enumerate(r):
            lo = max(0, c - fr[1 << i])
            hi = min(c, fu[1 << i] - u[i])
            if lo > hi:
                return False
            ranges.append(range(lo, hi + 1))
        for a in itertools.product(*ranges):
            if time.perf_counter() > search.deadline:
                raise Budget
            if contains(fu, tuple(x + y for x, y in zip(u, a))) and \
                    contains(fr, tuple(x - y for x, y in zip(r, a))):
                return True
        return False

    seen: set[tuple[tuple[int, ...], tuple[int, ...]]] = set()
    found: list[ManaOption] = []
    cands.sort(key=lambda c: (-sum(c[0]) - sum(c[1]), -sum(c[0]),
                              tuple(-(x + y) for x, y in zip(c[0], c[1])), tuple(-y for y in c[1])))
    more = False
    for u, r, i in cands:
        if (u, r) in seen:
            continue
        seen.add((u, r))
        try:
            if any(below(u, r, j) for j in range(len(uniq)) if j != i):
                continue
        except Budget:
            return found, True, True
        if len(found) == limit:
            more = True
            break
        found.append(ManaOption(tuple(x + y for x, y in zip(u, r)), r))
    return found, more, hit
