"""Effects on mana production, as structured data (RULES §11, §12; CR 106.12, 305.7, 605.1b, 614, 616).

The oracle parser (:mod:`manasolver.models.text.oracle`) recognises these clauses and
keeps them in ``Card.unsupported`` (so a solver that does not apply them refuses
the card instead of answering wrongly).  :mod:`manasolver.models.text.mana_effects` reads
them (re-exported here) into frozen values
that a solver can apply mechanically:

* :class:`ManaMultiplier` — replacement: "If you tap a permanent for mana, it
  produces twice / three times as much of that mana instead" (Mana Reflection ×2,
  Nyxbloom Ancient ×3).  Only abilities with ``{T}`` in their cost (106.12);
  restrictions and riders stay on all the mana (106.6a); the mana of triggered mana
  abilities (Wild Growth) is not multiplied (Nyxbloom ruling).  The type is chosen
  before multiplying: a Treasure under Nyxbloom gives three mana of *one* color.
* :class:`ProducesInstead` — replacement: "If a land is tapped for mana, it produces
  {B} instead of any other type and amount" (Contamination; ``keep_amount`` False)
  or "… colorless mana instead of any other type" (Pale Moon; ``keep_amount`` True).
* :class:`LandTypeChange` — layer 4 (613.1d): "Nonbasic lands are Mountains" (Blood
  Moon, Magus of the Moon; ``sets``: the land loses its other land types and the
  abilities of its rules text and gets only the intrinsic ``{T}: Add {R}``, 305.7),
  "Enchanted land is an Island" (Spreading Seas), "Each land is a Swamp in addition
  to its other land types" (Urborg; Yavimaya: a Forest), "Lands you control are every
  basic land type in addition to their other types" (Prismatic Omen, Dryad of the
  Ilysian Grove).  :func:`effective_land_types` and :func:`effective_mana_abilities`
  apply them.
* :class:`TriggeredMana` — triggered mana abilities (605.1b) that add mana when a land
  is tapped for mana: Wild Growth, Fertile Ground, Overgrowth, Utopia Sprawl (the
  enchanted land: ``attached_to``), Mana Flare, Heartbeat of Spring, Dictate of
  Karametra (any player's land; that player adds it), Zendikar Resurgent, Vorinclex,
  Mirari's Wake (your lands), Gauntlet of Power (a basic land tapped for the chosen
  color), Caged Sun (a land's ability adding the chosen color, ``{T}`` or not).
* :class:`GrantedAbility` — layer 6 (613.1f): "Lands you control have "{T}: Add one
  mana of any color."" (Chromatic Lantern; it survives Blood Moon, which acts in
  layer 4), "Creatures you control have …" (Cryptolith Rite), "Enchanted land has …"
  (Abundant Growth), "Elves you control have …"; :func:`effective_mana_abilities`
  adds them.
* Doubling Cube's ``{3}, {T}: Double the amount of each type of unspent mana you
  have`` is a mana ability with ``Production.doubles_pool`` (read by the parser);
  the new mana is unrestricted (106.6 example; RULES T117).

Integration notes for the solver (not done here):

* ``StructuredEffect.text`` equals the clause in ``Card.unsupported``; a solver that
  applies every effect of :func:`mana_effects_of` may drop those clauses
  (:func:`remaining_unsupported`).
* :func:`active_effects` lists the effects of the battlefield whose source still has
  its ability (an Urborg under Blood Moon has none, 613.8 dependency).
* Replacement effects on one production event apply in an order the producing
  player chooses (616.1); :func:`replacement_results` gives every distinct result.
* Timestamps are not on the board: board order is taken as timestamp order
  (613.7) where two layer-4 effects don't depend on each other.

The mechanical recipe for one activation of ``ability`` of ``perm`` by its controller:
abilities from :func:`effective_mana_abilities` (not ``card.mana_abilities``); its
options from :func:`manasolver.models.rules.amounts.ability_options`; for each option,
:func:`replacement_results` with :func:`replacements_for` (each result keeps the
ability's restriction); then, for the mana actually produced, one option of each
entry of :func:`triggered_mana_for` (unrestricted, never multiplied).  For "could
produce" (106.7): :func:`could_produce_types` on a permanent's base types.
:func:`activation_results` composes all of it for one activation (the issue-4 board:
Mana Reflection, Nyxbloom Ancient and Wild Growth on a Forest give 6 {G} + {G}).
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass, replace
from functools import lru_cache

from manasolver.models.abilities import AbilityCost, ManaAbility, Production
from manasolver.models.card import BASIC_LAND_TYPES
from manasolver.models.text.mana_effects import (
    LAND_TYPES,
    GrantedAbility,
    LandTypeChange,
    ManaMultiplier,
    ProducesInstead,
    StructuredEffect,
    TriggeredMana,
    mana_effects_of,
    remaining_unsupported,
)
from manasolver.models.state import GameState, Permanent
from manasolver.models.symbols import C, type_bit
from manasolver.models.text.triggers import hurt_when_tapped, self_tap_damage, triggers_of

__all__ = [
    "ActivationResult",
    "GrantedAbility",
    "LandTypeChange",
    "ManaMultiplier",
    "ProducesInstead",
    "StructuredEffect",
    "TriggeredMana",
    "activation_results",
    "active_effects",
    "could_produce_types",
    "effective_land_types",
    "effective_mana_abilities",
    "effective_subtypes",
    "is_tapped_for_mana",
    "mana_effects_of",
    "remaining_unsupported",
    "replacement_results",
    "replacements_for",
    "triggered_mana_for",
]

# ---------------------------------------------------------------------------------------------
# land types (CR 305.6, 305.7, 613.1d)


def _printed_land_types(perm: Permanent) -> tuple[str, ...]:
    return tuple(t for t in perm.card.type_line.subtypes if t in BASIC_LAND_TYPES)


def _is_basic(perm: Permanent) -> bool:
    return "basic" in perm.card.type_line.supertypes


_BOARD_CACHE: dict[int, tuple[GameState, tuple[tuple[Permanent, LandTypeChange], ...]]] = {}


def _type_changes(state: GameState) -> tuple[tuple[Permanent, LandTypeChange], ...]:
    """The land-type changes printed on the battlefield, in board order (cached per
    state: states are frozen, and every land of a board asks)."""
    hit = _BOARD_CACHE.get(id(state))
    if hit is not None and hit[0] is state:
        return hit[1]
    found = tuple((perm, effect) for perm in state.battlefield for effect in mana_effects_of(perm.card)
                  if isinstance(effect, LandTypeChange))
    if len(_BOARD_CACHE) > 64:
        _BOARD_CACHE.clear()
    _BOARD_CACHE[id(state)] = (state, found)
    return found


def _setters(state: GameState) -> list[tuple[Permanent, LandTypeChange]]:
    """Blood Moon-style effects of the battlefield, in board order (timestamps).
    Their sources (Blood Moon, Magus of the Moon, Spreading Seas) are not lands, so no
    setting effect removes another."""
    return [(perm, effect) for perm, effect in _type_changes(state) if effect.sets]


def _affects(effect: LandTypeChange, source: Permanent, land: Permanent) -> bool:
    if not land.is_land:
        return False
    if effect.affected == "nonbasic_lands":
        return not _is_basic(land)
    if effect.affected == "enchanted_land":
        return source.attached_to == land.id
    if effect.affected == "lands_you_control":
        return land.controller == source.controller
    return True  # each_land


def _loses_abilities(state: GameState, perm: Permanent) -> bool:
    """True when a setting effect (Blood Moon, Spreading Seas) applies to land ``perm``:
    it loses the abilities of its rules text (305.7).  Setting effects come from
    non-land sources or from basic lands, so they never remove one another."""
    return any(_affects(effect, source, perm) for source, effect in _setters(state))


def _has_effect(state: GameState, source: Permanent, effect: StructuredEffect) -> bool:
    """Whether ``source`` still has the ability that makes ``effect``: a land under a
    setting effect has lost its rules-text abilities (Urborg under Blood Moon, 613.8
    dependency: Blood Moon applies first)."""
    return not (source.is_land and _loses_abilities(state, source))


_ACTIVE_CACHE: dict[int, tuple[GameState, tuple[tuple[Permanent, StructuredEffect], ...]]] = {}


def active_effects(state: GameState) -> tuple[tuple[Permanent, StructuredEffect], ...]:
    """Every structured effect on the battlefield whose source still has it, in board
    order (cached per state)."""
    hit = _ACTIVE_CACHE.get(id(state))
    if hit is not None and hit[0] is state:
        return hit[1]
    out: list[tuple[Permanent, StructuredEffect]] = []
    for perm in state.battlefield:
        for effect in mana_effects_of(perm.card):
            if _has_effect(state, perm, effect):
                out.append((perm, effect))
    found = tuple(out)
    if len(_ACTIVE_CACHE) > 64:
        _ACTIVE_CACHE.clear()
    _ACTIVE_CACHE[id(state)] = (state, found)
    return found


def _granted_to(effect: GrantedAbility, source: Permanent, perm: Permanent, state: GameState) -> bool:
    """Whether ``effect`` of ``source`` gives ``perm`` its ability now."""
    from manasolver.models.rules.amounts import _matches

    who = effect.who
    mine = perm.controller == source.controller
    if effect.attached:
        if source.attached_to != perm.id:
            return False
    elif (who.controller == "you" and not mine) or (who.controller == "opponents" and mine):
        return False
    if who.other and perm.id == source.id:
        return False
    return _matches(perm, replace(who, controller="any", other=False), source, state)


def effective_land_types(state: GameState, permanent: Permanent) -> tuple[str, ...]:
    """The basic land types ``permanent`` has now, printed order first, after land-type changes.

    Layer 4 (613.1d) in timestamp order, board order standing for timestamps (613.7):
    a setting effect (Blood Moon) replaces the land types of the lands it affects
    (305.7); an adding effect (Urborg, Prismatic Omen) adds to them.  An adding effect
    whose source is a land that a setting effect reaches is gone (that land lost the
    ability: Urborg under Blood Moon, dependency 613.8a), so Blood Moon applies first.
    A non-land is returned its printed subtypes that are basic land types.
    """
    types = list(_printed_land_types(permanent))
    if not permanent.is_land:
        return tuple(types)
    for source, effect in _type_changes(state):
        if not _affects(effect, source, permanent):
            continue
        if effect.sets:
            types = list(effect.types)
        elif _has_effect(state, source, effect):
            types.extend(t for t in effect.types if t not in types)
    return tuple(dict.fromkeys(types))  # printed order, then the types effects add


def effective_subtypes(state: GameState, permanent: Permanent) -> tuple[str, ...]:
    """``permanent``'s subtypes now: for a land reached by a setting effect (Blood Moon)
    every land type (Locus, Gate, Urza's … too) is replaced by the new ones (305.7),
    other subtypes (Dryad Arbor's Dryad) stay; adding effects (Urborg) add theirs.
    Without type changes on the board, the printed subtypes."""
    printed = permanent.card.type_line.subtypes
    if not permanent.is_land or not _type_changes(state):
        return printed
    basics = effective_land_types(state, permanent)
    if _loses_abilities(state, permanent):
        kept = [t for t in printed if t not in LAND_TYPES]
    else:
        kept = [t for t in printed if t not in BASIC_LAND_TYPES]
    return tuple(kept) + basics


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
    keeps = not _loses_abilities(state, permanent)
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


_TAP_DAMAGE_CACHE: dict[int, tuple[GameState, dict[str, int]]] = {}


def tap_damage_from_attachments(state: GameState) -> dict[str, int]:
    """Per permanent id, the damage or life loss its controller takes each time it becomes
    tapped because of an Aura attached to it (Contaminated Ground, Psychic Venom, Insolence:
    "Whenever enchanted land becomes tapped, …", CR 603.2); cached per state.  Such triggers
    whose amount is not read are left to :func:`unread_tap_triggers`."""
    hit = _TAP_DAMAGE_CACHE.get(id(state))
    if hit is not None and hit[0] is state:
        return hit[1]
    out: dict[str, int] = {}
    for perm in state.battlefield:
        if perm.attached_to is None:
            continue
        for trig in triggers_of(perm.card):
            hurt = hurt_when_tapped(trig) if trig.event == "enchanted_tapped" else None
            if hurt:
                out[perm.attached_to] = out.get(perm.attached_to, 0) + hurt
    if len(_TAP_DAMAGE_CACHE) > 64:
        _TAP_DAMAGE_CACHE.clear()
    _TAP_DAMAGE_CACHE[id(state)] = (state, out)
    return out


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


def loses_rules_text(state: GameState, permanent: Permanent) -> bool:
    """Whether ``permanent`` is a land that has lost its rules-text abilities to a
    land-type-setting effect (Blood Moon, Spreading Seas: CR 305.7), activated ones
    included."""
    return permanent.is_land and _loses_abilities(state, permanent)


# ---------------------------------------------------------------------------------------------
# replacement effects on one production event (CR 614, 616.1)


def is_tapped_for_mana(ability: ManaAbility) -> bool:
    """Whether activating ``ability`` taps its source for mana (CR 106.12): its cost
    includes ``{T}``.  Only then do "tapped for mana" replacements and triggers apply
    (Ashnod's Altar under Nyxbloom Ancient: {C}{C}, RULES T113)."""
    return ability.cost.tap


def _single_types(option: tuple[int, ...]) -> list[tuple[int, ...]]:
    """Every choice of one type per slot, as sorted multisets (the type is chosen before a
    multiplier applies: a Treasure under Nyxbloom gives three of one color, RULES T114)."""
    per_slot = [[bit for bit in (1, 2, 4, 8, 16, 32) if slot & bit] for slot in option]
    return sorted({tuple(sorted(combo)) for combo in itertools.product(*per_slot)})


def replacement_results(option: tuple[int, ...],
                        effects: tuple[ManaMultiplier | ProducesInstead, ...]) -> tuple[tuple[int, ...], ...]:
    """Every distinct mana one production event of ``option`` can give under ``effects``,
    over every order the producing player may choose (616.1), each a sorted tuple of
    single type bits.  ``effects`` are those that apply to this event (the caller
    checks 106.12: ``{T}`` in the cost, who tapped what).

    >>> from manasolver.models.symbols import G, B
    >>> reflection = ManaMultiplier("If you tap a permanent for mana, …", 2)
    >>> contamination = ProducesInstead("If a land is tapped for mana, …", B)
    >>> replacement_results((G,), (reflection, contamination))
    ((4,), (4, 4))
    """
    if not effects:
        return (option,)
    results: set[tuple[int, ...]] = set()
    choices = _single_types(option)
    for order in _distinct_orders(effects):
        for mana in choices:
            for effect in order:
                if isinstance(effect, ManaMultiplier):
                    mana = tuple(sorted(mana * effect.factor))
                elif len(mana) < effect.min_amount:
                    continue  # Damping Sphere: not (yet) two or more mana
                elif effect.keep_amount:
                    mana = (effect.mana,) * len(mana)
                else:
                    mana = (effect.mana,)
            results.add(mana)
    return tuple(sorted(results, key=lambda m: (len(m), m)))


def _distinct_orders(effects: tuple[ManaMultiplier | ProducesInstead, ...]
                     ) -> list[tuple[ManaMultiplier | ProducesInstead, ...]]:
    """The distinct orders of ``effects`` (equal effects are interchangeable), so three
    Mana Reflections and Contamination give 4 orders, not 24."""
    counts: dict[ManaMultiplier | ProducesInstead, int] = {}
    for e in effects:
        counts[e] = counts.get(e, 0) + 1
    out: list[tuple[ManaMultiplier | ProducesInstead, ...]] = []

    def walk(prefix: list[ManaMultiplier | ProducesInstead]) -> None:
        if len(prefix) == len(effects):
            out.append(tuple(prefix))
            return
        for e, n in counts.items():
            if n:
                counts[e] = n - 1
                prefix.append(e)
                walk(prefix)
                prefix.pop()
                counts[e] = n

    walk([])
    return out


# ---------------------------------------------------------------------------------------------
# which effects apply to one activation (the solver's entry points)


def replacements_for(state: GameState, permanent: Permanent, ability: ManaAbility,
                     tapper: str | None = None) -> tuple[ManaMultiplier | ProducesInstead, ...]:
    """The replacement effects that apply when ``tapper`` (default: the controller)
    activates ``ability`` of ``permanent``, in board order: none unless the ability taps
    it for mana (106.12, RULES T113); multipliers whose controller is the tapper ("If
    you tap", any permanent, T115); Contamination for a land, Pale Moon for a nonbasic
    land.  Pass them to :func:`replacement_results`."""
    if not is_tapped_for_mana(ability):
        return ()
    who = tapper if tapper is not None else permanent.controller
    out: list[ManaMultiplier | ProducesInstead] = []
    for source, effect in active_effects(state):
        if isinstance(effect, ManaMultiplier):
            if source.controller == who:
                out.append(effect)
        elif isinstance(effect, ProducesInstead) and permanent.is_land and (
                effect.what == "land" or not _is_basic(permanent)):
            out.append(effect)
    return tuple(out)


def _chosen_slot(source: Permanent) -> int:
    return type_bit(source.chosen_color) if source.chosen_color else 0


def triggered_mana_for(state: GameState, permanent: Permanent, ability: ManaAbility, produced: tuple[int, ...],
                       tapper: str | None = None) -> tuple[tuple[tuple[int, ...], ...], ...]:
    """The triggered mana abilities (605.1b) that fire when ``tapper`` (default: the
    controller) activates ``ability`` of ``permanent`` and it produced ``produced``
    (single type bits, after replacements): for each trigger that adds mana to the
    tapper, its options (the player picks one per trigger).  Nothing fires when no mana
    was produced (106.12a, RULES T119).  Their mana is unrestricted and not multiplied
    (T111); an undefined chosen color adds nothing (106.5)."""
    if not produced:
        return ()
    who = tapper if tapper is not None else permanent.controller
    tapped = is_tapped_for_mana(ability)
    kinds = tuple(dict.fromkeys(produced))
    out: list[tuple[tuple[int, ...], ...]] = []
    for source, effect in active_effects(state):
        if not isinstance(effect, TriggeredMana):
            continue
        chosen = _chosen_slot(source)
        trigger = effect.trigger
        if trigger in ("your_creature", "your_nonland"):
            kind_ok = permanent.is_creature if trigger == "your_creature" else not permanent.is_land
            if tapped and kind_ok and source.controller == who:
                _add_trigger(out, effect, kinds, chosen)
            continue
        if not permanent.is_land:
            continue
        if effect.land_types and not set(effect.land_types) & set(effective_land_types(state, permanent)):
            continue
        if trigger == "enchanted_land":
            fires = tapped and source.attached_to == permanent.id and permanent.controller == who
        elif trigger == "any_land":
            fires = tapped
        elif trigger == "your_land":
            fires = tapped and source.controller == who
        elif trigger == "basic_land":
            fires = tapped and _is_basic(permanent) and bool(chosen) and chosen in kinds
        elif trigger == "land_ability":
            fires = source.controller == who and bool(chosen) and chosen in kinds
        else:
            fires = False
        if fires:
            _add_trigger(out, effect, kinds, chosen)
    return tuple(out)


def _add_trigger(out: list[tuple[tuple[int, ...], ...]], effect: TriggeredMana, kinds: tuple[int, ...],
                 chosen: int) -> None:
    """Append what one trigger that fired adds (nothing for an undefined chosen color, 106.5)."""
    if effect.produced_type:
        out.append(tuple((k,) for k in kinds))
    elif effect.chosen:
        if chosen:
            out.append(((chosen,) * effect.chosen,))
    elif effect.options:
        out.append(effect.options)


def could_produce_types(mask: int, effects: tuple[ManaMultiplier | ProducesInstead, ...], amount: int = 1) -> int:
    """The types a permanent whose abilities would make ``amount`` mana of the types in
    ``mask`` could produce under ``effects`` applied in any order (106.7, RULES §12):
    multipliers keep the types; a "produces … instead" effect that applies last decides
    (Contamination and Pale Moon: {B} or {C}); no mana stays no mana."""
    if not mask or amount <= 0:
        return 0
    out = 0
    for bit in (1, 2, 4, 8, 16, 32):
        if mask & bit:
            for mana in replacement_results((bit,) * amount, effects):
                for got in mana:
                    out |= got
    return out


# ---------------------------------------------------------------------------------------------
# everything one activation can give, composed


@dataclass(frozen=True, slots=True)
class ActivationResult:
    """One way an activation can resolve: ``mana`` from the ability itself (slot masks;
    single types when a replacement or trigger made the choice matter), carrying the
    ability's restriction (106.6a); ``extra`` from triggered mana abilities, unrestricted
    and never multiplied (605.1b, RULES T111); ``removed``: counters its variable cost
    removes (storage lands) or cards it reveals."""

    mana: tuple[int, ...]
    extra: tuple[int, ...] = ()
    removed: int = 0


def activation_results(state: GameState, permanent: Permanent, ability: ManaAbility, tapper: str | None = None,
                       reference_mask: int = 0) -> tuple[ActivationResult, ...] | None:
    """Every distinct result of one activation of ``ability`` (an effective ability of
    ``permanent``) by ``tapper`` (default: its controller) now: the options of
    :func:`manasolver.models.rules.amounts.ability_options`, each through the replacement
    effects in every order (:func:`replacements_for`, :func:`replacement_results`), then
    one pick of each triggered mana ability that fires (:func:`triggered_mana_for`).
    None when the ability can't be activated now (its condition is false).

    A could-produce production (Reflecting Pool) needs ``reference_mask``, the types the
    solver found it could mirror (106.7); without it, it adds nothing here.  A pool
    doubler (Doubling Cube) adds no result of its own.
    """
    from manasolver.models.rules.amounts import (
        ability_options,
        counters_removed,
        reference_count,
    )

    options = ability_options(ability, state, permanent)
    if options is None:
        return None
    production = ability.production
    if production.reference:
        mask = reference_mask & ~C if production.colors_only else reference_mask
        n = reference_count(ability, state, permanent)
        options = tuple((bit,) * n for bit in (1, 2, 4, 8, 16, 32) if mask & bit) if mask and n > 0 else ()
    effects = replacements_for(state, permanent, ability, tapper)
    out: dict[ActivationResult, None] = {}
    for option in options:
        removed = counters_removed(ability, option)
        probe = triggered_mana_for(state, permanent, ability, tuple(b for b in (1, 2, 4, 8, 16, 32)
                                                                    if any(s & b for s in option)), tapper)
        if effects or probe:
            results = [m for choice in _single_types(option) for m in replacement_results(choice, effects)]
        else:
            results = [option]
        for mana in results:
            triggers = triggered_mana_for(state, permanent, ability, mana, tapper) if probe else ()
            for picks in itertools.product(*triggers):
                extra = tuple(sorted(slot for pick in picks for slot in pick))
                out[ActivationResult(tuple(mana), extra, removed)] = None
    return tuple(out)


_PROHIBITION = re.compile(r"Activated abilities of (?P<what>[^.]*?) can't be activated(?P<unless> unless "
                          r"they're mana abilities)?\.", re.IGNORECASE)


def mana_prohibitions(state: GameState, player: str) -> list[tuple[Permanent, str]]:
    """Permanents whose text stops ``player``'s mana abilities from being activated (Null Rod,
    Stony Silence, Cursed Totem, Linvala, Phyrexian Revoker: CR 602.5, 605.3), with the
    clause, when ``player`` controls a permanent with a mana ability of the kind they name.
    The payment engine does not apply them yet: its callers refuse instead.  Prohibitions
    that spare mana abilities (Pithing Needle, Damping Matrix) are not listed."""
    out: list[tuple[Permanent, str]] = []
    mine: list[Permanent] | None = None
    for perm in state.battlefield:
        for clause, what in _prohibitions_in(perm.card.oracle_text or ""):
            if mine is None:
                mine = [p for p in state.battlefield if p.controller == player and p.card.mana_abilities]
            if "opponents control" in what and perm.controller == player:
                continue
            kinds = [k for k in ("artifact", "creature") if k in what]
            hit = [p for p in mine if not kinds or any(k in p.types for k in kinds)]
            if hit:
                out.append((perm, clause))
    return out


@lru_cache(maxsize=4096)
def _prohibitions_in(text: str) -> tuple[tuple[str, str], ...]:
    """The prohibitions of one card's text that reach mana abilities: (clause, what it names)."""
    if "can't be activated" not in text:
        return ()
    return tuple((m.group(0), m.group("what").lower()) for m in _PROHIBITION.finditer(text) if not m.group("unless"))
