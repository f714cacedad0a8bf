"""Pools of boards whose mana abilities tap other permanents as a cost: each checked by the payment engine.

"Tap an untapped creature you control" (Springleaf Drum, CR 118.3, 302.6) spends a
permanent that may itself be a mana source: one creature can't both tap for its own mana
and pay the Drum's cost.  The pool search (:mod:`~manasolver.solver.pools.search`)
treats such costs as free, so it reaches *more* than the player can: every pool it lists
contains every pool the player can really have.  This module keeps the exact ones: each
listed pool is asked of the payment engine as a cost made of its own symbols (a pool
holding ``P`` can pay ``P``, and mana paying ``P`` can be held as ``P``), spending
restrictions set aside (the listing counts restricted mana); a pool that is not payable
gives way to its sub-pools one mana smaller, until payable ones are found.  The answer is
the maximal pools found, in the listing's order.  Exact as the payment engine is; its time
is bounded by the query's deadline (past it, what was checked is answered as bounded).
"""

from __future__ import annotations

import time

from manasolver.models.cost import ManaCost
from manasolver.models.state import GameState
from manasolver.models.symbols import TYPES
from manasolver.solver.pools.listing import ManaOption
from manasolver.solver.supply.model import SourceClass, Supply

__all__ = ["taps_others", "verified", "without_taps"]

#: A pool and the restricted part of it, counts by type (W, U, B, R, G, C).
Pair = tuple[tuple[int, ...], tuple[int, ...]]
_NONE = (0, 0, 0, 0, 0, 0)


def taps_others(supply: Supply) -> bool:
    """True when some option's cost taps other permanents (the search treats it as free)."""
    return any(o.tap_creatures for k in supply.classes for o in k.options)


def without_taps(supply: Supply) -> Supply:
    """``supply`` without the options whose cost taps other permanents: what it makes is exact."""
    classes = []
    for k in supply.classes:
        kept = tuple(o for o in k.options if not o.tap_creatures)
        if kept:
            classes.append(kept == k.options and k or SourceClass(k.members, k.positions, kept, k.snow, k.kind,
                                                                   k.name, k.creature, k.hand))
    return Supply(supply.player, supply.pool, tuple(classes), supply.excluded, supply.life, supply.energy,
                  supply.creatures, supply.fodder, supply.tappable)


def _text(counts: tuple[int, ...]) -> str:
    return "".join("{" + t + "}" for t, n in zip(TYPES, counts) for _ in range(n))


def verified(state: GameState, player: str, found: list[ManaOption], deadline: float,
             detail: bool = False, restricted: bool = False, known: list[ManaOption] | None = None
             ) -> tuple[list[ManaOption], bool]:
    """The maximal pools among ``found`` and their sub-pools that the payment engine can pay
    (see the module docstring), in the answer's order; the second value is true when the
    deadline stopped the check (the pools kept are then payable, others may be missing).

    With ``detail`` each pool is a pair (unrestricted part, restricted part): kept when its
    whole is payable with spending restrictions set aside and its unrestricted part is payable
    with them applied; a pair that fails gives way to the pairs one mana smaller and, when the
    supply has ``restricted`` mana, to the same pool with one more mana counted as restricted.
    ``known``: pools known to be reachable (the pools without the abilities that tap others):
    what one of them contains is payable without asking, and they are kept when the deadline
    cuts the check short."""
    from manasolver.solver import backends
    from manasolver.solver.backends import DEFAULT_CHAINS
    from manasolver.solver.queries import prepare
    from manasolver.solver.request import PaymentRequest

    memo: dict[tuple[tuple[int, ...], bool], bool] = {}

    floor = [((o.mana, o.restricted) if detail else (o.mana, _NONE)) for o in known or ()]

    def below_known(counts: tuple[int, ...], loose: bool) -> bool:
        return any(all(a <= (m - r if not loose else m) for a, m, r in zip(counts, mana, held))
                   for mana, held in floor)

    def payable(counts: tuple[int, ...], loose: bool) -> bool:
        hit = memo.get((counts, loose))
        if hit is None:
            if not any(counts) or below_known(counts, loose):
                hit = True
            else:
                req = PaymentRequest(state=state, cost=ManaCost.parse(_text(counts)), player=player)
                hit = backends.payable(prepare(req, "feasible", 0, ignore_restrictions=loose),
                                       DEFAULT_CHAINS["can_pay"])
            memo[(counts, loose)] = hit
        return hit

    def split(pair: Pair) -> Pair:
        return tuple(a - b for a, b in zip(*pair)), pair[1]

    def holds(pair: Pair) -> bool:
        free = split(pair)[0]
        return payable(pair[0], True) and (not (detail and restricted) or payable(free, False))

    def smaller(pair: Pair) -> list[Pair]:
        mana, held = pair
        out = []
        for i, n in enumerate(mana):
            if not n:
                continue
            less = mana[:i] + (n - 1,) + mana[i + 1:]
            if held[i]:
                out.append((less, held[:i] + (held[i] - 1,) + held[i + 1:]))
            if held[i] < n:
                out.append((less, held))
                if detail and restricted:
                    out.append((mana, held[:i] + (held[i] + 1,) + held[i + 1:]))
        return out

    start = time.perf_counter()
    import ortools.sat.python.cp_model  # noqa: F401 - the checks ask CP-SAT; its first import is not counted
    deadline += time.perf_counter() - start
    frontier: list[Pair] = list(dict.fromkeys((o.mana, o.restricted if detail else _NONE) for o in found))
    seen = set(frontier)
    keep: list[Pair] = []
    cut = False
    while frontier:
        nxt: list[Pair] = []
        for pair in frontier:
            if time.perf_counter() > deadline:
                cut = True
                break
            if holds(pair):
                keep.append(pair)
                continue
            for sub in smaller(pair):
                if sub not in seen:
                    seen.add(sub)
                    nxt.append(sub)
        if cut:
            keep.extend(p for p in floor if p not in keep)  # reachable: listed when the check is cut
            break
        frontier = nxt
    keep.sort(key=lambda p: (sum(p[0]), -sum(p[1]), p[0], tuple(-h for h in p[1])), reverse=True)

    def below(p: Pair, q: Pair) -> bool:  # every way p can be used, q can be used too
        pf, qf = split(p)[0], split(q)[0]
        return p != q and all(a <= b for a, b in zip(pf, qf)) and all(a <= b for a, b in zip(p[0], q[0]))

    maximal = [p for p in keep if not any(below(p, q) for q in keep)]
    return [ManaOption(mana, held) for mana, held in maximal], cut
