"""Pool doublers: permanents whose mana ability doubles the mana pool, and whether they can now.

Doubling Cube's "{3}, {T}: Double the amount of each type of unspent mana you
have." is a mana ability (CR 605.1a) whose production is
:attr:`~manasolver.models.abilities.Production.doubles_pool`: it adds no mana of
its own but, as it resolves, one more mana of each type for each mana of that
type in the pool.  The new mana carries no spending restriction (CR 106.6
example, Doubling Cube ruling 2004-12-01; CR 106.6 example).

:func:`find_doublers` lists a player's doublers with their effective doubling
abilities (CR 613), which of them can be activated now, mana cost aside, and why
one can't be applied as a plain doubling of the pool (a second mana ability,
costs other than mana and ``{T}``, replacement or triggered effects on its
activation).  Nothing here searches or pays.
"""

from __future__ import annotations

from dataclasses import dataclass

from manasolver.models.abilities import ManaAbility
from manasolver.models.card import Card
from manasolver.models.rules.board_effects import effective_mana_abilities
from manasolver.models.rules.marks import DOUBLING, marked
from manasolver.models.rules.production import replacements_for, triggered_mana_for
from manasolver.models.state import GameState, Permanent
from manasolver.models.symbols import TYPE_BITS
from manasolver.models.text.read import card_text

__all__ = ["Doubler", "find_doublers"]


@dataclass(frozen=True, slots=True)
class Doubler:
    """A permanent of ``player`` with a pool-doubling mana ability.

    ``position``: its index in ``state.battlefield`` (for ``battlefield[i]`` paths);
    ``abilities``: its doubling abilities (effective ones, CR 613); ``only``: every
    mana ability it has doubles the pool (otherwise its other abilities are left
    out with it, and it can't be modelled as a doubler alone); ``usable``: the doubling
    abilities whose non-mana costs can be paid now (untapped for ``{T}``, not
    summoning sick, life, energy and counters: CR 107.5, 302.6, 119.4, 118.3) —
    whether their mana cost can be paid is asked elsewhere; ``ready``: some is;
    ``unmodelled``: why it can't be applied exactly as a doubling of the pool (empty
    when it can): replacement or triggered effects on its activation, costs other
    than mana and ``{T}``, a second ability.
    """

    permanent: str
    position: int
    name: str
    abilities: tuple[ManaAbility, ...]
    only: bool
    usable: tuple[ManaAbility, ...]
    unmodelled: str = ""

    @property
    def ready(self) -> bool:
        """Some doubling ability can be activated now, mana cost aside."""
        return bool(self.usable)


def _ready(state: GameState, perm: Permanent, player: str, ab: ManaAbility) -> bool:
    """Can the non-mana parts of ``ab``'s cost be paid now?"""
    cost = ab.cost
    pl = state.player(player)
    if cost.tap and cost.untap:
        return False
    if cost.tap and (perm.tapped or perm.summoning_sick):
        return False  # 107.5, 302.6
    if cost.untap and (not perm.tapped or perm.summoning_sick):
        return False  # 107.6, 302.6
    if cost.life and pl.life < cost.life:
        return False  # 119.4
    if cost.energy and pl.energy < cost.energy:
        return False  # 107.14
    if any(perm.counter(k) < n for k, n in cost.remove_counters):
        return False  # 118.3
    return not cost.tap_creatures or any(
        q.controller == player and q.is_creature and not q.tapped and q.id != perm.id
        for q in state.battlefield)


def _unmodelled(state: GameState, perm: Permanent, ab: ManaAbility, only: bool) -> str:
    """Why this doubling ability can't be applied exactly as a doubling of the pool
    ('' when it can)."""
    cost = ab.cost
    if not only:
        return "a permanent with a pool-doubling ability and other mana abilities is not modelled"
    if not (cost.tap or cost.sacrifice_self):
        return "a repeatable pool-doubling ability (no {T}) is not modelled"
    if (cost.untap or cost.life or cost.energy or cost.sacrifice or cost.remove_counters
            or cost.tap_creatures or cost.remove_any or cost.put_counters or cost.discard_hand):
        return "a pool-doubling ability with costs other than mana and {T} is not modelled"
    if any(s.variable or any(w.kind == "snow" for w in s.ways_to_pay()) for s in cost.mana.symbols):
        return "a pool-doubling ability whose cost has {X} or {S} is not modelled"
    if ab.condition is not None:
        return "a pool-doubling ability with an activation condition is not modelled"
    if replacements_for(state, perm, ab):
        return "replacement effects on a pool doubler's mana (Mana Reflection) are not modelled"
    if triggered_mana_for(state, perm, ab, TYPE_BITS):
        return "triggered mana on a pool doubler's activation is not modelled"
    return ""


def _card_info(card: Card) -> tuple[bool, bool]:
    """What :func:`find_doublers` needs to know about a card: (a printed mana ability doubles the
    pool, its text speaks of unspent mana), kept in its facts."""
    facts = card.facts
    info: tuple[bool, bool] | None = facts.doubler
    if info is None:
        info = facts.doubler = (any(a.production.doubles_pool for a in card.mana_abilities),
                                card_text(card).unspent_mana)
    return info


def find_doublers(state: GameState, player: str) -> tuple[Doubler, ...]:
    """Every permanent ``player`` controls with a pool-doubling mana ability, in board order
    (found once per board and player, kept in the board's view)."""
    kept = state.view.doublers
    found: tuple[Doubler, ...] | None = kept.get(player)
    if found is None:
        found = kept[player] = _find(state, player)
    return found


def _find(state: GameState, player: str) -> tuple[Doubler, ...]:
    """:func:`find_doublers`, computed."""
    # a doubling ability is printed on the card, or granted by a card whose text speaks of unspent
    # mana (no card grants one today): the permanents marked DOUBLING, none on most boards
    candidates = marked(state, DOUBLING)
    if not candidates:
        return ()
    infos = [(i, _card_info(perm.card)) for i, perm in candidates]
    printing = [i for i, info in infos if info[0]]
    granting = any(info[1] and not info[0] for _, info in infos)
    out = []
    for i in range(len(state.battlefield)) if granting else printing:
        perm = state.battlefield[i]
        if perm.controller != player:
            continue
        abilities = effective_mana_abilities(state, perm)
        doubling = tuple(a for a in abilities if a.production.doubles_pool)
        if not doubling:
            continue
        only = len(doubling) == len(abilities)
        usable = tuple(a for a in doubling if _ready(state, perm, player, a))
        why = ""
        for a in doubling:
            why = why or _unmodelled(state, perm, a, only)
        out.append(Doubler(perm.id, i, perm.card.name, doubling, only, usable, why))
    return tuple(out)
