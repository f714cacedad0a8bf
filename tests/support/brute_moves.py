"""The moves of the brute force: every activation each permanent could make, and the fodder,
hand and tapping slots, written from the rules (see :mod:`brute`).

"Sacrifice a creature/artifact: add …" (Ashnod's Altar, Krark-Clan Ironworks; CR 118.3,
701.21a): every permanent the player controls of that type is a *fodder slot*: nothing,
or one activation of one such ability that sacrifices it (so each permanent is
sacrificed once, and an Altar activates as often as it has fodder).  A permanent that
sacrificed itself (Treasure) can't be sacrificed again; one tapped for mana first may
(605.3a); an activation that sacrifices a permanent comes after that permanent's own
activations, so sacrifices that need each other first are refused (circular).

A card in the hand with "Exile ~ from your hand: Add …" (Simian Spirit Guide, 602.2a)
is a slot too: nothing, or its one activation (the card is exiled).  Every card of the hand
(but the card being cast, 601.2a) is also a fodder slot of "Discard a card" / "Exile a card from
your hand" abilities (Skirge Familiar, Cadaverous Bloom; 701.9a), in the same slot as its own
exile, and every card of the graveyard one of "Exile a card from your graveyard".

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
from collections.abc import Sequence
from dataclasses import dataclass, replace

from manasolver.models.abilities import ManaAbility, Restriction
from manasolver.models.rules.amounts import ability_restriction
from manasolver.models.rules.granted import summoning_sick
from manasolver.models.rules.board_effects import prohibited
from manasolver.models.rules.production import (
    TriggeredMana,
    activation_results,
    active_effects,
)
from manasolver.models.state import GameState, Permanent
from manasolver.models.symbols import TYPE_BITS
from manasolver.models.abilities import GRAVEYARD_CARD, HAND_CARD
from manasolver.models.text.hand import hand_abilities
from manasolver.models.text.tap_costs import tap_costs_after
from manasolver.solver.graph import abilities_of, could_produce, reference_mask

__all__ = ["Move", "moves", "sacrifices_legal", "taps_legal"]


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



def _concrete(slots: Sequence[int]) -> set[tuple[int, ...]]:
    choices = [[b for b in TYPE_BITS if s & b] for s in slots]
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
        if not prohibited(state, perm):  # CR 602.5 stops them too (Null Rod on Diamond Kaleidoscope)
            readings += [(t.ability, t.types, t.count, t.parts) for t in tap_costs_after(perm.card, len(base))]
        if perm.controller != me.name or not readings:
            continue
        sick = summoning_sick(state, perm)
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
            # What one activation adds now: the board-effect models (board-read options,
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
                        results.add((tuple(sorted(own + extra, key=TYPE_BITS.index)), extra))
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
        # Or discarded / exiled by a cost ("Discard a card: Add {B}.", 701.9a), not both (118.3).
        slot += [replace(m, sacrificed=f"hand:{i}") for what, ms in altars if what == HAND_CARD for m in ms]
        if slot:
            out.append(slot)
    for i in range(len(me.graveyard)):  # "Exile a card from your graveyard: Add {C}.": once each
        slot = [replace(m, sacrificed=f"graveyard:{i}") for what, ms in altars if what == GRAVEYARD_CARD for m in ms]
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

