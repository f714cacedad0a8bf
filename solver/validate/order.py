"""Can the payment be carried out in the order it states, and does its allocation hold?

:mod:`.cover` asks whether *some* order of the mana-costing activations works (601.2g); a
payment also claims an order a client will follow step by step, and what paid each symbol.
This module checks both as stated:

* the order (CR 605.3a, 601.2g): walking the activations in the order given, every
  activation's own mana cost (a filter land's ``{U/R}``, a Signet's ``{1}``) must be paid by
  the pool or by mana that activations *before it* made, the costs before it taking theirs
  too; the first activation whose cost is not yet payable at its place is named.  Then the
  whole payment (the total, every cost and the floating mana) must be covered with that order;
* the ``allocation``, when given: one entry per symbol of the total (generic mana one ``{1}``
  each) and per Phyrexian symbol paid with life; each payer real (an activation of the
  payment whose mana can pay that symbol, pool mana the payment uses, a creature convoked, an
  artifact improvised, a card delved, 2 life) and no activation or the pool named for more
  mana than it gave.

Its matching is the checker's own (:mod:`.matching`), over the classes :mod:`.activations`
read.
"""

from __future__ import annotations

import dataclasses
from collections import Counter

from manasolver.models.abilities import Restriction
from manasolver.models.cost import ManaCost
from manasolver.models.effects import SpendTable
from manasolver.models.errors import ManasolverError
from manasolver.models.state import Permanent
from manasolver.models.symbols import ANY_COLOR, C, ManaSymbol
from manasolver.solver.payment import Payment
from manasolver.solver.request import SpellInfo
from manasolver.solver.validate.cover import Demand, Unit, _allows_spell, _compatible, _covers
from manasolver.solver.validate.matching import unplaced

__all__ = ["check_allocation", "check_order"]


def _name(pay: Payment, i: int, sources: dict[int, Permanent]) -> str:
    perm = sources.get(i)
    act = pay.activations[i]
    return f"{perm.card.name} {act.permanent}" if perm is not None else (act.permanent or act.card)


def check_order(pay: Payment, units: Counter[Unit], demands: Counter[Demand], costly: list[int],
                sources: dict[int, Permanent], spell: SpellInfo | None, cost_has: frozenset[str], problems: list[str],
                whole: Counter[Demand] | None = None,
                restrictions: dict[int, tuple[Restriction | None, bool]] | None = None) -> None:
    """The activations in their stated order: each mana cost payable at its place (the first
    that is not is named), then ``whole`` (every demand of the payment, when the mana covers it
    in some order) covered in this order.  ``restrictions``: the restriction of each
    activation's mana (CR 106.6) and whether it is snow, so its units go back to it."""
    rank = {i: i for i in range(len(pay.activations))}
    units = _with_makers(pay, units, costly, restrictions or {})
    spell_ok = {u: _allows_spell(u.restriction, spell, cost_has) for u in units}
    ulist = list(units)
    for c in sorted(costly):
        wants = [d for d in demands if 0 <= d.payer <= c]
        if not wants:
            continue
        edges = [[j for j, u in enumerate(ulist) if _compatible(u, d, rank, spell_ok, sources)] for d in wants]
        short = unplaced([demands[d] for d in wants], [units[u] for u in ulist], edges)
        if any(short):
            costs = " ".join(part for part in pay.activations[c].costs if part.startswith("{") and
                             part not in ("{T}", "{Q}"))
            problems.append(f"activations[{c}]: the mana cost {costs + ' ' if costs else ''}"
                            f"of {_name(pay, c, sources)} can't be "
                            f"paid at its place in the order: the pool and the activations before it "
                            f"don't make that mana (CR 605.3a, 601.2g)")
            return
    if whole is None or sum(whole.values()) != sum(units.values()):
        return
    if costly and not _covers(units, whole, rank, spell_ok, sources):
        problems.append("activations: in the order given, the mana made before each activation with a mana "
                        "cost and the rest can't pay the total, the costs and the floating mana exactly "
                        "(another order can: CR 601.2g)")


def _with_makers(pay: Payment, units: Counter[Unit], costly: list[int],
                 restrictions: dict[int, tuple[Restriction | None, bool]]) -> Counter[Unit]:
    """``units`` with the mana of the activations without a mana cost (read as made by none:
    :mod:`.cover` lets them come first) given back to the activation that made it, by its
    ``mana``, its restriction and snow (when known), so that the stated order is what counts."""
    loose = Counter({u: n for u, n in units.items() if u.kind == "made" and u.maker < 0})
    if not loose:
        return units
    out = Counter({u: n for u, n in units.items() if u not in loose})
    priced = set(costly)
    for i, act in enumerate(pay.activations):
        if i in priced:
            continue
        for bit, n in (_made(act.mana) or Counter()).items():
            mine = restrictions.get(i)
            for u in sorted(loose, key=lambda u: (mine is not None and (u.restriction, u.snow) != mine,
                                                  u.restriction is not None)):
                if not n:
                    break
                if loose[u] and u.mask == bit:
                    take = min(n, loose[u])
                    loose[u] -= take
                    n -= take
                    out[dataclasses.replace(u, maker=i)] += take
    out.update(+loose)  # what no activation's mana names stays unordered
    return out


def _symbol_mask(text: str) -> tuple[int, bool] | None:
    """The types that pay a symbol of the total, and whether it is generic; None when unread."""
    try:
        syms = ManaCost.parse(text).symbols
    except ManasolverError:
        return None
    if len(syms) != 1:
        return None
    sym = syms[0]
    if sym.is_numeral:
        return (0, True) if sym.generic == 1 else None
    if sym.snow:
        return (ANY_COLOR | C, True)
    return ((sym.colors & ANY_COLOR) | (C if sym.colorless else 0), False)


def _expected(total: str, pay: Payment) -> Counter[str] | None:
    """The symbols the allocation must name: the total's (generic as ``{1}`` each) and the
    Phyrexian symbols paid with life."""
    syms = _symbols(total)
    if syms is None:
        return None
    out: Counter[str] = Counter()
    for sym in syms:
        if sym.is_numeral:
            out["{1}"] += sym.generic
        elif not sym.special and not sym.variable:
            out[sym.text] += 1
    for c in pay.choices:
        if c.paid_as == "life":
            out[c.symbol] += 1
    return out


def _symbols(text: str) -> tuple[ManaSymbol, ...] | None:
    """The symbols of a cost or mana text, ``None`` when it does not read."""
    try:
        return ManaCost.parse(text, allow_empty=True).symbols
    except ManasolverError:
        return None


def _made(text: str) -> Counter[int] | None:
    """The mana a text such as ``{U}{R}`` names, per type bit."""
    syms = _symbols(text)
    if syms is None:
        return None
    out: Counter[int] = Counter()
    for s in syms:
        out[(s.colors & ANY_COLOR) | (C if s.colorless else 0)] += 1
    return out


def check_allocation(pay: Payment, problems: list[str], spend: SpendTable | None = None) -> None:
    """The payment's ``allocation`` (when it has one) against its total, activations, pool,
    assists and life (see the module docstring); ``spend``: the 609.4b table of the payment (what
    may pay each type of symbol; None: its own type)."""
    if pay.allocation is None:
        return
    expected = _expected(pay.total, pay)
    if expected is None:
        return
    named: Counter[str] = Counter(a.symbol for a in pay.allocation)
    if named != expected:
        extra = sorted((named - expected).elements())
        missing = sorted((expected - named).elements())
        problems.append("allocation: it must name one payer for each symbol of the total (generic mana one "
                        "{1} each) and each Phyrexian symbol paid with life; "
                        + (f"missing {''.join(missing)}" if missing else f"not in the total {''.join(extra)}"))
        return
    given: dict[int, Counter[int]] = {}
    pool = _made(pay.pool_used) or Counter()
    assisted = {"convoke": set(pay.convoked), "improvise": set(pay.improvised), "delve": set(pay.delved)}
    # Symbols of one type first, generic ones after, so a generic symbol never takes the mana a
    # colored one of the same payer needs.
    entries = sorted(enumerate(pay.allocation), key=lambda ie: ie[1].symbol in ("{1}", "{S}"))
    for i, entry in entries:
        where = f"allocation[{i}]"
        if entry.kind == "life":
            if not (entry.value == 2 and any(c.symbol == entry.symbol and c.paid_as == "life" for c in pay.choices)):
                problems.append(f"{where}: {entry.symbol} is paid with 2 life only when its choice says life")
            continue
        read = _symbol_mask(entry.symbol)
        if read is None:
            problems.append(f"{where}: {entry.symbol!r} is not a symbol of mana")
            continue
        mask, generic = read
        if spend is not None and not generic:
            mask = spend.mask(mask)
        if entry.kind in assisted:
            if entry.value not in assisted[entry.kind]:
                problems.append(f"{where}: {entry.value} is not among the payment's {entry.kind} list")
            elif entry.kind != "convoke" and not generic:
                problems.append(f"{where}: {entry.kind} pays only generic mana, not {entry.symbol}")
            continue
        if entry.kind == "pool":
            bag = pool
        else:
            k = entry.value
            if not isinstance(k, int) or not 0 <= k < len(pay.activations):
                problems.append(f"{where}: there is no activation {k}")
                continue
            if k not in given:
                given[k] = (_made(pay.activations[k].mana) or Counter())
            bag = given[k]
        bit = next((b for b in sorted(bag, key=lambda b: (b & mask) == 0) if bag[b] and (generic or b & mask)), 0)
        if not bit:
            payer = "the pool" if entry.kind == "pool" else f"activations[{entry.value}]"
            problems.append(f"{where}: {payer} has no mana left that pays {entry.symbol}")
            continue
        bag[bit] -= 1
