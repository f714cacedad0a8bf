"""The board JSON schema: its field names, the bounds on hostile input, and the checks of
single values that name the path of a bad field.

Every check returns the value, of the type asked for, or raises
:class:`~manasolver.models.errors.BadState` (:class:`~manasolver.models.errors.UnknownField` for a
key the schema does not have, with the closest field suggested) whose ``where`` is the path given,
such as ``battlefield[3].card`` or ``players[0].life``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from manasolver.models.errors import BadState, UnknownField

__all__ = [
    "CARD_FIELDS",
    "CAST_FOR",
    "CHARACTERISTICS",
    "CHARACTERISTIC_SET",
    "CHOSEN_FIELDS",
    "HISTORY_FIELDS",
    "LIMITS",
    "PERMANENT_FIELDS",
    "PLAYER_FIELDS",
    "STATE_FIELDS",
    "TURN_FIELDS",
    "as_bool",
    "as_int",
    "as_list",
    "as_object",
    "as_str",
    "check_fields",
    "clip",
    "join_path",
    "type_name",
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
    "counter": 100_000,            # a mana ability may make this many units; each answer stays in its budget
    "x": 1_000_000,
    "imprinted": 100,              # cards exiled with one permanent
    "library": 1_000_000,          # cards in a library; cards drawn this turn
    "life": 2**62,                 # |life|, energy: beyond this is refused (status warns at 2**31)
}

STATE_FIELDS = ("players", "turn", "battlefield")
PLAYER_FIELDS = ("name", "life", "starting_life", "energy", "pool", "hand", "graveyard", "commander",
                 "lands_played_this_turn", "spells_cast_this_turn", "life_gained_this_turn",
                 "cards_drawn_this_turn", "designations", "library")
#: The player fields that hold the game's history this turn: numbers ≥ 0.
HISTORY_FIELDS = ("lands_played_this_turn", "spells_cast_this_turn", "life_gained_this_turn")
TURN_FIELDS = ("active", "step", "stack_empty")
#: Fields that name or describe a card: ``card`` looks it up, the others are characteristics.
CARD_FIELDS = ("card", "name", "type_line", "mana_cost", "oracle_text", "colors")
PERMANENT_FIELDS = ("id", "controller", "tapped", "sick", "haste", "counters", "attached_to",
                    "cast_for", "x", "token", "chosen", "imprinted", "entered_this_turn",
                    "renowned", "activated_this_turn") + CARD_FIELDS
#: The fields of a permanent's ``chosen``: choices made as it entered (CR 614.12).
CHOSEN_FIELDS = ("color", "type", "name")
#: Accepted values of ``cast_for``: the alternative costs a permanent remembers (CR 702.176a).
CAST_FOR = ("impending",)
CHARACTERISTICS = CARD_FIELDS[1:]
#: The field sets of the schema's own tuples, looked up by identity in :func:`check_fields` (a table of
#: constants that live as long as the module, not a cache).
_FIELD_SETS = {id(f): frozenset(f) for f in (STATE_FIELDS, PLAYER_FIELDS, TURN_FIELDS, CARD_FIELDS,
                                             PERMANENT_FIELDS, CHOSEN_FIELDS)}
CHARACTERISTIC_SET = frozenset(CHARACTERISTICS)


# -- primitive checks ---------------------------------------------------------------------------

def type_name(value: object) -> str:
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


def as_object(value: object, where: str, what: str) -> Mapping[str, Any]:
    if type(value) is dict:       # the common case, without the slower ABC check
        return value
    if not isinstance(value, Mapping):
        raise BadState(f"{what} must be an object, not {type_name(value)}", where)
    return value


def as_list(value: object, where: str, what: str, limit: int) -> list[Any] | tuple[Any, ...]:
    if not isinstance(value, (list, tuple)):
        raise BadState(f"{what} must be a list, not {type_name(value)}", where)
    if len(value) > limit:
        raise BadState(f"{what} has {len(value)} entries; at most {limit} are accepted", where)
    return value


def as_str(value: object, where: str, what: str, limit: int, empty: bool = False) -> str:
    if type(value) is str and 0 < len(value) <= limit and (empty or not value[0].isspace()
                                                           or value.strip()):
        return value
    if not isinstance(value, str):
        raise BadState(f"{what} must be a string, not {type_name(value)}", where)
    if len(value) > limit:
        raise BadState(f"{what} is {len(value)} characters long; at most {limit} are accepted", where)
    if not empty and not value.strip():
        raise BadState(f"{what} must not be empty", where)
    return value


def as_int(value: object, where: str, what: str, lo: int, hi: int) -> int:
    # bool is a subclass of int in Python, but true is not a life total
    if isinstance(value, bool) or not isinstance(value, int):
        raise BadState(f"{what} must be an integer, not {type_name(value)}", where)
    if value < lo:
        raise BadState(f"{what} must not be negative (got {value})" if lo == 0
                       else f"{what} must be at least {lo} (got {value})", where)
    if value > hi:
        raise BadState(f"{what} {value} is larger than the limit {hi}", where)
    return value


def as_bool(value: object, where: str, what: str) -> bool:
    if not isinstance(value, bool):
        raise BadState(f"{what} must be true or false, not {type_name(value)}", where)
    return value


def check_fields(obj: Mapping[str, Any], allowed: Iterable[str], where: str, what: str) -> None:
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
        raise UnknownField(f"unknown field {clip(name)!r} in {what}{hint}", path)


def clip(text: str, n: int = 60) -> str:
    return text if len(text) <= n else text[:n - 3] + "..."


def join_path(where: str, key: str) -> str:
    return f"{where}.{key}" if where else key
