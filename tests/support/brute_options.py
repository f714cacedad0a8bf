"""A brute force for the ``options`` query: plays every order of activations on concrete pools.

Written apart from :mod:`manasolver.solver.pools` (no classes, no polymatroids, no shared code but the
card data), so the two can be compared.
"""

from __future__ import annotations

import functools
import itertools
from typing import Any

from manasolver.models.board.load import load_state
from manasolver.models.rules.granted import summoning_sick
from manasolver.models.state import GameState, Permanent
from manasolver.models.symbols import TYPES
from manasolver.solver.pools.options import OptionsAnswer

Vec = tuple[int, ...]


# -- building boards ---------------------------------------------------------------------------


def make_board(spec: dict[str, Any]) -> GameState:
    """A state from a vector's board: ``{"card": "Plains", "count": 10}`` expands to ten Plains."""
    players = spec.get("players") or [{"name": "you"}, {"name": "opponent"}]
    battlefield: list[dict[str, Any]] = []
    for entry in spec.get("battlefield", []):
        entry = dict(entry)
        n = entry.pop("count", 1)
        for _ in range(n):
            item = dict(entry)
            item.setdefault("id", f"p{len(battlefield)}")
            if n > 1:
                item["id"] = f"{item['id']}_{len(battlefield)}"
            battlefield.append(item)
    state = {"players": players, "battlefield": battlefield}
    if "turn" in spec:
        state["turn"] = spec["turn"]
    return load_state(state)


def parse_option(text: str) -> Vec:
    """``"{W}{U}{U}"`` as counts in WUBRGC order."""
    return tuple(text.count("{" + t + "}") for t in TYPES)


def breakdown(state: GameState, answer: OptionsAnswer, expected: list[str] | None = None) -> str:
    """What went wrong, per source: the perft-style report of a failing vector."""
    from manasolver.solver.supply.build import build_supply
    lines = []
    got = [o.text for o in answer.options]
    if expected is not None:
        missing = [o for o in expected if o not in got]
        extra = [o for o in got if o not in expected]
        lines.append(f"missing ({len(missing)}): {missing[:20]}")
        lines.append(f"extra ({len(extra)}): {extra[:20]}")
    lines.append(f"got {len(got)}, complete={answer.complete}, states={answer.states}")
    supply = build_supply(state)
    lines.append(f"pool: {supply.pool}")
    for cls in supply.classes:
        lines.append(f"  {cls.name} x{cls.count}:")
        for o in cls.options:
            lines.append(f"      ability {o.ability}: slots={o.slots} cost={o.mana_cost.format()!r} "
                         f"life={o.life} energy={o.energy} exclusive={o.exclusive} "
                         f"restricted={o.restriction is not None}")
    for e in supply.excluded:
        lines.append(f"  excluded {e.permanent}: {e.reason}")
    return "\n".join(lines)


# -- an independent brute force ------------------------------------------------------------------

_BIT_INDEX = {1 << i: i for i in range(6)}


def _types_of(mask: int) -> list[int]:
    return [i for i in range(6) if mask >> i & 1]


def _could_produce_simple(state: GameState, perm: Permanent) -> int:
    """Types the lands of ``perm``'s controller could produce, one level deep (test boards only)."""
    mask = 0
    for q in state.battlefield:
        if q.controller != perm.controller or not q.is_land:
            continue
        for ab in q.card.mana_abilities:
            for opt in ab.production.options:
                for s in opt:
                    mask |= s
    return mask


@functools.cache
def _picks(opt: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    """The distinct multisets of types one production option can add."""
    return tuple(sorted({tuple(sorted(p)) for p in itertools.product(*[_types_of(s) for s in opt])}))


def _payments(pool: Vec, cost_symbols: list[Any]) -> set[Vec]:
    """Every pool left after paying the symbols from ``pool`` (18 counts; the last six,
    restricted mana that may not pay abilities, never pay)."""
    results = {pool}
    for sym in cost_symbols:
        nxt: set[Vec] = set()
        for p in results:
            for way in sym.ways_to_pay():
                if way.kind == "mana":
                    t = _BIT_INDEX[way.mask]
                    for kind in (0, 1):
                        if p[6 * kind + t] > 0:
                            q = list(p)
                            q[6 * kind + t] -= 1
                            nxt.add(tuple(q))
                elif way.kind == "generic":
                    cur = {p}
                    for _ in range(way.amount):
                        step = set()
                        for c in cur:
                            for i in range(12):
                                if c[i] > 0:
                                    q = list(c)
                                    q[i] -= 1
                                    step.add(tuple(q))
                        cur = step
                    nxt |= cur
                else:
                    raise AssertionError(f"brute force does not pay {way.kind}")
        results = nxt
    return results


def brute_options(state: GameState, player: str = "you") -> set[tuple[Vec, Vec]]:
    """Maximal (pool, restricted part) pairs by playing every sequence of activations.

    Rules applied directly: {T} needs untapped and not summoning-sick (CR 302.6),
    each permanent activates at most one {T}/sacrifice ability (it is then tapped
    or gone), life costs need life ≥ the amount (119.4), energy costs need energy,
    mana costs are paid from the pool as it is when activated (601.2g, 605.3);
    restricted mana (106.6) pays an ability only when its restriction allows any
    ability (Powerstone), never otherwise (Ancient Ziggurat).  Mana is tracked as
    18 counts: six types for each of unrestricted, restricted-but-pays-abilities,
    restricted-and-does-not.  A pool doubler (Doubling Cube, CR 106.6 example) adds
    one unrestricted mana per mana of each type in the pool.  Returns maximal pairs
    under "unrestricted counts ≤ and total counts ≤".
    """
    pl = state.player(player)
    perms = [p for p in state.battlefield if p.controller == player]
    start = [0] * 18
    for s in pl.pool.symbols:
        if s.is_numeral:
            start[5] += s.generic
        else:
            start[_BIT_INDEX[s.colors or 32]] += 1
    seen: set[tuple[Any, Vec, int, int]] = set()
    pools: set[Vec] = set()

    def activations(perm: Permanent) -> list[tuple[Any, list[tuple[int, ...]] | None, int]]:
        out = []
        for ab in perm.card.mana_abilities:
            c = ab.cost
            assert not (c.untap or c.sacrifice or c.tap_creatures or c.remove_counters)
            assert c.tap or c.sacrifice_self, "brute force handles {T}/sacrifice abilities only"
            if c.tap and (perm.tapped or summoning_sick(state, perm)):
                continue
            prod = ab.production
            if prod.doubles_pool:  # Doubling Cube: no options, the pool is doubled
                out.append((c, None, 0))
                continue
            if prod.reference:
                mask = _could_produce_simple(state, perm)
                opts: list[tuple[int, ...]] = [(mask,)] if mask else [()]
            else:
                assert prod.amount is None
                opts = list(prod.options)
            r = prod.restriction
            kind = 0 if r is None else (1 if r.any_ability else 2)
            out.append((c, opts, kind))
        return out

    acts = [activations(p) for p in perms]
    # identical permanents are interchangeable: remember which kinds were used, not which copy
    sig = [(p.card.name, p.card.oracle_text, p.tapped, summoning_sick(state, p)) for p in perms]

    def rec(used: frozenset[int], pool: Vec, life: int, energy: int) -> None:
        key = (tuple(sorted(sig[i] for i in used)), pool, life, energy)
        if key in seen:
            return
        seen.add(key)
        pools.add(pool)
        tried = set()
        for i in range(len(perms)):
            if i in used or sig[i] in tried:
                continue
            tried.add(sig[i])
            for cost, opts, kind in acts[i]:
                if cost.life and life < cost.life:
                    continue
                if cost.energy and energy < cost.energy:
                    continue
                for paid in _payments(pool, list(cost.mana.symbols)):
                    if opts is None:  # the copies are unrestricted (CR 106.6 example)
                        q = list(paid)
                        for t in range(6):
                            q[t] += paid[t] + paid[6 + t] + paid[12 + t]
                        rec(used | {i}, tuple(q), life - cost.life, energy - cost.energy)
                        continue
                    for opt in opts:
                        for pick in _picks(opt):
                            q = list(paid)
                            for t in pick:
                                q[6 * kind + t] += 1
                            rec(used | {i}, tuple(q), life - cost.life, energy - cost.energy)

    rec(frozenset(), tuple(start), pl.life, pl.energy)
    pairs = {(tuple(p[i] + p[6 + i] + p[12 + i] for i in range(6)),
              tuple(p[6 + i] + p[12 + i] for i in range(6))) for p in pools}

    def below(a: tuple[Vec, Vec], b: tuple[Vec, Vec]) -> bool:
        (ta, ra), (tb, rb) = a, b
        return all(x <= y for x, y in zip(ta, tb)) and \
            all(x - r <= y - s for x, r, y, s in zip(ta, ra, tb, rb))

    # anything above a pair has a larger total plus unrestricted size, so it comes first,
    # and a maximal pair above it is kept by then (the order is transitive)
    kept: list[tuple[Vec, Vec]] = []
    for p in sorted(pairs, key=lambda p: -(2 * sum(p[0]) - sum(p[1]))):
        if not any(below(p, q) for q in kept):
            kept.append(p)
    return set(kept)


def maximal_totals(pairs: set[tuple[Vec, Vec]]) -> set[Vec]:
    """Maximal pools counting restricted mana as mana (the non-detail answer)."""
    totals = {t for t, _ in pairs}
    return {t for t in totals
            if not any(u != t and all(x <= y for x, y in zip(t, u)) for u in totals)}


# -- the vectors -------------------------------------------------------------------------------
