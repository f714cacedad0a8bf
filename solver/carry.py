"""Carrying a payment out on a board: what it taps, sacrifices, exiles, discards and spends.

A PAYMENT says what the player does; :func:`effects_of` reads what that does to the board as one
:class:`Effects` value: permanents tapped (an ability's ``{T}``, the permanents its cost taps,
creatures convoked, artifacts improvised), untapped (``{Q}``), gone (sacrificed: CR 701.21a),
counters removed (storage lands, Gemstone Mine), cards leaving the hand (Simian Spirit Guide
exiled, a hand discarded by Lion's Eye Diamond) and the graveyard (delve), the life lost (life
paid, CR 119.4, and damage dealt by the sources, pain lands), the energy paid, and the pool
after it (the pool less the mana used, plus the mana left floating).  Two writers share it:
:func:`carried` gives the :class:`~manasolver.models.state.GameState` after (the manual
payment's board, one activation at a time) and :func:`changes` the session CHANGEs that make it
on a kept board (``"apply": true``).  Effects of a mana ability other than its costs and mana
(a card drawn, a counter put) are not carried out.
"""

from __future__ import annotations

import dataclasses
import re
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from manasolver.models.cost import ManaCost
from manasolver.models.state import GameState, Permanent, Player
from manasolver.models.symbols import TYPE_BITS, type_bit

__all__ = ["ANY_COUNTERS", "Effects", "any_counters_kind", "carried", "changes", "effects_of", "excluded_board",
           "pool_text", "removed_for"]

_REMOVE = re.compile(r"^remove (\d+) (.+?) counters?$")
#: How a cost part that removes any number of counters of a kind begins (storage lands, CR 107.3):
#: ``remove any number of storage counters``.
ANY_COUNTERS = "remove any number of "


@dataclass
class Effects:
    """What carrying out a payment does to the board (see the module docstring)."""

    player: str
    tapped: list[str] = field(default_factory=list)
    untapped: list[str] = field(default_factory=list)
    gone: list[str] = field(default_factory=list)
    counters: Counter[tuple[str, str]] = field(default_factory=Counter)
    hand_gone: list[int] = field(default_factory=list)
    discard_hand: bool = False
    graveyard_gone: list[str] = field(default_factory=list)
    life: int = 0
    energy: int = 0
    pool: str = ""


def _units(text: str) -> Counter[int]:
    """The mana a text such as ``{U}{R}`` names, per type bit (generic numerals as colorless)."""
    out: Counter[int] = Counter()
    for sym in ManaCost.parse(text, allow_empty=True).symbols if text else ():
        if sym.is_numeral:
            out[type_bit("C")] += sym.generic
        else:
            out[sym.colors or type_bit("C")] += 1
    return out


def pool_text(units: Counter[int]) -> str:
    """Mana per type bit as text, in WUBRGC order."""
    return "".join("{" + "WUBRGC"[TYPE_BITS.index(b)] + "}" for b in TYPE_BITS for _ in range(units[b]))


def effects_of(state: GameState, player: str, payment: dict[str, Any]) -> Effects:
    """What carrying out ``payment`` (a PAYMENT object) does on ``state`` for ``player``."""
    out = Effects(player)
    for act in payment.get("activations", []):
        times = int(act.get("times", 1))
        pid = act.get("permanent", "")
        costs = list(act.get("costs", []))
        if "hand" in act:
            out.hand_gone.append(int(act["hand"]))
        for cost in costs:
            if cost == "{T}":
                out.tapped.append(pid)
            elif cost == "{Q}":
                out.untapped.append(pid)
            elif cost == "sacrifice":
                out.gone.append(pid)
            elif cost == "discard your hand":
                out.discard_hand = True
            elif cost.startswith(ANY_COUNTERS):
                removed = removed_for(state, pid, int(act.get("ability", 0)), _units(str(act.get("mana", ""))), times)
                out.counters[(pid, any_counters_kind(cost))] += removed
            else:
                m = _REMOVE.match(cost)
                if m:
                    out.counters[(pid, m.group(2))] += int(m.group(1)) * times
        out.gone.extend(s for s in act.get("sacrificed", []) if not s.startswith("hand:"))
        out.hand_gone.extend(int(s[5:]) for s in act.get("sacrificed", []) if s.startswith("hand:"))
        out.tapped.extend(act.get("tapped", []))
    out.tapped.extend(payment.get("convoked", []))
    out.tapped.extend(payment.get("improvised", []))
    out.graveyard_gone.extend(payment.get("delved", []))
    out.life = int(payment.get("life", 0)) + int(payment.get("damage", 0))
    out.energy = int(payment.get("energy", 0))
    left = _units(state.player(player).pool.format() if state.player(player).pool.symbols else "")
    left.subtract(_units(payment.get("pool_used", "")))
    left.update(_units(payment.get("floating", "")))
    out.pool = pool_text(+left)
    return out


def any_counters_kind(cost: str) -> str:
    """The kind of counter a cost part beginning with :data:`ANY_COUNTERS` removes
    (``"storage"`` of ``remove any number of storage counters``)."""
    return cost[len(ANY_COUNTERS):-len(" counters")]


def removed_for(state: GameState, pid: str, ability: int, units: Counter[int], times: int) -> int:
    """How many counters ``times`` activations of the permanent ``pid``'s mana ability ``ability``,
    whose cost removes any number of them (storage lands, CR 107.3), removed to add ``units`` (mana
    per type bit): the number validation counts for them, the fewest whose results make that mana
    (so triggered mana adds none); 0 when it can't be told (validation refuses such a payment)."""
    from manasolver.solver.graph import abilities_of
    from manasolver.solver.validate.activations import least_removed
    perm = state.permanent(pid)
    if perm is None:
        return 0
    abilities = abilities_of(state, perm)
    if not 0 <= ability < len(abilities):
        return 0
    return least_removed(state, perm, abilities[ability], units, times) or 0


def _counters_after(perm: Permanent, eff: Effects) -> tuple[tuple[str, int], ...]:
    have = dict(perm.counters)
    for (pid, kind), n in eff.counters.items():
        if pid == perm.id:
            have[kind] = have.get(kind, 0) - n
    return tuple(sorted((k, n) for k, n in have.items() if n > 0))


def carried(state: GameState, eff: Effects) -> GameState:
    """The board after the effects (the manual payment's board)."""
    gone = set(eff.gone)
    battlefield: list[Permanent] = []
    for perm in state.battlefield:
        if perm.id in gone:
            continue
        tapped = perm.tapped
        if perm.id in eff.untapped:
            tapped = False
        if perm.id in eff.tapped:
            tapped = True
        counters = _counters_after(perm, eff) if any(pid == perm.id for pid, _ in eff.counters) else perm.counters
        if tapped != perm.tapped or counters != perm.counters:
            perm = perm._replace(tapped=tapped, counters=counters)
        battlefield.append(perm)
    players: list[Player] = []
    for pl in state.players:
        if pl.name == eff.player:
            hand = () if eff.discard_hand else tuple(c for i, c in enumerate(pl.hand) if i not in eff.hand_gone)
            graveyard = list(pl.graveyard)
            for name in eff.graveyard_gone:
                at = next((i for i, c in enumerate(graveyard) if c.name == name), None)
                if at is not None:
                    del graveyard[at]
            pl = pl._replace(life=pl.life - eff.life, energy=pl.energy - eff.energy,
                             pool=ManaCost.parse(eff.pool, allow_empty=True) if eff.pool else ManaCost(),
                             hand=hand, graveyard=tuple(graveyard))
        players.append(pl)
    return dataclasses.replace(state, players=tuple(players), battlefield=tuple(battlefield))


def changes(state: GameState, eff: Effects) -> list[dict[str, Any]]:
    """The session CHANGEs that carry the effects out on a kept board, in order: taps and
    untaps, counters, the player's life, energy, pool, hand and graveyard, then what is gone."""
    out: list[dict[str, Any]] = []
    gone = set(eff.gone)
    out.extend({"tap": pid} for pid in dict.fromkeys(eff.tapped) if pid not in gone)
    out.extend({"untap": pid} for pid in dict.fromkeys(eff.untapped) if pid not in gone)
    for pid in dict.fromkeys(pid for pid, _ in eff.counters):
        if pid not in gone:
            out.append({"set": pid, "fields": {"counters": dict(_counters_after(state.permanent(pid), eff))}})
    pl = state.player(eff.player)
    fields: dict[str, Any] = {"life": pl.life - eff.life, "energy": pl.energy - eff.energy, "pool": eff.pool or None}
    if eff.discard_hand or eff.hand_gone:
        fields["hand"] = [] if eff.discard_hand else [c.name for i, c in enumerate(pl.hand) if i not in eff.hand_gone]
    if eff.graveyard_gone:
        graveyard = [c.name for c in pl.graveyard]
        for name in eff.graveyard_gone:
            if name in graveyard:
                graveyard.remove(name)
        fields["graveyard"] = graveyard
    out.append({"player": eff.player, "fields": fields})
    out.extend({"remove": pid} for pid in dict.fromkeys(eff.gone))
    return out


def excluded_board(state: GameState, ids: tuple[str, ...] | set[str] | frozenset[str]) -> GameState:
    """``state`` with the permanents ``ids`` taken as tapped, so that nothing uses them."""
    if not ids:
        return state
    battlefield = tuple(p._replace(tapped=True) if p.id in ids and not p.tapped else p
                        for p in state.battlefield)
    return dataclasses.replace(state, battlefield=battlefield)
