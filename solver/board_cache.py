"""Boards kept between queries: recognised by content, or held by a session, and what is built
from each kept board.

A game client sends its whole board with every query, usually the same one again and again.
:func:`load_board` is the one way a query's ``state`` becomes a
:class:`~manasolver.models.state.GameState`:

* a board JSON object that a session keeps (:mod:`~manasolver.solver.sessions`) is found by its
  identity: the store's own objects, never changed after they are made;
* any other board is looked up by its content among the :data:`RECENT_LIMIT` boards seen last.
  The key is the board's :func:`marshal.dumps` bytes beside the card database it was read with:
  a byte-exact, typed serialisation made in C (``true``, ``1`` and ``1.0`` differ; so do
  ``[]`` and ``()``), compared in full by the dictionary lookup, so a board is never returned for
  different content, and a hash collision costs only a comparison.  The current ``marshal`` format
  is the fast key; it also writes which objects are shared, so on a miss the content key (format 2,
  without references) is asked, and a board found by it is found by the fast key from then on.
  Objects that ``marshal`` does not write (subclasses of ``str``, ``int`` …) are loaded every
  time.  Boards whose key is over :data:`MAX_KEY_BYTES` are not kept, and all kept keys together
  stay under :data:`MAX_CACHE_BYTES`.  Errors are never kept: a bad board is refused again every
  time it is sent;
* the card database is part of the key (a ``cards`` file or ``MANASOLVER_CARDS`` changes what a
  name means), by the identity of the :class:`~manasolver.models.carddb.CardDB` the query names.

Since a kept board is the same ``GameState`` object every time, everything cached per state
object downstream (the supply, the board's effects, the searches) is reused too.  Each kept
board also has a small memo, :func:`checked`, for the checks of what the engine does not model
that read the whole board (prohibitions, tap triggers, rules of paying): a check runs once per
board and key, and its refusal, when it refuses, is raised again as a fresh copy.

Thread-safe: the tables change under one lock; a lookup that races an eviction misses and loads.

>>> from manasolver.models.carddb import default_db
>>> board = {"players": [{"name": "you"}], "battlefield": [{"id": "f", "card": "Forest"}]}
>>> load_board(board, default_db()) is load_board(dict(board), default_db())
True
"""

from __future__ import annotations

import copy
import marshal
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import TYPE_CHECKING, Any, cast

from manasolver.models.board.load import load_state
from manasolver.models.errors import ManasolverError
from manasolver.models.state import GameState

if TYPE_CHECKING:
    from manasolver.models.carddb import CardDB

__all__ = ["MAX_CACHE_BYTES", "MAX_KEY_BYTES", "MEMO_LIMIT", "RECENT_LIMIT", "Kept", "checked", "clear",
           "content_key", "forget", "keep", "load_board", "recent_count"]

#: How many boards recognised by content are kept (the least recently used goes first).
RECENT_LIMIT = 64
#: A board whose serialisation is longer than this is not kept by content.
MAX_KEY_BYTES = 1 << 20
#: All keys of boards kept by content together stay under this many bytes.
MAX_CACHE_BYTES = 16 << 20
#: Entries of one board's memo of checks; past this it starts again empty.
MEMO_LIMIT = 256


class Kept:
    """A board kept between queries: its JSON (the store's own copy, ``None`` for a board kept
    by content), its loaded state, the card database it was read with, and its memo."""

    __slots__ = ("db", "json", "memo", "state")

    def __init__(self, state: GameState, db: CardDB, json: dict[str, Any] | None = None) -> None:
        self.state = state
        self.db = db
        self.json = json
        self.memo: dict[Hashable, tuple[tuple[object, ...], ManasolverError | None]] = {}


_LOCK = threading.Lock()
#: Kept boards by ``id`` of their JSON object and of their state (entries keep the objects alive).
_BY_JSON: dict[int, Kept] = {}
_BY_STATE: dict[int, Kept] = {}
#: Boards kept by content, least recently used first: (id of the database, content key) -> board;
#: and the same boards by their fast keys.
_RECENT: OrderedDict[tuple[int, bytes], _Entry] = OrderedDict()
_FAST: dict[tuple[int, bytes], _Entry] = {}
_recent_bytes = 0


def content_key(obj: object) -> bytes | None:
    """The typed serialisation of a board JSON object that depends on its content alone
    (``marshal`` format 2, without object references), or ``None`` when it has values that
    ``marshal`` does not write or is nested too deeply for it."""
    return _dumps(obj, 2)


def _dumps(obj: object, version: int) -> bytes | None:
    try:
        return marshal.dumps(cast(Any, obj), version)
    except (ValueError, TypeError, RecursionError):
        return None


class _Entry:
    """A board kept by content: its content key, and the faster keys seen for it."""

    __slots__ = ("aliases", "key", "kept", "size")

    def __init__(self, key: tuple[int, bytes], kept: Kept) -> None:
        self.key = key
        self.kept = kept
        self.aliases: list[tuple[int, bytes]] = []
        self.size = len(key[1])


#: Each entry may be found by this many fast keys besides its content key.
_MAX_ALIASES = 4


def load_board(obj: object, db: CardDB) -> GameState:
    """The :class:`GameState` of board JSON ``obj`` read with ``db``: a kept board's, or loaded
    (:func:`~manasolver.models.board.load.load_state`) and kept by content.

    Two keys find a board: the fast one, ``marshal``'s current format, which also writes which
    objects are shared (so equal boards built differently may differ in it), and on a miss the
    content key (:func:`content_key`), under which a board found registers its fast key too.
    Either key is a full typed serialisation: equal keys are equal content."""
    kept = _BY_JSON.get(id(obj))
    if kept is not None and kept.json is obj and kept.db is db:
        return kept.state
    fast = _dumps(obj, marshal.version)
    if fast is None or len(fast) > MAX_KEY_BYTES:
        return load_state(obj, db)
    fast_full = (id(db), fast)
    with _LOCK:
        entry = _FAST.get(fast_full)
        if entry is not None and entry.kept.db is db:
            _RECENT.move_to_end(entry.key)
            return entry.kept.state
    key = content_key(obj)
    if key is None or len(key) > MAX_KEY_BYTES:
        return load_state(obj, db)
    full = (id(db), key)
    with _LOCK:
        entry = _RECENT.get(full)
        if entry is not None and entry.kept.db is db:
            _RECENT.move_to_end(full)
            _alias(entry, fast_full)
            return entry.kept.state
    state = load_state(obj, db)
    _remember(full, fast_full, Kept(state, db))
    return state


def _alias(entry: _Entry, fast_full: tuple[int, bytes]) -> None:
    """Let ``entry`` be found by ``fast_full`` too (under the lock)."""
    global _recent_bytes
    if len(entry.aliases) < _MAX_ALIASES and fast_full not in _FAST:
        entry.aliases.append(fast_full)
        entry.size += len(fast_full[1])
        _recent_bytes += len(fast_full[1])
        _FAST[fast_full] = entry


def _remember(full: tuple[int, bytes], fast_full: tuple[int, bytes], kept: Kept) -> None:
    with _LOCK:
        old = _RECENT.get(full)
        if old is not None:  # another thread loaded it meanwhile: keep the first
            _alias(old, fast_full)
            return
        entry = _Entry(full, kept)
        _RECENT[full] = entry
        _BY_STATE[id(kept.state)] = kept
        global _recent_bytes
        _recent_bytes += entry.size
        _alias(entry, fast_full)
        while len(_RECENT) > RECENT_LIMIT or _recent_bytes > MAX_CACHE_BYTES:
            _, gone = _RECENT.popitem(last=False)
            _drop(gone)


def _drop(entry: _Entry) -> None:
    """Forget a board kept by content (under the lock, already out of ``_RECENT``)."""
    global _recent_bytes
    _recent_bytes -= entry.size
    for alias in entry.aliases:
        if _FAST.get(alias) is entry:
            del _FAST[alias]
    if _BY_STATE.get(id(entry.kept.state)) is entry.kept:
        del _BY_STATE[id(entry.kept.state)]


def recent_count() -> int:
    """How many boards are kept by content now."""
    return len(_RECENT)


def keep(kept: Kept) -> None:
    """Register a session's board version, so that :func:`load_board` finds it by its JSON and
    :func:`checked` by its state."""
    with _LOCK:
        if kept.json is not None:
            _BY_JSON[id(kept.json)] = kept
        _BY_STATE[id(kept.state)] = kept


def forget(kept: Kept) -> None:
    """Unregister a session's board version (closed, evicted or replaced by an update)."""
    with _LOCK:
        if kept.json is not None and _BY_JSON.get(id(kept.json)) is kept:
            del _BY_JSON[id(kept.json)]
        if _BY_STATE.get(id(kept.state)) is kept:
            del _BY_STATE[id(kept.state)]


def clear() -> None:
    """Forget every board kept by content (sessions' boards stay registered)."""
    with _LOCK:
        while _RECENT:
            _drop(_RECENT.popitem(last=False)[1])


def checked(state: GameState, key: Hashable, objects: tuple[object, ...], check: Callable[[], None]) -> None:
    """Run ``check`` (a guard that raises a :class:`ManasolverError` to refuse) once per kept
    board and ``key``; on a board that is not kept, every time.

    ``key`` must name everything ``check`` reads besides the board; objects it names by ``id``
    are passed in ``objects``, kept alive by the entry and compared by identity on a hit."""
    kept = _BY_STATE.get(id(state))
    if kept is None or kept.state is not state:
        check()
        return
    memo = kept.memo
    hit = memo.get(key)
    if hit is not None and len(hit[0]) == len(objects) and all(a is b for a, b in zip(hit[0], objects)):
        if hit[1] is not None:
            raise copy.copy(hit[1])
        return
    try:
        check()
    except ManasolverError as err:
        _store(memo, key, (objects, copy.copy(err)))
        raise
    _store(memo, key, (objects, None))


def _store(memo: dict[Hashable, tuple[tuple[object, ...], ManasolverError | None]], key: Hashable,
           value: tuple[tuple[object, ...], ManasolverError | None]) -> None:
    if len(memo) >= MEMO_LIMIT:
        memo.clear()
    memo[key] = value
