"""The checker's own reading of the announced cost and its total (CR 601.2b, 601.2f, 118.7).

:func:`announce` turns the cost and the payment's choices into plain symbols: one choice per
hybrid, monocolored-hybrid and Phyrexian symbol, each one of that symbol's ways to pay
(107.4), X as fixed by the request.  :func:`locked_total` then derives every total the
modifiers can give and checks the payment's claimed ``total`` against them: the increases
(a choice per symbol with several ways), the reductions (colored excess off generic
118.7b–d, hybrid reductions by either half 118.7e, Phyrexian by its color 118.7f, snow by
generic 118.7g), every way of applying them tried as a product, and the minimum
(Trinisphere) last.  :func:`mana_units` reads a mana text such as ``{G}{C}`` as counts per
type bit.
"""

from __future__ import annotations

import itertools
from collections import Counter
from dataclasses import dataclass
from typing import Literal

from manasolver.models.cost import ManaCost
from manasolver.models.errors import ManasolverError
from manasolver.models.rules.life_for_mana import life_for_mana_colors
from manasolver.models.symbols import (
    TYPE_BITS,
    TYPES,
    C,
    ManaSymbol,
    mask_letters,
    parse_symbol,
)
from manasolver.solver.payment import Payment
from manasolver.solver.request import PaymentRequest

__all__ = ["Total", "announce", "locked_total", "mana_units", "single_type"]

#: How one symbol of a modifier changes the total: ``generic`` by an amount, ``type`` by a type bit.
WayKind = Literal["generic", "type"]


@dataclass(frozen=True)
class Total:
    """A concrete total: generic, per-type counts (W…G, C), snow."""

    generic: int
    types: tuple[int, int, int, int, int, int]
    snow: int

    def text(self) -> str:
        parts = ["{" + str(self.generic) + "}"] if self.generic else []
        for i, n in enumerate(self.types):
            parts.extend(["{" + TYPES[i] + "}"] * n)
        parts.extend(["{S}"] * self.snow)
        return "".join(parts) or "{0}"


def _idx(bit: int) -> int:
    return TYPE_BITS.index(bit)


def single_type(sym: ManaSymbol) -> int:
    """The type bit of a plain colored or ``{C}`` symbol, else 0."""
    if sym.phyrexian or sym.generic or sym.snow or sym.variable or sym.special:
        return 0
    if sym.colorless and not sym.colors:
        return C
    if not sym.colorless and sym.colors.bit_count() == 1:
        return sym.colors
    return 0


class _Tally:
    """Counts of plain symbols: generic, per type (W…G, C), snow."""

    def __init__(self) -> None:
        self.generic = 0
        self.types = [0] * 6
        self.snow = 0

    def add(self, sym: ManaSymbol) -> bool:
        """Count a numeral, snow or single-type symbol; False (counting nothing) for any other."""
        if sym.is_numeral:
            self.generic += sym.generic
        elif sym.snow:
            self.snow += 1
        elif bit := single_type(sym):
            self.types[_idx(bit)] += 1
        else:
            return False
        return True


def _reduction_ways(sym: ManaSymbol) -> list[tuple[WayKind, int]] | None:
    """How a reduction symbol may apply (118.7): ('generic', n) or ('type', bit); None: unknown."""
    if sym.special or sym.variable:
        return None
    if sym.is_numeral:
        return [("generic", sym.generic)]
    if sym.snow:
        return [("generic", 1)]  # 118.7g
    ways: list[tuple[WayKind, int]] = [("type", b) for b in TYPE_BITS[:5] if sym.colors & b]
    if sym.colorless:
        ways.append(("type", C))
    if sym.generic and not sym.phyrexian:
        ways.append(("generic", sym.generic))  # 118.7e
    return ways  # a Phyrexian symbol reduces its color (118.7f)


def _totals(base: list[ManaSymbol], req: PaymentRequest, problems: list[str]) -> set[Total]:
    """Every total the reductions and the minimum can give (601.2f), from the announced plain
    symbols of the cost and its increases."""
    plain = _Tally()
    reductions = [m for m in req.modifiers if m.kind == "reduce"]
    minimum = max((m.amount for m in req.modifiers if m.kind == "minimum"), default=0)
    for s in base:  # the increases included: announce() reads them with the cost
        if not plain.add(s):
            raise ValueError(f"{s.text} is not a plain symbol")  # announce() gives only plain ones
    red_syms: list[list[tuple[WayKind, int]]] = []
    for m in reductions:
        for s in m.cost.symbols if m.cost else ():
            ways = _reduction_ways(s)
            if ways is None:
                problems.append(f"modifiers: cannot reduce a cost by {s.text}")
                continue
            red_syms.append(ways)
    generic, types, snow = plain.generic, plain.types, plain.snow
    out: set[Total] = set()
    for red in itertools.product(*red_syms):
        g, t = generic, list(types)
        for kind, val in red:
            if kind == "generic":
                g = max(0, g - val)
            elif t[_idx(val)]:
                t[_idx(val)] -= 1
            else:
                g = max(0, g - 1)  # 118.7b-d: excess off generic
        fixed = sum(t) + snow
        if g + fixed < minimum:
            g = minimum - fixed  # Trinisphere: after every increase and reduction
        out.add(Total(g, (t[0], t[1], t[2], t[3], t[4], t[5]), snow))
    return out


def _parse_total(text: str, problems: list[str]) -> Total | None:
    try:
        cost = ManaCost.parse(text or "{0}", "total", allow_empty=True)
    except ManasolverError as err:
        problems.append(f"total: {err.message}")
        return None
    tally = _Tally()
    for s in cost.symbols:
        if not tally.add(s):
            problems.append(f"total: {s.text} is not a symbol of a locked total (announce it first)")
            return None
    t = tally.types
    return Total(tally.generic, (t[0], t[1], t[2], t[3], t[4], t[5]), tally.snow)


def locked_total(plain: list[ManaSymbol], req: PaymentRequest, pay: Payment,
                 problems: list[str]) -> Total | None:
    """The total the mana must pay (601.2f): the claimed one, checked against every total the
    modifiers can give; when the claim does not read, the smallest of those."""
    totals = _totals(plain, req, problems)
    claimed = _parse_total(pay.total, problems)
    if claimed is not None and totals and claimed not in totals:
        expect = " or ".join(sorted(t.text() for t in totals)[:4])
        problems.append(f"total: {claimed.text()} is not the total cost after the choices and modifiers "
                        f"(CR 601.2f, 118.7): expected {expect}")
    return claimed if claimed is not None else (min(totals, key=Total.text) if totals else None)


def announce(req: PaymentRequest, pay: Payment, problems: list[str]
             ) -> tuple[list[ManaSymbol], int, int]:
    """The announced plain symbols (601.2b), life from choices, energy from ``{E}``."""
    cost = req.cost  # already the alternative cost when one was named (solver.protocol)
    if pay.x < 0:
        problems.append(f"x: X must be 0 or more, not {pay.x}")
    if cost.variables:
        if req.x is not None and pay.x != req.x:
            problems.append(f"x: the request fixes X at {req.x}, the payment says {pay.x}")
    elif pay.x != 0:
        problems.append(f"x: the cost {cost.format()} has no X, but the payment says X={pay.x}")
    pending: dict[str, list[ManaSymbol]] = {}
    plain: list[ManaSymbol] = []
    energy = 0
    # the increases are announced with the cost (their hybrid, {2/W} and Phyrexian symbols too)
    symbols = [(s, -1) for s in cost.symbols]
    for i, m in enumerate(req.modifiers):
        if m.kind == "increase" and m.cost is not None:
            symbols.extend((s, i) for s in m.cost.symbols)
    for s, source in symbols:
        if s.special and source >= 0 and s.special != "E":
            problems.append(f"modifiers[{source}]: cannot increase a cost by {s.text}")
        elif s.special == "E":
            energy += 1
        elif s.special:
            continue
        elif s.variable:
            if pay.x > 0:
                plain.append(parse_symbol(str(pay.x)))
        elif len(s.ways_to_pay()) > 1:
            pending.setdefault(s.text, []).append(s)
        else:
            plain.append(s)
    life = 0
    for i, ch in enumerate(pay.choices):
        try:
            sym = parse_symbol(ch.symbol, f"choices[{i}].symbol")
        except ManasolverError as err:
            problems.append(f"choices[{i}]: {err.message}")
            continue
        if not pending.get(sym.text):
            problems.append(f"choices[{i}]: the cost has no (other) {sym.text} to announce")
            continue
        pending[sym.text].pop()
        ways = {w.text: w for w in sym.ways_to_pay()}
        way = ways.get(ch.paid_as.strip() if ch.paid_as.strip() == "life" else ch.paid_as.strip().upper())
        if way is None:
            problems.append(f"choices[{i}]: {sym.text} cannot be paid as {ch.paid_as!r}; "
                            f"its ways are {', '.join(ways)} (CR 107.4)")
            continue
        if way.kind == "life":
            life += way.amount
        elif way.kind == "generic":
            plain.append(parse_symbol(str(way.amount)))
        else:
            plain.append(parse_symbol("{" + mask_letters(way.mask) + "}"))
    optional = life_for_mana_colors(req.state, req.player)
    for text, left in pending.items():
        first = left[0] if left else None
        if first is not None and optional and first.phyrexian and not first.generic \
                and first.colors.bit_count() == 1 and mask_letters(first.colors) in optional:
            # K'rrik: the {B} a player pays with mana needs no announcement (its life is the choice)
            plain.extend(parse_symbol("{" + mask_letters(first.colors) + "}") for _ in left)
            continue
        if left:
            problems.append(f"choices: {len(left)} {text} in the cost {'has' if len(left) == 1 else 'have'} "
                            f"no announced way to pay (CR 601.2b)")
    return plain, life, energy


def mana_units(text: str, where: str, problems: list[str]) -> Counter[int] | None:
    """The mana a text such as ``{G}{G}{C}`` names, as counts per type bit; None (and a
    problem) when it does not read or names something that is not a type of mana."""
    try:
        cost = ManaCost.parse(text, where, allow_empty=True) if text.strip() else ManaCost()
    except ManasolverError as err:
        problems.append(f"{where}: {err.message}")
        return None
    out: Counter[int] = Counter()
    for s in cost.symbols:
        bit = single_type(s)
        if bit:
            out[bit] += 1
        elif s.is_numeral and s.generic == 0:
            continue
        else:
            problems.append(f"{where}: {s.text} is not a type of mana (write {{C}} for colorless)")
            return None
    return out
