"""The game state a question is asked about: players, turn, battlefield.

These are frozen values.  :func:`manasolver.models.board.load.load_state` builds them
from board JSON with errors that name the path of the bad field.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from operator import itemgetter
from typing import Any, NamedTuple

from manasolver.models.abilities import ZONE_CARDS
from manasolver.models.card import CARD_TYPES, SUPERTYPES, Card
from manasolver.models.cost import ManaCost
from manasolver.models.slots import slot_setters

__all__ = ["DESIGNATIONS", "NO_MARKS", "STEPS", "BoardView", "GameState", "Library", "Permanent", "Player", "Turn",
           "fits_cost"]

#: Steps and phases in turn order (CR 500.1); "main1"/"main2" are the main phases.
STEPS = ("untap", "upkeep", "draw", "main1", "beginning_of_combat", "declare_attackers",
         "declare_blockers", "combat_damage", "end_of_combat", "main2", "end", "cleanup")
#: Designations a player can have (CR 724 the monarch, 725 the initiative, 702.131 the city's blessing).
DESIGNATIONS = ("monarch", "initiative", "city's blessing")
#: The marks of a card that no board-wide reader reads (``card.facts.marks`` of most cards, told apart
#: by identity: :mod:`manasolver.models.rules.marks`), here where the loader that tells them apart is.
NO_MARKS: frozenset[str] = frozenset()


class Permanent(NamedTuple):
    """A permanent on the battlefield.

    A named tuple, not a dataclass: a client's every board names its permanents with new ids, so
    a permanent read before is rebuilt with the new id for every line
    (:func:`~manasolver.models.board.load.load_state`), and a tuple is made in a fraction of the
    time a frozen dataclass's field-by-field ``__init__`` takes.  Change one with ``_replace``.

    ``sick``: not continuously controlled since its controller's most recent
    turn began (CR 302.6); it matters only for creatures without haste.
    ``counters``: ``(kind, n)`` pairs, sorted by kind.
    ``chosen_color`` (a letter, ``"G"``) / ``chosen_type`` (a creature type, lower
    case) / ``chosen_name`` (a card name, as given): the choices made as it entered ("As ~
    enters, choose a color", CR 614.12); None when not given.
    ``imprinted``: the cards exiled with it (Chrome Mox's "the exiled card", linked abilities,
    607.2a); None when not given (then an answer that depends on them says so), ``()`` when
    the board says none.
    ``entered_this_turn`` (Alena, Kessig Trapper; "Activate only if this land entered this turn")
    and ``renowned`` (CR 702.112b): None when not given (then an answer that depends on them says
    so).
    ``activated_this_turn``: ``(index, times)`` pairs, sorted: how many times each of its mana
    abilities (by index) was already activated this turn, for "Activate only once each turn"
    (CR 602.5b); ``()`` when none or not given.
    """

    id: str
    card: Card
    controller: str
    tapped: bool = False
    sick: bool = False
    haste: bool = False
    counters: tuple[tuple[str, int], ...] = ()
    attached_to: str | None = None
    cast_for: str | None = None
    x: int | None = None
    token: bool = False
    chosen_color: str | None = None
    chosen_type: str | None = None
    chosen_name: str | None = None
    imprinted: tuple[Card, ...] | None = None
    entered_this_turn: bool | None = None
    renowned: bool | None = None
    activated_this_turn: tuple[tuple[int, int], ...] = ()

    def counter(self, kind: str) -> int:
        """How many counters of ``kind`` it has."""
        return dict(self.counters).get(kind, 0)

    def stat(self, what: str) -> int:
        """Its ``"power"`` or ``"toughness"``: the printed value plus +1/+1 counters minus -1/-1
        counters (0 printed for a card without one).  A value set by a characteristic-defining
        ability (``*``) is not computed: :class:`~manasolver.models.errors.Unsupported`, never a
        guess."""
        raw = self.card.power if what == "power" else self.card.toughness
        base = 0
        if raw is not None:
            try:
                base = int(raw)
            except ValueError:
                from manasolver.models.errors import Unsupported
                raise Unsupported(f"{self.card.name} ({self.id}) has {what} {raw!r}, which the engine cannot "
                                  f"evaluate", f"battlefield.{self.id}") from None
        return base + self.counter("+1/+1") - self.counter("-1/-1")

    @property
    def types(self) -> tuple[str, ...]:
        """Its card types now: an impending permanent with a time counter is not a
        creature (CR 702.176a), so it loses the creature type."""
        types = self.card.type_line.types
        if self.cast_for == "impending" and self.counter("time") > 0:
            types = tuple(t for t in types if t != "creature")
        return types

    @property
    def is_creature(self) -> bool:
        return "creature" in (self.card.type_line.types if self.cast_for is None else self.types)

    @property
    def is_land(self) -> bool:
        return "land" in self.card.type_line.types  # (impending takes away the creature type alone)

    @property
    def is_artifact(self) -> bool:
        return "artifact" in self.card.type_line.types  # (impending takes away the creature type alone)

    @property
    def has_haste(self) -> bool:
        return self.haste or "haste" in self.card.keywords

    @property
    def is_snow(self) -> bool:
        return "snow" in self.card.type_line.supertypes

    @property
    def summoning_sick(self) -> bool:
        """True when its ``{T}``/``{Q}`` abilities can't be activated (CR 302.6)."""
        return self.sick and self.is_creature and not self.has_haste


#: What a permanent is in play and its state: every field but its id and its card, as one tuple (a key
#: of what is remembered of a permanent across boards; a field added to ``Permanent`` is in it by
#: construction).  ``imprinted`` holds cards: a key is made only when it is ``None``.
permanent_state = itemgetter(slice(2, None))


#: A player's empty pool (the default of :attr:`Player.pool`).
_NO_MANA = ManaCost()


class Player(NamedTuple):
    """A player: life, energy counters, floating mana, hand and graveyard.

    A named tuple, not a dataclass, as :class:`Permanent` is: every board loaded makes its players
    anew (:func:`~manasolver.models.board.load.load_state`), and a tuple is made in a fraction of the
    time a frozen dataclass's field-by-field ``__init__`` takes.  Change one with ``_replace``.

    ``commander``: the player's commander(s) (CR 903.3; two with partner), for
    "your commander's color identity" (903.4); empty when not given.
    ``lands_played_this_turn``, ``spells_cast_this_turn``: the game's history this turn (on the board,
    default 0); ``life_gained_this_turn``: None when not given (an answer that depends on it
    says so, never assumes).  ``cards_drawn_this_turn``: default 0.  ``designations``: which of
    :data:`DESIGNATIONS` the player has, None when not given.  ``library``: its size and known top
    cards, None when not given."""

    name: str
    life: int = 20
    starting_life: int = 20
    energy: int = 0
    pool: ManaCost = _NO_MANA
    hand: tuple[Card, ...] = ()
    graveyard: tuple[Card, ...] = ()
    commander: tuple[Card, ...] = ()
    lands_played_this_turn: int = 0
    spells_cast_this_turn: int = 0
    life_gained_this_turn: int | None = None
    cards_drawn_this_turn: int = 0
    designations: frozenset[str] | None = None
    library: Library | None = None


class Library(NamedTuple):
    """A player's library as far as the board knows it: ``size`` cards, of which the first
    ``len(top)`` from the top are known, in order (``top[0]`` is the top card).  A named tuple, as
    :class:`Player` is."""

    size: int
    top: tuple[Card, ...] = ()

    def known(self, n: int) -> bool:
        """Are the top ``n`` cards known (or is the library too small to hold ``n``)?"""
        return len(self.top) >= min(n, self.size)


class Turn(NamedTuple):
    """Whose turn it is, the step, and whether the stack is empty.  A named tuple, as
    :class:`Player` is: every board loaded makes its turn."""

    active: str
    step: str = "main1"
    stack_empty: bool = True


class BoardView:
    """What the engine reads of one whole board, kept with its :class:`GameState` (``state.view``).

    A state is frozen, so what follows from it alone is computed once, when first asked, by the
    module that owns its reading, and stored here (``None`` until then); it goes when the state
    goes.  A board kept between queries (the board cache, a session's handle) keeps its view and
    so everything computed on it; a fresh board computes what it is asked and nothing else.

    Fields, each filled by one owner: ``active`` the structured effects in force, ``sparing`` the
    effects sparing abilities their damage, ``tap_hurt`` the damage of triggers on becoming tapped
    (``models.rules.board_effects``); ``spend_effects`` the rules of spending mana as another
    color (``models.rules.counts``); ``color_settings`` (``models.rules.colors``); ``typed`` each
    permanent's types and the subtypes a count reads (``models.rules.amounts``); ``type_changes``
    (``models.rules.land_types``); ``abilities`` each permanent's mana abilities after the board's
    effects, by id, beside the permanent, and ``reached`` the ids of the permanents those effects may
    reach, in a 1-tuple (``models.rules.board_effects``); ``grants``, ``hasty``,
    ``abilities_of`` and ``held`` (``models.rules.granted``);
    ``supplies`` the grouped supply by (player, resources, reserved) (``solver.supply.build``);
    ``doublers`` by player (``solver.pools.doublers``); ``checks`` the refusals of what the engine
    does not model, by check (``solver.supply.unmodelled.once``); ``marked`` the permanents each
    board-wide reader reads, by mark, read at the positions ``marked_at``: those of the permanents whose
    card has marks or is not read for them yet, which the board's loader finds as it makes each permanent
    (``models.board.load``; ``None`` for a state made otherwise, whose battlefield ``models.rules.marks``
    looks over); ``by_id`` the permanents by id
    (:meth:`GameState.permanent`, the first of a repeated id).

    Thread-safe: a field is written once with a whole immutable value by a single store (two
    threads that ask at once both compute it and one equal value stays); the dictionaries
    (``abilities``, ``held``, ``supplies``, ``doublers``, ``checks``) are filled with whole values by single stores.
    """

    __slots__ = ("abilities", "abilities_of", "active", "by_id", "checks", "color_settings", "doublers", "grants",
                 "hasty", "held", "marked", "marked_at", "reached", "sparing", "spend_effects", "supplies",
                 "tap_hurt", "type_changes", "typed")

    def __init__(self) -> None:
        self.active: Any = None
        self.sparing: Any = None
        self.tap_hurt: Any = None
        self.spend_effects: Any = None
        self.color_settings: Any = None
        self.typed: Any = None
        self.reached: Any = None
        self.type_changes: Any = None
        self.grants: Any = None
        self.hasty: Any = None
        self.abilities_of: Any = None
        self.marked: Any = None
        self.marked_at: tuple[int, ...] | None = None
        self.held: dict[str, Any] = {}
        self.abilities: dict[str, Any] = {}
        self.supplies: dict[Any, Any] = {}
        self.doublers: dict[str, Any] = {}
        self.checks: dict[Any, Any] = {}
        self.by_id: dict[str, Permanent] | None = None


@dataclass(frozen=True, slots=True, init=False)
class GameState:
    """A board: the players (the first is the one asked about), the turn, the battlefield."""

    players: tuple[Player, ...]
    turn: Turn
    battlefield: tuple[Permanent, ...] = ()
    #: What the rules read of this whole board, computed once per state (:class:`BoardView`): made
    #: with the state (every state the engine is asked about reads it, a few dozen times a query:
    #: a field, not a property), its own fields filled when first asked; not part of the value.
    view: BoardView = field(init=False, repr=False, compare=False)

    def __init__(self, players: tuple[Player, ...], turn: Turn, battlefield: tuple[Permanent, ...] = ()) -> None:
        # each field set through its slot (models.slots): every board loaded makes its state
        set_players, set_turn, set_battlefield, set_view = _STATE_SLOTS
        set_players(self, players)
        set_turn(self, turn)
        set_battlefield(self, battlefield)
        set_view(self, BoardView())

    def __getstate__(self) -> tuple[object, ...]:
        """The value without its view (a copy computes its own)."""
        return (self.players, self.turn, self.battlefield)

    def __setstate__(self, value: tuple[object, ...]) -> None:
        for name, item in zip(("players", "turn", "battlefield"), value):
            object.__setattr__(self, name, item)
        object.__setattr__(self, "view", BoardView())

    def player(self, name: str | None = None) -> Player:
        """The named player, or the first one."""
        if name is None:
            return self.players[0]
        for p in self.players:
            if p.name == name:
                return p
        raise KeyError(name)

    def controlled_by(self, name: str) -> tuple[Permanent, ...]:
        """The permanents ``name`` controls, in board order."""
        return tuple(p for p in self.battlefield if p.controller == name)

    def opponents_of(self, name: str) -> tuple[str, ...]:
        """Every other player's name."""
        return tuple(p.name for p in self.players if p.name != name)

    def permanent(self, pid: str) -> Permanent:
        """The permanent with id ``pid`` (by the index on the board's view, built once per board,
        so that looking up each permanent a payment uses costs what it uses, not the board)."""
        view = self.view
        by_id = view.by_id
        if by_id is None:
            by_id = {}
            for p in self.battlefield:
                by_id.setdefault(p.id, p)
            view.by_id = by_id
        return by_id[pid]


#: The setters of :class:`GameState`'s slots, in field order (the view's last).
_STATE_SLOTS = slot_setters(GameState)


def fits_cost(perm: Permanent, what: str) -> bool:
    """Does ``perm`` fit what a sacrifice or tapping cost names (lower case): a card type,
    subtype or supertype, ``"permanent"``, ``"token"``, ``"nontoken <kind>"`` (Meria's nontoken
    artifact), ``"<supertype> <kind>"`` (Relic of Legends' legendary creature), ``"<subtype>
    token"`` (a token with it: Diamond Kaleidoscope's Prism), ``"token named <name>"`` (Jungle
    Patrol's Wood), ``"<color> <kind>"`` (Grand Architect's blue creature), ``"<a> or <b> <kind>"``
    (Soldevi Adnate's black or artifact creature), ``"another <kind>"`` (any but the source, which
    the caller excludes: Master of Dark Rites), ``"<kind> with mana value N"`` (the permanent a
    cost sacrifices for mana by its mana value, CR 202.3: Priest of Yawgmoth), ``"<kind> with power
    N"`` (by its power, N at least 0: Furgul, Quag Nurturer)?  A card of the hand or
    graveyard (:data:`~manasolver.models.abilities.ZONE_CARDS`) is no permanent.  The supply groups
    fodder by it and ``validate`` checks a payment's by it."""
    if what.startswith("another "):  # not the source itself, which the caller excludes (it knows the source)
        return fits_cost(perm, what[len("another "):])
    kind, sep, number = what.rpartition(" with mana value ")
    if sep and number.isdigit():
        return fits_cost(perm, kind) and perm.card.mana_value == int(number)
    kind, sep, number = what.rpartition(" with power ")
    if sep and number.isdigit():
        # Furgul's sacrificed creature: its power as it last existed, at least 0 mana (CR 107.1b)
        return fits_cost(perm, kind) and max(0, perm.stat("power")) == int(number)
    if " or " in what:
        first_kind, _, rest = what.partition(" or ")
        second, _, noun = rest.partition(" ")
        if noun:
            return fits_cost(perm, f"{first_kind} {noun}") or fits_cost(perm, f"{second} {noun}")
    if what in CARD_TYPES:
        return what in perm.types
    if what in ZONE_CARDS:
        return False
    if what == "permanent":
        return True  # every object on the battlefield is a permanent (CR 110.1)
    if what == "token":
        return perm.token
    if what.startswith("nontoken "):
        return not perm.token and fits_cost(perm, what[len("nontoken "):])
    if what.startswith("token named "):
        return perm.token and perm.card.name.lower() == what[len("token named "):]
    if what.endswith(" token"):
        return perm.token and perm.card.type_line.has(what[:-len(" token")])
    first, _, rest = what.partition(" ")
    if first in _COLOR_BITS and rest:
        return bool(perm.card.colors & _COLOR_BITS[first]) and fits_cost(perm, rest)
    if first in SUPERTYPES and rest:
        return first in perm.card.type_line.supertypes and fits_cost(perm, rest)  # "legendary creature"
    return perm.card.type_line.has(what)


_COLOR_BITS = {"white": 1, "blue": 2, "black": 4, "red": 8, "green": 16}
