"""The cost as announced (CR 601.2b) and totalled (CR 601.2f): every *form* it can take.

A spell's cost reaches the payment step as ordinary symbols only: X has a value,
every hybrid, monocolored-hybrid and Phyrexian symbol has been announced as one
of its halves (601.2b, 118.13a), and the modifiers have been applied in the
order of 601.2f: increases, then reductions, then minimums (CR 118.7,
118.7a–g, the Trinisphere ruling).  Reductions depend on the announced halves
(a generic reduction only reduces a ``{2/W}`` announced as ``{2}``: the Reaper
King ruling), so the announcement is never fixed greedily: :func:`announce`
enumerates, exactly, every distinct total the announcements can lead to, and
the backends choose among them inside the optimisation.

To keep the enumeration small, the colored halves of a choice symbol are kept
together as one *mask demand* (``{W/U}`` → "one mana that is W or U") unless a
reduction could tell them apart; the payment then says which half was paid.
Choices are enumerated per class of identical symbols (counts, not
permutations), and identical totals are merged.

A rule that lets mana be spent as though it were mana of another type (CR 609.4b: Chromatic
Orrery, Celestial Dawn; a :class:`~manasolver.models.effects.SpendTable`) changes what pays each
demand, not the cost: :func:`announce` given a ``spend`` table keeps every colored half apart (so
each announced half is one type and the payment names it), then widens each demand's mask to the
types that may pay it (``{U}`` under Orrery: any mana; ``{R}`` under Celestial Dawn: white only)
and merges the demands the table makes alike; :attr:`Form.printed` keeps the announced symbols for
the written total.  Every backend reads :attr:`Form.demands` and so pays by the rule unchanged.

The generic part of a form is a function of X (CR 601.2b: X is chosen at
601.2b, before reductions)::

    generic(X) = max(0, generic_base + x_count*X - generic_reduction,
                     minimum - (colored and colorless demands + snow))

>>> f = announce(ManaCost.parse("{2/W}{2/U}{2/B}{2/R}{2/G}"), 0,
...              (Modifier("reduce", ManaCost.parse("{1}")),))
>>> sorted({form.total_text(0) for form in f.forms})[:2]
['{1}{U}{B}{R}{G}', '{1}{W}{B}{R}{G}']
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field

from manasolver.models.cost import ManaCost
from manasolver.models.effects import SpendTable
from manasolver.models.errors import BadQuery, Unsupported
from manasolver.models.slots import slot_setters
from manasolver.models.symbols import (
    ANY_TYPE,
    HYBRID_PAIRS,
    C,
    ManaSymbol,
    mask_letters,
)
from manasolver.solver.request import Modifier

__all__ = ["MAX_FORMS", "Announcement", "ChoiceWay", "Form", "announce", "mask_text"]

#: More raw announcement combinations than this is refused as Unsupported, never guessed.
MAX_FORMS = 20_000


def mask_text(mask: int) -> str:
    """A demand mask as a cost symbol: ``W`` → ``{W}``, ``W|U`` → ``{W/U}``, ``C|W`` → ``{C/W}``
    (a table of every mask of the six types, made at import)."""
    return _MASK_TEXTS[mask] if 0 <= mask <= ANY_TYPE else _mask_text(mask)


def _mask_text(mask: int) -> str:
    letters = mask_letters(mask)
    if len(letters) == 1:
        return "{" + letters + "}"
    if mask & C and len(letters) == 2:
        return "{C/" + letters[0] + "}"
    if len(letters) == 2:
        for pair in HYBRID_PAIRS:  # the rules' order: {G/W}, not {W/G} (CR 107.4e)
            if set(pair) == set(letters):
                return "{" + pair[0] + "/" + pair[1] + "}"
    return "{" + "/".join(letters) + "}"


_MASK_TEXTS = tuple(_mask_text(m) for m in range(ANY_TYPE + 1))


@dataclass(frozen=True, slots=True)
class ChoiceWay:
    """How one choice symbol was announced: ``kind`` is ``mana`` (one mana of a type in
    ``mask``; a mask of several types means the payer picks by what pays it),
    ``generic`` (``amount`` generic, the ``{2}`` of ``{2/W}``) or ``life`` (``amount`` life)."""

    symbol: str
    kind: str
    mask: int = 0
    amount: int = 0


@dataclass(frozen=True, slots=True, init=False)
class Form:
    """One distinct total cost the announcements and modifiers can lead to.

    ``demands``: ``(mask, count)`` pairs, sorted: ``count`` mana each of a type in
    ``mask`` (a single type for ``{W}``/``{C}``, several for a merged hybrid);
    ``snow``: ``{S}`` symbols (any type from a snow source, CR 107.4h);
    ``generic_base``, ``x_count``, ``generic_reduction``, ``minimum``: the generic part
    as a function of X (see :meth:`generic`); ``life``: life paid for Phyrexian
    symbols; ``energy``: ``{E}`` symbols; ``plan``: per class of identical choice
    symbols, how many were announced each way (counts, so a form is as small as its
    classes, not as its symbols); ``order``: the choice symbols in cost order, shared by
    every form of the cost; :attr:`choices` spells the plan out, one :class:`ChoiceWay`
    per hybrid, monocolored-hybrid and Phyrexian symbol, in cost order (a witness);
    ``reduction_choices``: how each hybrid reduction was applied (118.7e), as text;
    ``printed``: under a 609.4b rule (see the module docstring), the announced demands
    ``(type, count)`` the widened :attr:`demands` stand for, which :meth:`total_text` writes
    (empty: the demands are the announced ones).

    Its ``__init__`` is written out to store each field through its slot's descriptor
    (:func:`~manasolver.models.slots.slot_setters`): a cost met for the first time (a card's,
    with the card) is announced on the query's path.  Its parameters are the fields, in order.
    """

    demands: tuple[tuple[int, int], ...]
    snow: int
    generic_base: int
    x_count: int
    generic_reduction: int
    minimum: int
    life: int
    energy: int
    plan: tuple[tuple[ManaSymbol, tuple[tuple[ChoiceWay, int], ...]], ...]
    order: tuple[ManaSymbol, ...]
    reduction_choices: tuple[str, ...] = ()
    printed: tuple[tuple[int, int], ...] = ()
    #: :attr:`fixed_mana`, summed once: the optimisers read it at every search node.
    _fixed: int = field(default=0, init=False, repr=False, compare=False)
    #: Every set of its demands with their Hall sums' terms, filled once when first asked by
    #: :func:`~manasolver.solver.backends.matching.demand_sets` (one whole list, one store).
    demand_sets: list[tuple[int, bool, int]] | None = field(default=None, init=False, repr=False, compare=False)

    def __init__(self, demands: tuple[tuple[int, int], ...], snow: int, generic_base: int, x_count: int,
                 generic_reduction: int, minimum: int, life: int, energy: int,
                 plan: tuple[tuple[ManaSymbol, tuple[tuple[ChoiceWay, int], ...]], ...],
                 order: tuple[ManaSymbol, ...], reduction_choices: tuple[str, ...] = (),
                 printed: tuple[tuple[int, int], ...] = ()) -> None:
        (s_demands, s_snow, s_base, s_x, s_reduction, s_minimum, s_life, s_energy, s_plan, s_order,
         s_choices, s_printed, s_fixed, s_sets) = _FORM_SLOTS
        s_demands(self, demands)
        s_snow(self, snow)
        s_base(self, generic_base)
        s_x(self, x_count)
        s_reduction(self, generic_reduction)
        s_minimum(self, minimum)
        s_life(self, life)
        s_energy(self, energy)
        s_plan(self, plan)
        s_order(self, order)
        s_choices(self, reduction_choices)
        s_printed(self, printed)
        fixed = snow
        for _, n in demands:
            fixed += n
        s_fixed(self, fixed)
        s_sets(self, None)

    @property
    def choices(self) -> tuple[ChoiceWay, ...]:
        """One :class:`ChoiceWay` per choice symbol, in cost order: the k-th symbol of a
        class takes the k-th way of its plan (ways in plan order, each ``count`` times)."""
        queues: dict[ManaSymbol, list[ChoiceWay]] = {}
        for sym, ways in self.plan:
            queues[sym] = [way for way, n in reversed(ways) for _ in range(n)]
        return tuple(queues[s].pop() for s in self.order)

    @property
    def fixed_mana(self) -> int:
        """The mana of the total other than generic: colored, colorless, hybrid and snow."""
        return self._fixed

    def generic(self, x: int) -> int:
        """The generic part of the locked total for this value of X (601.2f)."""
        return max(0, self.generic_base + self.x_count * x - self.generic_reduction, self.minimum - self._fixed)

    def mana_total(self, x: int) -> int:
        """How much mana the locked total asks for."""
        return self.generic(x) + self._fixed

    def total_text(self, x: int, resolved: dict[int, list[int]] | None = None) -> str:
        """The locked total as cost text; a merged mask demand shows the type that paid it
        when ``resolved`` (mask → realized type bits, one per unit) is given."""
        parts: list[str] = []
        g = self.generic(x)
        if g:
            parts.append("{" + str(g) + "}")
        order = "WUBRGC"
        singles: list[str] = []
        if self.printed:  # announced halves are single types: the symbols as announced
            resolved = None
        for mask, n in self.printed or self.demands:
            got = list((resolved or {}).get(mask, []))
            for i in range(n):
                bit = got[i] if i < len(got) else mask
                singles.append(mask_text(bit))
        singles.sort(key=lambda s: (len(s), order.index(s[1]) if s[1] in order else 9, s))
        parts.extend(singles)
        parts.extend("{S}" for _ in range(self.snow))
        return "".join(parts) or "{0}"


_FORM_SLOTS = slot_setters(Form)


#: The table of an announcement whose demands are paid by type (no 609.4b rule): frozen, so one
#: value serves every such announcement.
_BY_TYPE = SpendTable()


@dataclass(frozen=True, slots=True)
class Announcement:
    """Every distinct :class:`Form` of a cost, in a deterministic order (the form with
    no choices made toward life or generic comes first), and whether X is free; ``spend``:
    the 609.4b table its demands were widened by (the identity: paid by type)."""

    forms: tuple[Form, ...]
    x_count: int
    cost: ManaCost
    spend: SpendTable = _BY_TYPE


def _ways(sym: ManaSymbol, sensitive: int) -> list[ChoiceWay]:
    """The announced forms of a choice symbol, colored halves merged unless a reduction
    could tell them apart (``sensitive`` types are kept separate)."""
    out: list[ChoiceWay] = []
    merged = 0
    for way in sym.ways_to_pay():
        if way.kind == "mana":
            if way.mask & sensitive:
                out.append(ChoiceWay(sym.text, "mana", way.mask))
            else:
                merged |= way.mask
        elif way.kind == "generic":
            out.append(ChoiceWay(sym.text, "generic", amount=way.amount))
        elif way.kind == "life":
            out.append(ChoiceWay(sym.text, "life", amount=way.amount))
        else:  # pragma: no cover - ways_to_pay of a choice symbol gives only these
            raise Unsupported(f"cannot announce {sym.text} as {way.kind}", "cost")
    if merged:
        out.insert(0, ChoiceWay(sym.text, "mana", merged))
    out.sort(key=lambda w: {"mana": 0, "generic": 1, "life": 2}[w.kind])
    return out


def _compositions(n: int, k: int) -> list[tuple[int, ...]]:
    """Every way of splitting ``n`` identical symbols among ``k`` ways (counts)."""
    if k == 1:
        return [(n,)]
    out: list[tuple[int, ...]] = []
    for first in range(n, -1, -1):
        for rest in _compositions(n - first, k - 1):
            out.append((first,) + rest)
    return out


def _reduction_ways(sym: ManaSymbol, where: str) -> list[tuple[str, int]]:
    """How one reduction symbol may apply (118.7): ``("generic", n)`` or ``("type", bit)``."""
    if sym.special:
        raise BadQuery(f"a cost reduction cannot be {sym.text}", where)
    if sym.variable:
        raise Unsupported(f"a cost reduction by {sym.text} is not supported", where)
    if sym.is_numeral:
        return [("generic", sym.generic)]
    if sym.snow:
        return [("generic", 1)]  # 118.7g
    ways: list[tuple[str, int]] = []
    if sym.colorless:
        ways.append(("type", C))
    for bit in (1, 2, 4, 8, 16):
        if sym.colors & bit:
            ways.append(("type", bit))
    if sym.generic and not sym.is_numeral:
        ways.append(("generic", sym.generic))  # the {2} half of {2/W} (118.7e)
    if sym.phyrexian:
        # 118.7f: reduced by one mana of the symbol's color(s): the life half is not a reduction.
        ways = [w for w in ways if w[0] == "type"]
    return ways


def announce(cost: ManaCost, x: int | None, modifiers: tuple[Modifier, ...] = (),
             spend: SpendTable | None = None) -> Announcement:
    """Every distinct total (601.2f) of ``cost`` under ``modifiers`` (applied as increases,
    then reductions in the given order, then minimums), each demand paid as the 609.4b
    ``spend`` table allows (see the module docstring; None or the identity: by type).

    ``x`` is not needed to enumerate forms (generic is a function of X); it is
    checked only to be non-negative.  Raises :class:`Unsupported` beyond
    :data:`MAX_FORMS` combinations.
    """
    if x is not None and x < 0:
        raise BadQuery(f"x must be 0 or more, not {x}", "x")
    for i, m in enumerate(modifiers):
        if m.kind not in ("increase", "reduce", "minimum"):
            raise BadQuery(f"unknown modifier kind {m.kind!r}", f"modifiers[{i}]")
        if m.kind in ("increase", "reduce") and m.cost is None:
            raise BadQuery(f"a {m.kind} modifier needs a cost", f"modifiers[{i}]")
    # The increases' symbols join the cost's, the largest minimum counts, and each reduction symbol
    # is kept with its place (the types a reduction could single out keep their halves separate).
    symbols: list[ManaSymbol] = list(cost.symbols)
    minimum: int | None = None  # the largest given, 0 when none is (as validate's totals read it)
    red_syms: list[tuple[ManaSymbol, str]] = []
    for i, m in enumerate(modifiers):
        if m.kind == "minimum":
            minimum = m.amount if minimum is None else max(minimum, m.amount)
            continue
        assert m.cost is not None
        if m.kind == "increase":
            symbols.extend(m.cost.symbols)
        else:
            for j, s in enumerate(m.cost.symbols):
                red_syms.append((s, f"modifiers[{i}].cost[{j}]"))
    least = 0 if minimum is None else minimum
    widen = spend is not None and not spend.identity
    sensitive = ANY_TYPE if widen else 0
    red_ways: list[list[tuple[str, int]]] = []
    for s, where in red_syms:
        ways = _reduction_ways(s, where)
        red_ways.append(ways)
        for kind, val in ways:
            if kind == "type":
                sensitive |= val

    # Fixed part and choice classes.
    base_demand: dict[int, int] = {}
    snow = generic = energy = x_count = 0
    classes: dict[ManaSymbol, int] = {}
    class_order: list[ManaSymbol] = []
    order_syms: list[ManaSymbol] = []
    for s in symbols:
        if s.special == "E":
            energy += 1
        elif s.special:
            raise BadQuery(f"{s.text} is not part of a spell's mana cost", "cost")
        elif s.variable:
            x_count += 1
        elif s.snow:
            snow += 1
        elif s.is_numeral:
            generic += s.generic
        elif s.is_hybrid:
            if s not in classes:
                classes[s] = 0
                class_order.append(s)
            classes[s] += 1
            order_syms.append(s)
        else:
            mask = s.colors | (C if s.colorless else 0)
            base_demand[mask] = base_demand.get(mask, 0) + 1

    class_ways = [_ways(s, sensitive) for s in class_order]
    class_comps = [_compositions(classes[s], len(w)) for s, w in zip(class_order, class_ways)]
    count = 1
    for comps in class_comps:
        count *= len(comps)
    for ways in red_ways:
        count *= len(ways)
    if count > MAX_FORMS:
        raise Unsupported(f"the cost has {count} combinations of announcements and reductions, more "
                          f"than the {MAX_FORMS} this engine enumerates", "cost")

    seen: dict[tuple[object, ...], Form] = {}
    order = tuple(order_syms)
    for combo in itertools.product(*class_comps):
        demand = dict(base_demand)
        g = generic
        life = 0
        plan: list[tuple[ManaSymbol, tuple[tuple[ChoiceWay, int], ...]]] = []
        for sym, sym_ways, comp in zip(class_order, class_ways, combo):
            lst: list[tuple[ChoiceWay, int]] = []
            for way, n in zip(sym_ways, comp):
                if not n:
                    continue
                lst.append((way, n))
                if way.kind == "mana":
                    demand[way.mask] = demand.get(way.mask, 0) + n
                elif way.kind == "generic":
                    g += way.amount * n
                else:
                    life += way.amount * n
            plan.append((sym, tuple(lst)))
        for rcombo in itertools.product(*red_ways) if red_ways else [()]:
            d = dict(demand)
            g_red = 0
            notes: list[str] = []
            for (sym, _), (kind, val), ways in zip(red_syms, rcombo, red_ways):
                if len(ways) > 1:
                    notes.append(f"{sym.text} as " + ("{" + str(val) + "}" if kind == "generic"
                                                       else mask_text(val)))
                if kind == "generic":
                    g_red += val
                else:
                    have = d.get(val, 0)
                    if have:
                        d[val] = have - 1
                    else:
                        g_red += 1  # 118.7b–d: the excess comes off generic
            demands = tuple(sorted((m, n) for m, n in d.items() if n))
            printed: tuple[tuple[int, int], ...] = ()
            if widen:
                assert spend is not None
                printed, demands = demands, _widened(demands, spend)
            key = (demands, snow, g, x_count, g_red, least, life, energy)
            if key not in seen:
                seen[key] = Form(demands, snow, g, x_count, g_red, least, life, energy,
                                 tuple(plan), order, tuple(notes), printed)
    forms = tuple(seen.values())
    for mask, _ in (d for f in forms for d in f.demands):
        assert mask & ANY_TYPE
    return Announcement(forms, x_count, cost, spend if widen and spend is not None else _BY_TYPE)


def _widened(demands: tuple[tuple[int, int], ...], spend: SpendTable) -> tuple[tuple[int, int], ...]:
    """Announced demands as the masks of the mana that may pay them (CR 609.4b), alike ones
    merged: a payment of the merged demand pays each announced symbol by the rule, since every
    unit it takes may pay any of them."""
    out: dict[int, int] = {}
    for mask, n in demands:
        wide = spend.mask(mask)
        out[wide] = out.get(wide, 0) + n
    return tuple(sorted(out.items()))
