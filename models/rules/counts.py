"""Board counts that need no solver (the protocol's ``counts``, CR 105, 202.3, 205).

* colors among permanents (CR 105.2, 202.2), after color-setting effects (Celestial Dawn, layer
  5: :mod:`manasolver.models.rules.colors`): lands and most tokens have no mana
  cost and are colorless; Reaper King is all five colors;
* card types among permanents and graveyard cards (CR 205.2a; supertypes and
  subtypes are not card types, 205.4a; an adventurer card outside the stack is
  only its main type, 715.4; a double-faced card in the graveyard is its front
  face, 712.8a; a split card off the stack has both halves' types, 709.4; an
  impending permanent with a time counter is not a creature, 702.176a);
* devotion (CR 700.5): mana symbols among the mana costs of the permanents a
  player controls, hybrid and Phyrexian symbols counting for each of their
  colors (Nykthos ruling 2013-09-15);
* domain: basic land types among the lands a player controls (the Everywhere
  token has all five);
* what pays what (CR 609.4b): :func:`spend_table`, the rules on the battlefield that let mana be
  spent as though it were mana of another color or type (Chromatic Orrery, Mycosynth Lattice,
  Celestial Dawn, Sunglasses of Urza, Oath of Nissa) reaching one payment, as its
  :class:`~manasolver.models.effects.SpendTable` (colors of mana, as the rest are colors of
  objects).

>>> from manasolver.models.cost import ManaCost
>>> mana_value(ManaCost.parse("{X}{G}{G}{G}"), x=4, zone="stack")
{'mana_value': 7, 'colors': ['G']}
"""

from __future__ import annotations

from collections import Counter
from typing import Any, Protocol

from manasolver.models.card import BASIC_LAND_TYPES, CARD_TYPES, Card, TypeLine
from manasolver.models.cost import ManaCost
from manasolver.models._memo import IdentityMemo
from manasolver.models.effects import SpendAs, SpendTable
from manasolver.models.errors import BadQuery, Unsupported
from manasolver.models.rules.colors import permanent_colors
from manasolver.models.rules.board_effects import active_effects
from manasolver.models.rules.land_types import effective_land_types
from manasolver.models.state import GameState, Permanent
from manasolver.models.symbols import COLORS, mask_letters

__all__ = [
    "ZONES",
    "SpellLike",
    "card_types",
    "card_types_of",
    "colors_among_permanents",
    "counts",
    "devotion",
    "domain",
    "happily_ever_after",
    "happily_ever_after_conditions",
    "mana_value",
    "payment_spend_rules",
    "payment_spend_table",
    "permanent_card_types",
    "spend_effects",
    "spend_rules",
    "spend_table",
]

#: Zones a mana-value question may name; X counts only on the stack (CR 202.3e).
ZONES = ("library", "hand", "battlefield", "graveyard", "exile", "stack", "command")
#: Layouts whose two halves are one card with both halves' characteristics off the stack (709.4).
_SPLIT_LAYOUTS = frozenset({"split", "aftermath"})


def _player_name(state: GameState, player: str | None) -> str:
    if player is None:
        return state.players[0].name
    if not any(p.name == player for p in state.players):
        raise BadQuery(f"player {player!r} is not a player of the state", "player")
    return player


def colors_among_permanents(state: GameState, player: str | None = None) -> list[str]:
    """Colors among the permanents ``player`` controls, in WUBRG order (CR 105.2)."""
    name = _player_name(state, player)
    mask = 0
    for perm in state.controlled_by(name):
        mask |= permanent_colors(state, perm)
    return list(mask_letters(mask))


def card_types_of(card: Card) -> tuple[str, ...]:
    """The card types of a card outside the battlefield and the stack, in CR 205.2a order.

    Front face only for double-faced, flip and adventurer cards (712.8a, 715.4);
    both halves for split and aftermath cards (709.4).
    """
    if card.layout in _SPLIT_LAYOUTS:
        found: set[str] = set()
        for half in card.type_line.text.split("//"):
            found.update(TypeLine.parse(half).types)
        return tuple(t for t in CARD_TYPES if t in found)
    return tuple(t for t in CARD_TYPES if t in card.type_line.types)


def permanent_card_types(perm: Permanent) -> tuple[str, ...]:
    """A permanent's card types now: an impending one with time counters is no creature."""
    types = set(perm.types)
    return tuple(t for t in CARD_TYPES if t in types)


def card_types(state: GameState, player: str | None = None) -> list[str]:
    """Card types among the permanents ``player`` controls and the cards in their graveyard.

    Lower case, in the order of CR 205.2a; supertypes (basic, legendary, snow)
    are not card types (205.4a).
    """
    name = _player_name(state, player)
    found: set[str] = set()
    for perm in state.controlled_by(name):
        found.update(permanent_card_types(perm))
    for card in state.player(name).graveyard:
        found.update(card_types_of(card))
    return [t for t in CARD_TYPES if t in found]


def devotion(state: GameState, player: str | None = None) -> dict[str, int]:
    """Devotion to each color: colored mana symbols among the mana costs of ``player``'s
    permanents; a hybrid or Phyrexian symbol counts for each of its colors (CR 700.5)."""
    name = _player_name(state, player)
    total = Counter[str]()
    for perm in state.controlled_by(name):
        if perm.card.mana_cost is not None:
            total.update(perm.card.mana_cost.devotion())
    return {c: total[c] for c in COLORS}


def domain(state: GameState, player: str | None = None) -> int:
    """Basic land types among the lands ``player`` controls (0–5)."""
    name = _player_name(state, player)
    found: set[str] = set()
    changed = bool(active_effects(state))
    for perm in state.controlled_by(name):
        if perm.is_land:
            types = effective_land_types(state, perm) if changed else perm.card.type_line.subtypes
            found.update(t for t in types if t in BASIC_LAND_TYPES)
    return len(found)


def counts(state: GameState, player: str | None = None) -> dict[str, Any]:
    """The ``counts`` answer for ``player`` (default: the first player).

    One pass over the board; each distinct card is examined once (the loader shares
    one :class:`Card` object between permanents of the same name).
    """
    name = _player_name(state, player)
    colors = 0
    found: set[str] = set()
    lands: set[str] = set()
    dev = [0, 0, 0, 0, 0]
    seen: IdentityMemo[Card, tuple[int, ...]] = IdentityMemo(len(state.battlefield) + 1)
    changed = bool(active_effects(state))  # Blood Moon, Urborg, Prismatic Omen (CR 305.7, 613)
    for perm in state.battlefield:
        if perm.controller != name:
            continue
        card = perm.card
        colors |= permanent_colors(state, perm)
        types = perm.types
        found.update(types)
        if "land" in types:
            lands.update(effective_land_types(state, perm) if changed else card.type_line.subtypes)
        per = seen.get(card)
        if per is None:
            per = seen.put(card, _devotion_of(card.mana_cost))
        for i in range(5):
            dev[i] += per[i]
    for card in state.player(name).graveyard:
        found.update(card_types_of(card))
    return {
        "colors_among_permanents": list(mask_letters(colors)),
        "card_types": [t for t in CARD_TYPES if t in found],
        "devotion": dict(zip(COLORS, dev)),
        "domain": sum(1 for t in BASIC_LAND_TYPES if t in lands),
    }


def _devotion_of(cost: ManaCost | None) -> tuple[int, ...]:
    """Colored symbols of a mana cost per color, WUBRG; a hybrid counts for each color."""
    if cost is None:
        return (0, 0, 0, 0, 0)
    out = [0, 0, 0, 0, 0]
    for sym in cost.symbols:
        mask = sym.colors
        for i in range(5):
            if mask >> i & 1:
                out[i] += 1
    return tuple(out)


def mana_value(subject: ManaCost | Card | str | None, x: int | None = None,
               zone: str | None = None) -> dict[str, Any]:
    """``{"mana_value": n, "colors": [...]}`` of a cost, a cost string or a card.

    X counts as ``x`` only on the stack (CR 202.3e, 107.3g); elsewhere, and when
    ``x`` is not given, it counts 0.  A card without a mana cost has mana value 0
    (202.3a); a card's colors include its color indicator and devoid (202.2).
    """
    if zone is not None and zone not in ZONES:
        raise BadQuery(f"unknown zone {zone!r}; the zones are {', '.join(ZONES)}", "zone")
    if x is not None and (isinstance(x, bool) or not isinstance(x, int) or x < 0):
        raise BadQuery(f"x must be a non-negative integer, not {x!r}", "x")
    on_stack = zone == "stack"
    if isinstance(subject, Card):
        # a transforming back face uses its front face's mana cost (CR 712.8e)
        cost = subject.front_mana_cost if subject.front_mana_cost is not None else subject.mana_cost
        colors = subject.color_letters
    elif isinstance(subject, str):
        cost = ManaCost.parse(subject)
        colors = cost.color_letters
    elif subject is None:
        cost, colors = None, []
    else:
        cost = subject
        colors = cost.color_letters
    if cost is None:
        return {"mana_value": 0, "colors": colors}
    return {"mana_value": cost.mana_value(x if on_stack else None), "colors": colors}


def happily_ever_after_conditions(state: GameState, player: str | None = None) -> dict[str, bool]:
    """The three parts of Happily Ever After's intervening "if" for ``player``, each on its
    own, so an answer can say which one failed (rulings 2019-10-04; CR 603.4):
    ``five_colors`` among permanents they control, ``six_card_types`` among their
    permanents and graveyard cards, ``life`` at least their starting life total."""
    name = _player_name(state, player)
    who = state.player(name)
    return {"five_colors": len(colors_among_permanents(state, name)) == 5,
            "six_card_types": len(card_types(state, name)) >= 6,
            "life": who.life >= who.starting_life}


def happily_ever_after(state: GameState, player: str | None = None) -> bool:
    """Happily Ever After's win condition for ``player`` (rulings 2019-10-04, CR 603.4).

    Five colors among permanents they control, six or more card types among their
    permanents and graveyard cards, and life at least their starting life total.
    """
    return all(happily_ever_after_conditions(state, player).values())


def _spend_effects(state: GameState) -> tuple[tuple[Permanent, SpendAs], ...]:
    return tuple((p, e) for p, e in active_effects(state) if isinstance(e, SpendAs))


def spend_effects(state: GameState) -> tuple[tuple[Permanent, SpendAs], ...]:
    """Every 609.4b rule in force on the battlefield, with its source, in board order (found once
    per state: most boards have none, and every payment asks)."""
    view = state.view
    found = view.spend_effects
    if found is None:
        found = view.spend_effects = _spend_effects(state)
    return found  # type: ignore[no-any-return]


def spend_rules(state: GameState, player: str, spell_types: frozenset[str] | None,
                ability_of: str | None, spell_subtypes: frozenset[str] | None = None
                ) -> tuple[tuple[Permanent, SpendAs], ...]:
    """The 609.4b rules on the battlefield that reach a payment by ``player``: for a spell with
    the card types ``spell_types`` (lower case), or for an activation cost of an ability of the
    card named ``ability_of`` (a mana ability's cost too), or (both None) for a cost of no named
    spell.  A rule reaches its controller's payments ("You may spend …"), or every player's
    ("Players may spend …": Mycosynth Lattice); one limited to spells of some card types (Oath of
    Nissa's planeswalker spells, Vizier of the Menagerie's creature spells) reaches only a spell
    with one of them; one limited to the activation costs of its source's abilities (Manascape
    Refractor, Quicksilver Elemental) only those; one limited to abilities of creatures its
    controller controls (Agatha's Soul Cauldron) only an ability of a card every permanent of that
    name they control is a creature (:func:`creature_abilities_reached`); one limited to what its
    controller does not own (Nathan Drake, Treasure Hunter) none: the board has no owners, and
    :func:`unowned_spend_rules` names it where it could reach a payment; in board order."""
    out: list[tuple[Permanent, SpendAs]] = []
    for source, effect in spend_effects(state):
        if not effect.players and source.controller != player:
            continue
        if effect.unowned:
            continue
        if effect.creature_abilities and (ability_of is None
                                          or not creature_abilities_reached(state, player, ability_of, source, effect)):
            continue
        if effect.spell_types and (spell_types is None or not effect.spell_types & spell_types):
            continue
        if effect.spell_subtypes and (spell_subtypes is None or not effect.spell_subtypes & spell_subtypes):
            continue  # Case File Auditor: only a spell with the subtype
        if effect.own_abilities and ability_of != source.card.name:
            continue
        out.append((source, effect))
    return tuple(out)


def creature_abilities_reached(state: GameState, player: str, name: str, source: Permanent, effect: SpendAs) -> bool:
    """Does ``effect`` ("… to activate abilities of creatures you control": Agatha's Soul Cauldron)
    reach the abilities of the card named ``name``, a source known by its name only?  Yes when
    every permanent of that name ``player`` controls is a creature now, no when none is a creature
    (or none is on the battlefield); some creatures and some not is refused naming the clause."""
    kinds = {p.is_creature for p in state.controlled_by(player) if p.card.name == name}
    if len(kinds) > 1:
        index = next(i for i, p in enumerate(state.battlefield) if p.id == source.id)
        raise Unsupported(f"{source.card.name} ({source.id}): {effect.text!r} reaches the abilities of {name} only "
                          f"where it is a creature, and {player} controls {name}s that are creatures and some that "
                          f"are not, which this engine tells apart by name only", f"battlefield[{index}]")
    return kinds == {True}


def unowned_spend_rules(state: GameState, player: str) -> tuple[tuple[Permanent, SpendAs], ...]:
    """The 609.4b rules reaching ``player``'s payments only for spells they don't own and abilities
    of permanents they control but don't own (Nathan Drake, Treasure Hunter).  The board says
    nothing of owners, so :func:`spend_rules` never applies them; where one could change a payment
    (a spell or ability with a colored symbol, a mana ability whose cost has one) the answer is
    refused or the source left out naming the clause."""
    effects = spend_effects(state)
    if not effects:
        return ()  # (most boards have no 609.4b rule)
    return tuple((p, e) for p, e in effects if e.unowned and (e.players or p.controller == player))


def spend_table(state: GameState, player: str, spell_types: frozenset[str] | None,
                ability_of: str | None) -> SpendTable:
    """The :class:`~manasolver.models.effects.SpendTable` of the rules :func:`spend_rules`
    finds (the identity when there are none); rules that can't make one table are refused
    with :class:`~manasolver.models.errors.Unsupported` naming the first source's position."""
    return _table(state, spend_rules(state, player, spell_types, ability_of))


def _table(state: GameState, rules: tuple[tuple[Permanent, SpendAs], ...]) -> SpendTable:
    """The table of ``rules`` (see :func:`spend_table`)."""
    if not rules:
        return SpendTable()
    try:
        return SpendTable.of(tuple(e for _, e in rules))
    except Unsupported as err:
        source = next((p for p, e in rules if e.others_only), rules[0][0])
        index = next(i for i, p in enumerate(state.battlefield) if p.id == source.id)
        raise Unsupported(f"{source.card.name} ({source.id}): {err.message}", f"battlefield[{index}]") from None


class SpellLike(Protocol):
    """What :func:`payment_spend_table` reads of the spell or ability being paid for (the
    solver's ``SpellInfo``): its card types, whether it is an ability, its card and its subtypes."""

    @property
    def types(self) -> frozenset[str]: ...

    @property
    def ability(self) -> bool: ...

    @property
    def card(self) -> Card | None: ...

    @property
    def subtypes(self) -> frozenset[str]: ...


def payment_spend_rules(state: GameState, player: str, spell: SpellLike | None
                        ) -> tuple[tuple[Permanent, SpendAs], ...]:
    """:func:`spend_rules` reaching the total of one payment: a spell's by its card types, an
    ability's by its source card, a cost of no named spell (``None``) the rules reaching every cost."""
    if spell is None:
        return spend_rules(state, player, None, None)
    if spell.ability:
        name = spell.card.name if spell.card is not None else ""
        rules = spend_rules(state, player, None, name)
        if "creature" not in spell.types:  # not a creature's ability (its source's types now)
            return tuple((p, e) for p, e in rules if not e.creature_abilities)
        for source, effect in spend_effects(state):
            if effect.creature_abilities and (effect.players or source.controller == player):
                _creature_ability_known(state, spell, source, effect)
        return rules
    return spend_rules(state, player, spell.types, None, spell.subtypes)


def _creature_ability_known(state: GameState, spell: SpellLike, source: Permanent, effect: SpendAs) -> None:
    """Refuse, naming ``effect``'s clause, an ability of a creature card named without a card (its
    source unknown) or of a card with an ability that works from another zone (cycling, ninjutsu:
    then the creature card need not be a permanent, and the rule reaches only creatures on the
    battlefield)."""
    from manasolver.models.text.read import card_text
    card = spell.card
    text = card_text(card) if card is not None else None
    if text is not None and not text.hand_abilities and all(a.zone == "battlefield" for a in text.activated):
        return
    index = next(i for i, p in enumerate(state.battlefield) if p.id == source.id)
    what = card.name if card is not None else "a creature card"
    raise Unsupported(f"{source.card.name} ({source.id}): {effect.text!r} reaches an ability of {what} only on the "
                      f"battlefield, and which zone the ability is activated from is not given",
                      f"battlefield[{index}]")


def payment_spend_table(state: GameState, player: str, spell: SpellLike | None) -> SpendTable:
    """:func:`spend_table` of the rules :func:`payment_spend_rules` finds."""
    return _table(state, payment_spend_rules(state, player, spell))
