"""The client's path (SPEC §8): what a game client waits for, through the real front ends.

``python -m manasolver.benchmarks.client [--quick] [--out DIR]`` (and the "client path" section of
``manasolver bench``) measures, each figure beside a plain JSON loop (a process that only decodes and
encodes the same lines, through the same pipes) and beside phase.rs where it applies:

* fresh boards: one ``manasolver batch`` process, ``can_pay`` and optimal ``pay`` lines that each
  carry their own new 40-permanent board, on the benchmark's Commander boards and on a varied
  Commander board of real cards (Exotic Orchard, Reflecting Pool, Path of Ancestry, Gaea's Cradle,
  dorks that count Elves, Signets and Talismans, shock and pain lands, a few tapped or sick):
  lines per second streamed, and each line's latency asked one at a time (median, p99);
* the same board sent again, and a session board (SPEC §5 ``open``, then ``"board": handle``;
  a clear "sessions not available" row when ``open`` is refused);
* HTTP: ``manasolver serve --port 0`` with keep-alive, session ``can_pay`` from 1 and 4 client
  processes, every answer checked (requests per second, failures);
* the filter board (``example:filters``): ``pay`` median and p99, ``options``, time-bound hits;
* cold start of ``manasolver can-pay example:commander "{2}{G}"``, process start to answer.

Every answer is checked whole against the same query answered in this process (for repeated
boards and sessions, against the query with the board sent in full); a fresh ``can_pay`` row also
says how many of its lines the fresh-board lane answers (``lane``, :mod:`manasolver.solver.fresh`).  ``--quick``
runs in a few seconds (tests run it);
the full run writes ``client.md``, ``client.json`` and ``client.png`` into ``--out``
(default ``benchmarks/results`` of a checkout).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import selectors
import shutil
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from manasolver.benchmarks import boards as bd
from manasolver.benchmarks import http as http_bench
from manasolver.benchmarks.cases import hit_time_bound, ms, percentile

__all__ = ["FULL", "QUICK", "ClientPlan", "main", "markdown", "plot", "run", "varied_board", "write"]


@dataclass(frozen=True, slots=True)
class ClientPlan:
    """How much the client-path run measures."""

    name: str
    fresh_lines: int          # can_pay lines per board kind, streamed
    pay_lines: int            # pay lines per board kind, asked one at a time
    latency_lines: int        # can_pay lines asked one at a time, per board kind
    repeat_lines: int         # lines on a repeated or session board
    http_seconds: float       # per client count
    filter_costs: int
    filter_repeats: int
    options: bool
    cold_runs: int
    phase_boards: int         # fresh boards phase.rs is positioned on (0: not run)


QUICK = ClientPlan("quick", fresh_lines=40, pay_lines=12, latency_lines=12, repeat_lines=40, http_seconds=0.3,
                   filter_costs=2, filter_repeats=1, options=False, cold_runs=1, phase_boards=0)
FULL = ClientPlan("full", fresh_lines=2000, pay_lines=400, latency_lines=300, repeat_lines=1000, http_seconds=5.0,
                  filter_costs=8, filter_repeats=5, options=True, cold_runs=9, phase_boards=6)

#: SPEC §8 targets of this section.
TARGET_FRESH_CAN_PAY_PER_S = 3000.0
TARGET_FRESH_RATIO = 3.0
TARGET_FRESH_PAY_MS = (2.0, 15.0)
TARGET_REPEAT_MS = {"can_pay": 0.1, "pay": 1.0}
TARGET_HTTP_PER_S = 2000.0
TARGET_FILTER_PAY_MS = 50.0
TARGET_OPTIONS_S = 1.0
TARGET_COLD_S = 0.2

#: The varied board's card pools (real cards the bundled database reads fully).
_UTILITY = ("Exotic Orchard", "Reflecting Pool", "Path of Ancestry", "Command Tower", "Gaea's Cradle",
            "Mana Confluence", "City of Brass", "Rogue's Passage", "Reliquary Tower", "Bojuka Bog")
_SHOCKS = ("Overgrown Tomb", "Breeding Pool", "Temple Garden", "Hallowed Fountain", "Watery Grave")
_PAINS = ("Yavimaya Coast", "Llanowar Wastes", "Karplusan Forest", "Adarkar Wastes", "Underground River")
_ROCKS = ("Sol Ring", "Arcane Signet", "Fellwar Stone", "Mind Stone", "Azorius Signet", "Golgari Signet",
          "Simic Signet", "Talisman of Progress", "Talisman of Dominance", "Talisman of Unity",
          "Talisman of Impulse", "Talisman of Indulgence", "Commander's Sphere", "Thought Vessel")
_DORKS = ("Llanowar Elves", "Elvish Mystic", "Fyndhorn Elves", "Birds of Paradise", "Priest of Titania",
          "Elvish Archdruid", "Circle of Dreams Druid", "Elvish Harbinger")
_CREATURES = ("Elvish Visionary", "Beast Whisperer", "Wirewood Symbiote", "Craterhoof Behemoth")
_VARIED_COMMANDER = "Atraxa, Praetors' Voice"
_LOOP = ("import json, sys\n"
         "out = sys.stdout\n"
         "for line in sys.stdin.buffer:\n"
         "    out.write(json.dumps(json.loads(line)) + '\\n')\n"
         "    out.flush()\n")


def varied_board(seed: int) -> dict[str, Any]:
    """A varied 40-permanent Commander board of real cards: 12 basics, 6 utility lands, 3 shock and
    3 pain lands, 6 mana rocks, 6 mana creatures that count Elves or tap for mana, 4 other creatures;
    two permanents tapped, two creatures summoning sick; Atraxa as the commander."""
    rng = random.Random(seed)
    names = [rng.choice(bd.BASICS) for _ in range(12)] + rng.sample(_UTILITY, 6)
    names += rng.sample(_SHOCKS, 3) + rng.sample(_PAINS, 3) + rng.sample(_ROCKS, 6)
    perms = [bd.permanent(f"v{i}", n) for i, n in enumerate(names)]
    perms += [bd.permanent(f"e{i}", n) for i, n in enumerate(rng.sample(_DORKS, 6))]
    perms += [bd.permanent(f"c{i}", rng.choice(_CREATURES)) for i in range(4)]
    for p in rng.sample(perms[:30], 2):
        p["tapped"] = True
    for p in rng.sample(perms[30:], 2):
        p["sick"] = True
    you: dict[str, Any] = {"name": "you", "life": 40, "starting_life": 40, "hand": list(bd.HAND),
                           "commander": [_VARIED_COMMANDER]}
    return {"players": [you, {"name": "opponent", "life": 40}], "battlefield": perms}


def _lines(kind: str, query: str, n: int, seed: int) -> list[str]:
    """``n`` lines of ``query``, each on its own new board of ``kind`` (``commander`` or ``varied``)."""
    costs = bd.costs_for(seed, n)
    make = bd.commander_board if kind == "commander" else varied_board
    return [json.dumps({"query": query, "id": i, "state": make(seed * 100_000 + i), "cost": costs[i]})
            for i in range(n)]


def _cli() -> list[str]:
    exe = shutil.which("manasolver")
    return [exe] if exe else [sys.executable, "-m", "manasolver.solver.cli"]


class _Pipe:
    """A line-in, line-out process: ``manasolver batch`` or the plain JSON loop.

    Both are driven the same way, on the pipes' raw descriptors: a whole line written with one
    system call, answers read in blocks (a pipe read through an unbuffered file object reads a
    line one byte per call, 3-5 ms for a line carrying a board: the harness's time, not the
    process's), and a stream written and read in one thread under a selector (a writer thread
    would wait on the reader for the interpreter's lock, 5 ms a turn)."""

    def __init__(self, cmd: list[str]) -> None:
        self.proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, bufsize=0)
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self._in: IO[bytes] = self.proc.stdin
        self._out: IO[bytes] = self.proc.stdout
        self._rest = b""  # bytes read past the last answer taken

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

    def stream(self, lines: list[str]) -> tuple[list[dict[str, Any]], float]:
        """Every line written while the answers are read: (answers, seconds from the first write
        to the last answer)."""
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
            os.set_blocking(win, True)
        parts = b"".join(chunks).split(b"\n")
        out, self._rest = parts[:want], b"\n".join(parts[want:])
        out += [b""] * (want - len(out))
        return [json.loads(x) if x else {"error": {"code": "lost"}} for x in out], elapsed

    def close(self) -> None:
        self._in.close()
        try:
            self.proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.proc.kill()  # our own child, by its handle
            self.proc.wait(timeout=10)


def _stats(samples: list[float]) -> dict[str, Any]:
    if not samples:
        return {"n": 0}
    return {"n": len(samples), "median_ms": ms(statistics.median(samples)), "p99_ms": ms(percentile(samples, 99)),
            "max_ms": ms(max(samples))}


def _ratio(ours: float, loop: float) -> float:
    """Our time over the JSON loop's on the same lines (per line streamed, or median one at a time)."""
    return round(ours / max(1e-9, loop), 2)


def _errors(answers: list[dict[str, Any]]) -> int:
    return sum(1 for a in answers if "error" in a)


def _expected(lines: list[str]) -> list[dict[str, Any]]:
    from manasolver.solver.protocol import answer_line
    return [answer_line(line) for line in lines]


def _mismatches(got: list[dict[str, Any]], want: list[dict[str, Any]]) -> int:
    """Answers that differ from the in-process ones, whole (payability, payment, reason), except
    where either hit its time bound; a missing or extra answer counts too."""
    return sum(1 for a, b in zip(got, want) if a != b and not (hit_time_bound(a) or hit_time_bound(b))) \
        + abs(len(got) - len(want))


def _lane_share(lines: list[str]) -> str:
    """How many of ``lines`` the fresh-board lane of ``can_pay`` answers
    (:mod:`~manasolver.solver.fresh`), asked here, in the harness's process."""
    from manasolver.models.carddb import default_db
    from manasolver.solver.fresh import can_pay
    db = default_db()
    hits = sum(1 for line in lines if can_pay(json.loads(line), db) is not None)
    return f"{hits}/{len(lines)}"


def _time_bound_hits(answers: list[dict[str, Any]]) -> int:
    return sum(1 for a in answers if hit_time_bound(a))


# -- the sections --------------------------------------------------------------------------------

def _fresh(plan: ClientPlan, batch: _Pipe, loop: _Pipe, log: Callable[[str], None]) -> list[dict[str, Any]]:
    """Fresh boards through the batch process: can_pay streamed and one at a time, pay one at a time."""
    rows: list[dict[str, Any]] = []
    for kind, seed in (("commander", 11), ("varied", 12)):
        lines = _lines(kind, "can_pay", plan.fresh_lines, seed)
        answers, secs = batch.stream(lines)
        _, loop_secs = loop.stream(lines)
        per_line = secs / len(lines)
        loop_line = loop_secs / len(lines)
        row: dict[str, Any] = {
            "figure": f"fresh can_pay, {kind} boards (batch, streamed)", "query": "can_pay", "board": kind,
            "lines": len(lines), "lines_per_s": round(len(lines) / secs, 1), "per_line_ms": ms(per_line),
            "json_loop_ms": ms(loop_line), "ratio_to_json_loop": _ratio(per_line, loop_line),
            "errors": _errors(answers), "payable": sum(1 for a in answers if a.get("payable")),
            "mismatches": _mismatches(answers, _expected(lines)), "lane": _lane_share(lines),
            "target": f"≥ {TARGET_FRESH_CAN_PAY_PER_S:g}/s, ≤ {TARGET_FRESH_RATIO:g}× the JSON loop",
        }
        row["met"] = (row["lines_per_s"] >= TARGET_FRESH_CAN_PAY_PER_S
                      and row["ratio_to_json_loop"] <= TARGET_FRESH_RATIO)
        rows.append(row)
        log(f"client: {row['figure']}: {row['lines_per_s']}/s, {row['ratio_to_json_loop']}× the JSON loop")
        one = _lines(kind, "can_pay", plan.latency_lines, seed + 100)
        rows.append(_one_at_a_time(f"fresh can_pay, {kind} boards (batch, one line at a time)", "can_pay", kind,
                                   one, batch, loop, None))
        pay = _lines(kind, "pay", plan.pay_lines, seed + 200)
        row = _one_at_a_time(f"fresh pay, {kind} boards (batch, one line at a time)", "pay", kind, pay, batch,
                             loop, TARGET_FRESH_PAY_MS)
        rows.append(row)
        log(f"client: {row['figure']}: median {row.get('median_ms')} ms, p99 {row.get('p99_ms')} ms")
    return rows


def _one_at_a_time(figure: str, query: str, board: str, lines: list[str], batch: _Pipe, loop: _Pipe,
                   target: tuple[float, float] | None) -> dict[str, Any]:
    """Each line asked alone (write, wait for its answer): the latency a client sees."""
    times: list[float] = []
    answers: list[dict[str, Any]] = []
    for line in lines:
        ans, secs = batch.ask(line)
        answers.append(ans)
        times.append(secs)
    loop_times = [loop.ask(line)[1] for line in lines]
    row: dict[str, Any] = {"figure": figure, "query": query, "board": board, "lines": len(lines), **_stats(times),
                           "json_loop_ms": ms(statistics.median(loop_times)) if loop_times else None,
                           "ratio_to_json_loop": _ratio(statistics.median(times), statistics.median(loop_times))
                           if times and loop_times else None,
                           "errors": _errors(answers), "time_bound_hits": _time_bound_hits(answers),
                           "mismatches": _mismatches(answers, _expected(lines))}
    if target is not None and times:
        row["target"] = f"median ≤ {target[0]:g} ms, p99 ≤ {target[1]:g} ms"
        row["met"] = row["median_ms"] <= target[0] and row["p99_ms"] <= target[1]
    return row


def _repeated(plan: ClientPlan, batch: _Pipe, loop: _Pipe, log: Callable[[str], None]) -> list[dict[str, Any]]:
    """The same board sent again, and a session board: per line, streamed."""
    rows: list[dict[str, Any]] = []
    costs = bd.costs_for(21, plan.repeat_lines)
    for kind, state in (("commander", bd.commander_board(7)), ("varied", varied_board(7))):
        handle: str | None = None
        opened, _ = batch.ask(json.dumps({"query": "open", "state": state}))
        if isinstance(opened.get("board"), str):
            handle = opened["board"]
        for query in ("can_pay", "pay"):
            same = [json.dumps({"query": query, "id": i, "state": state, "cost": c}) for i, c in enumerate(costs)]
            rows.append(_streamed(f"same board again, {query}, {kind}", query, kind, same, batch, loop, same))
            if handle is None:
                rows.append({"figure": f"session board, {query}, {kind}", "query": query, "board": kind,
                             "status": "sessions not available",
                             "message": str(opened.get("error", {}).get("message", opened))[:200]})
                continue
            session = [json.dumps({"query": query, "id": i, "board": handle, "cost": c}) for i, c in enumerate(costs)]
            rows.append(_streamed(f"session board, {query}, {kind}", query, kind, session, batch, loop, same))
        if handle is not None:
            batch.ask(json.dumps({"query": "close", "board": handle}))
    for row in rows:
        if "per_line_ms" in row:
            log(f"client: {row['figure']}: {row['per_line_ms']} ms a line ({row['lines_per_s']}/s)")
    return rows


def _streamed(figure: str, query: str, board: str, lines: list[str], batch: _Pipe, loop: _Pipe,
              reference: list[str]) -> dict[str, Any]:
    """``lines`` streamed through the batch process and through the JSON loop; every answer
    compared whole with ``reference`` (the same queries with the board sent in full) answered here."""
    answers, secs = batch.stream(lines)
    _, loop_secs = loop.stream(lines)
    want = _expected(reference)
    per_line = secs / len(lines)
    limit = TARGET_REPEAT_MS[query]
    return {"figure": figure, "query": query, "board": board, "lines": len(lines),
            "lines_per_s": round(len(lines) / secs, 1), "per_line_ms": ms(per_line),
            "json_loop_ms": ms(loop_secs / len(lines)),
            "ratio_to_json_loop": _ratio(secs, loop_secs), "errors": _errors(answers),
            "differ_from_in_process": _mismatches(answers, want),
            "target": f"≤ {limit:g} ms a line", "met": ms(per_line) <= limit}


# -- HTTP -------------------------------------------------------------------------------------------

def _http(plan: ClientPlan, log: Callable[[str], None]) -> list[dict[str, Any]]:
    """``manasolver serve --port 0``: session can_pay from 1 and 4 client processes, keep-alive."""
    server = subprocess.Popen(_cli() + ["serve", "--port", "0"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              text=True)
    rows: list[dict[str, Any]] = []
    try:
        assert server.stdout is not None
        first = server.stdout.readline()
        try:
            url = str(json.loads(first)["listening"])
        except (ValueError, KeyError, TypeError):
            return [{"figure": "HTTP", "status": "server did not start", "message": first[:200]}]
        state = bd.commander_board(5)
        opened = http_bench.post(url, {"query": "open", "state": state})
        query: dict[str, Any] = {"query": "can_pay", "cost": "{2}{G}"}
        how = "session board"
        if isinstance(opened, dict) and isinstance(opened.get("board"), str):
            query["board"] = opened["board"]
        else:
            how = "board sent in full (sessions not available)"
            query["state"] = state
        from manasolver.solver.protocol import answer
        expected = answer({"query": "can_pay", "cost": "{2}{G}", "state": state})
        body = json.dumps(query).encode("utf-8")
        for _ in range(3):  # the server's lazy imports and card data, outside the figure
            http_bench.post(url, query)
        single = 0.0
        for clients in (1, 4):
            got = http_bench.measure(url, clients, plan.http_seconds, body, expected)
            done, failed, rate = got["requests"], got["failed"], got["requests_per_second"]
            row: dict[str, Any] = {"figure": f"HTTP keep-alive, can_pay on a {how}, {clients} client"
                                             f"{'s' if clients > 1 else ''}",
                                   "clients": clients, "requests": done, "failed": failed,
                                   "requests_per_s": round(rate, 1),
                                   "target": f"≥ {TARGET_HTTP_PER_S:g}/s, no failures"
                                             + (", 4 clients ≥ 1 client" if clients > 1 else "")}
            row["met"] = rate >= TARGET_HTTP_PER_S and failed == 0 and (clients == 1 or rate >= single)
            if clients == 1:
                single = rate
            rows.append(row)
            log(f"client: {row['figure']}: {row['requests_per_s']}/s, {failed} failed")
    finally:
        server.terminate()  # our own child, by its handle
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait(timeout=10)
    return rows


# -- filter board, cold start, phase.rs ------------------------------------------------------------

def _filters(plan: ClientPlan, log: Callable[[str], None]) -> list[dict[str, Any]]:
    """``example:filters`` in process: pay on real costs, and options."""
    from manasolver.solver.demo import example_state
    from manasolver.solver.protocol import answer
    state = example_state("filters")
    costs = ("{W}{U}{B}{R}{G}", "{U}{U}{R}{R}", "{2}{W/U}{B/P}", "{5}{R}{R}", "{2/W}{2/U}", "{X}{G}{G}", "{G}",
             "{W}{W}{W}")[:plan.filter_costs]
    times: list[float] = []
    answers: list[dict[str, Any]] = []
    for _ in range(plan.filter_repeats):
        for cost in costs:
            t0 = time.perf_counter()
            answers.append(answer({"query": "pay", "state": state, "cost": cost}))
            times.append(time.perf_counter() - t0)
    row: dict[str, Any] = {"figure": f"filter board pay ({len(costs)} costs)", **_stats(times),
                           "time_bound_hits": _time_bound_hits(answers), "errors": _errors(answers),
                           "target": f"median ≤ {TARGET_FILTER_PAY_MS:g} ms, never at the time bound"}
    row["met"] = row.get("median_ms", 1e9) <= TARGET_FILTER_PAY_MS and row["time_bound_hits"] == 0 \
        and row["errors"] == 0
    rows = [row]
    log(f"client: {row['figure']}: median {row.get('median_ms')} ms, {row['time_bound_hits']} at the time bound")
    if plan.options:
        t0 = time.perf_counter()
        ans = answer({"query": "options", "state": state, "limit": 100_000})
        secs = time.perf_counter() - t0
        opt = {"figure": "filter board options", "seconds": round(secs, 4), "options": len(ans.get("options", [])),
               "complete": ans.get("complete"), "time_bound_hits": int(hit_time_bound(ans)),
               "errors": int("error" in ans), "target": f"exact, ≤ {TARGET_OPTIONS_S:g} s"}
        opt["met"] = secs <= TARGET_OPTIONS_S and ans.get("complete") is True and not opt["time_bound_hits"]
        rows.append(opt)
        log(f"client: {opt['figure']}: {opt['seconds']} s, complete {opt['complete']}")
    return rows


def _cold(plan: ClientPlan, log: Callable[[str], None]) -> dict[str, Any]:
    """``manasolver can-pay example:commander "{2}{G}"``: process start to answer, cold.

    Bytecode is written and read as an installed package has it (``PYTHONDONTWRITEBYTECODE``
    left out of the children's environment: with it, every start recompiles every module), and
    the first run, which fills the console script's compile cache, is not counted.  The
    installed package's own figures: ``benchmarks/startup_installed.py``."""
    cmd = _cli() + ["can-pay", "example:commander", "{2}{G}"]
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    subprocess.run(cmd, check=False, capture_output=True, text=True, timeout=120, env=env)
    times: list[float] = []
    ok = True
    for _ in range(plan.cold_runs):
        t0 = time.perf_counter()
        proc = subprocess.run(cmd, check=False, capture_output=True, text=True, timeout=120, env=env)
        times.append(time.perf_counter() - t0)
        ok = ok and proc.returncode == 0
    loop = [sys.executable, "-c", "import json; print(json.dumps({'payable': True}))"]
    bare: list[float] = []
    for _ in range(plan.cold_runs):
        t0 = time.perf_counter()
        subprocess.run(loop, check=False, capture_output=True, timeout=60)
        bare.append(time.perf_counter() - t0)
    median = round(statistics.median(times), 4)
    row: dict[str, Any] = {"figure": "cold start: manasolver can-pay example:commander \"{2}{G}\"",
                           "runs": len(times), "median_s": median, "min_s": round(min(times), 4), "answer_ok": ok,
                           "bare_python_json_s": round(statistics.median(bare), 4),
                           "target": f"≤ {TARGET_COLD_S:g} s", "met": median <= TARGET_COLD_S and ok}
    log(f"client: cold start {row['median_s']} s (a bare interpreter printing JSON: {row['bare_python_json_s']} s)")
    return row


def _phase(plan: ClientPlan, log: Callable[[str], None]) -> dict[str, Any]:
    """phase.rs on fresh Commander boards: its castability check and autotapped cast (request
    positioned: phase.rs has no JSON path of its own to compare)."""
    if plan.phase_boards <= 0:
        return {"status": f"skipped in the {plan.name} run"}
    from manasolver.benchmarks.cases import Case
    from manasolver.benchmarks.peer import measure_phase
    costs = bd.costs_for(31, plan.phase_boards)
    cases = [Case(40, f"fresh-{i}", bd.commander_board(11 * 100_000 + i), costs[i], "real")
             for i in range(plan.phase_boards)]
    why = measure_phase(cases, lambda s: None)
    if why:
        return {"status": why}
    checks = [c.phase["check_ms"] for c in cases if c.phase and "error" not in c.phase]
    casts = [c.phase["cast_ms"] for c in cases if c.phase and c.phase.get("cast_ms") is not None]
    out = {"status": "ok", "boards": len(cases), "check_median_ms": round(statistics.median(checks), 4)
           if checks else None, "cast_median_ms": round(statistics.median(casts), 4) if casts else None}
    log(f"client: phase.rs on fresh boards: check {out['check_median_ms']} ms, cast {out['cast_median_ms']} ms")
    return out


# -- the run --------------------------------------------------------------------------------------

def run(plan: ClientPlan = QUICK, log: Callable[[str], None] = print) -> dict[str, Any]:
    """Measure every figure of the section; returns JSON-ready results."""
    from manasolver.benchmarks.machine import machine
    t0 = time.perf_counter()
    out: dict[str, Any] = {"machine": machine(), "plan": plan.name}
    batch = _Pipe(_cli() + ["batch"])
    loop = _Pipe([sys.executable, "-c", _LOOP])
    try:
        warm = _lines("commander", "pay", 3, 99) + _lines("varied", "pay", 3, 99)
        # CP-SAT answers what the fast optimiser declines; its import (ortools, pandas: about
        # 0.3 s) comes once per process, so it is made here rather than in the first such line.
        warm.append(json.dumps({"query": "pay", "state": bd.commander_board(98), "cost": "{2}{G}",
                                "backend": "cpsat"}))
        for line in warm:  # start-up and lazy imports, outside every figure
            batch.ask(line)
            loop.ask(line)
        _expected(warm)
        rows = _fresh(plan, batch, loop, log)
        rows += _repeated(plan, batch, loop, log)
    finally:
        batch.close()
        loop.close()
    rows += _http(plan, log)
    rows += _filters(plan, log)
    out["rows"] = rows
    out["cold_start"] = _cold(plan, log)
    out["phase"] = _phase(plan, log)
    phase_check = out["phase"].get("check_median_ms")
    phase_cast = out["phase"].get("cast_median_ms")
    for row in rows:
        base = row.get("per_line_ms") or row.get("median_ms")
        ref = phase_check if row.get("query") == "can_pay" else phase_cast if row.get("query") == "pay" else None
        if base and ref and row.get("board") == "commander":
            row["phase_ms"] = ref
            row["phase_ratio"] = round(ref / base, 2)
    out["seconds"] = round(time.perf_counter() - t0, 1)
    return out


def markdown(results: dict[str, Any]) -> str:
    """The section as markdown: one table row per figure."""
    lines = [f"## Client path ({results.get('plan')} run, {results.get('seconds')} s)", "",
             "Each line's time through the real front end beside a plain JSON loop that only decodes and "
             "encodes the same lines through the same pipes; phase.rs (request positioned) where it applies.", "",
             "| figure | n | per line / median | p99 | lines or requests per s | JSON loop | × JSON loop | "
             "phase.rs | target | met | checks |", "|---|---|---|---|---|---|---|---|---|---|---|"]
    for r in results.get("rows", []):
        if "status" in r:
            lines.append(f"| {r['figure']} | | | | | | | | | | {r['status']}: {r.get('message', '')} |")
            continue
        per = r.get("per_line_ms", r.get("median_ms", ""))
        if "seconds" in r:
            per = f"{r['seconds']} s"
        rate = r.get("lines_per_s", r.get("requests_per_s", ""))
        checks = ", ".join(f"{k} {r[k]}" for k in ("errors", "mismatches", "differ_from_in_process", "failed",
                                                     "time_bound_hits", "complete", "lane") if k in r)
        phase = f"{r['phase_ms']} ms ({r['phase_ratio']}×)" if "phase_ms" in r else ""
        lines.append(f"| {r['figure']} | {r.get('lines', r.get('requests', r.get('n', '')))} | {per} | "
                     f"{r.get('p99_ms', '')} | {rate} | {r.get('json_loop_ms', '')} | "
                     f"{r.get('ratio_to_json_loop', '')} | {phase} | {r.get('target', '')} | {r.get('met', '')} | "
                     f"{checks} |")
    c = results.get("cold_start", {})
    if c:
        lines.append(f"| {c['figure']} | {c['runs']} | {c['median_s']} s (min {c['min_s']}) | | | "
                     f"{c['bare_python_json_s']} s (bare interpreter) | | | {c['target']} | {c['met']} | "
                     f"answer ok {c['answer_ok']} |")
    lines += ["", f"phase.rs on fresh boards: `{json.dumps(results.get('phase'))}`", ""]
    return "\n".join(lines) + "\n"


def plot(results: dict[str, Any], out: Path) -> Path | None:
    """``client.png``: each figure's time a line beside the JSON loop's (log scale)."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except Exception:  # noqa: BLE001 - no plot without matplotlib
        return None
    rows = [r for r in results.get("rows", []) if r.get("per_line_ms") or r.get("median_ms")]
    if not rows:
        return None
    labels = [r["figure"] for r in rows]
    ours = [float(r.get("per_line_ms") or r.get("median_ms")) for r in rows]
    loop = [float(r.get("json_loop_ms") or 0) for r in rows]
    fig, ax = plt.subplots(figsize=(9, 0.42 * len(rows) + 1.2))
    y = list(range(len(rows)))
    ax.barh([i + 0.2 for i in y], ours, height=0.4, label="manasolver")
    ax.barh([i - 0.2 for i in y], loop, height=0.4, label="plain JSON loop")
    ax.set_yticks(y, labels, fontsize=7)
    ax.set_xscale("log")
    ax.set_xlabel("milliseconds a line (log)")
    ax.legend(fontsize=8)
    ax.set_title("client path", fontsize=10)
    fig.tight_layout()
    path = out / "client.png"
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return path


def write(results: dict[str, Any], out: Path, plots: bool = True) -> list[Path]:
    """``client.json``, ``client.md`` and (with ``plots``) ``client.png`` into ``out``."""
    out.mkdir(parents=True, exist_ok=True)
    paths = [out / "client.json", out / "client.md"]
    paths[0].write_text(json.dumps(results, indent=1) + "\n", encoding="utf-8")
    paths[1].write_text(markdown(results), encoding="utf-8")
    png = plot(results, out) if plots else None
    return paths + ([png] if png else [])


def main(argv: list[str] | None = None) -> int:
    """``python -m manasolver.benchmarks.client [--quick] [--out DIR]``."""
    parser = argparse.ArgumentParser(prog="python -m manasolver.benchmarks.client", description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="a run of a few seconds")
    parser.add_argument("--out", metavar="DIR", help="write client.md, client.json, client.png here "
                        "(default: benchmarks/results of a checkout; none for --quick)")
    args = parser.parse_args(argv)
    results = run(QUICK if args.quick else FULL, log=lambda s: print(s, file=sys.stderr))
    out = Path(args.out) if args.out else (None if args.quick else _default_out())
    if out is not None:
        write(results, out)
        print(f"results written to {out}", file=sys.stderr)
    print(markdown(results))
    return 0


def _default_out() -> Path:
    root = Path(__file__).resolve().parent.parent
    if (root / "benchmarks").is_dir() and (root / "pyproject.toml").is_file():
        return root / "benchmarks" / "results"
    return Path.cwd() / "bench-results"


if __name__ == "__main__":
    sys.exit(main())
