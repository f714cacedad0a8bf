"""The effects on mana production in force on a board, and what they do to each permanent's mana
abilities (CR 305.7, 602.5, 603.2, 613.1f).

:func:`active_effects` lists the structured effects printed on the battlefield whose source still
has them (an Urborg under Blood Moon has none, 613.8), once per state.
:func:`effective_mana_abilities` gives a permanent's mana abilities now: a land reached by a
setting effect (Blood Moon) has only the intrinsic abilities of its new types (layer 4,
:mod:`manasolver.models.rules.land_types`), then the abilities granted to it (layer 6: Chromatic
Lantern, Cryptolith Rite), with the damage of "whenever ~ becomes tapped" triggers (City of Brass)
and of Auras (Contaminated Ground, :func:`tap_damage_from_attachments`) on each ability that taps
it.  :func:`unread_tap_triggers` and :func:`mana_prohibitions` name what the payment engine does
not apply, so that its callers refuse.
"""

from __future__ import annotations

import re
from dataclasses import replace

from manasolver.models._memo import IdentityMemo
from manasolver.models.abilities import AbilityCost, ManaAbility, Production
from manasolver.models.card import BASIC_LAND_TYPES
from manasolver.models.effects import GrantedAbility, StructuredEffect
from manasolver.models.rules.amounts import permanent_matches
from manasolver.models.rules.land_types import effective_land_types, has_effect, loses_rules_text
from manasolver.models.state import GameState, Permanent
from manasolver.models.symbols import type_bit
from manasolver.models.text.mana_effects import mana_effects_of
from manasolver.models.text.prohibitions import prohibitions_of
from manasolver.models.text.triggers import hurt_when_tapped, self_tap_damage, triggers_of

__all__ = [
    "active_effects",
    "effective_mana_abilities",
    "mana_prohibitions",
    "tap_damage_from_attachments",
    "unread_tap_triggers",
]


def _active(state: GameState) -> tuple[tuple[Permanent, StructuredEffect], ...]:
    out: list[tuple[Permanent, StructuredEffect]] = []
    for perm in state.battlefield:
        for effect in mana_effects_of(perm.card):
            if has_effect(state, perm, effect):
                out.append((perm, effect))
    return tuple(out)


_ACTIVE: IdentityMemo[GameState, tuple[tuple[Permanent, StructuredEffect], ...]] = IdentityMemo(65)


def active_effects(state: GameState) -> tuple[tuple[Permanent, StructuredEffect], ...]:
    """Every structured effect on the battlefield whose source still has it, in board
    order (cached per state)."""
    return _ACTIVE.get_or(state, _active)


def _granted_to(effect: GrantedAbility, source: Permanent, perm: Permanent, state: GameState) -> bool:
    """Whether ``effect`` of ``source`` gives ``perm`` its ability now."""
    who = effect.who
    mine = perm.controller == source.controller
    if effect.attached:
        if source.attached_to != perm.id:
            return False
    elif (who.controller == "you" and not mine) or (who.controller == "opponents" and mine):
        return False
    if who.other and perm.id == source.id:
        return False
    return permanent_matches(perm, replace(who, controller="any", other=False), source, state)


def _intrinsic(land_type: str) -> ManaAbility:
    """The intrinsic ability of a basic land type: ``{T}: Add [symbol].`` (305.6)."""
    letter = BASIC_LAND_TYPES[land_type]
    return ManaAbility(cost=AbilityCost(tap=True), production=Production(options=((type_bit(letter),),)),
                       text=f"{{T}}: Add {{{letter}}}.", intrinsic=True)


def effective_mana_abilities(state: GameState, permanent: Permanent) -> tuple[ManaAbility, ...]:
    """``permanent``'s mana abilities after land-type changes and granted abilities,
    indexed 0, 1, … (SPEC §5).

    A land reached by a setting effect (Blood Moon, Spreading Seas) has only the
    intrinsic abilities of its new types (305.7: it loses its rules-text abilities);
    otherwise it keeps its printed abilities and has one intrinsic ability per
    effective basic land type (305.6), intrinsic ones first in type-line order, as
    ``Card.mana_abilities``.  Then the abilities granted to it (layer 6, after the
    type changes of layer 4: Chromatic Lantern still gives a land under Blood Moon
    "{T}: Add one mana of any color"), in board order.  A non-land keeps its
    printed abilities and gets the granted ones.
    """
    granted = [e.ability for src, e in active_effects(state)
               if isinstance(e, GrantedAbility) and _granted_to(e, src, permanent, state)]
    aura = tap_damage_from_attachments(state).get(permanent.id, 0)
    if not permanent.is_land:
        if not granted and not aura:
            return permanent.card.mana_abilities
        own = list(permanent.card.mana_abilities)
        granted = _hurting(granted, self_tap_damage(permanent.card))
        return tuple(replace(a, index=i) for i, a in enumerate(_hurting(own + granted, aura)))
    types = effective_land_types(state, permanent)
    intrinsic = [_intrinsic(t) for t in types]
    keeps = not loses_rules_text(state, permanent)
    printed = [a for a in permanent.card.mana_abilities if not a.intrinsic] if keeps else []
    if keeps:  # City of Brass under Urborg: its own trigger hurts whatever {T} ability taps it
        own_damage = self_tap_damage(permanent.card)
        intrinsic, granted = _hurting(intrinsic, own_damage), _hurting(granted, own_damage)
    return tuple(replace(a, index=i) for i, a in enumerate(_hurting(intrinsic + printed + granted, aura)))


def _hurting(abilities: list[ManaAbility], damage: int) -> list[ManaAbility]:
    """``abilities`` with ``damage`` more on each one whose cost taps the permanent."""
    if not damage:
        return abilities
    return [replace(a, damage=a.damage + damage) if a.cost.tap else a for a in abilities]


def _tap_damage(state: GameState) -> dict[str, int]:
    out: dict[str, int] = {}
    for perm in state.battlefield:
        if perm.attached_to is None:
            continue
        for trig in triggers_of(perm.card):
            hurt = hurt_when_tapped(trig) if trig.event == "enchanted_tapped" else None
            if hurt:
                out[perm.attached_to] = out.get(perm.attached_to, 0) + hurt
    return out


_TAP_DAMAGE: IdentityMemo[GameState, dict[str, int]] = IdentityMemo(65)


def tap_damage_from_attachments(state: GameState) -> dict[str, int]:
    """Per permanent id, the damage or life loss its controller takes each time it becomes
    tapped because of an Aura attached to it (Contaminated Ground, Psychic Venom, Insolence:
    "Whenever enchanted land becomes tapped, …", CR 603.2); cached per state.  Such triggers
    whose amount is not read are left to :func:`unread_tap_triggers`."""
    return _TAP_DAMAGE.get_or(state, _tap_damage)


_TAPS_FOR_MANA_HURTS = re.compile(r"\btaps? (?:a|an)\b[^.]*\bfor mana\b[^.]*\b(?:damage to (?:that player|you)|"
                                  r"(?:that player|you) loses?\b[^.]*\blife)", re.IGNORECASE)


def unread_tap_triggers(state: GameState) -> list[tuple[Permanent, str]]:
    """Triggers on the battlefield about permanents becoming tapped, or lands tapped for mana,
    that the engine does not apply to payments (Royal Decree, Seizures, Manabarbs, Burning
    Earth, an Aura with a condition): the permanent and the trigger's text.  Payments on
    such boards would misstate life and damage."""
    out: list[tuple[Permanent, str]] = []
    for perm in state.battlefield:
        for trig in triggers_of(perm.card):
            applied = trig.supported and not trig.condition and (
                trig.event == "becomes_tapped" or (trig.event == "enchanted_tapped" and perm.attached_to))
            low = trig.text.lower()
            hurts_on_tap = "becomes tapped" in low and ("damage" in low or "life" in low or "unless" in low)
            if not applied and (hurts_on_tap or _TAPS_FOR_MANA_HURTS.search(trig.text)):
                out.append((perm, trig.text))
    return out


def mana_prohibitions(state: GameState, player: str) -> list[tuple[Permanent, str]]:
    """Permanents whose text stops ``player``'s mana abilities from being activated (Null Rod,
    Stony Silence, Cursed Totem, Linvala, Phyrexian Revoker: CR 602.5, 605.3), with the
    clause, when ``player`` controls a permanent with a mana ability of the kind they name.
    The payment engine does not apply them yet: its callers refuse instead.  Prohibitions
    that spare mana abilities (Pithing Needle, Damping Matrix) are not listed."""
    out: list[tuple[Permanent, str]] = []
    mine: list[Permanent] | None = None
    for perm in state.battlefield:
        for clause, what in prohibitions_of(perm.card):
            if mine is None:
                mine = [p for p in state.battlefield if p.controller == player and p.card.mana_abilities]
            if "opponents control" in what and perm.controller == player:
                continue
            kinds = [k for k in ("artifact", "creature") if k in what]
            hit = [p for p in mine if not kinds or any(k in p.types for k in kinds)]
            if hit:
                out.append((perm, clause))
    return out
