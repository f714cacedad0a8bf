"""A card's characteristics: name, mana cost, type line, colors, abilities.

:class:`Card` is built from a card-data record (a Scryfall-style JSON card object)
by :func:`manasolver.models.card_build.card_from_record`, which also gives it the reading of its
oracle text (``Card.text``: each reader run once, when what it reads is first asked).  A card without a
mana cost has ``mana_cost = None`` (CR 202.1b), distinct from ``{0}``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from manasolver.models.abilities import ManaAbility
from manasolver.models.cost import ManaCost
from manasolver.models.slots import slot_setters
from manasolver.models.symbols import mask_letters

if TYPE_CHECKING:  # the reading's values are imported by the readers that make them
    from manasolver.models.card_text import ActivatedAbility, CostEffect, GrantedKeyword, KeywordCost, TapCost
    from manasolver.models.effects import StructuredEffect
    from manasolver.models.triggered import Trigger

__all__ = ["BASIC_LAND_TYPES", "CARD_TYPES", "READ_WHEN_ASKED", "SPLIT_LAYOUTS", "SUPERTYPES", "Card", "CardFacts",
           "CardText", "TextReader", "TypeLine"]

#: Every card type (CR 300.1 / 205.2a); "tribal" is read as kindred (308.3).
CARD_TYPES = ("artifact", "battle", "conspiracy", "creature", "dungeon", "enchantment", "instant",
              "kindred", "land", "phenomenon", "plane", "planeswalker", "scheme", "sorcery", "vanguard")
SUPERTYPES = ("basic", "legendary", "ongoing", "snow", "world", "elite", "host")
#: Basic land types and the mana their intrinsic ability adds (CR 305.6).
BASIC_LAND_TYPES = {"plains": "W", "island": "U", "swamp": "B", "mountain": "R", "forest": "G"}
#: Layouts whose halves share one face: the card has both halves' characteristics (CR 709.4).
SPLIT_LAYOUTS = frozenset({"split", "aftermath"})
_SUPERTYPE_SET = frozenset(SUPERTYPES)
_CARD_TYPE_SET = frozenset(CARD_TYPES)


@dataclass(frozen=True, slots=True, init=False)
class TypeLine:
    """A parsed type line: lower-case supertypes, card types and subtypes (CR 205)."""

    text: str = ""
    supertypes: tuple[str, ...] = ()
    types: tuple[str, ...] = ()
    subtypes: tuple[str, ...] = ()

    def __init__(self, text: str = "", supertypes: tuple[str, ...] = (), types: tuple[str, ...] = (),
                 subtypes: tuple[str, ...] = ()) -> None:
        # Each field set through its slot (see models.slots): a type line for every card built.
        s0, s1, s2, s3 = _TYPE_LINE_SLOTS
        s0(self, text)
        s1(self, supertypes)
        s2(self, types)
        s3(self, subtypes)

    @staticmethod
    def parse(text: str) -> TypeLine:
        """Parse ``"Legendary Artifact Creature — Scarecrow"``; only the first face of ``//``."""
        front = text.split("//", 1)[0]
        left, dash, right = front.partition("—")
        if not dash:  # split at an em dash, else at " - ", else at "--"
            left, dash, right = front.partition(" - ")
            if not dash:
                left, _, right = front.partition("--")
        sup: list[str] = []
        types: list[str] = []
        for word in left.lower().split():
            if word in _SUPERTYPE_SET:
                sup.append(word)
            elif word in _CARD_TYPE_SET:
                types.append(word)
            elif word == "tribal":
                types.append("kindred")
        return TypeLine(text.strip(), tuple(sup), tuple(types), tuple(right.lower().replace(",", " ").split()))

    def has(self, kind: str) -> bool:
        """True when ``kind`` (lower case) is one of its supertypes, types or subtypes."""
        return kind in self.types or kind in self.subtypes or kind in self.supertypes


_TYPE_LINE_SLOTS = slot_setters(TypeLine)


class TextReader(Protocol):
    """What reads the fields of a card's :class:`CardText` that are read when first asked
    (:data:`READ_WHEN_ASKED`; ``models.text.read``)."""

    def read(self, name: str) -> Any:
        """The value of the field ``name``, read from the card now."""
        ...


@dataclass(frozen=True, slots=True)
class CardText:
    """Everything the readers of :mod:`manasolver.models.text` read from one card
    (:func:`manasolver.models.text.read.read_card_text`).

    ``mana_effects``: effects on mana production; ``triggers``: the triggered abilities of the face
    it has on the battlefield; ``activated``: non-mana activated abilities; ``hand_abilities``: mana
    abilities activated from the hand; ``tap_costs``: mana abilities that tap other permanents,
    indexed after the card's mana abilities; ``cost_effects`` and ``cost_unknown``: cost modifiers
    read and cost-modifying clauses not understood; ``keyword_costs``: keyword additional and
    alternative costs (``None`` when their text could not be read, so that asking reads it again
    and reports the error); ``prohibitions``: "Activated abilities of … can't be activated" clauses
    that reach mana abilities, with what they name (lower case); ``unread``: the clauses of
    ``Card.unsupported`` that none of the readers reads; ``enters_tapped``: True for "~ enters
    tapped.", None for a conditional form, False for none (CR 614.1c); ``impending``: N of
    "Impending N—[cost]" (CR 702.176a), None without impending; ``modes``: how many of its lines
    start with "•" (the modes of a modal spell, CR 700.2); ``unspent_mana``: its text speaks of
    "unspent mana"; ``doubles_unspent_mana``: it says "double the amount of each type of unspent
    mana" (a pool doubler, CR 106.4); ``about_activation``: the first line of its text about what
    activating abilities costs or whether they can be activated ("" for none); ``granted_keywords``:
    keywords it gives other permanents or spells (haste, convoke).

    The fields of :data:`READ_WHEN_ASKED` (the non-mana activated abilities, keyword costs, entering
    tapped, impending, modes, the line about activation) are asked by few queries and of few cards,
    and cost about as much to read as all the others: a reading made for a card (:meth:`of`) reads
    each of them when it is first asked, and keeps it.  Thread-safe: such a field is stored whole
    by a single store; two threads that ask at once both read it and one equal value stays.  A
    reading built with its values (``CardText(...)``, as ``dataclasses.replace`` does) reads nothing.
    """

    mana_effects: tuple[StructuredEffect, ...] = ()
    triggers: tuple[Trigger, ...] = ()
    activated: tuple[ActivatedAbility, ...] = ()
    hand_abilities: tuple[ManaAbility, ...] = ()
    tap_costs: tuple[TapCost, ...] = ()
    cost_effects: tuple[CostEffect, ...] = ()
    cost_unknown: tuple[str, ...] = ()
    keyword_costs: tuple[KeywordCost, ...] | None = ()
    prohibitions: tuple[tuple[str, str], ...] = ()
    unread: tuple[str, ...] = ()
    enters_tapped: bool | None = False
    impending: int | None = None
    modes: int = 0
    unspent_mana: bool = False
    doubles_unspent_mana: bool = False
    about_activation: str = ""
    granted_keywords: tuple[GrantedKeyword, ...] = ()
    #: What reads the fields of READ_WHEN_ASKED not read yet (None for a reading built with its values).
    _reader: TextReader | None = field(default=None, init=False, repr=False, compare=False)

    @staticmethod
    def of(reader: TextReader, *, mana_effects: tuple[StructuredEffect, ...], triggers: tuple[Trigger, ...],
           hand_abilities: tuple[ManaAbility, ...], tap_costs: tuple[TapCost, ...],
           cost_effects: tuple[CostEffect, ...], cost_unknown: tuple[str, ...],
           prohibitions: tuple[tuple[str, str], ...], unread: tuple[str, ...], unspent_mana: bool,
           doubles_unspent_mana: bool, granted_keywords: tuple[GrantedKeyword, ...]) -> CardText:
        """A reading with the values given of every field but those of :data:`READ_WHEN_ASKED`,
        which ``reader`` reads when each is first asked."""
        text: CardText = object.__new__(CardText)
        # Each field set through its slot (see models.slots), in the order of _READ_NOW_SLOTS.
        s0, s1, s2, s3, s4, s5, s6, s7, s8, s9, s10, s11 = _READ_NOW_SLOTS
        s0(text, mana_effects)
        s1(text, triggers)
        s2(text, hand_abilities)
        s3(text, tap_costs)
        s4(text, cost_effects)
        s5(text, cost_unknown)
        s6(text, prohibitions)
        s7(text, unread)
        s8(text, unspent_mana)
        s9(text, doubles_unspent_mana)
        s10(text, granted_keywords)
        s11(text, reader)
        return text


#: The fields of :class:`CardText` read when first asked (the others are read when the card is built).
READ_WHEN_ASKED = ("activated", "keyword_costs", "enters_tapped", "impending", "modes", "about_activation")
_READ_NOW = frozenset(f for f in CardText.__dataclass_fields__ if not f.startswith("_")) - frozenset(READ_WHEN_ASKED)
#: The fields :meth:`CardText.of` sets, in the order of its parameters: those of :data:`_READ_NOW`, then the reader.
_OF_FIELDS = ("mana_effects", "triggers", "hand_abilities", "tap_costs", "cost_effects", "cost_unknown", "prohibitions",
              "unread", "unspent_mana", "doubles_unspent_mana", "granted_keywords", "_reader")
#: The setters of their slots.
_READ_NOW_SLOTS = tuple(CardText.__dict__[name].__set__ for name in _OF_FIELDS)


def _read_when_asked(name: str) -> None:
    """Make the field ``name`` of :class:`CardText` a property over its slot that reads the field
    when the slot is empty.  The other fields stay plain slots, read at the speed of any attribute
    (a ``__getattr__`` on the class would slow every one of them fourfold)."""
    slot = CardText.__dict__[name]  # the slot's member descriptor: where the value is kept

    def get(text: CardText) -> Any:
        try:
            return slot.__get__(text, CardText)
        except AttributeError:  # not read yet
            reader = text._reader
            if reader is None:
                raise
            value = reader.read(name)
            slot.__set__(text, value)
            return value

    setattr(CardText, name, property(get, slot.__set__, doc=f"``{name}``, read when first asked."))


for _name in READ_WHEN_ASKED:
    _read_when_asked(_name)


class CardFacts:
    """What the engine computes once about a card, kept with it (``card.facts``): each field is
    ``None`` until its owner first asks, then the fact, for as long as the card lives (cards are
    immutable and interned by their database).

    Fields, each filled by one owner: ``text`` the reading of a card built by hand
    (``models.text.read``); ``tap_triggers`` its triggers on becoming tapped
    (``models.text.tap_triggers``); ``reading`` its producing abilities and unread clauses that
    matter, ``mask`` its static could-produce, ``static_masks`` its abilities' base types by chosen
    color and commander identity (``solver.graph``); ``supply_info`` what its supply
    row reads (and, for a card whose row reads only its permanent's tapped and sick, those rows),
    ``counts_only`` and ``mirrors_only`` whether it reads the board only through counts or mirrored
    lands (``solver.supply.build``); ``marks`` which board-wide readers read it: the rules',
    the checks of what the engine does not model, the cast request's modifiers
    (``models.rules.marks``); ``doubler``
    whether it doubles the pool (``solver.pools.doublers``); ``identity`` its color identity
    (``models.rules.amounts``); ``quiet`` and ``counting`` what keeps it from the plain path
    (``solver.supply.plain``); ``uncertain`` whether a printed mana ability of it adds mana by
    chance or another player's choice (``models.rules.uncertain``); ``spell`` what a query casting it by
    its name alone casts (``solver.service.decode``).

    Thread-safe: each field is written with one whole immutable value by a single store (the
    entries of ``static_masks`` and of ``supply_info``'s rows, dictionaries, likewise); two threads
    that ask at once both compute it and one equal value stays.
    """

    __slots__ = ("counting", "counts_only", "doubler", "identity", "marks", "mask", "mirrors_only", "quiet",
                 "reading", "spell", "static_masks", "supply_info", "tap_triggers", "text", "uncertain")

    def __init__(self) -> None:
        self.text: Any = None
        self.tap_triggers: Any = None
        self.reading: Any = None
        self.mask: Any = None
        self.static_masks: Any = None
        self.supply_info: Any = None
        self.counts_only: Any = None
        self.mirrors_only: Any = None
        self.marks: Any = None
        self.uncertain: Any = None
        self.spell: Any = None
        self.doubler: Any = None
        self.identity: Any = None
        self.quiet: Any = None
        self.counting: Any = None


@dataclass(frozen=True, slots=True, init=False)
class Card:
    """A card's characteristics as the engine uses them.

    ``colors`` is a bitmask (W=1 … G=16) computed from the mana cost, the color
    indicator, devoid and "is all colors" text (CR 202.2, 204, 702.114).
    ``mana_abilities`` are in printed order, intrinsic basic-land abilities first.
    ``unsupported`` lists clauses about mana that the oracle parser could not read
    (``text.unread``: those that no other reader reads either); the engine refuses to
    answer where they could matter.
    ``alternative_costs`` maps a name (``"impending"``) to its mana cost.
    ``front_mana_cost``: for the back face of a transforming card, the front face's mana
    cost, which gives the back face its mana value (CR 712.8e).
    ``text``: what the oracle-text readers read from it, given when the card was built and read
    when first asked (:func:`manasolver.models.text.read.read_card_text`); ``None`` for a card built by hand,
    whose readers then read ``oracle_text`` when asked.  It is not compared: it follows from
    the other characteristics.
    """

    name: str
    mana_cost: ManaCost | None = None
    type_line: TypeLine = TypeLine()
    colors: int = 0
    oracle_text: str = ""
    layout: str = "normal"
    power: str | None = None
    toughness: str | None = None
    keywords: frozenset[str] = frozenset()
    mana_abilities: tuple[ManaAbility, ...] = ()
    unsupported: tuple[str, ...] = ()
    alternative_costs: tuple[tuple[str, ManaCost], ...] = ()
    faces: tuple[Card, ...] = field(default=(), compare=False)
    front_mana_cost: ManaCost | None = None
    text: CardText | None = field(default=None, compare=False, repr=False)
    #: What the engine computes once about this card (:class:`CardFacts`); not part of the value.  A
    #: plain slot made with the card: a line asks for it some seventy times, and a property that made
    #: it when first asked would cost more than making it does.  A copy (``dataclasses.replace``) has
    #: facts of its own, as any card built anew.
    facts: CardFacts = field(default_factory=CardFacts, init=False, compare=False, repr=False)

    def __init__(self, name: str, mana_cost: ManaCost | None = None, type_line: TypeLine = TypeLine(),
                 colors: int = 0, oracle_text: str = "", layout: str = "normal", power: str | None = None,
                 toughness: str | None = None, keywords: frozenset[str] = frozenset(),
                 mana_abilities: tuple[ManaAbility, ...] = (), unsupported: tuple[str, ...] = (),
                 alternative_costs: tuple[tuple[str, ManaCost], ...] = (), faces: tuple[Card, ...] = (),
                 front_mana_cost: ManaCost | None = None, text: CardText | None = None) -> None:
        # Each field set through its slot (see models.slots): a card built for every name first met.
        s0, s1, s2, s3, s4, s5, s6, s7, s8, s9, s10, s11, s12, s13, s14, s15 = _CARD_SLOTS
        s0(self, name)
        s1(self, mana_cost)
        s2(self, type_line)
        s3(self, colors)
        s4(self, oracle_text)
        s5(self, layout)
        s6(self, power)
        s7(self, toughness)
        s8(self, keywords)
        s9(self, mana_abilities)
        s10(self, unsupported)
        s11(self, alternative_costs)
        s12(self, faces)
        s13(self, front_mana_cost)
        s14(self, text)
        s15(self, CardFacts())

    @property
    def mana_value(self) -> int:
        """Mana value off the stack (CR 202.3): X counts 0; no mana cost is 0.  The back face
        of a transforming double-faced card uses its front face's mana cost (CR 712.8e)."""
        cost = self.mana_cost if self.front_mana_cost is None else self.front_mana_cost
        return cost.mana_value() if cost is not None else 0

    @property
    def color_letters(self) -> list[str]:
        """Colors in WUBRG order."""
        return list(mask_letters(self.colors))

    @property
    def battlefield_face(self) -> Card:
        """The face it has on the battlefield: the front face of a multi-face card (CR 712.8a);
        a split card is one object with both halves' characteristics (709.4)."""
        return self.faces[0] if self.faces and self.layout not in SPLIT_LAYOUTS else self

    def is_type(self, card_type: str) -> bool:
        """True when ``card_type`` (lower case) is one of its card types."""
        return card_type in self.type_line.types

    def alternative_cost(self, name: str) -> ManaCost | None:
        """The named alternative cost printed on the card, if any."""
        for key, cost in self.alternative_costs:
            if key == name:
                return cost
        return None


_CARD_SLOTS = slot_setters(Card)
