"""The protocol's text: strict JSON, read with bounds that hold whatever the input.

A query arrives as text (a line of ``batch`` input, the body of an HTTP request) before it is a
query.  This module holds what is true of that text alone, apart from what any query means: the
decoder (no NaN or Infinity, no number too large for a float), the deepest nesting a query may
have and a check of it read from the text in linear time (so that neither the decoder nor the
answer's writer recurses without end), the longest line read (longer ones are read past in
pieces, so memory stays bounded), and the error answers of text that is none of these.  The
protocol (:mod:`~manasolver.solver.service.protocol`), ``batch`` and the HTTP front ends share it.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import IO, Any, cast

from manasolver.models.errors import BadQuery

__all__ = ["DECODE", "JSON_DECODER", "MAX_DEPTH", "MAX_LINE", "SCAN", "TOO_DEEP", "TooLong", "bounded_lines",
           "deep_id", "depth_ok", "encode_string", "finite_float", "no_constant", "not_json", "too_deep",
           "unwritable"]

#: The deepest nesting of arrays and objects a query may have (a real one has about six levels).
MAX_DEPTH = 64
#: The longest line of ``batch`` input, and the largest body ``serve`` reads (bytes).
MAX_LINE = 16 * 1024 * 1024


#: the message of a query nested too deeply
TOO_DEEP = f"the query nests arrays or objects deeper than {MAX_DEPTH} levels"


def not_json(err: ValueError | RecursionError) -> str:
    """The message of text the JSON decoder refused (nested too deeply for it, or not JSON)."""
    return TOO_DEEP if isinstance(err, RecursionError) else f"not valid JSON: {err}"


def deep_id(query: Any) -> dict[str, Any] | None:
    """The error answer of a query whose ``id`` (echoed in the answer) nests deeper than
    :data:`MAX_DEPTH`, or ``None``."""
    if type(query) is not dict:
        return None
    qid = query.get("id")
    if type(qid) not in (dict, list) or depth_ok(qid):
        return None
    return BadQuery(f"id nests arrays or objects deeper than {MAX_DEPTH} levels", "id").to_json()


def depth_ok(value: Any, limit: int = MAX_DEPTH) -> bool:
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
    if isinstance(text, str):  # counted in the text as given (a real query has a few dozen), encoded past that
        if text.count("[") + text.count("{") <= limit:
            return False
        raw = text.encode("utf-8", "surrogatepass")
    else:
        raw = text
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



def unwritable(err: BaseException, where: str = "") -> dict[str, Any]:
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



def no_constant(name: str) -> Any:
    """Refuse ``NaN``, ``Infinity`` and ``-Infinity``, which Python's decoder would otherwise read."""
    raise ValueError(f"{name} is not valid JSON")


def finite_float(text: str) -> float:
    """A JSON number as a float, refused when it is too large for one (it would be infinite)."""
    value = float(text)
    if value in (float("inf"), float("-inf")):
        raise ValueError(f"number {text} is too large")
    return value


#: The protocol's JSON: no NaN or Infinity, no number too large for a float (the HTTP front end
#: reads its bodies with it).
JSON_DECODER = json.JSONDecoder(parse_constant=no_constant, parse_float=finite_float)
#: The decoder's C scanner: one JSON value read from a position of a text.
SCAN = cast(Any, JSON_DECODER).scan_once
encode_string = json.encoder.encode_basestring_ascii  # json.dumps of a str
#: The decoder's ``decode``, looked up once.
DECODE = JSON_DECODER.decode
