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

"Sacrifice a creature/artifact: add …" (Ashnod's Altar, Krark-Clan Ironworks; CR 118.3,
701.21a): every permanent the player controls of that type is a *fodder slot*: nothing,
or one activation of one such ability that sacrifices it (so each permanent is
sacrificed once, and an Altar activates as often as it has fodder).  A permanent that
sacrificed itself (Treasure) can't be sacrificed again; one tapped for mana first may
(605.3a); an activation that sacrifices a permanent comes after that permanent's own
activations, so sacrifices that need each other first are refused (circular).

A card in the hand with "Exile ~ from your hand: Add …" (Simian Spirit Guide, 602.2a)
is a slot too: nothing, or its one activation (the card is exiled).

"Tap an untapped <type> you control" (Springleaf Drum, Heritage Druid, Urza): a {T}
ability lists one move per group of permanents it may tap; a repeatable one gets a slot
per activation it could make.  Each permanent taps once (its own {T} or one cost);
tapping it for a cost and then sacrificing it is legal.

Limits, stated: at most one activation per permanent (plus its fodder and tapping
slots); no convoke, delve or improvise; a sacrifice cost must be the ability's only
cost and sacrifice one permanent, and its fodder must not have a usable mana ability
that costs mana (the solvers exclude that case too); triggered mana from a snow source
is refused.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace

from manasolver.models.abilities import ManaAbility, Restriction
from manasolver.models.rules.amounts import ability_restriction
from manasolver.models.text.hand import HAND_COST, hand_abilities
from manasolver.models.rules.production import (
    TriggeredMana,
    activation_results,
    active_effects,
)
from manasolver.models.state import GameState, Permanent
from manasolver.models.symbols import ANY_COLOR, C, ManaSymbol, mask_letters
from manasolver.models.text.tap_costs import tap_costs_after
from manasolver.solver.graph import abilities_of, could_produce, reference_mask
from manasolver.solver.payment import Activation, Choice, Payment
from manasolver.solver.request import PaymentRequest, SpellInfo

MAX_SOURCES = 10
TYPES = (1, 2, 4, 8, 16, 32)


@dataclass(frozen=True)
class Move:
    """One activation: permanent, ability, concrete mana (type bits), and its costs."""

    perm: Permanent
    position: int
    ability: ManaAbility
    mana: tuple[int, ...]
    restriction: Restriction | None = None
    sacrificed: str = ""
    hand: int = -1  # a card in the hand (Simian Spirit Guide): its index; ``perm`` stands in for it
    tapped: tuple[str, ...] = ()  # permanents its cost tapped (Springleaf Drum, Heritage Druid)
    parts: tuple[str, ...] | None = None  # cost parts when not the ability's own (tap-cost readings)
    slot: int = 0  # which activation of a repeatable tapping ability (Heritage Druid) it is
    nonsnow: tuple[int, ...] = ()  # units of ``mana`` from triggered mana (Wild Growth): not snow

    @property
    def costs_mana(self) -> bool:
        return bool(self.ability.cost.mana)


@dataclass(frozen=True)
class Result:
    """Payable or not, every irredundant payment, and the best one under ``criteria``."""

    payable: bool
    payments: frozenset[Payment]
    best: Payment | None
    best_value: tuple[int, ...] | None


def text(bits: Sequence[int]) -> str:
    return "".join("{" + mask_letters(b) + "}" for b in sorted(bits, key=TYPES.index))


# -- moves --------------------------------------------------------------------------------


def _concrete(slots: Sequence[int]) -> set[tuple[int, ...]]:
    choices = [[b for b in TYPES if s & b] for s in slots]
    return {tuple(sorted(c)) for c in itertools.product(*choices)}


def _is_a(perm: Permanent, what: str) -> bool:
    """Has ``perm`` the type or subtype ``what``?  (Card types from its current types.)"""
    if what in ("artifact", "creature", "land", "enchantment", "planeswalker", "battle"):
        return what in perm.types
    return perm.card.type_line.has(what)


def moves(state: GameState, player: str, cast: str = "", reserved: frozenset[str] = frozenset()) -> list[list[Move]]:
    """For each permanent of ``player`` with a mana ability, its possible activations; then
    for each permanent some "sacrifice a <type>" ability could take, its fodder slot."""
    me = state.player(player)
    cp = could_produce(state, strict=False)
    out: list[list[Move]] = []
    altars: list[tuple[str, list[Move]]] = []  # (type sacrificed, activations without fodder)
    tappers: list[tuple[tuple[str, ...], int, list[Move]]] = []  # repeatable: types, count, moves
    for pos, perm in enumerate(state.battlefield):
        base = abilities_of(state, perm)
        readings = [(ab, ("creature",), ab.cost.tap_creatures, None) for ab in base]
        readings += [(t.ability, t.types, t.count, t.parts) for t in tap_costs_after(perm.card, len(base))]
        if perm.controller != me.name or not readings:
            continue
        sick = perm.sick and perm.is_creature and not perm.has_haste
        mine: list[Move] = []
        for ab, tap_types, tap_n, parts in readings:
            cost = ab.cost
            if cost.tap and (perm.tapped or sick):
                continue  # 107.5, 302.6
            if cost.untap and (not perm.tapped or sick):
                continue  # 107.6
            if cost.life > me.life or cost.energy > me.energy:
                continue  # 119.4, 107.14
            if any(perm.counter(k) < n for k, n in cost.remove_counters):
                continue
            if cost.sacrifice and (len(cost.sacrifice) > 1 or cost.tap or cost.untap or cost.mana
                                   or cost.life or cost.energy or cost.sacrifice_self):
                raise NotImplementedError("brute force: a sacrifice cost with other costs")
            # What one activation adds now: A's board-effect models (board-read options,
            # replacement effects in every order, triggered mana), then every type per slot.
            ref = reference_mask(state, perm, ab, cp) if ab.production.reference else 0
            got = activation_results(state, perm, ab, reference_mask=ref)
            if got is None:
                continue  # its activation condition is false (602.5b)
            # Triggered mana (Wild Growth, Mana Flare) comes from the trigger's source, a nonsnow
            # Aura or enchantment (107.4h): kept apart so that it never pays {S}.
            if any(res.extra for res in got) and any(
                    src.is_snow for src, eff in active_effects(state) if isinstance(eff, TriggeredMana)):
                raise NotImplementedError("brute force: triggered mana from a snow source")
            results: set[tuple[tuple[int, ...], tuple[int, ...]]] = set()
            for res in got:
                for own in _concrete(tuple(res.mana)):
                    for extra in _concrete(tuple(res.extra)):
                        results.add((tuple(sorted(own + extra, key=TYPES.index)), extra))
            if not got:
                results = {((), ())}
            restriction = ability_restriction(ab, perm)
            these = [Move(perm, pos, ab, mana, restriction, parts=parts, nonsnow=extra)
                     for mana, extra in sorted(results)]
            if cost.sacrifice:
                altars.append((cost.sacrifice[0], these))
            elif tap_n and (cost.tap or cost.untap):  # Springleaf Drum: one activation, with its taps
                mine.extend(replace(m, tapped=group) for m in these
                            for group in itertools.combinations(_tappable(state, me.name, tap_types), tap_n))
            elif tap_n:
                tappers.append((tap_types, tap_n, these))
            else:
                mine.extend(these)
        out.append(mine)
    for tap_types, tap_n, these in tappers:  # Heritage Druid: as many activations as triples
        able = _tappable(state, me.name, tap_types)
        groups = list(itertools.combinations(able, tap_n))
        for k in range(len(able) // tap_n):
            out.append([replace(m, tapped=group, slot=k) for m in these for group in groups])
    skip = next((i for i, c in enumerate(me.hand) if c.name.lower() == cast.lower()), -1) if cast else -1
    for i, c in enumerate(me.hand):  # "Exile ~ from your hand: Add {R}." (602.2a): once each
        if i == skip:
            continue  # the card being cast is on the stack (601.2a): its first copy, by convention
        stand_in = Permanent(f"hand:{i}", c, me.name)
        slot = [Move(stand_in, len(state.battlefield) + i, ab, mana, None, hand=i)
                for ab in hand_abilities(c) for opt in ab.production.options for mana in sorted(_concrete(opt))]
        if slot:
            out.append(slot)
    costly = {m.perm.id for ms in out for m in ms if m.costs_mana}  # activations it could make now
    if altars:
        for pos, perm in enumerate(state.battlefield):
            if perm.controller != me.name or perm.id in reserved:
                continue  # an ability being paid for that sacrifices its source keeps it (601.2h)
            slot = [replace(m, sacrificed=perm.id) for what, ms in altars if _is_a(perm, what) for m in ms]
            if not slot:
                continue
            if perm.id in costly:
                raise NotImplementedError("brute force: sacrificing a permanent whose ability costs mana")
            out.append(slot)
    return out


def _tappable(state: GameState, me: str, types: tuple[str, ...]) -> list[str]:
    """Ids of the untapped permanents ``me`` controls with one of ``types`` (summoning sick
    ones included: CR 302.6 restricts only a creature's own {T} abilities)."""
    return [p.id for p in state.battlefield
            if p.controller == me and not p.tapped and any(_is_a(p, t) for t in types)]


def taps_legal(chosen: Sequence[Move]) -> bool:
    """Each permanent tapped once: by its own {T} ability or for one cost; the activations of
    one repeatable tapping ability listed once (slots filled in order, groups increasing)."""
    seen: set[str] = set()
    for m in chosen:
        for pid in m.tapped + ((m.perm.id,) if m.ability.cost.tap else ()):
            if pid in seen:
                return False
            seen.add(pid)
    last: dict[tuple[str, int], tuple[int, tuple[str, ...]]] = {}
    for m in chosen:
        if m.tapped and not (m.ability.cost.tap or m.ability.cost.untap):
            key = (m.perm.id, m.ability.index)
            prev = last.get(key, (-1, ()))
            if m.slot != prev[0] + 1 or (prev[1] and m.tapped <= prev[1]):
                return False
            last[key] = (m.slot, m.tapped)
    return True


def sacrifices_legal(chosen: Sequence[Move]) -> bool:
    """No permanent sacrificed twice (by itself and by an Altar), and an order exists where
    each sacrificed permanent's own activations come before the activation sacrificing it."""
    gone = [m.sacrificed for m in chosen if m.sacrificed]
    if not gone:
        return True
    if any(m.ability.cost.sacrifice_self and m.perm.id in gone for m in chosen):
        return False
    # Repeatedly take an activation whose prerequisites are taken (Kahn).
    left = list(range(len(chosen)))
    while left:
        for i in left:
            m = chosen[i]
            if not m.sacrificed or all(j == i or j not in left or chosen[j].perm.id != m.sacrificed
                                       for j in range(len(chosen))):
                left.remove(i)
                break
        else:
            return False
    return True


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
                    ways += [("t", b) for b in TYPES[:5] if s.colors & b]
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
            yield Total(g2, tuple(sorted(t2, key=TYPES.index)), snow, life, energy,
                        tuple(sorted(choices, key=lambda c: (c.symbol, c.paid_as))))


# -- assignment --------------------------------------------------------------------------


def _allows(r: Restriction | None, spell: SpellInfo | None, has_x: bool, ability_of: Permanent | None) -> bool:
    if r is None:
        return True
    if ability_of is not None:
        return r.any_ability or (r.abilities and (not r.spell_types or bool(r.spell_types & set(ability_of.types))))
    if spell is None or (r.x_only and not has_x):
        return False
    if spell.ability:
        return r.any_ability or (r.abilities and (not r.spell_types or bool(r.spell_types & spell.types)))
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
            chosen: list[Move], spell: SpellInfo | None, has_x: bool) -> Iterator[frozenset[int]]:
    """Yield the sets of unit indices used by exact assignments of ``demands``.

    A demand is ``(kind, mask, payer)``: kind ``t`` (a type in mask), ``s`` (snow),
    ``g`` (anything); payer -1 for the spell, else the index of the move whose cost it is.
    """
    used: list[bool] = [False] * len(units)
    seen: set[frozenset[int]] = set()

    def ok(u: _U, d: tuple[str, int, int]) -> bool:
        kind, mask, payer = d
        if payer >= 0:
            # Free activations come first; a costly one only feeds costly ones after it.
            if u.maker == payer or (u.maker in order and order[u.maker] > order[payer]):
                return False
            if not _allows(u.restriction, spell, has_x, chosen[payer].perm):
                return False
        elif not _allows(u.restriction, spell, has_x, None):
            return False
        if kind == "t":
            return bool(u.bit & mask)
        if kind == "s":
            return u.snow
        return True

    def rec(i: int) -> Iterator[frozenset[int]]:
        if i == len(demands):
            key = frozenset(j for j, b in enumerate(used) if b)
            if key not in seen:
                seen.add(key)
                yield key
            return
        tried: set[_U] = set()
        for j, u in enumerate(units):
            if used[j] or u in tried or not ok(u, demands[i]):
                continue
            tried.add(u)  # identical units are interchangeable
            used[j] = True
            yield from rec(i + 1)
            used[j] = False

    yield from rec(0)


def _pays(req: PaymentRequest, total: Total, chosen: list[Move], pool: list[int]
          ) -> Iterator[tuple[tuple[int, ...], tuple[int, ...]]]:
    """Yield (pool bits used, floating bits) for every exact payment with these moves."""
    me = req.state.player(req.player)
    has_x = bool(req.cost.variables)
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
    demands: list[tuple[str, int, int]] = [("t", b, -1) for b in total.typed]
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
    for perm_order in itertools.permutations(costly):
        order = {i: k for k, i in enumerate(perm_order)}
        for used in _assign(units, demands, order, chosen, req.spell, has_x):
            pool_used = tuple(sorted((units[j].bit for j in used if units[j].maker < 0), key=TYPES.index))
            floating = tuple(sorted((u.bit for j, u in enumerate(units) if j not in used and u.maker >= 0),
                                    key=TYPES.index))
            key = (pool_used, floating)
            if key not in found:
                found.add(key)
                yield key


# -- the search ---------------------------------------------------------------------------


def _criteria(p: Payment, req: PaymentRequest, criteria: Sequence[str]) -> tuple[int, ...]:
    """Criterion values of SPEC §6 / solver.policy.CRITERIA, computed from the payment."""
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
            # Colors some cost-free activation of a permanent could make now, lost because every
            # permanent that could make them was activated (solver.policy: "no longer producible
            # by what stays untapped").
            colors: dict[str, int] = {}
            for ms in moves(state, req.player):
                for m in ms:
                    if m.mana and not m.costs_mana and not m.sacrificed and not m.tapped:
                        colors[m.perm.id] = colors.get(m.perm.id, 0) | (sum(set(m.mana)) & ANY_COLOR)
            used = ({a.permanent if a.hand is None else f"hand:{a.hand}" for a in p.activations}
                    | {s for a in p.activations for s in a.sacrificed + a.tapped})
            before = after = 0
            for pid, mask in colors.items():
                before |= mask
                if pid not in used:
                    after |= mask
            out.append((before & ~after).bit_count())
        elif c == "keep_castable":
            if state.player(req.player).hand or req.policy.keep_castable:
                raise ValueError("brute force does not compute keep_castable")
            out.append(0)
        else:
            raise ValueError(f"brute force has no criterion {c!r}")
    return tuple(out)


def weighted(p: Payment, req: PaymentRequest, weights: Sequence[tuple[str, int]]) -> tuple[int, ...]:
    """A caller's weights (SPEC §6): one value, the weighted sum of the criteria."""
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
            for pool_used, floating in _pays(req, total, chosen, pool):
                if irredundant and not _irredundant(req, total, chosen, pool_used):
                    continue
                p = _payment(req, total, chosen, pool_used, floating, x)
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
        for pu, _fl in _pays(req, total, rest, list(pool_used)):
            if Counter(pu) == want:
                return False
    return True


def _payment(req: PaymentRequest, total: Total, chosen: list[Move], pool_used: tuple[int, ...],
             floating: tuple[int, ...], x: int) -> Payment:
    acts = tuple(Activation(m.perm.id, m.ability.index,
                            m.parts if m.parts is not None else tuple(m.ability.cost.parts()), text(m.mana),
                            sacrificed=(m.sacrificed,) if m.sacrificed else (), tapped=m.tapped)
                 if m.hand < 0 else
                 Activation("", m.ability.index, (HAND_COST,), text(m.mana), hand=m.hand, card=m.perm.card.name)
                 for m in sorted(chosen, key=lambda m: m.position))
    return Payment(
        total=total.text(), choices=total.choices, x=x, activations=acts, pool_used=text(pool_used),
        life=total.life + sum(m.ability.cost.life for m in chosen),
        energy=total.energy + sum(m.ability.cost.energy for m in chosen),
        damage=sum(m.ability.damage for m in chosen), floating=text(floating))
