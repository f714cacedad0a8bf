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
from manasolver.solver.supply.model import Supply

__all__ = ["taps_others", "verified"]


def taps_others(supply: Supply) -> bool:
    """True when some option's cost taps other permanents (the search treats it as free)."""
    return any(o.tap_creatures for k in supply.classes for o in k.options)


def _text(counts: tuple[int, ...]) -> str:
    return "".join("{" + t + "}" for t, n in zip(TYPES, counts) for _ in range(n))


def verified(state: GameState, player: str, found: list[ManaOption], deadline: float
             ) -> tuple[list[ManaOption], bool]:
    """The maximal pools among ``found`` and their sub-pools that the payment engine can pay
    (see the module docstring), in the answer's order; the second value is true when the
    deadline stopped the check (the pools kept are then payable, others may be missing)."""
    from manasolver.solver import backends
    from manasolver.solver.backends import DEFAULT_CHAINS
    from manasolver.solver.queries import prepare
    from manasolver.solver.request import PaymentRequest

    memo: dict[tuple[int, ...], bool] = {}

    def payable(counts: tuple[int, ...]) -> bool:
        hit = memo.get(counts)
        if hit is None:
            if not any(counts):
                hit = True
            else:
                req = PaymentRequest(state=state, cost=ManaCost.parse(_text(counts)), player=player)
                hit = backends.payable(prepare(req, "feasible", 0, ignore_restrictions=True),
                                       DEFAULT_CHAINS["can_pay"])
            memo[counts] = hit
        return hit

    restricted = {o.mana: o.restricted for o in found}
    keep: dict[tuple[int, ...], tuple[int, ...]] = {}
    frontier = list(dict.fromkeys(o.mana for o in found))
    seen = set(frontier)
    cut = False
    while frontier:
        nxt: list[tuple[int, ...]] = []
        for pool in frontier:
            if time.perf_counter() > deadline:
                cut = True
                break
            if payable(pool):
                keep[pool] = tuple(min(a, b) for a, b in zip(restricted[pool], pool))
                continue
            for i, n in enumerate(pool):
                if n:
                    sub = pool[:i] + (n - 1,) + pool[i + 1:]
                    if sub not in seen:
                        seen.add(sub)
                        restricted.setdefault(sub, restricted[pool])
                        nxt.append(sub)
        if cut:
            break
        frontier = nxt
    pools = sorted(keep, key=lambda v: (sum(v), v), reverse=True)
    maximal = [v for v in pools
               if not any(w != v and all(a <= b for a, b in zip(v, w)) for w in pools)]
    return [ManaOption(v, keep[v]) for v in maximal], cut
