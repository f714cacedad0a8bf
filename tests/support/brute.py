"""A tiny brute force of payments, written from the rules, for the tests only.

For small boards (at most :data:`MAX_SOURCES` permanents with mana abilities)
it tries every combination of activations (each permanent: nothing, or one
activation of one ability with one concrete production), every announcement of
the cost's hybrid and Phyrexian symbols (CR 601.2b), every way of applying
hybrid reductions (118.7e), every order of the activations that cost mana
(601.2g) and every assignment of units of mana to symbols.  It shares no code
with the solvers (only board semantics: :mod:`manasolver.solver.graph` for
amounts and "could produce").

A payment is listed when it is *irredundant*: no activation can be dropped, with
the same total, choices and pool mana used, and still pay (a land tapped only to
float mana is not "a way to pay").  Payments are compared as
:class:`~manasolver.solver.payment.Payment` values with activations in board
order, so two payments differ exactly when their activations, productions,
choices, pool mana used or totals differ.

The moves each permanent (and each card in the hand) offers are listed by
:mod:`brute_moves`; this module announces the cost, assigns units of mana to its symbols
and searches the combinations.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from manasolver.models.abilities import Restriction
from manasolver.models.effects import SpendAs
from manasolver.models.text.hand import HAND_COST
from manasolver.models.state import GameState, Permanent
from manasolver.models.symbols import ANY_COLOR, C, TYPE_BITS, ManaSymbol, mask_letters
from manasolver.solver.payment import Activation, Choice, Payment
from manasolver.solver.request import PaymentRequest, SpellInfo
from brute_moves import Move, moves, sacrifices_legal, taps_legal

MAX_SOURCES = 10


@dataclass(frozen=True)
class Result:
    """Payable or not, every irredundant payment, and the best one under ``criteria``."""

    payable: bool
    payments: frozenset[Payment]
    best: Payment | None
    best_value: tuple[int, ...] | None


def text(bits: Sequence[int]) -> str:
    return "".join("{" + mask_letters(b) + "}" for b in sorted(bits, key=TYPE_BITS.index))


# -- announcement and totals (601.2b, 601.2f) ---------------------------------------------------


@dataclass(frozen=True)
class Total:
    generic: int
    typed: tuple[int, ...]   # one type bit per colored/colorless symbol, sorted
    snow: int
    life: int
    energy: int
    choices: tuple[Choice, ...]

    def text(self) -> str:
        s = ("{" + str(self.generic) + "}") if self.generic else ""
        s += text(self.typed) + "{S}" * self.snow
        return s or "{0}"


def _announcements(req: PaymentRequest, x: int) -> Iterator[Total]:
    base_generic = snow = energy = 0
    typed: list[int] = []
    hybrids: list[ManaSymbol] = []
    for s in req.cost.symbols:
        if s.special == "E":
            energy += 1
        elif s.special:
            continue
        elif s.variable:
            base_generic += x
        elif s.snow:
            snow += 1
        elif s.is_numeral:
            base_generic += s.generic
        elif len(s.ways_to_pay()) > 1:
            hybrids.append(s)
        else:
            typed.append(C if s.colorless else s.colors)
    for m in req.modifiers:
        if m.kind == "increase" and m.cost is not None:
            for s in m.cost.symbols:
                if s.is_numeral:
                    base_generic += s.generic
                else:
                    typed.append(C if s.colorless else s.colors)
    red: list[list[tuple[str, int]]] = []
    for m in req.modifiers:
        if m.kind == "reduce" and m.cost is not None:
            for s in m.cost.symbols:
                ways: list[tuple[str, int]] = []
                if s.is_numeral:
                    ways.append(("g", s.generic))
                elif s.snow:
                    ways.append(("g", 1))
                else:
                    ways += [("t", b) for b in TYPE_BITS[:5] if s.colors & b]
                    if s.colorless:
                        ways.append(("t", C))
                    if s.generic and not s.phyrexian:
                        ways.append(("g", s.generic))
                red.append(ways)
    minimum = max((m.amount for m in req.modifiers if m.kind == "minimum"), default=0)
    for ways in itertools.product(*(h.ways_to_pay() for h in hybrids)):
        g = base_generic
        t = list(typed)
        life = 0
        choices = []
        for h, w in zip(hybrids, ways):
            choices.append(Choice(h.text, w.text))
            if w.kind == "life":
                life += w.amount
            elif w.kind == "generic":
                g += w.amount
            else:
                t.append(w.mask)
        for rways in itertools.product(*red):
            g2, t2 = g, list(t)
            for kind, v in rways:
                if kind == "g":
                    g2 = max(0, g2 - v)
                elif v in t2:
                    t2.remove(v)
                else:
                    g2 = max(0, g2 - 1)
            if g2 + len(t2) + snow < minimum:
                g2 = minimum - len(t2) - snow
            yield Total(g2, tuple(sorted(t2, key=TYPE_BITS.index)), snow, life, energy,
                        tuple(sorted(choices, key=lambda c: (c.symbol, c.paid_as))))


# -- assignment --------------------------------------------------------------------------


def _spend_rules(req: PaymentRequest, ability_of: str | None, spell: bool) -> list[SpendAs]:
    """The "spend mana as though it were …" rules (CR 609.4b) reaching one cost, read from the
    rules text: the player's own ("You may spend …") and every player's ("Players may …"); one
    for spells of some card types only when the spell (``spell``: the total of a named spell)
    has one; one for "~'s abilities" only for the costs of that card's abilities."""
    from manasolver.models.rules.board_effects import active_effects
    out = []
    sp = req.spell
    for source, e in active_effects(req.state):
        if not isinstance(e, SpendAs) or (not e.players and source.controller != req.player):
            continue
        if e.spell_types and not (spell and sp is not None and not sp.ability and e.spell_types & sp.types):
            continue
        if e.own_abilities and ability_of != source.card.name:
            continue
        out.append(e)
    return out


def _may_pay(bit: int, symbol: int, rules: Sequence[SpendAs]) -> bool:
    """May one mana of type ``bit`` pay a symbol paid by the types ``symbol`` (CR 609.4b)?  Its own
    type pays; "spend X mana as though it were Y mana" lets X pay what Y pays ("any color" is
    never colorless, 105.1); Celestial Dawn's "You may spend other mana only as though it were
    colorless mana" lets the other mana pay only what colorless pays."""
    only = [r for r in rules if r.others_only]
    if only and not bit & only[0].spent:
        return bool(symbol & only[0].others_only)
    return bool(bit & symbol) or any(bit & r.spent and symbol & r.as_types for r in rules)


def _allows(r: Restriction | None, spell: SpellInfo | None, has_x: bool, ability_of: Permanent | None,
            has_c: bool = False) -> bool:
    """May mana of restriction ``r`` pay the spell (``spell``, its cost having {X} / {C} as
    ``has_x`` / ``has_c``) or, with ``ability_of``, that permanent's mana ability's cost (CR 106.6)?"""
    if r is None or r.no_generic:  # which symbols it pays: _assign's ok
        return True
    if r.any_of:
        return any(_allows(a, spell, has_x, ability_of, has_c) for a in r.any_of)
    if r.c_only:
        return has_c and ability_of is None  # no mana ability's cost here has {C}
    if ability_of is not None:
        if r.any_ability:
            return True
        if not r.abilities or r.x_only:
            return False
        named = r.spell_types | r.subtypes
        if r.colorless and not named and ability_of.card.colors:
            return False
        return not named or bool(named & (set(ability_of.types) | set(ability_of.card.type_line.subtypes)))
    if spell is None or (r.x_only and not has_x):
        return False
    if spell.ability:
        if r.colorless and spell.colors & ANY_COLOR:
            return False
        named = r.spell_types | r.subtypes
        return r.any_ability or (r.abilities and (not named or bool(named & (spell.types | spell.subtypes))))
    if not r.spells or (r.spell_types and not r.spell_types & spell.types):
        return False
    if r.subtypes and not r.subtypes & spell.subtypes:
        return False
    if r.multicolored and (spell.colors & ANY_COLOR).bit_count() < 2:
        return False
    return not (r.colorless and spell.colors & ANY_COLOR)


@dataclass(frozen=True)
class _U:
    bit: int
    snow: bool
    restriction: Restriction | None
    maker: int  # index into the chosen moves; -1 for the pool


def _assign(units: list[_U], demands: list[tuple[str, int, int]], order: dict[int, int],
            chosen: list[Move], spell: SpellInfo | None, has_x: bool, has_c: bool,
            rules: dict[int, list[SpendAs]] | None = None) -> Iterator[frozenset[int]]:
    """Yield the sets of unit indices used by exact assignments of ``demands``.

    A demand is ``(kind, mask, payer)``: kind ``t`` (a type in mask), ``s`` (snow),
    ``g`` (anything); payer -1 for the spell, else the index of the move whose cost it is;
    ``rules``: per payer, the 609.4b rules reaching its cost.
    """
    used: list[bool] = [False] * len(units)
    seen: set[frozenset[int]] = set()

    def ok(u: _U, d: tuple[str, int, int]) -> bool:
        kind, mask, payer = d
        if payer >= 0:
            # Free activations come first; a costly one only feeds costly ones after it.
            if u.maker == payer or (u.maker in order and order[u.maker] > order[payer]):
                return False
            if not _allows(u.restriction, spell, has_x, chosen[payer].perm, has_c):
                return False
        elif not _allows(u.restriction, spell, has_x, None, has_c):
            return False
        if kind == "t":
            return _may_pay(u.bit, mask, (rules or {}).get(payer, ()))
        if u.restriction is not None and u.restriction.no_generic:
            return False  # "can't be spent to pay generic mana costs"; {S} is generic (CR 107.4h)
        if kind == "s":
            return u.snow
        return True

    def rec(i: int, start: int) -> Iterator[frozenset[int]]:
        if i == len(demands):
            key = frozenset(j for j, b in enumerate(used) if b)
            if key not in seen:
                seen.add(key)
                yield key
            return
        tried: set[_U] = set()
        for j in range(start, len(units)):
            u = units[j]
            if used[j] or u in tried or not ok(u, demands[i]):
                continue
            tried.add(u)  # identical units are interchangeable
            used[j] = True
            # Identical demands are interchangeable too: the next one takes a later unit.
            same = i + 1 < len(demands) and demands[i + 1] == demands[i]
            yield from rec(i + 1, j + 1 if same else 0)
            used[j] = False

    yield from rec(0, 0)


def _pays(req: PaymentRequest, total: Total, chosen: list[Move], pool: list[int]
          ) -> Iterator[tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]]:
    """Yield (pool bits used, floating bits, an order of the mana-costing moves that works) for
    every exact payment with these moves."""
    me = req.state.player(req.player)
    has_x = bool(req.cost.variables)
    has_c = req.cost.has_colorless
    life_costs = sum(m.ability.cost.life for m in chosen)
    damage = sum(m.ability.damage for m in chosen)
    energy = total.energy + sum(m.ability.cost.energy for m in chosen)
    if life_costs > me.life or energy > me.energy:
        return
    if total.life and me.life - life_costs - damage < total.life:
        return  # 119.4: damage and ability life happen in 601.2g, before 601.2h
    units = [_U(b, False, None, -1) for b in pool]
    for i, m in enumerate(chosen):
        plain = Counter(m.nonsnow)
        for b in m.mana:
            snow = m.perm.is_snow and not plain[b]
            if plain[b]:
                plain[b] -= 1
            units.append(_U(b, snow, m.restriction, i))
    demands: list[tuple[str, int, int]] = [("t", b, -1) for b in sorted(total.typed)]
    demands += [("s", 0, -1)] * total.snow + [("g", 0, -1)] * total.generic
    costly = [i for i, m in enumerate(chosen) if m.costs_mana]
    for i in costly:
        for s in chosen[i].ability.cost.mana.symbols:
            if s.is_numeral:
                demands += [("g", 0, i)] * s.generic
            elif s.special:
                continue
            else:
                demands.append(("t", s.colors | (C if s.colorless else 0), i))
    if len(demands) > len(units):
        return
    found: set[tuple[tuple[int, ...], tuple[int, ...]]] = set()
    sp = req.spell
    rules = {-1: _spend_rules(req, sp.card.name if sp is not None and sp.ability and sp.card else None, True)}
    for i in costly:
        rules[i] = _spend_rules(req, chosen[i].perm.card.name, False)
    for perm_order in itertools.permutations(costly):
        order = {i: k for k, i in enumerate(perm_order)}
        for used in _assign(units, demands, order, chosen, req.spell, has_x, has_c, rules):
            pool_used = tuple(sorted((units[j].bit for j in used if units[j].maker < 0), key=TYPE_BITS.index))
            floating = tuple(sorted((u.bit for j, u in enumerate(units) if j not in used and u.maker >= 0),
                                    key=TYPE_BITS.index))
            key = (pool_used, floating)
            if key not in found:
                found.add(key)
                yield pool_used, floating, perm_order


# -- the search ---------------------------------------------------------------------------


def _criteria(p: Payment, req: PaymentRequest, criteria: Sequence[str]) -> tuple[int, ...]:
    """Criterion values of solver.policy.CRITERIA, computed from the payment."""
    state = req.state
    pool_total = sum(s.generic if s.is_numeral else 1 for s in state.player(req.player).pool.symbols)
    out = []
    for c in criteria:
        if c == "no_sacrifice":  # permanents sacrificed and cards exiled from the hand
            out.append(sum(1 for a in p.activations if "sacrifice" in a.costs or a.hand is not None)
                       + sum(len(a.sacrificed) for a in p.activations))
        elif c == "min_life":
            out.append(p.life + p.damage)
        elif c == "min_waste":
            out.append(len(p.floating) // 3)
        elif c == "prefer_lands":
            out.append(sum(1 for a in p.activations
                           if a.hand is not None or not state.permanent(a.permanent).is_land))
        elif c == "min_sources":
            out.append(len(p.activations))
        elif c == "use_pool":
            out.append(pool_total - len(p.pool_used) // 3)
        elif c == "min_energy":
            out.append(p.energy)
        elif c == "keep_colors":
            # Colors the permanents left untapped could still make (solver.policy: "no longer
            # producible by what stays untapped"), as solver.keepable states it: a
            # cost-free activation, or a converter (its mana cost one colored or {C} symbol,
            # all of a permanent's converters asking the same) paid along a chain of other
            # untapped permanents that starts from a cost-free activation of a permanent
            # without a converter.  Searched over sequences of activations, not a fixpoint.
            # The card being cast is on the stack (601.2a): it keeps no color, before or after.
            used = ({a.permanent if a.hand is None else f"hand:{a.hand}" for a in p.activations}
                    | {s for a in p.activations for s in a.sacrificed + a.tapped})
            cast = req.spell.card.name if req.spell and req.spell.card and not req.spell.ability else ""
            out.append((_keepable_colors(state, req.player, frozenset(), cast)
                        & ~_keepable_colors(state, req.player, frozenset(used), cast)).bit_count())
        elif c == "keep_castable":
            if state.player(req.player).hand or req.policy.keep_castable:
                raise ValueError("brute force does not compute keep_castable")
            out.append(0)
        else:
            raise ValueError(f"brute force has no criterion {c!r}")
    return tuple(out)


def _converter_symbol(m: Move) -> int:
    """The one symbol a converter move's mana cost asks for (a type mask), 0 for other moves."""
    syms = [y for y in m.ability.cost.mana.symbols if not y.special]
    if len(syms) != 1 or m.sacrificed or m.tapped:
        return 0
    y = syms[0]
    if y.is_numeral and y.generic == 1:
        return ANY_COLOR | C  # Study Hall's {1}: any mana pays it
    if y.is_numeral or y.phyrexian or y.snow or y.variable or y.generic:
        return 0
    return (y.colors & ANY_COLOR) | (C if y.colorless else 0)


def _pays_abilities(r: Restriction | None) -> bool:
    """May mana with restriction ``r`` pay every activated ability's mana cost (CR 106.6)?  Not
    mana for the abilities of some types or subtypes only, nor mana "only on costs that contain
    {X}" (no mana ability's cost here has {X})."""
    return r is None or r.any_ability or (r.abilities and not (r.spell_types or r.subtypes or r.x_only))


def _keepable_colors(state: GameState, player: str, gone: frozenset[str], cast: str = "") -> int:
    """The colors the permanents (and cards in hand) not in ``gone`` could make (see keep_colors
    in _criteria), the card ``cast`` being cast left out, by a search over what the pool can hold
    as they activate."""
    perms: list[tuple[list[Move], list[Move], bool]] = []  # free moves, converter moves, starter
    for ms in moves(state, player, cast):
        if not ms or ms[0].perm.id in gone:
            continue
        free = [m for m in ms if m.mana and not m.costs_mana and not m.sacrificed and not m.tapped]
        conv = [m for m in ms if m.costs_mana and _converter_symbol(m)]
        starter = len({_converter_symbol(m) for m in conv}) != 1
        perms.append((free, [] if starter else conv, starter))
    colors = 0
    for free, _conv, _starter in perms:
        for m in free:
            colors |= sum(set(m.mana)) & ANY_COLOR
    # Which types can be in the pool at some point, activating the permanents one after
    # another: firing a permanent again never adds a type its first firing did not, so the
    # search is over the set of types reachable (at most 64 states).
    seen: set[int] = set()

    def walk(fed: int) -> None:
        nonlocal colors
        if fed in seen:
            return
        seen.add(fed)
        for free, conv, starter in perms:
            if starter:
                for m in free:
                    if _pays_abilities(m.restriction):
                        walk(fed | sum(set(m.mana)))
            for m in conv:
                if _converter_symbol(m) & fed:
                    colors |= sum(set(m.mana)) & ANY_COLOR
                    walk(fed | (sum(set(m.mana)) if _pays_abilities(m.restriction) else 0))

    walk(0)
    return colors


def weighted(p: Payment, req: PaymentRequest, weights: Sequence[tuple[str, int]]) -> tuple[int, ...]:
    """A caller's weights: one value, the weighted sum of the criteria."""
    vals = _criteria(p, req, [n for n, _ in weights])
    return (sum(w * v for (_, w), v in zip(weights, vals)),)


def value(p: Payment, req: PaymentRequest, criteria: Sequence[str]) -> tuple[int, ...]:
    """The criterion vector of a payment (public: tests compare other backends' answers)."""
    return _criteria(p, req, criteria)


def brute(req: PaymentRequest, criteria: Sequence[str] = ("min_life", "min_waste", "min_sources"),
          enumerate_all: bool = True, irredundant: bool = True,
          weights: Sequence[tuple[str, int]] = ()) -> Result:
    """Solve ``req`` by trying everything (see the module docstring).  ``irredundant=False``
    lists every legal payment, activations that only float mana included (for testing
    the validator)."""
    state = req.state
    cast = req.spell.card.name if req.spell and req.spell.card and not req.spell.ability else ""
    act = req.activation
    reserved = frozenset({act.permanent.id}) if (act is not None and act.permanent is not None and act.ability.cost
                                                 and act.ability.cost.sacrifice_self) else frozenset()
    all_moves = moves(state, req.player, cast, reserved)
    if len(all_moves) > MAX_SOURCES:
        raise ValueError(f"brute force takes at most {MAX_SOURCES} sources, not {len(all_moves)}")
    me = state.player(req.player)
    pool: list[int] = []
    for s in me.pool.symbols:
        pool += [C] * s.generic if s.is_numeral else [C if s.colorless else s.colors]
    x = req.x or 0
    totals = list(dict.fromkeys(_announcements(req, x)))
    payments: set[Payment] = set()
    best: Payment | None = None
    best_v: tuple[int, ...] | None = None
    for total in totals:
        need = total.generic + len(total.typed) + total.snow
        for combo in itertools.product(*([None, *ms] for ms in all_moves)):
            chosen = [m for m in combo if m is not None]
            if irredundant and len(chosen) > need + sum(_units(m) for m in chosen):
                continue  # more activations than units spent: some activation is redundant
            if not sacrifices_legal(chosen) or not taps_legal(chosen):
                continue
            for pool_used, floating, costly_order in _pays(req, total, chosen, pool):
                if irredundant and not _irredundant(req, total, chosen, pool_used):
                    continue
                p = _payment(req, total, chosen, pool_used, floating, x, costly_order)
                if p in payments:
                    continue
                payments.add(p)
                v = ((weighted(p, req, weights) if weights else _criteria(p, req, criteria))
                     + (sum(m.position for m in chosen),))
                if best_v is None or v < best_v:
                    best, best_v = p, v
                if not enumerate_all:
                    return Result(True, frozenset(payments), best, best_v)
    return Result(bool(payments), frozenset(payments), best, best_v[:-1] if best_v else None)


def _units(m: Move) -> int:
    return sum(s.generic if s.is_numeral else 1 for s in m.ability.cost.mana.symbols if not s.special)


def canon(p: Payment) -> tuple[object, ...]:
    """A payment as a comparable value: order of activations and choices ignored,
    mana strings as sorted type multisets (so any backend's writing compares)."""
    def bag(t: str) -> tuple[str, ...]:
        return tuple(sorted(t.replace("}", "").split("{")[1:]))
    acts = tuple(sorted((a.permanent, a.ability, bag(a.mana), a.times, tuple(sorted(a.sacrificed)),
                         -1 if a.hand is None else a.hand, tuple(sorted(a.tapped))) for a in p.activations))
    choices = tuple(sorted((c.symbol, c.paid_as) for c in p.choices))
    return (bag(p.total if p.total != "{0}" else ""), choices, p.x, acts, bag(p.pool_used), p.life,
            p.energy, p.damage, bag(p.floating), p.convoked, p.delved, p.improvised)


def _irredundant(req: PaymentRequest, total: Total, chosen: list[Move], pool_used: tuple[int, ...]) -> bool:
    want = Counter(pool_used)
    for i in range(len(chosen)):
        rest = chosen[:i] + chosen[i + 1:]
        for pu, _fl, _order in _pays(req, total, rest, list(pool_used)):
            if Counter(pu) == want:
                return False
    return True


def _payment(req: PaymentRequest, total: Total, chosen: list[Move], pool_used: tuple[int, ...],
             floating: tuple[int, ...], x: int, costly_order: tuple[int, ...] = ()) -> Payment:
    """The payment of these moves, in an order that can be carried out (CR 605.3a): the moves
    without a mana cost in board order, then those with one in ``costly_order`` (indices into
    ``chosen``), the order the assignment of units to demands used."""
    rank = {i: k for k, i in enumerate(costly_order)}
    ordered = sorted(range(len(chosen)), key=lambda i: (i in rank, rank.get(i, 0), chosen[i].position))
    acts = tuple(Activation(m.perm.id, m.ability.index,
                            m.parts if m.parts is not None else tuple(m.ability.cost.parts()), text(m.mana),
                            sacrificed=(m.sacrificed,) if m.sacrificed else (), tapped=m.tapped)
                 if m.hand < 0 else
                 Activation("", m.ability.index, (HAND_COST,), text(m.mana), hand=m.hand, card=m.perm.card.name)
                 for m in (chosen[i] for i in ordered))
    return Payment(
        total=total.text(), choices=total.choices, x=x, activations=acts, pool_used=text(pool_used),
        life=total.life + sum(m.ability.cost.life for m in chosen),
        energy=total.energy + sum(m.ability.cost.energy for m in chosen),
        damage=sum(m.ability.damage for m in chosen), floating=text(floating))
