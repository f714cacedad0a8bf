"""The effects on mana production in force on a board, and what they do to each permanent's mana
abilities (CR 305.7, 602.5, 603.2, 613.1f).

:func:`active_effects` lists the structured effects printed on the battlefield whose source still
has them (an Urborg under Blood Moon has none, 613.8), once per state.
:func:`effective_mana_abilities` gives a permanent's mana abilities now: a land reached by a
setting effect (Blood Moon) has only the intrinsic abilities of its new types (layer 4,
:mod:`manasolver.models.rules.land_types`), then the abilities granted to it (layer 6: Chromatic
Lantern, Cryptolith Rite, and those of the objects it has all activated abilities of: Necrotic Ooze,
Manascape Refractor, :mod:`manasolver.models.rules.granted`), with the damage of "whenever ~
becomes tapped" triggers (City of Brass) and of Auras (Contaminated Ground,
:func:`tap_damage_from_attachments`) on each ability that taps it.  :func:`unread_tap_triggers`
and :func:`mana_prohibitions` name what the payment engine does not apply, so that its callers
refuse.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import replace

from manasolver.models.abilities import AbilityCost, ManaAbility, Production
from manasolver.models.card import BASIC_LAND_TYPES, Card
from manasolver.models.effects import ConditionalDamage, GrantedAbility, Prohibition, StructuredEffect
from manasolver.models.errors import ManasolverError
from manasolver.models.rules.granted import held_abilities, printed_as_given
from manasolver.models.rules.marks import NOTABLE, TAP_TRIGGERS, marked
from manasolver.models.rules.amounts import condition_holds, evaluate_amount, permanent_matches
from manasolver.models.rules.land_types import effective_land_types, has_effect, loses_rules_text
from manasolver.models.state import GameState, Permanent
from manasolver.models.symbols import type_bit
from manasolver.models.text.mana_effects import mana_effects_of
from manasolver.models.text.prohibitions import prohibitions_of
from manasolver.models.text.tap_triggers import TapKind, TapTrigger, tap_triggers_of
from manasolver.models.text.triggers import self_tap_damage

__all__ = [
    "active_effects",
    "effective_mana_abilities",
    "idle_while_untapped",
    "mana_prohibitions",
    "nontap_damage",
    "prohibited",
    "reached_by_effects",
    "tap_damage_beyond_mana",
    "tap_damage_from_attachments",
    "unread_tap_triggers",
]


def _active(state: GameState) -> tuple[tuple[Permanent, StructuredEffect], ...]:
    out: list[tuple[Permanent, StructuredEffect]] = []
    for _, perm in marked(state, NOTABLE):
        for effect in mana_effects_of(perm.card):
            if has_effect(state, perm, effect):
                out.append((perm, effect))
    return tuple(out)


def active_effects(state: GameState) -> tuple[tuple[Permanent, StructuredEffect], ...]:
    """Every structured effect on the battlefield whose source still has it, in board
    order (cached per state)."""
    view = state.view
    found = view.active
    if found is None:
        found = view.active = _active(state)
    return found  # type: ignore[no-any-return]


def _granted_to(effect: GrantedAbility, source: Permanent, perm: Permanent, state: GameState) -> bool:
    """Whether ``effect`` of ``source`` gives ``perm`` its ability now: its condition (read on its
    source) holds and ``perm`` is one it reaches (:func:`_reaches`)."""
    return condition_holds(effect.condition, state, source) and _reaches(effect, source, perm, state)


def _reaches(effect: GrantedAbility, source: Permanent, perm: Permanent, state: GameState) -> bool:
    """Whether ``effect`` of ``source`` gives ``perm`` its ability while its condition holds."""
    if effect.self_only:
        return perm.id == source.id
    who = effect.who
    mine = perm.controller == source.controller
    if effect.attached:
        if source.attached_to != perm.id:
            return False
    elif (who.controller == "you" and not mine) or (who.controller == "opponents" and mine):
        return False
    if who.other and perm.id == source.id:
        return False
    if effect.or_who is not None and permanent_matches(perm, effect.or_who, source, state):
        return True
    return permanent_matches(perm, who, source, state)  # (it reads no controller nor "other": both checked above)


def prohibited(state: GameState, permanent: Permanent) -> Prohibition | None:
    """The first prohibition in force that stops ``permanent``'s activated abilities (Null Rod on an
    artifact, Cursed Totem on a creature, Linvala on an opponent's creature: CR 602.5), or None."""
    for source, effect in active_effects(state):
        if isinstance(effect, Prohibition) and effect.chosen_name:
            # Phyrexian Revoker: no name given reaches nothing here (mana_prohibitions refuses)
            if source.chosen_name is not None and permanent.card.name.lower() == source.chosen_name.lower():
                return effect
            continue
        if isinstance(effect, Prohibition) and effect.types & set(permanent.types) and (
                effect.controller == "any" or permanent.controller != source.controller):
            return effect
    return None


def _intrinsic(land_type: str) -> ManaAbility:
    """The intrinsic ability of a basic land type: ``{T}: Add [symbol].`` (305.6)."""
    return _INTRINSIC[land_type]


#: Each basic land type's intrinsic ability (a table of constants, made with the module).
_INTRINSIC = {land_type: ManaAbility(cost=AbilityCost(tap=True), production=Production(options=((type_bit(letter),),)),
                                     text=f"{{T}}: Add {{{letter}}}.", intrinsic=True)
              for land_type, letter in BASIC_LAND_TYPES.items()}


def effective_mana_abilities(state: GameState, permanent: Permanent) -> tuple[ManaAbility, ...]:
    """``permanent``'s mana abilities after land-type changes and granted abilities,
    indexed 0, 1, ….

    A land reached by a setting effect (Blood Moon, Spreading Seas) has only the
    intrinsic abilities of its new types (305.7: it loses its rules-text abilities);
    otherwise it keeps its printed abilities and has one intrinsic ability per
    effective basic land type (305.6), intrinsic ones first in type-line order, as
    ``Card.mana_abilities``.  Then the abilities granted to it (layer 6, after the
    type changes of layer 4: Chromatic Lantern still gives a land under Blood Moon
    "{T}: Add one mana of any color"), in board order.  A non-land keeps its
    printed abilities and gets the granted ones.
    """
    memo = state.view.abilities
    hit = memo.get(permanent.id)
    if hit is not None and hit[0] is permanent:  # (a permanent of this board: ids are unique on it)
        return hit[1]  # type: ignore[no-any-return]
    reached = reached_by_effects(state)
    if reached is not None and permanent.id not in reached:
        found: tuple[ManaAbility, ...] = permanent.card.mana_abilities  # no effect reaches it
    elif prohibited(state, permanent):
        found = ()  # CR 602.5: none of its activated abilities can be activated
    else:
        found = _spared(state, permanent, _effective(state, permanent))
    memo[permanent.id] = (permanent, found)  # (a refusal raised above is raised again when asked again)
    return found


def _spared(state: GameState, permanent: Permanent, abilities: tuple[ManaAbility, ...]) -> tuple[ManaAbility, ...]:
    """``abilities`` without the damage a :class:`ConditionalDamage` of ``permanent`` spares now
    (Tomb of Urami beside an Ogre its controller controls)."""
    spared = _sparing_of(state).get(permanent.id)
    if not spared:
        return abilities
    out = list(abilities)
    for effect in spared:
        if not evaluate_amount(effect.unless, state, permanent):
            continue
        out = [replace(a, damage=max(0, a.damage - effect.damage)) if a.text == effect.text else a for a in out]
    return tuple(out)


def _sparing(state: GameState) -> dict[str, list[ConditionalDamage]]:
    out: dict[str, list[ConditionalDamage]] = {}
    for src, e in active_effects(state):
        if isinstance(e, ConditionalDamage):
            out.setdefault(src.id, []).append(e)
    return out


def _grants(state: GameState, permanent: Permanent) -> list[tuple[Permanent, GrantedAbility]]:
    """The grants in force that give ``permanent`` their mana ability now, with their sources, in
    board order (read once per permanent: the abilities it is given, and whether one takes the
    others away)."""
    return [(src, e) for src, e in active_effects(state)
            if isinstance(e, GrantedAbility) and _granted_to(e, src, permanent, state)]


def _as_given(state: GameState, permanent: Permanent) -> tuple[ManaAbility, ...]:
    """What ``permanent`` gives a permanent that has all its activated abilities (Experiment Kraj,
    Manascape Refractor; :mod:`manasolver.models.rules.granted`): its mana abilities after
    layer 4 and the grants of layer 6 (613.8a: that effect depends on them), without the damage its
    own tap triggers and Auras deal when it is tapped."""
    grants = _grants(state, permanent)
    if permanent.is_land and (only := _others_lost(state, permanent, grants)) is not None:
        return tuple(replace(a, damage=0) for a in only)
    granted = [e.ability for _, e in grants]
    if not permanent.is_land:
        return printed_as_given(permanent.card) + tuple(granted)
    intrinsic = [_intrinsic(t) for t in effective_land_types(state, permanent)]
    printed = [a for a in printed_as_given(permanent.card) if not a.intrinsic] \
        if not loses_rules_text(state, permanent) else []
    return tuple(intrinsic + printed + granted)


def _others_lost(state: GameState, permanent: Permanent,
                 grants: list[tuple[Permanent, GrantedAbility]]) -> tuple[ManaAbility, ...] | None:
    """``permanent``'s abilities (``grants``: those given to it, :func:`_grants`) under a grant that
    takes every other ability away (Toxicrene: "All lands have "{T}: Add one mana of any color" and
    lose all other abilities.", layer 6, CR 613.1f: its printed abilities and the intrinsic ones of
    its land types, CR 305.6, are lost), or None when no such grant reaches it.  Which of two
    layer-6 effects on one permanent applies last goes by timestamps (CR 613.7), which the board
    does not give, and whether an effect a land of its own applies in an earlier layer still
    applies is not followed: another grant or "has all activated abilities" reaching it, or a land
    with effects on mana, costs that tap or spend other objects, or cost changes of its own, is
    refused naming both."""
    losing = [(src, e) for src, e in grants if e.others_lost]
    if not losing:
        return None
    source, effect = losing[0]
    from manasolver.models.errors import Unsupported
    from manasolver.models.text.read import card_text
    index = next(i for i, p in enumerate(state.battlefield) if p.id == source.id)
    other = next(((src, e.text) for src, e in grants if e is not effect), None)
    if other is None and held_abilities(state, permanent, active_effects(state), _as_given):
        other = (permanent, "all activated abilities of other objects")
    for land in state.battlefield:
        if other is None and land.is_land:
            text = card_text(land.card)
            if mana_effects_of(land.card) or text.tap_costs or text.cost_effects:
                other = (land, "its own abilities")
    if other is not None:
        raise Unsupported(f"{source.card.name} ({source.id}): {effect.text!r} and {other[0].card.name} "
                          f"({other[0].id})'s {other[1]!r} both change the abilities of {permanent.card.name} "
                          f"({permanent.id}), which of them applies last is not followed (CR 613.1f, 613.7)",
                          f"battlefield[{index}]")
    aura = tap_damage_from_attachments(state).get(permanent.id, 0)
    return tuple(_hurting([replace(effect.ability, index=0)], aura, nontap_damage(state).get(permanent.id, 0)))


def _effective(state: GameState, permanent: Permanent) -> tuple[ManaAbility, ...]:
    grants = _grants(state, permanent)
    if permanent.is_land and (only := _others_lost(state, permanent, grants)) is not None:
        return only
    granted = [e.ability for _, e in grants]
    # Necrotic Ooze, Experiment Kraj, Manascape Refractor: layer 6 too, after the grants (613.8a)
    granted += held_abilities(state, permanent, active_effects(state), _as_given)
    aura = tap_damage_from_attachments(state).get(permanent.id, 0)
    other = nontap_damage(state).get(permanent.id, 0)
    if not permanent.is_land:
        if not granted and not aura and not other:
            return permanent.card.mana_abilities
        own = list(permanent.card.mana_abilities)
        granted = _hurting(granted, self_tap_damage(permanent.card))
        return _indexed(_hurting(own + granted, aura, other))
    types = effective_land_types(state, permanent)
    intrinsic = [_intrinsic(t) for t in types]
    keeps = not loses_rules_text(state, permanent)
    printed = [a for a in permanent.card.mana_abilities if not a.intrinsic] if keeps else []
    if keeps:  # City of Brass under Urborg: its own trigger hurts whatever {T} ability taps it
        own_damage = self_tap_damage(permanent.card)
        intrinsic, granted = _hurting(intrinsic, own_damage), _hurting(granted, own_damage)
    return _indexed(_hurting(intrinsic + printed + granted, aura, other))


def _indexed(abilities: list[ManaAbility]) -> tuple[ManaAbility, ...]:
    """``abilities`` indexed 0, 1, … in order (an ability already at its place is kept as it is)."""
    return tuple(a if a.index == i else replace(a, index=i) for i, a in enumerate(abilities))


def _hurting(abilities: list[ManaAbility], damage: int, other: int = 0) -> list[ManaAbility]:
    """``abilities`` with ``damage`` more on each one whose cost taps the permanent, and
    ``other`` more on each one whose cost does not."""
    if not damage and not other:
        return abilities
    return [replace(a, damage=a.damage + (damage if a.cost.tap else other)) for a in abilities]


_TapHurt = tuple[dict[str, int], dict[str, int], dict[str, tuple[Permanent, str]], list[tuple[Permanent, str]]]


def _kind_matches(state: GameState, perm: Permanent, kind: TapKind) -> bool:
    from manasolver.models.rules.colors import permanent_colors
    from manasolver.models.rules.land_types import effective_subtypes, is_basic
    if kind.types and not kind.types <= set(perm.types):
        return False
    if kind.subtypes and not kind.subtypes & set(effective_subtypes(state, perm)):
        return False
    if kind.colors and not permanent_colors(state, perm) & kind.colors:
        return False
    if kind.basic and not is_basic(perm):
        return False
    if kind.nonbasic and not (perm.is_land and not is_basic(perm)):
        return False
    return not (kind.snow and not perm.is_snow)


def _watches(state: GameState, source: Permanent, t: TapTrigger, perm: Permanent) -> bool:
    """Does ``t`` of ``source`` trigger when ``perm`` becomes tapped (or is tapped for mana)?"""
    if t.reach == "self":
        return perm.id == source.id
    if t.reach == "attached":
        return source.attached_to == perm.id
    mine = perm.controller == source.controller
    if (t.controller == "you" and not mine) or (t.controller == "opponents" and mine):
        return False
    return any(_kind_matches(state, perm, k) for k in t.kinds)


def _tap_hurt(state: GameState) -> _TapHurt:
    """(damage on each permanent's ``{T}`` mana abilities, on its other mana abilities, the
    trigger that hurts when it becomes tapped by anything, the unread triggers that matter) per
    permanent id; see :func:`tap_damage_from_attachments`."""
    on_tap: dict[str, int] = {}
    on_other: dict[str, int] = {}
    beyond: dict[str, tuple[Permanent, str]] = {}
    unread: list[tuple[Permanent, str]] = []
    for _, source in marked(state, TAP_TRIGGERS):
        for text, t in tap_triggers_of(source.card):
            if t is None:
                low = text.lower()
                if not (low.startswith(("whenever enchanted", "when enchanted")) and source.attached_to is None
                        or idle_while_untapped(state, source, text)):
                    unread.append((source, text))
                continue
            if t.harmless or (t.reach == "self" and self_tap_damage(source.card) and t.hurt_you):
                continue  # City of Brass: its own damage is on its abilities already
            for perm in state.battlefield:
                if not _watches(state, source, t, perm):
                    continue
                hurt = t.hurt + (t.hurt_you if perm.controller == source.controller else t.hurt_opponents)
                if not hurt:
                    continue
                on_tap[perm.id] = on_tap.get(perm.id, 0) + hurt
                if t.nontap:
                    on_other[perm.id] = on_other.get(perm.id, 0) + hurt
                if not t.for_mana:
                    beyond.setdefault(perm.id, (source, text))
    return on_tap, on_other, beyond, unread


#: A trigger on tapping lands for mana with an intervening "if" on its source being tapped
#: (Barbflare Gremlin, CR 603.4).
_IF_SOURCE_TAPPED = re.compile(r"Whenever a player taps a land for mana, if (?:this creature|~) is tapped, ")


def idle_while_untapped(state: GameState, source: Permanent, text: str) -> bool:
    """Can't ``source``'s trigger ``text`` (:data:`_IF_SOURCE_TAPPED`) fire in this payment: the
    source is untapped and no mana ability on the board has a cost that taps another permanent
    (Springleaf Drum, Heritage Druid), so it stays untapped while lands are tapped for mana (CR
    601.2g; convoke and improvise tap later, as costs are paid, 601.2h)?"""
    from manasolver.models.text.read import card_text

    if source.tapped or not _IF_SOURCE_TAPPED.match(text):
        return False
    return not any(card_text(p.card).tap_costs or any(ab.cost.tap_creatures for ab in p.card.mana_abilities)
                   for p in state.battlefield)


def _tap_hurt_of(state: GameState) -> _TapHurt:
    """The board's ``tap_hurt`` (its view's field, computed when first asked)."""
    view = state.view
    found = view.tap_hurt
    if found is None:
        found = view.tap_hurt = _tap_hurt(state)
    return found  # type: ignore[no-any-return]


def _sparing_of(state: GameState) -> dict[str, list[ConditionalDamage]]:
    """The board's ``sparing`` (its view's field, computed when first asked)."""
    view = state.view
    found = view.sparing
    if found is None:
        found = view.sparing = _sparing(state)
    return found  # type: ignore[no-any-return]


def tap_damage_from_attachments(state: GameState) -> dict[str, int]:
    """Per permanent id, the damage or life loss its controller takes each time it is tapped for
    mana, because of triggers of the battlefield on becoming tapped or on tapping for mana
    (CR 603.2): an Aura's ("Whenever enchanted land becomes tapped, its controller loses 2 life":
    Contaminated Ground, Insolence), or another permanent's (Manabarbs, Burning Earth, Scald, Royal
    Decree, Haunting Wind, Sorrow's Path; :mod:`manasolver.models.text.tap_triggers`).  A
    permanent hurt only when an ability of it without ``{T}`` is activated (Haunting Wind on an
    artifact) is listed with 0 here (the damage is on its other abilities).  A permanent's own
    "Whenever ~ becomes tapped, it deals N damage to you" (City of Brass) is on its abilities from
    the parser and not here.  Cached per state; triggers not read are left to
    :func:`unread_tap_triggers`."""
    on_tap, on_other, _, _ = _tap_hurt_of(state)
    if not on_other:
        return on_tap
    return {**{pid: 0 for pid in on_other}, **on_tap}


def nontap_damage(state: GameState) -> dict[str, int]:
    """Per permanent id, the damage or life loss its controller takes when an ability of it
    without ``{T}`` in its cost is activated (Haunting Wind, Artifact Possession on an artifact)."""
    return _tap_hurt_of(state)[1]


def reached_by_effects(state: GameState) -> frozenset[str] | None:
    """The ids of the permanents whose mana abilities or what they add the board's effects on
    mana may change (:func:`effective_mana_abilities`, and the triggered mana of
    :func:`~manasolver.models.rules.production.triggered_mana_for`), or None when any permanent
    may be.  Read per effect, erring wide:

    * a grant reaches what :func:`_granted_to` gives it to: a conditional grant nothing while its
      condition does not hold; any permanent when reading its condition or whom it reaches
      refuses (as reading every permanent's abilities would), or when it takes other abilities
      away;
    * an Aura's triggered mana or land-type change, its land; a triggered mana ability on its
      controller's creatures, nonland permanents or artifact tokens, those; on its controller's
      lands (Crypt Ghast, Caged Sun: the controller taps them, and who taps is who controls in
      every reader), those lands; another triggered mana on lands or land-type change, every land
      (layer 4 changes the types of lands alone, CR 305.7, 613.1d);
    * "all activated abilities of", its holder; an Aura or trigger that hurts when a permanent
      taps, that permanent; every other effect (replacements, prohibitions, spending rules), any
      permanent.

    A permanent outside the set has the mana abilities its card prints, and adds what it would
    on a board without those effects.  Read once per board (its view's ``reached``)."""
    view = state.view
    found = view.reached
    if found is None:
        found = view.reached = (_reached(state),)
    return found[0]  # type: ignore[no-any-return]


#: The kinds of permanent a triggered mana ability on its controller's permanents tapped for mana
#: fires for (Kinnan, Bonder Prodigy's nonland permanents): the one table both
#: :func:`~manasolver.models.rules.production.triggered_mana_for` (whether it fires) and
#: :func:`reached_by_effects` (what it reaches) read.
YOUR_PERMANENTS: Mapping[str, Callable[[Permanent], bool]] = {
    "your_creature": lambda p: p.is_creature,
    "your_nonland": lambda p: not p.is_land,
    "your_artifact_token": lambda p: p.is_artifact and p.token,
}


def _reached(state: GameState) -> frozenset[str] | None:
    from manasolver.models.effects import AbilitiesOf, LandTypeChange, TriggeredMana
    reached: set[str] = set(tap_damage_from_attachments(state))
    lands: bool = False
    for source, effect in active_effects(state):
        if isinstance(effect, GrantedAbility):
            if effect.others_lost:
                return None
            try:
                if not condition_holds(effect.condition, state, source):
                    continue
                if effect.self_only:
                    reached.add(source.id)
                elif effect.attached:
                    if source.attached_to is not None:
                        reached.add(source.attached_to)
                else:
                    reached.update(p.id for p in state.battlefield if _reaches(effect, source, p, state))
            except ManasolverError:
                return None
        elif isinstance(effect, TriggeredMana):
            if effect.trigger in YOUR_PERMANENTS:
                reached.update(p.id for p in state.battlefield
                               if p.controller == source.controller and YOUR_PERMANENTS[effect.trigger](p))
            elif effect.trigger == "enchanted_land":
                if source.attached_to is not None:
                    reached.add(source.attached_to)
            elif effect.trigger in ("your_land", "land_ability"):  # (Crypt Ghast, Caged Sun)
                reached.update(p.id for p in state.battlefield if p.is_land and p.controller == source.controller)
            else:
                lands = True
        elif isinstance(effect, AbilitiesOf) and not effect.given_to:
            reached.add(source.id)
        elif isinstance(effect, LandTypeChange):
            if effect.affected != "enchanted_land":
                lands = True  # (layer 4 changes lands only: a permanent that is not one keeps its types)
            elif source.attached_to is not None:
                reached.add(source.attached_to)
        else:
            return None
    if lands:
        reached.update(p.id for p in state.battlefield if p.is_land)
    return frozenset(reached)


def tap_damage_beyond_mana(state: GameState) -> dict[str, tuple[Permanent, str]]:
    """Per permanent id, the trigger (its source and text) that hurts its controller whenever it
    becomes tapped for any reason, not only for mana: convoke, improvise or a tapping cost
    (Springleaf Drum) would tap it without a mana ability of its own (CR 603.2)."""
    return _tap_hurt_of(state)[2]


def unread_tap_triggers(state: GameState) -> list[tuple[Permanent, str]]:
    """Triggers on the battlefield about permanents becoming tapped, or lands tapped for mana,
    that may hurt in a way not read (Seizures: "unless that player pays {3}"; Relic Putrescence's
    poison counter), but for an Aura attached to nothing: the permanent and the trigger's text.
    Payments on such boards would misstate life and damage."""
    return _tap_hurt_of(state)[3]


def _tap_cost_reading(perm: Permanent) -> bool:
    from manasolver.models.text.read import card_text
    return bool(card_text(perm.card).tap_costs)


def _hand_mana(card: Card) -> bool:
    """Does ``card`` have a mana ability activated from the hand (Elvish Spirit Guide)?"""
    from manasolver.models.text.hand import hand_abilities
    return bool(hand_abilities(card))


def _hand(state: GameState, player: str) -> tuple[Card, ...]:
    try:
        return state.player(player).hand
    except KeyError:
        return ()


def mana_prohibitions(state: GameState, player: str) -> list[tuple[Permanent, str]]:
    """Permanents whose text stops ``player``'s mana abilities from being activated (Null Rod,
    Stony Silence, Cursed Totem, Linvala, Phyrexian Revoker: CR 602.5, 605.3), with the
    clause, when ``player`` controls a permanent with a mana ability of the kind they name.
    The payment engine does not apply them yet: its callers refuse instead.  Prohibitions
    that spare mana abilities (Pithing Needle, Damping Matrix) are not listed."""
    out: list[tuple[Permanent, str]] = []
    mine: list[Permanent] | None = None
    for _, perm in marked(state, NOTABLE):
        for clause, what in prohibitions_of(perm.card):
            if mine is None:
                mine = [p for p in state.battlefield if p.controller == player and p.card.mana_abilities]
            if "opponents control" in what and perm.controller == player:
                continue
            if what == "sources with the chosen name" and perm.chosen_name is not None:
                # applied to the permanents' mana abilities (prohibited); a tapping-cost reading or a
                # card of that name in the hand (a Spirit Guide) is not reached there
                name = perm.chosen_name.lower()
                hit = [p for p in mine if p.card.name.lower() == name and _tap_cost_reading(p)]
                if hit or any(c.name.lower() == name and _hand_mana(c) for c in _hand(state, player)):
                    out.append((perm, clause))
                continue
            if what == "sources with the chosen name" and any(_hand_mana(c) for c in _hand(state, player)):
                out.append((perm, clause))  # the chosen name may be a card in the hand with a mana ability
                continue
            if what in ("sources with the chosen name", "the chosen permanent"):
                # Phyrexian Revoker, Voidstone Gargoyle ("choose a nonland card name"), Scheming Fence
                # ("choose a nonland permanent", and it has that permanent's activated abilities):
                # only a nonland permanent with a mana ability can be reached
                pool = state.battlefield if what == "the chosen permanent" and perm.controller == player else mine
                hit = [p for p in pool if p is not perm and not p.is_land and p.card.mana_abilities]
                if hit:
                    out.append((perm, clause))
                continue
            kinds = [k for k in ("artifact", "creature") if k in what]
            hit = [p for p in mine if not kinds or any(k in p.types for k in kinds)]
            if any(isinstance(e, Prohibition) and e.text == clause for src, e in active_effects(state) if src is perm):
                # applied: to the permanents' mana abilities (effective_mana_abilities) and to the
                # abilities whose cost is read apart from the parser (Heritage Druid, Diamond
                # Kaleidoscope: the supply, could-produce, validate and the brute force skip them)
                continue
            if hit:
                out.append((perm, clause))
    return out
