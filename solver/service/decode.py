"""Decoding the fields of a protocol query: JSON values to typed values, no rules.

Each function reads one field of a decoded JSON query object and returns its typed value
(:class:`~manasolver.models.cost.ManaCost`, :class:`~manasolver.solver.request.SpellInfo`,
:class:`~manasolver.solver.request.Modifier`, :class:`~manasolver.solver.request.Policy`, …)
or raises a :class:`~manasolver.models.errors.ManasolverError` whose ``where`` names the field
(``spell.colors``, ``modifiers[2].reduce``, ``policy.weights.min_life``).  The solver modules are
imported only by the fields that need them, so that light queries stay light.
"""

from __future__ import annotations

import json
import os
import re
import stat
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, cast

from manasolver.models.cost import ManaCost
from manasolver.models.errors import BadCost, BadQuery, ManasolverError, UnknownField
from manasolver.models.symbols import mask_from_letters

if TYPE_CHECKING:
    from manasolver.models.card import Card
    from manasolver.models.carddb import CardDB
    from manasolver.models.state import GameState
    from manasolver.solver import request
    from manasolver.solver.service import boards
    from manasolver.solver.request import (
        Criterion,
        Modifier,
        ModifierKind,
        Policy,
        SpellInfo,
    )

#: The largest weight a caller's policy may give a criterion (the solvers work in 64-bit integers).
MAX_WEIGHT = 10**6
#: The largest count a ``spend_color`` entry may ask for (more mana than any board makes).
MAX_SPEND = 10**6

__all__ = ["MAX_SPEND", "MAX_WEIGHT", "ability_spell", "backend", "card_db", "card_file", "cost",
           "flag", "integer", "load_state_field", "modifiers", "names_ability", "player", "policy", "spell",
           "state_and_db", "turn_given"]


#: Are the modules the payment fields are read with imported here yet (:func:`_import_readers`)?
_READERS = False


def _import_readers() -> None:
    """Import the request's types and the board cache as this module's globals: on the first
    query that reads them (a light query never loads them), once, so that no later query runs an
    import statement for them (``from package import module`` runs importlib's Python code each
    time: a microsecond or so)."""
    global _READERS, boards, request
    from manasolver.solver import request
    from manasolver.solver.service import boards
    _READERS = True


def card_db(query: dict[str, Any]) -> CardDB:
    """The card database of the query: the card file its ``cards`` names, or for a query that
    names none, the process's (:func:`~manasolver.models.carddb.default_db` of
    :func:`_environment_cards`).  A file that is not one is an error naming the file and where in
    it, quoting none of its content (a query may name any file the process can read)."""
    cards = query.get("cards")
    default_db = _DEFAULT_DB or _default_db()
    if cards is None:
        return default_db(_ENVIRONMENT if _ENVIRONMENT is not None else _environment_cards())
    if not isinstance(cards, str):
        raise BadQuery('"cards" must be the path of a card file', "cards")
    if "\x00" in cards:
        raise BadQuery('"cards" must be a file path, and a path has no NUL character', "cards")
    try:
        os.fsencode(cards)
    except UnicodeError:
        raise BadQuery(f'"cards" is not a path this system can name: {cards!r}', "cards") from None
    card_file(cards)
    try:
        return default_db(cards)
    except ManasolverError as err:
        clone = err.at("")
        ManasolverError.__init__(clone, _quoting_nothing(err.message), err.where)
        raise clone from None
    except OSError as err:
        raise BadQuery(f"card file {cards} can't be read: {err.strerror or type(err).__name__}", "cards") from None


def _environment_cards() -> str:
    """The card file of the queries that name none: ``MANASOLVER_CARDS``, or ``""`` (the bundled
    cards alone), read from the environment by the first such query and kept for the process: the
    environment is the process's configuration, given when it starts (``batch``, ``serve``, the
    CLI).  A process that sets the variable after its first query names the file in ``cards``."""
    global _ENVIRONMENT
    from manasolver.models.carddb import ENV_VAR
    _ENVIRONMENT = os.environ.get(ENV_VAR) or ""
    return _ENVIRONMENT


#: :func:`_environment_cards`, once read (one string, written once: a race reads the same value)
_ENVIRONMENT: str | None = None


def _default_db() -> Callable[[str | None], CardDB]:
    """:func:`~manasolver.models.carddb.default_db`, imported on first use (an ``import`` statement
    run for every query is a microsecond)."""
    global _DEFAULT_DB
    from manasolver.models.carddb import default_db
    _DEFAULT_DB = default_db
    return default_db


_DEFAULT_DB: Callable[[str | None], CardDB] | None = None


#: what a card file's error may quote of the file: its first bytes, the keys of an object, a character found
_QUOTED = re.compile(r" \((?:it starts with bytes|this object has) [^)]*\)|, found .*?(?=;|$)")


def _quoting_nothing(message: str) -> str:
    """A card file's error message without the parts that quote the file's content."""
    return _QUOTED.sub("", message)


def card_file(path: str, where: str = "cards") -> None:
    """Refuse at once a card file path that names no regular file: missing, a folder, or a FIFO,
    socket or device, whose reading could block the process or never end.  Read with ``stat``,
    which opens nothing."""
    try:
        mode = os.stat(path).st_mode
    except OSError as err:
        raise BadQuery(f"card file {path} can't be read: {err.strerror or type(err).__name__}", where) from None
    if not stat.S_ISREG(mode):
        kind = ("a folder" if stat.S_ISDIR(mode) else "a FIFO (named pipe)" if stat.S_ISFIFO(mode)
                else "a socket" if stat.S_ISSOCK(mode) else "a device" if stat.S_ISCHR(mode) or stat.S_ISBLK(mode)
                else "not a regular file")
        raise BadQuery(f"card file {path} is {kind}, not a regular file", where)


def load_state_field(query: dict[str, Any]) -> GameState:
    """The ``state`` of a query, loaded; errors name the path inside the board.  A board seen
    recently, or kept by a session, is not loaded again (:mod:`~manasolver.solver.service.boards`)."""
    return state_and_db(query)[0]


def state_and_db(query: dict[str, Any]) -> tuple[GameState, CardDB]:
    """:func:`load_state_field`'s state and the card database it was read with (:func:`card_db`),
    for a query that reads cards again (its ``spell``)."""
    if not _READERS:
        _import_readers()
    if "state" not in query:
        raise BadQuery('missing "state" (the board, or "board": a handle from open)', "state")
    try:
        db = card_db(query)
        return boards.load_board(query["state"], db), db
    except ManasolverError as err:
        # paths inside the board are written as the protocol does: battlefield[3].card
        raise (err if err.where else err.at("state")) from None


def player(query: dict[str, Any], state: GameState) -> str:
    """The ``player`` the query asks about (default: the state's first player)."""
    name = query.get("player")
    if name is None:
        return str(state.players[0].name)
    if not isinstance(name, str) or name not in {p.name for p in state.players}:
        raise BadQuery(f"player {name!r} is not a player of the state", "player")
    return name


def cost(query: dict[str, Any], required: bool = True) -> ManaCost | None:
    """The ``cost``, parsed; ``None`` when it is missing and not ``required``."""
    raw = query.get("cost")
    if raw is None:
        if required:
            raise BadQuery('missing "cost"', "cost")
        return None
    if not isinstance(raw, str):
        raise BadCost("cost must be a string such as \"{2}{W/U}\"", "cost")
    return ManaCost.parse(raw, "cost")


def integer(query: dict[str, Any], key: str, default: int | None, lo: int = 0, hi: int = 10**6) -> int | None:
    """The integer field ``key`` (``x``, ``limit``) between ``lo`` and ``hi``, or ``default``."""
    raw = query.get(key, default)
    if raw is None:
        return None
    if isinstance(raw, bool) or not isinstance(raw, int):
        raise BadQuery(f"{key} must be an integer", key)
    if not lo <= raw <= hi:
        raise BadQuery(f"{key} must be between {lo} and {hi}", key)
    return raw


def flag(query: dict[str, Any], key: str) -> bool | None:
    """The boolean field ``key`` (``convoke``, ``detail``), ``None`` when it is missing."""
    raw = query.get(key)
    if raw is None:
        return None
    if not isinstance(raw, bool):
        raise BadQuery(f"{key} must be true or false", key)
    return raw


def spell(query: dict[str, Any], db: CardDB | None = None) -> SpellInfo | None:
    """The ``spell`` object: what is cast, from a named card and/or its given characteristics
    (``db``: the query's card database, when read already)."""
    if not _READERS:
        _import_readers()
    raw = query.get("spell")
    if raw is None:
        return None
    if not isinstance(raw, dict):
        raise BadQuery('spell must be an object such as {"card": "Reaper King"}', "spell")
    if not raw.keys() <= _SPELL_FIELDS:
        for key in raw:
            if key not in _SPELL_FIELDS:
                raise UnknownField(f"unknown field {key!r} of spell", f"spell.{key}")
    card = None
    if "card" in raw:
        if not isinstance(raw["card"], str):
            raise BadQuery("spell.card must be a card name", "spell.card")
        try:
            card = (db or card_db(query)).get(raw["card"], "card")
        except ManasolverError as err:
            raise err.at("spell") from None
        if len(raw) == 1:  # the card by its name alone: its facts keep what it casts
            info: SpellInfo | None = card.facts.spell
            if info is None:
                info = card.facts.spell = _cast(card, raw)
            return info
    return _cast(card, raw)


def _cast(card: Card | None, raw: dict[str, Any]) -> SpellInfo:
    """What ``spell`` object ``raw`` casts, ``card`` read from it."""
    types = _words(raw, "types", card.type_line.types if card else ())
    subtypes = _words(raw, "subtypes", card.type_line.subtypes if card else ())
    supertypes = _words(raw, "supertypes", card.type_line.supertypes if card else ())
    colors = card.colors if card else 0
    if "colors" in raw:
        letters = raw["colors"]
        if not isinstance(letters, list) or not all(isinstance(c, str) and c.upper() in "WUBRG"
                                                     and len(c) == 1 for c in letters):
            raise BadQuery('spell.colors must be a list of color letters such as ["R"]', "spell.colors")
        colors = mask_from_letters("".join(letters).upper())
    ability = raw.get("ability", False)
    if not isinstance(ability, bool):
        raise BadQuery("spell.ability must be true or false", "spell.ability")
    return request.SpellInfo(types=frozenset(types), subtypes=frozenset(subtypes), supertypes=frozenset(supertypes),
                     colors=colors, card=card, ability=ability)


#: The fields of a ``spell`` object.
_SPELL_FIELDS = frozenset({"card", "types", "subtypes", "supertypes", "colors", "ability"})


def _words(raw: dict[str, Any], key: str, default: tuple[str, ...]) -> tuple[str, ...]:
    if key not in raw:
        return default
    value = raw[key]
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise BadQuery(f"spell.{key} must be a list of strings", f"spell.{key}")
    return tuple(v.lower() for v in value)


def modifiers(query: dict[str, Any]) -> tuple[Modifier, ...]:
    """The caller's cost ``modifiers`` (CR 601.2f): increases, reductions and minimums, in order."""
    if "modifiers" not in query:
        return ()
    if not _READERS:
        _import_readers()
    raw = query["modifiers"]
    if not isinstance(raw, list):
        raise BadQuery("modifiers must be a list", "modifiers")
    if len(raw) > 1000:
        raise BadQuery("too many modifiers (at most 1000)", "modifiers")
    out = []
    for i, item in enumerate(raw):
        where = f"modifiers[{i}]"
        if not isinstance(item, dict) or len(item) != 1:
            raise BadQuery('each modifier is one of {"increase": COST}, {"reduce": COST}, {"minimum": N}',
                           where)
        (kind, value), = item.items()
        if kind in ("increase", "reduce"):
            if not isinstance(value, str):
                raise BadCost(f"{kind} must be a cost string", f"{where}.{kind}")
            out.append(request.Modifier(cast("ModifierKind", kind), cost=ManaCost.parse(value, f"{where}.{kind}")))
        elif kind == "minimum":
            if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 1000:
                raise BadQuery("minimum must be an integer from 0 to 1000", f"{where}.minimum")
            out.append(request.Modifier("minimum", amount=value))
        else:
            raise UnknownField(f"unknown modifier {kind!r}: use increase, reduce or minimum", where)
    return tuple(out)


def policy(query: dict[str, Any]) -> Policy:
    """The ``policy``: a list of criteria, a comma-separated string or an object."""
    if not _READERS:
        _import_readers()
    raw = query.get("policy")
    if raw is None:
        return request.PLAIN_POLICY
    known = set(request.DEFAULT_POLICY) | {"max_colors_spent", "min_energy", "spend_color", "min_convoke",
                                    "min_delve", "min_improvise"}
    keep: tuple[ManaCost, ...] | None = None
    spend: list[tuple[str, int]] = []
    weights: list[tuple[str, int]] = []
    items: list[Any]
    if isinstance(raw, str):
        items = [s.strip() for s in raw.split(",") if s.strip()]
    elif isinstance(raw, list):
        items = raw
    elif isinstance(raw, dict):
        for key in raw:
            if key not in ("criteria", "keep_castable", "spend_color", "weights"):
                raise UnknownField(f"unknown policy field {key!r}", f"policy.{key}")
        items = raw.get("criteria", list(request.DEFAULT_POLICY))
        if not isinstance(items, list):
            raise BadQuery("policy.criteria must be a list of criterion names", "policy.criteria")
        if "keep_castable" in raw:
            kc = raw["keep_castable"]
            if not isinstance(kc, list):
                raise BadQuery("policy.keep_castable must be a list of costs", "policy.keep_castable")
            keep = tuple(_cost_string(c, f"policy.keep_castable[{i}]") for i, c in enumerate(kc))
        if "spend_color" in raw:
            spend.extend(_spend_color(raw["spend_color"], "policy.spend_color"))
        if "weights" in raw:
            w = raw["weights"]
            if not isinstance(w, dict):
                raise BadQuery("policy.weights must map criteria to integers", "policy.weights")
            for key, value in w.items():
                if key not in known or isinstance(value, bool) or not isinstance(value, int):
                    raise BadQuery(f"bad weight {key!r}: {value!r}", f"policy.weights.{key}")
                if not 0 <= value <= MAX_WEIGHT:
                    raise BadQuery(f"weight {key!r} must be an integer from 0 to {MAX_WEIGHT}, not {value}",
                                   f"policy.weights.{key}")
                weights.append((key, value))
    else:
        raise BadQuery("policy must be a list of criteria, a comma-separated string or an object", "policy")
    criteria: list[Criterion] = []
    for i, item in enumerate(items):
        where = f"policy[{i}]"
        if isinstance(item, dict) and set(item) == {"spend_color"}:
            spend.extend(_spend_color(item["spend_color"], where))
            continue
        if isinstance(item, str) and item.startswith("spend_color:"):
            try:
                spend.extend(_spend_color(json.loads(item.split(":", 1)[1]), where))
            except ValueError:
                raise BadQuery('write spend_color as spend_color:{"G":3}', where) from None
            continue
        if not isinstance(item, str) or item not in known | {"preserve"}:
            import difflib
            close = difflib.get_close_matches(str(item), sorted(known), n=1)
            hint = f" (did you mean {close[0]!r}?)" if close else ""
            raise BadQuery(f"unknown policy criterion {item!r}{hint}", where)
        criteria.append(cast("Criterion", item))
    return request.Policy(criteria=tuple(criteria), keep_castable=keep, spend_color=tuple(spend),
                  weights=tuple(weights))


def _cost_string(value: Any, where: str) -> ManaCost:
    if not isinstance(value, str):
        raise BadCost("expected a cost string such as \"{1}{U}\"", where)
    return ManaCost.parse(value, where)


def _spend_color(value: Any, where: str) -> list[tuple[str, int]]:
    if not isinstance(value, dict):
        raise BadQuery('spend_color maps colors to counts, e.g. {"G": 3}', where)
    out = []
    for color, n in value.items():
        if color not in ("W", "U", "B", "R", "G") or isinstance(n, bool) or not isinstance(n, int) or n < 0:
            raise BadQuery(f"bad spend_color entry {color!r}: {n!r}", f"{where}.{color}")
        if n > MAX_SPEND:
            raise BadQuery(f"spend_color {color!r} must be at most {MAX_SPEND}, not {n}", f"{where}.{color}")
        out.append((color, n))
    return out


def backend(query: dict[str, Any]) -> str | None:
    """The ``backend`` named, if any."""
    raw = query.get("backend")
    if raw is not None and raw not in ("flow", "fastopt", "cpsat", "csp"):
        raise BadQuery("backend must be one of flow, fastopt, cpsat, csp", "backend")
    return raw


def names_ability(raw: Any) -> bool:
    """True when a query's ``spell`` object names an ability to activate (not just
    ``"ability": true``, which marks a caller-given cost as an ability's)."""
    if not isinstance(raw, dict):
        return False
    ability = raw.get("ability")
    return "permanent" in raw or (isinstance(ability, (int, str)) and not isinstance(ability, bool))


def ability_spell(query: dict[str, Any]) -> dict[str, Any]:
    """The ``spell`` object of a query that names an ability (:func:`names_ability`): the
    ability's cost is read from the card, so ``cost``, ``alternative`` and ``additional`` are
    refused, and so are fields other than ``permanent``, ``card`` and ``ability``."""
    for key in ("cost", "alternative", "additional"):
        if key in query:
            raise BadQuery(f"an activated ability's cost is read from the card: drop {key!r}", key)
    raw: dict[str, Any] = query["spell"]
    if any(key not in ("permanent", "card", "ability") for key in raw):
        bad = next(k for k in raw if k not in ("permanent", "card", "ability"))
        raise UnknownField(f"unknown field {bad!r} of spell naming an ability", f"spell.{bad}")
    return raw


def turn_given(query: dict[str, Any]) -> bool:
    """Does the query's board give a ``turn``? Timing is checked only then (the board makes it
    optional)."""
    state_json = query.get("state")
    return isinstance(state_json, dict) and "turn" in state_json
