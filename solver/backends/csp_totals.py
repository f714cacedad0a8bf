"""The concrete totals of a request for the enumeration: announcements times reductions.

Every announcement of the cost (601.2b: each hybrid, monocolored-hybrid and Phyrexian symbol as
each of its halves) is expanded with every way the modifiers apply (601.2f: increases, reductions
in every way they may apply, 118.7, and the minimum), keeping different choices apart even when
they reach the same total (the optimisers' :mod:`~manasolver.solver.casting.announce` merges
those, as it may): the choices are part of a payment.  More combinations than
:data:`MAX_ANNOUNCEMENTS` are refused, never guessed.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from manasolver.models.effects import SpendTable
from manasolver.models.errors import Unsupported
from manasolver.models.symbols import TYPE_BITS, C, ManaSymbol, PaidAs
from manasolver.solver.casting.announce import mask_text
from manasolver.solver.payment import Choice
from manasolver.solver.request import PaymentRequest

__all__ = ["MAX_ANNOUNCEMENTS", "Total", "concrete_totals", "reduction_ways", "type_text"]


def type_text(bits: Sequence[int]) -> str:
    """Units of mana (type bits) as text in W U B R G C order."""
    counts = Counter(bits)  # counted: a Chalice's million {C} are one string product
    return "".join(mask_text(b) * counts[b] for b in sorted(counts, key=TYPE_BITS.index))


@dataclass(frozen=True)
class Total:
    """One concrete total: typed demands per bit, generic, snow, and the choices that gave it."""

    typed: tuple[tuple[int, int], ...]
    generic: int
    snow: int
    life: int
    energy: int
    choices: tuple[Choice, ...]
    #: Under a 609.4b rule: the typed demands as ``(mask of the mana that may pay, count)``,
    #: alike ones merged (:attr:`demands`); empty when each is paid by its own type.
    wide: tuple[tuple[int, int], ...] = ()

    @property
    def demands(self) -> tuple[tuple[int, int], ...]:
        """The typed demands as ``(mask of the types that may pay, count)``."""
        return self.wide or self.typed

    @property
    def units(self) -> int:
        return sum(n for _, n in self.typed) + self.generic + self.snow

    def text(self) -> str:
        out = "{" + str(self.generic) + "}" if self.generic else ""
        out += type_text([b for b, n in self.typed for _ in range(n)]) + "{S}" * self.snow
        return out or "{0}"


#: More announcement and reduction combinations than this is refused, never guessed.
MAX_ANNOUNCEMENTS = 20_000


def reduction_ways(sym: ManaSymbol) -> list[tuple[str, int]]:
    """How one reduction symbol may apply (CR 118.7): ("generic", n) or ("type", bit)."""
    if sym.special or sym.variable:
        raise Unsupported(f"a cost reduction by {sym.text} is not supported", "modifiers")
    if sym.is_numeral:
        return [("generic", sym.generic)]
    if sym.snow:
        return [("generic", 1)]  # 118.7g
    ways = [("type", b) for b in TYPE_BITS[:5] if sym.colors & b]
    if sym.colorless:
        ways.insert(0, ("type", C))
    if sym.generic and not sym.phyrexian:
        ways.append(("generic", sym.generic))  # 118.7e: the {2} half of {2/W}
    return ways  # a Phyrexian symbol reduces one mana of its color (118.7f)


def concrete_totals(req: PaymentRequest, x: int, spend: SpendTable | None = None) -> list[Total]:
    """Every distinct (choices, total) pair: each hybrid, monocolored-hybrid and Phyrexian
    symbol announced as each of its halves (601.2b), then increases, reductions in every
    way they may apply (118.7), and the minimum (601.2f).  Unlike the optimisers' forms,
    totals reached by different choices are kept apart: the choices are part of a payment.
    Under a 609.4b ``spend`` table each total also says what mana may pay each typed demand
    (:attr:`Total.wide`)."""
    symbols: list[ManaSymbol] = list(req.cost.symbols)
    for m in req.modifiers:
        if m.kind == "increase" and m.cost is not None:
            symbols.extend(m.cost.symbols)
    minimum = max((m.amount for m in req.modifiers if m.kind == "minimum"), default=0)
    red = [reduction_ways(s) for m in req.modifiers if m.kind == "reduce" and m.cost is not None
           for s in m.cost.symbols]
    typed0: Counter[int] = Counter()
    generic0 = snow = energy = 0
    classes: dict[ManaSymbol, int] = {}
    order: list[ManaSymbol] = []
    for s in symbols:
        if s.special == "E":
            energy += 1
        elif s.special:
            continue
        elif s.variable:
            generic0 += x
        elif s.snow:
            snow += 1
        elif s.is_numeral:
            generic0 += s.generic
        elif len(s.ways_to_pay()) > 1:
            classes[s] = classes.get(s, 0) + 1
            order.append(s)
        else:
            typed0[C if s.colorless else s.colors] += 1
    per_class = [list(itertools.combinations_with_replacement(s.ways_to_pay(), n))
                 for s, n in classes.items()]
    count = 1
    for opts in per_class + red:
        count *= len(opts)
    if count > MAX_ANNOUNCEMENTS:
        raise Unsupported(f"the cost has {count} combinations of announcements and reductions, more "
                          f"than the {MAX_ANNOUNCEMENTS} the enumeration takes", "cost")
    out: dict[Total, None] = {}
    for combo in itertools.product(*per_class):
        typed = Counter(typed0)
        g = generic0
        life = 0
        assigned: dict[ManaSymbol, list[PaidAs]] = {}
        for sym, ways in zip(classes, combo):
            assigned[sym] = list(ways)
            for w in ways:
                if w.kind == "mana":
                    typed[w.mask] += 1
                elif w.kind == "generic":
                    g += w.amount
                else:
                    life += w.amount
        cursor = dict.fromkeys(classes, 0)
        choices = []
        for sym in order:
            choices.append(Choice(sym.text, assigned[sym][cursor[sym]].text))
            cursor[sym] += 1
        for rcombo in itertools.product(*red):
            t = Counter(typed)
            cut = 0
            for kind, v in rcombo:
                if kind == "generic":
                    cut += v
                elif t[v]:
                    t[v] -= 1
                else:
                    cut += 1  # 118.7b-d: the excess comes off generic
            fixed = sum(t.values()) + snow
            gen = max(0, g - cut, minimum - fixed)
            paid = tuple(sorted((b, n) for b, n in t.items() if n))
            wide: tuple[tuple[int, int], ...] = ()
            if spend is not None and not spend.identity:
                merged: Counter[int] = Counter()
                for b, n in paid:
                    merged[spend.mask(b)] += n
                wide = tuple(sorted(merged.items()))
            total = Total(paid, gen, snow, life, energy, tuple(choices), wide)
            out[total] = None
    return list(out)
