"""The JSON protocol: one query object in, one answer object out.

:func:`answer` never raises: errors of input come back as
``{"error": {"code", "message", "where"}}`` answers, and so does anything the
engine does not support.  The CLI, ``batch`` and the Python API all go through
it.  Heavy modules (the solvers) are imported only by the queries that need them.

This module checks a query's name and fields, resolves a session's board and hands the query to
its handler (:mod:`~manasolver.solver.service.handlers`); the text a query arrives as is read with
the bounds of :mod:`~manasolver.solver.service.wire`.  A payment query travels one way: its fields
are decoded (:mod:`~manasolver.solver.service.decode`), the spell is cast or the ability activated
up to its payment (:mod:`~manasolver.solver.casting.build`; a spell that can't be cast at all, or not
now, is answered with its reason), what the engine does not model is refused
(:mod:`~manasolver.solver.supply.unmodelled`), the query is asked
(:mod:`~manasolver.solver.queries`) and its answer encoded.

A query on a kept board (a session's, or a board that a ``batch`` line's text showed to be one
seen before, :mod:`~manasolver.solver.service.boards`) whose answer no time bound touched is
answered from that board's memo the next time the same fields are asked of the same version:
an answer is a function of the board and the query's fields alone.

>>> answer({"query": "mana_value", "cost": "{2/W}{2/U}{2/B}{2/R}{2/G}"})
{'mana_value': 10, 'colors': ['W', 'U', 'B', 'R', 'G']}
"""

from __future__ import annotations

import json
import marshal
import time
from types import ModuleType
from typing import TYPE_CHECKING, Any

from manasolver.models.errors import (
    BadQuery,
    ManasolverError,
    UnknownField,
    Unsupported,
)
from manasolver.solver.budget import query_budget
from manasolver.solver.service import decode
from manasolver.solver.service.decode import load_state_field
from manasolver.solver.service.handlers import HANDLERS, answer_json, build_request
from manasolver.solver.service.wire import (
    DECODE,
    JSON_DECODER,
    MAX_DEPTH,
    MAX_LINE,
    SCAN,
    TOO_DEEP,
    TooLong,
    bounded_lines,
    deep_id,
    encode_string,
    finite_float,
    no_constant,
    not_json,
    too_deep,
    unwritable,
)

if TYPE_CHECKING:
    from manasolver.solver.service.boards import Kept
    from manasolver.solver.service.sessions import SessionStore

# the text's bounds and the handlers are re-exported: the protocol is the one name callers import
__all__ = ["JSON_DECODER", "MAX_DEPTH", "MAX_LINE", "QUERIES", "TOO_DEEP", "TooLong", "answer", "answer_json",
           "answer_line",
           "answer_line_text", "answer_text", "bounded_lines", "build_request", "kept_answer_text",
           "load_state_field", "not_json", "too_deep"]

#: Every query of the protocol and the fields each accepts besides the common ones.
QUERIES: dict[str, frozenset[str]] = {
    "pay": frozenset({"cost", "state", "spell", "x", "modifiers", "alternative", "convoke", "delve",
                      "improvise", "policy", "backend", "additional", "sources", "apply"}),
    "can_pay": frozenset({"cost", "state", "spell", "x", "modifiers", "alternative", "convoke", "delve",
                          "improvise", "policy", "backend", "additional", "sources"}),
    "payments": frozenset({"cost", "state", "spell", "x", "modifiers", "alternative", "convoke", "delve",
                           "improvise", "policy", "limit", "backend", "additional", "sources"}),
    "max_x": frozenset({"cost", "state", "spell", "modifiers", "alternative", "convoke", "delve",
                        "improvise", "policy", "backend", "additional", "sources"}),
    "guide": frozenset({"cost", "state", "spell", "x", "modifiers", "alternative", "convoke", "delve",
                        "improvise", "policy", "additional", "sources", "partial"}),
    "options": frozenset({"state", "limit", "detail"}),
    "could_produce": frozenset({"state", "detail"}),
    "validate": frozenset({"cost", "state", "spell", "x", "modifiers", "alternative", "convoke", "delve",
                           "improvise", "payment", "additional"}),
    "mana_value": frozenset({"cost", "card", "zone", "x"}),
    "counts": frozenset({"state"}),
    "card": frozenset({"card"}),
    "plan": frozenset({"costs", "state", "policy", "apply", "sources"}),
    "open": frozenset({"state"}),
    "update": frozenset({"board", "changes"}),
    "close": frozenset({"board"}),
}
#: Sessions: a query that takes a ``state`` takes a kept ``board`` instead, and ``changes`` to it.
QUERIES.update({name: fields | {"board", "changes"} for name, fields in QUERIES.items()
                if "state" in fields and name != "open"})
#: The queries that handle ``board`` themselves (:mod:`~manasolver.solver.service.sessions`).
_SESSION_QUERIES = frozenset({"open", "update", "close"})
_COMMON = frozenset({"query", "id", "player", "cards"})
_MAX_LIMIT = 100_000
#: The fields each query accepts.
_ALLOWED = {name: fields | _COMMON for name, fields in QUERIES.items()}



def answer(query: Any) -> dict[str, Any]:
    """Answer one protocol query (a decoded JSON object); never raises."""
    return _answer(query)


def _answer(query: Any, fresh: bool = False) -> dict[str, Any]:
    """:func:`answer`; ``fresh`` as :func:`_answer_text` takes it."""
    refused = deep_id(query)
    if refused is not None:
        return refused
    qid = query.get("id") if isinstance(query, dict) else None
    slot = None if fresh else _memo_slot(query)
    hit = None if slot is None else slot[0].answers.get(slot[1])
    result = _compute(query, slot)[0] if hit is None else marshal.loads(hit[1])
    if qid is not None:
        result = {"id": qid, **result}
    return result


def answer_text(query: Any) -> str:
    """The JSON text of :func:`answer`'s answer (``json.dumps`` of it), as ``batch`` writes it:
    an answer kept for a kept board is written from its kept text.  Never raises: an answer that
    can't be written (a value nested too deeply) is answered with the error saying so."""
    return _answer_text(query)[0]


def _answer_text(query: Any, fresh: bool = False) -> tuple[str, bool]:
    """:func:`answer_text`'s text, and whether it is an error answer; ``fresh`` for a query whose
    ``state`` is a board object just decoded from a line's text (never a kept board: no memo of
    answers is looked up for it)."""
    refused = deep_id(query)
    if refused is not None:
        return json.dumps(refused), True
    qid = query.get("id") if isinstance(query, dict) else None
    slot = None if fresh else _memo_slot(query)
    hit = None if slot is None else slot[0].answers.get(slot[1])
    if hit is None:
        result, text = _compute(query, slot)
        try:
            if qid is not None:
                return _dumps({"id": qid, **result}), "error" in result
            return (text if text is not None else _dumps(result)), "error" in result
        except (ValueError, TypeError, RecursionError, MemoryError) as err:
            return json.dumps(unwritable(err)), True
    return _kept_text(hit[0], qid), False  # (a kept answer is never an error)


def kept_answer_text(query: Any) -> str | None:
    """:func:`answer_text`'s answer when a session board keeps it already (the same query asked
    before on that board), else ``None``: nothing is computed, so a server may answer it where
    it reads requests instead of handing it to the engine's threads."""
    if type(query) is not dict or "board" not in query or "state" in query or deep_id(query) is not None:
        return None
    slot = _memo_slot(query)
    hit = None if slot is None else slot[0].answers.get(slot[1])
    return None if hit is None else _kept_text(hit[0], query.get("id"))


#: ``json.dumps``'s C encoder (its default settings), made once rather than for every answer, or
#: ``None`` where the interpreter has none (``json.dumps`` is then called).  It does not look for
#: circular references: an answer is a tree (decoded JSON and the engine's own new objects), and a
#: value nested too deeply raises ``RecursionError`` as ``json.dumps`` does.
_MAKE_ENCODER = getattr(json.encoder, "c_make_encoder", None)
_ENCODE = None if _MAKE_ENCODER is None else _MAKE_ENCODER(
    None, json.JSONEncoder().default, json.encoder.encode_basestring_ascii, None, ": ", ", ", False, False, True)


def _dumps(answer: dict[str, Any]) -> str:
    """``json.dumps(answer)``, with the encoder made once (:data:`_ENCODE`)."""
    return json.dumps(answer) if _ENCODE is None else "".join(_ENCODE(answer, 0))


def _kept_text(text: str, qid: Any) -> str:
    """A kept answer's JSON text with the query's ``id`` (``json.dumps({"id": qid, **answer})``)."""
    if qid is None:
        return text
    # a kept answer is a non-empty object without "id"
    head = str(qid) if type(qid) is int else encode_string(qid) if type(qid) is str else json.dumps(qid)
    return '{"id": ' + head + ", " + text[1:]


#: The queries whose answers a kept board keeps (:func:`~manasolver.solver.service.boards.keep_answer`):
#: each answer a function of the board and the query's other fields alone.
_MEMO_QUERIES = frozenset({"pay", "can_pay", "payments", "max_x", "options", "could_produce", "counts", "validate"})
#: Fields that are not part of an answer's key: the board is the kept board itself.
_NOT_KEY = frozenset({"id", "state", "board"})
#: An answer that took longer than this is not kept: every stage bounded by the clock (CP-SAT,
#: the enumerations, ``options``) has a longer bound, so an answer this quick met none of them.
_MEMO_SECONDS = 0.1


def _memo_slot(query: Any) -> tuple[Kept, bytes] | None:
    """The kept board a query is on and its key there (its fields but ``id`` and the board),
    for a query of :data:`_MEMO_QUERIES` on a session board or on a board that
    :func:`~manasolver.solver.service.boards.identified` knows; ``None`` for any other."""
    if type(query) is not dict or query.get("query") not in _MEMO_QUERIES or "changes" in query or "apply" in query:
        return None
    try:
        if "board" in query:
            if "state" in query:
                return None
            kept = _session_store().get(query["board"]).kept
            if query.get("cards") is not None and decode.card_db(query) is not kept.db:
                return None
        else:
            found = (_BOARD_CACHE or _board_cache()).identified(query.get("state"), lambda: decode.card_db(query))
            if found is None:
                return None
            kept = found
        key = marshal.dumps({k: v for k, v in query.items() if k not in _NOT_KEY})
    except (ManasolverError, ValueError, TypeError, RecursionError):
        return None
    return kept, key


def _compute(query: Any, slot: tuple[Kept, bytes] | None) -> tuple[dict[str, Any], str | None]:
    """The answer of ``query`` worked out; kept in ``slot`` (with its JSON text, also answered)
    when no time bound touched it."""
    start = time.perf_counter() if slot is not None else 0.0
    try:
        with query_budget() as deadline:  # one time budget for the whole query (solver/budget.py)
            result = _dispatch(query)
    except ManasolverError as err:
        return err.to_json(), None
    except RecursionError:
        return BadQuery("input is nested too deeply").to_json(), None
    except MemoryError:
        return BadQuery("input is too large for memory").to_json(), None
    except Exception as err:  # noqa: BLE001 - a bug must still be an answer, never a crash
        return Unsupported(f"internal error while answering: {type(err).__name__}: {err}").to_json(), None
    if slot is None or deadline.cut or time.perf_counter() - start >= _MEMO_SECONDS or not _untouched(result):
        return result, None
    try:
        text = _dumps(result)
        blob = marshal.dumps(result)
    except (ValueError, TypeError, RecursionError):
        return result, None
    from manasolver.solver.service.boards import keep_answer
    keep_answer(slot[0], slot[1], text, blob)
    return result, text


def _untouched(result: dict[str, Any]) -> bool:
    """Is ``result`` an answer that no time bound decided (and not an error)?"""
    if not result or "error" in result or "id" in result or result.get("time_bound"):
        return False
    reason = result.get("reason")
    return not (isinstance(reason, dict) and reason.get("proved") is False)


def answer_line(line: str | bytes, number: int | None = None) -> dict[str, Any]:
    """Answer one line of ``batch`` input: JSON errors become ``bad_query`` answers.  A line of
    bytes is decoded here as UTF-8 (a byte order mark before it is allowed), so one undecodable
    line is answered with its own error and spoils no other."""
    query, refused, note = _read_line(line, number)
    if refused is not None:
        return refused
    result = _answer(query, note is not None)
    if note is not None and _too_deep_after(note, "error" in result):
        return _too_deep(number)
    return result


def answer_line_text(line: str | bytes, number: int | None = None, cards: str | None = None) -> str:
    """:func:`answer_line` as the JSON text ``batch`` writes (:func:`answer_text`); ``cards``
    (``--cards``) is the card file of a query that names none.  Never raises: memory running out
    while the line is read or answered is that line's error, and the next line is answered."""
    try:
        query, refused, note = _read_line(line, number)
        if refused is not None:
            return json.dumps(refused)
        if cards is not None and "cards" not in query:
            query["cards"] = cards
        text, failed = _answer_text(query, note is not None)
        if note is not None and _too_deep_after(note, failed):
            return json.dumps(_too_deep(number))
        return text
    except (MemoryError, RecursionError) as err:
        del line
        return json.dumps(unwritable(err, f"line {number}" if number is not None else ""))



def _too_deep_after(note: list[Any], failed: bool) -> bool:
    """Whether a line whose board was met for the first time (``note``: ``[board, line, start,
    end, loaded]``, :func:`~manasolver.solver.service.boards.read_query`) is answered as too deep
    after its query was: its depth is read when the board did not load or the answer is an error."""
    _board, line, _start, _end, loaded = note
    return (failed or not loaded) and too_deep(line)


def _too_deep(number: int | None) -> dict[str, Any]:
    """The answer of line ``number`` of ``batch`` input when it nests too deeply."""
    return BadQuery(TOO_DEEP, f"line {number}" if number is not None else "").to_json()


def _read_line(line: str | bytes, number: int | None) -> tuple[dict[str, Any], dict[str, Any] | None, list[Any] | None]:
    """The query of one line of ``batch`` input, or the error answer of a line that is none, and
    the note of the line's board when its depth is not read yet
    (:func:`~manasolver.solver.service.boards.read_query`: ``[board, line, start, end, loaded]``).

    A board whose text was seen before is not decoded again, nor its depth read.  A board met for
    the first time has its depth read only when it matters: the caller answers the query, and when
    the board did not load (``loaded`` still false) or the answer is an error, reads the line's
    depth; a line too deep is then answered as it is here, with :data:`TOO_DEEP`, in place of that
    answer.  A board that loaded nests a few levels
    (:data:`~manasolver.solver.service.boards.LOADED_DEPTH`), so its line is as deep as the rest
    of it, read already.  What the query of a line too deep did is undone by its failing: its
    board, which did not load, is kept nowhere and opens no session (``open`` loads it first)."""
    if type(line) is TooLong:
        return {}, BadQuery(f"the line has {line.size} bytes; at most {MAX_LINE} are read",
                            f"line {number}" if number is not None else "").to_json(), None
    source = line  # the line as given: its depth is read from its bytes when it came as bytes
    if isinstance(line, bytes):
        raw = line
        try:  # as utf-8-sig decodes it (a byte order mark first is dropped), without its Python codec
            line = (raw[3:] if raw.startswith(b"\xef\xbb\xbf") else raw).decode("utf-8")
        except UnicodeDecodeError:
            try:
                line = raw.decode("utf-8-sig")
            except UnicodeDecodeError as err:
                where = f"line {number}" if number is not None else ""
                return {}, BadQuery(f"not valid UTF-8: byte 0x{raw[err.start]:02x} at offset {err.start} "
                                    f"of the line ({err.reason})", where).to_json(), None
    found = (_BOARD_CACHE or _board_cache()).read_query(line, SCAN)
    if found is not None:  # the depth of all but a board met for the first time read already
        return found[0], None, found[1]
    where = f"line {number}" if number is not None else ""
    if not line.strip():
        return {}, BadQuery("empty line: one JSON query per line", where).to_json(), None
    try:  # json.loads, which refuses a byte order mark left in the text with its own message
        obj = DECODE(line) if not line.startswith("\ufeff") else json.loads(
            line, parse_constant=no_constant, parse_float=finite_float)
    except (ValueError, RecursionError) as err:
        return {}, BadQuery(not_json(err), where).to_json(), None
    if not isinstance(obj, dict):
        return {}, BadQuery("a query must be a JSON object", where).to_json(), None
    if too_deep(source):
        return {}, BadQuery(TOO_DEEP, where).to_json(), None
    return obj, None, None




def _board_cache() -> ModuleType:
    """:mod:`~manasolver.solver.service.boards`, imported on first use."""
    global _BOARD_CACHE
    if _BOARD_CACHE is None:
        from manasolver.solver.service import boards as board_cache
        _BOARD_CACHE = board_cache
    return _BOARD_CACHE


_BOARD_CACHE: ModuleType | None = None


def _session_store() -> SessionStore:
    """:data:`~manasolver.solver.service.sessions.STORE`, imported on first use (an ``import`` statement
    run for every session query is half a microsecond: a fifth of a kept answer's path)."""
    global _STORE
    if _STORE is None:
        from manasolver.solver.service.sessions import STORE
        _STORE = STORE
    return _STORE


_STORE: SessionStore | None = None


# -- dispatch ---------------------------------------------------------------------------------

def _dispatch(query: Any) -> dict[str, Any]:
    if not isinstance(query, dict):
        raise BadQuery("a query must be a JSON object")
    name = query.get("query")
    if not isinstance(name, str):
        raise BadQuery('missing "query" field naming one of: ' + ", ".join(QUERIES), "query")
    if name not in QUERIES:
        import difflib
        close = difflib.get_close_matches(name, list(QUERIES), n=1)
        hint = f" (did you mean {close[0]!r}?)" if close else ""
        raise BadQuery(f"unknown query {name!r}{hint}; known: {', '.join(QUERIES)}", "query")
    allowed = _ALLOWED.get(name) or QUERIES[name] | _COMMON
    if not query.keys() <= allowed:
        for key in query:
            if key not in allowed:
                import difflib
                close = difflib.get_close_matches(str(key), sorted(allowed), n=1)
                hint = f" (did you mean {close[0]!r}?)" if close else ""
                raise UnknownField(f"unknown field {key!r} for query {name!r}{hint}", str(key))
    handle = None
    if "apply" in query and decode.flag(query, "apply"):
        handle = query.get("board")
        if handle is None:
            raise BadQuery('"apply" carries a payment out on a kept board: give "board", a handle from open', "apply")
    if ("board" in query or "changes" in query) and name not in _SESSION_QUERIES:
        from manasolver.solver.service.sessions import resolve
        query = resolve(query)
    out = HANDLERS[name](query)
    if handle is not None:
        from manasolver.solver.service.sessions import apply_answer
        out = apply_answer(_session_store(), handle, load_state_field(query), decode.player(
            query, load_state_field(query)), out)
    return out
