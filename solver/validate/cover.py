"""Does the mana of a payment cover, exactly, what it must pay? (CR 601.2g-h, 106.6, 107.4h)

Supply and demand are counted classes.  A :class:`Unit` is a class of supply: mana made by
activations, pool mana used, or a convoked creature, an improvised artifact, a delved card;
a :class:`Demand` a class of what must be paid: a type of mana, ``{S}``, generic mana, an
activation's own mana cost, or the mana claimed to float.  :func:`check_mana` asks whether
some assignment of the supply to the demand fills every demand with nothing left over
(:func:`manasolver.solver.validate.matching.unplaced` over the compatible pairs), where
``{C}`` takes only colorless (unless a 609.4b rule says otherwise: :class:`Demand`'s ``wide``),
``{S}`` only mana from a snow source, restricted mana only
what its restriction allows (106.6), convoke and improvise only what they may pay, and an
activation's mana cost only mana made *before* it.  That last condition depends on the order
of the mana-costing activations (filter lands): some order must work (601.2g), so a greedy
order is tried first and then the permutations, up to :data:`MAX_ORDERS`.  When a snow
permanent's mana may be split several ways between its own (snow) and triggered (nonsnow)
mana, each split is tried.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Iterator
from collections.abc import Set as AbstractSet
from dataclasses import dataclass
from typing import Literal

from manasolver.models.abilities import Restriction
from manasolver.models.cost import ManaCost
from manasolver.models.effects import SpendTable
from manasolver.models.rules.ability_scope import permanent_words
from manasolver.models.state import Permanent
from manasolver.models.symbols import ANY_COLOR, ANY_TYPE, TYPE_BITS, C, mask_letters
from manasolver.solver.payment import Payment
from manasolver.solver.request import SpellInfo
from manasolver.solver.validate.matching import unplaced
from manasolver.solver.validate.totals import Total

__all__ = ["MAX_ORDERS", "Demand", "DemandKind", "Unit", "UnitKind", "check_mana", "cost_letters"]

#: Orders of mana-costing activations tried before giving up on proving one exists.
MAX_ORDERS = 5040

#: Where a unit of supply comes from.
UnitKind = Literal["pool", "made", "convoke", "delve", "improvise"]
#: What a unit of demand takes: a type in ``mask``, snow mana, any mana, or floating mana.
DemandKind = Literal["type", "snow", "generic", "float"]


@dataclass(frozen=True)
class Unit:
    """A class of supply: ``kind``, type mask, snow, restriction, and the activation that
    made it (-1: none)."""

    kind: UnitKind
    mask: int
    snow: bool = False
    restriction: Restriction | None = None
    maker: int = -1
    source: int = -1  # an activation that named sacrificed permanents (for the order check)


@dataclass(frozen=True)
class Demand:
    """A class of demand: ``kind``; ``mask`` the types it takes; ``payer``: the activation
    whose cost it is (-1: the spell's total); ``wide``: the types of mana that may pay it
    under the 609.4b rules reaching it, when they are not ``mask`` (0: ``mask``; Celestial Dawn
    makes ``{R}``'s ``W``).  Convoke is not mana (702.51a): it pays by ``mask``."""

    kind: DemandKind
    mask: int = ANY_TYPE
    payer: int = -1
    wide: int = 0

    @property
    def paid_by(self) -> int:
        """The types of mana that may pay it."""
        return self.wide or self.mask


def _pays_abilities(r: Restriction, words: AbstractSet[str]) -> bool:
    """May restricted mana pay a mana ability's cost of a source with these card types and
    subtypes (lower case)?  Mana for the abilities of what it names pays those of sources that are
    one of them (Primal Beyond's Elementals); mana "only on costs that contain {X}" pays no mana
    ability's cost (none read has {X})."""
    if r.any_of:
        return any(_pays_abilities(a, words) for a in r.any_of)
    if r.any_ability:
        return True
    if not r.abilities or r.x_only or r.c_only or (r.colorless and not (r.spell_types or r.subtypes)
                                                   and "colorless" not in words):
        return False
    named = r.spell_types | r.subtypes
    return not named or bool(named & words)


def cost_letters(cost: ManaCost) -> frozenset[str]:
    """Which of ``X`` and ``C`` the cost paid contains (mana only for costs that contain ``{X}``:
    Rosheen Meanderer; ``{C}``: Cultivator Drone)."""
    return frozenset(("X",) if cost.variables else ()) | frozenset(("C",) if cost.has_colorless else ())


def _allows_spell(r: Restriction | None, spell: SpellInfo | None, cost_has: frozenset[str]) -> bool:
    """Restricted mana (106.6) against the spell or ability being paid for, whose cost contains
    the letters ``cost_has`` (:func:`cost_letters`)."""
    if r is None or r.no_generic:  # which symbols it pays: :func:`_compatible`
        return True
    if r.any_of:
        return any(_allows_spell(a, spell, cost_has) for a in r.any_of)
    if r.c_only:
        return "C" in cost_has
    if spell is None or (r.x_only and "X" not in cost_has):
        return False
    if spell.ability:  # an activated ability asked about, whose cost may hold {X}
        if r.colorless and spell.colors & ANY_COLOR:
            return False
        named = r.spell_types | r.subtypes
        return r.any_ability or (r.abilities and (not named or bool(named & (spell.types | spell.subtypes))))
    if not r.spells:
        return False
    if r.spell_types and not r.spell_types & spell.types:
        return False
    if r.not_types & spell.types:
        return False
    if r.subtypes and not r.subtypes & spell.subtypes:
        return False
    if r.multicolored and (spell.colors & ANY_COLOR).bit_count() < 2:
        return False
    return not (r.colorless and spell.colors & ANY_COLOR)


def _allows_ability(r: Restriction | None, source: Permanent) -> bool:
    """May restricted mana pay a mana ability's cost of ``source``?"""
    if r is None:
        return True
    return _pays_abilities(r, permanent_words(source))


def _compatible(u: Unit, d: Demand, rank: dict[int, int], spell_ok: dict[Unit, bool],
                sources: dict[int, Permanent]) -> bool:
    if d.kind == "float":
        return u.kind == "made" and u.mask == d.mask
    if u.kind in ("delve", "improvise"):
        return d.payer < 0 and d.kind == "generic"
    if u.kind == "convoke":
        return d.payer < 0 and (d.kind == "generic" or (d.kind == "type" and bool(u.mask & d.mask)
                                                         and d.mask != C))
    if d.payer >= 0:
        if u.kind == "made" and not rank.get(u.maker, -1) < rank[d.payer]:
            return False
        if not _allows_ability(u.restriction, sources[d.payer]):
            return False
    elif not spell_ok[u]:
        return False
    if d.kind in ("generic", "snow") and u.restriction is not None and u.restriction.no_generic:
        return False  # "can't be spent to pay generic mana costs": {S} is generic too (CR 107.4h)
    if d.kind == "snow":
        return u.snow
    if d.kind == "type":
        return bool(u.mask & d.paid_by)
    return True


def _covers(units: Counter[Unit], demands: Counter[Demand], rank: dict[int, int],
            spell_ok: dict[Unit, bool], sources: dict[int, Permanent]) -> bool:
    """Does the supply fill every demand exactly, with the activations in the order ``rank``?
    (Supply and demand are of the same size: :func:`_check_cover` checks that first.)"""
    wants = list(demands)
    edges = [[j for j, d in enumerate(wants) if _compatible(u, d, rank, spell_ok, sources)] for u in units]
    return not any(unplaced(list(units.values()), [demands[d] for d in wants], edges))


def _greedy_order(units: Counter[Unit], demands: Counter[Demand], costly: list[int]) -> list[int] | None:
    """A likely order of the activations that cost mana (filter-land chains): repeatedly the
    first one whose cost the mana made so far can pay, narrowest demands first.  Only a
    candidate: :func:`_covers` decides; the permutations remain the fallback."""
    available: Counter[int] = Counter()
    for u, n in units.items():
        if u.maker < 0:
            available[u.mask] += n
    left = list(costly)
    order: list[int] = []
    while left:
        for i in left:
            need = sorted(((d.paid_by, n) for d, n in demands.items() if d.payer == i),
                          key=lambda mn: bin(mn[0]).count("1"))
            trial = Counter(available)
            ok = True
            for mask, n in need:
                for have in sorted(trial, key=lambda m: bin(m).count("1")):
                    if not n:
                        break
                    if have & mask:
                        take = min(n, trial[have])
                        trial[have] -= take
                        n -= take
                if n:
                    ok = False
                    break
            if ok:
                available = +trial
                for u, k in units.items():
                    if u.maker == i:
                        available[u.mask] += k
                order.append(i)
                left.remove(i)
                break
        else:
            return None
    return order


def _distinct_orders(costly: list[int], pay: Payment) -> Iterator[list[int]]:
    """The orders of the activations ``costly``, each once up to swapping activations that are
    alike (same permanent, mana and sacrifices: repeated activations of one ability), so that
    ten activations of Signpost Scarecrow are one order, not ten factorial."""
    groups: dict[tuple[object, ...], list[int]] = {}
    for i in costly:
        a = pay.activations[i]
        groups.setdefault((a.permanent, a.ability, a.mana, a.sacrificed, a.tapped), []).append(i)
    keys = list(groups)
    left = [len(groups[key]) for key in keys]
    taken = [0] * len(keys)
    order: list[int] = []

    def rec() -> Iterator[list[int]]:
        if len(order) == len(costly):
            yield list(order)
            return
        for g, key in enumerate(keys):
            if left[g]:
                left[g] -= 1
                order.append(groups[key][taken[g]])
                taken[g] += 1
                yield from rec()
                taken[g] -= 1
                order.pop()
                left[g] += 1

    return rec()


def _check_cover(units: Counter[Unit], demands: Counter[Demand], costly: list[int], pay: Payment,
                 spell: SpellInfo | None, cost_has: frozenset[str], sources: dict[int, Permanent],
                 problems: list[str], after: dict[int, set[int]] | None = None) -> None:
    """The supply against the demand for some order of the mana-costing activations that
    respects ``after`` (activation -> the activations it must follow)."""
    supply = sum(units.values())
    need = sum(demands.values())
    if supply != need:
        made = sum(n for u, n in units.items() if u.kind in ("made", "pool"))
        problems.append(f"mana: {made} mana is available (produced and pool used) and {supply - made} "
                        f"paid otherwise, but the total, the activations' mana costs and the floating "
                        f"mana account for {need}")
        return
    spell_ok = {u: _allows_spell(u.restriction, spell, cost_has) for u in units}
    after = after or {}

    def follows(rank: dict[int, int]) -> bool:
        return all(rank[j] < rank[i] for i, js in after.items() for j in js)

    greedy = _greedy_order(units, demands, costly)
    if greedy is not None:
        rank0 = {i: k for k, i in enumerate(greedy)}
        if follows(rank0) and _covers(units, demands, rank0, spell_ok, sources):
            return
    for count, order in enumerate(_distinct_orders(costly, pay)):
        if count >= MAX_ORDERS:
            problems.append(f"mana: could not find an order for {len(costly)} activations with mana costs "
                            f"within {MAX_ORDERS} tries")
            return
        rank = {i: k for k, i in enumerate(order)}
        if follows(rank) and _covers(units, demands, rank, spell_ok, sources):
            return
    refused = _refused_symbol(units, demands, spell_ok)
    if refused is not None:
        problems.append(refused)
    elif any(not ok for ok in spell_ok.values()):
        problems.append("mana: the mana cannot pay the total exactly: restricted mana "
                        "(CR 106.6) cannot pay for this spell")
    else:
        problems.append("mana: the mana produced and used cannot pay the total, the activations' mana "
                        "costs and the floating mana exactly ({C} takes only colorless, {S} only snow "
                        "mana, an activation's cost only mana made before it)")


def _refused_symbol(units: Counter[Unit], demands: Counter[Demand], spell_ok: dict[Unit, bool]) -> str | None:
    """The sentence naming a symbol of the total under a 609.4b rule that too little of the
    mana may pay (Celestial Dawn's red mana for ``{R}``: only white may), or None."""
    for d, n in demands.items():
        if d.kind != "type" or d.payer >= 0 or not d.wide:
            continue
        able = sum(k for u, k in units.items() if u.kind in ("made", "pool") and spell_ok[u] and u.mask & d.wide)
        able += sum(k for u, k in units.items() if u.kind == "convoke" and u.mask & d.mask and d.mask != C)
        if able < n:
            symbol = "{" + mask_letters(d.mask) + "}"
            return (f"mana: {symbol} of the total can be paid only by {_letters(d.wide)} mana under the rules "
                    f"of spending on this board (CR 609.4b), and the payment has {able} of it for {n} {symbol}")
    return None


def _letters(mask: int) -> str:
    """``W`` → ``{W}``, several types → ``{W}, {U} or {C}``."""
    parts = ["{" + t + "}" for t in mask_letters(mask)]
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " or " + parts[-1]


def check_mana(total: Total, floating: Counter[int], units: Counter[Unit], demands: Counter[Demand],
               split_choices: list[list[Counter[Unit]]], costly: list[int], pay: Payment,
               spell: SpellInfo | None, cost_has: frozenset[str], sources: dict[int, Permanent],
               after: dict[int, set[int]], problems: list[str], spend: SpendTable | None = None) -> None:
    """The matching of mana to symbols: ``total`` and ``floating`` join the activations' own
    demands, and the supply must cover them for one of the ways of splitting ambiguous snow
    mana (the problems of the first way tried when none works).  Each symbol of the total is
    paid as the 609.4b ``spend`` table of the rules reaching it says (None: by type)."""
    if total.generic:
        demands[Demand("generic")] += total.generic
    for k, count in enumerate(total.types):
        if count:
            bit = TYPE_BITS[k]
            wide = spend.mask(bit) if spend is not None else bit
            demands[Demand("type", bit, -1, wide if wide != bit else 0)] += count
    if total.snow:
        demands[Demand("snow")] += total.snow
    for bit, k in floating.items():
        demands[Demand("float", bit)] += k
    first: list[str] | None = None
    for picks in itertools.islice(itertools.product(*split_choices), MAX_ORDERS):
        trial = Counter(units)
        for pick in picks:
            trial.update(pick)
        found: list[str] = []
        _check_cover(trial, demands, costly, pay, spell, cost_has, sources, found, after)
        if not found:
            first = []
            break
        if first is None:
            first = found
    problems.extend(first or [])
