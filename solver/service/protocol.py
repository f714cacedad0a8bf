"""The JSON protocol (SPEC §5): one query object in, one answer object out.

:func:`answer` never raises: errors of input come back as
``{"error": {"code", "message", "where"}}`` answers, and so does anything the
engine does not support.  The CLI, ``batch`` and the Python API all go through
it.  Heavy modules (the solvers) are imported only by the queries that need them.

A payment query travels one way: its fields are decoded (:mod:`~manasolver.solver.service.decode`),
the spell is cast or the ability activated up to its payment
(:mod:`~manasolver.solver.casting.build`; a spell that can't be cast at all, or not now, is
answered with its reason), what the engine does not model is refused
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

import dataclasses
import json
import marshal
import time
from collections.abc import Callable, Iterator
from types import ModuleType
from typing import IO, TYPE_CHECKING, Any, cast

from manasolver.models.errors import (
    BadQuery,
    ManasolverError,
    UnknownField,
    Unsupported,
)
from manasolver.models.symbols import mask_letters
from manasolver.solver.service import decode
from manasolver.solver.budget import query_budget
from manasolver.solver.service.decode import load_state_field

if TYPE_CHECKING:
    from manasolver.solver.service.boards import Kept
    from manasolver.solver.request import PaymentRequest
    from manasolver.solver.service.sessions import SessionStore

__all__ = ["JSON_DECODER", "MAX_DEPTH", "MAX_LINE", "QUERIES", "TOO_DEEP", "TooLong", "answer", "answer_json",
           "answer_line",
           "answer_line_text", "answer_text", "bounded_lines", "build_request", "load_state_field", "not_json",
           "too_deep"]

#: Every query of SPEC §5 and the fields each accepts besides the common ones.
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
#: Sessions (SPEC §5): a query that takes a ``state`` takes a kept ``board`` instead, and ``changes`` to it.
QUERIES.update({name: fields | {"board", "changes"} for name, fields in QUERIES.items()
                if "state" in fields and name != "open"})
#: The queries that handle ``board`` themselves (:mod:`~manasolver.solver.service.sessions`).
_SESSION_QUERIES = frozenset({"open", "update", "close"})
_COMMON = frozenset({"query", "id", "player", "cards"})
_MAX_LIMIT = 100_000
#: The fields each query accepts.
_ALLOWED = {name: fields | _COMMON for name, fields in QUERIES.items()}


#: The deepest nesting of arrays and objects a query may have (a real one has about six levels).
MAX_DEPTH = 64
#: The longest line of ``batch`` input, and the largest body ``serve`` reads (bytes).
MAX_LINE = 16 * 1024 * 1024


#: the message of a query nested too deeply
TOO_DEEP = f"the query nests arrays or objects deeper than {MAX_DEPTH} levels"


def not_json(err: ValueError | RecursionError) -> str:
    """The message of text the JSON decoder refused (nested too deeply for it, or not JSON)."""
    return TOO_DEEP if isinstance(err, RecursionError) else f"not valid JSON: {err}"


def _deep_id(query: Any) -> dict[str, Any] | None:
    """The error answer of a query whose ``id`` (echoed in the answer) nests deeper than
    :data:`MAX_DEPTH`, or ``None``."""
    if type(query) is not dict:
        return None
    qid = query.get("id")
    if type(qid) not in (dict, list) or _depth_ok(qid):
        return None
    return BadQuery(f"id nests arrays or objects deeper than {MAX_DEPTH} levels", "id").to_json()


def _depth_ok(value: Any, limit: int = MAX_DEPTH) -> bool:
    """Does the JSON ``value`` nest arrays and objects at most ``limit`` deep?  (No recursion.)"""
    level: list[Any] = [value]
    for _ in range(limit):
        below: list[Any] = []
        for item in level:
            if type(item) is dict:
                below.extend(v for v in item.values() if type(v) in (dict, list))
            elif type(item) is list:
                below.extend(v for v in item if type(v) in (dict, list))
        if not below:
            return True
        level = below
    return False


#: every byte but brackets and quotes
_NOT_BRACKETS = bytes(c for c in range(256) if c not in b'{}[]"')
#: braces written as square brackets: in valid JSON they pair the same way
_AS_SQUARE = bytes.maketrans(b"{}", b"[]")


def too_deep(text: str | bytes, limit: int = MAX_DEPTH) -> bool:
    """Does the valid JSON ``text`` nest arrays and objects deeper than ``limit``?  Read from the
    text, in time linear in its length and at C speed: its brackets outside strings, innermost
    pairs removed a level at a time."""
    raw = text.encode("utf-8", "surrogatepass") if isinstance(text, str) else text
    if raw.count(b"[") + raw.count(b"{") <= limit:
        return False
    if b"\\" in raw:  # escaped backslashes and quotes: gone, so that every quote left opens or closes a string
        raw = raw.replace(b"\\\\", b"").replace(b'\\"', b"")
    # brackets (all square) and quotes alone; two quotes side by side taken out (an empty string, or
    # the end of one and the start of the next: every bracket keeps its side), then what is outside strings
    bare = raw.translate(_AS_SQUARE, _NOT_BRACKETS).replace(b'""', b"")
    if b'"' in bare:
        bare = b"".join(bare.split(b'"')[::2])
    for _ in range(limit):
        if not bare:
            return False
        bare = bare.replace(b"[]", b"")
    return bool(bare)


def answer(query: Any) -> dict[str, Any]:
    """Answer one protocol query (a decoded JSON object); never raises."""
    refused = _deep_id(query)
    if refused is not None:
        return refused
    qid = query.get("id") if isinstance(query, dict) else None
    slot = _memo_slot(query)
    hit = None if slot is None else slot[0].answers.get(slot[1])
    result = _compute(query, slot)[0] if hit is None else marshal.loads(hit[1])
    if qid is not None:
        result = {"id": qid, **result}
    return result


def answer_text(query: Any) -> str:
    """The JSON text of :func:`answer`'s answer (``json.dumps`` of it), as ``batch`` writes it:
    an answer kept for a kept board is written from its kept text.  Never raises: an answer that
    can't be written (a value nested too deeply) is answered with the error saying so."""
    refused = _deep_id(query)
    if refused is not None:
        return json.dumps(refused)
    qid = query.get("id") if isinstance(query, dict) else None
    slot = _memo_slot(query)
    hit = None if slot is None else slot[0].answers.get(slot[1])
    if hit is None:
        result, text = _compute(query, slot)
        try:
            if qid is not None:
                return json.dumps({"id": qid, **result})
            return text if text is not None else json.dumps(result)
        except (ValueError, TypeError, RecursionError, MemoryError) as err:
            return json.dumps(_unwritable(err))
    return _kept_text(hit[0], qid)


def kept_answer_text(query: Any) -> str | None:
    """:func:`answer_text`'s answer when a session board keeps it already (the same query asked
    before on that board), else ``None``: nothing is computed, so a server may answer it where
    it reads requests instead of handing it to the engine's threads."""
    if type(query) is not dict or "board" not in query or "state" in query or _deep_id(query) is not None:
        return None
    slot = _memo_slot(query)
    hit = None if slot is None else slot[0].answers.get(slot[1])
    return None if hit is None else _kept_text(hit[0], query.get("id"))


def _kept_text(text: str, qid: Any) -> str:
    """A kept answer's JSON text with the query's ``id`` (``json.dumps({"id": qid, **answer})``)."""
    if qid is None:
        return text
    # a kept answer is a non-empty object without "id"
    head = str(qid) if type(qid) is int else _encode_string(qid) if type(qid) is str else json.dumps(qid)
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
            found = _board_cache().identified(query.get("state"), decode.card_db(query))
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
    start = time.perf_counter()
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
        text = json.dumps(result)
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
    query, refused = _read_line(line, number)
    return answer(query) if refused is None else refused


def answer_line_text(line: str | bytes, number: int | None = None, cards: str | None = None) -> str:
    """:func:`answer_line` as the JSON text ``batch`` writes (:func:`answer_text`); ``cards``
    (``--cards``) is the card file of a query that names none.  Never raises: memory running out
    while the line is read or answered is that line's error, and the next line is answered."""
    try:
        query, refused = _read_line(line, number)
        if refused is not None:
            return json.dumps(refused)
        if cards is not None and "cards" not in query:
            query["cards"] = cards
        return answer_text(query)
    except (MemoryError, RecursionError) as err:
        del line
        return json.dumps(_unwritable(err, f"line {number}" if number is not None else ""))


def _unwritable(err: BaseException, where: str = "") -> dict[str, Any]:
    """The error answer of a query whose reading, answering or writing ran out of memory or stack."""
    if isinstance(err, MemoryError):
        return BadQuery("the query is too large for memory", where).to_json()
    return BadQuery(f"the answer can't be written: {'nested too deeply' if isinstance(err, RecursionError) else err}",
                    where).to_json()


class TooLong(bytes):
    """A line of input longer than :data:`MAX_LINE`, read past and not kept (:func:`bounded_lines`):
    empty, with the line's ``size`` in bytes."""

    size: int


def bounded_lines(stream: IO[bytes], limit: int = MAX_LINE) -> Iterator[bytes]:
    """The lines of ``stream`` as iterating over it gives them, but a line longer than ``limit``
    bytes is read past in pieces and given as a :class:`TooLong` (so memory stays bounded by
    ``limit`` whatever the input)."""
    while True:
        line = stream.readline(limit + 1)
        if not line:
            return
        if len(line) <= limit or line.endswith(b"\n"):
            yield line
            continue
        size = len(line)
        del line
        while True:
            rest = stream.readline(1 << 20)
            size += len(rest)
            if not rest or rest.endswith(b"\n"):
                break
        marker = TooLong()
        marker.size = size
        yield marker


def _read_line(line: str | bytes, number: int | None) -> tuple[dict[str, Any], dict[str, Any] | None]:
    """The query of one line of ``batch`` input, or the error answer of a line that is none.  A
    board whose text was seen before is not decoded again
    (:func:`~manasolver.solver.service.boards.decode_query`)."""
    if type(line) is TooLong:
        return {}, BadQuery(f"the line has {line.size} bytes; at most {MAX_LINE} are read",
                            f"line {number}" if number is not None else "").to_json()
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
                                    f"of the line ({err.reason})", where).to_json()
    obj = _board_cache().decode_query(line, _SCAN, _DECODE)
    where = f"line {number}" if number is not None else ""
    if obj is not None:
        if too_deep(source):
            return {}, BadQuery(TOO_DEEP, where).to_json()
        return obj, None
    if not line.strip():
        return {}, BadQuery("empty line: one JSON query per line", where).to_json()
    try:  # json.loads, which refuses a byte order mark left in the text with its own message
        obj = _DECODE(line) if not line.startswith("\ufeff") else json.loads(
            line, parse_constant=_no_constant, parse_float=_finite_float)
    except (ValueError, RecursionError) as err:
        return {}, BadQuery(not_json(err), where).to_json()
    if not isinstance(obj, dict):
        return {}, BadQuery("a query must be a JSON object", where).to_json()
    if too_deep(source):
        return {}, BadQuery(TOO_DEEP, where).to_json()
    return obj, None


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not valid JSON")


def _finite_float(text: str) -> float:
    value = float(text)
    if value in (float("inf"), float("-inf")):
        raise ValueError(f"number {text} is too large")
    return value


#: The protocol's JSON: no NaN or Infinity, no number too large for a float (the HTTP front end
#: reads its bodies with it).
JSON_DECODER = json.JSONDecoder(parse_constant=_no_constant, parse_float=_finite_float)
_SCAN = cast(Any, JSON_DECODER).scan_once
_encode_string = json.encoder.encode_basestring_ascii  # json.dumps of a str
_DECODE = JSON_DECODER.decode


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
    for key in query:
        if key not in allowed:
            import difflib
            close = difflib.get_close_matches(str(key), sorted(allowed), n=1)
            hint = f" (did you mean {close[0]!r}?)" if close else ""
            raise UnknownField(f"unknown field {key!r} for query {name!r}{hint}", str(key))
    handle = query.get("board") if "apply" in query and decode.flag(query, "apply") else None
    if "apply" in query and handle is None and decode.flag(query, "apply"):
        raise BadQuery('"apply" carries a payment out on a kept board: give "board", a handle from open', "apply")
    if ("board" in query or "changes" in query) and name not in _SESSION_QUERIES:
        from manasolver.solver.service.sessions import resolve
        query = resolve(query)
    out = _HANDLERS[name](query)
    if handle is not None:
        from manasolver.solver.carry import apply_answer
        out = apply_answer(_session_store(), handle, load_state_field(query), decode.player(
            query, load_state_field(query)), out)
    return out


def build_request(query: dict[str, Any]) -> PaymentRequest:
    """Turn a payment query into a :class:`~manasolver.solver.request.PaymentRequest`: its
    fields decoded (:mod:`~manasolver.solver.service.decode`), then the spell cast or the ability
    activated up to the payment (:mod:`~manasolver.solver.casting.build`)."""
    from manasolver.solver.casting import build
    state = decode.load_state_field(query)
    player = decode.player(query, state)
    if decode.names_ability(query.get("spell")):
        ability = decode.ability_spell(query)
        return build.build_activation(state, player, ability,
                                      lambda name: decode.card_db(query).get(name, "spell.card"),
                                      decode.integer(query, "x", None), decode.modifiers(query),
                                      decode.policy(query), **_assist_flags(query))
    spell = decode.spell(query)
    cost = decode.cost(query, required=False)
    x = decode.integer(query, "x", None)
    req = build.build_request(state, player, spell, cost, x, decode.modifiers(query), decode.policy(query),
                              alternative=query.get("alternative"),
                              additional=query["additional"] if "additional" in query else build.NOT_GIVEN,
                              **_assist_flags(query))
    if query.get("sources") is not None:
        from manasolver.solver.sources import read_sources
        req = dataclasses.replace(req, sources=read_sources(query["sources"], state))
    return req


def _assist_flags(query: dict[str, Any]) -> dict[str, bool | None]:
    return {k: decode.flag(query, k) for k in ("convoke", "delve", "improvise")}


def prepare(query: dict[str, Any]) -> PaymentRequest | dict[str, Any]:
    """The request of a payment query, or the reason it can't be cast
    (``not_castable``: no mana cost, two alternative costs, X with an alternative cost;
    ``insufficient_life`` for an ability's life payment; ``timing``: not now)."""
    from manasolver.solver.casting.abilities import NotActivatable
    from manasolver.solver.casting.alternatives import NotCastable
    try:
        req = build_request(query)
    except NotCastable as err:
        return {"code": "not_castable", "message": str(err)}
    except NotActivatable as err:
        return {"code": err.code, "message": str(err)}
    return timing_reason(query, req) or req


def timing_reason(query: dict[str, Any], req: PaymentRequest) -> dict[str, Any] | None:
    """The ``timing`` reason when the spell or ability can't be cast or activated now
    (:func:`~manasolver.solver.casting.build.timing_refusal`), checked only when the state
    gives a ``turn`` (SPEC §4 makes it optional)."""
    if not decode.turn_given(query):
        return None
    from manasolver.solver.casting.build import timing_refusal
    message = timing_refusal(req)
    return None if message is None else {"code": "timing", "message": message}


# -- handlers -----------------------------------------------------------------------------------

def _q_pay(query: dict[str, Any]) -> dict[str, Any]:
    req = prepare(query)
    if isinstance(req, dict):
        return {"payable": False, "reason": req}
    _refuse_unmodelled(req)
    from manasolver.solver import sources
    return _activated(req, answer_json(sources.pay(req, backend=decode.backend(query))))


def _q_can_pay(query: dict[str, Any]) -> dict[str, Any]:
    from manasolver.solver.fresh import (
        can_pay as fresh_can_pay,  # a fresh board of quiet cards
    )
    quick = None if query.get("sources") is not None else fresh_can_pay(query, decode.card_db(query))
    if quick is not None:
        return quick
    req = prepare(query)
    if isinstance(req, dict):
        return {"payable": False, "reason": req}
    _refuse_unmodelled(req, tap_triggers=False)
    from manasolver.solver import sources
    return _activated(req, answer_json(sources.can_pay(req, backend=decode.backend(query))))


def _q_payments(query: dict[str, Any]) -> dict[str, Any]:
    limit = decode.integer(query, "limit", 100, 1, _MAX_LIMIT) or 100
    req = prepare(query)
    if isinstance(req, dict):
        return {"payments": [], "complete": True, "reason": req}
    _refuse_unmodelled(req)
    from manasolver.solver import sources
    return _activated(req, answer_json(sources.payments(req, limit=limit)))


def _q_max_x(query: dict[str, Any]) -> dict[str, Any]:
    req = prepare(query)
    if isinstance(req, dict):
        return {"max_x": None, "reason": req}
    if not req.cost.variables:
        raise BadQuery("max_x needs a cost with {X}", "cost")
    _refuse_unmodelled(req)
    from manasolver.solver import sources
    return _activated(req, answer_json(sources.max_x(req, backend=decode.backend(query))))


def _q_options(query: dict[str, Any]) -> dict[str, Any]:
    from manasolver.solver.pools import options as options_module
    state = load_state_field(query)
    player = decode.player(query, state)
    from manasolver.solver.service.boards import checked
    from manasolver.solver.supply import unmodelled
    checked(state, ("prohibitions", player), (), lambda: unmodelled.guard_prohibitions(state, player))
    checked(state, ("unread_haste", player), (), lambda: unmodelled.guard_unread_haste(state, player))
    limit = decode.integer(query, "limit", 100, 1, _MAX_LIMIT) or 100
    detail = decode.flag(query, "detail") or False
    from manasolver.solver.budget import current
    bound = current().within(options_module.DEFAULT_BUDGET)  # within the query's budget
    return answer_json(options_module.options(state, player, limit=limit, detail=detail, budget=bound))


def _q_could_produce(query: dict[str, Any]) -> dict[str, Any]:
    from manasolver.solver.graph import could_produce
    state = load_state_field(query)
    detail = decode.flag(query, "detail") or False
    masks = could_produce(state)
    out = {}
    for perm in state.battlefield:  # every permanent with a mana ability, granted ones included
        if perm.id in masks:
            out[perm.id] = list(mask_letters(masks[perm.id]))
    if not detail:
        return {"could_produce": out}
    from manasolver.solver.graph import source_graph  # networkx, only for the chains
    chains = source_graph(state, strict=True).chains()
    return {"could_produce": out, "why": {pid: chains[pid] for pid in out}}


def _q_validate(query: dict[str, Any]) -> dict[str, Any]:
    from manasolver.solver.casting.abilities import NotActivatable
    from manasolver.solver.casting.alternatives import NotCastable
    from manasolver.solver.payment import Payment
    from manasolver.solver.validate import validate
    try:
        req = build_request(query)
    except (NotCastable, NotActivatable) as err:
        return {"legal": False, "problems": [str(err)]}
    timing = timing_reason(query, req)
    if timing is not None:
        return {"legal": False, "problems": [timing["message"]]}
    if "payment" not in query:
        raise BadQuery('missing "payment" to validate', "payment")
    try:
        payment = Payment.from_json(query["payment"])
    except (KeyError, TypeError, ValueError) as err:
        raise BadQuery(f"malformed payment: {err}", "payment") from None
    from manasolver.solver.supply import unmodelled
    unmodelled.guard_payment_rules(req)  # a rule of paying not modelled could make it illegal or legal
    # The request's cost is already the alternative cost when one was named.
    return answer_json(validate(dataclasses.replace(req, alternative=None), payment))


def _q_mana_value(query: dict[str, Any]) -> dict[str, Any]:
    from manasolver.models.rules.counts import mana_value
    x = decode.integer(query, "x", None)
    if "card" in query:
        if "cost" in query:
            raise BadQuery("give either cost or card, not both", "cost")
        if not isinstance(query["card"], str):
            raise BadQuery("card must be a card name", "card")
        return mana_value(decode.card_db(query).get(query["card"], "card"), x=x, zone=query.get("zone"))
    return mana_value(decode.cost(query), x=x, zone=query.get("zone"))


def _q_counts(query: dict[str, Any]) -> dict[str, Any]:
    from manasolver.models.rules.counts import counts
    state = load_state_field(query)
    return dict(counts(state, decode.player(query, state)))


def _q_card(query: dict[str, Any]) -> dict[str, Any]:
    """``{"card": CARD}``: the card as the engine reads it (the object ``manasolver card NAME
    --json`` prints, built by :func:`~manasolver.solver.service.render.describe_card`)."""
    name = query.get("card")
    if name is None:
        raise BadQuery('missing "card": the name of a card', "card")
    if not isinstance(name, str):
        raise BadQuery("card must be a card name", "card")
    from manasolver.solver.service.render import describe_card
    return {"card": describe_card(decode.card_db(query).get(name, "card"))}


def _q_plan(query: dict[str, Any]) -> dict[str, Any]:
    """``plan``: several costs paid one after another (:mod:`~manasolver.solver.plan`), each cost
    cast as its own ``pay`` query would be."""
    from manasolver.solver.plan import plan_query
    return plan_query(query, prepare, _refuse_unmodelled)


def _q_guide(query: dict[str, Any]) -> dict[str, Any]:
    """``guide``: paying by hand (:mod:`~manasolver.solver.guide`)."""
    from manasolver.solver.guide import guide, read_partial
    steps = read_partial(query.get("partial"))
    req = prepare(query)
    if isinstance(req, dict):
        return {"completable": False, "next": [], "reason": req}
    _refuse_unmodelled(req)
    return guide(req, steps).to_json()


def _q_open(query: dict[str, Any]) -> dict[str, Any]:
    from manasolver.solver.service.sessions import open_query
    return open_query(query)


def _q_update(query: dict[str, Any]) -> dict[str, Any]:
    from manasolver.solver.service.sessions import update_query
    return update_query(query)


def _q_close(query: dict[str, Any]) -> dict[str, Any]:
    from manasolver.solver.service.sessions import close_query
    return close_query(query)


def _refuse_unmodelled(req: PaymentRequest, tap_triggers: bool = True) -> None:
    """Refuse what the payment engine does not model on this board
    (:mod:`~manasolver.solver.supply.unmodelled`): prohibitions on mana abilities, and for
    answers that state life and damage, triggers on becoming tapped.  On a kept board each check
    runs once per board and what it reads of the request (:func:`~manasolver.solver.service.boards.checked`)."""
    from manasolver.solver.service.boards import checked
    from manasolver.solver.supply import unmodelled
    state, player, spell = req.state, req.player, req.spell
    checked(state, ("prohibitions", player), (), lambda: unmodelled.guard_prohibitions(state, player))
    card = spell.card if spell is not None else None
    checked(state, ("payment_rules", player, id(req.cost), id(card), spell is not None and spell.ability,
                    spell.types if spell is not None else None, req.alternative, req.modifiers), (req.cost, card),
            lambda: unmodelled.guard_payment_rules(req))
    if tap_triggers:
        checked(state, ("tap_triggers", req.convoke, req.improvise), (), lambda: unmodelled.guard_tap_triggers(req))


def _activated(req: PaymentRequest, out: dict[str, Any]) -> dict[str, Any]:
    """An answer about an activated ability shows the ability under ``activating`` (its life
    payment is already part of each payment's ``life``)."""
    act = req.activation
    if act is None:
        return out
    return {**out, "activating": act.describe()}


def answer_json(result: Any) -> dict[str, Any]:
    """A query's result as its protocol JSON object (answer types carry ``to_json``)."""
    if isinstance(result, dict):
        return result
    out = result.to_json()
    assert isinstance(out, dict)
    return out


_HANDLERS: dict[str, Callable[[dict[str, Any]], dict[str, Any]]] = {
    "pay": _q_pay,
    "can_pay": _q_can_pay,
    "payments": _q_payments,
    "max_x": _q_max_x,
    "options": _q_options,
    "could_produce": _q_could_produce,
    "validate": _q_validate,
    "mana_value": _q_mana_value,
    "counts": _q_counts,
    "card": _q_card,
    "plan": _q_plan,
    "guide": _q_guide,
    "open": _q_open,
    "update": _q_update,
    "close": _q_close,
}
