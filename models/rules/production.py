"""Effects on mana production, as structured data (CR 106.7, 106.12, 305.7, 605.1b, 614, 616).

The oracle parser (:mod:`manasolver.models.text.oracle`) recognises these clauses and
keeps them in ``Card.unsupported`` (so a solver that does not apply them refuses
the card instead of answering wrongly).  :mod:`manasolver.models.text.mana_effects` reads
them, once per card, into the frozen values of :mod:`manasolver.models.effects`
(re-exported here) that a solver can apply mechanically:

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
  apply them (:mod:`manasolver.models.rules.land_types`, :mod:`manasolver.models.rules.board_effects`).
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
  the new mana is unrestricted (CR 106.6 example).

This module is the entry point of the board's effects on mana: it holds what one
activation produces under them (replacement effects, 614 and 616.1; triggered mana
abilities, 605.1b) and re-exports the layer 4 and layer 6 functions and the effects in force.

Notes for the solver:

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
:func:`activation_results` composes all of it for one activation (Mana Reflection,
Nyxbloom Ancient and Wild Growth on a Forest give 6 {G} + {G}).
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

from manasolver.models.abilities import ManaAbility
from manasolver.models.errors import Unsupported
from manasolver.models.effects import (
    GrantedAbility,
    LandTypeChange,
    ManaMultiplier,
    NotOnBoardEffect,
    ProducesInstead,
    TriggeredMana,
)
from manasolver.models.rules.amounts import ability_options, counters_removed, reference_count
from manasolver.models.rules.board_effects import (
    YOUR_PERMANENTS,
    active_effects,
    effective_mana_abilities,
    idle_while_untapped,
    mana_prohibitions,
    tap_damage_from_attachments,
    unread_tap_triggers,
)
from manasolver.models.rules.land_types import (
    effective_land_types,
    effective_subtypes,
    is_basic,
    loses_rules_text,
)
from manasolver.models.state import GameState, Permanent
from manasolver.models.symbols import TYPE_BITS, C, type_bit
from manasolver.models.text.mana_effects import mana_effects_of, remaining_unsupported

__all__ = [
    "ActivationResult",
    "GrantedAbility",
    "LandTypeChange",
    "ManaMultiplier",
    "ProducesInstead",
    "TriggeredMana",
    "activation_results",
    "active_effects",
    "alters_activations",
    "could_produce_types",
    "effective_land_types",
    "effective_mana_abilities",
    "effective_subtypes",
    "fixed_results",
    "is_tapped_for_mana",
    "loses_rules_text",
    "mana_effects_of",
    "mana_prohibitions",
    "remaining_unsupported",
    "replacement_results",
    "replacements_for",
    "tap_damage_from_attachments",
    "triggered_mana_for",
    "unread_tap_triggers",
]


# ---------------------------------------------------------------------------------------------
# replacement effects on one production event (CR 614, 616.1)


def is_tapped_for_mana(ability: ManaAbility) -> bool:
    """Whether activating ``ability`` taps its source for mana (CR 106.12): its cost
    includes ``{T}``.  Only then do "tapped for mana" replacements and triggers apply
    (Ashnod's Altar under Nyxbloom Ancient: {C}{C}, CR 106.12, Nyxbloom Ancient ruling)."""
    return ability.cost.tap


def _single_types(option: tuple[int, ...]) -> list[tuple[int, ...]]:
    """Every choice of one type per slot, as sorted multisets (the type is chosen before a
    multiplier applies: a Treasure under Nyxbloom gives three of one color, Nyxbloom Ancient ruling)."""
    per_slot = [[bit for bit in TYPE_BITS if slot & bit] for slot in option]
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
    it for mana (106.12, Nyxbloom Ancient ruling); multipliers whose controller is the tapper ("If
    you tap", any permanent, Nyxbloom Ancient ruling); Contamination for a land, Pale Moon for a nonbasic
    land.  Pass them to :func:`replacement_results`."""
    if not is_tapped_for_mana(ability):
        return ()
    who = tapper if tapper is not None else permanent.controller
    out: list[ManaMultiplier | ProducesInstead] = []
    for source, effect in active_effects(state):
        if isinstance(effect, ManaMultiplier):
            if source.controller == who and (effect.what == "permanent" or (permanent.is_land and is_basic(permanent))):
                out.append(effect)
        elif isinstance(effect, ProducesInstead) and permanent.is_land and (
                effect.what == "land" or (effect.what == "nonbasic_land" and not is_basic(permanent))
                or (effect.what == "basic_land" and is_basic(permanent) and source.controller == permanent.controller)):
            if effect.land_type and effect.land_type not in effective_land_types(state, permanent):
                continue  # Naked Singularity: "Plains produce {R}" reaches Plains only
            out.append(effect)
        elif isinstance(effect, NotOnBoardEffect) and permanent.is_land:
            _refuse_unknown(state, source, effect, permanent)
    return tuple(out)


def _refuse_unknown(state: GameState, source: Permanent, effect: NotOnBoardEffect, land: Permanent) -> None:
    """Refuse a land tapped for mana that ``effect`` may reach (Chaos Moon on a Mountain, Glorious
    Sunrise's grant after combat began on its controller's turn): what it does is not on the board."""
    if effect.land_types and not set(effect.land_types) & set(effective_land_types(state, land)):
        return
    if land.tapped and not any(ab.production.reference for p in state.battlefield for ab in p.card.mana_abilities):
        return  # a tapped land adds nothing now, and no ability asks what it could produce (106.7)
    if effect.window:
        from manasolver.models.state import STEPS
        if state.turn.active != source.controller or STEPS.index(state.turn.step) < STEPS.index(effect.window):
            return
    from manasolver.models.rules.missing import NotOnBoard
    raise NotOnBoard(f"{source.card.name} ({source.id}): {effect.text!r} may change what {land.card.name} ({land.id}) "
                     f"adds, and that depends on {effect.missing}, which the board does not hold",
                     f"battlefield.{source.id}")


def _chosen_slot(source: Permanent) -> int:
    return type_bit(source.chosen_color) if source.chosen_color else 0


def triggered_mana_for(state: GameState, permanent: Permanent, ability: ManaAbility, produced: tuple[int, ...],
                       tapper: str | None = None) -> tuple[tuple[tuple[int, ...], ...], ...]:
    """The triggered mana abilities (605.1b) that fire when ``tapper`` (default: the
    controller) activates ``ability`` of ``permanent`` and it produced ``produced``
    (single type bits, after replacements): for each trigger that adds mana to the
    tapper, its options (the player picks one per trigger).  Nothing fires when no mana
    was produced (106.12a).  Their mana is unrestricted and not multiplied
    (605.1b); an undefined chosen color adds nothing (106.5).  The supply's readers leave
    ``tapper`` unset, and :func:`~manasolver.models.rules.board_effects.reached_by_effects`
    relies on it: a trigger on its controller's permanents reaches those permanents only."""
    if not produced:
        return ()
    who = tapper if tapper is not None else permanent.controller
    tapped = is_tapped_for_mana(ability)
    kinds = tuple(dict.fromkeys(produced))
    out: list[tuple[tuple[int, ...], ...]] = []
    for source, effect in active_effects(state):
        if not isinstance(effect, TriggeredMana) or effect.unspendable:
            continue  # Snowfall's mana pays only cumulative upkeep, no cost a query asks about
        if effect.snow and not permanent.is_snow:
            continue  # Winter's Night: snow lands only
        if effect.basic and not (permanent.is_land and is_basic(permanent)):
            continue  # Lavaleaper: basic lands only
        chosen = _chosen_slot(source)
        trigger = effect.trigger
        kind = YOUR_PERMANENTS.get(trigger)
        if kind is not None:
            if tapped and kind(permanent) and source.controller == who:
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
        elif trigger == "any_land_while_source_tapped":
            # Barbflare Gremlin: its intervening "if" holds only while it is tapped (CR 603.4);
            # its damage to that player is not applied, so it is refused where it may be tapped
            if tapped and not idle_while_untapped(state, source, effect.text):
                raise Unsupported(f"{source.card.name} ({source.id}): {effect.text!r} adds mana and deals damage "
                                  "while it is tapped, which payments do not apply yet", f"battlefield.{source.id}")
            fires = False
        elif trigger == "your_land":
            fires = tapped and source.controller == who
        elif trigger == "basic_land":
            fires = tapped and is_basic(permanent) and bool(chosen) and chosen in kinds
        elif trigger == "land_ability":
            fires = source.controller == who and bool(chosen) and chosen in kinds
        elif trigger == "imprinted_name":
            fires = tapped and _imprinted_name(state, source, permanent)
        else:
            fires = False
        if fires and effect.amount is not None:
            # Elvish Guidance: "an additional {G} for each Elf on the battlefield", counted now
            from manasolver.models.rules.amounts import evaluate_amount
            n = evaluate_amount(effect.amount, state, source)
            if n > 0:
                out.append(tuple(option * n for option in effect.options))
            continue
        if fires:
            _add_trigger(out, effect, kinds, chosen)
    return tuple(out)


def _imprinted_name(state: GameState, source: Permanent, land: Permanent) -> bool:
    """Whether ``land`` has the name of a card exiled with ``source`` (Extraplanar Lens); the
    source's ``imprinted`` must be given."""
    if source.imprinted is None:
        from manasolver.models.rules.missing import NotOnBoard, permanent_field
        raise NotOnBoard(f"{source.card.name} ({source.id}) adds mana when a land with the name of the card exiled "
                         f"with it is tapped for mana, and the board does not give that card (\"imprinted\")",
                         permanent_field(state, source, "imprinted"))
    return any(card.name == land.card.name for card in source.imprinted)


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
    ``mask`` could produce under ``effects`` applied in any order (106.7):
    multipliers keep the types; a "produces … instead" effect that applies last decides
    (Contamination and Pale Moon: {B} or {C}); no mana stays no mana."""
    if not mask or amount <= 0:
        return 0
    out = 0
    for bit in TYPE_BITS:
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
    and never multiplied (605.1b, Nyxbloom Ancient ruling); ``removed``: counters its variable cost
    removes (storage lands) or cards it reveals."""

    mana: tuple[int, ...]
    extra: tuple[int, ...] = ()
    removed: int = 0


def fixed_results(ability: ManaAbility) -> tuple[ActivationResult, ...] | None:
    """What :func:`activation_results` gives for ``ability`` on every board where
    :func:`alters_activations` is false, when its production reads nothing of the board
    (:attr:`~manasolver.models.abilities.Production.reads_board`) and its activation has no
    condition (CR 602.5b): each distinct option that adds mana, once (CR 106.5); None for an
    ability whose results are read from the board.  A pool doubler's are none (Doubling Cube adds
    no option of its own).  Kept in its card's reading for a printed ability (read once per
    card); an ability an effect gives or changes (Urborg, Blood Moon, Chromatic Lantern) has it
    read with the reading made on that board."""
    production = ability.production
    if ability.condition is not None or production.reads_board:
        return None
    return tuple(ActivationResult(option) for option in dict.fromkeys(o for o in production.options if o))


#: The effects that change what an activation produces (:func:`replacements_for`,
#: :func:`triggered_mana_for`), or refuse it (an effect whose reach is not on the board): every
#: effect type those two read, and no other; an effect type either comes to read belongs here,
#: or :func:`fixed_results` would be used where it changes the results.
_ALTERING = (ManaMultiplier, ProducesInstead, NotOnBoardEffect, TriggeredMana)


def alters_activations(state: GameState) -> bool:
    """Is an effect in force that replaces, adds to or refuses what an activation produces
    (CR 605.1b, 614, 616.1)?  Without one, every ability's results are its options as
    :func:`~manasolver.models.rules.amounts.ability_options` gives them, and those of
    :func:`fixed_results` are its results."""
    return any(isinstance(effect, _ALTERING) for _, effect in active_effects(state))


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
    options = ability_options(ability, state, permanent)
    if options is None:
        return None
    production = ability.production
    if production.reference:
        mask = reference_mask & ~C if production.colors_only else reference_mask
        n = reference_count(ability, state, permanent)
        options = tuple((bit,) * n for bit in TYPE_BITS if mask & bit) if mask and n > 0 else ()
    effects = replacements_for(state, permanent, ability, tapper)
    if not effects and not any(isinstance(effect, TriggeredMana) for _, effect in active_effects(state)):
        # no replacement and no triggered mana on the board: each option is one result as it is
        plain: dict[tuple[tuple[int, ...], int], None] = {}
        for option in options:
            plain[(tuple(option), counters_removed(ability, option))] = None
        return tuple(ActivationResult(mana, (), removed) for mana, removed in plain)
    out: dict[ActivationResult, None] = {}
    for option in options:
        removed = counters_removed(ability, option)
        probe = triggered_mana_for(state, permanent, ability, tuple(b for b in TYPE_BITS
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

