"""Activating an ability: which ability, whether it may be activated now, and what is paid.

A payment query names an activated ability instead of a spell with
``"spell": {"permanent": ID, "ability": N}`` (the N-th non-mana activated
ability of that permanent, printed order, see
:func:`manasolver.models.text.activated.activated_abilities`), ``"ability": "equip"``
(a keyword ability by name), or ``"spell": {"card": NAME, "ability": "unearth"}``
for a keyword ability of a card in the hand or graveyard.  Then:

* the cost is the ability's: its mana and ``{E}`` symbols are paid by the mana
  engine; ``Pay N life`` is paid from the life total (CR 119.4: only with at
  least N life); counters removed from the permanent must be there;
* ``{T}``/``{Q}`` in the cost: the permanent must be untapped (tapped for
  ``{Q}``), and a creature that came under its controller's control this turn
  without haste can't pay them (CR 302.6, 602.5a: Roil Cartographer).  A
  permanent tapped for its own ability's cost can't also tap for mana, so the
  payment is solved with it tapped (CR 601.2g–h, 602.2b);
* only the controller activates a permanent's ability (CR 602.2);
* "Activate only as a sorcery" and the sorcery-speed keyword abilities (equip,
  unearth, …) need the controller's main phase and an empty stack (CR 602.5d);
  nothing is activated without priority (untap and cleanup steps, CR 502.4, 514.3);
* restrictions on mana see an ability, of the card's types (CR 106.6): Ancient
  Ziggurat's mana can't pay unearth (its ruling).

Costs this engine does not spend (sacrifice another permanent, tap other
creatures) are refused as ``unsupported``; parts the caller pays outside the
mana engine (discard this card, exile it from the graveyard) are listed in
``extra`` and assumed paid.
"""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, Any

from manasolver.models.cost import ManaCost
from manasolver.models.errors import BadQuery
from manasolver.models.text.read import card_text
from manasolver.solver.request import AbilityActivation, SpellInfo
from manasolver.solver.supply.unmodelled import guard_ability_cost, guard_ability_effects, guard_activation

if TYPE_CHECKING:
    from manasolver.models.card import Card
    from manasolver.models.state import GameState, Permanent, Turn
    from manasolver.models.text.activated import ActivatedAbility

__all__ = ["NotActivatable", "activation", "activation_timing"]

_AFTER_BLOCKERS = frozenset({"declare_blockers", "combat_damage", "end_of_combat"})


class NotActivatable(Exception):
    """The ability can't be activated now whatever mana there is (``not_castable``);
    ``code`` is ``insufficient_life`` when it is the life payment that fails."""

    def __init__(self, message: str, code: str = "not_castable") -> None:
        super().__init__(message)
        self.code = code


def activation(raw: dict[str, Any], state: GameState, player: str, card_lookup: Any) -> AbilityActivation:
    """Resolve a ``spell`` object that names an ability (see
    :func:`manasolver.solver.service.decode.names_ability`).

    ``card_lookup(name)`` returns a card of the card database.  Raises
    :class:`NotActivatable` when the ability can't be activated now and
    :class:`~manasolver.models.errors.Unsupported` for costs the engine does not pay.
    """
    permanent: Permanent | None = None
    if "permanent" in raw:
        if "card" in raw:
            raise BadQuery("give spell.permanent or spell.card, not both", "spell.card")
        pid = raw["permanent"]
        if type(pid) is int:
            pid = str(pid)  # numeric ids are read as text, as on the board
        if not isinstance(pid, str):
            raise BadQuery("spell.permanent must be the id of a permanent", "spell.permanent")
        pid = pid[:100]
        permanent = next((p for p in state.battlefield if p.id == pid), None)
        if permanent is None:
            raise BadQuery(f"no permanent with id {pid!r} on the battlefield", "spell.permanent")
        card = permanent.card
    elif isinstance(raw.get("card"), str):
        card = card_lookup(raw["card"])
    else:
        raise BadQuery('an ability needs spell.permanent (an id) or spell.card (a name)', "spell")
    if permanent is not None:
        from manasolver.models.rules.production import loses_rules_text
        if loses_rules_text(state, permanent):
            raise BadQuery(f"{card.name} ({permanent.id}) has lost its rules-text abilities to a land-type "
                           f"change (CR 305.7, Blood Moon): it has no activated ability but its basic land "
                           f"types' mana abilities", "spell.ability")
        guard_ability_effects(state, permanent)
    ability = _pick(card, raw.get("ability", 0))
    if permanent is None and ability.zone == "battlefield":
        raise BadQuery(f"{card.name}'s {ability.text!r} is activated on the battlefield: "
                       f"give spell.permanent (its id)", "spell.ability")
    if permanent is not None and ability.zone != "battlefield":
        raise BadQuery(f"{card.name}'s {ability.text!r} is activated from the {ability.zone}, not from "
                       f"the battlefield: give spell.card instead", "spell.ability")
    guard_activation(card, ability)
    if permanent is None:
        holder = next(p for p in state.players if p.name == player)
        zone = holder.hand if ability.zone == "hand" else holder.graveyard if ability.zone == "graveyard" else None
        if zone is not None and all(c.name != card.name for c in zone):
            raise NotActivatable(f"{card.name} is not in {player}'s {ability.zone}, where its "
                                 f"{ability.keyword or 'ability'} is activated from (CR 113.6, 602.2)")
    return _prepare(ability, card, state, player, permanent)


def _pick(card: Card, which: Any) -> ActivatedAbility:
    abilities = card_text(card).activated
    listing = "; ".join(f"[{a.index}] {a.text}" for a in abilities) or "none"
    if isinstance(which, bool) or not isinstance(which, (int, str)):
        raise BadQuery("spell.ability must be an index or a keyword such as \"equip\"", "spell.ability")
    if isinstance(which, int):
        if not 0 <= which < len(abilities):
            raise BadQuery(f"{card.name} has no activated ability {which} (mana abilities are not "
                           f"counted); its abilities: {listing}", "spell.ability")
        return abilities[which]
    found = next((a for a in abilities if a.keyword == which.lower()), None)
    if found is None:
        raise BadQuery(f"{card.name} has no {which[:40]!r} ability; its abilities: {listing}", "spell.ability")
    return found


def _prepare(ability: ActivatedAbility, card: Card, state: GameState, player: str,
             permanent: Permanent | None) -> AbilityActivation:
    from manasolver.models.rules.granted import summoning_sick
    cost = ability.cost
    assert cost is not None
    name = f"{card.name} ({permanent.id})" if permanent is not None else card.name
    guard_ability_cost(name, cost)
    if permanent is not None:
        if permanent.controller != player:
            raise NotActivatable(f"{name} is controlled by {permanent.controller}: only a permanent's "
                                 f"controller can activate its abilities (CR 602.2)")
        if (cost.tap or cost.untap) and summoning_sick(state, permanent):
            symbol = "{T}" if cost.tap else "{Q}"
            raise NotActivatable(f"{name} is a creature that has not been under its controller's control "
                                 f"since their most recent turn began and has no haste, so it can't pay "
                                 f"{symbol} (CR 302.6, 602.5a)")
        if cost.tap and permanent.tapped:
            raise NotActivatable(f"{name} is tapped, so it can't pay {{T}} (CR 602.5a, 107.5)")
        if cost.untap and not permanent.tapped:
            raise NotActivatable(f"{name} is untapped, so it can't pay {{Q}} (CR 107.6)")
        for kind, n in cost.remove_counters:
            if permanent.counter(kind) < n:
                raise NotActivatable(f"{name} has {permanent.counter(kind)} {kind} counters; the cost "
                                     f"removes {n} (CR 602.2b)")
    holder = next(p for p in state.players if p.name == player)
    if cost.life and holder.life < cost.life:
        raise NotActivatable(f"paying {cost.life} life needs a life total of at least {cost.life}; "
                             f"{player} has {holder.life} (CR 119.4)", code="insufficient_life")
    new_state = state
    if permanent is not None and cost.tap:
        battlefield = tuple(p._replace(tapped=True) if p is permanent else p
                            for p in state.battlefield)
        new_state = dataclasses.replace(new_state, battlefield=battlefield)
    if cost.life:
        players = tuple(p._replace(life=p.life - cost.life) if p is holder else p
                        for p in state.players)
        new_state = dataclasses.replace(new_state, players=players)
    mana = cost.mana + ManaCost.parse("{E}" * cost.energy, "cost", allow_empty=True)
    spell = SpellInfo.of_ability(card, permanent.types if permanent is not None else None)
    return AbilityActivation(ability, card, new_state, mana, spell, cost.life, permanent)


def activation_timing(act: AbilityActivation, turn: Turn, player: str) -> str | None:
    """Why the ability can't be activated in ``turn`` (a sentence), or None when it can."""
    from manasolver.solver.casting.timing import MAIN_PHASES, NO_PRIORITY_STEPS
    if turn.step in NO_PRIORITY_STEPS:
        return (f"no player gets priority during the {turn.step} step "
                f"(CR {'502.4' if turn.step == 'untap' else '514.3'}), so no ability can be activated")
    if act.ability.keyword == "ninjutsu" and (turn.active != player or turn.step not in _AFTER_BLOCKERS):
        return (f"{act.card.name}'s ninjutsu needs an unblocked attacker {player} controls (CR 702.49a): "
                f"only in {player}'s combat, from the declare blockers step on")
    if not act.ability.sorcery_speed:
        return None
    what = f"{act.card.name}'s {act.ability.keyword or 'ability'} can be activated only as a sorcery (CR 602.5d)"
    if turn.active != player:
        return f"{what}: during its controller's own turn, and it is {turn.active}'s turn"
    if turn.step not in MAIN_PHASES:
        return f"{what}: in a main phase, not during the {turn.step} step"
    if not turn.stack_empty:
        return f"{what}: while the stack is empty"
    return None
