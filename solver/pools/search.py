"""The search over activations: which sets of pools the player can reach, as few states as can say it.

A state is (activations that cost mana left per class, life left, energy left, ranks per
restriction block); its pools are the sums of a pool of each block's polymatroid
(:mod:`manasolver.solver.pools.ranks`).  Floating mana starts block 0.

* **Free activations first.**  Activations with no mana in their cost can always come
  first without loss, so the search adds them class by class (a class of ``n``
  identical permanents adds every way its members can choose at once), a class with
  mana-costing activations also trying how many of its members wait for those.
* **Then every order.**  The activations that cost mana are searched in every order
  (a repeatable one, Farrelite Priest's "{1}: Add {W}", waits as many times as
  :mod:`~manasolver.solver.pools.untapped` says it can matter; a storage land once),
  as the order matters (CR 605.3: each one is paid from the pool as it is then),
  level by level (a level is the number done so far); a state is dropped when
  another with the same activations left dominates it: at least as much life and
  energy left and ranks pointwise at least as large in every block.
* **Phantom {C}.**  A permanent whose only free choice is ``{C}`` (filter lands,
  Cascading Cataracts) starts with its ``{C}`` in the pool, and its mana-costing
  ability pays one ``{C}`` back: while no mana-costing ability produces ``{C}``, the
  ``{C}`` units only dwindle, so any plan that spent the phantom early could have
  spent a ``{C}`` that was there instead; this spares branching on which permanents
  wait.  The search is still exponential in the number of *distinct* mana-costing
  classes (identical ones cost nothing more), as the union over orders is not one
  polymatroid (filters feeding each other): measured with two of each basic, 5
  distinct Shadowmoor filters answer exactly in 0.4 s (1,852 pools), 6 in 1.7 s, 7
  in 9 s, 8 in 41 s (CPU; about 4x per filter); past the budget the answer says
  ``complete: false``.  Boards whose mana-costing abilities all take one mana (filter
  lands) are answered by :mod:`~manasolver.solver.pools.converters` instead, which
  does not try orders; this search keeps the rest (Cascading Cataracts' ``{5}``,
  restricted mana, doublers, life that can run out).
* **Pool doublers** (Doubling Cube, :mod:`manasolver.solver.pools.doublers`) are
  searched with the mana-costing activations, in every order (a filter activated
  after the doubling can give what no other order gives).  Doubling needs the types
  fixed, so a state's polymatroid gives way to its bases (everything after is
  monotone in the pool) and each becomes a point: the originals keep their
  restriction, the copies are unrestricted (CR 106.6 example, Doubling Cube ruling 2004-12-01).  The
  phantom ``{C}`` is off then (a doubler would double a ``{C}`` that is not there yet).
"""

from __future__ import annotations

import itertools
import time
from operator import le

from manasolver.models.symbols import C
from manasolver.solver.pools.activations import (
    Choice,
    Contribution,
    Costly,
    Form,
    choices,
    class_contribs,
    compositions,
    costly,
    doubler_costly,
)
from manasolver.solver.pools.context import Budget, Search
from manasolver.solver.pools.doublers import Doubler
from manasolver.solver.pools.ranks import (
    ALL,
    ZERO,
    Rank,
    bases,
    rank_sum,
    remove,
    remove_mask,
    subset_sums,
    truncate,
    unit_rank,
)
from manasolver.solver.supply.model import Option, SourceClass, Supply

__all__ = ["State", "explore", "free_phase"]

#: A state: (activations left per mana-costing class, life left, energy left, ranks per block).
State = tuple[tuple[int, ...], int, int, tuple[Rank, ...]]
#: A mana-costing class of the search: (its class, or None for doublers; its activations;
#: the bit of the phantom mana its activation pays back, or 0).
Waiting = tuple[SourceClass | None, list[Costly], int]


def _with(blocks: tuple[Rank, ...], blk: int, rank: Rank) -> tuple[Rank, ...]:
    """``blocks`` with ``rank`` added to block ``blk`` (every state has all blocks)."""
    return blocks[:blk] + (rank_sum(blocks[blk], rank),) + blocks[blk + 1:]


def _flat(st: State) -> tuple[int, ...]:
    """Life, energy and every block's ranks in one tuple: ``a`` dominates ``b`` (same
    activations left) exactly when ``_flat(b) ≤ _flat(a)`` pointwise."""
    out: tuple[int, ...] = (st[1], st[2])
    for r in st[3]:
        out += r
    return out


def prune_grouped(search: Search, states: list[State]) -> list[State]:
    """Drop duplicate and dominated states, comparing only states with the same activations
    left: one dominates another when it has at least as much life and energy left and
    its ranks are pointwise at least as large in every block (it can do all the other can)."""
    groups: dict[tuple[int, ...], list[State]] = {}
    for st in dict.fromkeys(states):
        groups.setdefault(st[0], []).append(st)
    out: list[State] = []
    for group in groups.values():
        search.tick(len(group))
        flats = sorted(((_flat(st), st) for st in group), key=lambda p: -sum(p[0]))
        kept: list[tuple[int, ...]] = []
        for i, (fl, st) in enumerate(flats):
            if i & 127 == 127 and time.perf_counter() > search.deadline:
                raise Budget  # the test is quadratic in the group's size
            for k in kept:
                if all(map(le, fl, k)):
                    break
            else:
                kept.append(fl)
                out.append(st)
    return out


def _combine(search: Search, states: list[State], contribs: list[Contribution]) -> list[State]:
    """Every state plus every contribution ``(ranks by block, life, energy)`` that it can pay."""
    out = []
    for avail, life, energy, blocks in states:
        for ranks, dl, de in contribs:
            if dl > life or de > energy:
                continue
            nb = blocks
            for blk, r in enumerate(ranks):
                if r[ALL]:
                    nb = _with(nb, blk, r)
            out.append((avail, life - dl, energy - de, nb))
        search.tick(len(contribs))
    return prune_grouped(search, out)


def _double(search: Search, blocks: tuple[Rank, ...]) -> list[tuple[Rank, ...]]:
    """The states after doubling the pool (CR 106.6 example, Doubling Cube ruling 2004-12-01).

    The types of the mana must be fixed before it is doubled, so each block's
    polymatroid gives way to its maximal points (bases): everything after is
    monotone in the pool, so a smaller pool of the same block never does better.
    Each combination of bases becomes a point state: each restricted block keeps its
    mana, and block 0 (unrestricted) gets its own mana twice plus one copy of every
    restricted block's (the copies carry no restriction).
    """
    per_block: list[list[tuple[int, ...]]] = []
    for r in blocks:
        if not r[ALL]:
            per_block.append([(0,) * 6])
            continue
        found = []
        for v in bases(r):
            found.append(v)
            search.tick()
        per_block.append(found)
    out = []
    for combo in itertools.product(*per_block):
        total = [2 * c for c in combo[0]]
        for v in combo[1:]:
            total = [a + b for a, b in zip(total, v)]
        out.append((tuple(subset_sums(tuple(total))),) + tuple(tuple(subset_sums(v)) for v in combo[1:]))
        search.tick()
    return out


def _pay(blocks: tuple[Rank, ...], form: Form, payers: frozenset[int],
         colored_payers: frozenset[int] = frozenset()) -> list[tuple[Rank, ...]]:
    """Every way of paying one form from the blocks allowed to pay (each a new block tuple);
    ``colored_payers``: blocks that may pay its colored symbols only."""
    colored, generic, _, _ = form
    results: list[tuple[Rank, ...]] = [blocks]
    usable = sorted(b for b in payers if b < len(blocks))
    for_colored = sorted(b for b in payers | colored_payers if b < len(blocks))
    for bit in colored:
        nxt = []
        for bl in results:
            for b in for_colored:
                r = remove_mask(bl[b], bit)
                if r is not None:
                    nxt.append(bl[:b] + (r,) + bl[b + 1:])
        results = list(dict.fromkeys(nxt))
        if not results:
            return []
    if not generic:
        return results
    out = []
    for bl in results:
        if len(usable) == 1:
            b = usable[0]
            r = truncate(bl[b], generic)
            if r is not None:
                out.append(bl[:b] + (r,) + bl[b + 1:])
            continue
        for split in compositions(generic, len(usable)):
            nb = bl
            for b, g in zip(usable, split):
                if g:
                    r = truncate(nb[b], g)
                    if r is None:
                        break
                    nb = nb[:b] + (r,) + nb[b + 1:]
            else:
                out.append(nb)
    return list(dict.fromkeys(out))


def explore(search: Search, supply: Supply, applied: list[Doubler], life: int, energy: int
            ) -> tuple[list[State], bool]:
    """Every state the player can end in (dominated ones dropped), and whether a bound cut
    the search short (then the states found so far, with the plain taps of every permanent)."""
    search.block(None)
    pool_rank = ZERO
    for bit, n in supply.pool:
        pool_rank = rank_sum(pool_rank, unit_rank((bit,), n))
    # blocks of every restriction first, so payers are known when costly options are read
    for cls in supply.classes:
        for o in cls.options:
            search.block(o.restriction)
    # (the phantom {C} is exact while no doubler can double a phantom that is not there yet)
    phantom_ok = not applied and not any(o.union & C for cls in supply.classes
                                         for o in cls.options if not o.free)
    finals: list[State] = []
    start: tuple[Rank, ...] = (pool_rank,) + (ZERO,) * (len(search.blocks) - 1)
    progress: list[State] = [((), life, energy, start)]
    try:
        states, waiting = free_phase(search, supply, progress, phantom_ok)
        # pool doublers wait for the mana-costing phase (identical ones in one entry)
        kinds: dict[tuple[str, tuple[str, ...]], list[Doubler]] = {}
        for d in applied:
            kinds.setdefault((d.name, tuple(a.text for a in d.abilities)), []).append(d)
        for same in kinds.values():
            waiting.append((None, doubler_costly(search, same[0]), 0))
            states = [((*a, len(same)), li, en, bl) for a, li, en, bl in states]
        _costly_phase(search, states, waiting, finals)
    except Budget:
        # what was reached: the costly phase's levels, else the free phase's last classes,
        # and always the plain taps (so a cut answer is never the empty stand-in)
        return (finals or progress) + [_plain_taps(supply, search, life, energy, start)], True
    return finals, False


def _plain_taps(supply: Supply, search: Search, life: int, energy: int, start: tuple[Rank, ...]
                ) -> State:
    """A state reachable without search: every member of every class activates its first
    free exclusive option that costs no life, energy or other permanents, on top of the
    floating mana; what a cut search answers at least (no bound is checked here)."""
    blocks = start
    for cls in supply.classes:
        for o in cls.options:
            if (o.exclusive and o.free and not o.life and not o.energy and not o.tap_creatures
                    and not o.sacrifice_other):
                blocks = _with(blocks, search.block(o.restriction), unit_rank(o.slots, cls.count))
                break
    return ((), life, energy, blocks)


def free_phase(search: Search, supply: Supply, states: list[State], phantom_ok: bool
                ) -> tuple[list[State], list[Waiting]]:
    """Add every class's free activations; the classes with mana-costing ones are returned
    with how many members of each wait for them, as a new entry of every state's ``avail``."""
    # Phantom {C}: a permanent whose only free choice is {C} (filter lands, Cascading
    # Cataracts) starts with its {C} in the pool, and its mana-costing ability also pays
    # one {C} back.  Exact while no mana-costing ability produces {C}: {C} is then never
    # produced later, so a plan that spent the phantom early can always have spent another
    # {C} (see the module docstring); it saves branching on which permanents wait.
    unit_c = unit_rank((C,))
    waiting: list[Waiting] = []
    progress = states  # the caller's list: after each class, the states reached so far
    states = list(states)
    for cls in supply.classes:
        progress[:] = states
        free = [o for o in cls.options if o.exclusive and o.free]
        costs = [o for o in cls.options if o.exclusive and not o.free]
        reps = [o for o in cls.options if not o.exclusive]
        # repeatable activations (no {T}, {Q} or sacrifice): each member may repeat them; the
        # free ones now, the ones that cost mana wait with the other mana-costing activations
        by_ability: dict[tuple[int, bool], list[Option]] = {}
        for o in reps:
            by_ability.setdefault((o.ability, o.free), []).append(o)
        for (_, free_rep), group in by_ability.items():
            times = min(o.repeat for o in group) * cls.count
            if free_rep:
                states = _combine(search, states, class_contribs(search, choices(search, group), times))
            else:
                waiting.append((cls, [costly(search, cls, o) for o in group], 0))
                states = [((*a, times), li, en, bl) for a, li, en, bl in states]
        own: list[Choice] = choices(search, free)
        if not costs:
            states = _combine(search, states, class_contribs(search, own, cls.count))
            continue
        costlies = [costly(search, cls, o) for o in costs]
        if phantom_ok and len(own) == 1 and own[0] == Choice(unit_c, 0):
            waiting.append((cls, costlies, C))
            part = _combine(search, states, class_contribs(search, own, cls.count))
            states = [((*a, cls.count), li, en, bl) for a, li, en, bl in part]
            continue
        # a class with mana-costing options: m members use a free option, the rest wait
        waiting.append((cls, costlies, 0))
        out: list[State] = []
        for m in (range(cls.count, -1, -1) if own else (0,)):
            part = _combine(search, states, class_contribs(search, own, m))
            out.extend(((*a, cls.count - m), li, en, bl) for a, li, en, bl in part)
        states = prune_grouped(search, out)
    progress[:] = states
    return states, waiting


def _costly_phase(search: Search, states: list[State], waiting: list[Waiting], finals: list[State]
                  ) -> None:
    """The activations that cost mana, in every order, level by level (a level is the number
    done so far); every state of every level goes to ``finals`` (a bound may stop this
    midway: what is in ``finals`` then is reachable)."""
    level = prune_grouped(search, states)
    while level:
        finals.extend(level)
        nxt: list[State] = []
        for avail, life, energy, blocks in level:
            search.tick()
            for i, (_cls, costlies, giveback) in enumerate(waiting):
                if not avail[i]:
                    continue
                nav = avail[:i] + (avail[i] - 1,) + avail[i + 1:]
                before = blocks
                if giveback:
                    back = remove(blocks[0], giveback)
                    if back is None:
                        continue
                    before = (back,) + blocks[1:]
                for c in costlies:
                    for form in c.forms:
                        if form[2] > life or form[3] > energy:
                            continue
                        for paid in _pay(before, form, c.payers, c.colored_payers):
                            if c.doubles:
                                nxt.extend((nav, life - form[2], energy - form[3], dbl)
                                           for dbl in _double(search, paid))
                            for prod in c.productions:
                                nxt.append((nav, life - form[2], energy - form[3],
                                            _with(paid, c.block, prod)))
        level = prune_grouped(search, nxt)
