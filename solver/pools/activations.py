"""A supply's activations read as ranks: what each source class can add, and at what cost.

Sources come grouped by :func:`manasolver.solver.supply.build.build_supply`
(identical permanents in one class with a count).  One permanent's alternative
productions merge into slots when a product of slots says the same
(:func:`merge_slots`): an Adarkar Wastes is one unit of ``{W,U,C}``, a Cascade
Bluffs' ``{U}{U}, {U}{R} or {R}{R}`` two units of ``{U,R}``; a pain land's damage
does not limit pools.  So a class contributes ``count`` copies of the same choices
at once, and a choice another one covers at no greater cost is dropped.

An activation that costs mana (filter lands, Signets, Doubling Cube) becomes a
:class:`Costly`: every way to pay its mana cost as a *form* (colored masks, generic,
life, energy; a hybrid symbol's colored halves are one mask, paid by
:func:`~manasolver.solver.pools.ranks.remove_mask`), its productions as ranks, and
the restriction blocks whose mana may pay it (CR 106.6).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from dataclasses import dataclass

from manasolver.models.cost import ManaCost
from manasolver.models.errors import Unsupported
from manasolver.models.state import Permanent
from manasolver.models.symbols import TYPE_BITS
from manasolver.solver.pools.context import Search
from manasolver.solver.pools.doublers import Doubler
from manasolver.solver.pools.ranks import ZERO, Rank, leq, rank_sum, unit_rank
from manasolver.solver.request import SpellInfo
from manasolver.solver.request import restriction_allows
from manasolver.solver.supply.model import Option, SourceClass

__all__ = ["Choice", "Contribution", "Costly", "Form", "choices", "class_contribs", "compositions",
           "costly", "doubler_costly", "merge_slots", "payment_forms"]

#: One way to pay a mana cost: (colored masks, generic, life, energy).
Form = tuple[tuple[int, ...], int, int, int]
#: What some members add together: (ranks by block, life paid, energy paid).
Contribution = tuple[tuple[Rank, ...], int, int]


@dataclass(frozen=True, slots=True)
class Choice:
    """One thing one permanent (or one repeatable activation) can add: a rank, its costs."""

    rank: Rank
    block: int
    life: int = 0
    energy: int = 0


@dataclass(frozen=True, slots=True)
class Costly:
    """An activation that costs mana: payment forms, costs, and its possible productions."""

    forms: tuple[Form, ...]
    productions: tuple[Rank, ...]
    block: int
    payers: frozenset[int]  # blocks whose mana may pay it
    doubles: bool = False  # a pool doubler: the pool is doubled instead of adding productions
    #: blocks whose mana may pay its colored symbols only (Jegantha's: no generic mana cost)
    colored_payers: frozenset[int] = frozenset()


def _covers(small: tuple[int, ...], big: tuple[int, ...]) -> bool:
    """Whatever ``small`` can add, ``big`` can add at least as much (polymatroid containment)."""
    return leq(unit_rank(small), unit_rank(big))


def merge_slots(opts: list[tuple[int, ...]]) -> list[tuple[int, ...]]:
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
    bits = [b for b in TYPE_BITS if union & b]
    wanted = set(itertools.combinations_with_replacement(bits, k))
    got: set[tuple[int, ...]] = set()
    for o in kept:
        for pick in itertools.product(*[[b for b in TYPE_BITS if s & b] for s in o]):
            got.add(tuple(sorted(pick)))
    if got == {tuple(sorted(w)) for w in wanted}:
        return [(union,) * k]
    return kept


def choices(search: Search, opts: list[Option]) -> list[Choice]:
    """One member's free exclusive choices, merged and without dominated ones."""
    groups: dict[tuple[int, int, int], list[tuple[int, ...]]] = {}
    for o in opts:
        life = o.life if search.life_binding else 0
        energy = o.energy if search.energy_binding else 0
        groups.setdefault((search.block(o.restriction), life, energy), []).append(o.slots)
    out: list[Choice] = []
    for (blk, life, energy), slots in groups.items():
        for s in merge_slots(slots):
            out.append(Choice(unit_rank(s), blk, life, energy))
    # a choice dominated by one that costs no more (same block) is never needed
    kept = []
    for i, c in enumerate(out):
        if any(j != i and d.block == c.block and d.life <= c.life and d.energy <= c.energy
               and leq(c.rank, d.rank) and (d != c or j < i) for j, d in enumerate(out)):
            continue
        kept.append(c)
    return kept


def compositions(n: int, k: int) -> Iterator[tuple[int, ...]]:
    """Every way to split ``n`` among ``k`` parts."""
    if k == 1:
        yield (n,)
        return
    for first in range(n, -1, -1):
        for rest in compositions(n - first, k - 1):
            yield (first,) + rest


def class_contribs(search: Search, options: list[Choice], n: int) -> list[Contribution]:
    """What ``n`` members choosing among ``options`` (one each) can add together."""
    if not options or n == 0:
        return [((), 0, 0)]
    free_skip = any(c.life == 0 and c.energy == 0 for c in options)
    out = []
    k = len(options)
    for m in ([n] if free_skip else range(n, -1, -1)):
        for comp in compositions(m, k):
            ranks: list[Rank] = []
            life = energy = 0
            for cnt, c in zip(comp, options):
                if not cnt:
                    continue
                while len(ranks) <= c.block:
                    ranks.append(ZERO)
                ranks[c.block] = rank_sum(ranks[c.block], tuple(cnt * a for a in c.rank))
                life += cnt * c.life
                energy += cnt * c.energy
            out.append((tuple(ranks), life, energy))
            search.tick()
    return out


def payment_forms(search: Search, cost: ManaCost, life: int, energy: int, name: str, where: str
           ) -> tuple[Form, ...]:
    """Every way to pay one activation's mana cost: (colored bits, generic, life, energy)."""
    per_symbol = []
    for sym in cost.symbols:
        ways = sym.ways_to_pay()
        if sym.variable or any(w.kind == "snow" for w in ways):
            raise Unsupported(f"{name}: a mana ability whose cost has {sym.text} is not modelled "
                              f"by the options query", where)
        # the colored halves of a hybrid symbol are one way: one mana of the mask (remove_mask)
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


def _payers(search: Search, perm: Permanent) -> tuple[frozenset[int], frozenset[int]]:
    """The blocks whose mana may pay an activated ability of ``perm`` (CR 106.6), and those whose
    mana may pay only its colored symbols (mana that can't be spent to pay generic mana costs)."""
    source = SpellInfo(types=frozenset(perm.types), subtypes=frozenset(perm.card.type_line.subtypes),
                       colors=perm.card.colors, card=perm.card, ability=True)
    payers = {0}
    colored: set[int] = set()
    for r, blk in list(search.blocks.items()):
        if r is not None and r.no_generic:
            colored.add(blk)
        elif r is not None and (r.any_ability or restriction_allows(r, source, False)):
            payers.add(blk)
    return frozenset(payers), frozenset(colored)


def costly(search: Search, cls: SourceClass, o: Option) -> Costly:
    """The payment forms and productions of one mana-costing activation."""
    forms = payment_forms(search, o.mana_cost, o.life, o.energy, cls.name, f"battlefield.{cls.members[0]}")
    prods = tuple(dict.fromkeys(unit_rank(s) for s in merge_slots([o.slots])))
    perm = search.state.permanent(cls.members[0])
    payers, colored = _payers(search, perm)
    return Costly(forms, prods, search.block(o.restriction), payers, colored_payers=colored)


def doubler_costly(search: Search, d: Doubler) -> list[Costly]:
    """A pool doubler's activations: forms and payers, no productions (``doubles``)."""
    perm = search.state.battlefield[d.position]
    where = f"battlefield[{d.position}]"
    payers, colored = _payers(search, perm)
    return [Costly(payment_forms(search, ab.cost.mana, ab.cost.life, ab.cost.energy, d.name, where), (), 0,
                   payers, doubles=True, colored_payers=colored)
            for ab in d.usable]
