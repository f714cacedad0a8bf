"""Which permanents of a board each board-wide reader reads: a card's marks, and each board's marked permanents.

Most cards take part in none of the readings that look over a whole board (the effects on mana in
force, the triggers on becoming tapped, the refusals of what the engine does not model, the cost
modifiers of a cast), so each such reader reads only the permanents marked for it
(:func:`marked`).  A card's marks (:func:`marks`) are read once, from its text and its reading, and
kept in its facts; the board's marked permanents are read at the positions the board's loader found
as it made each permanent (those whose card has marks or is not read for them yet; a state made
otherwise is passed over once), kept in its view (``state.view.marked``), so a board without a
marked card costs its loader one test per permanent for all of its readers.

The marks of the rules (``models/rules``): :data:`NOTABLE` (an effect on mana, a prohibition or a
granted keyword: all that the effects in force, the prohibitions and the grants read,
:mod:`~manasolver.models.rules.board_effects`, :mod:`~manasolver.models.rules.granted`),
:data:`TAP_TRIGGERS` (a trigger on becoming tapped or tapping for mana), :data:`UNCERTAIN` (a card
whose mana may be uncertain: :mod:`~manasolver.models.rules.uncertain` reads its facts), and
:data:`DOUBLING` (a pool-doubling mana ability, or text about unspent mana:
``solver.pools.doublers``).  The marks of the refusals (``solver.supply.unmodelled``, which says
what each refuses and why), with the clauses they are read by: :data:`PAYING`, :data:`OWN_SPENDING`,
:data:`LAYERS`, :data:`COLOR_READERS`, :data:`UNCHECKED`, :data:`GRAVEYARD`, :data:`POWER`,
:data:`POWER_READERS`, :data:`RECOLORS`; and :data:`COSTS`, the cost clauses the cast request reads
(``solver.casting.modifiers``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from manasolver.models.abilities import ManaAbility
from manasolver.models.card import Card
from manasolver.models.state import NO_MARKS, GameState, Permanent
from manasolver.models.text.mana_abilities import BECOMES_THAT_COLOR
from manasolver.models.text.mana_effects import mana_effects_of
from manasolver.models.text.oracle import GRAVEYARD_MANA, self_reference
from manasolver.models.text.prohibitions import prohibitions_of
from manasolver.models.text.read import card_text
from manasolver.models.text.tap_triggers import tap_triggers_of
from manasolver.models.text.triggers import triggers_of

__all__ = ["ALL_ARTIFACTS", "COLOR_READERS", "COSTS", "DOUBLING", "GRAVEYARD", "LAYERS", "LAYER_LINES", "NOTABLE",
           "OWN_SPENDING", "OWN_SPENDING_RULE", "PAYING", "POWER", "POWER_READERS", "RECOLORS", "SPELLS_COLORLESS",
           "SPELLS_WHITE", "TAP_TRIGGERS", "UNCERTAIN", "UNCHECKED", "Marked", "board_marks", "graveyard_mana_line",
           "marked", "marks", "paying_clause", "power_change", "reads_power"]

NOTABLE = "notable"          # an effect on mana, a prohibition or a granted keyword (board_effects, granted)
TAP_TRIGGERS = "tap_triggers"  # a trigger on becoming tapped or tapping for mana (board_effects)
UNCERTAIN = "uncertain"      # mana that may be uncertain: a printed ability, or a reading of a top card (uncertain)
DOUBLING = "doubling"        # a pool-doubling mana ability, or text about unspent mana (pools.doublers)
PAYING = "paying"            # K'rrik's life for a colored symbol (guard_payment_rules, casting.build)
LAYERS = "layers"            # Mycosynth Lattice's and Celestial Dawn's type and color changes
COLOR_READERS = "colors"     # a cost modifier by color, or mana only for spells of some colors
UNCHECKED = "unchecked"      # a spending restriction not checked against a named spell
GRAVEYARD = "graveyard"      # mana text that works from the graveyard
POWER = "power"              # a static change of power or toughness (Glorious Anthem, an Equipment)
POWER_READERS = "power_readers"  # mana that reads power or toughness (Selvala, Heart of the Wilds)
RECOLORS = "recolors"        # a mana ability that makes its source the color of its mana (Foraging Wickermaw)
COSTS = "costs"              # a clause that changes what spells cost, read or not (casting.modifiers)
OWN_SPENDING = "own_spending"  # a spell's own "Spend only mana produced by …" (guard_payment_rules)

#: The marks of most cards: none (told apart by identity, by the board's loader too).
_NO_MARKS = NO_MARKS


def marks(card: Card) -> frozenset[str]:
    """Which board-wide readers read ``card`` (the marks above): read once per card and kept in its
    facts."""
    found: frozenset[str] | None = card.facts.marks
    if found is None:
        found = card.facts.marks = _read_marks(card)
    return found


#: The board's marked permanents by mark (its view's ``marked``).
Marked = dict[str, tuple[tuple[int, Permanent], ...]]


def marked(state: GameState, mark: str) -> tuple[tuple[int, Permanent], ...]:
    """(position, permanent) of the board's permanents whose card has ``mark``, in board order:
    read once per board (:func:`_mark_board`), kept in its view (``state.view.marked``)."""
    index: Marked | None = state.view.marked
    if index is None:
        index = _mark_board(state)
    return index.get(mark, ())


def board_marks(state: GameState) -> Marked:
    """Every mark of the board with its permanents (what :func:`marked` reads), for a reader that
    asks for several: empty on most boards."""
    index: Marked | None = state.view.marked
    return index if index is not None else _mark_board(state)


def _mark_board(state: GameState) -> Marked:
    """What :func:`marked` reads, stored in the board's view: each mark's permanents, read at the
    positions of the permanents whose card has marks or is not read for them yet (most have none),
    which the board's loader found (``state.view.marked_at``), or for a state made otherwise, found
    in one pass over the board."""
    view = state.view
    battlefield = state.battlefield
    at: Sequence[int] | None = view.marked_at
    if at is None:
        at = [i for i, perm in enumerate(battlefield) if perm.card.facts.marks is not _NO_MARKS]
    found: dict[str, list[tuple[int, Permanent]]] = {}
    for i in at:
        perm = battlefield[i]
        for m in marks(perm.card):
            if m in found:
                found[m].append((i, perm))
            else:
                found[m] = [(i, perm)]
    index: Marked = {}
    for m, v in found.items():  # (a loop: a comprehension makes a function each time)
        index[m] = tuple(v)
    view.marked = index
    return index


def _hand_built_costs(card: Card) -> bool:
    """Does a card built by hand (no stored reading) print cost clauses?  Its text is read here, the
    reader loaded only then (a query on a board of cards from the database never loads it)."""
    from manasolver.models.text.cost_modifiers import cost_effects_of
    return any(cost_effects_of(card))


def _read_marks(card: Card) -> frozenset[str]:
    text = card.oracle_text
    out: set[str] = set()
    read = card.text  # the reading stored when the card was built; a card built by hand is read now
    if read is not None:
        if read.mana_effects or read.prohibitions or read.granted_keywords:
            out.add(NOTABLE)
    elif mana_effects_of(card) or prohibitions_of(card) or card_text(card).granted_keywords:
        out.add(NOTABLE)
    if (read.cost_effects or read.cost_unknown) if read is not None else _hand_built_costs(card):
        out.add(COSTS)
    if triggers_of(card) and tap_triggers_of(card):  # (most cards have no trigger to read)
        out.add(TAP_TRIGGERS)
    reading = card_text(card)
    if reading.cost_effects and any(e.colors or e.colorless for e in reading.cost_effects):
        out.add(COLOR_READERS)
    if reading.mana_effects or reading.tap_costs:
        out.add(UNCERTAIN)  # (what a reading of a top card is read from: rules.uncertain reads which)
    if reading.unspent_mana:
        out.add(DOUBLING)
    for ab in card.mana_abilities:  # (most cards have none)
        production = ab.production
        amount, restriction = production.amount, production.restriction
        if production.uncertain or (amount is not None and amount.kind == "revealed_nonland"):
            out.add(UNCERTAIN)
        if production.doubles_pool:
            out.add(DOUBLING)
        if restriction is not None:
            if restriction.multicolored or restriction.colorless:
                out.add(COLOR_READERS)
            if restriction.unchecked:
                out.add(UNCHECKED)
        if BECOMES_THAT_COLOR in ab.extra:
            out.add(RECOLORS)
        if reads_power(ab):
            out.add(POWER_READERS)
    if reading.tap_costs and any(reads_power(t.ability) for t in reading.tap_costs):
        out.add(POWER_READERS)
    if paying_clause(text) is not None:
        out.add(PAYING)
    if "Spend only mana produced by" in text and OWN_SPENDING_RULE.search(text):
        out.add(OWN_SPENDING)
    if "permanents" in text and any(line.strip() in LAYER_LINES for line in text.split("\n")):
        out.add(LAYERS)
    if graveyard_mana_line(card) is not None:
        out.add(GRAVEYARD)
    if power_change(text) is not None:
        out.add(POWER)
    return frozenset(out) if out else _NO_MARKS


# -- the clauses the refusals' marks are read by -------------------------------------------------

#: A spell's own spending rule (CR 106.6 on the spell itself): Myr Superion, Imperiosaur.
OWN_SPENDING_RULE = re.compile(r"Spend only mana produced by [^.]*to cast (?:this spell|it this way)\.")
#: K'rrik, Son of Yawgmoth (a "rather than pay that mana" replacement of CR 118.9's kind).
_LIFE_FOR_MANA = re.compile(r"For each \{([WUBRG])\} in a cost, you may pay (\d+) life rather than pay that mana\.")

#: Mycosynth Lattice's type change (layer 4, CR 613.1d) and the color changes of Lattice and
#: Celestial Dawn (layer 5) that reach spells and cards, not only permanents.
ALL_ARTIFACTS = "All permanents are artifacts in addition to their other types."
SPELLS_COLORLESS = "All cards that aren't on the battlefield, spells, and permanents are colorless."
SPELLS_WHITE = ("Nonland permanents you control are white. The same is true for spells you control and nonland "
                "cards you own that aren't on the battlefield.")
LAYER_LINES = (ALL_ARTIFACTS, SPELLS_COLORLESS, SPELLS_WHITE)


def paying_clause(text: str) -> re.Match[str] | None:
    """K'rrik's "pay N life rather than pay that mana" match of an oracle text, or None."""
    return _LIFE_FOR_MANA.search(text) if "rather than pay that mana" in text else None


def graveyard_mana_line(card: Card) -> str | None:
    """The first line of ``card``'s text that makes mana from the graveyard (:data:`GRAVEYARD_MANA`),
    or None.  Only the lines with both of the words every match has are read for the card's name
    (most texts have neither)."""
    text = card.oracle_text
    if "graveyard" not in text or "Add" not in text:
        return None
    for line in text.split("\n"):
        if "Add" in line and "graveyard" in line and GRAVEYARD_MANA.search(self_reference(line, card.name)):
            return line
    return None


#: A static change of power or toughness (CR 613.4c, 613.4b): "Creatures you control get +1/+1",
#: "Equipped creature gets +2/+0", "… has base power and toughness 4/4", "Switch …'s power and
#: toughness".  A line that lasts "until end of turn" is an effect of a spell or an activation,
#: which the board does not record.
_POWER_CHANGE = re.compile(r"\bgets? [+-][\dX]+/[+-][\dX]+|\bbase power\b|\bpower and toughness (?:are each|each equal)"
                           r"|\bswitch\b[^.]*\bpower and toughness", re.IGNORECASE)


def power_change(text: str) -> str | None:
    """The first line of ``text`` that changes power or toughness for as long as its permanent is on
    the battlefield (:data:`_POWER_CHANGE`), or None."""
    low = text.lower()
    if "/" not in low and "power" not in low:
        return None  # (every match has "/" or "power": most texts have neither, two searches)
    if "base power" not in low and "power and toughness" not in low and "get +" not in low \
            and "gets +" not in low and "get -" not in low and "gets -" not in low:
        return None  # (every match has one of these words)
    for line in text.split("\n"):
        if _POWER_CHANGE.search(line) and "until end of turn" not in line and not line.startswith(("When", "At ")):
            return line.strip()
    return None


#: The amounts of mana abilities that read power or toughness (models/abilities.Amount).
_POWER_AMOUNTS = frozenset({"power", "toughness", "max_power", "total_power", "max_toughness", "distinct_powers",
                            "entered_power", "sacrificed_power"})


def reads_power(ability: ManaAbility) -> bool:
    """Does ``ability``'s amount read power or toughness?"""
    amount = ability.production.amount
    # (creature cards revealed from the hand, Sacellum Godspeaker's, have their printed power)
    return amount is not None and (amount.kind in _POWER_AMOUNTS
                                   or (amount.min_power is not None and amount.kind != "hand"))
