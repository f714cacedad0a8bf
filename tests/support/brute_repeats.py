"""A brute force of activation sequences, for repeatable mana abilities (tests only).

Written from the rules, sharing no code with the solvers (board semantics only: effective
abilities and what an activation adds, :mod:`manasolver.solver.graph` and
:func:`manasolver.models.rules.production.activation_results`).  Starting with an empty pool it
tries every *sequence* of mana abilities the player could activate while paying a cost (CR
601.2g, 605.3a): each activation's costs paid when it is activated, its mana cost from the mana
in the pool at that moment (so from earlier activations, in any interleaving), ``{T}`` once,
"Activate only once each turn" and "no more than three times" (602.5b), counters removed
that are there (118.3; "Remove X": every X, CR 107.3), life paid that the player has (119.4);
each mana's type chosen as it is added.  Every reachable pool is then matched against the cost.

It is exact for the boards of the tests: each repeatable ability is activated at most as many
times as the board's limited abilities can make mana in all (:func:`_cap`, at least :data:`CAP`):
an ability that costs mana and adds no more than it costs (Skyshroud Elf's "{1}: Add {R} or
{W}") never needs more activations than there is mana to feed it.  The pools a board reaches are
explored once and matched against each cost asked of it.  Costs are plain: colored, ``{C}`` and
generic symbols, one ``{X}``; an activation's cost may also hold hybrid symbols (filter lands).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from manasolver.models.cost import ManaCost
from manasolver.models.rules.granted import summoning_sick
from manasolver.models.rules.production import activation_results
from manasolver.models.state import GameState
from manasolver.models.symbols import TYPE_BITS
from manasolver.solver.graph import abilities_of

#: Activations of one repeatable ability at most, per permanent, when the board makes less mana.
CAP = 4
#: Pool states visited at most: past it :class:`TooBig` (the test skips that board).
MAX_STATES = 40_000


class TooBig(Exception):
    """The board has more reachable states than :data:`MAX_STATES`."""


@dataclass(frozen=True)
class Best:
    """What the sequences reach: payable or not, the least life paid and the fewest activations
    when payable, and the largest X for a cost with ``{X}`` (-1: not payable at any X)."""

    payable: bool
    least_life: int | None
    max_x: int
    least_activations: int | None = None


def _needs(cost: ManaCost) -> tuple[list[int], int, int]:
    """(type bits of the colored and {C} symbols, generic amount, X symbols)."""
    typed: list[int] = []
    generic = 0
    xs = 0
    for s in cost.symbols:
        if s.variable:
            xs += 1
        elif s.is_numeral:
            generic += s.generic
        elif s.phyrexian or s.snow or s.special or (s.colors & (s.colors - 1)):
            raise ValueError(f"the brute force takes plain costs, not {s.text}")
        else:
            typed.append(s.colors if s.colors else TYPE_BITS[5])
    return typed, generic, xs


def _pays(pool: tuple[int, ...], typed: list[int], generic: int) -> int:
    """-1 when ``pool`` can't pay the typed symbols and ``generic``; else the mana left over."""
    left = list(pool)
    for bit in typed:
        i = TYPE_BITS.index(bit)
        if not left[i]:
            return -1
        left[i] -= 1
    rest = sum(left)
    return rest - generic if rest >= generic else -1


def _take(pool: tuple[int, ...], bits: Iterable[int]) -> tuple[int, ...] | None:
    """``pool`` (counts by type, in TYPE_BITS order) less one mana of each of ``bits``; None when
    it lacks one."""
    left = list(pool)
    for bit in bits:
        i = TYPE_BITS.index(bit)
        if not left[i]:
            return None
        left[i] -= 1
    return tuple(left)


def _spend(pool: tuple[int, ...], cost: ManaCost) -> Iterator[tuple[int, ...]]:
    """Every pool left after paying ``cost`` (colored symbols, each color of a hybrid one such as
    Mystic Gate's ``{W/U}``, then generic from any type)."""
    split = [not s.is_numeral and bool(s.colors & (s.colors - 1)) and not (s.phyrexian or s.snow or s.special)
             for s in cost.symbols]
    hybrid = [s.colors for s, h in zip(cost.symbols, split) if h]
    if hybrid:
        plain = ManaCost.parse("".join(s.text for s, h in zip(cost.symbols, split) if not h) or "{0}")
        for pick in itertools.product(*([b for b in TYPE_BITS[:5] if m & b] for m in hybrid)):
            paid = _take(pool, pick)
            if paid is not None:
                yield from _spend(paid, plain)
        return
    typed, generic, _ = _needs(cost)
    taken = _take(pool, typed)
    if taken is None:
        return
    left = list(taken)

    def rec(i: int, need: int, cur: list[int]) -> Iterator[tuple[int, ...]]:
        if need == 0:
            yield tuple(cur)
            return
        if i == 6:
            return
        for take in range(min(need, cur[i]), -1, -1):
            cur[i] -= take
            yield from rec(i + 1, need - take, cur)
            cur[i] += take

    yield from rec(0, generic, left)


def _add(pool: tuple[int, ...], slots: tuple[int, ...]) -> Iterator[tuple[int, ...]]:
    """Every pool after adding one mana per slot, each of a type its mask allows."""
    if not slots:
        yield pool
        return
    for i, bit in enumerate(TYPE_BITS):
        if slots[0] & bit:
            nxt = list(pool)
            nxt[i] += 1
            yield from _add(tuple(nxt), slots[1:])


def _cap(state: GameState, sources: list[tuple[int, int, Any, Any, bool]]) -> int:
    """The activations of a repeatable ability worth trying: the most mana the board's limited
    abilities can make in all (a {T} ability once, one that removes counters as often as they
    last, "Remove X": one mana a counter), at least :data:`CAP`.  An ability without a limit adds
    no more than it costs on the tests' boards, so it makes no mana of its own."""
    made = 0
    for pi, _ai, ab, results, _sick in sources:
        c = ab.cost
        counters = dict(state.battlefield[pi].counters)
        most = max((len(r.mana) + len(r.extra) for r in results), default=0)
        if c.remove_any:
            per = max(((len(r.mana) + len(r.extra)) / r.removed for r in results if r.removed), default=0)
            made += int(per * counters.get(c.remove_any, 0))
        elif c.tap:
            made += most
        elif c.remove_counters:
            made += most * min(counters.get(kind, 0) // k for kind, k in c.remove_counters)
        elif ab.per_turn:
            made += most * ab.per_turn
    return max(CAP, made)


def search(state: GameState, cost: ManaCost, player: str = "you") -> Best:
    """Every sequence of activations (see the module docstring) against ``cost``."""
    typed, generic, xs = _needs(cost)
    payable = False
    least: int | None = None
    fewest: int | None = None
    best_x = -1
    for pool, life, used in _reachable(state, player):
        left = _pays(pool, typed, generic)
        if left >= 0:
            payable = True
            least = life if least is None else min(least, life)
            fewest = used if fewest is None else min(fewest, used)
            if xs:
                best_x = max(best_x, left // xs)
    return Best(payable, least, best_x, fewest)


#: The last board explored and its reachable (pool, life paid, activations): the tests ask many
#: costs of one board in a row.
_LAST: list[tuple[GameState, str, frozenset[tuple[tuple[int, ...], int, int]]]] = []


def _reachable(state: GameState, player: str) -> frozenset[tuple[tuple[int, ...], int, int]]:
    """Every (pool, life paid, activations made) some sequence of activations reaches."""
    if _LAST and _LAST[0][0] is state and _LAST[0][1] == player:
        return _LAST[0][2]
    me = state.player(player)
    sources = []  # (perm index, ability index, ability, results, sick)
    for pi, perm in enumerate(state.battlefield):
        if perm.controller != player:
            continue
        for ai, ab in enumerate(abilities_of(state, perm)):
            if ab.cost.untap or ab.cost.sacrifice or ab.cost.sacrifice_self or ab.cost.tap_creatures:
                raise ValueError(f"{perm.card.name}: the brute force does not take this cost")
            results = activation_results(state, perm, ab)
            if results:
                sources.append((pi, ai, ab, results, summoning_sick(state, perm)))
    n = len(sources)
    cap = _cap(state, sources)
    start = ((0,) * 6, (False,) * len(state.battlefield), (0,) * n,
             tuple(tuple(sorted(p.counters)) for p in state.battlefield), 0)
    seen: set[object] = set()
    stack = [start]
    out: set[tuple[tuple[int, ...], int, int]] = set()
    while stack:
        node = stack.pop()
        if node in seen:
            continue
        seen.add(node)
        if len(seen) > MAX_STATES:
            raise TooBig(f"more than {MAX_STATES} states")
        pool, tapped, counts, counters, life = node
        out.add((pool, life, sum(counts)))
        for si, (pi, ai, ab, results, sick) in enumerate(sources):
            perm = state.battlefield[pi]
            c = ab.cost
            if c.tap and (perm.tapped or tapped[pi] or sick):
                continue
            limit = ab.per_turn or (1 if c.tap else cap)
            if counts[si] >= limit:
                continue
            if life + c.life > me.life:
                continue
            have = dict(counters[pi])
            if any(have.get(kind, 0) < k for kind, k in c.remove_counters):
                continue
            for kind, k in c.remove_counters:
                have[kind] -= k
            for after_cost in _spend(pool, c.mana):
                for r in results:
                    if c.remove_any and (r.removed > have.get(c.remove_any, 0) or r.removed < 1):
                        continue
                    now = dict(have)
                    if c.remove_any:
                        now[c.remove_any] -= r.removed
                    new_counters = counters[:pi] + (tuple(sorted(now.items())),) + counters[pi + 1:]
                    new_tapped = tapped[:pi] + (tapped[pi] or c.tap,) + tapped[pi + 1:]
                    new_counts = counts[:si] + (counts[si] + 1,) + counts[si + 1:]
                    for got in _add(after_cost, tuple(r.mana) + tuple(r.extra)):
                        stack.append((got, new_tapped, new_counts, new_counters, life + c.life))
    found = frozenset(out)
    _LAST[:] = [(state, player, found)]
    return found
