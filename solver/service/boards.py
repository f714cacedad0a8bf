"""Boards kept between queries: recognised by content, or held by a session, and what is built
from each kept board.

A game client sends its whole board with every query, usually the same one again and again.
:func:`load_board` is the one way a query's ``state`` becomes a
:class:`~manasolver.models.state.GameState`:

* a board JSON object that a session keeps (:mod:`~manasolver.solver.service.sessions`) is found by its
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
* a board that arrives as JSON text (a ``batch`` line) is recognised by that text before it is
  decoded: :func:`decode_query` compares the text of the line's ``state`` value with the texts
  of the boards kept by content (the :data:`TEXT_LIMIT` used last); a match is the kept board's
  own decoded object (found by identity from then on), so the board is neither decoded nor
  serialised again.  Such a board is known by that text (the text of a JSON value is that
  value; it is at hand, where serialising the decoded board would be most of what keeping it
  costs), under a print of it: its length and a few of its characters, evenly spaced, read without
  copying or hashing the text; a kept board found by the print is taken only when its text,
  kept beside it, is the line's.  The same board written otherwise (other spacing, escapes) is
  another board.  A text is remembered for :func:`decode_query` when its board is met the second
  time (its print met again): a client that sends a new board on every line pays nothing for
  it.  The text of a JSON object ends where its own brackets close, so a kept text found at the
  value's first character is the whole value, and equal text is equal content; any other text is
  decoded as usual and found by its print;
* the card database is part of the key (a ``cards`` file or ``MANASOLVER_CARDS`` changes what a
  name means), by the identity of the :class:`~manasolver.models.carddb.CardDB` the query names.

Since a kept board is the same ``GameState`` object every time, everything cached per state
object downstream (the board's view: the supply, the board's effects, the searches) is reused
too, the refusals of what the engine does not model among them
(:func:`~manasolver.solver.supply.unmodelled.once`).  Each kept board has a memo of
whole answers (:func:`answer_of`, :func:`keep_answer`), by the query's other fields: an answer
is a function of the board and those fields alone, and the protocol keeps only answers that no
time bound touched.

Thread-safe: the tables change under one lock; a lookup that races an eviction misses and loads.

>>> from manasolver.models.carddb import default_db
>>> board = {"players": [{"name": "you"}], "battlefield": [{"id": "f", "card": "Forest"}]}
>>> _ = load_board(board, default_db())  # met once: known by its key alone
>>> kept = load_board(dict(board), default_db())  # met again: loaded and kept
>>> load_board(dict(board), default_db()) is kept
True
"""

from __future__ import annotations

import marshal
import threading
from collections import OrderedDict
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, cast

from manasolver.models.board.load import load_state
from manasolver.models.state import GameState
from manasolver.solver.service.wire import too_deep

if TYPE_CHECKING:
    from manasolver.models.carddb import CardDB

__all__ = ["ANSWER_BYTES", "LOADED_DEPTH", "MAX_CACHE_BYTES", "MAX_KEY_BYTES", "MEMO_LIMIT", "RECENT_LIMIT",
           "TEXT_LIMIT", "Kept", "answer_of", "clear", "content_key", "decode_query", "forget",
           "identified", "keep", "keep_answer", "load_board", "pending_text", "read_query", "recent_count"]

#: How many boards recognised by content are kept (the least recently used goes first).
RECENT_LIMIT = 64
#: A board whose serialisation is longer than this is not kept by content.
MAX_KEY_BYTES = 1 << 20
#: All keys of boards kept by content together stay under this many bytes.
MAX_CACHE_BYTES = 16 << 20
#: Entries of a kept board's memo of answers; past this it starts again empty.
MEMO_LIMIT = 256
#: The bytes of answer text one board's memo of answers holds at most (past this it starts again).
ANSWER_BYTES = 64 << 10
#: How many board texts :func:`decode_query` compares a ``state`` with (the most recently used).
TEXT_LIMIT = 32


class Kept:
    """A board kept between queries: its JSON (the store's own copy, ``None`` for a board kept
    by content), its loaded state, the card database it was read with, and its memo
    of answers (the answer's JSON text and its ``marshal`` bytes, by query key)."""

    __slots__ = ("answer_bytes", "answers", "db", "json", "state")

    def __init__(self, state: GameState, db: CardDB, json: dict[str, Any] | None = None) -> None:
        self.state = state
        self.db = db
        self.json = json
        self.answers: dict[bytes, tuple[str, bytes]] = {}
        self.answer_bytes = 0


_LOCK = threading.Lock()
#: Kept boards by ``id`` of their JSON object (entries keep the objects alive).
_BY_JSON: dict[int, Kept] = {}
#: What finds a board known by content: (id of the database, content key), or for a board read
#: from a line's text, (id of the database, the print of that text: :func:`_load_text`).
_Key = tuple[int, bytes] | tuple[int, str, int]
#: Boards known by content, least recently used first: key -> the kept board, or ``None`` for a
#: board met once (known by its key alone); and the kept boards by their fast keys.
_RECENT: OrderedDict[_Key, _Entry | None] = OrderedDict()
_FAST: dict[tuple[int, bytes], _Entry] = {}
_recent_bytes = 0
#: Boards kept by content whose JSON text a query line gave: the text's print
#: (:func:`_text_print`) -> [(text, decoded object, entry)], the most recently used texts (at
#: most :data:`TEXT_LIMIT`) in ``_TEXTS``, and each text's decoded object by ``id``.
_BY_PRINT: dict[tuple[str, int], list[tuple[str, dict[str, Any], _Entry]]] = {}
_TEXTS: OrderedDict[str, tuple[dict[str, Any], _Entry]] = OrderedDict()
_LENGTHS: dict[int, int] = {}
_CANON: dict[int, tuple[dict[str, Any], _Entry]] = {}
#: Per thread: the ``state`` object :func:`decode_query` decoded last, the line and where in it
#: the object's text starts and ends, and whether :func:`load_board` has loaded it (a list of the
#: five: the last one set when it has), until :func:`load_board` keeps that board or the next line.
_PENDING = threading.local()
#: How many characters a print of a board text takes (:func:`_text_print`).
_PRINT = 64


def _text_print(text: str, start: int, end: int) -> tuple[str, int]:
    """The print of the board text ``text[start:end]``: about :data:`_PRINT` of its characters,
    evenly spaced from one end to the other (all of a text shorter than twice that), and its
    length.  Two boards of a game differ in length or somewhere along their text: characters from
    one place (its middle) would be the same for boards that differ elsewhere, and such a board met
    once would be taken for one met again, and kept.  Read without copying or hashing the whole
    text (one slice with a step, in C), and the same for the text alone as inside a line; equal
    prints are not equal texts, so a board found by its print is taken only when its text is the
    one read."""
    step = (end - start) // _PRINT or 1
    return text[start + step // 2:end:step], end - start


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
    """A board kept by content: its key, its kept board, the faster keys seen for it, and for a
    board kept from a line's text, that text (``source``: what a text with the same print must be)."""

    __slots__ = ("aliases", "key", "kept", "size", "source", "texts")

    def __init__(self, key: _Key, kept: Kept, source: str | None = None) -> None:
        self.key = key
        self.kept = kept
        self.source = source
        self.aliases: list[tuple[int, bytes]] = []
        self.texts: list[str] = []
        self.size = len(key[1]) + (len(source) if source is not None else 0)


#: Each entry may be found by this many fast keys besides its content key.
_MAX_ALIASES = 4


def load_board(obj: object, db: CardDB) -> GameState:
    """The :class:`GameState` of board JSON ``obj`` read with ``db``: a kept board's, or loaded
    (:func:`~manasolver.models.board.load.load_state`) and kept by content.

    Two keys find a board: the fast one, ``marshal``'s current format, which also writes which
    objects are shared (so equal boards built differently may differ in it), and on a miss the
    content key (:func:`content_key`), under which a board found registers its fast key too.
    Either key is a full typed serialisation: equal keys are equal content.  A board that
    :func:`decode_query` decoded from a line's text is known by that text instead
    (:func:`_load_text`).

    A board met for the first time is known by its key alone, and is loaded and kept when it is
    met again: a client that sends a new board on every line would otherwise have each line's
    loaded board held until :data:`RECENT_LIMIT` later lines pushed it out, and the memory those
    boards hold made every fresh line 5-10% slower (measured on boards of the real decks)."""
    # a board decoded from this line's text (the common case: first); no other finds it by identity
    # (a session's JSON is its store's copy, and a board text's object is found by it once the
    # object is kept, which ends its pending)
    pending = getattr(_PENDING, "value", None)
    if pending is not None and pending[0] is obj:
        return _load_text(obj, db, pending)
    kept = _BY_JSON.get(id(obj))
    if kept is not None and kept.json is obj and kept.db is db:
        return kept.state
    canon = _CANON.get(id(obj))
    if canon is not None and canon[0] is obj:
        known = canon[1]
        if known.kept.db is db:
            with _LOCK:
                if known.key in _RECENT:
                    _RECENT.move_to_end(known.key)
            return known.kept.state
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
    full: _Key = (id(db), key)
    entry = _RECENT.get(full)  # (one lookup, atomic: a board met once, the common case, takes no lock)
    if entry is not None and entry.kept.db is db:
        with _LOCK:
            if full in _RECENT:
                _RECENT.move_to_end(full)
                _alias(entry, fast_full)
        return entry.kept.state
    state = load_state(obj, db)
    _remember(full, fast_full, state, db)
    return state


#: The place of ``loaded`` in a line's board note (``[board, line, start, end, loaded]``).
_LOADED = 4


def _load_text(obj: dict[str, Any], db: CardDB, pending: list[Any]) -> GameState:
    """:func:`load_board` of a board that :func:`decode_query` decoded from ``line[start:end]``
    (``pending`` is ``[obj, line, start, end, loaded]``), known by the print of its text
    (:func:`_text_print`), so that a board met once (the common case of a client sending a new
    board every line) is neither copied nor hashed whole; a kept board found by its print is taken
    only when its text is the line's.  Once its state is at hand, ``pending`` says it loaded
    (:func:`read_query`)."""
    _board, line, start, end, _loaded = pending
    # the print of _text_print, made here: a call fewer on every line (a change there is a change here)
    step = (end - start) // _PRINT or 1
    full: _Key = (id(db), line[start + step // 2:end:step], end - start)
    entry = _RECENT.get(full)
    if entry is not None and entry.kept.db is db and entry.source is not None \
            and len(entry.source) == end - start and line.startswith(entry.source, start):
        pending[_LOADED] = True
        with _LOCK:
            if full in _RECENT:
                _RECENT.move_to_end(full)
                _text_alias(entry, obj)
        return entry.kept.state
    state = load_state(obj, db)
    pending[_LOADED] = True
    if entry is None:  # as _remember knows a board met for the first time, without its calls
        global _recent_bytes
        with _LOCK:
            if full not in _RECENT:
                _RECENT[full] = None
                _recent_bytes += len(full[1])
                while len(_RECENT) > RECENT_LIMIT or _recent_bytes > MAX_CACHE_BYTES:
                    key, old = _RECENT.popitem(False)  # (last=False: the least recently used)
                    if old is None:
                        _recent_bytes -= len(key[1])
                    else:
                        _drop(key, old)
                return state
    _remember(full, None, state, db, obj)
    return state


def identified(obj: object, db: Callable[[], CardDB]) -> Kept | None:
    """The kept board that ``obj`` is by identity (a session's JSON, or the decoded object of a
    kept board's text), read with the database ``db()`` (asked only when ``obj`` is one); ``None``
    for any other object."""
    kept = _BY_JSON.get(id(obj))
    if kept is not None and kept.json is obj and kept.db is db():
        return kept
    canon = _CANON.get(id(obj))
    if canon is None or canon[0] is not obj:
        return None
    found = canon[1].kept
    return found if found.db is db() else None


def _text_alias(entry: _Entry, obj: object) -> None:
    """Let ``entry`` be found by the text ``obj`` was decoded from, when :func:`decode_query`
    decoded it in this thread (under the lock)."""
    text = pending_text(obj)
    if text is None:
        return
    _PENDING.value = None
    if text in _TEXTS or len(entry.texts) >= _MAX_ALIASES or len(text) > _MAX_TEXT:
        return
    assert isinstance(obj, dict)
    global _recent_bytes
    entry.texts.append(text)
    entry.size += len(text)
    _recent_bytes += len(text)
    _TEXTS[text] = (obj, entry)
    _BY_PRINT.setdefault(_text_print(text, 0, len(text)), []).append((text, obj, entry))
    _LENGTHS[len(text)] = _LENGTHS.get(len(text), 0) + 1
    _CANON[id(obj)] = (obj, entry)
    while len(_TEXTS) > TEXT_LIMIT:
        _drop_text(next(iter(_TEXTS)))


def _drop_text(text: str) -> None:
    """Forget one board text (under the lock)."""
    global _recent_bytes
    obj, entry = _TEXTS.pop(text)
    found = _text_print(text, 0, len(text))
    rest = [c for c in _BY_PRINT.get(found, ()) if c[0] != text]
    if rest:
        _BY_PRINT[found] = rest
    else:
        _BY_PRINT.pop(found, None)
    left = _LENGTHS[len(text)] - 1
    if left:
        _LENGTHS[len(text)] = left
    else:
        del _LENGTHS[len(text)]
    if _CANON.get(id(obj), (None,))[0] is obj:
        del _CANON[id(obj)]
    if text in entry.texts:
        entry.texts.remove(text)
        entry.size -= len(text)
        _recent_bytes -= len(text)


def _alias(entry: _Entry, fast_full: tuple[int, bytes]) -> None:
    """Let ``entry`` be found by ``fast_full`` too (under the lock)."""
    global _recent_bytes
    if len(entry.aliases) < _MAX_ALIASES and fast_full not in _FAST:
        entry.aliases.append(fast_full)
        entry.size += len(fast_full[1])
        _recent_bytes += len(fast_full[1])
        _FAST[fast_full] = entry


def _remember(full: _Key, fast_full: tuple[int, bytes] | None, state: GameState, db: CardDB,
              obj: object = None) -> None:
    """Know the board of key ``full``, loaded as ``state``: met for the first time, by its key
    alone (no entry is made for it); met again, kept, and found from then on by its fast key, or
    for a board that :func:`decode_query` decoded from ``obj``'s text, by that text too."""
    global _recent_bytes
    with _LOCK:
        if full not in _RECENT:  # its text is remembered when the board is met again: a client that
            # sends each board once (a new board every line) pays nothing for recognising texts
            _RECENT[full] = None
            _recent_bytes += len(full[1])
        else:
            _RECENT.move_to_end(full)
            entry = _RECENT[full]
            if entry is None:  # met again: kept from now on
                source = None if fast_full is not None else pending_text(obj)
                entry = _RECENT[full] = _Entry(full, Kept(state, db), source)
                _recent_bytes += entry.size - len(full[1])
            # else another thread kept it meanwhile (or, for a text, another board of that print): the first stays
            if fast_full is not None:
                _alias(entry, fast_full)
            elif entry.source == pending_text(obj):
                _text_alias(entry, obj)
        _trim()


def _trim() -> None:
    """Forget the least recently used boards known by content while there are more than
    :data:`RECENT_LIMIT` or their keys are over :data:`MAX_CACHE_BYTES` (under the lock)."""
    global _recent_bytes
    while len(_RECENT) > RECENT_LIMIT or _recent_bytes > MAX_CACHE_BYTES:
        key, entry = _RECENT.popitem(last=False)
        if entry is None:  # met once: its key alone
            _recent_bytes -= len(key[1])
        else:
            _drop(key, entry)


def _drop(key: _Key, entry: _Entry | None) -> None:
    """Forget the board known by content under ``key`` (under the lock, already out of ``_RECENT``)."""
    global _recent_bytes
    if entry is None:  # met once: its key alone
        _recent_bytes -= len(key[1])
        return
    for text in list(entry.texts):
        _drop_text(text)
    _recent_bytes -= entry.size
    for alias in entry.aliases:
        if _FAST.get(alias) is entry:
            del _FAST[alias]


def recent_count() -> int:
    """How many boards are known by content now (kept, or met once and known by their key)."""
    return len(_RECENT)


def keep(kept: Kept) -> None:
    """Register a session's board version, so that :func:`load_board` finds it by its JSON."""
    with _LOCK:
        if kept.json is not None:
            _BY_JSON[id(kept.json)] = kept


def forget(kept: Kept) -> None:
    """Unregister a session's board version (closed, evicted or replaced by an update)."""
    with _LOCK:
        if kept.json is not None and _BY_JSON.get(id(kept.json)) is kept:
            del _BY_JSON[id(kept.json)]


def clear() -> None:
    """Forget every board kept by content (sessions' boards stay registered)."""
    with _LOCK:
        while _RECENT:
            _drop(*_RECENT.popitem(last=False))


# -- whole answers -----------------------------------------------------------------------------

def answer_of(kept: Kept, key: bytes) -> tuple[str, bytes] | None:
    """The answer kept for query ``key`` on ``kept``: its JSON text and its ``marshal`` bytes."""
    return kept.answers.get(key)


def keep_answer(kept: Kept, key: bytes, text: str, blob: bytes) -> None:
    """Keep the answer of query ``key`` on ``kept`` (an answer that no time bound touched).  A
    board's memo holds at most :data:`MEMO_LIMIT` answers and :data:`ANSWER_BYTES` of text; past
    either it starts again empty."""
    size = len(text) + len(blob) + len(key)
    if size > ANSWER_BYTES // 4:
        return
    if len(kept.answers) >= MEMO_LIMIT or kept.answer_bytes + size > ANSWER_BYTES:
        kept.answers = {}
        kept.answer_bytes = 0
    kept.answers[key] = (text, blob)
    kept.answer_bytes += size


# -- query lines -------------------------------------------------------------------------------

#: The longest board text that :func:`decode_query` keeps for recognising a board.
_MAX_TEXT = 256 << 10
#: What :func:`decode_query` puts in place of a ``state`` value's text to decode the rest: an
#: integer no board is, found back as the top-level ``state`` only where it was put.
_MARKER = "918723645501982736455"
_MARKER_VALUE = int(_MARKER)
_Scan = Callable[[str, int], tuple[Any, int]]


def decode_query(text: str, scan: _Scan) -> dict[str, Any] | None:
    """:func:`read_query`'s query alone."""
    found = read_query(text, scan)
    return None if found is None else found[0]


def read_query(text: str, scan: _Scan) -> tuple[dict[str, Any], list[Any] | None] | None:
    """The JSON object ``text`` (one query) as the decoder whose ``scan_once`` is ``scan`` decodes
    it (JSON whitespace around it), except that a ``state`` object whose text is a kept board's is
    that board's own decoded object (:func:`load_board` then finds the board by identity, and
    a board met here again is found by its text from then on).  ``None`` when
    ``text`` has no ``state`` object, is not a JSON object or nests deeper than
    :data:`~manasolver.solver.service.wire.MAX_DEPTH`: the caller decodes it as usual (and so
    gives the usual error).  Beside the query, the note of a board whose depth is not read yet
    (``[board, text, start, end, loaded]``, ``loaded`` set once :func:`load_board` has its state),
    else ``None``.

    The ``state`` value is cut out of the text (its text ends where its own brackets close:
    a kept text found at the value's first character is the whole value), :data:`_MARKER`
    put in its place, and the rest scanned: the top-level ``state`` is then the marker only
    when it stood at that place, as the marker's digits occur nowhere else in the rest.

    The depth is read here from the rest alone (where the marker stands, one level down, the
    board stood); the board's own depth is read only when it matters:

    * a kept board's text: it was kept from a board that loaded, so it nests as a board that loads
      does;
    * a board met here for the first time (its text at most :data:`_MAX_TEXT` long; a longer one
      has the whole line's depth read here): its depth is left unread, and its note says so until
      :func:`load_board` has loaded it.  A board that loads nests at most :data:`LOADED_DEPTH`
      levels: the loader reads every field of every object it is given and refuses a key it does
      not know, and each value it accepts is a string, a number, a boolean, null, or one of the
      board's own objects and lists (players, hands, a library's top cards, a card's
      characteristics and ``colors``, a permanent's ``counters``, ``chosen``, ``imprinted`` cards
      and ``activated_this_turn``), so any value nested deeper is refused where it stands, or
      makes an earlier check fail.  A board that loaded, inside a rest within
      the bound, makes a line within the bound; a line whose board did not load (its answer an
      error, or a query that loads a copy, as ``open`` does) has the whole line's depth read by
      the caller, whose too-deep answer then replaces the line's answer."""
    at = text.find('"state"')
    for _ in range(4):
        if at < 0:
            break
        if text.startswith(": {", at + 7):  # as a JSON writer spaces it: no whitespace to skip
            start = at + 9
        else:
            start = _blank_end(text, at + 7)
            start = _blank_end(text, start + 1) if text[start:start + 1] == ":" else -1
        if start >= 0 and text[start:start + 1] == "{":
            got = _kept_text(text, start) if _LENGTHS else None
            try:
                obj, end = scan(text, start) if got is None else got
                rest = text[:start] + _MARKER + text[end:]
                out, stop = scan(rest, 0 if rest[:1] == "{" else _blank_end(rest, 0))
            except (ValueError, StopIteration, RecursionError):
                break
            if stop != len(rest) and _blank_end(rest, stop) != len(rest):  # more than whitespace after it
                break
            if type(out) is dict and type(out.get("state")) is int and out["state"] == _MARKER_VALUE \
                    and rest.count(_MARKER) == 1:
                fresh = got is None and end - start <= _MAX_TEXT and type(obj) is dict
                if too_deep(rest) or (got is None and not fresh and too_deep(text)):
                    break
                out["state"] = obj
                # the board decoded here, where its text is and whether it loaded, until load_board
                # keeps it or the next line
                note = _PENDING.value = [obj, text, start, end, False] if fresh else None
                return out, note
        at = text.find('"state"', at + 7)
    _PENDING.value = None
    return None


#: The deepest nesting of a board that loads, the board object itself one level: a player's
#: library's top cards (board, ``players``, a player, ``library``, ``top``, a card, its ``colors``).
LOADED_DEPTH = 7


def pending_text(obj: object) -> str | None:
    """The JSON text :func:`decode_query` decoded board object ``obj`` from in this thread (the
    last board it decoded, not kept yet), or ``None``."""
    pending = getattr(_PENDING, "value", None)
    return pending[1][pending[2]:pending[3]] if pending is not None and pending[0] is obj else None


def _blank_end(text: str, i: int) -> int:
    """Where the JSON whitespace from ``i`` ends."""
    n = len(text)
    while i < n and text[i] in " \t\n\r":
        i += 1
    return i


def _kept_text(text: str, start: int) -> tuple[dict[str, Any], int] | None:
    """The decoded object and end of the kept board text that ``text`` has at ``start``."""
    if not _LENGTHS:
        return None
    limit = len(text)
    for length in list(_LENGTHS):
        end = start + length
        if end >= limit:
            continue
        step = length // _PRINT or 1  # the print of _text_print, made here: no call per kept length and line
        found = _BY_PRINT.get((text[start + step // 2:end:step], length))
        if found is None:
            continue
        for candidate, obj, _entry in found:
            if text.startswith(candidate, start):
                with _LOCK:
                    if candidate in _TEXTS:
                        _TEXTS.move_to_end(candidate)
                return obj, end
    return None
