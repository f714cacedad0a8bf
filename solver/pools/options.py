"""The ``options`` query (SPEC §5): every maximal pool of mana the player can have at once.

A player's pool after activating mana abilities now is a multiset of the six
types (CR 106.1, 106.4).  The answer lists every *maximal* such multiset: one
that no other reachable pool contains.  Floating mana is part of every pool;
abilities that cost mana (filter lands, Signets, Cascading Cataracts) are paid
from mana produced before them, so their net result is what counts (CR 601.2g,
605.3); sacrifice abilities (Treasure, Lotus Petal) are legal activations now
and count like any other.

Exact, and without enumerating copies (SPEC §8: three Cascading Cataracts made
XMage freeze, magefree/mage#7710; with thirty basics, ten each of Plains, Island
and Forest, there are 35,366 maximal pools, listed in about 0.35-0.6 s):

* **Classes, not copies.**  Sources come grouped by
  :func:`manasolver.solver.supply.build.build_supply` (identical permanents in one
  class with a count).  One permanent's single-mana choices merge into one unit
  of the union mask (an Adarkar Wastes is one unit of ``{W,U,C}``; a pain
  land's damage does not limit pools), so a class contributes ``count`` copies
  of the same unit set at once.
* **States are polymatroids.**  Any choice among the types of a mask may wait
  until the mana is spent, so the set of pools reachable from a multiset of
  masks is the integer polymatroid with rank ``f(T)`` = the number of units whose
  mask meets ``T`` (Hall/Rado).  Such a set is stored as its 64 ranks, one per set
  of types.  Every step keeps it a polymatroid, and none copies units:

  - adding a source's production is a Minkowski sum: ranks add;
  - paying generic mana ``{g}`` from the pool is a truncation,
    ``f'(T) = min(f(T), f(E) - g)`` (any pool of at most ``f(E) - g`` mana
    inside the old set can be what is left);
  - paying one mana of type ``t`` keeps ``{x : x + e_t ∈ P}``, whose ranks are
    ``min over S ⊇ T of f(S) - [t ∈ S]``;
  - paying one mana of either color of a hybrid symbol keeps the union of the two
    removals, itself a polymatroid (M-convexity survives paying through a network),
    with the pointwise maximum of their ranks: one state, no branch;
  - a Phyrexian or two-generic hybrid symbol, a choice between productions that is
    not a product of slots, or a cost that needs life or energy the player might
    run out of, branches into several states.

  One state contains another exactly when its ranks are pointwise at least as
  large, which prunes dominated states cheaply.
* **Order.**  Free activations (no mana in their cost) can always come first
  without loss; the activations that cost mana are searched in every order, as
  the order matters (CR 605.3: each one is paid from the pool as it is then),
  level by level, a state being dropped when another with the same activations
  left dominates it.  A permanent whose only free choice is ``{C}`` (filter
  lands, Cascading Cataracts) starts with a *phantom* ``{C}`` in the pool, and
  its mana-costing ability pays one ``{C}`` back: while no mana-costing ability
  produces ``{C}``, the ``{C}`` units only dwindle, so any plan that spent the
  phantom early could have spent a ``{C}`` that was there instead; this spares
  branching on which permanents wait.  The search is still exponential in the
  number of *distinct* mana-costing classes (identical ones cost nothing more),
  as the union over orders is not one polymatroid (filters feeding each other):
  measured with two of each basic, 5 distinct Shadowmoor filters answer exactly in
  0.4 s (1,852 pools), 6 in 1.7 s, 7 in 9 s, 8 in 41 s (CPU; about 4x per filter);
  past the budget the answer says ``complete: false``.
* **Maximal pools.**  The answer is the set of maximal points of the union of
  the final states.  A polymatroid's maximal points (its bases) are enumerated
  in descending order type by type, with the exact feasible range of each count
  from the contraction formula ``max y(S) = min over T ⊆ A of f(S ∪ T) - x(T)``;
  a base of one state is dropped when another state with a larger rank
  contains it (then some strictly larger pool is reachable).  The streams of
  all states are merged in the answer's order, so a ``limit`` stops the work.

Restricted mana (CR 106.6) is kept in its own blocks: it is counted in the
pools, listed again under ``restricted`` with ``detail``, and pays an ability's
cost only when its restriction allows activated abilities of that source.

What is not modelled exactly is reported, never guessed: permanents that the
supply leaves out (unreadable text, costs that sacrifice other permanents) make
the answer incomplete (``complete: false`` and an ``unsupported`` list); a
mana-costing ability that needs ``{S}`` or ``{X}`` raises
:class:`~manasolver.models.errors.Unsupported`.  Damage dealt by pain lands
does not limit pools here (life payments can be made before it), except in the
rare case where a life-costing ability must be paid with a pain land's mana
while life would run out.  Replacement effects and triggered mana abilities
(Mana Reflection, Nyxbloom Ancient, Wild Growth, Mana Flare) arrive already
applied in the supply's activation options.

Pool doublers (Doubling Cube: "{3}, {T}: Double the amount of each type of
unspent mana you have", :mod:`manasolver.solver.pools.doublers`) are searched with
the mana-costing activations, in every order (a filter activated after the
doubling can give what no other order gives).  Doubling needs the types fixed,
so a state's polymatroid gives way to its bases (everything after is monotone
in the pool) and each becomes a point: the originals keep their restriction,
the copies are unrestricted (CR 106.6 example, RULES T117).  The phantom {C}
is off then (a doubler would double a {C} that is not there yet).  A doubler
under a replacement or trigger effect on its activation (Mana Reflection), or
with costs other than mana and {T}, is reported, not applied.

>>> from manasolver.solver.pools.options import _bases, _unit_rank
>>> sorted(_bases(_unit_rank((32 | 1 | 2,) * 3)))[:3]   # three Adarkar Wastes
[(0, 0, 0, 0, 0, 3), (0, 1, 0, 0, 0, 2), (0, 2, 0, 0, 0, 1)]
"""

from __future__ import annotations

import heapq
import itertools
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import lru_cache
from operator import add, gt, itemgetter, le, mul, or_, sub
from typing import Any

from manasolver.models.abilities import Restriction
from manasolver.models.cost import ManaCost
from manasolver.models.errors import Unsupported
from manasolver.models.state import GameState, Permanent, Player
from manasolver.models.symbols import TYPES
from manasolver.solver.pools.doublers import Doubler, find_doublers
from manasolver.solver.supply.build import build_supply
from manasolver.solver.supply.model import Option, SourceClass, restriction_allows

__all__ = ["DEFAULT_BUDGET", "MAX_STATES", "ManaOption", "OptionsAnswer", "options"]

#: Wall-clock bound of one query, in seconds: past it the answer says ``complete: false``.
#: Three Cascading Cataracts and thirty basics (65,601 pools, exact) take 1.1-1.4 s here, so a
#: 1 s bound cut that answer short depending on the machine's load.
DEFAULT_BUDGET = 3.0
#: Bound on the number of search states kept (memory, and a second guard against hanging).
MAX_STATES = 50_000
#: Bound on the options examined when ``detail`` lists restricted mana separately.
MAX_DETAIL_CANDIDATES = 200_000

_E = 63  # every type: W U B R G C
_BITS = (1, 2, 4, 8, 16, 32)
_BIT_SET = frozenset(_BITS)
_MASK_BITS = [tuple(b for b in _BITS if m & b) for m in range(64)]
Rank = tuple[int, ...]  # 64 ranks, index = set of types as a bitmask
_ZERO: Rank = (0,) * 64
_SUBSETS = [tuple(t for t in range(64) if t & a == t) for a in range(64)]
_ONES = (1,) * 64
#: ``_WITH_BIT[b](f)`` is ``(f[T | b] for every T)``
_WITH_BIT = {b: itemgetter(*[t | b for t in range(64)]) for b in (1, 2, 4, 8, 16, 32)}


# -- polymatroid ranks -------------------------------------------------------------------------


@lru_cache(maxsize=4096)
def _unit_rank(masks: tuple[int, ...], times: int = 1) -> Rank:
    """Ranks of ``times`` copies of units with these masks: ``f(T)`` = units meeting ``T``."""
    return tuple(times * sum(1 for m in masks if m & t) for t in range(64))


def _add(f: Rank, g: Rank) -> Rank:
    """Minkowski sum: every pool of one plus every pool of the other."""
    return tuple(map(add, f, g))


def _truncate(f: Rank, generic: int) -> Rank | None:
    """Pay ``generic`` mana of any types: what is left is any pool of at most f(E) - g mana."""
    r = f[_E] - generic
    if r < 0:
        return None
    if r >= f[_E]:
        return f
    return tuple(map(min, f, itertools.repeat(r, 64)))


def _remove(f: Rank, bit: int) -> Rank | None:
    """Pay one mana of type ``bit``: the pools x with x + e_bit reachable, or None.

    The ranks ``min over S ⊇ T of f(S) - [bit ∈ S]`` reduce, as ``f`` is monotone, to
    ``f(T) - 1`` when ``bit ∈ T`` and ``min(f(T), f(T ∪ bit) - 1)`` otherwise.
    """
    if f[bit] < 1:
        return None
    return tuple(map(min, f, map(sub, _WITH_BIT[bit](f), _ONES)))


def _remove_mask(f: Rank, mask: int) -> Rank | None:
    """Pay one mana of any type of ``mask`` (a hybrid symbol's colored halves), or None.

    The pools left are the union over the types ``t`` of ``mask`` of :func:`_remove`
    ``(f, t)``; that union is again a polymatroid (paying one mana through a network
    keeps the bases M-convex: network induction, Murota, *Discrete Convex Analysis*,
    9.6), so its ranks are the pointwise maximum of the parts'.  One state instead
    of one per type: Shadowmoor filter lands ("{U/B}, {T}: ...") no longer branch.
    That maximum is ``f(T) - 1``, plus one when some type ``t`` of the mask adds to
    the rank (``f(T ∪ t) > f(T)``; never when ``t ∈ T``, nor when ``f(t) = 0``).
    """
    if mask in _BIT_SET:
        return _remove(f, mask)
    bits = _MASK_BITS[mask]
    if not any(f[b] for b in bits):
        return None
    inc: Iterator[bool] | None = None
    for b in bits:
        grows = map(gt, _WITH_BIT[b](f), f)
        inc = grows if inc is None else map(or_, inc, grows)
    assert inc is not None
    return tuple(map(add, f, map(sub, inc, _ONES)))


def _leq(f: Rank, g: Rank) -> bool:
    """Every pool of ``f`` is a pool of ``g``."""
    return all(map(le, f, g))


def _sums(v: tuple[int, ...]) -> list[int]:
    """Subset sums of a six-type count vector, by set of types."""
    s = [0]
    for c in v:
        s += [a + c for a in s]
    return s


def _contains(f: Rank, v: tuple[int, ...]) -> bool:
    """The pool ``v`` is in the polymatroid ``f`` (CR: can be had at once)."""
    return all(map(le, _sums(v), f))


def _bases(f: Rank, above: tuple[Rank, ...] = ()) -> Iterator[tuple[int, ...]]:
    """Every maximal pool of ``f`` (its bases) that no state in ``above`` contains,
    in descending W, U, B, R, G order.

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
    total = f[_E]
    xs = [0] * 16  # subset sums of the fixed types (sets within W, U, B, R)

    def span(t: int) -> range:
        head = xs[:t]
        hi = min(map(sub, f[t:2 * t], head))
        rest = _E & ~(2 * t - 1)
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


# -- answer ----------------------------------------------------------------------------------


_SYMBOLS = tuple("{" + t + "}" for t in TYPES)


def _fmt(v: tuple[int, ...]) -> str:
    """Counts by type as mana symbols in canonical WUBRGC order."""
    return "".join(map(mul, _SYMBOLS, v))  # map, not a generator: tens of thousands of pools


@dataclass(frozen=True, slots=True)
class ManaOption:
    """One maximal pool: counts by type (W, U, B, R, G, C) and the restricted part of it."""

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
    may exist and may contain listed ones.
    """

    options: tuple[ManaOption, ...]
    complete: bool
    detail: bool = False
    bounded: bool = False
    unsupported: tuple[tuple[str, str], ...] = ()
    states: int = field(default=0, compare=False)

    def to_json(self) -> dict[str, Any]:
        """The protocol's answer (SPEC §5)."""
        out: dict[str, Any]
        if self.detail:
            out = {"options": [{"mana": o.text, "restricted": o.restricted_text}
                               for o in self.options]}
        else:
            out = {"options": [o.text for o in self.options]}
        out["complete"] = self.complete
        if self.unsupported:
            out["unsupported"] = [{"permanent": p, "reason": r} for p, r in self.unsupported]
        if self.bounded:
            out["bounded"] = True
        return out


# -- building the search ---------------------------------------------------------------------


class _Budget(Exception):
    """The time or size bound was hit."""


@dataclass(frozen=True, slots=True)
class _Choice:
    """One thing one permanent (or one repeatable activation) can add: a rank, its costs."""

    rank: Rank
    block: int
    life: int = 0
    energy: int = 0


@dataclass(frozen=True, slots=True)
class _Costly:
    """An activation that costs mana: payment forms, costs, and its possible productions."""

    forms: tuple[tuple[tuple[int, ...], int, int, int], ...]  # (colored bits, generic, life, energy)
    productions: tuple[Rank, ...]
    block: int
    payers: frozenset[int]  # blocks whose mana may pay it
    doubles: bool = False  # a pool doubler: the pool is doubled instead of adding productions


@dataclass
class _Search:
    state: GameState
    player: str
    deadline: float
    life_binding: bool
    energy_binding: bool
    blocks: dict[Restriction | None, int] = field(default_factory=dict)
    states: int = 0

    def block(self, r: Restriction | None) -> int:
        if r not in self.blocks:
            self.blocks[r] = len(self.blocks)
        return self.blocks[r]

    def tick(self, n: int = 1) -> None:
        self.states += n
        if self.states > MAX_STATES or time.perf_counter() > self.deadline:
            raise _Budget


def _covers(small: tuple[int, ...], big: tuple[int, ...]) -> bool:
    """Whatever ``small`` can add, ``big`` can add at least as much (polymatroid containment)."""
    return _leq(_unit_rank(small), _unit_rank(big))


def _merge_slots(opts: list[tuple[int, ...]]) -> list[tuple[int, ...]]:
    """Merge one permanent's alternative productions when a product of slots says the same.

    All single mana: one slot of the union mask.  All ``k`` mana over the same
    union ``M`` and together every ``k``-multiset of ``M``'s types (Cascade Bluffs'
    ``{U}{U}, {U}{R}, or {R}{R}``): ``k`` slots of ``M``.  Otherwise unchanged.
    """
    # drop options another option covers
    kept: list[tuple[int, ...]] = []
    for i, o in enumerate(opts):
        if any(j != i and _covers(o, p) and (not _covers(p, o) or j < i) for j, p in enumerate(opts)):
            continue
        kept.append(o)
    if len(kept) <= 1:
        return kept
    lengths = {len(o) for o in kept}
    if len(lengths) != 1:
        return kept
    k = lengths.pop()
    union = 0
    for o in kept:
        for s in o:
            union |= s
    if k == 1:
        return [(union,)]
    bits = [b for b in _BITS if union & b]
    wanted = set(itertools.combinations_with_replacement(bits, k))
    got: set[tuple[int, ...]] = set()
    for o in kept:
        for pick in itertools.product(*[[b for b in _BITS if s & b] for s in o]):
            got.add(tuple(sorted(pick)))
    if got == {tuple(sorted(w)) for w in wanted}:
        return [(union,) * k]
    return kept


def _choices(search: _Search, opts: list[Option]) -> list[_Choice]:
    """One member's free exclusive choices, merged and without dominated ones."""
    groups: dict[tuple[int, int, int], list[tuple[int, ...]]] = {}
    for o in opts:
        life = o.life if search.life_binding else 0
        energy = o.energy if search.energy_binding else 0
        groups.setdefault((search.block(o.restriction), life, energy), []).append(o.slots)
    out: list[_Choice] = []
    for (blk, life, energy), slots in groups.items():
        for s in _merge_slots(slots):
            out.append(_Choice(_unit_rank(s), blk, life, energy))
    # a choice dominated by one that costs no more (same block) is never needed
    kept = []
    for i, c in enumerate(out):
        if any(j != i and d.block == c.block and d.life <= c.life and d.energy <= c.energy
               and _leq(c.rank, d.rank) and (d != c or j < i) for j, d in enumerate(out)):
            continue
        kept.append(c)
    return kept


def _compositions(n: int, k: int) -> Iterator[tuple[int, ...]]:
    """Every way to split ``n`` among ``k`` parts."""
    if k == 1:
        yield (n,)
        return
    for first in range(n, -1, -1):
        for rest in _compositions(n - first, k - 1):
            yield (first,) + rest


# a state: (avail per mana-costing class, life left, energy left, ranks per block)
_State = tuple[tuple[int, ...], int, int, tuple[Rank, ...]]


def _with(blocks: tuple[Rank, ...], blk: int, rank: Rank) -> tuple[Rank, ...]:
    """``blocks`` with ``rank`` added to block ``blk`` (every state has all blocks)."""
    return blocks[:blk] + (_add(blocks[blk], rank),) + blocks[blk + 1:]


def _flat(st: _State) -> tuple[int, ...]:
    """Life, energy and every block's ranks in one tuple: ``a`` dominates ``b`` (same
    activations left) exactly when ``_flat(b) ≤ _flat(a)`` pointwise."""
    out: tuple[int, ...] = (st[1], st[2])
    for r in st[3]:
        out += r
    return out


def _prune_grouped(search: _Search, states: list[_State]) -> list[_State]:
    """Drop duplicate and dominated states, comparing only states with the same activations
    left: one dominates another when it has at least as much life and energy left and
    its ranks are pointwise at least as large in every block (it can do all the other can)."""
    groups: dict[tuple[int, ...], list[_State]] = {}
    for st in dict.fromkeys(states):
        groups.setdefault(st[0], []).append(st)
    out: list[_State] = []
    for group in groups.values():
        search.tick(len(group))
        flats = sorted(((_flat(st), st) for st in group), key=lambda p: -sum(p[0]))
        kept: list[tuple[int, ...]] = []
        for i, (fl, st) in enumerate(flats):
            if i & 127 == 127 and time.perf_counter() > search.deadline:
                raise _Budget  # the test is quadratic in the group's size
            for k in kept:
                if all(map(le, fl, k)):
                    break
            else:
                kept.append(fl)
                out.append(st)
    return out


def _combine(search: _Search, states: list[_State], contribs: list[tuple[tuple[Rank, ...], int, int]],
             ) -> list[_State]:
    """Every state plus every contribution ``(ranks by block, life, energy)`` that it can pay."""
    out = []
    for avail, life, energy, blocks in states:
        for ranks, dl, de in contribs:
            if dl > life or de > energy:
                continue
            nb = blocks
            for blk, r in enumerate(ranks):
                if r[_E]:
                    nb = _with(nb, blk, r)
            out.append((avail, life - dl, energy - de, nb))
        search.tick(len(contribs))
    return _prune_grouped(search, out)


def _class_contribs(search: _Search, choices: list[_Choice], n: int
                    ) -> list[tuple[tuple[Rank, ...], int, int]]:
    """What ``n`` members choosing among ``choices`` (one each) can add together."""
    if not choices or n == 0:
        return [((), 0, 0)]
    free_skip = any(c.life == 0 and c.energy == 0 for c in choices)
    out = []
    k = len(choices)
    for m in ([n] if free_skip else range(n, -1, -1)):
        for comp in _compositions(m, k):
            ranks: list[Rank] = []
            life = energy = 0
            for cnt, c in zip(comp, choices):
                if not cnt:
                    continue
                while len(ranks) <= c.block:
                    ranks.append(_ZERO)
                ranks[c.block] = _add(ranks[c.block], tuple(cnt * a for a in c.rank))
                life += cnt * c.life
                energy += cnt * c.energy
            out.append((tuple(ranks), life, energy))
            search.tick()
    return out


def _forms(search: _Search, cost: ManaCost, life: int, energy: int, name: str, where: str
           ) -> tuple[tuple[tuple[int, ...], int, int, int], ...]:
    """Every way to pay one activation's mana cost: (colored bits, generic, life, energy)."""
    per_symbol = []
    for sym in cost.symbols:
        ways = sym.ways_to_pay()
        if sym.variable or any(w.kind == "snow" for w in ways):
            raise Unsupported(f"{name}: a mana ability whose cost has {sym.text} is not modelled "
                              f"by the options query", where)
        # the colored halves of a hybrid symbol are one way: one mana of the mask (_remove_mask)
        mask = 0
        for w in ways:
            if w.kind == "mana":
                mask |= w.mask
        merged = [(w.kind, w.amount) for w in ways if w.kind != "mana"]
        per_symbol.append(([("mana", mask)] if mask else []) + merged)
    forms = set()
    for combo in itertools.product(*per_symbol):
        colored: list[int] = []
        generic = 0
        paid_life = life
        paid_energy = energy
        for kind, n in combo:
            if kind == "mana":
                colored.append(n)
            elif kind == "generic":
                generic += n
            elif kind == "life":
                paid_life += n
            elif kind == "energy":
                paid_energy += 1
        if not search.life_binding:
            paid_life = 0
        if not search.energy_binding:
            paid_energy = 0
        forms.add((tuple(sorted(colored)), generic, paid_life, paid_energy))
    return tuple(sorted(forms))


def _payers(search: _Search, perm: Permanent) -> frozenset[int]:
    """The blocks whose mana may pay an activated ability of ``perm`` (CR 106.6)."""
    from manasolver.solver.request import SpellInfo
    source = SpellInfo(types=frozenset(perm.types), subtypes=frozenset(perm.card.type_line.subtypes),
                       colors=perm.card.colors, card=perm.card, ability=True)
    payers = {0}
    for r, blk in list(search.blocks.items()):
        if r is not None and (r.any_ability or restriction_allows(r, source, False)):
            payers.add(blk)
    return frozenset(payers)


def _costly(search: _Search, cls: SourceClass, o: Option) -> _Costly:
    """The payment forms and productions of one mana-costing activation."""
    forms = _forms(search, o.mana_cost, o.life, o.energy, cls.name, f"battlefield.{cls.members[0]}")
    prods = tuple(dict.fromkeys(_unit_rank(s) for s in _merge_slots([o.slots])))
    perm = search.state.permanent(cls.members[0])
    return _Costly(forms, prods, search.block(o.restriction), _payers(search, perm))


def _doubler_costly(search: _Search, d: Doubler) -> list[_Costly]:
    """A pool doubler's activations: forms and payers, no productions (``doubles``)."""
    perm = search.state.battlefield[d.position]
    where = f"battlefield[{d.position}]"
    return [_Costly(_forms(search, ab.cost.mana, ab.cost.life, ab.cost.energy, d.name, where), (), 0,
                    _payers(search, perm), doubles=True)
            for ab in d.usable]


def _double(search: _Search, blocks: tuple[Rank, ...]) -> list[tuple[Rank, ...]]:
    """The states after doubling the pool (CR 106.6 example, RULES T117).

    The types of the mana must be fixed before it is doubled, so each block's
    polymatroid gives way to its maximal points (bases): everything after is
    monotone in the pool, so a smaller pool of the same block never does better.
    Each combination of bases becomes a point state: each restricted block keeps its
    mana, and block 0 (unrestricted) gets its own mana twice plus one copy of every
    restricted block's (the copies carry no restriction).
    """
    per_block: list[list[tuple[int, ...]]] = []
    for r in blocks:
        if not r[_E]:
            per_block.append([(0,) * 6])
            continue
        bases = []
        for v in _bases(r):
            bases.append(v)
            search.tick()
        per_block.append(bases)
    out = []
    for combo in itertools.product(*per_block):
        total = [2 * c for c in combo[0]]
        for v in combo[1:]:
            total = [a + b for a, b in zip(total, v)]
        out.append((tuple(_sums(tuple(total))),) + tuple(tuple(_sums(v)) for v in combo[1:]))
        search.tick()
    return out


def _pay(blocks: tuple[Rank, ...], form: tuple[tuple[int, ...], int, int, int],
         payers: frozenset[int]) -> list[tuple[Rank, ...]]:
    """Every way of paying one form from the blocks allowed to pay (each a new block tuple)."""
    colored, generic, _, _ = form
    results: list[tuple[Rank, ...]] = [blocks]
    usable = sorted(b for b in payers if b < len(blocks))
    for bit in colored:
        nxt = []
        for bl in results:
            for b in usable:
                r = _remove_mask(bl[b], bit)
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
            r = _truncate(bl[b], generic)
            if r is not None:
                out.append(bl[:b] + (r,) + bl[b + 1:])
            continue
        for split in _compositions(generic, len(usable)):
            nb = bl
            for b, g in zip(usable, split):
                if g:
                    r = _truncate(nb[b], g)
                    if r is None:
                        break
                    nb = nb[:b] + (r,) + nb[b + 1:]
            else:
                out.append(nb)
    return list(dict.fromkeys(out))


# -- the query -------------------------------------------------------------------------------


def options(state: GameState, player: str | None = None, limit: int = 100, detail: bool = False,
            budget: float = DEFAULT_BUDGET) -> OptionsAnswer:
    """Every maximal pool ``player`` can have at once by activating mana abilities now.

    ``limit`` caps the list (``complete`` is false when more exist); ``detail``
    lists the restricted part of each pool (CR 106.6); ``budget`` bounds the time
    in seconds, after which the answer is what was found, with ``complete: false``.
    """
    deadline = time.perf_counter() + budget
    supply = build_supply(state, player)
    pl = state.player(supply.player)
    # pool doublers (Doubling Cube) are left out of the supply and applied here
    doublers = find_doublers(state, supply.player)
    applied = [d for d in doublers if d.only and d.ready and not d.unmodelled]
    handled = {d.permanent for d in doublers if d.only}
    unsupported = tuple((e.permanent, f"{e.name}: {e.reason} ({e.clause})") for e in supply.excluded
                        if e.permanent not in handled)
    unsupported += tuple((d.permanent, f"{d.name}: {d.unmodelled}") for d in doublers
                         if d.only and d.ready and d.unmodelled)
    unsupported += _unmodelled_effects(state, supply.player,
                                       {p for p, _ in unsupported} | {d.permanent for d in doublers})
    unsupported += _hand_sources(pl)

    # Life and energy only constrain when the most that could ever be paid exceeds what is there.
    life_demand = energy_demand = 0
    for cls in supply.classes:
        excl = [o for o in cls.options if o.exclusive]
        reps = [o for o in cls.options if not o.exclusive]
        phy = [2 * sum(1 for s in o.mana_cost.symbols if s.phyrexian) for o in excl]
        life_demand += cls.count * max([o.life + p for o, p in zip(excl, phy)] or [0])
        energy_demand += cls.count * max([o.energy + o.mana_cost.energy for o in excl] or [0])
        life_demand += sum(cls.count * o.repeat * o.life for o in reps)
        energy_demand += sum(cls.count * o.repeat * o.energy for o in reps)
    search = _Search(state, supply.player, deadline,
                     life_binding=life_demand > max(pl.life, 0),
                     energy_binding=energy_demand > pl.energy)
    search.block(None)

    pool_rank = _ZERO
    for bit, n in supply.pool:
        pool_rank = _add(pool_rank, _unit_rank((bit,), n))
    # blocks of every restriction first, so payers are known when costly options are read
    for cls in supply.classes:
        for o in cls.options:
            search.block(o.restriction)

    mixed: list[tuple[SourceClass | None, list[_Costly], int]] = []
    # Phantom {C}: a permanent whose only free choice is {C} (filter lands, Cascading
    # Cataracts) starts with its {C} in the pool, and its mana-costing ability also pays
    # one {C} back.  Exact while no mana-costing ability produces {C}: {C} is then never
    # produced later, so a plan that spent the phantom early can always have spent another
    # {C} (see the module docstring); it saves branching on which permanents wait.
    unit_c = _unit_rank((_BITS[5],))
    # (and while no doubler can double a phantom that is not there yet)
    phantom_ok = not applied and not any(o.union & _BITS[5] for cls in supply.classes
                                         for o in cls.options if o.exclusive and not o.free)
    bounded = False
    finals: list[_State] = []
    try:
        start: tuple[Rank, ...] = (pool_rank,) + (_ZERO,) * (len(search.blocks) - 1)
        states: list[_State] = [((), pl.life, pl.energy, start)]
        for cls in supply.classes:
            free = [o for o in cls.options if o.exclusive and o.free]
            costly = [o for o in cls.options if o.exclusive and not o.free]
            reps = [o for o in cls.options if not o.exclusive]
            # repeatable activations (no {T}, {Q} or sacrifice): each member may repeat them
            by_ability: dict[int, list[Option]] = {}
            for o in reps:
                by_ability.setdefault(o.ability, []).append(o)
            for group in by_ability.values():
                times = min(o.repeat for o in group) * cls.count
                states = _combine(search, states, _class_contribs(search, _choices(search, group),
                                                                  times))
            choices = _choices(search, free)
            if not costly:
                states = _combine(search, states, _class_contribs(search, choices, cls.count))
                continue
            costlies = [_costly(search, cls, o) for o in costly]
            if phantom_ok and len(choices) == 1 and choices[0] == _Choice(unit_c, 0):
                mixed.append((cls, costlies, _BITS[5]))
                part = _combine(search, states, _class_contribs(search, choices, cls.count))
                states = [((*a, cls.count), li, en, bl) for a, li, en, bl in part]
                continue
            # a class with mana-costing options: m members use a free option, the rest wait
            mixed.append((cls, costlies, 0))
            out: list[_State] = []
            for m in (range(cls.count, -1, -1) if choices else (0,)):
                part = _combine(search, states, _class_contribs(search, choices, m))
                out.extend(((*a, cls.count - m), li, en, bl) for a, li, en, bl in part)
            states = _prune_grouped(search, out)
        # pool doublers wait for phase B (identical ones in one entry)
        kinds: dict[tuple[str, tuple[str, ...]], list[Doubler]] = {}
        for d in applied:
            kinds.setdefault((d.name, tuple(a.text for a in d.abilities)), []).append(d)
        for same in kinds.values():
            mixed.append((None, _doubler_costly(search, same[0]), 0))
            states = [((*a, len(same)), li, en, bl) for a, li, en, bl in states]
        # phase B: the activations that cost mana, in every order, level by level (a level
        # is the number done so far); a state another one of its level dominates is dropped
        level = _prune_grouped(search, states)
        while level:
            finals.extend(level)
            nxt: list[_State] = []
            for avail, life, energy, blocks in level:
                search.tick()
                for i, (_cls, costlies, giveback) in enumerate(mixed):
                    if not avail[i]:
                        continue
                    nav = avail[:i] + (avail[i] - 1,) + avail[i + 1:]
                    before = blocks
                    if giveback:
                        back = _remove(blocks[0], giveback)
                        if back is None:
                            continue
                        before = (back,) + blocks[1:]
                    for c in costlies:
                        for form in c.forms:
                            if form[2] > life or form[3] > energy:
                                continue
                            for paid in _pay(before, form, c.payers):
                                if c.doubles:
                                    nxt.extend((nav, life - form[2], energy - form[3], dbl)
                                               for dbl in _double(search, paid))
                                for prod in c.productions:
                                    nxt.append((nav, life - form[2], energy - form[3],
                                                _with(paid, c.block, prod)))
            level = _prune_grouped(search, nxt)
    except _Budget:
        bounded = True
        if not finals:
            finals = [((), pl.life, pl.energy, (pool_rank,) + (_ZERO,) * (len(search.blocks) - 1))]

    nblocks = max(len(s[3]) for s in finals)
    answer = _enumerate(search, finals, nblocks, limit, detail)
    opts, more, hit = answer
    bounded = bounded or hit
    return OptionsAnswer(tuple(opts), complete=not (more or bounded or unsupported), detail=detail,
                         bounded=bounded, unsupported=unsupported, states=search.states)


def _hand_sources(player: Player) -> tuple[tuple[str, str], ...]:
    """Cards in the hand with mana abilities (Spirit Guides): the payment queries spend them,
    this enumeration does not yet, so the answer says it is incomplete (named ``hand[i]``)."""
    from manasolver.models.text.hand import hand_abilities
    return tuple((f"hand[{i}]", f"{card.name}: mana abilities activated from the hand are modelled only by "
                                f"the payment queries") for i, card in enumerate(player.hand) if hand_abilities(card))


def _unmodelled_effects(state: GameState, player: str, known: set[str]
                        ) -> tuple[tuple[str, str], ...]:
    """Permanents whose effects on mana the engine does not apply, wherever they are.

    Clauses of any player's cards that neither the parser nor the supply's mana
    effects read (the supply applies Mana Reflection, Wild Growth, Mana Flare,
    Contamination, Blood Moon: CR 106.12, 605.1b, 614) are reported, and so is a card of
    the player's that speaks of doubling unspent mana but was not read as a pool doubler
    (the ones read are applied, or reported, by :func:`options`).
    """
    # the clauses the supply applies (Mana Flare, Contamination, Blood Moon, ...) are read
    from manasolver.models.text.mana_effects import remaining_unsupported
    out = []
    for perm in state.battlefield:
        if perm.id in known:
            continue
        card = perm.card
        if "double the amount of each type of unspent mana" in card.oracle_text.lower() \
                and perm.controller == player:
            reason = f"{card.name}: effects on mana already in the pool (pool doublers) are not modelled"
            out.append((perm.id, reason))
        elif card.unsupported and perm.controller != player:
            unread = remaining_unsupported(card)
            if unread:
                out.append((perm.id, f"{card.name}: {unread[0]} (not applied)"))
    return tuple(out)


def _split(s: _State, nblocks: int) -> tuple[Rank, Rank]:
    """(unrestricted ranks, ranks of all restricted mana) of a state."""
    blocks = s[3] + (_ZERO,) * (nblocks - len(s[3]))
    rest = _ZERO
    for r in blocks[1:]:
        rest = _add(rest, r)
    return blocks[0], rest


def _maximal_ranks(ranks: list[Rank], deadline: float = float("inf")) -> tuple[list[Rank], bool]:
    """The ranks no other one contains (fewer streams to merge), largest first.

    When all have the same total, a contained state's bases are bases of the one
    containing it, and the merge in :func:`_enumerate` drops repeated pools: the
    quadratic test is then skipped (filter-land boards end with thousands of states,
    every one of the same total, and the test cost more than the bases).  Past
    ``deadline`` the rest is dropped and the second value says so: the ones kept
    are the largest, so their bases that no kept state contains are still maximal.
    """
    uniq = sorted(set(ranks), key=lambda f: (-f[_E], -sum(f)))
    if len(uniq) > 64 and uniq[0][_E] == uniq[-1][_E]:
        return uniq, False
    kept: list[Rank] = []
    for i, f in enumerate(uniq):
        if i & 127 == 127 and time.perf_counter() > deadline:
            return kept, True
        for g in kept:
            if all(map(le, f, g)):
                break
        else:
            kept.append(f)
    return kept, False


def _enumerate(search: _Search, finals: list[_State], nblocks: int, limit: int, detail: bool
               ) -> tuple[list[ManaOption], bool, bool]:
    """The maximal pools of the union of the final states: (options, more exist, bound hit)."""
    pairs = [_split(s, nblocks) for s in finals]
    if detail and any(r[_E] for _, r in pairs):
        return _enumerate_detail(search, pairs, limit)
    polys, cut = _maximal_ranks([_add(u, r) for u, r in pairs], search.deadline + 0.05)
    if len(polys) > 64 and polys[0][_E] == polys[-1][_E]:
        return _enumerate_flat(search, polys, limit)

    def stream(i: int) -> Iterator[tuple[int, tuple[int, ...], int]]:
        size = polys[i][_E]
        above = tuple(g for g in polys if g[_E] > size)
        for v in _bases(polys[i], above):
            yield size, v, i

    found: list[ManaOption] = []
    last: tuple[int, ...] | None = None
    hit = False
    count = 0
    for size, v, i in heapq.merge(*(stream(i) for i in range(len(polys))), reverse=True):
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
    return found, False, hit or cut


def _stop(search: _Search, listed: int, limit: int) -> bool:
    """Past the time bound, the listing stops once a first page (``limit``, at most 1,024)
    is listed, or 50 ms later at most: a bounded answer still lists what it can."""
    now = time.perf_counter()
    return now > search.deadline and (listed >= min(limit, 1024) or now > search.deadline + 0.05)


def _enumerate_flat(search: _Search, polys: list[Rank], limit: int
                    ) -> tuple[list[ManaOption], bool, bool]:
    """:func:`_enumerate` for many states of one total (filter lands): no pool of one can
    contain a different pool of another, so the answer is the union of their bases, in
    the answer's order; a set is cheaper than merging thousands of sorted streams."""
    seen: set[tuple[int, ...]] = set()
    for f in polys:
        seen.update(_bases(f))
        if _stop(search, len(seen), limit):
            return [ManaOption(v) for v in sorted(seen, reverse=True)[:limit]], True, True
    ordered = sorted(seen, reverse=True)
    return [ManaOption(v) for v in ordered[:limit]], len(ordered) > limit, False


def _enumerate_detail(search: _Search, pairs: list[tuple[Rank, Rank]], limit: int
                      ) -> tuple[list[ManaOption], bool, bool]:
    """Maximal (pool, restricted part) pairs: unrestricted mana is worth more than restricted.

    ``(u1, r1)`` is below ``(u2, r2)`` when ``u1 ≤ u2`` and ``u1 + r1 ≤ u2 + r2`` (the
    restricted units of the first fit in what the second has beyond ``u1``).
    """
    uniq = list(dict.fromkeys(pairs))
    cands: list[tuple[tuple[int, ...], tuple[int, ...], int]] = []
    hit = False
    for i, (fu, fr) in enumerate(uniq):
        rs = list(_bases(fr))
        for u in _bases(fu):
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
        if fu[_E] == sum(u) and fu[_E] + fr[_E] == sum(u) + sum(r):
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
                raise _Budget
            if _contains(fu, tuple(x + y for x, y in zip(u, a))) and \
                    _contains(fr, tuple(x - y for x, y in zip(r, a))):
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
        except _Budget:
            return found, True, True
        if len(found) == limit:
            more = True
            break
        found.append(ManaOption(tuple(x + y for x, y in zip(u, r)), r))
    return found, more, hit
