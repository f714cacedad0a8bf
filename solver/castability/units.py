"""Boards of one-mana units: payability decided by Hall's condition, without the engine.

Most permanents of a deck add mana the plainest way: ``{T}: Add`` a fixed mana, with nothing else in the
cost, nothing read from the board and no rider (basics, duals, tri-lands, Llanowar Elves, Sol Ring,
Command Tower for a known commander; Exotic Orchard, which finds no opponent's land, adds nothing). Such
a *plain* permanent, untapped, is a fixed list of *units*, one mana each, a unit being the mask of the
mana types it may be (W, U, B, R, G, C; ``{T}: Add {W} or {U}`` is one unit ``W|U``, Sol Ring two units
``C``); tapped, it is nothing. A cost of colored, hybrid, colorless and generic symbols is paid by a
board of units exactly when every symbol can get a unit of its own that pays it: by Hall's theorem (each
generic symbol takes any unit), when the board has at least as many units as the cost has symbols and,
for every set ``K`` of mana types, at least as many units able to be some type of ``K`` as the cost has
symbols payable only by types of ``K``.

A board with other permanents is bounded both ways: it pays at least what its plain part pays when every
other permanent is quiet (:func:`manasolver.solver.supply.plain.quiet`: it only adds ways to pay) or only
counts the board (:func:`manasolver.solver.supply.plain.counting`), and at most what the board pays when every
permanent adds, with no cost, every mana any one of its abilities adds at once (a Signet's ``{W}{U}``
without its ``{1}``), when each of them is such that this is a bound (no ability repeats or scales, none
doubles mana). What the bounds leave open goes to the engine.

A permanent that is not plain but still reads nothing of the board has *modes* (:func:`perm_modes`):
each a way to use it once, as ``(cost units, units added)``, the cost's symbols each a unit mask that
pays it (a generic symbol any mana).  A Signet is the mode ``{1}`` -> ``{W}{U}``, a Shadowmoor filter
land ``{C}`` for free or ``{W/B}`` -> two units ``W|B``, Chromatic Sphere ``{1}`` -> one of any color.
Boards of plain permanents and such *converters* are decided exactly by :mod:`.converters`.

A card is read as its permanent is on a castability board (:func:`without_idle`, :func:`entry_counters`):
with the counters it enters with that its abilities remove (a Vivid land's two), no others, and a player
of 20 life, no energy and no history; so mana "for each counter" it lacks adds nothing, Empowered
Autogenerator adds one, life costs are paid while the board's add up to less than the life.  Abilities
that depend on the board's cards are read from them (:func:`holds`): activation conditions and "instead"
mana under a count of the controller's permanents (Temple of the False God, Leafkin Druid), and the
"{T}: Add one mana of any color" that Chromatic Lantern and The World Tree give lands (:func:`land_grants`).
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Sequence
from dataclasses import replace

from manasolver.models.abilities import Amount, Condition, ManaAbility
from manasolver.models.card import Card
from manasolver.models.cost import ManaCost
from manasolver.models.symbols import ANY_COLOR, C
from manasolver.models.abilities import Restriction
from manasolver.models.effects import GrantedAbility
from manasolver.models.text.read import card_text
from manasolver.solver.supply.plain import counting, quiet

__all__ = ["ANY", "COLORS_AMONG", "GUARD", "RESTRICTED", "CostNeed", "Have", "Mode", "PermUnits", "as_on_board",
           "board_amount", "by_set", "colors_among",
           "cast_cost", "conditional", "cost_need", "count_condition", "covers", "entry_counters", "feeds_converters",
           "fixed_choice", "have", "holds", "land_grants", "life_need", "matching", "pays", "perm_modes", "perm_units",
           "with_abilities", "without_idle"]

#: Every mana type: what a unit of unknown kind may be.
ANY = ANY_COLOR | C

#: ``(units, how many able to be some type of K for each K, packed)``: a board's units, see :func:`have`.
Have = tuple[int, int]
#: ``(symbols, ((K, symbols payable only by types of K), ...))``: what a cost needs, see :func:`cost_need`.
CostNeed = tuple[int, tuple[tuple[int, int], ...]]
#: The flag of a unit of restricted mana that pays any ability's cost but no cost asked of a board
#: (Primal Beyond's "for an Elemental spell or an ability of an Elemental", CR 106.6).
RESTRICTED = 64
#: ``(cost units, units added)``: one way to use a permanent once, see :func:`perm_modes`.
Mode = tuple[tuple[int, ...], tuple[int, ...]]


#: What a "could produce" ability reads on a castability board: the opponent has no lands, so
#: Exotic Orchard and Fellwar Stone add nothing (CR 106.7).
_NOTHING_TO_MIRROR = "lands_opponents_control"


def _plain_ability(a: ManaAbility) -> bool:
    """Is ``a`` a ``{T}: Add`` of mana fixed on every castability board: a cost of ``{T}`` (a rider
    aside) and a production that reads nothing of the board but one mana of the commander's
    identity (fixed per deck) or the opponents' lands (none on such a board)?  Those two reads are
    why this is a list of its own rather than ``Production.reads_board``."""
    c, prod = a.cost, a.production
    # a rider (Path of Ancestry's scry, Altar of the Pantheon's life) changes nothing the payment reads
    return (c.tap and not c.untap and not c.mana and c.life == 0 and c.energy == 0 and not c.sacrifice_self
            and not c.sacrifice and not c.remove_counters and not c.tap_creatures and not c.remove_any
            and not c.put_counters and not c.exert and not c.discard_hand and not c.unmodelled
            and prod.amount is None and prod.reference in ("", _NOTHING_TO_MIRROR)
            and prod.restriction is None and not prod.chosen
            and prod.commander <= 1 and not prod.colors_among and prod.instead is None
            and not prod.doubles_pool and not a.damage
            and a.condition is None and not a.per_turn)


def _bound_ability(a: ManaAbility) -> tuple[int, int] | None:
    """``(most mana, mask of the types it may be)`` of one activation, when one activation is all
    the ability can give (it taps or sacrifices its permanent, its amount is fixed, it doubles
    nothing); ``None`` otherwise."""
    c, prod = a.cost, a.production
    if not (c.tap or c.sacrifice_self) or c.untap or prod.amount is not None or prod.doubles_pool or a.extra:
        return None
    most = max(prod.max_mana(), prod.instead_reference_count)
    mask = 0
    for option in prod.options + prod.instead_options:
        for slot in option:
            mask |= slot
    if prod.reference or prod.chosen or prod.commander or prod.colors_among:
        mask = ANY
    return most, mask


class PermUnits:
    """What one card adds on a board: ``plain`` the units of the card untapped when it is plain
    (``None`` otherwise); ``droppable`` when leaving it out of a board never makes a cost payable
    that the board can't pay; ``bound[tapped]`` ``(most units, mask)`` the card adds at most,
    ``None`` when not bounded; ``modes`` the ways to use it untapped (:func:`perm_modes`), ``None``
    when they can't say what it adds; ``feeds`` when it adds restricted mana that may pay a
    converter (:func:`feeds_converters`), ``fed`` its modes then on a board with a converter
    (``None`` when they can't say); ``life`` the most life one of its abilities costs (the
    board's units hold only while its player can pay every such cost at once); ``colored`` the
    units of a card whose one mana ability is plain but for mana that can't pay generic costs
    (Jegantha, the Wellspring: W, U, B, R and G), which pay colored symbols only (:func:`pays_colored`)."""

    __slots__ = ("plain", "droppable", "bound", "modes", "feeds", "fed", "life", "colored")

    def __init__(self, plain: tuple[int, ...] | None, droppable: bool,
                 bound: tuple[tuple[int, int] | None, tuple[int, int] | None],
                 modes: tuple[Mode, ...] | None = None, feeds: bool = False,
                 fed: tuple[Mode, ...] | None = None, life: int = 0, colored: tuple[int, ...] = ()) -> None:
        self.plain = plain
        self.droppable = droppable
        self.bound = bound
        self.modes = modes
        self.feeds = feeds
        self.fed = fed
        self.life = life
        self.colored = colored


_NUMBERS = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
            "eight": 8, "nine": 9, "ten": 10}
_ENTERS_WITH = re.compile(r"enters(?: the battlefield)?(?: tapped)? with (" + "|".join(_NUMBERS)
                          + r") ([\w+/-]+) counters? on it\.")


def entry_counters(card: Card) -> tuple[tuple[str, int], ...]:
    """The counters a permanent of ``card`` enters with that one of its mana abilities removes or
    counts (a Vivid land's two charge counters, CR 122.6; Everflowing Chalice's, cast as
    :func:`cast_cost` says), as ``((kind, n), ...)``: a castability board's permanent has them (the
    games ask whether the mana is there on a turn, not what earlier turns spent)."""
    wanted = {kind for a in card.mana_abilities for kind, _ in a.cost.remove_counters}
    wanted |= {a.production.amount.counter for a in card.mana_abilities
               if a.production.amount is not None and a.production.amount.kind == "counters"}
    if not wanted:
        return ()
    text = card.oracle_text.lower()
    out = [(kind, _NUMBERS[n]) for n, kind in _ENTERS_WITH.findall(text) if kind in wanted]
    out += [(kind, 1) for kind in _KICKED_COUNTERS.findall(text) + _X_COUNTERS.findall(text) if kind in wanted]
    return tuple(sorted(out))


#: "Multikicker {2}" (CR 702.33c) and the counters a kick puts on the permanent; "enters with X
#: charge counters" with {X} in its cost (Astral Cornucopia).
_MULTIKICKER = re.compile(r"^multikicker ((?:\{[^}]+\})+)", re.MULTILINE | re.IGNORECASE)
_KICKED_COUNTERS = re.compile(r"enters with an? ([\w+/-]+) counter on it for each time it was kicked")
_X_COUNTERS = re.compile(r"enters with x ([\w+/-]+) counters? on it")


def cast_cost(card: Card) -> ManaCost | None:
    """What a nonland mana source is cast for on a castability board: its mana cost, kicked once
    when it has multikicker and enters with a counter for each kick (Everflowing Chalice for {2},
    one charge counter), with X = 1 when it enters with X counters (Astral Cornucopia for {3});
    ``None`` without a mana cost.  (Sunburst counts no color: Pentad Prism enters without counters,
    a lower bound.)"""
    cost = card.mana_cost
    if cost is None:
        return None
    text = card.oracle_text
    kick = _MULTIKICKER.search(text)
    if kick is not None and _KICKED_COUNTERS.search(text.lower()):
        return cost + ManaCost.parse(kick.group(1))
    if cost.x_count and _X_COUNTERS.search(text.lower()):
        return ManaCost.parse(cost.format().replace("{X}", "{1}"))
    return cost


def count_condition(condition: Condition | None) -> bool:
    """Whether ``condition`` only counts permanents of its controller by their printed types,
    subtypes and supertypes ("you control five or more lands", "you control a Swamp"): it is then
    read from a board's cards alone (:func:`holds`)."""
    if condition is None:
        return True
    return (condition.at_most is None and not condition.your_turn and not condition.before_step
            and all(a.kind == "count" and _by_printed_types(a) for a, _ in condition.counts))


#: The subtypes a count reads the same on any permanent: basic land types (a creature type counts only
#: on a creature or kindred card, CR 205.3d, which the printed subtypes alone don't say).
_LAND_TYPES = frozenset({"plains", "island", "swamp", "mountain", "forest"})


def _by_printed_types(a: Amount) -> bool:
    """Whether ``a`` counts its controller's permanents by their printed types, subtypes (basic land
    types, or any on creatures), supertypes and keywords alone (a deck whose cards may give or take
    away such a keyword is left to the engine: :class:`.board.BoardOracle`)."""
    return (a.controller == "you" and a.times == 1 and not a.plus and not (
        a.counter or a.colors or a.min_power is not None or a.name or a.all_subtypes
        or a.with_counter) and (a.subtypes <= _LAND_TYPES or a.types == frozenset({"creature"})))


def matching(amount: Amount, cards: Sequence[Card], source: int) -> list[int]:
    """The positions of the permanents of ``cards`` (a board's) that ``amount`` (of :func:`_by_printed_types`)
    counts for the permanent at ``source``."""
    out: list[int] = []
    for i, card in enumerate(cards):
        tl = card.type_line
        if (amount.other and i == source or amount.types and amount.types.isdisjoint(tl.types)
                or amount.subtypes and amount.subtypes.isdisjoint(tl.subtypes)
                or amount.supertypes and not amount.supertypes <= set(tl.supertypes)
                or amount.keywords and not amount.keywords <= card.keywords):
            continue
        out.append(i)
    return out


def holds(condition: Condition | None, cards: Sequence[Card], source: int) -> bool:
    """Whether the :func:`count_condition` ``condition`` of the permanent at ``source`` of a board of
    permanents of ``cards`` holds."""
    if condition is None:
        return True
    return all(len(matching(amount, cards, source)) >= least for amount, least in condition.counts)


def land_grants(card: Card) -> tuple[GrantedAbility, ...] | None:
    """The abilities ``card`` gives the lands its controller controls when that and counting lands
    are all that keeps it from being quiet (Chromatic Lantern: "{T}: Add one mana of any color.";
    The World Tree, while its controller has six or more lands), each a free ``{T}`` ability of
    fixed mana; ``None`` otherwise (no such grant, or the card reaches the board otherwise)."""
    text = card_text(card)
    effects = text.mana_effects
    if not effects or not all(isinstance(g, GrantedAbility) for g in effects):
        return None
    grants = tuple(g for g in effects if isinstance(g, GrantedAbility))
    for g in grants:
        who, a = g.who, g.ability
        if g.attached or g.self_only or not count_condition(g.condition) or who.types != frozenset({"land"}) \
                or who.subtypes or who.supertypes or who.other or not count_condition(
                    Condition("", ((who, 1),))) or not _plain_ability(a) or not a.production.options:
            return None
    said = {g.text for g in grants}
    rest = replace(card, text=replace(text, mana_effects=()),
                   unsupported=tuple(u for u in card.unsupported if u not in said))
    return grants if quiet(rest) else None


#: The "colors among" a board's cards say (CR 105.2: a card's colors as printed on a board no effect
#: recolors): those of the controller's permanents (Meteor Crater; each of them: Faeburrow Elder, Bloom
#: Tender) and of its legendary creatures and planeswalkers (Mox Amber).
COLORS_AMONG = ("permanents_you_control", "legendary_creatures_planeswalkers")


def colors_among(cards: Sequence[Card], kind: str) -> int:
    """The colors among the permanents of ``cards`` (a board's) that ``kind`` (of :data:`COLORS_AMONG`) reads."""
    mask = 0
    for card in cards:
        if kind == "legendary_creatures_planeswalkers" and not (
                "legendary" in card.type_line.supertypes and {"creature", "planeswalker"} & set(card.type_line.types)):
            continue
        mask |= card.colors
    return mask & ANY_COLOR


def conditional(card: Card) -> bool:
    """Whether ``card`` has mana abilities activated only under a :func:`count_condition` (Temple of
    the False God: five or more lands; Tainted Field: a Swamp) or adding other mana instead under
    one (Leafkin Druid: {G}{G} with four creatures), and would be quiet without the conditions: a
    board's cards then say which abilities it has (:func:`as_on_board`)."""
    abilities = card.mana_abilities
    if not any(a.condition is not None or a.production.instead is not None or a.production.colors_among
               or a.production.amount is not None for a in abilities):
        return False
    if not all(count_condition(a.condition) and count_condition(a.production.instead)
               and a.production.colors_among.removeprefix("each_") in ("", *COLORS_AMONG)
               and (a.production.amount is None or board_amount(a.production.amount)) for a in abilities):
        return False
    return quiet(as_on_board(card, tuple((True, False) for _ in abilities), dict.fromkeys(COLORS_AMONG, ANY_COLOR),
                             dict.fromkeys(range(len(abilities)), 1)))


def board_amount(amount: Amount) -> bool:
    """Whether ``amount`` is read from a board's cards: a count of the controller's permanents, or the
    greatest or total power among its creatures (Selvala, Heart of the Wilds), by printed types."""
    return amount.kind in ("count", "max_power", "total_power") and _by_printed_types(amount)


def as_on_board(card: Card, holding: tuple[tuple[bool, bool], ...], colors: dict[str, int],
                amounts: dict[int, int]) -> Card:
    """``card`` with each mana ability as a board makes it, ``holding`` saying per ability whether its
    activation condition holds there (else it is left out) and whether its "instead" condition does
    (its other mana then replacing its own), ``colors`` the colors among the board's permanents of each
    kind of :data:`COLORS_AMONG` (one mana of one of them, or one of each: fixed options), ``amounts``
    the value of each ability's :func:`board_amount` by its position (none: left out)."""
    abilities: list[ManaAbility] = []
    for k, (a, (allowed, instead)) in enumerate(zip(card.mana_abilities, holding)):
        if not allowed:
            continue
        prod = a.production
        if prod.amount is not None:
            n = amounts.get(k, 0)
            if n <= 0:
                continue
            prod = replace(prod, amount=None, options=tuple(o * n for o in prod.options))
        if prod.instead is not None:
            prod = replace(prod, instead=None, instead_options=(),
                           options=prod.instead_options if instead else prod.options)
        if prod.colors_among:
            mask = colors[prod.colors_among.removeprefix("each_")]
            each = prod.colors_among.startswith("each_")
            extra = (tuple(b for b in (1, 2, 4, 8, 16) if mask & b),) if each else ((mask,),)
            prod = replace(prod, colors_among="", options=prod.options + (extra if mask else ()))
        abilities.append(replace(a, condition=None, production=prod))
    return replace(card, mana_abilities=tuple(abilities))


def with_abilities(card: Card, abilities: tuple[ManaAbility, ...], grants: bool) -> Card:
    """``card`` with the mana abilities ``abilities`` (those its conditions allow on a board, the ones
    a grant gives it), and without the grants it gives (``grants``: :func:`land_grants` read them)."""
    if not grants:
        return replace(card, mana_abilities=abilities)
    said = {g.text for g in card_text(card).mana_effects if isinstance(g, GrantedAbility)}
    return replace(card, mana_abilities=abilities, text=replace(card_text(card), mana_effects=()),
                   unsupported=tuple(u for u in card.unsupported if u not in said))


def fixed_choice(card: Card, chosen: int) -> Card:
    """``card`` as a permanent whose color ``chosen`` (a WUBRG mask) was chosen as it entered: its mana
    of the chosen color a fixed option of that color (a Thriving land choosing red is a land adding
    its own color or red); ``card`` itself when ``chosen`` is 0 or it adds no mana of a chosen color."""
    if not chosen or not any(a.production.chosen for a in card.mana_abilities):
        return card
    abilities = tuple(
        replace(a, production=replace(a.production, chosen=0,
                                      options=a.production.options + ((chosen,) * a.production.chosen,)))
        if a.production.chosen else a for a in card.mana_abilities)
    return replace(card, mana_abilities=abilities)


def without_idle(card: Card, counters: tuple[tuple[str, int], ...]) -> Card:
    """``card`` as its mana abilities are on a castability board, where its permanent has only
    ``counters`` and its player no energy: without those that add nothing or can't be activated
    (mana "for each counter" of a kind it has none of: Everflowing Chalice, Gyre Sage; a storage
    land's removed counters, CR 107.3; a counter to remove that it lacks: Pentad Prism; an energy
    cost; mana for each card drawn this turn, the board giving no history: Kydele), and mana counted
    by its own counters read as the fixed amount it is (Empowered Autogenerator's one counter put
    first: one mana); ``card`` itself when none is such."""
    have = dict(counters)
    keep: list[ManaAbility] = []
    for a in card.mana_abilities:
        amount = a.production.amount
        if a.cost.energy or any(have.get(kind, 0) < n for kind, n in a.cost.remove_counters):
            continue
        if amount is not None and amount.kind == "removed" and a.cost.remove_any:
            if not have.get(a.cost.remove_any, 0) and amount.plus <= 0:
                continue
        elif amount is not None and amount.kind in ("counters", "cards_drawn") and not a.cost.remove_any:
            # the player has drawn no card this turn: the board gives no history (Kydele)
            n = ((have.get(amount.counter, 0) if amount.kind == "counters" else 0) + amount.plus) * amount.times
            if n <= 0:
                continue
            production = replace(a.production, amount=None,
                                 options=tuple(o * n for o in a.production.options))
            a = replace(a, production=production)
        keep.append(a)
    if tuple(keep) == card.mana_abilities:
        return card
    return replace(card, mana_abilities=tuple(keep))


def perm_units(card: Card, identity: int, chosen: int = 0,
               counters: tuple[tuple[str, int], ...] = ()) -> PermUnits:
    """The :class:`PermUnits` of ``card`` for a player whose commander's color identity is ``identity``
    (a color mask, 0 without a commander: Command Tower then adds nothing, CR 903.4f), ``chosen`` the
    color chosen as it entered (a WUBRG mask; 0 when none was: its mana of the chosen color is
    undefined, CR 106.5), ``counters`` those on the permanent."""
    card = without_idle(card, counters)
    modes = perm_modes(card, identity, chosen, counters)
    feeds = feeds_converters(card)
    fed = perm_modes(card, identity, chosen, counters, True) if feeds else None
    life = max((a.cost.life for a in card.mana_abilities), default=0)
    card = fixed_choice(card, chosen)
    calm = quiet(card)
    droppable = calm or counting(card)
    abilities = card.mana_abilities
    plain: tuple[int, ...] | None = None
    # a card that only counts what the opponent's lands could produce is plain: there are none
    mirrors = droppable and all(a.production.reference in ("", _NOTHING_TO_MIRROR) for a in abilities)
    if (calm or mirrors) and abilities and all(_plain_ability(a) for a in abilities):
        options = [o for a in abilities for o in a.production.options]
        if identity:
            options += [(identity,) for a in abilities if a.production.commander]
        if not options:
            plain = ()
        elif all(len(o) == 1 for o in options):
            mask = 0
            for o in options:
                mask |= o[0]
            plain = (mask,)
        elif len(options) == 1:
            plain = tuple(options[0])
    bound: list[tuple[int, int] | None] = [None, None]
    if droppable:
        for tapped in (0, 1):
            most = mask = 0
            ok = True
            tap_most = 0
            for a in abilities:
                got = _bound_ability(a)
                if got is None:
                    ok = False
                    break
                if a.cost.tap:
                    if not tapped:
                        tap_most = max(tap_most, got[0])
                        mask |= got[1]
                else:
                    most += got[0]
                    mask |= got[1]
            if ok:
                bound[tapped] = (most + tap_most, mask)
    if plain is None and modes is not None and all(not cost and len(out) == 1 for cost, out in modes):
        # one unit whatever the mode: a plain permanent (a Talisman, a Vivid land with its counters)
        mask = 0
        for _, out in modes:
            mask |= out[0]
        plain = (mask,) if mask else ()
    elif plain is None and modes == ():
        plain = ()
    return PermUnits(plain, droppable, (bound[0], bound[1]), modes, feeds, fed, life,
                     _colored_only(abilities) if calm and plain is None and modes is None else ())


def _colored_only(abilities: tuple[ManaAbility, ...]) -> tuple[int, ...]:
    """The units of one mana ability that would be plain but that its mana can't be spent on generic
    costs (Jegantha, the Wellspring's "{T}: Add {W}{U}{B}{R}{G}"), each one mana type; ``()`` for any
    other abilities."""
    if len(abilities) != 1:
        return ()
    a = abilities[0]
    r = a.production.restriction
    if r is None or not r.no_generic or len(a.production.options) != 1:
        return ()
    if r != replace(Restriction(r.text, abilities=True, any_ability=True), no_generic=True):
        return ()  # another limit beside it
    units = a.production.options[0]
    if not units or any(m & (m - 1) or m == C for m in units):
        return ()
    bare = replace(a, production=replace(a.production, restriction=None))
    return tuple(sorted(units)) if _plain_ability(bare) else ()


def _cost_units(cost: ManaCost) -> tuple[int, ...] | None:
    """The units that pay ``cost`` symbol by symbol (a generic ``{n}`` is n units of any mana), ``None``
    when a symbol is paid otherwise than by one unit (Phyrexian, snow, ``{2/W}``, X)."""
    out: list[int] = []
    for s in cost.symbols:
        if s.special or s.phyrexian or s.snow or s.variable:
            return None
        if s.is_numeral:
            out.extend([ANY] * s.generic)
        elif s.generic:
            return None
        else:
            out.append(s.colors | (C if s.colorless else 0))
    return tuple(sorted(out))


def _spends_on_abilities(r: Restriction) -> bool:
    """Whether mana of restriction ``r`` may pay some ability's cost (so possibly a converter's).  Mana
    for the creature type chosen as its source entered (Secluded Courtyard, Cavern of Souls) pays
    nothing on a castability board, where no type is chosen (as the engine reads a permanent without
    a chosen type, CR 106.6)."""
    if r.chosen_type or r.no_generic:  # Jegantha's mana pays no converter's generic {1}: not counted
        return False
    return r.abilities or r.any_ability or any(_spends_on_abilities(a) for a in r.any_of)


def feeds_converters(card: Card) -> bool:
    """Whether ``card`` adds restricted mana that may pay some ability's cost (Primal Beyond's mana
    "for an Elemental spell or an ability of an Elemental"): on a board with a converter, the modes
    of :func:`perm_modes`, which leave that mana out, are then not all it adds."""
    return any(a.production.restriction is not None and _spends_on_abilities(a.production.restriction)
               for a in card.mana_abilities)


def _merged(options: list[tuple[int, ...]]) -> list[tuple[int, ...]]:
    """``options`` (what one activation may add) as few unit lists as say the same: options of one
    mana each are one unit of their union; options of k mana that are every combination of k of
    some colors (a Shadowmoor filter land's ``{W}{W}``, ``{W}{B}``, ``{B}{B}``) are k units of them."""
    if len(options) < 2:
        return options
    if all(len(o) == 1 for o in options):
        mask = 0
        for o in options:
            mask |= o[0]
        return [(mask,)]
    k = len(options[0])
    if all(len(o) == k for o in options) and all(m & (m - 1) == 0 for o in options for m in o):
        union = 0
        for o in options:
            for m in o:
                union |= m
        bits = [b for b in (1, 2, 4, 8, 16, 32) if union & b]
        every = {tuple(sorted(c)) for c in itertools.combinations_with_replacement(bits, k)}
        if {tuple(sorted(o)) for o in options} == every:
            return [(union,) * k]
    return options


def _once(a: ManaAbility, abilities: tuple[ManaAbility, ...], have: dict[str, int], toughness: str | None) -> bool:
    """Whether ``a``, the permanent's only mana ability, is used at most once in a payment, as an
    ability that taps it is, without tapping it: it costs nothing but counters removed from the
    permanent, which has them for exactly one activation (Cryptic Trilobite with one +1/+1 counter), or
    nothing but a -0/-1 or -1/-1 counter put on it, once each turn, its toughness staying above 0
    (Wall of Roots, CR 704.5f)."""
    c = a.cost
    if len(abilities) != 1 or c.tap or c.untap or c.mana or c.life or c.energy or c.sacrifice_self or c.sacrifice \
            or c.tap_creatures or c.remove_any or c.exert or c.discard_hand or c.unmodelled:
        return False
    if c.remove_counters and not c.put_counters and not a.per_turn:
        return all(n <= have.get(kind, 0) < 2 * n for kind, n in c.remove_counters)
    if c.put_counters and not c.remove_counters and a.per_turn == 1 and toughness is not None \
            and toughness.isdigit():
        shrink = sum(n for kind, n in c.put_counters if kind in ("-0/-1", "-1/-1"))
        hurt = have.get("-0/-1", 0) + have.get("-1/-1", 0) - have.get("+1/+1", 0)
        return len(c.put_counters) == 1 and shrink > 0 and int(toughness) - hurt - shrink > 0
    return False


def perm_modes(card: Card, identity: int, chosen: int = 0,
               counters: tuple[tuple[str, int], ...] = (), fed: bool = False) -> tuple[Mode, ...] | None:
    """The ways to use one untapped permanent of ``card`` in a payment, each ``(cost units, units
    added)`` and each used at most once with the permanent used once in all (every ability taps it),
    or ``None`` when its abilities can't be read so: one reads the board or a player's resources
    (life, energy, counters it lacks the number of, other permanents), repeats, scales or doubles.
    ``identity``, ``chosen``: as :func:`perm_units`; ``counters``: those on the permanent (a Vivid
    land's charge counters: its ability that removes one is a mode only while it has one).  An
    ability the permanent can't activate (no counter to remove) or whose mana is restricted (a cost
    asked of a board is no spell's, CR 106.6; whether it pays a converter, :func:`feeds_converters`)
    is no mode, but mana that only can't pay generic costs (Jegantha's) pays any cost's colored
    symbols, which modes don't tell apart: such a permanent has none (``None``; its units are
    :attr:`PermUnits.colored`); the modes of one unit each are merged into one.  ``fed``: the
    permanent is on a board with a converter, and mana restricted so that it pays any ability's
    cost is a mode too, its units :data:`RESTRICTED` (they pay a converter's cost, never a cost
    asked of the board); ``None`` when the restriction names the abilities' sources (the engine then
    reads their types)."""
    if chosen & (chosen - 1) and any(a.production.chosen > 1 for a in card.mana_abilities):
        return None  # several mana of one color chosen per question: not one choice per unit
    card = fixed_choice(card, chosen)
    abilities = card.mana_abilities
    if not quiet(card):
        if not (counting(card) and all(a.production.reference in ("", _NOTHING_TO_MIRROR) for a in abilities)):
            return None
    have_counters = dict(counters)
    modes: list[Mode] = []
    for a in abilities:
        c, prod = a.cost, a.production
        if not c.tap and _once(a, abilities, have_counters, card.toughness):
            pass  # its one activation uses the permanent up as a tap would
        elif not c.tap or c.untap or c.sacrifice or c.tap_creatures or c.remove_any \
                or c.put_counters or c.discard_hand or c.unmodelled or a.condition is not None:
            return None
        # what reads the board, but the commander's identity (read below) and the opponents' lands
        # (none on a castability board); a pool doubler adds nothing of its own
        if prod.amount is not None or prod.colors_among or prod.instead is not None or prod.doubles_pool \
                or prod.chosen or prod.reference not in ("", _NOTHING_TO_MIRROR):
            return None
        if c.energy or any(have_counters.get(kind, 0) < n for kind, n in c.remove_counters):
            continue  # no energy on a castability board, or not the counters to remove
        flag = 0
        if prod.restriction is not None:
            r = prod.restriction
            if r.no_generic:
                return None  # it pays the colored symbols of any cost (Jegantha's): the engine reads it
            if not fed or not _spends_on_abilities(r):
                continue  # pays no cost asked of a board, nor (``fed`` false) a converter's
            if r.any_of or not (r.any_ability or (r.abilities and not r.spell_types)):
                return None
            flag = RESTRICTED
        cost = _cost_units(c.mana)
        if cost is None:
            return None
        options = list(prod.options)
        if prod.commander and identity:
            if prod.commander > 1 and identity & (identity - 1):
                return None
            options.append((identity,) * prod.commander)
        for out in _merged([o for o in options if o]):
            mode = (cost, tuple(sorted(m | flag for m in out)))
            if mode not in modes:
                modes.append(mode)
    free = [m for m in modes if not m[0] and len(m[1]) == 1 and not m[1][0] & RESTRICTED]
    if len(free) > 1:
        # one unit each, free: one unit of their union
        mask = 0
        for _, out in free:
            mask |= out[0]
        modes = [((), (mask,))] + [m for m in modes if m not in free]
    return tuple(modes)


#: Bits of each field of a packed :data:`Have`: one count per set of mana types, the top bit a guard.
_FIELD = 10
_FIELD_MASK = (1 << (_FIELD - 1)) - 1
#: Every field's guard bit: ``((a | _GUARD) - b) & _GUARD == _GUARD`` when each field of ``a`` is at least
#: ``b``'s (no field borrows).
GUARD = sum(1 << (_FIELD * k + _FIELD - 1) for k in range(64))
#: For each unit mask, 1 in the field of each set ``K`` of mana types (a 6-bit mask) it may be some type of.
_ROWS = tuple(sum(1 << (_FIELD * k) for k in range(64) if m & k) for m in range(64))
#: :func:`have` of each sorted tuple of masks asked (cleared when it grows past :data:`_HAVE_MEMO`).
_HAVE: dict[tuple[int, ...], Have] = {}
_HAVE_MEMO = 200_000


def have(masks: Sequence[int]) -> Have:
    """The units ``masks`` as Hall's condition reads them: their number and, for each set ``K`` of
    mana types (a 6-bit mask), how many of them may be some type of ``K``, packed in one integer
    (field ``K`` of :data:`_FIELD` bits; :func:`by_set`)."""
    key = tuple(sorted(masks))
    hit = _HAVE.get(key)
    if hit is not None:
        return hit
    rows = _ROWS
    packed = 0
    for m in key:
        packed += rows[m]
    out = (len(key), packed)
    if len(_HAVE) >= _HAVE_MEMO:
        _HAVE.clear()
    _HAVE[key] = out
    return out


def by_set(board: Have, k: int) -> int:
    """How many units of ``board`` may be some type of the set ``k`` of mana types."""
    return board[1] >> (_FIELD * k) & _FIELD_MASK


def covers(a: Have, b: Have) -> bool:
    """Whether ``a`` pays every cost ``b`` pays: as many units, and as many able to be some type of
    each set of mana types."""
    return a[0] >= b[0] and ((a[1] | GUARD) - b[1]) & GUARD == GUARD


def cost_need(cost: ManaCost) -> CostNeed | None:
    """What ``cost`` needs of a board of units: its mana symbols and, for each union ``K`` of the
    masks of its non-generic symbols, how many of them only types of ``K`` pay; ``None`` when a
    symbol can be paid otherwise than by one unit (Phyrexian, snow, ``{2/W}``, energy).  X is 0."""
    total = 0
    reqs: dict[int, int] = {}
    for s in cost.symbols:
        if s.special or s.phyrexian or s.snow:
            return None
        if s.variable:
            continue
        if s.colors == 0 and not s.colorless:
            total += s.generic
            continue
        if s.generic:
            return None
        mask = s.colors | (C if s.colorless else 0)
        reqs[mask] = reqs.get(mask, 0) + 1
        total += 1
    unions = {0}
    for m in reqs:
        unions |= {u | m for u in unions}
    unions.discard(0)
    return total, tuple((k, sum(n for m, n in reqs.items() if m & ~k == 0)) for k in sorted(unions))


def life_need(cost: ManaCost) -> tuple[CostNeed, int] | None:
    """What ``cost`` needs when its Phyrexian symbols (CR 107.4f) are paid with 2 life each: the
    :func:`cost_need` of the rest and the life; ``None`` when it has none or another symbol that is
    not one unit.  On a board whose player has the life, paying it so is never worse."""
    kept: list[str] = []
    life = 0
    for s in cost.symbols:
        if s.phyrexian and not s.generic and not s.snow and not s.variable:
            life += 2
        else:
            kept.append(s.text)
    if not life:
        return None
    need = cost_need(ManaCost.parse("".join(kept), allow_empty=True))
    return (need, life) if need is not None else None


def pays_colored(board: Have, colored: Sequence[int], need: CostNeed) -> bool:
    """Whether ``board``'s units and ``colored``, units of one mana type each that pay no generic
    symbol (Jegantha's), pay the cost of ``need``: Hall's condition over its symbols.  A set of them
    with no generic symbol, whose masks make ``K``, needs as many units of ``board`` and of
    ``colored`` that may be a type of ``K``; one with the generic symbols too needs as many as all of
    ``board``'s and ``colored``'s of ``K``'s types (the empty ``K``: the generic symbols alone)."""
    units, packed = board
    total, sets = need
    generic = total - max((n for _, n in sets), default=0)
    if units < generic:
        return False
    for k, n in sets:
        extra = sum(1 for m in colored if m & k)
        if (packed >> (_FIELD * k) & _FIELD_MASK) + extra < n or units + extra < generic + n:
            return False
    return True


def pays(board: Have, need: CostNeed) -> bool:
    """Whether the units of ``board`` pay the cost of ``need`` (Hall's condition)."""
    units, packed = board
    total, sets = need
    if units < total:
        return False
    return all(packed >> (_FIELD * k) & _FIELD_MASK >= n for k, n in sets)
