"""Boards of plain permanents and converters: every pool of mana the board can end with, found exactly.

A *converter* is a permanent used at most once whose ways of use (:func:`.units.perm_modes`) are not
all one free unit: a Signet (``{1}`` -> ``{W}{U}``), a filter land (``{C}``, or ``{W/B}`` -> two of
``W|B``), Chromatic Sphere (``{1}`` -> one of any color).  Paying a cost on such a board is activating
some converters, in some order, each paid from the plain permanents' units and the units the converters
activated before it added, and paying the cost from what is left (CR 605.3: mana abilities are activated
while paying, in any order; one activated earlier can pay a later one's cost, never its own).

So the board's possible *pools* are the multisets of units reached from its plain units by activating
converters one at a time (each a mode of a converter class with an unused permanent left, its cost paid
by units of the pool); a cost is payable when some pool pays it by Hall's condition (:func:`.units.pays`).
The search is exact and small: identical permanents are one class with a count, a pool is a sorted
tuple of unit masks, a state (pool, permanents left per class) is visited once, and a unit paying a cost
symbol is only ever one whose mask is minimal among those able to (keeping a unit that can be more types
loses nothing).  What is kept of the pools are those no other one dominates (at least as many units able
to be some type of every set of types, :func:`.units.covers`), usually one to three.
"""

from __future__ import annotations

from collections.abc import Sequence

from manasolver.solver.castability.units import ANY, RESTRICTED, CostNeed, Have, Mode, covers, have, pays

__all__ = ["MAX_STATES", "Converters", "pools", "pools_pay"]

#: ``((modes, untapped permanents of the class), ...)``: a board's converters by class.
Converters = tuple[tuple[tuple[Mode, ...], int], ...]

#: The most search states of one board; past it the board is left to the engine (``None``).  Boards of
#: the real Commander decks reach three untapped converters and some hundred states; nine Signets and
#: filter lands, a thousand and more (about 75 microseconds a state).
MAX_STATES = 2_000


def _payments(pool: tuple[int, ...], cost: tuple[int, ...]) -> list[tuple[int, ...]]:
    """The pools left after paying the symbols ``cost`` (unit masks) from ``pool``, one unit each, a
    symbol taking only units of a mask minimal among those that can pay it (a unit that can be fewer
    types is the one to spend); each distinct pool once."""
    outs: set[tuple[int, ...]] = {pool}
    for sym in cost:
        nxt: set[tuple[int, ...]] = set()
        for p in outs:
            fit = {m for m in p if m & sym}
            for m in fit:
                if any(o != m and o & ~m & ANY == 0 and (o & RESTRICTED or not m & RESTRICTED) for o in fit):
                    continue  # a unit of fewer types (or restricted) pays it
                i = p.index(m)
                nxt.add(p[:i] + p[i + 1:])
        outs = nxt
        if not outs:
            break
    return list(outs)


def pools(plain: Sequence[int], converters: Converters) -> tuple[Have, ...] | None:
    """The pools a board of plain units ``plain`` (one mask each) and ``converters`` can end with, as
    the undominated :func:`.units.have` of each; ``None`` when the search passes :data:`MAX_STATES`."""
    start = (tuple(sorted(plain)), tuple(n for _, n in converters))
    seen = {start}
    stack = [start]
    ends: set[tuple[int, ...]] = set()
    while stack:
        pool, left = stack.pop()
        ends.add(pool)
        for c, (modes, _) in enumerate(converters):
            if not left[c]:
                continue
            rest = left[:c] + (left[c] - 1,) + left[c + 1:]
            for cost, out in modes:
                for paid in _payments(pool, cost):
                    state = (tuple(sorted(paid + out)), rest)
                    if state not in seen:
                        if len(seen) >= MAX_STATES:
                            return None
                        seen.add(state)
                        stack.append(state)
    return _undominated([have([m for m in p if not m & RESTRICTED]) for p in ends])


def _undominated(haves: list[Have]) -> tuple[Have, ...]:
    """``haves`` without those another one covers (:func:`.units.covers`), each once."""
    out: list[Have] = []
    for h in sorted(set(haves), key=lambda h: -h[0]):
        if not any(covers(o, h) for o in out):
            out.append(h)
    return tuple(out)


def pools_pay(haves: Sequence[Have], need: CostNeed) -> bool:
    """Whether some pool of ``haves`` pays the cost of ``need`` (:func:`.units.cost_need`)."""
    return any(pays(h, need) for h in haves)
