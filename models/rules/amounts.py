"""Board-dependent amounts of mana (CR 107.1b, 107.2) and the concrete options they give.

:func:`evaluate_amount` reads an :class:`~manasolver.models.abilities.Amount`
off a :class:`~manasolver.models.state.GameState` for one permanent (the
ability's source); :func:`concrete_options` turns a
:class:`~manasolver.models.abilities.Production` into the options one
activation can really add now, each option's slots repeated ``amount`` times.

Counting follows the permanents' current characteristics: an impending
Overlord with a time counter is not a creature (``Permanent.types``).  Devotion
(CR 700.5) counts the mana symbols of the mana costs of the controller's
permanents, a hybrid symbol counting once for devotion to any of its colors
(Nykthos ruling 2013-09-15).  Power is the card's printed power plus +1/+1 and
minus -1/-1 counters; a power that is not a number (``*``) is refused as unsupported.
Land subtypes are counted after land-type changes on the board
(:func:`manasolver.models.rules.land_types.effective_subtypes`: a Forest under Urborg is
a Swamp for Cabal Coffers; Urza's Tower under Blood Moon is no longer an Urza's Tower).

:func:`ability_options` is the one function the solver calls for every ability: it
applies, on top of the amounts, everything about an ability that is read from the
board (chosen color, commander identity, colors among permanents, activation
conditions, "instead" productions, variable counter costs).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Collection, Iterable
from dataclasses import replace

from manasolver.models.abilities import (
    Amount,
    Condition,
    ManaAbility,
    Production,
    Restriction,
)
from manasolver.models.card import BASIC_LAND_TYPES, Card
from manasolver.models.errors import Unsupported
from manasolver.models.rules.land_types import (
    effective_land_types,
    effective_subtypes,
    has_effect,
    loses_rules_text,
    type_changes,
)
from manasolver.models.rules.missing import NotOnBoard, permanent_field, player_field
from manasolver.models.rules.history import HISTORY_AMOUNTS, entered_creatures, history_amount
from manasolver.models.text.mana_amounts import CHOSEN_SUBTYPE
from manasolver.models.state import STEPS, GameState, Permanent, Player, fits_cost
from manasolver.models.symbols import ANY_COLOR, ANY_TYPE, COLORS, TYPE_BITS, type_bit

__all__ = ["MAX_REMOVED", "SACRIFICED_COUNT", "SACRIFICED_KINDS", "TAPPED_COUNT", "NotOnBoard",
           "ability_options", "ability_restriction", "color_identity", "commander_identity", "concrete_options",
           "condition_holds", "counters_removed", "devotion", "evaluate_amount", "hand_without_cast_card",
           "permanent_field", "permanent_matches", "player_field", "player_identity", "power_of", "reference_count",
           "reveals_from_hand", "reveals_hand", "sacrificed_kind", "sacrificed_kinds", "sacrificed_value",
           "sacrificed_values"]

#: The most counters :func:`ability_options` expands a variable counter cost to (one option per number).
MAX_REMOVED = 200
#: Amounts by the permanent a cost sacrifices or exiles: its mana value (Priest of Yawgmoth, Food
#: Chain) or its power (Furgul, Quag Nurturer), as it last existed on the battlefield (CR 608.2h).
SACRIFICED_KINDS = ("sacrificed_mana_value", "sacrificed_power")
#: The amount of "Sacrifice X Goats: Add X mana" (Springjack Pasture): how many the cost sacrifices.
SACRIFICED_COUNT = "sacrificed_count"
#: The amount of "Tap X untapped tokens you control: Add X mana" (Hazel of the Rootbloom): how many
#: the cost taps, each with one of the amount's ``types`` (``token``: tokens only).
TAPPED_COUNT = "tapped_count"
#: Amount kinds that :func:`concrete_options` can't evaluate (they need :func:`ability_options`).
_CHOICE_KINDS = ("removed", "hand", SACRIFICED_COUNT, TAPPED_COUNT, *SACRIFICED_KINDS)
#: How a sacrifice kind names the value the sacrificed permanent must have, by amount kind
#: (read by :func:`manasolver.models.state.fits_cost`).
_VALUE_WORDS = {"sacrificed_mana_value": " with mana value ", "sacrificed_power": " with power "}


def _subtypes(perm: Permanent, state: GameState | None) -> tuple[str, ...]:
    """Its subtypes now: a land's after land-type changes (Urborg, Blood Moon; CR 305.7)."""
    if state is None or not perm.is_land:
        return perm.card.type_line.subtypes
    return effective_subtypes(state, perm)


def permanent_matches(perm: Permanent, amount: Amount, source: Permanent | None = None,
                      state: GameState | None = None) -> bool:
    """Whether permanent ``perm`` is one that ``amount`` counts: its types, subtypes now (after
    land-type changes), keywords, name (``~``: the ``source``'s), power, supertypes and whether it
    is a token."""
    card = perm.card
    types = perm.types
    if amount.types and amount.types.isdisjoint(types):
        return False
    if amount.with_counter and not (any(n > 0 for _, n in perm.counters) if amount.with_counter == "any"
                                    else perm.counter(amount.with_counter) >= max(1, amount.min_counters)):
        return False
    if amount.all_subtypes and not amount.all_subtypes <= set(_subtypes(perm, state)):
        return False
    if amount.keywords and not amount.keywords <= card.keywords:
        return False
    if amount.token and perm.token != (amount.token == "token"):
        return False
    if amount.name == "chosen":
        # the card name chosen as the source entered (Alpine Moon); none given: nothing has it
        chosen = source.chosen_name if source is not None else None
        if chosen is None or card.name.lower() != chosen.lower():
            return False
    elif amount.name and card.name != (source.card.name if amount.name == "~" and source else amount.name):
        return False
    if amount.min_power is not None and not (perm.is_creature and power_of(perm) >= amount.min_power):
        return False
    if amount.subtypes:
        subs: Collection[str] = _subtypes(perm, state)
        if "creature" not in types and "kindred" not in types:
            # creature types belong only to creatures and kindred (CR 205.1a, 205.3d)
            subs = set(subs) - _creature_types_of(card.type_line.subtypes, perm)
        if amount.subtypes.isdisjoint(subs) and not (amount.or_name_has
                                                     and amount.or_name_has in card.name.lower()):
            return False
    return not (amount.supertypes and not set(amount.supertypes) <= set(card.type_line.supertypes))


def _creature_types_of(subtypes: tuple[str, ...], perm: Permanent) -> set[str]:
    """The subtypes that were creature types: those of a creature card that is no longer one."""
    if "creature" in perm.card.type_line.types or "kindred" in perm.card.type_line.types:
        return set(subtypes)
    return set()


def power_of(perm: Permanent) -> int:
    """Power: printed power plus +1/+1 counters minus -1/-1 counters.

    A power set by a characteristic-defining ability (``*``) is not computed:
    :class:`~manasolver.models.errors.Unsupported`, never a guess."""
    return perm.stat("power")


def toughness_of(perm: Permanent) -> int:
    """Toughness: printed toughness plus +1/+1 counters minus -1/-1 counters (as
    :func:`power_of`; a ``*`` toughness is :class:`~manasolver.models.errors.Unsupported`)."""
    return perm.stat("toughness")




def _most_sharing_a_type(creatures: list[Permanent], state: GameState) -> int:
    """The greatest number of ``creatures`` that have a creature type in common (a changeling has
    every creature type, CR 702.73a)."""
    every = sum(1 for p in creatures if "changeling" in p.card.keywords)
    counts: Counter[str] = Counter()
    for p in creatures:
        if "changeling" not in p.card.keywords:
            counts.update(set(_subtypes(p, state)) & _creature_types_of(p.card.type_line.subtypes, p))
    return every + max(counts.values(), default=0) if counts or every else 0


def devotion(state: GameState, controller: str, colors: int) -> int:
    """Mana symbols among the mana costs of ``controller``'s permanents that are any of ``colors``."""
    total = 0
    for perm in state.controlled_by(controller):
        cost = perm.card.mana_cost
        if cost is None:
            continue
        total += sum(1 for s in cost.symbols if s.colors & colors)
    return total


def _card_matches(card: Card, amount: Amount) -> bool:
    """A card in a hand or graveyard: types, subtypes, colors (any of) and power."""
    if amount.types and not (set(amount.types) & set(card.type_line.types)):
        return False
    if amount.subtypes and not (set(amount.subtypes) & set(card.type_line.subtypes)):
        return False
    if amount.colors and not card.colors & amount.colors:
        return False
    if amount.x_cost and not (card.mana_cost is not None and any(s.variable for s in card.mana_cost.symbols)):
        return False
    if amount.min_power is not None:
        if card.power is None:
            return False
        try:
            power = int(card.power)
        except ValueError:
            raise Unsupported(f"{card.name} has power {card.power!r}, which the engine cannot evaluate",
                              "hand") from None
        return power >= amount.min_power
    return True


def evaluate_amount(amount: Amount | None, state: GameState, permanent: Permanent,
                    option_colors: int = 0, removed: int = 0) -> int:
    """The value of ``amount`` for ``permanent``'s ability now; negative values give 0.

    ``option_colors``: for devotion to "that color" (``Amount.colors == 0``,
    Nykthos), the color of the option chosen.  ``removed``: for the ``"removed"``
    and ``"hand"`` kinds, the number the player chose.  None means 1.
    """
    if amount is None:
        return 1
    if CHOSEN_SUBTYPE in amount.subtypes:
        # the creature type chosen as it entered (Three Tree City); none chosen: nothing has it
        if not permanent.chosen_type:
            return max(0, amount.plus * amount.times)
        amount = replace(amount, subtypes=frozenset({permanent.chosen_type.lower()}))
    kind = amount.kind
    if kind == "fixed":
        value = 1
    elif kind == "count" and _by_types_only(amount):
        value = _count_by_types(amount, state, permanent)
    elif kind in ("count", "count_or_named", "max_power", "total_power", "same_name", "max_toughness",
                  "distinct_powers", "shared_type"):
        if amount.controller == "you":
            pool = state.controlled_by(permanent.controller)
        elif amount.controller == "opponents":
            pool = tuple(p for p in state.battlefield if p.controller != permanent.controller)
        else:
            pool = state.battlefield
        found = [p for p in pool
                 if permanent_matches(p, amount, permanent, state) and not (amount.other and p.id == permanent.id)]
        if kind in ("count", "count_or_named"):
            value = len(found)
        elif kind == "same_name":
            value = max(Counter(p.card.name for p in found).values(), default=0)
        elif kind == "max_toughness":
            value = max((toughness_of(p) for p in found if p.is_creature), default=0)
        elif kind == "distinct_powers":
            value = len({power_of(p) for p in found if p.is_creature})
        elif kind == "shared_type":
            value = _most_sharing_a_type([p for p in found if p.is_creature], state)
        else:
            powers = [power_of(p) for p in found if p.is_creature]
            value = (max(powers, default=0) if kind == "max_power" else sum(powers))
    elif kind in _CHOICE_KINDS:
        value = removed
    elif kind == "life":
        value = state.player(permanent.controller).life
    elif kind == "entered_power":
        # Alena, Kessig Trapper: the greatest power among creatures that entered this turn, 0 if none
        value = max((power_of(p) for p in entered_creatures(state, permanent)), default=0)
    elif kind in HISTORY_AMOUNTS:
        value = history_amount(amount, state, permanent)
    elif kind == "history":
        raise NotOnBoard(f"{permanent.card.name} ({permanent.id}) adds mana by {amount.name}, which the board "
                         "does not hold", f"battlefield.{permanent.id}")
    elif kind == "modified":
        # CR 700.9: counters on it, an Equipment attached, or an Aura its controller controls attached
        value = sum(n for _, n in permanent.counters) + sum(
            1 for p in state.battlefield if p.attached_to == permanent.id
            and ("equipment" in p.card.type_line.subtypes
                 or ("aura" in p.card.type_line.subtypes and p.controller == permanent.controller)))
    elif kind == "other_activated":
        # "Activate only if this creature has another activated ability" (Tazri's grant)
        from manasolver.models.rules.other_activated import has_another_activated_ability
        value = int(has_another_activated_ability(state, permanent))
    elif kind == "lands_played":
        value = state.player(permanent.controller).lands_played_this_turn
    elif kind == "life_gained":
        gained = state.player(permanent.controller).life_gained_this_turn
        if gained is None:
            raise NotOnBoard(f"{permanent.card.name} ({permanent.id}) adds mana equal to the life "
                              f"{permanent.controller} gained this turn, which the board does not give "
                              f"(\"life_gained_this_turn\")", player_field(state, permanent.controller,
                                                                           "life_gained_this_turn"))
        value = gained
    elif kind == "domain":
        value = len({t for p in state.controlled_by(permanent.controller) if p.is_land
                     for t in _subtypes(p, state) if t in BASIC_LAND_TYPES})
    elif kind == "graveyard":
        value = sum(1 for c in state.player(permanent.controller).graveyard if _card_matches(c, amount))
    elif kind == "power":
        value = power_of(permanent)
    elif kind == "toughness":
        value = toughness_of(permanent)
    elif kind == "counters" and amount.counter == "any":
        value = sum(n for _, n in permanent.counters)  # "each counter on ~": of every kind
    elif kind == "counters":
        value = permanent.counter(amount.counter)
    elif kind == "devotion":
        colors = amount.colors or option_colors
        value = devotion(state, permanent.controller, colors) if colors else 0
    else:
        raise ValueError(f"unknown amount kind {kind!r}")
    return max(0, (value + amount.plus) * amount.times)


def _by_types_only(amount: Amount) -> bool:
    """Does ``amount`` read the permanents it counts only through their types, subtypes,
    controller and identity (no counters, keywords, names, power or supertypes)?"""
    return not (amount.with_counter or amount.all_subtypes or amount.keywords or amount.name
                or amount.min_power is not None or amount.supertypes or amount.token or amount.or_name_has)


#: Each permanent of a board (its view's ``typed``) as (id, controller, types now, the subtypes a count reads:
#: a land's after land-type changes, creature types only on a creature or kindred), in board
#: order; what :func:`permanent_matches` reads of it for an amount of :func:`_by_types_only`.
def _typed(state: GameState) -> tuple[tuple[str, str, tuple[str, ...], Collection[str]], ...]:
    view = state.view
    found = view.typed
    if found is None:
        found = view.typed = _typed_rows(state)
    return found  # type: ignore[no-any-return]


def _typed_rows(state: GameState) -> tuple[tuple[str, str, tuple[str, ...], Collection[str]], ...]:
    """:func:`_typed`'s rows, read off each permanent's type line: its printed subtypes unless land-type
    changes are on the board, and a creature card that is no longer a creature (impending) without
    its creature types: the rules of :func:`_subtypes` and :func:`_creature_types_of`, written
    out here once per permanent (a change of theirs is a change here)."""
    changes = bool(type_changes(state))
    rows = []
    for perm in state.battlefield:
        line = perm.card.type_line
        printed = line.types
        types = printed if perm.cast_for is None else perm.types
        subs: Collection[str] = effective_subtypes(state, perm) if changes and "land" in printed else line.subtypes
        if ("creature" not in types and "kindred" not in types and line.subtypes
                and ("creature" in printed or "kindred" in printed)):
            subs = set(subs) - set(line.subtypes)
        rows.append((perm.id, perm.controller, types, subs))
    return tuple(rows)


def _count_by_types(amount: Amount, state: GameState, permanent: Permanent) -> int:
    """:func:`evaluate_amount`'s count of the permanents matching ``amount`` (one of
    :func:`_by_types_only`): by subtypes over the state's permanents read once (:func:`_typed`), by
    card types and controllers alone straight off the permanents (a board counts once, as a rule)."""
    me = permanent.controller
    who = amount.controller
    types = amount.types
    subtypes = amount.subtypes
    other = permanent.id if amount.other else None
    n = 0
    if not subtypes:
        for p in state.battlefield:
            controller = p.controller
            if (who == "you" and controller != me) or (who == "opponents" and controller == me):
                continue
            if types and types.isdisjoint(p.card.type_line.types if p.cast_for is None else p.types):
                continue
            if p.id != other:
                n += 1
        return n
    for pid, controller, ptypes, subs in _typed(state):
        if (who == "you" and controller != me) or (who == "opponents" and controller == me):
            continue
        if types and types.isdisjoint(ptypes):
            continue
        if subtypes.isdisjoint(subs):
            continue
        if pid != other:
            n += 1
    return n


def concrete_options(production: Production, state: GameState,
                     permanent: Permanent) -> tuple[tuple[int, ...], ...]:
    """The options one activation adds now: each option's slots repeated ``amount``
    times; options that would add no mana are left out (CR 106.5, 107.1b).

    A "could produce" production (``reference``) has no options of its own: the
    solver resolves it against the other permanents (CR 106.7); this returns ().
    Amounts chosen on activation (``"removed"``, ``"hand"``) need
    :func:`ability_options`; here they give () (nothing assumed).
    """
    if production.amount is not None and production.amount.kind in _CHOICE_KINDS:
        return ()
    return _repeated(production.options, production.amount, state, permanent)


def _repeated(options: tuple[tuple[int, ...], ...], amount: Amount | None, state: GameState,
              permanent: Permanent) -> tuple[tuple[int, ...], ...]:
    """Each of ``options`` that adds mana with its slots repeated ``amount`` times now (an amount
    not chosen on activation; devotion to "that color" reads each option's colors), each once."""
    if amount is None:
        return tuple(dict.fromkeys(option for option in options if option))
    out: list[tuple[int, ...]] = []
    for option in options:
        colors = 0
        if amount.kind == "devotion" and not amount.colors:
            for slot in option:
                colors |= slot
            colors &= sum(type_bit(c) for c in COLORS)
        n = evaluate_amount(amount, state, permanent, colors)
        if n > 0 and option:
            out.append(option * n)
    return tuple(dict.fromkeys(out))


# ---------------------------------------------------------------------------------------------
# everything read from the board about one ability


def condition_holds(condition: Condition | None, state: GameState, permanent: Permanent) -> bool:
    """Whether ``condition`` holds now for ``permanent``'s ability (CR 602.5b): every
    counted amount at least its bound (at most ``at_most`` when set), and the turn
    part (``your_turn``, ``before_step``, ``opponents_turn``) and the permanent's own type
    (``self_type``).  None holds."""
    if condition is None:
        return True
    for amount, at_least in condition.counts:
        value = evaluate_amount(amount, state, permanent)
        if value < at_least or (condition.at_most is not None and value > condition.at_most):
            return False
    if condition.your_turn and state.turn.active != permanent.controller:
        return False
    if condition.opponents_turn and state.turn.active == permanent.controller:
        return False
    if condition.self_type and condition.self_type not in permanent.types:
        return False
    return not (condition.before_step and state.turn.step in STEPS
                and STEPS.index(state.turn.step) >= STEPS.index(condition.before_step))


_SYMBOL = re.compile(r"\{([^{}]{1,12})\}")


def color_identity(card: Card) -> int:
    """A card's color identity (CR 903.4): its colors (color indicator and
    characteristic-defining abilities included, 903.4a), the colors of the mana
    symbols in its mana cost and in its rules text (reminder text excluded, 903.4b),
    over every face (903.4d).  Kept in the card's facts: a batch asks it for the same commander
    on every line."""
    facts = card.facts
    found: int | None = facts.identity
    if found is None:
        found = facts.identity = _color_identity(card)
    return found


def _color_identity(card: Card) -> int:
    from manasolver.models.errors import ManasolverError
    from manasolver.models.text.oracle import strip_reminder
    from manasolver.models.symbols import iter_symbols

    mask = card.colors
    if card.mana_cost is not None:
        mask |= card.mana_cost.colors
    for line in card.oracle_text.split("\n"):
        for m in _SYMBOL.finditer(strip_reminder(line)):
            try:
                symbols = list(iter_symbols(m.group(0), "oracle_text"))
            except ManasolverError:
                symbols = []  # a symbol that is not mana ({TK}, {A}) has no color
            for sym in symbols:
                mask |= sym.colors
    for face in card.faces:
        if face is not card:
            mask |= color_identity(face)
    return mask & ANY_COLOR


def commander_identity(state: GameState, player_name: str) -> int:
    """The color identity of ``player_name``'s commander(s) as a color mask
    (CR 903.4; two commanders: both identities together, 903.4c).  0 without a
    commander: "your commander's color identity" is then undefined and such
    abilities add no mana (903.4f)."""
    try:
        player = state.player(player_name)
    except KeyError:
        return 0
    return _identity_of(player)


def player_identity(player: Player) -> int:
    """The color identity of ``player``'s commander(s) as a color mask, as
    :func:`commander_identity` gives it for that player (each commander card's identity is a
    fact of the card)."""
    return _identity_of(player)


def _identity_of(player: Player) -> int:
    mask = 0
    for card in player.commander:
        mask |= color_identity(card)
    return mask


#: The ``colors_among`` kinds that read what lands could produce (CR 106.7): Plaza of Harmony's
#: types, Gond Gate's colors of Gates, Star Compass's colors of basic lands.
COULD_PRODUCE_KINDS = ("gates_you_control", "gate_colors_you_control", "basic_lands_you_control")


def _colors_among(kind: str, state: GameState, permanent: Permanent) -> int:
    """The colors a ``colors_among`` production may add (Meteor Crater, Mox Amber, Corrupted
    Grafstone; Chrome Mox's exiled card, read from ``imprinted``)."""
    mask = 0
    if kind == "imprinted":
        if permanent.imprinted is None:
            raise NotOnBoard(f"{permanent.card.name} ({permanent.id}) adds mana of the colors of the card exiled "
                              "with it, which the board does not give (\"imprinted\")",
                              permanent_field(state, permanent, "imprinted"))
        for card in permanent.imprinted:
            mask |= card.colors
        return mask & ANY_COLOR
    if kind in COULD_PRODUCE_KINDS:
        return _lands_could_produce(state, permanent, kind) & (ANY_TYPE if kind == "gates_you_control" else ANY_COLOR)
    if kind == "noted":
        raise NotOnBoard(f"{permanent.card.name} ({permanent.id}) adds mana of its last noted type, which the "
                          "board does not hold", f"battlefield.{permanent.id}")
    if kind == "self":
        from manasolver.models.rules.colors import permanent_colors
        return permanent_colors(state, permanent) & ANY_COLOR
    if kind in ("graveyard", "graveyard_legendary_creatures"):
        for card in state.player(permanent.controller).graveyard:
            if kind == "graveyard" or ("legendary" in card.type_line.supertypes and "creature" in card.type_line.types):
                mask |= card.colors
        return mask & ANY_COLOR
    if kind == "permanents":
        # Reflective Gate: a color some permanent on the battlefield has now (layer 5, CR 105.2)
        from manasolver.models.rules.colors import permanent_colors
        for p in state.battlefield:
            mask |= permanent_colors(state, p)
        return mask & ANY_COLOR
    if kind in ("legendary_permanents", "monocolored_permanents_you_control"):
        # Plaza of Heroes, Tarnation Vista: the permanents' colors now (layer 5, CR 105.2)
        from manasolver.models.rules.colors import permanent_colors
        for p in state.controlled_by(permanent.controller):
            colors = permanent_colors(state, p) & ANY_COLOR
            if kind == "legendary_permanents" and "legendary" not in p.card.type_line.supertypes:
                continue
            if kind == "monocolored_permanents_you_control" and colors.bit_count() != 1:
                continue
            mask |= colors
        return mask
    for p in state.controlled_by(permanent.controller):
        if kind == "legendary_creatures_planeswalkers" and not (
                "legendary" in p.card.type_line.supertypes
                and ({"creature", "planeswalker"} & set(p.types))):
            continue
        mask |= p.card.colors
    return mask & ANY_COLOR


def _lands_could_produce(state: GameState, permanent: Permanent, kind: str) -> int:
    """The types the Gates (after land-type changes) or the basic lands ``permanent``'s controller
    controls could produce (CR 106.7): the intrinsic abilities of their land types now and, unless a
    land-type change took it away, their printed abilities' options, costs and conditions ignored
    (Plaza of Harmony, Star Compass).  Other effects on mana on the board (granted abilities,
    replacements) are not followed here: unsupported; so is one of them that itself mirrors lands.
    A rule of spending (CR 609.4b: Chromatic Orrery) changes what mana pays, not what a land could
    produce, so it is no such effect."""
    from manasolver.models.effects import ConditionalDamage, LandTypeChange, ManaMultiplier, SpendAs, TriggeredMana
    from manasolver.models.text.mana_effects import mana_effects_of
    for source in state.battlefield:
        for effect in mana_effects_of(source.card):
            if not isinstance(effect, (LandTypeChange, ManaMultiplier, TriggeredMana, ConditionalDamage, SpendAs)) \
                    and has_effect(state, source, effect):
                raise Unsupported(f"{permanent.card.name} ({permanent.id}) mirrors what lands could produce, and "
                                  f"{source.card.name} ({source.id}) may change it; not followed",
                                  f"battlefield.{permanent.id}")
    mask = 0
    for land in state.controlled_by(permanent.controller):
        if not land.is_land or land is permanent:
            continue
        if kind in ("gates_you_control", "gate_colors_you_control") and "gate" not in _subtypes(land, state):
            continue
        if kind == "basic_lands_you_control" and "basic" not in land.card.type_line.supertypes:
            continue
        for land_type in effective_land_types(state, land):
            mask |= type_bit(BASIC_LAND_TYPES[land_type])
        if loses_rules_text(state, land):
            continue
        for ab in land.card.mana_abilities:
            production = ab.production
            if ab.intrinsic:
                continue
            if production.reference or production.colors_among in COULD_PRODUCE_KINDS:
                raise Unsupported(f"{permanent.card.name} ({permanent.id}) mirrors {land.card.name} ({land.id}), which "
                                  "itself mirrors what other lands could produce; not followed",
                                  f"battlefield.{permanent.id}")
            for option in ability_options(ab, state, land, ignore_condition=True) or ():
                for slot in option:
                    mask |= slot
    return mask


def _base_options(production: Production, state: GameState,
                  permanent: Permanent) -> tuple[tuple[int, ...], ...]:
    """The options before amounts: printed, chosen color, commander, colors among, "instead"
    (the printed ones alone where the production reads nothing of the board)."""
    if not production.reads_board:
        return production.options
    if production.instead_options and condition_holds(production.instead, state, permanent):
        return production.instead_options
    if production.instead_commander and condition_holds(production.instead, state, permanent):
        mask = commander_identity(state, permanent.controller)
        return ((mask,) * production.instead_commander,) if mask else ()
    options = list(production.options)
    if production.chosen and permanent.chosen_color:
        options.append((type_bit(permanent.chosen_color),) * production.chosen)
    if production.commander:
        mask = commander_identity(state, permanent.controller)
        if mask:
            options.append((mask,) * production.commander)
    if production.colors_among.startswith("each_"):
        # one mana of each color among them (Bloom Tender): an option with one slot per color
        mask = _colors_among(production.colors_among.removeprefix("each_"), state, permanent)
        if mask:
            options.append(tuple(b for b in TYPE_BITS[:5] if mask & b))
    elif production.colors_among:
        mask = _colors_among(production.colors_among, state, permanent)
        if mask:
            options.append((mask,))
    return tuple(options)


def _choice_values(ability: ManaAbility, state: GameState, permanent: Permanent) -> Iterable[int]:
    """The numbers the player may choose for a ``removed``/``hand`` amount (lowest to highest), or
    the values among the permanents a sacrifice cost of a ``sacrificed_*`` amount may take."""
    amount = ability.production.amount
    assert amount is not None
    if amount.kind in SACRIFICED_KINDS:
        return sacrificed_values(ability, state, permanent)
    if amount.kind == SACRIFICED_COUNT:  # X of them, 1 up to all the player controls (X = 0 adds nothing)
        what = ability.cost.sacrifice[0]
        return range(1, sum(1 for p in state.controlled_by(permanent.controller) if fits_cost(p, what)) + 1)
    if amount.kind == TAPPED_COUNT:  # X untapped ones, not the source when its own {T} taps it (118.3)
        return range(1, sum(1 for p in state.controlled_by(permanent.controller)
                            if not p.tapped and not (ability.cost.tap and p.id == permanent.id)
                            and any(fits_cost(p, t) for t in amount.types)) + 1)
    low, high = _choice_limit(ability, state, permanent)
    return range(low, high + 1)


def sacrificed_values(ability: ManaAbility, state: GameState, permanent: Permanent) -> tuple[int, ...]:
    """The distinct mana values of the permanents ``permanent``'s controller controls
    that the first sacrifice kind of ``ability``'s cost takes, lowest first; the source itself
    among them ("Sacrifice an artifact" may sacrifice the artifact whose ability it is) unless the
    kind says "another"."""
    amount = ability.production.amount
    assert amount is not None and ability.cost.sacrifice
    what = ability.cost.sacrifice[0]
    found = {sacrificed_value(amount.kind, p) for p in state.controlled_by(permanent.controller)
             if fits_cost(p, what) and not (what.startswith("another ") and p.id == permanent.id)}
    return tuple(sorted(found))


def sacrificed_value(kind: str, perm: Permanent) -> int:
    """The value a ``sacrificed_*`` amount reads of ``perm``: its mana value (CR 202.3), or its
    power as it last existed on the battlefield (CR 608.2h; a negative power adds no mana, 107.1b)."""
    if kind == "sacrificed_power":
        return max(0, perm.stat("power"))
    return perm.card.mana_value


def sacrificed_kinds(ability: ManaAbility, value: int) -> tuple[str, ...]:
    """What one activation of ``ability`` that adds mana for ``value`` sacrifices besides its
    source: ``value`` permanents of its cost's kind for a :data:`SACRIFICED_COUNT` amount (X Goats),
    one of that value for a ``sacrificed_*`` amount, else its cost's kinds."""
    amount = ability.production.amount
    kinds = ability.cost.sacrifice
    if amount is not None and amount.kind == SACRIFICED_COUNT:
        return (kinds[0],) * value + kinds[1:]
    if amount is not None and amount.kind in SACRIFICED_KINDS:
        return (sacrificed_kind(ability, value),) + kinds[1:]
    return kinds


def sacrificed_kind(ability: ManaAbility, value: int) -> str:
    """The sacrifice kind of one activation of ``ability`` (a ``sacrificed_*`` amount) that adds
    mana for ``value``: its cost's kind with that value (``"artifact with mana value 2"``)."""
    amount = ability.production.amount
    assert amount is not None
    return ability.cost.sacrifice[0] + _VALUE_WORDS[amount.kind] + str(value)


def _choice_limit(ability: ManaAbility, state: GameState, permanent: Permanent) -> tuple[int, int]:
    """The numbers the player may choose for a ``removed``/``hand`` amount: (lowest, highest)."""
    amount = ability.production.amount
    assert amount is not None
    if amount.kind == "removed":
        n = permanent.counter(ability.cost.remove_any)
    else:
        n = sum(1 for c in state.player(permanent.controller).hand if _card_matches(c, amount))
    if n > MAX_REMOVED:
        raise Unsupported(f"{permanent.card.name} ({permanent.id}) would give one option per number up to {n}; "
                          f"at most {MAX_REMOVED} are expanded", f"battlefield.{permanent.id}")
    low = 0 if amount.plus > 0 else 1  # removing none adds nothing unless the text adds a base amount
    return low, n


def reference_count(ability: ManaAbility, state: GameState, permanent: Permanent) -> int:
    """How many mana of one type a could-produce production adds now: ``reference_count``,
    or ``instead_reference_count`` when its "instead" condition holds (Incubation Druid
    with a +1/+1 counter: three)."""
    production = ability.production
    if production.instead_reference_count and condition_holds(production.instead, state, permanent):
        return production.instead_reference_count
    return production.reference_count


def ability_options(ability: ManaAbility, state: GameState, permanent: Permanent,
                    ignore_condition: bool = False) -> tuple[tuple[int, ...], ...] | None:
    """The concrete production options of ``ability`` of ``permanent`` now, each a
    tuple of slot masks; None when it can't be activated now (its activation
    condition is false, CR 602.5b).

    Applies: board amounts (as :func:`concrete_options`); the color chosen as the
    permanent entered (none chosen: no such option, CR 106.5); the commander's color
    identity (no commander: none, 903.4f); colors among permanents or graveyard
    cards; "instead" productions whose condition holds (Urza's Tower); variable
    counter costs and free reveals, expanded into one option per number ``k`` the
    player may choose (``k`` = 1..n counters available; 0..n when the text adds a
    base amount, as the Mana Batteries), in increasing ``k`` (see
    :func:`counters_removed`).  A could-produce production (``reference``) and a
    pool doubler (``doubles_pool``) have no options of their own: () (the number of
    mana of a reference is :func:`reference_count`).  Options that add no mana are
    left out.  ``ignore_condition``: for "could produce" (CR 106.7 asks what the
    ability would add if it resolved now, whether or not it could be activated).
    """
    if not ignore_condition and not condition_holds(ability.condition, state, permanent):
        return None
    if ignore_condition:
        if ability.production.uncertain and not ability.production.chosen:
            return ability.production.uncertain_options  # what it adds when it adds anything
        amount = ability.production.amount
        if amount is not None and (amount.kind in ("removed", SACRIFICED_COUNT, TAPPED_COUNT)
                                   or amount.kind in SACRIFICED_KINDS):
            # costs are ignored (106.7): Calciform Pools without storage counters could produce
            # {W} or {U}, Priest of Yawgmoth without an artifact {B}
            return _unknown_options(ability.production)
        try:
            return _options_now(ability, state, permanent)
        except NotOnBoard:
            # could produce (106.7) asks for the types alone: every type the unknown part may be
            return _unknown_options(ability.production)
    return _options_now(ability, state, permanent)


def _unknown_options(production: Production) -> tuple[tuple[int, ...], ...]:
    """The options of an ability whose amount or types depend on what the board does not give:
    its printed options once (an unknown amount), any type for an unknown type."""
    if production.colors_among == "imprinted":
        return ()  # no card known exiled with it: no type of mana is defined for it (106.7)
    if production.colors_among == "noted":
        return ((ANY_TYPE,),)
    return tuple(dict.fromkeys(option[:1] for option in production.options if option))


def _options_now(ability: ManaAbility, state: GameState, permanent: Permanent) -> tuple[tuple[int, ...], ...]:
    production = ability.production
    if production.reference or production.doubles_pool:
        return ()
    base = _base_options(production, state, permanent)
    amount = production.amount
    if amount is not None and amount.kind in _CHOICE_KINDS:
        out: list[tuple[int, ...]] = []
        for k in _choice_values(ability, state, permanent):
            n = evaluate_amount(amount, state, permanent, removed=k)
            out.extend(option * n for option in base if option and n > 0)
        return tuple(out)
    return _repeated(base, amount, state, permanent)


def reveals_hand(ability: ManaAbility) -> bool:
    """Does ``ability`` add mana by cards it reveals from the hand (Metalworker, Rosheen)?"""
    amount = ability.production.amount
    return amount is not None and amount.kind == "hand"


def reveals_from_hand(ability: ManaAbility, card: Card) -> bool:
    """Does ``ability`` add mana by cards of the hand it reveals that ``card`` could be one of
    (Metalworker's artifact cards, Rosheen's cards with {X})?"""
    amount = ability.production.amount
    return amount is not None and amount.kind == "hand" and _card_matches(card, amount)


def hand_without_cast_card(state: GameState, player: str, card: Card) -> GameState | None:
    """``state`` with the first card of ``card``'s name taken out of ``player``'s hand: the card
    being cast, which is on the stack from CR 601.2a on, so no ability can reveal it from the hand
    while its costs are paid (Metalworker); None when the hand holds no such card."""
    me = state.player(player)
    name = card.name.lower()
    at = next((i for i, c in enumerate(me.hand) if c.name.lower() == name), None)
    if at is None:
        return None
    smaller = me._replace(hand=me.hand[:at] + me.hand[at + 1:])
    return GameState(tuple(smaller if p is me else p for p in state.players), state.turn, state.battlefield)


def counters_removed(ability: ManaAbility, option: tuple[int, ...]) -> int:
    """How many counters the variable cost of ``ability`` removes (or cards it
    reveals) for ``option``, one of :func:`ability_options`' options; 0 for an
    ability without a ``"removed"``/``"hand"`` amount.  Every printed option of such
    abilities has the same length, so ``k = len(option) / (len(base) * times) - plus``."""
    amount = ability.production.amount
    if amount is None or amount.kind not in _CHOICE_KINDS:
        return 0
    base = ability.production.options[0] if ability.production.options else ()
    per = max(1, len(base) * amount.times)
    return len(option) // per - amount.plus


def ability_restriction(ability: ManaAbility, permanent: Permanent) -> Restriction | None:
    """The spending restriction of the mana ``ability`` of ``permanent`` adds: a
    chosen-type restriction (Cavern of Souls) gets the permanent's chosen creature
    type; with no type chosen the mana can be spent on nothing that restriction
    names (CR 106.6: it can't be spent on anything)."""
    r = ability.production.restriction
    if r is None or not r.chosen_type:
        return r
    if permanent.chosen_type:
        return replace(r, subtypes=frozenset({permanent.chosen_type.lower()}))
    return replace(r, spells=False, abilities=False, any_ability=False)
