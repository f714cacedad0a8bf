"""Board JSON to a frozen :class:`~manasolver.models.state.GameState`.

Three tiers of checking, as python-chess does:

1. :func:`load_state` refuses malformed input: every error is a
   :class:`~manasolver.models.errors.ManasolverError` whose ``where`` is the
   path of the bad field (``battlefield[3].card``, ``players[0].life``,
   ``players[0].hand[2]``, ``turn.step``).  Sizes are bounded so that hostile
   input is refused quickly (:data:`LIMITS`; the schema and the checks of single values are
   :mod:`manasolver.models.board.schema`, cards :mod:`manasolver.models.board.cards`).
2. :func:`status` (in :mod:`manasolver.models.board.status`, re-exported
   here) names every inconsistency of a well-formed board that the rules would
   not allow or that is probably a mistake (an Aura attached to nothing, a
   Treasure that is not a token, tapped permanents in the untap step).
   Nothing there stops a query.
3. Payment legality is the solver's business (``solver/validate/__init__.py``).

:func:`manasolver.models.board.dump.state_to_json` writes a state back, so
``load_state(state_to_json(s)) == s``.

>>> from manasolver.models.board.load import load_state
>>> s = load_state({"players": [{"name": "you"}], "battlefield": [
...     {"id": "d", "name": "Test Dork", "type_line": "Creature — Elf", "mana_cost": "{G}",
...      "oracle_text": "{T}: Add {G}.", "sick": True}]})
>>> s.battlefield[0].summoning_sick, s.turn.active, s.turn.step
(True, 'you', 'main1')
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from operator import itemgetter
from typing import TYPE_CHECKING, overload

from manasolver.models.board.cards import CardResolver
from manasolver.models.board.history import (
    check_designations,
    load_permanent_history,
    load_player_history,
)
from manasolver.models.board.schema import (
    CARD_FIELDS,
    CAST_FOR,
    CHARACTERISTIC_SET,
    CHOSEN_FIELDS,
    HISTORY_FIELDS,
    LIMITS,
    PERMANENT_FIELDS,
    PLAYER_FIELDS,
    STATE_FIELDS,
    TURN_FIELDS,
    as_bool,
    as_int,
    as_list,
    as_object,
    as_str,
    check_fields,
    clip,
    type_name,
)
from manasolver.models.board.status import PREDEFINED_TOKENS, is_token_card, status
from manasolver.models.card import Card
from manasolver.models.cost import ManaCost
from manasolver.models.errors import BadCost, BadState, ManasolverError, UnknownCard, Unsupported
from manasolver.models.state import NO_MARKS, STEPS, GameState, Library, Permanent, Player, Turn

if TYPE_CHECKING:  # carddb is imported lazily: only boards that name cards need it
    from manasolver.models.carddb import CardDB

__all__ = [
    "CARD_FIELDS",
    "CAST_FOR",
    "LIMITS",
    "PERMANENT_FIELDS",
    "PLAYER_FIELDS",
    "PREDEFINED_TOKENS",
    "STATE_FIELDS",
    "TURN_FIELDS",
    "is_token_card",
    "load_permanent",
    "load_players",
    "load_state",
    "status",
    "unknown_card_names",
]

_COLOR_NAMES = {"w": "W", "u": "U", "b": "B", "r": "R", "g": "G", "white": "W", "blue": "U", "black": "B",
                "red": "R", "green": "G"}


def load_state(obj: object, db: CardDB | None = None) -> GameState:
    """Build a :class:`GameState` from board JSON, already decoded.

    ``db`` resolves card names (default: the bundled database, loaded only when
    a card is named).  Raises a :class:`ManasolverError` subclass naming the
    path of the first bad field: :class:`UnknownField`, :class:`BadState`,
    :class:`BadCost`, :class:`UnknownCard` (naming every unknown card of the board at
    once, :func:`unknown_card_names`) or :class:`Unsupported`.
    """
    try:
        return _load_state(obj, db)
    except UnknownCard:
        from manasolver.models.carddb import default_db, unknown_cards_error

        resolver = db if db is not None else default_db()
        missing = unknown_card_names(obj, resolver)
        if not missing:
            raise
        raise unknown_cards_error(missing, resolver) from None


def unknown_card_names(obj: object, db: CardDB) -> list[tuple[str, str]]:
    """``(name, where)`` of every card name of a board (JSON) that ``db`` doesn't know, in board
    order: each permanent's ``card`` and ``imprinted`` cards, each player's hand, graveyard,
    command zone and library's known top cards.  Entries that are not names are skipped (their
    errors are the loader's)."""
    out: list[tuple[str, str]] = []

    def named(entry: object, where: str) -> None:
        if isinstance(entry, dict):
            entry, where = entry.get("card"), f"{where}.card"
        if isinstance(entry, str) and entry.strip() and db.record(entry) is None:
            out.append((entry, where))

    def zone(items: object, where: str) -> None:
        if isinstance(items, list):
            for k, item in enumerate(items):
                named(item, f"{where}[{k}]")
        elif items is not None:
            named(items, where)

    if not isinstance(obj, dict):
        return out
    players = obj.get("players")
    for j, player in enumerate(players if isinstance(players, list) else []):
        if isinstance(player, dict):
            for zone_name in ("hand", "graveyard", "commander"):
                zone(player.get(zone_name), f"players[{j}].{zone_name}")
            library = player.get("library")
            if isinstance(library, dict):
                zone(library.get("top"), f"players[{j}].library.top")
    permanents = obj.get("battlefield")
    for i, perm in enumerate(permanents if isinstance(permanents, list) else []):
        if isinstance(perm, dict):
            named(perm.get("card"), f"battlefield[{i}].card")
            zone(perm.get("imprinted"), f"battlefield[{i}].imprinted")
    return out


def _load_state(obj: object, db: CardDB | None) -> GameState:
    """:func:`load_state`, which stops at the first bad field."""
    board = obj if type(obj) is dict and obj.keys() <= _STATE_SET else _board(obj)
    cards = CardResolver(db)

    players, names = _players(board, cards)

    turn = _turn(board.get("turn"), names) if "turn" in board else _new(Turn, (names[0], "main1", True))

    permanents: list[Permanent] = []
    # the positions of the permanents whose card has marks or is not read for them yet: what the board's
    # marked permanents are read from (models.rules.marks), found here where each permanent is made
    marked_at: list[int] = []
    if "battlefield" in board:
        raw_field = board["battlefield"]
        if type(raw_field) is not list or len(raw_field) > _PERMANENTS_LIMIT:
            raw_field = as_list(raw_field, "battlefield", "battlefield", _PERMANENTS_LIMIT)
        name_limit = _NAME_LIMIT
        attached = False
        chosen = _DIRECT_FIELDS.issuperset
        new = _new
        known = cards.known
        first = names[0]
        unset = _UNSET
        append = permanents.append
        no_marks = NO_MARKS
        pids: list[str] = []
        add_id = pids.append
        # A repeated id is refused at the permanent that repeats it, after that permanent's own fields
        # and before any later permanent's: the ids are told apart once the permanents are made, and
        # those made before a refused one are looked over before its error is raised.
        try:
            for i, raw in enumerate(raw_field):
                if type(raw) is dict:
                    # A card by its name, its controller, tapped and sick, each of its own type: made
                    # here, every other field as the loader leaves it (no attachment) but those of
                    # _DIRECT_FIELDS, read by _chosen_permanent.
                    pid = raw.get("id")
                    name = raw.get("card")
                    controller = raw.get("controller", unset)
                    given = controller is not unset  # (a controller given, whatever its value)
                    if not given:
                        controller = first
                    # Its fields are those five alone when it has as many fields as the five it is known to
                    # have: the id and the card (strings, checked below), the controller when given, and
                    # tapped and sick each when not read as its default's own object.  That count is never
                    # more than it has, so tapped or sick given as its default, or any field beside them,
                    # takes the check of every field (_DIRECT_FIELDS), which a frozenset's issuperset makes
                    # at about twice this count's cost.  The count holds only with the id and the card
                    # checked as strings in the test below, and it spells out _PLAIN_FIELDS: a change of
                    # either is a change of these lines.  A permanent of three fields, one of them a
                    # controller, the other two the id and the card (most of a board: untapped, not sick),
                    # has those alone: it is not asked for tapped and sick, nor counted.
                    if given and len(raw) == 3:
                        tapped = sick = False
                        simple = plain = True
                    else:
                        more = len(raw) - 2 - given
                        tapped = raw.get("tapped", False)
                        sick = raw.get("sick", False)
                        simple = more == (tapped is not False) + (sick is not False)
                        plain = type(tapped) is bool and type(sick) is bool and (simple or chosen(raw))
                    if (plain and type(name) is str and type(pid) is str and pid and len(pid) <= name_limit
                            and not pid.isspace() and type(controller) is str and controller in names):
                        entry = known.get(name)  # (the card, is it a token card)
                        if entry is None:  # a name not read yet: read as _permanent reads it
                            cards.named(name, f"battlefield[{i}].card")
                            known = cards.known
                            entry = known[name]
                        card, token = entry
                        if card.facts.marks is not no_marks:
                            marked_at.append(i)
                        # every field after sick Permanent's default (no haste, counters, attachment,
                        # cast_for, x, choices, imprinted cards nor history) but token, its card's; written
                        # out in field order, which tests/models/test_board.py's
                        # test_a_permanent_with_choices_and_counters_is_the_permanent_read_field_by_field holds
                        # to the field-by-field reading
                        fields: tuple[object, ...] = (pid, card, controller, tapped, sick, False, (), None, None, None,
                                                      token, None, None, None, None, None, None, ())
                        if not simple:
                            fields = _chosen_permanent(raw, i, fields)
                        append(new(Permanent, fields))
                        add_id(pid)
                        continue
                perm = _permanent(raw, f"battlefield[{i}]", names, cards)
                append(perm)
                add_id(perm.id)
                if perm.card.facts.marks is not no_marks:
                    marked_at.append(i)
                if perm.attached_to is not None:
                    attached = True
        except ManasolverError:
            _refuse_repeated_id(permanents)
            raise
        ids = set(pids)
        if len(ids) < len(permanents):
            _refuse_repeated_id(permanents)
        if attached:
            for i, perm in enumerate(permanents):
                if perm.attached_to is not None and perm.attached_to not in ids:
                    raise BadState(f"attached_to {clip(perm.attached_to)!r} names no permanent on the "
                                   "battlefield", f"battlefield[{i}].attached_to")
    state = GameState(players, turn, tuple(permanents))
    state.view.marked_at = tuple(marked_at)
    return state


def _board(obj: object) -> Mapping[str, object]:
    """The board object ``obj``, checked as :func:`_load_state` checks it when it is not a dictionary
    of the board's fields alone."""
    board = as_object(obj, "", "a board")
    check_fields(board, STATE_FIELDS, "", "a board")
    return board


#: The fields of a board object.
_STATE_SET = frozenset(STATE_FIELDS)


def _refuse_repeated_id(permanents: list[Permanent]) -> None:
    """Refuse the first of ``permanents`` (``battlefield[i]`` at position ``i``) that reuses the id of
    one before it, if any."""
    ids: dict[str, int] = {}
    for i, perm in enumerate(permanents):
        first = ids.setdefault(perm.id, i)
        if first != i:
            raise BadState(f"duplicate id {clip(perm.id)!r} (first used by battlefield[{first}])",
                           f"battlefield[{i}].id")


def load_players(board: Mapping[str, object], cards: CardResolver) -> tuple[Player, ...]:
    """The players of a board object (its ``players`` list), as :func:`load_state` reads them:
    each checked, names unique."""
    return _players(board, cards)[0]


def _players(board: Mapping[str, object], cards: CardResolver) -> tuple[tuple[Player, ...], tuple[str, ...]]:
    """:func:`load_players`'s players and their names, in order."""
    if "players" not in board:
        raise BadState("a board needs \"players\": a list of at least one player", "players")
    raw_players = board["players"]
    if type(raw_players) is not list or len(raw_players) > _PLAYERS_LIMIT:
        raw_players = as_list(raw_players, "players", "players", _PLAYERS_LIMIT)
    if not raw_players:
        raise BadState("players must name at least one player (the one the query is about)",
                       "players")
    players: list[Player] = []
    seen_players: dict[str, int] = {}
    designated = False
    for i, raw in enumerate(raw_players):
        player = _plain_player(raw, i, cards)
        if player is None:
            player = _player(raw, f"players[{i}]", cards)
            designated = True
        name = player.name
        if name in seen_players:
            raise BadState(f"duplicate player name {clip(name)!r} "
                           f"(also players[{seen_players[name]}])", f"players[{i}].name")
        seen_players[name] = i
        players.append(player)
    if designated:  # (a player read directly has no designations)
        check_designations(players)
    return tuple(players), tuple(seen_players)


def load_permanent(raw: object, where: str, names: tuple[str, ...], cards: CardResolver) -> Permanent:
    """One permanent object of a board whose players are ``names``, as :func:`load_state` builds
    it (a new :class:`Permanent` every call)."""
    return _permanent(raw, where, names, cards)


#: The fields of a permanent object that :func:`_load_state` reads itself when their values are plain.
_PLAIN_FIELDS = frozenset({"id", "card", "controller", "tapped", "sick"})
#: Those and the fields :func:`_chosen_permanent` reads (into a permanent made as a plain one).
_DIRECT_FIELDS = _PLAIN_FIELDS | {"haste", "token", "counters", "chosen"}
#: A permanent or a player made from its fields as one tuple (``_make`` without its call and length
#: check: the tuple is made here with every field of the type, in order).
_new = tuple.__new__
#: What a permanent object without a ``controller`` field reads for it (told from any value given).
_UNSET = object()


def _plain_player(raw: object, index: int, cards: CardResolver) -> Player | None:
    """The player of object ``players[index]`` whose fields are all of the common kinds, made here
    without a path written: a name, whole numbers in their bounds (each left out or, where a null
    means left out, null), zones (hand, graveyard, command zone) of lists within the zone limits and at most two
    commanders, and a library given by its size alone.  ``None`` for any other object, which
    :func:`_player` reads field by field (and refuses naming the path of a bad field).  Zones whose
    entries are not all names read before are read as :func:`_zone` reads them, once every other
    field is known to be of its common kind, so an error of theirs (an unknown card, an entry that
    is no card) is the one the field-by-field reading would raise first; it raises no other.  The
    zones' cards count toward the board's limit only when the player is made."""
    if type(raw) is not dict or not _PLAIN_PLAYER_FIELDS.issuperset(raw):
        return None
    get = raw.get
    name = get("name")
    if type(name) is not str or not 0 < len(name) <= _NAME_LIMIT or name.isspace():
        return None
    big = _LIFE_LIMIT
    life = get("life", 20)
    start = get("starting_life", 20)
    energy = get("energy", 0)
    lands = get("lands_played_this_turn")
    spells = get("spells_cast_this_turn")
    gained = get("life_gained_this_turn")
    drawn = get("cards_drawn_this_turn")
    if (type(life) is not int or not 0 <= life <= big or type(start) is not int or not 0 <= start <= big
            or type(energy) is not int or not 0 <= energy <= big
            or (lands is not None and (type(lands) is not int or not 0 <= lands <= big))
            or (spells is not None and (type(spells) is not int or not 0 <= spells <= big))
            or (gained is not None and (type(gained) is not int or not 0 <= gained <= big))
            or (drawn is not None and (type(drawn) is not int or not 0 <= drawn <= _LIBRARY_LIMIT))):
        return None
    library = get("library")
    if library is not None:  # given by its size alone
        size = library.get("size") if type(library) is dict and len(library) == 1 else None
        if type(size) is not int or not 0 <= size <= _LIBRARY_LIMIT:
            return None
        library = _new(Library, (size, _NO_CARDS))
    none = _NO_CARDS
    hand = get("hand", none)
    grave = get("graveyard", none)
    commander = get("commander", none)
    limit = _ZONE_LIMIT
    if (type(hand) is not list and hand is not none) or len(hand) > limit \
            or (type(grave) is not list and grave is not none) or len(grave) > limit \
            or (type(commander) is not list and commander is not none) or len(commander) > 2:
        return None
    entries = cards.entries + len(hand) + len(grave) + len(commander)
    if entries > _ALL_ZONE_LIMIT:
        return None
    cards_of = cards.known.__getitem__
    try:  # every entry a name read before (the common case), each the card it named then
        in_hand = tuple(map(_CARD_OF, map(cards_of, hand))) if hand else none
        in_graveyard = tuple(map(_CARD_OF, map(cards_of, grave))) if grave else none
        in_command = tuple(map(_CARD_OF, map(cards_of, commander))) if commander else none
    except (KeyError, TypeError):  # a name not read yet, or not a name
        where = f"players[{index}]"
        in_hand = _zone_cards(hand, where, "hand", cards, "hand") if hand else none
        in_graveyard = _zone_cards(grave, where, "graveyard", cards, "graveyard") if grave else none
        in_command = _zone_cards(commander, where, "commander", cards, "commander") if commander else none
    cards.entries = entries
    return _new(Player, (name, life, start, energy, _NO_POOL, in_hand, in_graveyard, in_command, lands or 0,
                         spells or 0, gained, drawn or 0, None, library))


#: A zone that a player object leaves out (told apart from any value by identity).
_NO_CARDS: tuple[Card, ...] = ()
#: The fields of a player object that :func:`_plain_player` reads.
_PLAIN_PLAYER_FIELDS = frozenset(PLAYER_FIELDS) - {"pool", "designations"}
_NAME_LIMIT = LIMITS["name"]
_PLAYERS_LIMIT = LIMITS["players"]
_PERMANENTS_LIMIT = LIMITS["permanents"]
_LIFE_LIMIT = LIMITS["life"]
_LIBRARY_LIMIT = LIMITS["library"]
_ZONE_LIMIT = LIMITS["zone_cards"]
_ALL_ZONE_LIMIT = LIMITS["all_zone_cards"]


def _player(raw: object, where: str, cards: CardResolver) -> Player:
    obj = as_object(raw, where, "a player")
    check_fields(obj, PLAYER_FIELDS, where, "a player")
    if "name" not in obj:
        raise BadState("a player needs a \"name\"", f"{where}.name")
    # (each value is read by its check, which writes its path, unless it is of the common kind)
    name = obj["name"]
    if type(name) is not str or not 0 < len(name) <= LIMITS["name"] or name[0].isspace():
        name = as_str(name, f"{where}.name", "a player name", LIMITS["name"])
    big = LIMITS["life"]
    life = obj.get("life", 20)
    if type(life) is not int or not 0 <= life <= big:
        life = _count(obj, "life", 20, where, "life", big)
    start = obj.get("starting_life", 20)
    if type(start) is not int or not 0 <= start <= big:
        start = _count(obj, "starting_life", 20, where, "starting_life", big)
    energy = obj.get("energy", 0)
    if type(energy) is not int or not 0 <= energy <= big:
        energy = _count(obj, "energy", 0, where, "energy", big)
    pool = _pool(obj["pool"], f"{where}.pool") if "pool" in obj else _NO_POOL
    hand = _zone(obj["hand"], where, "hand", cards, "hand") if "hand" in obj else ()
    grave = _zone(obj["graveyard"], where, "graveyard", cards, "graveyard") if "graveyard" in obj else ()
    commander: tuple[Card, ...] = ()
    if "commander" in obj:
        commander = _zone(obj["commander"], where, "commander", cards, "commander")
        if len(commander) > 2:
            raise BadState(f"commander names {len(commander)} cards; a player has at most two commanders "
                           "(CR 903.3, partner 702.124)", f"{where}.commander")
    lands_key, spells_key, gained_key = HISTORY_FIELDS
    lands, spells, gained = obj.get(lands_key), obj.get(spells_key), obj.get(gained_key)
    if lands is not None and (type(lands) is not int or not 0 <= lands <= big):
        lands = _count(obj, lands_key, None, where, lands_key, big)
    if spells is not None and (type(spells) is not int or not 0 <= spells <= big):
        spells = _count(obj, spells_key, None, where, spells_key, big)
    if gained is not None and (type(gained) is not int or not 0 <= gained <= big):
        gained = _count(obj, gained_key, None, where, gained_key, big)
    return _new(Player, (name, life, start, energy, pool, hand, grave, commander, lands or 0, spells or 0, gained,
                         *load_player_history(obj, where, _zone, cards)))


_NO_POOL = ManaCost()


@overload
def _count(obj: Mapping[str, object], key: str, default: int, where: str, what: str, hi: int) -> int: ...
@overload
def _count(obj: Mapping[str, object], key: str, default: None, where: str, what: str, hi: int) -> int | None: ...
def _count(obj: Mapping[str, object], key: str, default: int | None, where: str, what: str, hi: int) -> int | None:
    """The whole number ``obj`` gives under ``key``, from 0 to ``hi`` (:func:`as_int`), or
    ``default`` when the key is left out (``None`` as a default: a null value is left out too);
    the path of an error is written only for a bad value."""
    value = obj.get(key, default)
    if type(value) is int and 0 <= value <= hi:
        return value
    if value is default and (default is None or key not in obj):
        return default
    return as_int(value, f"{where}.{key}", what, 0, hi)


def _pool(raw: object, where: str) -> ManaCost:
    """Floating mana: only the six mana types, ``{W}{U}{B}{R}{G}{C}`` (CR 106.1)."""
    if not isinstance(raw, str):
        raise BadCost(f"pool must be a string of mana symbols such as \"{{R}}{{C}}\", not "
                      f"{type_name(raw)}", where)
    if len(raw) > LIMITS["pool"]:
        raise BadCost(f"pool is {len(raw)} characters long; at most {LIMITS['pool']} are accepted",
                      where)
    pool = ManaCost.parse(raw, where=where, allow_empty=True)
    for i, sym in enumerate(pool.symbols):
        single = (sym.colorless and not sym.colors) or (
            not sym.colorless and sym.colors and sym.colors & (sym.colors - 1) == 0)
        if not single or sym.generic or sym.phyrexian or sym.snow or sym.variable or sym.special:
            raise BadCost(f"{sym.text} is not mana: a pool holds only {{W}} {{U}} {{B}} {{R}} {{G}} "
                          "{C} (generic, hybrid, Phyrexian and snow are costs, not mana)",
                          f"{where}[{i}]")
    return pool


def _zone(raw: object, where: str, what: str, cards: CardResolver, field: str | None = None) -> tuple[Card, ...]:
    """The cards of a zone (names or objects of characteristics): ``where`` is its path, or
    with ``field`` the path of the object that holds it under that field (the path is written
    only for an error)."""
    limit = LIMITS["zone_cards"]
    items = (raw if type(raw) is list and len(raw) <= limit
             else as_list(raw, where if field is None else f"{where}.{field}", what, limit))
    cards.entries += len(items)
    if cards.entries > LIMITS["all_zone_cards"]:
        raise BadState(f"the players' hands and graveyards hold more than {LIMITS['all_zone_cards']} "
                       "cards in all", where if field is None else f"{where}.{field}")
    try:  # every entry a name read before (the common case), each the card it named then
        return tuple(map(_CARD_OF, map(cards.known.__getitem__, items)))
    except (KeyError, TypeError):  # a name not read yet, or not a name
        return _zone_cards(items, where, what, cards, field)


def _zone_cards(items: Iterable[object], where: str, what: str, cards: CardResolver,
                field: str | None) -> tuple[Card, ...]:
    """The cards of a zone's entries, names (read before or not) or objects of characteristics,
    as :func:`_zone` reads them once their number is checked: each error names the entry's path."""
    names = cards.known
    out: list[Card] = []
    for i, item in enumerate(items):
        if type(item) is str:
            known = names.get(item)
            if known is not None:  # a name read before
                out.append(known[0])
                continue
        path = f"{where}[{i}]" if field is None else f"{where}.{field}[{i}]"
        if isinstance(item, str):
            out.append(cards.named(item, path))
        elif isinstance(item, Mapping):
            check_fields(item, CARD_FIELDS, path, "a card")
            out.append(cards.entry(item, path))
        else:
            raise BadState(f"a card in the {what} is a name or an object of characteristics, not "
                           f"{type_name(item)}", path)
    return tuple(out)


#: The card of a resolved name's entry (:attr:`~manasolver.models.board.cards.CardResolver.known`).
_CARD_OF = itemgetter(0)


def _turn(raw: object, names: tuple[str, ...]) -> Turn:
    obj = as_object(raw, "turn", "turn")
    check_fields(obj, TURN_FIELDS, "turn", "turn")
    active = names[0]
    if "active" in obj:
        active = as_str(obj["active"], "turn.active", "turn.active", LIMITS["name"])
        if active not in names:
            raise BadState(f"turn.active {clip(active)!r} names no player{_suggest(active, names)}",
                           "turn.active")
    step = "main1"
    if "step" in obj:
        step = as_str(obj["step"], "turn.step", "turn.step", 64)
        if step not in STEPS:
            norm = step.strip().lower().replace(" ", "_").replace("-", "_")
            if norm not in STEPS:
                raise BadState(f"unknown step {clip(step)!r}{_suggest(norm, STEPS)}; the steps are "
                               f"{', '.join(STEPS)}", "turn.step")
            step = norm
    stack_empty = (as_bool(obj["stack_empty"], "turn.stack_empty", "turn.stack_empty")
                   if "stack_empty" in obj else True)
    return Turn(active=active, step=step, stack_empty=stack_empty)


def _suggest(name: str, choices: Iterable[str]) -> str:
    import difflib

    close = difflib.get_close_matches(name, list(choices), n=1, cutoff=0.5)
    return f"; did you mean {close[0]!r}?" if close else ""


def _permanent(raw: object, where: str, names: tuple[str, ...], cards: CardResolver) -> Permanent:
    obj = as_object(raw, where, "a permanent")
    check_fields(obj, PERMANENT_FIELDS, where, "a permanent")
    if "id" not in obj:
        raise BadState("a permanent needs an \"id\" (unique on the battlefield)", f"{where}.id")
    pid = obj["id"]
    if type(pid) is int:
        pid = str(pid)    # numeric ids are common in client code; they are compared as text
    pid = as_str(pid, f"{where}.id", "id", LIMITS["name"])
    name = obj.get("card")
    if type(name) is str and not obj.keys() & CHARACTERISTIC_SET:
        card = cards.named(name, f"{where}.card")
    else:
        card = cards.entry(obj, where)
    controller = names[0]
    if "controller" in obj:
        controller = obj["controller"]
        if controller not in names or type(controller) is not str:
            controller = as_str(controller, f"{where}.controller", "controller", LIMITS["name"])
            raise BadState(f"controller {clip(controller)!r} names no player"
                           f"{_suggest(controller, names)}", f"{where}.controller")
    tapped = obj.get("tapped", False)
    sick = obj.get("sick", False)
    haste = obj.get("haste", False)
    if type(tapped) is not bool or type(sick) is not bool or type(haste) is not bool:
        for key in ("tapped", "sick", "haste"):
            if key in obj:
                as_bool(obj[key], f"{where}.{key}", key)
    token = as_bool(obj["token"], f"{where}.token", "token") if "token" in obj else is_token_card(card)
    counters = _counters(obj["counters"], f"{where}.counters") if "counters" in obj else ()
    attached = None
    target = obj.get("attached_to")
    if target is not None:
        if type(target) is int:
            target = str(target)
        attached = as_str(target, f"{where}.attached_to", "attached_to", LIMITS["name"])
    cast_for = None
    if obj.get("cast_for") is not None:
        cast_for = as_str(obj["cast_for"], f"{where}.cast_for", "cast_for", 64).strip().lower()
        if cast_for not in CAST_FOR:
            raise Unsupported(f"cast_for {clip(cast_for)!r} is not supported; the accepted value is "
                              f"{', '.join(repr(c) for c in CAST_FOR)}", f"{where}.cast_for")
    x = None
    if obj.get("x") is not None:
        x = as_int(obj["x"], f"{where}.x", "x", 0, LIMITS["x"])
    color, ctype, cname = (_chosen(obj["chosen"], f"{where}.chosen") if obj.get("chosen") is not None
                           else (None, None, None))
    imprinted = None
    if obj.get("imprinted") is not None:
        imprinted = _zone(obj["imprinted"], f"{where}.imprinted", "imprinted", cards)
        if len(imprinted) > LIMITS["imprinted"]:
            raise BadState(f"imprinted names {len(imprinted)} cards; at most {LIMITS['imprinted']} are accepted",
                           f"{where}.imprinted")
    return _new(Permanent, (pid, card, controller, tapped, sick, haste, counters, attached, cast_for, x,
                            token, color, ctype, cname, imprinted, *load_permanent_history(obj, where)))


def _chosen_permanent(obj: dict[str, object], index: int, fields: tuple[object, ...]) -> tuple[object, ...]:
    """The fields of the permanent of ``obj`` (``battlefield[index]``), whose fields but ``haste``,
    ``token``, ``counters`` and ``chosen`` are ``fields`` (as :func:`_load_state` makes a plain
    permanent): those four read as :func:`_permanent` reads them, in its order, with its errors (the
    path written only for counters, chosen, or a value not true or false)."""
    out = list(fields)
    haste = obj.get("haste", False)
    if type(haste) is not bool:
        as_bool(haste, f"battlefield[{index}].haste", "haste")
    out[_HASTE_AT] = haste
    if "token" in obj:
        token = obj["token"]
        out[_TOKEN_AT] = token if type(token) is bool else as_bool(token, f"battlefield[{index}].token", "token")
    if "counters" in obj:
        out[_AT["counters"]] = _counters(obj["counters"], f"battlefield[{index}].counters")
    if obj.get("chosen") is not None:
        at = _AT["chosen_color"]
        out[at:at + 3] = _chosen(obj["chosen"], f"battlefield[{index}].chosen")
    return tuple(out)


#: The position of each field of :class:`Permanent`.
_AT = {f: i for i, f in enumerate(Permanent._fields)}
_HASTE_AT, _TOKEN_AT = _AT["haste"], _AT["token"]


def _chosen(raw: object, where: str) -> tuple[str | None, str | None, str | None]:
    """``{"color": "G", "type": "Elf", "name": "Sol Ring"}``: the color (a letter or a color's
    name), the creature type and the card name chosen as the permanent entered (CR 614.12)."""
    obj = as_object(raw, where, "chosen")
    check_fields(obj, CHOSEN_FIELDS, where, "chosen")
    color = ctype = cname = None
    if obj.get("name") is not None:
        cname = " ".join(as_str(obj["name"], f"{where}.name", "a card name", LIMITS["name"]).split())
    if obj.get("color") is not None:
        text = as_str(obj["color"], f"{where}.color", "a color", 16)
        color = _COLOR_NAMES.get(text.strip().lower())
        if color is None:
            raise BadState(f"chosen color {clip(text)!r} is not a color: one of W, U, B, R, G "
                           "(colorless is not a color, CR 105.1)", f"{where}.color")
    if obj.get("type") is not None:
        text = as_str(obj["type"], f"{where}.type", "a creature type", LIMITS["name"]).strip()
        if not re.fullmatch(r"[A-Za-z][A-Za-z'\-]*(?: [A-Za-z][A-Za-z'\-]*)?", text):
            raise BadState(f"chosen type {clip(text)!r} is not a creature type (such as \"Elf\")",
                           f"{where}.type")
        ctype = text.lower()
    return color, ctype, cname


def _counters(raw: object, where: str) -> tuple[tuple[str, int], ...]:
    obj = as_object(raw, where, "counters")
    if len(obj) > LIMITS["counter_kinds"]:
        raise BadState(f"counters has {len(obj)} kinds; at most {LIMITS['counter_kinds']} are "
                       "accepted", where)
    out: dict[str, int] = {}
    for kind, n in obj.items():
        path = f"{where}.{kind}" if isinstance(kind, str) and kind else where
        kind = as_str(kind, path, "a counter kind", LIMITS["name"])
        norm = " ".join(kind.lower().split())
        if norm in out:
            raise BadState(f"counter kind {clip(kind)!r} is given twice", path)
        value = as_int(n, path, f"the number of {clip(kind)} counters", 0, LIMITS["counter"])
        out[norm] = value
    return tuple(sorted((k, v) for k, v in out.items() if v))
