"""Sessions: boards kept in this process under a handle, changed by small changes.

``open`` keeps a board and answers its handle (128 random bits, :func:`secrets.token_urlsafe`: a
client of a shared server can't name another's board by counting);
``update`` applies a list of changes to it; ``close`` forgets it; every query that takes a
``state`` takes ``"board": HANDLE`` instead, with ``"changes"`` applied to the kept board first.
A CHANGE is one of::

    {"tap": ID}  {"untap": ID}  {"add": PERMANENT}  {"remove": ID}
    {"set": ID, "fields": {...permanent fields...}}
    {"player": NAME, "fields": {...player fields...}}
    {"turn": TURN}

In ``fields`` a ``null`` removes the field (its default applies again); a permanent's ``id`` and a
player's ``name`` can't be changed (other fields refer to them: remove the permanent and add it
again).  ``{"turn": null}`` removes the turn.  Tapping a tapped permanent leaves it tapped.

What a change makes is exactly the board that loading the changed board JSON would make: a
board version is its JSON (the store's own copy, never changed in place: a change copies what
it changes and shares the rest) and the :class:`~manasolver.models.state.GameState` loaded from
it.  Changes that only flip ``tapped``, ``sick`` or ``haste`` replace that one permanent in the
state (the loader reads those flags as they are), so the cards, the other permanents and what
the supply builder keeps per permanent are reused; every other change loads the changed JSON
again, which reuses the permanents and cards the loader keeps.

Changes apply in order and atomically: each is checked against the board the ones before it
made, and the first bad one is an error whose ``where`` names it (``changes[2].tap``,
``changes[0].add.card``, ``changes[1].fields.life``), with the kept board left as it was.

At most :data:`MAX_BOARDS` boards are kept, and at most :data:`MAX_MEMORY` bytes of them (each
board's footprint estimated from its JSON, :func:`footprint`); opening one more forgets the least
recently used until both hold, a board larger than the whole budget is refused, and a board
unused for :data:`IDLE_SECONDS` is forgotten.  An unknown, closed or forgotten handle is the
error ``unknown_board``.  The store is shared
by every thread (``serve``'s connections) under one lock; an update is computed outside it and
committed only if the board did not change meanwhile (else computed again).
"""

from __future__ import annotations

import copy
import dataclasses
import marshal
import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from manasolver.models.board.load import load_state
from manasolver.models.board.schema import clip, type_name
from manasolver.models.errors import (
    BadQuery,
    BadState,
    ManasolverError,
    UnknownBoard,
    UnknownField,
)
from manasolver.models.state import GameState
from manasolver.solver.service import boards as board_cache
from manasolver.solver.service.boards import Kept
from manasolver.solver.carry import carried, changes, effects_of

if TYPE_CHECKING:
    from manasolver.models.carddb import CardDB

__all__ = ["CHANGE_KINDS", "IDLE_SECONDS", "MAX_BOARDS", "MAX_CHANGES", "MAX_CHANGE_WORK", "MAX_MEMORY", "STORE",
           "Board", "SessionStore", "apply_answer", "apply_changes", "close_query", "footprint", "open_query",
           "resolve", "update_query"]

#: At most this many boards are kept (the least recently used is forgotten first).
MAX_BOARDS = 1000
#: The kept boards together take at most about this many bytes (``--session-memory``).
MAX_MEMORY = 512 * 1024 * 1024
#: A board unused this long (seconds) is forgotten.
IDLE_SECONDS = 3600.0
#: A kept board's footprint in memory against its ``marshal`` size (its JSON, the store's copy of
#: it and the loaded state): measured 6.2 on boards of 10,000 permanents with counters (10 MB).
_FOOTPRINT = 6
#: At most this many changes in one query.
MAX_CHANGES = 10_000
#: The work one query's changes may do, in permanents and cards loaded again (a change other than
#: tapping, untapping or a flag loads the whole board again): well under a second.
MAX_CHANGE_WORK = 100_000
#: Each kind of change and the keys its object has.
CHANGE_KINDS: dict[str, frozenset[str]] = {
    "tap": frozenset({"tap"}), "untap": frozenset({"untap"}), "add": frozenset({"add"}),
    "remove": frozenset({"remove"}), "set": frozenset({"set", "fields"}),
    "player": frozenset({"player", "fields"}), "turn": frozenset({"turn"}),
}
_SHAPES = ('{"tap": ID}, {"untap": ID}, {"add": PERMANENT}, {"remove": ID}, {"set": ID, "fields": {…}}, '
           '{"player": NAME, "fields": {…}} or {"turn": TURN}')
#: Permanent fields the loader reads as they are: a change of only these replaces one permanent.
_FLAGS = frozenset({"tapped", "sick", "haste"})


@dataclasses.dataclass(frozen=True, slots=True)
class Board:
    """One version of a kept board: its registration (JSON, state, card database), the
    ``cards`` value it was opened with, and its permanents' positions by id."""

    kept: Kept
    cards: str | None
    ids: dict[str, int]

    @property
    def json(self) -> dict[str, Any]:
        assert self.kept.json is not None
        return self.kept.json

    @property
    def state(self) -> GameState:
        return self.kept.state

    @staticmethod
    def of(json: dict[str, Any], state: GameState, db: CardDB, cards: str | None,
           ids: dict[str, int] | None = None) -> Board:
        if ids is None:
            ids = {p.id: i for i, p in enumerate(state.battlefield)}
        return Board(Kept(state, db, json), cards, ids)


def footprint(json: Any) -> int:
    """The bytes a kept board of JSON ``json`` is counted as taking: the size of its JSON, read as
    its ``marshal`` size without back-references (as long as its text, and as quick to get as a
    copy), times what the kept copy, the loaded state and the board's memos cost on top (an
    estimate, measured)."""
    try:  # version 2 writes every string out (later versions refer back to a string seen before)
        size = len(marshal.dumps(json, 2))
    except (ValueError, TypeError):
        size = len(repr(json))
    return size * _FOOTPRINT + board_cache.ANSWER_BYTES


class SessionStore:
    """The kept boards of this process, by handle, least recently used first, within a count, a
    byte budget and an idle time."""

    def __init__(self, limit: int = MAX_BOARDS, memory: int = MAX_MEMORY, idle: float = IDLE_SECONDS) -> None:
        self.limit = limit
        self.memory = memory
        self.idle = idle
        self._lock = threading.Lock()
        self._boards: OrderedDict[str, Board] = OrderedDict()
        self._sizes: dict[str, int] = {}
        self._used: dict[str, float] = {}
        self.bytes = 0  #: the footprints of the kept boards together

    def __len__(self) -> int:
        return len(self._boards)

    def configure(self, memory: int | None = None, idle: float | None = None) -> None:
        """Set the byte budget and the idle time (``serve --session-memory``), forgetting what no
        longer fits."""
        with self._lock:
            if memory is not None:
                self.memory = memory
            if idle is not None:
                self.idle = idle
            self._trim(time.monotonic())

    def open(self, state_json: object, db: CardDB, cards: str | None) -> str:
        """Keep the board ``state_json`` (loaded with ``db``; errors name the path inside it)
        and answer its new handle; past :attr:`limit` boards or :attr:`memory` bytes the least
        recently used go, and a board larger than the whole budget is refused."""
        json = _copy(state_json)
        size = footprint(json)
        if size > self.memory:
            raise BadQuery(f"this board would take about {size // 2**20} MB kept; the server keeps at most "
                           f"{self.memory // 2**20} MB of boards (serve --session-memory): send it as "
                           "\"state\" with each query instead", "state")
        state = load_state(json, db)
        if not isinstance(json, dict):  # a Mapping that is not a dict: kept as a dict
            json = dict(json)
        board = Board.of(json, state, db, cards)
        handle = secrets.token_urlsafe(16)
        now = time.monotonic()
        with self._lock:
            self._boards[handle] = board
            self._sizes[handle] = size
            self._used[handle] = now
            self.bytes += size
            board_cache.keep(board.kept)
            self._trim(now)
        return handle

    def _trim(self, now: float) -> None:
        """Forget boards idle too long, then the least recently used while over a limit (the lock held)."""
        boards = self._boards
        while boards:
            oldest = next(iter(boards))
            if len(boards) <= self.limit and self.bytes <= self.memory and now - self._used[oldest] <= self.idle:
                return
            self._forget(oldest)

    def _forget(self, handle: str) -> Board | None:
        board = self._boards.pop(handle, None)
        if board is not None:
            self.bytes -= self._sizes.pop(handle)
            del self._used[handle]
            board_cache.forget(board.kept)
        return board

    def get(self, handle: object) -> Board:
        """The current version of the board ``handle`` (now the most recently used)."""
        if not isinstance(handle, str):
            raise BadQuery(f"board must be a handle string from open, not {type_name(handle)}", "board")
        now = time.monotonic()
        with self._lock:
            self._trim(now)
            board = self._boards.get(handle)
            if board is None:
                raise UnknownBoard(f"no board {clip(handle)!r} is kept: it was never opened, was closed, or was "
                                   f"forgotten (the least recently used past {self.limit} boards or "
                                   f"{self.memory // 2**20} MB, or unused for {self.idle:g} s); open it again",
                                   "board")
            self._boards.move_to_end(handle)
            self._used[handle] = now
            return board

    def update(self, handle: object, changes: object) -> Board:
        """Apply ``changes`` to the board ``handle`` atomically and answer its new version."""
        while True:
            base = self.get(handle)
            new = apply_changes(base, changes)
            if new is base:
                return base
            # a change of flags shares the board's JSON but one permanent: the same footprint
            size = None if new.ids is base.ids else footprint(new.json)
            with self._lock:
                assert isinstance(handle, str)
                current = self._boards.get(handle)
                if current is None:
                    raise UnknownBoard(f"board {clip(handle)!r} was closed or forgotten during the update",
                                       "board")
                if current is base:
                    self._boards[handle] = new
                    self._boards.move_to_end(handle)
                    self._used[handle] = time.monotonic()
                    if size is not None:
                        self.bytes += size - self._sizes[handle]
                        self._sizes[handle] = size
                    board_cache.forget(base.kept)
                    board_cache.keep(new.kept)
                    self._trim(time.monotonic())
                    return new

    def close(self, handle: object) -> None:
        """Forget the board ``handle``."""
        self.get(handle)
        with self._lock:
            assert isinstance(handle, str)
            self._forget(handle)

    def clear(self) -> None:
        """Forget every board."""
        with self._lock:
            for handle in list(self._boards):
                self._forget(handle)


#: The store of this process: ``batch`` keeps its boards in it for the life of the process,
#: ``serve`` shares it across connections.
STORE = SessionStore()


# -- changes --------------------------------------------------------------------------------

def apply_changes(board: Board, changes: object) -> Board:
    """The board that ``changes`` (a list of CHANGE objects) make from ``board``, applied in
    order; ``board`` itself when they change nothing.  The first bad change raises an error
    whose ``where`` names it; ``board`` is never changed."""
    if not isinstance(changes, (list, tuple)):
        raise BadQuery(f"changes must be a list of changes ({_SHAPES}), not {type_name(changes)}", "changes")
    if len(changes) > MAX_CHANGES:
        raise BadQuery(f"{len(changes)} changes; at most {MAX_CHANGES} are accepted in one query", "changes")
    work = 0
    for i, change in enumerate(changes):
        before = board
        board = _apply(board, change, f"changes[{i}]")
        # a change that loads the board again costs its size; flipping a flag, a copy of one tuple
        size = len(board.state.battlefield) + sum(len(p.hand) + len(p.graveyard) for p in board.state.players)
        work += 1 + (size if board.kept.json is not before.kept.json and board.ids is not before.ids
                     else len(board.state.battlefield) // 32)
        if work > MAX_CHANGE_WORK:
            raise BadQuery(f"these changes load a board of {size} permanents and cards again too many times "
                           f"(past changes[{i}]); send them in several updates", "changes")
    return board


def _apply(board: Board, change: object, where: str) -> Board:
    kind = _kind(change, where)
    assert isinstance(change, Mapping)
    value = change[kind]
    if kind in ("tap", "untap"):
        return _set_flags(board, _position(board, value, f"{where}.{kind}"), {"tapped": kind == "tap"})
    if kind == "remove":
        k = _position(board, value, f"{where}.remove")
        field = board.json["battlefield"]
        return _reload(board, {**board.json, "battlefield": [*field[:k], *field[k + 1:]]}, where,
                       "", f"{where}.remove")
    if kind == "add":
        if not isinstance(value, Mapping):
            raise BadQuery(f"add must be a permanent object, not {type_name(value)}", f"{where}.add")
        field = list(board.json.get("battlefield", ()))
        prefix = f"battlefield[{len(field)}]"
        field.append(_copy(value))
        return _reload(board, {**board.json, "battlefield": field}, where, prefix, f"{where}.add")
    if kind == "turn":
        if value is not None and not isinstance(value, Mapping):
            raise BadQuery(f"turn must be a turn object or null, not {type_name(value)}", f"{where}.turn")
        json = {k: v for k, v in board.json.items() if k != "turn"}
        if value is not None:
            json["turn"] = _copy(value)
        return _reload(board, json, where, "turn", f"{where}.turn")
    fields = change.get("fields")
    if not isinstance(fields, Mapping):
        raise BadQuery(f"fields must be an object of the fields to change, not {type_name(fields)}",
                       f"{where}.fields")
    if kind == "set":
        k = _position(board, value, f"{where}.set")
        if "id" in fields:
            raise BadQuery("a permanent's id can't be changed (other fields refer to it): remove the "
                           "permanent and add it again", f"{where}.fields.id")
        if fields and fields.keys() <= _FLAGS and all(type(v) is bool for v in fields.values()):
            return _set_flags(board, k, dict(fields))
        field = list(board.json["battlefield"])
        field[k] = _merged(field[k], fields)
        return _reload(board, {**board.json, "battlefield": field}, where, f"battlefield[{k}]",
                       f"{where}.fields")
    if "name" in fields:
        raise BadQuery("a player's name can't be changed (controllers and the turn refer to it)",
                       f"{where}.fields.name")
    players = list(board.json["players"])
    j = next((n for n, p in enumerate(players) if isinstance(p, Mapping) and p.get("name") == value), None)
    if j is None:
        names = ", ".join(repr(p.name) for p in board.state.players)
        raise BadState(f"player {clip(str(value))!r} is not a player of the board (players: {names})",
                       f"{where}.player")
    players[j] = _merged(players[j], fields)
    return _reload(board, {**board.json, "players": players}, where, f"players[{j}]", f"{where}.fields")


def _kind(change: object, where: str) -> str:
    if not isinstance(change, Mapping):
        raise BadQuery(f"a change is one of {_SHAPES}, not {type_name(change)}", where)
    kinds = [k for k in change if k in CHANGE_KINDS and k != "fields"]
    if len(kinds) != 1:
        what = "names no kind of change" if not kinds else f"names {len(kinds)} kinds of change ({', '.join(kinds)})"
        raise BadQuery(f"a change {what}: it is one of {_SHAPES}", where)
    kind = str(kinds[0])
    for key in change:
        if key not in CHANGE_KINDS[kind]:
            raise UnknownField(f"unknown field {clip(str(key))!r} in a {kind!r} change", f"{where}.{key}")
    if "fields" in CHANGE_KINDS[kind] and "fields" not in change:
        raise BadQuery(f'a {kind!r} change needs "fields": an object of the fields to change', f"{where}.fields")
    return kind


def _position(board: Board, pid: object, where: str) -> int:
    """The position on the battlefield of the permanent ``pid`` names (ids are text; numbers
    are compared as text, as the loader reads them)."""
    if type(pid) is int:
        pid = str(pid)
    if not isinstance(pid, str):
        raise BadQuery(f"a permanent's id is a string, not {type_name(pid)}", where)
    k = board.ids.get(pid)
    if k is None:
        raise BadState(f"no permanent with id {clip(pid)!r} is on the board", where)
    return k


def _set_flags(board: Board, k: int, flags: dict[str, bool]) -> Board:
    """Set ``tapped``/``sick``/``haste`` of the permanent at ``k``: that permanent replaced, the
    rest of the state (cards, permanents, players) shared."""
    state = board.state
    perm = state.battlefield[k]
    if all(getattr(perm, name) is value for name, value in flags.items()):
        return board
    field = list(board.json["battlefield"])
    field[k] = {**field[k], **flags}
    battlefield = (*state.battlefield[:k], perm._replace(
        tapped=flags.get("tapped", perm.tapped), sick=flags.get("sick", perm.sick),
        haste=flags.get("haste", perm.haste)), *state.battlefield[k + 1:])
    return Board.of({**board.json, "battlefield": field}, dataclasses.replace(state, battlefield=battlefield),
                    board.kept.db, board.cards, board.ids)


def _reload(board: Board, json: dict[str, Any], where: str, prefix: str, target: str) -> Board:
    """The board loaded from the changed ``json``; a loader error under ``prefix`` (the changed
    part's path in the board) is moved to ``target`` (its path in the change), any other to the
    change, saying where in the board it was found."""
    try:
        state = load_state(json, board.kept.db)
    except ManasolverError as err:
        moved = copy.copy(err)
        path = err.where
        if prefix and (path == prefix or path.startswith((prefix + ".", prefix + "["))):
            moved.where = target + path[len(prefix):]
        else:
            moved.where = target
            if path:
                moved.message = f"{err.message} (at {path} of the board after this change)"
        raise moved from None
    return Board.of(json, state, board.kept.db, board.cards)


def _merged(entry: object, fields: Mapping[str, Any]) -> dict[str, Any]:
    """``entry`` (a permanent's or player's JSON) with ``fields`` set; a ``null`` removes one."""
    out = dict(entry) if isinstance(entry, Mapping) else {}
    for key, value in fields.items():
        if value is None:
            out.pop(key, None)
        else:
            out[key] = _copy(value)
    return out


def _copy(value: Any) -> Any:
    """A deep copy of JSON ``value`` (the caller may change theirs later; ours never changes)."""
    try:
        return marshal.loads(marshal.dumps(value))
    except (ValueError, TypeError):
        return copy.deepcopy(value)


# -- the queries ----------------------------------------------------------------------------

def open_query(query: dict[str, Any], store: SessionStore = STORE) -> dict[str, Any]:
    """``open``: keep the query's ``state``; ``{"board": HANDLE}``."""
    from manasolver.solver.service.decode import card_db
    if "state" not in query:
        raise BadQuery('missing "state": the board to keep', "state")
    try:
        handle = store.open(query["state"], card_db(query), query.get("cards"))
    except ManasolverError as err:
        raise (err if err.where else err.at("state")) from None
    return {"board": handle}


def update_query(query: dict[str, Any], store: SessionStore = STORE) -> dict[str, Any]:
    """``update``: apply the query's ``changes`` to its ``board``; ``{"board": HANDLE}``."""
    _board_of(query, store)
    if "changes" not in query:
        raise BadQuery('missing "changes": the list of changes to apply', "changes")
    store.update(query["board"], query["changes"])
    return {"board": query["board"]}


def close_query(query: dict[str, Any], store: SessionStore = STORE) -> dict[str, Any]:
    """``close``: forget the query's ``board``; ``{"closed": true}``."""
    _board_of(query, store)
    store.close(query["board"])
    return {"closed": True}


def resolve(query: dict[str, Any], store: SessionStore = STORE) -> dict[str, Any]:
    """A query that names ``"board"`` as the same query on the kept board's JSON (its
    ``"changes"`` applied to the kept board first); any other query as it is."""
    if "board" not in query:
        if "changes" in query:
            raise BadQuery('"changes" apply to a kept board: give "board", a handle from open', "changes")
        return query
    if "state" in query:
        raise BadQuery('give either "state" (a board) or "board" (a handle from open), not both', "board")
    board = _board_of(query, store)
    if "changes" in query:
        board = store.update(query["board"], query["changes"])
    out = {k: v for k, v in query.items() if k != "board" and k != "changes"}
    out["state"] = board.json
    if board.cards is not None:
        out["cards"] = board.cards
    return out


def _board_of(query: dict[str, Any], store: SessionStore) -> Board:
    """The kept board the query names; a ``cards`` file other than the one it was opened with
    is refused (the board's card names were read with that one)."""
    if "board" not in query:
        raise BadQuery('missing "board": a handle from open', "board")
    board = store.get(query["board"])
    if query.get("cards") is not None:
        from manasolver.solver.service.decode import card_db
        if card_db(query) is not board.kept.db:
            raise BadQuery(f"board {query['board']!r} was opened with "
                           f"{'the card file ' + repr(board.cards) if board.cards else 'the bundled cards'}; "
                           "a query on it can't name another card file", "cards")
    return board


def apply_answer(store: SessionStore, handle: str, state: GameState, player: str,
                 out: dict[str, Any]) -> dict[str, Any]:
    """``"apply": true``: the answer's payments (``pay``'s one, ``plan``'s in order) carried out
    on the kept board ``handle`` in one atomic update; the answer says ``"applied": true``.  An
    unpayable answer changes nothing."""
    if not out.get("payable"):
        return {**out, "applied": False}
    payments = [out["payment"]] if "payment" in out else list(out.get("payments", []))
    todo: list[dict[str, Any]] = []
    for payment in payments:
        eff = effects_of(state, player, payment)
        todo.extend(changes(state, eff))
        state = carried(state, eff)
    store.update(handle, todo)
    return {**out, "applied": True}
