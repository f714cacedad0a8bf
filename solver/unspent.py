"""The parts of the pool a payment may leave unspent, when the pool holds mana made for it.

A required permanent (``sources.require``) is activated before the rest of the payment; its mana
floats (CR 106.4), and the rest is solved on the board that leaves, which reads that mana as the
board's own pool.  The whole payment's ``min_waste`` counts that mana when it is left unspent
(made and never spent), while on the board it is pool mana, whose unspent units no term but
``use_pool`` counts: solved once, the rest could leave a required Llanowar Elves' {G} unspent to
save a Birds of Paradise, wasting it.  So the rest is solved again once per part ``left`` of the
pool it may leave unspent (:func:`unspent_boards`): on the board whose pool lacks ``left``, with
``use_pool`` ranked right before ``min_waste``.  The best whole payment leaving exactly ``left``
spends the rest of the pool, so the payment found there spends it too and is as good under the
rest of the policy: the best whole payment is among those solved, compared by the whole
payment's score.  A rest that leaves the pool empty (:func:`spends_pool`) is the best already
(every other wastes as much at least), and the variants are not needed.  ``pay`` and ``plan``
with ``sources.require`` share it, and ``guide`` completing a partial payment.

Mana of one type is the same mana (CR 106.4), so which units of the pool a payment spent, those
the board held or those made for it, is the payment's to say, within the order of events: mana
spent at one time may be any of what the pool holds then, never what is made after (a Signet's
{1} is paid before its mana is made).  :func:`spend` takes mana out of a pool read so, the mana
made first where the policy ranks ``min_waste`` before ``use_pool`` (a required Wastes' {C} pays
{C} beside a pool of {U}{C}, wasting nothing), the board's own first where ``use_pool`` ranks
first: at each spending, which is the better reading for what the payment leaves.
"""

from __future__ import annotations

import dataclasses
import itertools
from collections import Counter
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from manasolver.models.cost import ManaCost
from manasolver.solver.carry import _units, pool_text

if TYPE_CHECKING:
    from manasolver.models.state import GameState
    from manasolver.solver.request import Criterion, Policy

__all__ = ["MAX_LEFT_WAYS", "in_order", "spend", "spends_pool", "unspent_boards"]

#: Pools left unspent tried at most per board (past it, the rest is solved once on the whole
#: pool, its own policy unchanged).
MAX_LEFT_WAYS = 32


def unspent_boards(state: GameState, player: str, policy: Policy) -> list[tuple[GameState, tuple[Criterion, ...]]]:
    """The boards to solve the rest on besides ``state`` (``player``'s pool less each part of it
    that may be left unspent, the empty part first) and the criteria to solve them under
    (``policy``'s, ``use_pool`` moved right before ``min_waste``); none when the pool is empty,
    the policy does not count waste (or weighs its criteria) or there are too many parts."""
    me = state.player(player)
    pool = _units(me.pool.format()) if me.pool.symbols else Counter()
    criteria = policy.criteria
    if not pool or "min_waste" not in criteria or policy.weights:
        return []
    bits = sorted(pool)
    lefts = list(itertools.product(*(range(pool[b] + 1) for b in bits)))
    if len(lefts) > MAX_LEFT_WAYS:
        return []
    order: list[Criterion] = [c for c in criteria if c != "use_pool"]
    order.insert(order.index("min_waste"), "use_pool")
    return [(_with_pool(state, player, +(pool - Counter(dict(zip(bits, left))))), tuple(order)) for left in lefts]


def _with_pool(state: GameState, player: str, units: Counter[int]) -> GameState:
    """``state`` with ``player``'s pool holding ``units``."""
    text = pool_text(units)
    pool = ManaCost.parse(text, allow_empty=True) if text else ManaCost()
    return dataclasses.replace(state, players=tuple(
        p._replace(pool=pool) if p.name == player else p for p in state.players))


def in_order(score: Sequence[tuple[str, int]], criteria: Sequence[str]) -> tuple[tuple[str, int], ...]:
    """A payment's ``score`` solved under :func:`unspent_boards`'s order, in the order of
    ``criteria`` (the caller's): ``use_pool`` back in its place, or out when the caller did not
    name it."""
    out = [(n, v) for n, v in score if n != "use_pool"]
    if "use_pool" in criteria:
        value = dict(score).get("use_pool", 0)
        after = criteria[criteria.index("use_pool") + 1:]
        names = [n for n, _v in out]
        at = next((names.index(c) for c in after if c in names), len(out))
        out.insert(at, ("use_pool", value))
    return tuple(out)


def spends_pool(state: GameState, player: str, moves: Iterable[tuple[str, str]]) -> bool:
    """Do payments written from ``state``'s own pool on, in turn, end with ``player``'s pool
    empty?  ``moves``: each payment's ``floating`` and ``pool_used`` texts."""
    me = state.player(player)
    end = _units(me.pool.format()) if me.pool.symbols else Counter()
    for floating, used in moves:
        end.update(_units(floating))
        end.subtract(_units(used))
    return not +end


def spend(own: Counter[int], made: Counter[int], used: Counter[int],
          policy: Policy) -> tuple[Counter[int], Counter[int]]:
    """The pool read as the board's own mana ``own`` and mana made for the payment ``made``, after
    ``used`` is spent from it at one time (see the module docstring): one unit of a type read the
    other way changes ``use_pool`` and ``min_waste`` by one each, so the mana made is spent first
    where ``min_waste`` ranks (or weighs) more, the board's own first otherwise."""
    if _waste_first(policy):
        taken = made & used
        return +(own - (used - taken)), made - taken
    taken = own & used
    return own - taken, +(made - (used - taken))


def _waste_first(policy: Policy) -> bool:
    """Does ``policy`` rank ``min_waste`` over ``use_pool`` (or weigh it at least as much)?"""
    if policy.weights:
        weight = dict(policy.weights)
        return weight.get("min_waste", 0) >= weight.get("use_pool", 0)
    criteria = policy.criteria
    if "use_pool" not in criteria:
        return True
    return "min_waste" in criteria and criteria.index("min_waste") < criteria.index("use_pool")
