"""Board JSON (SPEC §4) to a frozen :class:`~manasolver.models.state.GameState`, and back.

Three tiers of checking, as python-chess does:

1. :func:`load_state` refuses malformed input: every error is a
   :class:`~manasolver.models.errors.ManasolverError` whose ``where`` is the
   path of the bad field (``battlefield[3].card``, ``players[0].life``,
   ``players[0].hand[2]``, ``turn.step``).  Sizes are bounded so that hostile
   input is refused quickly (:data:`LIMITS`).
2. :func:`status` (in :mod:`manasolver.models.board.status`, re-exported
   here) names every inconsistency of a well-formed board that the rules would
   not allow or that is probably a mistake (an Aura attached to nothing, a
   Treasure that is not a token, tapped permanents in the untap step).
   Nothing there stops a query.
3. Payment legality is the solver's business (``solver/validate/__init__.py``).

:func:`state_to_json` writes a state back, so ``load_state(state_to_json(s)) == s``.

>>> from manasolver.models.board.load import load_state
>>> s = load_state({"players": [{"name": "you"}], "battlefield": [
...     {"id": "d", "name": "Test Dork", "type_line": "Creature — Elf", "mana_cost": "{G}",
...      "oracle_text": "{T}: Add {G}.", "sick": True}]})
>>> s.battlefield[0].summoning_sick, s.turn.active, s.turn.step
(True, 'you', 'main1')
"""

from __future__ import annotations

import json
import re
import weakref
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

from manasolver.models.board.status import PREDEFINED_TOKENS, is_token_card, status
from manasolver.models.card import Card
from manasolver.models.cost import ManaCost
from manasolver.models.errors import (
    BadCost,
    BadState,
    ManasolverError,
    UnknownField,
    Unsupported,
)
from manasolver.models.state import STEPS, GameState, Permanent, Player, Turn

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
    "load_state",
    "state_to_json",
    "status",
]

#: Bounds on hostile input; anything larger is refused with a BadState naming the limit.
LIMITS = {
    "players": 100,
    "permanents": 10_000,
    "zone_cards": 10_000,          # hand or graveyard, each
    "all_zone_cards": 20_000,      # every hand and graveyard together
    "inline_text": 200_000,        # characters of oracle_text among distinct inline cards
    "name": 200,                   # player names, card names, ids, counter kinds
    "type_line": 500,
    "oracle_text": 5_000,           # the longest real oracle text is under 1,000
    "mana_cost": 1_000,            # characters
    "pool": 1_000,                 # characters
    "paren_depth": 16,             # nested reminder text; the oracle parser's cost grows with it
    "counter_kinds": 64,
    "counter": 1_000_000,
    "x": 1_000_000,
    "life": 2**62,                 # |life|, energy: beyond this is refused (status warns at 2**31)
}

STATE_FIELDS = ("players", "turn", "battlefield")
PLAYER_FIELDS = ("name", "life", "starting_life", "energy", "pool", "hand", "graveyard", "commander")
TURN_FIELDS = ("active", "step", "stack_empty")
#: Fields that name or describe a card: ``card`` looks it up, the others are characteristics.
CARD_FIELDS = ("card", "name", "type_line", "mana_cost", "oracle_text", "colors")
PERMANENT_FIELDS = ("id", "controller", "tapped", "sick", "haste", "counters", "attached_to",
                    "cast_for", "x", "token", "chosen") + CARD_FIELDS
#: The fields of a permanent's ``chosen``: choices made as it entered (CR 614.12).
CHOSEN_FIELDS = ("color", "type")
_COLOR_NAMES = {"w": "W", "u": "U", "b": "B", "r": "R", "g": "G", "white": "W", "blue": "U", "black": "B",
                "red": "R", "green": "G"}
#: Accepted values of ``cast_for``: the alternative costs a permanent remembers (CR 702.176a).
CAST_FOR = ("impending",)
_CHARACTERISTICS = CARD_FIELDS[1:]
_FIELD_SETS = {id(f): frozenset(f) for f in (STATE_FIELDS, PLAYER_FIELDS, TURN_FIELDS, CARD_FIELDS,
                                             PERMANENT_FIELDS, CHOSEN_FIELDS)}
_SPLIT_LAYOUTS = ("split", "aftermath")
_CHARACTERISTIC_SET = frozenset(_CHARACTERISTICS)


# -- primitive checks ---------------------------------------------------------------------------

def _type_name(value: object) -> str:
    """The JSON name of a Python value's type, for messages."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int):
        return "an integer"
    if isinstance(value, float):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, (list, tuple)):
        return "a list"
    if isinstance(value, Mapping):
        return "an object"
    return type(value).__name__


def _obj(value: object, where: str, what: str) -> Mapping[str, Any]:
    if type(value) is dict:       # the common case, without the slower ABC check
        return value
    if not isinstance(value, Mapping):
        raise BadState(f"{what} must be an object, not {_type_name(value)}", where)
    return value


def _list(value: object, where: str, what: str, limit: int) -> list[Any] | tuple[Any, ...]:
    if not isinstance(value, (list, tuple)):
        raise BadState(f"{what} must be a list, not {_type_name(value)}", where)
    if len(value) > limit:
        raise BadState(f"{what} has {len(value)} entries; at most {limit} are accepted", where)
    return value


def _str(value: object, where: str, what: str, limit: int, empty: bool = False) -> str:
    if type(value) is str and 0 < len(value) <= limit and (empty or not value[0].isspace()
                                                           or value.strip()):
        return value
    if not isinstance(value, str):
        raise BadState(f"{what} must be a string, not {_type_name(value)}", where)
    if len(value) > limit:
        raise BadState(f"{what} is {len(value)} characters long; at most {limit} are accepted", where)
    if not empty and not value.strip():
        raise BadState(f"{what} must not be empty", where)
    return value


def _int(value: object, where: str, what: str, lo: int, hi: int) -> int:
    # bool is a subclass of int in Python, but true is not a life total
    if isinstance(value, bool) or not isinstance(value, int):
        raise BadState(f"{what} must be an integer, not {_type_name(value)}", where)
    if value < lo:
        raise BadState(f"{what} must not be negative (got {value})" if lo == 0
                       else f"{what} must be at least {lo} (got {value})", where)
    if value > hi:
        raise BadState(f"{what} {value} is larger than the limit {hi}", where)
    return value


def _bool(value: object, where: str, what: str) -> bool:
    if not isinstance(value, bool):
        raise BadState(f"{what} must be true or false, not {_type_name(value)}", where)
    return value


def _fields(obj: Mapping[str, Any], allowed: Iterable[str], where: str, what: str) -> None:
    """Refuse a key the schema does not have, suggesting the closest field."""
    if obj.keys() <= _FIELD_SETS.get(id(allowed), frozenset()):
        return
    allowed = tuple(allowed)
    for key in obj:
        if key in allowed:
            continue
        name = key if isinstance(key, str) else repr(key)
        path = f"{where}.{name}" if where else name
        import difflib  # only on errors: it is slow to import

        close = difflib.get_close_matches(name.lower(), allowed, n=1, cutoff=0.5)
        hint = f"; did you mean {close[0]!r}?" if close else f"; the fields are {', '.join(allowed)}"
        raise UnknownField(f"unknown field {_clip(name)!r} in {what}{hint}", path)


def _clip(text: str, n: int = 60) -> str:
    return text if len(text) <= n else text[:n - 3] + "..."


def _join(where: str, key: str) -> str:
    return f"{where}.{key}" if where else key


# -- cards ----------------------------------------------------------------------------------------

#: Per card database, the cards already resolved by the exact name string a board used, so that
#: a stream of boards (``batch``) resolves each name once; bounded against hostile variety.
_NAME_CACHE: weakref.WeakKeyDictionary[CardDB, dict[str, Card]] = weakref.WeakKeyDictionary()
_NAME_CACHE_SIZE = 50_000


class _Cards:
    """Resolves card names and inline characteristics, once per distinct input."""

    def __init__(self, db: CardDB | None) -> None:
        self._db = db
        self._cache: dict[object, Card] = {}
        self._text = 0          # characters of oracle text parsed for this board
        self.entries = 0        # cards in hands and graveyards, all players together
        self._names: dict[str, Card] = _NAME_CACHE.setdefault(db, {}) if db is not None else {}

    @property
    def db(self) -> CardDB:
        if self._db is None:
            from manasolver.models.carddb import default_db
            self._db = default_db()
            self._names = _NAME_CACHE.setdefault(self._db, {})
        return self._db

    def named(self, name: object, where: str) -> Card:
        """The database card ``name`` (exact, case-insensitive); UnknownCard suggests others."""
        if type(name) is str:
            hit = self._names.get(name)
            if hit is not None:
                return hit
        text = _str(name, where, "a card name", LIMITS["name"])
        key = ("name", text.strip().lower())
        card = self._cache.get(key)
        if card is None:
            try:
                card = self.db.get(text.strip(), where=where)
            except ManasolverError as err:
                raise err if err.where else err.at(where) from None
            self._cache[key] = card
        if len(self._names) >= _NAME_CACHE_SIZE:
            self._names.clear()
        self._names[text] = card
        return card

    def entry(self, obj: Mapping[str, Any], where: str) -> Card:
        """A card from the card fields of ``obj``: ``card`` and/or characteristics.

        Given characteristics override the database's (SPEC §4).
        """
        given = {k: obj[k] for k in _CHARACTERISTICS if k in obj}
        if "card" in obj:
            base = self.named(obj["card"], _join(where, "card"))
            if not given:
                return base
            record = self._base_record(base, obj["card"])
            if "colors" not in given and given.keys() & {"mana_cost", "oracle_text", "type_line"}:
                # the colors follow the new characteristics (and any color indicator)
                record.pop("colors", None)
        else:
            if not given:
                raise BadState("a card needs \"card\" (a name in the card database) or its "
                               "characteristics (name, type_line, mana_cost, oracle_text)", where)
            if "name" not in given:
                raise BadState("inline characteristics need a \"name\"", _join(where, "name"))
            if "type_line" not in given:
                raise BadState(f"inline card {_clip(str(given['name']))!r} needs a \"type_line\" "
                               "(or write \"card\" to look it up in the card database)",
                               _join(where, "type_line"))
            record = {"oracle_text": "", "mana_cost": ""}
        record.update(self._checked(given, where))
        key = ("record", json.dumps(record, sort_keys=True, default=str))
        card = self._cache.get(key)
        if card is None:
            self._text += len(record.get("oracle_text") or "")
            if self._text > LIMITS["inline_text"]:
                raise BadState(f"the board's inline cards have more than {LIMITS['inline_text']} "
                               "characters of distinct oracle_text in all", where)
            from manasolver.models.card_build import card_from_record
            try:
                card = card_from_record(record, where=where)
            except ManasolverError as err:
                raise err if err.where else err.at(where) from None
            self._cache[key] = card
        return card

    def _base_record(self, base: Card, name: str) -> dict[str, Any]:
        """The database record under ``base``, as one face, to lay given characteristics over."""
        raw = None
        record_of = getattr(self.db, "record", None)
        if callable(record_of):
            raw = record_of(name)
        if not isinstance(raw, dict) or raw.get("layout") in _SPLIT_LAYOUTS:
            return _record_of(base)       # a split card: both halves' characteristics at once
        record = dict(raw)
        faces = record.pop("faces", None)
        if isinstance(faces, list) and faces and isinstance(faces[0], dict):
            record = {**faces[0], "layout": record.get("layout", "normal")}
        return record

    @staticmethod
    def _checked(given: Mapping[str, Any], where: str) -> dict[str, Any]:
        out: dict[str, Any] = {}
        if "name" in given:
            out["name"] = _str(given["name"], _join(where, "name"), "name", LIMITS["name"]).strip()
        if "type_line" in given:
            out["type_line"] = _str(given["type_line"], _join(where, "type_line"), "type_line",
                                    LIMITS["type_line"])
        if "oracle_text" in given:
            path = _join(where, "oracle_text")
            text = _str(given["oracle_text"], path, "oracle_text", LIMITS["oracle_text"], empty=True)
            depth = _paren_depth(text)
            if depth > LIMITS["paren_depth"]:
                raise BadState(f"oracle_text nests parentheses {depth} deep; at most "
                               f"{LIMITS['paren_depth']} are accepted (real cards nest 2)", path)
            out["oracle_text"] = text
        if "mana_cost" in given:
            path = _join(where, "mana_cost")
            text = given["mana_cost"]
            if text is None:
                text = ""
            if not isinstance(text, str):
                raise BadCost(f"mana_cost must be a string of mana symbols such as \"{{2}}{{W}}\", "
                              f"not {_type_name(text)}", path)
            if len(text) > LIMITS["mana_cost"]:
                raise BadCost(f"mana_cost is {len(text)} characters long; at most "
                              f"{LIMITS['mana_cost']} are accepted", path)
            cost = ManaCost.parse(text, where=path, allow_empty=True)
            for sym in cost.symbols:
                if sym.special in ("T", "Q", "E"):
                    raise BadCost(f"{sym.text} cannot appear in a mana cost", path)
            out["mana_cost"] = cost.format()
        if "colors" in given:
            out["colors"] = _colors(given["colors"], _join(where, "colors"))
        return out


def _paren_depth(text: str) -> int:
    """The deepest nesting of parentheses (reminder text), in one linear pass."""
    if "(" not in text:
        return 0
    depth = deepest = 0
    for ch in text:
        if ch == "(":
            depth += 1
            deepest = max(deepest, depth)
        elif ch == ")" and depth:
            depth -= 1
    return deepest


def _colors(value: object, where: str) -> list[str]:
    """A color list (``["W", "U"]``, or ``"WU"``) in WUBRG order."""
    letters = value if isinstance(value, str) else None
    if letters is None:
        items = _list(value, where, "colors", 5)
        for i, item in enumerate(items):
            if not isinstance(item, str) or len(item) != 1:
                raise BadState(f"a color is one of the letters W, U, B, R, G, not {item!r}",
                               f"{where}[{i}]")
        letters = "".join(items)
    out = set()
    for i, ch in enumerate(letters.upper()):
        if ch not in "WUBRG":
            raise BadState(f"unknown color {ch!r}: the colors are W, U, B, R, G "
                           "(colorless is no color: write [])", f"{where}[{i}]")
        out.add(ch)
    return [c for c in "WUBRG" if c in out]


def _record_of(card: Card) -> dict[str, Any]:
    """The characteristics of a card as an inline record (the fields SPEC §4 names)."""
    record: dict[str, Any] = {
        "name": card.name,
        "type_line": card.type_line.text,
        "mana_cost": card.mana_cost.format() if card.mana_cost is not None else "",
        "oracle_text": card.oracle_text,
        "colors": card.color_letters,
    }
    return record


# -- loading ----------------------------------------------------------------------------------------

def load_state(obj: object, db: CardDB | None = None) -> GameState:
    """Build a :class:`GameState` from board JSON (SPEC §4), already decoded.

    ``db`` resolves card names (default: the bundled database, loaded only when
    a card is named).  Raises a :class:`ManasolverError` subclass naming the
    path of the first bad field: :class:`UnknownField`, :class:`BadState`,
    :class:`BadCost`, :class:`UnknownCard` (with ``suggestions``) or
    :class:`Unsupported`.
    """
    board = _obj(obj, "", "a board")
    _fields(board, STATE_FIELDS, "", "a board")
    cards = _Cards(db)

    if "players" not in board:
        raise BadState("a board needs \"players\": a list of at least one player", "players")
    raw_players = _list(board["players"], "players", "players", LIMITS["players"])
    if not raw_players:
        raise BadState("players must name at least one player (the one the query is about)",
                       "players")
    players: list[Player] = []
    seen_players: dict[str, int] = {}
    for i, raw in enumerate(raw_players):
        player = _player(raw, f"players[{i}]", cards)
        if player.name in seen_players:
            raise BadState(f"duplicate player name {_clip(player.name)!r} "
                           f"(also players[{seen_players[player.name]}])", f"players[{i}].name")
        seen_players[player.name] = i
        players.append(player)
    names = tuple(p.name for p in players)

    turn = _turn(board.get("turn"), names) if "turn" in board else Turn(active=names[0])

    permanents: list[Permanent] = []
    if "battlefield" in board:
        raw_field = _list(board["battlefield"], "battlefield", "battlefield", LIMITS["permanents"])
        ids: dict[str, int] = {}
        for i, raw in enumerate(raw_field):
            perm = _cached_permanent(raw, i, names, cards)
            if perm.id in ids:
                raise BadState(f"duplicate id {_clip(perm.id)!r} (first used by "
                               f"battlefield[{ids[perm.id]}])", f"battlefield[{i}].id")
            ids[perm.id] = i
            permanents.append(perm)
        for i, perm in enumerate(permanents):
            if perm.attached_to is not None and perm.attached_to not in ids:
                raise BadState(f"attached_to {_clip(perm.attached_to)!r} names no permanent on the "
                               "battlefield", f"battlefield[{i}].attached_to")
    return GameState(players=tuple(players), turn=turn, battlefield=tuple(permanents))


def _player(raw: object, where: str, cards: _Cards) -> Player:
    obj = _obj(raw, where, "a player")
    _fields(obj, PLAYER_FIELDS, where, "a player")
    if "name" not in obj:
        raise BadState("a player needs a \"name\"", f"{where}.name")
    name = _str(obj["name"], f"{where}.name", "a player name", LIMITS["name"])
    big = LIMITS["life"]
    life = _int(obj.get("life", 20), f"{where}.life", "life", 0, big) if "life" in obj else 20
    start = (_int(obj["starting_life"], f"{where}.starting_life", "starting_life", 0, big)
             if "starting_life" in obj else 20)
    energy = _int(obj["energy"], f"{where}.energy", "energy", 0, big) if "energy" in obj else 0
    pool = _pool(obj["pool"], f"{where}.pool") if "pool" in obj else ManaCost()
    hand = _zone(obj["hand"], f"{where}.hand", "hand", cards) if "hand" in obj else ()
    grave = (_zone(obj["graveyard"], f"{where}.graveyard", "graveyard", cards)
             if "graveyard" in obj else ())
    commander: tuple[Card, ...] = ()
    if "commander" in obj:
        commander = _zone(obj["commander"], f"{where}.commander", "commander", cards)
        if len(commander) > 2:
            raise BadState(f"commander names {len(commander)} cards; a player has at most two commanders "
                           "(CR 903.3, partner 702.124)", f"{where}.commander")
    return Player(name=name, life=life, starting_life=start, energy=energy, pool=pool,
                  hand=hand, graveyard=grave, commander=commander)


def _pool(raw: object, where: str) -> ManaCost:
    """Floating mana: only the six mana types, ``{W}{U}{B}{R}{G}{C}`` (CR 106.1)."""
    if not isinstance(raw, str):
        raise BadCost(f"pool must be a string of mana symbols such as \"{{R}}{{C}}\", not "
                      f"{_type_name(raw)}", where)
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


def _zone(raw: object, where: str, what: str, cards: _Cards) -> tuple[Card, ...]:
    items = _list(raw, where, what, LIMITS["zone_cards"])
    cards.entries += len(items)
    if cards.entries > LIMITS["all_zone_cards"]:
        raise BadState(f"the players' hands and graveyards hold more than {LIMITS['all_zone_cards']} "
                       "cards in all", where)
    out: list[Card] = []
    for i, item in enumerate(items):
        path = f"{where}[{i}]"
        if isinstance(item, str):
            out.append(cards.named(item, path))
        elif isinstance(item, Mapping):
            _fields(item, CARD_FIELDS, path, "a card")
            out.append(cards.entry(item, path))
        else:
            raise BadState(f"a card in the {what} is a name or an object of characteristics, not "
                           f"{_type_name(item)}", path)
    return tuple(out)


def _turn(raw: object, names: tuple[str, ...]) -> Turn:
    obj = _obj(raw, "turn", "turn")
    _fields(obj, TURN_FIELDS, "turn", "turn")
    active = names[0]
    if "active" in obj:
        active = _str(obj["active"], "turn.active", "turn.active", LIMITS["name"])
        if active not in names:
            raise BadState(f"turn.active {_clip(active)!r} names no player{_suggest(active, names)}",
                           "turn.active")
    step = "main1"
    if "step" in obj:
        step = _str(obj["step"], "turn.step", "turn.step", 64)
        if step not in STEPS:
            norm = step.strip().lower().replace(" ", "_").replace("-", "_")
            if norm not in STEPS:
                raise BadState(f"unknown step {_clip(step)!r}{_suggest(norm, STEPS)}; the steps are "
                               f"{', '.join(STEPS)}", "turn.step")
            step = norm
    stack_empty = (_bool(obj["stack_empty"], "turn.stack_empty", "turn.stack_empty")
                   if "stack_empty" in obj else True)
    return Turn(active=active, step=step, stack_empty=stack_empty)


def _suggest(name: str, choices: Iterable[str]) -> str:
    import difflib

    close = difflib.get_close_matches(name, list(choices), n=1, cutoff=0.5)
    return f"; did you mean {close[0]!r}?" if close else ""


#: Per card database, permanents already built from the same flat JSON object (the same fields
#: with the same values and types) and the same player names: a stream of boards (``batch``)
#: builds each distinct permanent once.  Objects with nested values (counters) are not cached.
_PERMANENT_CACHE: weakref.WeakKeyDictionary[CardDB, dict[object, Permanent]] = weakref.WeakKeyDictionary()


def _cached_permanent(raw: object, index: int, names: tuple[str, ...], cards: _Cards) -> Permanent:
    if type(raw) is not dict or "card" not in raw:
        return _permanent(raw, f"battlefield[{index}]", names, cards)
    try:
        key = (names, tuple((k, v, type(v)) for k, v in raw.items()))
        cache = _PERMANENT_CACHE.setdefault(cards.db, {})
        hit = cache.get(key)
    except TypeError:  # a nested value (counters, chosen): not hashable
        return _permanent(raw, f"battlefield[{index}]", names, cards)
    if hit is None:
        hit = _permanent(raw, f"battlefield[{index}]", names, cards)
        if len(cache) >= _NAME_CACHE_SIZE:
            cache.clear()
        cache[key] = hit
    return hit


def _permanent(raw: object, where: str, names: tuple[str, ...], cards: _Cards) -> Permanent:
    obj = _obj(raw, where, "a permanent")
    _fields(obj, PERMANENT_FIELDS, where, "a permanent")
    if "id" not in obj:
        raise BadState("a permanent needs an \"id\" (unique on the battlefield)", f"{where}.id")
    pid = obj["id"]
    if type(pid) is int:
        pid = str(pid)    # numeric ids are common in client code; they are compared as text
    pid = _str(pid, f"{where}.id", "id", LIMITS["name"])
    name = obj.get("card")
    if type(name) is str and not obj.keys() & _CHARACTERISTIC_SET:
        card = cards.named(name, f"{where}.card")
    else:
        card = cards.entry(obj, where)
    controller = names[0]
    if "controller" in obj:
        controller = obj["controller"]
        if controller not in names or type(controller) is not str:
            controller = _str(controller, f"{where}.controller", "controller", LIMITS["name"])
            raise BadState(f"controller {_clip(controller)!r} names no player"
                           f"{_suggest(controller, names)}", f"{where}.controller")
    tapped = obj.get("tapped", False)
    sick = obj.get("sick", False)
    haste = obj.get("haste", False)
    if type(tapped) is not bool or type(sick) is not bool or type(haste) is not bool:
        for key in ("tapped", "sick", "haste"):
            if key in obj:
                _bool(obj[key], f"{where}.{key}", key)
    token = _bool(obj["token"], f"{where}.token", "token") if "token" in obj else is_token_card(card)
    counters = _counters(obj["counters"], f"{where}.counters") if "counters" in obj else ()
    attached = None
    target = obj.get("attached_to")
    if target is not None:
        if type(target) is int:
            target = str(target)
        attached = _str(target, f"{where}.attached_to", "attached_to", LIMITS["name"])
    cast_for = None
    if obj.get("cast_for") is not None:
        cast_for = _str(obj["cast_for"], f"{where}.cast_for", "cast_for", 64).strip().lower()
        if cast_for not in CAST_FOR:
            raise Unsupported(f"cast_for {_clip(cast_for)!r} is not supported; the accepted value is "
                              f"{', '.join(repr(c) for c in CAST_FOR)}", f"{where}.cast_for")
    x = None
    if obj.get("x") is not None:
        x = _int(obj["x"], f"{where}.x", "x", 0, LIMITS["x"])
    color, ctype = _chosen(obj["chosen"], f"{where}.chosen") if obj.get("chosen") is not None else (None, None)
    return Permanent(pid, card, controller, tapped, sick, haste, counters, attached, cast_for, x,
                     token, color, ctype)


def _chosen(raw: object, where: str) -> tuple[str | None, str | None]:
    """``{"color": "G", "type": "Elf"}``: the color (a letter or a color's name) and the
    creature type chosen as the permanent entered (CR 614.12)."""
    obj = _obj(raw, where, "chosen")
    _fields(obj, CHOSEN_FIELDS, where, "chosen")
    color = ctype = None
    if obj.get("color") is not None:
        text = _str(obj["color"], f"{where}.color", "a color", 16)
        color = _COLOR_NAMES.get(text.strip().lower())
        if color is None:
            raise BadState(f"chosen color {_clip(text)!r} is not a color: one of W, U, B, R, G "
                           "(colorless is not a color, CR 105.1)", f"{where}.color")
    if obj.get("type") is not None:
        text = _str(obj["type"], f"{where}.type", "a creature type", LIMITS["name"]).strip()
        if not re.fullmatch(r"[A-Za-z][A-Za-z'\-]*(?: [A-Za-z][A-Za-z'\-]*)?", text):
            raise BadState(f"chosen type {_clip(text)!r} is not a creature type (such as \"Elf\")",
                           f"{where}.type")
        ctype = text.lower()
    return color, ctype


def _counters(raw: object, where: str) -> tuple[tuple[str, int], ...]:
    obj = _obj(raw, where, "counters")
    if len(obj) > LIMITS["counter_kinds"]:
        raise BadState(f"counters has {len(obj)} kinds; at most {LIMITS['counter_kinds']} are "
                       "accepted", where)
    out: dict[str, int] = {}
    for kind, n in obj.items():
        path = f"{where}.{kind}" if isinstance(kind, str) and kind else where
        kind = _str(kind, path, "a counter kind", LIMITS["name"])
        norm = " ".join(kind.lower().split())
        if norm in out:
            raise BadState(f"counter kind {_clip(kind)!r} is given twice", path)
        value = _int(n, path, f"the number of {_clip(kind)} counters", 0, LIMITS["counter"])
        out[norm] = value
    return tuple(sorted((k, v) for k, v in out.items() if v))


# -- writing back -----------------------------------------------------------------------------------

def state_to_json(state: GameState, db: CardDB | None = None) -> dict[str, Any]:
    """Board JSON for ``state`` (SPEC §4), with defaults left out.

    A card equal to the database's card of its name is written as ``"card"``;
    any other card as its characteristics.  ``load_state(state_to_json(s))``
    gives back ``s``.
    """
    cards = _Writer(db)
    players: list[dict[str, Any]] = []
    for p in state.players:
        entry: dict[str, Any] = {"name": p.name}
        if p.life != 20:
            entry["life"] = p.life
        if p.starting_life != 20:
            entry["starting_life"] = p.starting_life
        if p.energy:
            entry["energy"] = p.energy
        if p.pool:
            entry["pool"] = p.pool.format()
        if p.hand:
            entry["hand"] = [cards.zone_entry(c) for c in p.hand]
        if p.graveyard:
            entry["graveyard"] = [cards.zone_entry(c) for c in p.graveyard]
        if p.commander:
            entry["commander"] = [cards.zone_entry(c) for c in p.commander]
        players.append(entry)
    out: dict[str, Any] = {
        "players": players,
        "turn": {"active": state.turn.active, "step": state.turn.step,
                 "stack_empty": state.turn.stack_empty},
    }
    field: list[dict[str, Any]] = []
    first = state.players[0].name
    for perm in state.battlefield:
        entry = {"id": perm.id}
        entry.update(cards.fields(perm.card))
        if perm.controller != first:
            entry["controller"] = perm.controller
        for key in ("tapped", "sick", "haste"):
            if getattr(perm, key):
                entry[key] = True
        if perm.token != is_token_card(perm.card):
            entry["token"] = perm.token
        if perm.counters:
            entry["counters"] = dict(perm.counters)
        if perm.attached_to is not None:
            entry["attached_to"] = perm.attached_to
        if perm.cast_for is not None:
            entry["cast_for"] = perm.cast_for
        if perm.x is not None:
            entry["x"] = perm.x
        chosen = {k: v for k, v in (("color", perm.chosen_color), ("type", perm.chosen_type)) if v is not None}
        if chosen:
            entry["chosen"] = chosen
        field.append(entry)
    if field:
        out["battlefield"] = field
    return out


class _Writer:
    """Writes each distinct card once: by name when the database's card of that name is the
    same card; as the name plus the characteristics that differ when that rebuilds it; else as
    its characteristics."""

    def __init__(self, db: CardDB | None) -> None:
        if db is None:
            from manasolver.models.carddb import default_db
            db = default_db()
        self._db = db
        self._memo: dict[int, dict[str, Any]] = {}
        self._keep: list[Card] = []     # keeps ids unique while memoised

    def fields(self, card: Card) -> dict[str, Any]:
        got = self._memo.get(id(card))
        if got is None:
            got = self._memo[id(card)] = self._describe(card)
            self._keep.append(card)
        return dict(got)

    def zone_entry(self, card: Card) -> str | dict[str, Any]:
        got = self.fields(card)
        return str(got["card"]) if list(got) == ["card"] else got

    def _describe(self, card: Card) -> dict[str, Any]:
        try:
            base = self._db.get(card.name)
        except ManasolverError:
            return _record_of(card)
        if base == card:
            return {"card": card.name}
        mine, theirs = _record_of(card), _record_of(base)
        entry: dict[str, Any] = {"card": card.name}
        entry.update({k: v for k, v in mine.items() if theirs.get(k) != v})
        if entry.keys() & {"mana_cost", "oracle_text", "type_line"}:
            entry["colors"] = mine["colors"]
        try:
            if _Cards(self._db).entry(entry, "") == card:
                return entry
        except ManasolverError:
            pass
        return mine
