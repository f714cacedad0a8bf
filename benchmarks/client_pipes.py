"""The client bench's plumbing: line-in, line-out processes driven the same way, and the counts of
their answers.

:class:`Pipe` runs ``manasolver batch`` or the plain JSON loop (:data:`LOOP`, :data:`LOOP_FLUSHED`)
on the pipes' raw descriptors, so that both are timed alike; the helpers below count what came back
(errors, ``unsupported``, answers that differ from the same lines answered in this process, time
bounds hit) and put a run's samples into medians and p99s.
"""

from __future__ import annotations

import json
import os
import selectors
import shutil
import statistics
import subprocess
import sys
import time
from typing import IO, Any

from manasolver.benchmarks.cases import hit_time_bound, ms, percentile

__all__ = ["LOOP", "LOOP_FLUSHED", "Pipe", "cli", "errors", "expected", "mismatches", "ratio", "stats",
           "time_bound_hits", "unsupported"]

#: The plain JSON loop: read a line, ``json.loads`` it, write ``{"id": …, "payable": true}`` with
#: ``json.dumps``, no flush per line (its output is flushed when its input ends).  It writes one
#: line before the loop and flushes it, so the harness knows it has started.
LOOP = ("import json, sys\n"
         "out = sys.stdout\n"
         "out.write('{}\\n'); out.flush()\n"
         "for line in sys.stdin.buffer:\n"
         "    out.write(json.dumps({'id': json.loads(line).get('id'), 'payable': True}) + '\\n')\n")
#: The same loop flushing each answer: what a line asked alone needs (it waits for its answer).
LOOP_FLUSHED = LOOP + "    out.flush()\n"

def cli() -> list[str]:
    exe = shutil.which("manasolver")
    return [exe] if exe else [sys.executable, "-m", "manasolver.solver.service.cli"]


class Pipe:
    """A line-in, line-out process: ``manasolver batch`` or the plain JSON loop.

    Both are driven the same way, on the pipes' raw descriptors: a whole line written with one
    system call, answers read in blocks (a pipe read through an unbuffered file object reads a
    line one byte per call, 3-5 ms for a line carrying a board: the harness's time, not the
    process's), and a stream written and read in one thread under a selector (a writer thread
    would wait on the reader for the interpreter's lock, 5 ms a turn)."""

    def __init__(self, cmd: list[str], ready: bool = False) -> None:
        self.proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, bufsize=0)
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self._in: IO[bytes] = self.proc.stdin
        self._out: IO[bytes] = self.proc.stdout
        self._rest = b""  # bytes read past the last answer taken
        self.closed = False
        if ready:  # the process writes one line when it has started
            while b"\n" not in self._rest:
                got = os.read(self._out.fileno(), 1 << 16)
                if not got:
                    break
                self._rest += got
            self._rest = self._rest.partition(b"\n")[2]

    def _write_all(self, data: bytes) -> None:
        view = memoryview(data)
        while view:
            view = view[os.write(self._in.fileno(), view):]

    def ask(self, line: str) -> tuple[dict[str, Any], float]:
        """One line and its answer, and the seconds between writing it and reading the answer."""
        data = line.encode("utf-8") + b"\n"
        fd = self._out.fileno()
        t0 = time.perf_counter()
        self._write_all(data)
        buf = self._rest
        while b"\n" not in buf:
            got = os.read(fd, 1 << 20)
            if not got:
                break
            buf += got
        secs = time.perf_counter() - t0
        first, _, self._rest = buf.partition(b"\n")
        return (json.loads(first) if first else {"error": {"code": "lost"}}), secs

    def stream(self, lines: list[str], close: bool = False) -> tuple[list[dict[str, Any]], float]:
        """Every line written while the answers are read: (answers, seconds from the first write
        to the last answer).  With ``close`` the input is closed after the last line (a process
        that flushes its output only when its input ends) and the process is done after it."""
        data = memoryview(b"".join(line.encode("utf-8") + b"\n" for line in lines))
        want = len(lines)
        win, wout = self._in.fileno(), self._out.fileno()
        chunks = [self._rest]
        seen = self._rest.count(b"\n")
        sent = 0
        os.set_blocking(win, False)
        sel = selectors.DefaultSelector()
        sel.register(win, selectors.EVENT_WRITE)
        sel.register(wout, selectors.EVENT_READ)
        t0 = time.perf_counter()
        try:
            while seen < want:
                events = sel.select(timeout=120)
                if not events:
                    break
                for key, _ in events:
                    if key.fd == win:
                        try:
                            sent += os.write(win, data[sent:sent + 65536])
                        except BlockingIOError:
                            continue
                        if sent >= len(data):
                            sel.unregister(win)
                            if close:
                                self._in.close()
                                self.closed = True
                    else:
                        got = os.read(wout, 1 << 20)
                        if not got:
                            seen = want  # the process ended: the missing answers are "lost"
                            break
                        chunks.append(got)
                        seen += got.count(b"\n")
        finally:
            elapsed = time.perf_counter() - t0
            sel.close()
            if not self.closed:
                os.set_blocking(win, True)
        parts = b"".join(chunks).split(b"\n")
        out, self._rest = parts[:want], b"\n".join(parts[want:])
        out += [b""] * (want - len(out))
        return [json.loads(x) if x else {"error": {"code": "lost"}} for x in out], elapsed

    def close(self) -> None:
        if not self.closed:
            self._in.close()
            self.closed = True
        try:
            self.proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.proc.kill()  # our own child, by its handle
            self.proc.wait(timeout=10)


def stats(samples: list[float]) -> dict[str, Any]:
    if not samples:
        return {"n": 0}
    return {"n": len(samples), "median_ms": ms(statistics.median(samples)), "p99_ms": ms(percentile(samples, 99)),
            "max_ms": ms(max(samples))}


def ratio(ours: float, loop: float) -> float:
    """Our time over the JSON loop's on the same lines (per line streamed, or median one at a time)."""
    return round(ours / max(1e-9, loop), 2)


def errors(answers: list[dict[str, Any]]) -> int:
    """Answers that are errors other than ``unsupported`` (what the engine says it leaves out)."""
    return sum(1 for a in answers if "error" in a and a["error"].get("code") != "unsupported")


def unsupported(answers: list[dict[str, Any]]) -> int:
    return sum(1 for a in answers if "error" in a and a["error"].get("code") == "unsupported")


def expected(lines: list[str]) -> list[dict[str, Any]]:
    from manasolver.solver.service.protocol import answer_line
    return [answer_line(line) for line in lines]


def mismatches(got: list[dict[str, Any]], want: list[dict[str, Any]]) -> int:
    """Answers that differ from the in-process ones, whole (payability, payment, reason), except
    where either hit its time bound; a missing or extra answer counts too."""
    return sum(1 for a, b in zip(got, want) if a != b and not (hit_time_bound(a) or hit_time_bound(b))) \
        + abs(len(got) - len(want))


def time_bound_hits(answers: list[dict[str, Any]]) -> int:
    return sum(1 for a in answers if hit_time_bound(a))
