"""``batch`` over chunks of lines: standard input read as bytes, cut into chunks of many lines
(:data:`LINES` lines or :data:`BYTES` bytes, whichever comes first), each chunk answered by one task
(:func:`answer_chunk`, in this process, in local workers or on a Dask cluster) and the answers written
in input order as they come back, with a bounded window of chunks in flight.

Every line is answered as plain ``batch`` answers it (:func:`manasolver.solver.answer_line`: decoded
here as UTF-8, a bad line answered with its own error naming its line number).  Sessions keep boards in
one process, so when the lines are spread over processes (``--workers``, ``--dask``) a session query
(``open``, ``update``, ``close``, or a ``"board"`` handle) is answered with a ``bad_query`` error saying so.
"""

from __future__ import annotations

import io
import json
import threading
from collections.abc import Callable, Iterable, Iterator
from typing import IO, Any

from manasolver.models.carddb import default_db
from manasolver.solver import answer, answer_line, answer_line_text
from manasolver.solver.service.parallel import Runner, each_in_order
from manasolver.solver.service.wire import MAX_LINE, bounded_lines, finite_float, no_constant

__all__ = ["BYTES", "LINES", "SESSION_QUERIES", "answer_chunk", "input_lines", "line_chunks", "run_batch", "warm"]

#: The most lines, and about the most bytes, of one chunk.
LINES = 250
BYTES = 1024 * 1024

#: The queries of sessions, answered only by a batch of one process.
SESSION_QUERIES = frozenset({"open", "update", "close"})

#: One chunk at a time in a worker process: the engine's caches are per process, and a Dask worker
#: may run several threads.
_LOCK = threading.Lock()


def line_chunks(lines: Iterable[bytes], size: int = LINES, max_bytes: int = BYTES) -> Iterator[tuple[int, list[bytes]]]:
    """``(number of the first line, lines)`` chunks of ``lines``, numbered from 1."""
    chunk: list[bytes] = []
    held = 0
    first = 1
    for line in lines:
        chunk.append(line)
        held += len(line)
        if len(chunk) >= size or held >= max_bytes:
            yield first, chunk
            first += len(chunk)
            chunk = []
            held = 0
    if chunk:
        yield first, chunk


def _session_error(query: dict[str, Any], number: int) -> dict[str, Any] | None:
    """The error answer of a session query in a batch spread over processes, or ``None``."""
    name = query.get("query")
    if isinstance(name, str) and name in SESSION_QUERIES:
        where = "query"
    elif "board" in query:
        where = "board"
    else:
        return None
    out: dict[str, Any] = {"error": {
        "code": "bad_query",
        "message": f"line {number}: sessions (open, update, close and \"board\" handles) keep boards in one "
                   "process: run them with batch without --workers or --dask",
        "where": where}}
    qid = query.get("id")
    return {"id": qid, **out} if qid is not None else out


def _answer(line: bytes, number: int, cards: str | None, sessions: bool) -> dict[str, Any]:
    """The answer of one line, as plain ``batch`` gives it, with the ``--cards`` file for a query
    that names none, and the session check when ``sessions`` is false."""
    if cards is None and sessions:
        return answer_line(line, number)
    try:
        text = line.decode("utf-8-sig")
        query = json.loads(text, parse_constant=no_constant, parse_float=finite_float) if text.strip() else None
    except (ValueError, RecursionError):
        query = None
    if not isinstance(query, dict):
        return answer_line(line, number)  # the error plain batch gives that line
    if not sessions:
        refused = _session_error(query, number)
        if refused is not None:
            return refused
    if cards is not None and "cards" not in query:
        query["cards"] = cards
    return answer(query)


def warm(cards: str | None) -> None:
    """Load what every line needs once: the card database (``--cards``) and the protocol."""
    default_db(cards)
    answer({"query": "mana_value", "cost": "{1}"})


def answer_chunk(first: int, lines: list[bytes], cards: str | None, sessions: bool) -> str:
    """The answers of a chunk of lines (the first numbered ``first``), one JSON line each."""
    with _LOCK:
        return "".join(json.dumps(_answer(line, n, cards, sessions)) + "\n"
                       for n, line in enumerate(lines, first))


def input_lines(stream: IO[bytes], before_wait: Callable[[], None], limit: int = MAX_LINE) -> Iterator[bytes]:
    """The lines of ``stream`` as :func:`~manasolver.solver.service.wire.bounded_lines` gives them,
    with ``before_wait()`` called before each read of the stream, that is whenever no whole line is
    at hand and the next may have to be waited for.  ``batch`` flushes its answers then: a client
    that waits for an answer before it writes its next line has it, and lines streamed in are
    answered with one write for each read of input, not one for each line."""
    return bounded_lines(io.BufferedReader(_WaitingReader(stream, before_wait), _READ), limit)


class _WaitingReader(io.RawIOBase):
    """``stream`` read as a raw stream, ``before_wait()`` called before each read (a buffered reader
    over it reads only when it holds no whole line)."""

    def __init__(self, stream: IO[bytes], before_wait: Callable[[], None]) -> None:
        super().__init__()
        self._stream = stream
        self._before_wait = before_wait

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        self._before_wait()
        read1 = getattr(self._stream, "read1", None)
        data = read1(len(buffer)) if read1 is not None else self._stream.read(len(buffer))
        buffer[:len(data)] = data
        return len(data)


#: The most bytes :func:`input_lines` reads at once.
_READ = 1 << 16


def run_batch(lines: Iterable[bytes], out: IO[str], runner: Runner | None, cards: str | None = None) -> int:
    """Answer ``lines`` to ``out``: line by line in this process when ``runner`` is None (sessions
    work; the answers flushed by the line source before it waits for input, :func:`input_lines`,
    and at the end), else in chunks on ``runner``.  The number of lines."""
    count = 0
    if runner is None:
        for number, line in enumerate(lines, 1):
            # every line gets its answer, a blank one too, so answers stay aligned with the input
            out.write(answer_line_text(line, number, cards) + "\n")
            count = number
        out.flush()
        return count
    written = [0]

    def write(text: str) -> None:
        out.write(text)
        out.flush()
        written[0] += text.count("\n")

    tasks = ((first, chunk, cards, False) for first, chunk in line_chunks(lines))
    each_in_order(runner, answer_chunk, tasks, write)
    return written[0]
