"""The audit of bounded work (SPEC §5: no input may hang the process or answer wrongly without
saying so), run by hand: ``python -m manasolver.benchmarks.audit [--only 'NAME|...'] [--no-serve]
[--out benchmarks/results/audit.md]``.

Every shape of hostile-but-valid input once found running far past its bounds is asked again
through the protocol, in this process, each after a warm-up query (the card data and the
optimiser's first import are outside the figure): an Everflowing Chalice with 1,000,000 charge
counters (beyond the board's limit: refused) and with as many as the limit admits, a cost of
3,000 twobrid or Phyrexian symbols, 1,000 Reflecting Pools, 10,000 permanents of the 31 real
cards of the benchmark's Commander board, ``keep_castable`` with 1,000 costs, ``payments`` on a
Chalice, the queries that once ran past their stage bounds, and hostile input (invalid UTF-8 in
``batch``, a lone surrogate in a card name, a NUL in a path, ``spend_color`` 10**30).  Each row
has the wall time, the query's budget (:data:`~manasolver.solver.budget.QUERY_BUDGET`, plus
:data:`~manasolver.solver.budget.MARGIN` for writing the answer), whether the answer says the
bound decided it (``time_bound``, ``complete: false``, a REASON with ``"proved": false``), and
whether the row passes: an answer (or the input's own error) within budget and margin.

Then the concurrency check (4 threads asking the bundled Commander board's pays 200 times each
against the serial answers) and the service checks: 128 clients connecting to ``manasolver
serve`` at once (resets counted, through :func:`manasolver.benchmarks.http.connect_burst`) and
requests with a foreign ``Origin`` or ``Host`` (refused with 403).  The table goes to
``benchmarks/results/audit.md``.
"""

from __future__ import annotations

import argparse
import copy
import json
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

__all__ = ["HOSTILE", "SHAPES", "Row", "concurrency", "main", "run_shape", "service"]

CLI = [sys.executable, "-m", "manasolver.solver.service.cli"]


def _example(name: str) -> dict[str, Any]:
    from manasolver.solver.service.demo import example_state
    state: dict[str, Any] = example_state(name)
    return state


def _board(*perms: dict[str, Any]) -> dict[str, Any]:
    return {"players": [{"name": "you"}, {"name": "opponent"}], "battlefield": list(perms)}


def _chalice(counters: int) -> dict[str, Any]:
    board = copy.deepcopy(_example("basics"))
    board["battlefield"].append({"id": "z", "card": "Everflowing Chalice", "counters": {"charge": counters}})
    return board


def _pools() -> dict[str, Any]:
    return _board(*[{"id": f"i{i}", "card": "Island"} for i in range(5)],
                  *[{"id": f"p{i}", "card": "Reflecting Pool"} for i in range(1000)])


def _big_commander() -> dict[str, Any]:
    """The benchmark's 40-permanent Commander board (31 real cards: basics, duals, pain and filter
    lands, Signets, Sol Ring, dorks, a Treasure) repeated to 10,000 permanents: 1,500 members
    whose abilities cost mana."""
    from manasolver.benchmarks.boards import commander_board
    board = commander_board(0)
    perms = board["battlefield"]
    board["battlefield"] = [{**perms[i % len(perms)], "id": f"p{i}"} for i in range(10_000)]
    return board


def _big_lands() -> dict[str, Any]:
    """``commander_board(0, size=10_000)``: the same cards, grown with basics."""
    from manasolver.benchmarks.boards import commander_board
    return commander_board(0, size=10_000)


def _keep_many() -> list[str]:
    from manasolver.benchmarks.boards import SPELL_COSTS
    costs = [c for _, c in SPELL_COSTS]
    return [costs[i % len(costs)] for i in range(1000)]


@dataclass
class Shape:
    """One audited input: ``build()`` gives the protocol query (or a callable answering it)."""

    name: str
    build: Callable[[], dict[str, Any]]
    expect: str = "answer"  # "answer", or the error code the input deserves


def _q(query: str, state: Callable[[], dict[str, Any]], **fields: Any) -> Callable[[], dict[str, Any]]:
    return lambda: {"query": query, "state": state(), **fields}


SHAPES: tuple[Shape, ...] = (
    Shape("Chalice 1,000,000 counters: pay {C}", _q("pay", lambda: _chalice(1_000_000), cost="{C}"), "bad_state"),
    Shape("Chalice 1,000,000 counters: max_x {X}", _q("max_x", lambda: _chalice(1_000_000), cost="{X}"), "bad_state"),
    Shape("Chalice 100,000 counters (the limit): pay {C}", _q("pay", lambda: _chalice(100_000), cost="{C}")),
    Shape("Chalice 100,000 counters: max_x {X}", _q("max_x", lambda: _chalice(100_000), cost="{X}")),
    Shape("Chalice 100,000 counters: payments {C}", _q("payments", lambda: _chalice(100_000), cost="{C}")),
    Shape("Chalice 100,000 counters: options", _q("options", lambda: _chalice(100_000))),
    Shape("{2/W} x3,000 on basics: pay", _q("pay", lambda: _example("basics"), cost="{2/W}" * 3000)),
    Shape("{W/P} x3,000 on basics: pay", _q("pay", lambda: _example("basics"), cost="{W/P}" * 3000)),
    Shape("{2/W} x3,000 on Commander: can_pay", _q("can_pay", lambda: _example("commander"), cost="{2/W}" * 3000)),
    Shape("{W/P} x3,000 on Commander: max_x {X}{W/P}...",
          _q("max_x", lambda: _example("commander"), cost="{X}" + "{W/P}" * 3000)),
    Shape("1,000 Reflecting Pools: could_produce", _q("could_produce", _pools)),
    Shape("1,000 Reflecting Pools: pay {U}{U}", _q("pay", _pools, cost="{U}{U}")),
    Shape("1,000 Reflecting Pools: can_pay {U}x1006", _q("can_pay", _pools, cost="{U}" * 1006)),
    Shape("1,000 Reflecting Pools: options", _q("options", _pools)),
    Shape("10,000 permanents (Commander board x250): can_pay {2}{G}", _q("can_pay", _big_commander, cost="{2}{G}")),
    Shape("10,000 permanents (x250): can_pay {15000} (unpayable)", _q("can_pay", _big_commander, cost="{15000}")),
    Shape("10,000 permanents (x250): can_pay {9000}", _q("can_pay", _big_commander, cost="{9000}")),
    Shape("10,000 permanents (x250): pay {5}{W}{U}", _q("pay", _big_commander, cost="{5}{W}{U}")),
    Shape("10,000 permanents (x250): pay {9000}", _q("pay", _big_commander, cost="{9000}")),
    Shape("10,000 permanents (x250): max_x {X}{G}", _q("max_x", _big_commander, cost="{X}{G}")),
    Shape("10,000 permanents (x250): payments {2}{G}", _q("payments", _big_commander, cost="{2}{G}", limit=10)),
    Shape("10,000 permanents (x250): options", _q("options", _big_commander, limit=10)),
    Shape("10,000 permanents (x250): could_produce", _q("could_produce", _big_commander)),
    Shape("10,000 permanents (grown with basics): can_pay {20000}", _q("can_pay", _big_lands, cost="{20000}")),
    Shape("10,000 permanents (grown with basics): max_x {X}{G}", _q("max_x", _big_lands, cost="{X}{G}")),
    Shape("Treasure Cruise, 10,000 graveyard cards (the zone limit): pay",
          lambda: {"query": "pay", "state": {**_example("basics"), "players": [
              {"name": "you", "graveyard": ["Forest"] * 10_000}, {"name": "opponent"}]},
                   "cost": "{7}{U}", "spell": {"card": "Treasure Cruise"}}),
    Shape("Chord of Calling, 10,000 Llanowar Elves (the board limit): max_x",
          lambda: {"query": "max_x", "cost": "{X}{G}{G}{G}", "spell": {"card": "Chord of Calling"},
                   "state": _board(*[{"id": f"e{i}", "card": "Llanowar Elves"} for i in range(10_000)])}),
    Shape("a hand of 10,000 cards (keep_castable's default): pay {2}{G}",
          lambda: {"query": "pay", "cost": "{2}{G}", "state": {**_example("commander"), "players": [
              {**_example("commander")["players"][0], "hand": ["Counterspell", "Cultivate", "Lightning Bolt",
                                                               "Llanowar Elves"] * 2500}, {"name": "opponent"}]}}),
    Shape("a pool of 333 mana (the pool limit): options",
          lambda: {"query": "options", "state": {**_example("commander"), "players": [
              {"name": "you", "pool": "{R}{G}{C}" * 111}, {"name": "opponent"}]}}),
    Shape("basics: pay {X} with x 1,000,000 (the x limit)",
          _q("pay", lambda: _example("basics"), cost="{X}", x=1_000_000)),
    Shape("keep_castable with 1,000 costs: pay {2}{G}",
          lambda: {"query": "pay", "state": _example("commander"), "cost": "{2}{G}",
                   "policy": {"keep_castable": _keep_many()}}),
    Shape("keep_castable with 1,000 costs: max_x {X}{G}",
          lambda: {"query": "max_x", "state": _example("commander"), "cost": "{X}{G}",
                   "policy": {"keep_castable": _keep_many()}}),
    Shape("Commander: pay {2}{W/U}{B/P} (CP-SAT backend)",
          _q("pay", lambda: _example("commander"), cost="{2}{W/U}{B/P}", backend="cpsat")),
    Shape("Commander: max_x {X}{G}{G}", _q("max_x", lambda: _example("commander"), cost="{X}{G}{G}")),
    Shape("Commander: payments {G} (all)", _q("payments", lambda: _example("commander"), cost="{G}", limit=1000)),
    Shape("Commander: payments {W}{U}{B}{R}{G}",
          _q("payments", lambda: _example("commander"), cost="{W}{U}{B}{R}{G}")),
    Shape("Commander: options", _q("options", lambda: _example("commander"))),
    Shape("filters: pay {W}{U}{B}{R}{G}", _q("pay", lambda: _example("filters"), cost="{W}{U}{B}{R}{G}")),
    Shape("filters: options", _q("options", lambda: _example("filters"))),
    Shape("three Cascading Cataracts and thirty lands: options",
          lambda: {"query": "options", "state": __import__("manasolver.benchmarks.boards",
                                                           fromlist=["x"]).cataracts_board()}),
    Shape("300 basics: payments {100}{G}",
          _q("payments", lambda: _board(*({"id": f"b{i}", "card": ("Plains", "Island", "Swamp", "Mountain",
                                                                   "Forest")[i % 5]} for i in range(300))),
             cost="{100}{G}", limit=5)),
    Shape("lone surrogate in a card name", _q("pay", lambda: _board({"id": "q", "card": "Forest\ud800"}), cost="{G}"),
          "unknown_card"),
    Shape("NUL in the cards path", _q("pay", lambda: _example("basics"), cost="{G}", cards="cards\x00.jsonl"),
          "bad_query"),
    Shape("spend_color 10**30", _q("pay", lambda: _example("commander"), cost="{G}",
                                   policy={"spend_color": {"G": 10**30}}), "bad_query"),
)


@dataclass
class Row:
    """One audited input's outcome."""

    name: str
    seconds: float
    budget: float
    flagged: str  # what the answer says a bound decided ("" when nothing)
    outcome: str
    passed: bool


def _flagged(result: dict[str, Any]) -> bool:
    """Does the answer say a bound decided it (``complete: false`` also when the list's
    ``limit`` cut it: the answer tells them apart with ``time_bound``/``bounded``)?"""
    reason = result.get("reason")
    return (result.get("time_bound") is True or result.get("complete") is False
            or result.get("bounded") is True
            or (isinstance(reason, dict) and reason.get("proved") is False))


def _flags(result: dict[str, Any]) -> str:
    marks = [k for k in ("time_bound", "bounded") if result.get(k) is True]
    if result.get("complete") is False:
        marks.append("complete: false")
    if isinstance(result.get("reason"), dict) and result["reason"].get("proved") is False:
        marks.append("proved: false")
    if "error" in result and "time bound" in result["error"]["message"]:
        marks.append("time-bound error")
    return ", ".join(marks)


def _short(text: Any) -> str:
    text = str(text)
    return text if len(text) <= 40 else f"{text[:24]}…({len(text)} chars)"


def _outcome(result: dict[str, Any]) -> str:
    if "error" in result:
        return f"error {result['error']['code']}: {result['error']['message'][:70]}"
    for key in ("payable", "max_x"):
        if key in result:
            text = f"{key} {result[key]}"
            if isinstance(result.get("reason"), dict):
                text += f" ({result['reason']['code']}, missing {_short(result['reason'].get('missing'))})"
            return text
    for key in ("payments", "options"):
        if key in result:
            return f"{len(result[key])} {key}, complete {result.get('complete')}"
    if "could_produce" in result:
        return f"could_produce of {len(result['could_produce'])} permanents"
    return json.dumps(result)[:80]


#: Seconds after which a shape's query is stopped (its process killed) and the row fails.
HARD_STOP = 60.0


def run_shape(shape: Shape, hard_stop: float = HARD_STOP) -> Row:
    """:func:`ask_shape` in a forked child of this warm process, killed after ``hard_stop``
    seconds (a query past every bound must not stall the audit)."""
    import multiprocessing
    ctx = multiprocessing.get_context("fork")
    parent, child = ctx.Pipe(duplex=False)
    proc = ctx.Process(target=lambda: child.send(ask_shape(shape)))
    start = time.monotonic()
    proc.start()
    if parent.poll(hard_stop):
        row: Row = parent.recv()
        proc.join(30)
        return row
    proc.kill()
    proc.join(30)
    return Row(shape.name, time.monotonic() - start, _budget(), "", f"no answer: stopped after {hard_stop:g} s", False)


def _budget() -> float:
    from manasolver.solver.budget import QUERY_BUDGET
    return QUERY_BUDGET


def ask_shape(shape: Shape) -> Row:
    """Ask ``shape``'s query once (after the process is warm) and judge the answer."""
    from manasolver.solver.budget import MARGIN, QUERY_BUDGET
    from manasolver.solver.service.protocol import answer
    query = shape.build()
    start = time.monotonic()
    result = answer(query)
    took = time.monotonic() - start
    budget = QUERY_BUDGET + MARGIN
    if shape.expect == "answer":
        good = "error" not in result or "time bound" in result["error"]["message"]
    else:
        good = result.get("error", {}).get("code") == shape.expect
    if "error" in result and "internal error" in result["error"]["message"]:
        good = False
    return Row(shape.name, took, QUERY_BUDGET, _flags(result), _outcome(result), good and took <= budget)


def batch_bad_bytes() -> Row:
    """``batch`` on a stream with undecodable lines between good ones: every line answered."""
    lines = [b'{"query": "mana_value", "cost": "{2}{G}", "id": 1}', b'{"query": "mana_value", "cost": "{\xff}"}',
             b'{"query": "can_pay", "state": "example:basics", "cost": "{G}", "id": 3}', b"\xc3\xff\xfe",
             b'{"query": "mana_value", "card": "Reaper King", "id": 5}']
    start = time.monotonic()
    proc = subprocess.run([*CLI, "batch"], input=b"\n".join(lines) + b"\n", capture_output=True, timeout=300)
    took = time.monotonic() - start
    out = proc.stdout.decode("utf-8", "replace").splitlines()
    good = (proc.returncode == 0 and len(out) == len(lines) and b"Traceback" not in proc.stderr
            and all("error" in json.loads(out[i]) for i in (1, 3)))
    return Row("batch: invalid UTF-8 on lines 2 and 4 of 5", took, 0.0, "",
               f"{len(out)} answers of {len(lines)}, exit {proc.returncode}", good)


def concurrency(threads: int = 4, rounds: int = 200) -> dict[str, Any]:
    """``threads`` threads each ask the bundled Commander board's pays ``rounds`` times, both
    through the protocol (where a board seen before has its answers kept) and through the
    Python API (``queries.pay`` on one request per cost, shared by the threads: every call
    solves again); answers differing from the serial ones (unless flagged by a bound) are
    counted."""
    from manasolver.solver import queries
    from manasolver.solver.service.protocol import answer, build_request
    state = _example("commander")
    costs = ("{2}{G}{U}", "{W}{U}{B}{R}{G}", "{3}{B}{B}", "{1}{R}", "{4}{U}{U}", "{2}{W/U}{B/P}")
    protocol_queries = [{"query": "pay", "state": state, "cost": c} for c in costs]
    requests = [build_request(q) for q in protocol_queries]

    def by_protocol(i: int) -> dict[str, Any]:
        return answer(protocol_queries[i])

    def by_api(i: int) -> dict[str, Any]:
        found: dict[str, Any] = queries.pay(requests[i]).to_json()
        return found

    out: dict[str, Any] = {"threads": threads, "rounds": rounds}
    for label, ask in (("protocol", by_protocol), ("api", by_api)):
        serial = [json.dumps(ask(i), sort_keys=True) for i in range(len(costs))]
        counts = {"answers": 0, "different": 0, "flagged": 0, "errors": 0}
        lock = threading.Lock()

        def run() -> None:
            for _ in range(rounds):
                for i in range(len(costs)):
                    try:
                        got = ask(i)
                        kind = "flagged" if _flagged(got) else (
                            "different" if json.dumps(got, sort_keys=True) != serial[i] else "")
                    except Exception:  # noqa: BLE001 - a crash in a thread is counted, never hidden
                        kind = "errors"
                    with lock:
                        counts["answers"] += 1
                        if kind:
                            counts[kind] += 1

        start = time.monotonic()
        workers = [threading.Thread(target=run) for _ in range(threads)]
        for w in workers:
            w.start()
        for w in workers:
            w.join()
        out[label] = {**counts, "seconds": round(time.monotonic() - start, 1)}
    return out


def service(connects: int = 128) -> dict[str, Any]:
    """A real ``manasolver serve``: ``connects`` clients at once, and foreign Origin/Host refused."""
    import http.client

    from manasolver.benchmarks.http import connect_burst
    from manasolver.solver.service.protocol import answer
    server = subprocess.Popen([*CLI, "serve", "--port", "0"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              text=True)
    try:
        assert server.stdout is not None
        url = json.loads(server.stdout.readline())["listening"]
        port = int(url.rstrip("/").rsplit(":", 1)[1])
        query = {"query": "can_pay", "state": _example("commander"), "cost": "{2}{G}"}
        body = json.dumps(query).encode()
        expected = answer(query)
        burst = connect_burst(url, connects, body, expected)

        def status(headers: dict[str, str]) -> int:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
            try:
                conn.request("POST", "/v1/query", body, {"Content-Type": "application/json", **headers})
                response = conn.getresponse()
                response.read()
                return response.status
            finally:
                conn.close()

        checks = {"foreign Origin": status({"Origin": "http://evil.example"}),
                  "foreign Host": status({"Host": "evil.example"}),
                  "text/plain body": status({"Content-Type": "text/plain"}),
                  "own Origin": status({"Origin": f"http://127.0.0.1:{port}"})}
    finally:
        server.terminate()
        try:
            _, err = server.communicate(timeout=30)
        except subprocess.TimeoutExpired:  # pragma: no cover
            server.kill()
            _, err = server.communicate()
    return {"burst": burst, "statuses": checks, "tracebacks": err.count("Traceback")}


def _warm() -> None:
    from manasolver.solver.service.protocol import answer
    answer({"query": "pay", "state": _example("commander"), "cost": "{2}{W}", "backend": "cpsat"})
    answer({"query": "payments", "state": _example("basics"), "cost": "{1}", "limit": 2})
    answer({"query": "could_produce", "state": _example("pools"), "detail": True})


def _markdown(rows: list[Row], conc: dict[str, Any] | None, serve: dict[str, Any] | None) -> str:
    from manasolver.benchmarks.machine import machine
    from manasolver.solver.budget import MARGIN, QUERY_BUDGET
    lines = ["# Audit: bounded work, one time budget per query", "",
             "`python -m manasolver.benchmarks.audit`; machine: "
             + ", ".join(f"{k} {v}" for k, v in machine().items() if k != "versions") + ".", "",
             f"Budget per query {QUERY_BUDGET:g} s, answers within budget + {MARGIN:g} s margin; "
             "*flagged*: the answer says the bound decided it.", "",
             "| input | wall s | budget s | flagged | answer | pass |", "| --- | ---: | ---: | --- | --- | --- |"]
    for r in rows:
        budget = f"{r.budget:g}" if r.budget else "–"
        lines.append(f"| {r.name} | {r.seconds:.2f} | {budget} | {r.flagged or 'no'} | "
                     f"{r.outcome.replace('|', '/')} | {'yes' if r.passed else '**no**'} |")
    if conc is not None:
        lines += ["", "## Threads", "",
                  f"{conc['threads']} threads × {conc['rounds']} rounds of the bundled Commander board's 6 pays, "
                  "against the same asked serially:", ""]
        for label in ("protocol", "api"):
            c = conc[label]
            lines.append(f"- {label}: {c['answers']} answers, {c['different']} different, {c['flagged']} flagged "
                         f"by a bound, {c['errors']} raised ({c['seconds']} s)")
    if serve is not None:
        b = serve["burst"]
        lines += ["", "## Service", "",
                  f"{b['connects']} clients connecting at once: outcomes {b['outcomes']}, resets {b['resets']}, "
                  f"slowest connect {b['slowest_connect_s']} s.",
                  "Statuses: " + ", ".join(f"{k} {v}" for k, v in serve["statuses"].items())
                  + f"; tracebacks on the server's stderr: {serve['tracebacks']}."]
    return "\n".join(lines) + "\n"


# -- hostile load: the service's promises under attack ---------------------------------------------

class _Served:
    """A ``manasolver serve`` subprocess on a free loopback port, always stopped on leaving."""

    def __init__(self, *args: str) -> None:
        self.proc = subprocess.Popen([*CLI, "serve", "--port", "0", *args], stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, text=True)
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        if not line:
            self.stop()
            raise RuntimeError(f"serve did not start: {self.proc.stderr.read() if self.proc.stderr else ''}")
        self.port = int(json.loads(line)["listening"].rstrip("/").rsplit(":", 1)[1])

    def __enter__(self) -> _Served:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def stop(self) -> int:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=60)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        return self.proc.returncode

    def memory(self, field: str = "VmRSS") -> int:
        """The server's resident memory (``VmHWM``: its peak), bytes."""
        with open(f"/proc/{self.proc.pid}/status", encoding="ascii") as fh:
            for line in fh:
                if line.startswith(field + ":"):
                    return int(line.split()[1]) * 1024
        return 0

    def post(self, query: dict[str, Any] | bytes, path: str = "/v1/query", timeout: float = 120) -> tuple[int, Any]:
        import http.client
        body = query if isinstance(query, bytes) else json.dumps(query).encode()
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout)
        try:
            conn.request("POST", path, body, {"Content-Type": "application/json"})
            response = conn.getresponse()
            data = response.read()
            return response.status, json.loads(data) if path != "/v1/batch" else data
        finally:
            conn.close()

    def health(self, timeout: float = 10) -> float | None:
        """Seconds ``GET /healthz`` took, or ``None`` when it was not answered in ``timeout``."""
        import http.client
        start = time.monotonic()
        try:
            conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout)
            conn.request("GET", "/healthz")
            ok = conn.getresponse().status == 200
            conn.close()
        except OSError:
            return None
        return time.monotonic() - start if ok else None


def _ten_mb_board(tag: int) -> dict[str, Any]:
    """A board of about 10 MB inside every limit: 10,000 permanents with long ids and 16 counters."""
    return {"players": [{"name": "you"}, {"name": "opponent"}],
            "battlefield": [{"id": f"{tag}-{i:05d}-" + "x" * 150, "card": ("Forest", "Island", "Sol Ring")[i % 3],
                             "counters": {f"kind{k:02d}" + "y" * 40: k + 1 for k in range(16)}}
                            for i in range(10_000)]}


def hostile_sessions(count: int = 40, budget_mb: int = 256) -> dict[str, Any]:
    """``count`` sessions of 10 MB boards opened on ``serve --session-memory budget_mb``: the
    server's memory above its start stays under the budget plus 200 MB, ``/healthz`` answers."""
    with _Served("--session-memory", str(budget_mb)) as served:
        served.post({"query": "open", "state": _ten_mb_board(-1)})  # the loader's first use, outside
        served.post({"query": "close", "board": "none"})
        base = served.memory()
        peak = 0
        slowest_health = 0.0
        opened = refused = 0
        start = time.monotonic()
        for i in range(count):
            status, got = served.post({"query": "open", "state": _ten_mb_board(i)})
            opened += status == 200 and "board" in got
            refused += "error" in got
            peak = max(peak, served.memory() - base)
            took = served.health()
            slowest_health = max(slowest_health, took if took is not None else float("inf"))
        seconds = time.monotonic() - start
        code = served.stop()
    limit = (budget_mb + 200) << 20
    return {"check": f"{count} sessions of 10 MB boards, --session-memory {budget_mb}", "opened": opened,
            "refused": refused, "peak_growth_mb": round(peak / 2**20), "limit_mb": limit >> 20,
            "slowest_healthz_s": round(slowest_health, 3), "seconds": round(seconds, 1), "exit": code,
            "pass": peak <= limit and slowest_health < 10 and opened == count and code == 0}


def hostile_lines() -> dict[str, Any]:
    """``batch`` with an ``id`` nested 989 deep, a line nested 65 deep and a 150 MB line between
    good ones: each answered in order (the bad ones as errors), exit 0; the peak memory."""
    good = [json.dumps({"query": "mana_value", "cost": "{2}{G}", "id": i}).encode() for i in range(4)]
    deep_id = b'{"query": "mana_value", "cost": "{1}", "id": ' + b"[" * 989 + b"]" * 989 + b"}"
    deep = b'{"query": "mana_value", "cost": "{1}", "x": ' + b"[" * 65 + b"]" * 65 + b"}"
    proc = subprocess.Popen([*CLI, "batch"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert proc.stdin is not None

    def feed() -> None:
        assert proc.stdin is not None
        for line in (good[0], deep_id, good[1], deep, good[2]):
            proc.stdin.write(line + b"\n")
        piece = b'{"query": "mana_value", "cost": "' + b"{1}" * (1 << 20)
        proc.stdin.write(piece)
        for _ in range(150 * 2**20 // len(piece)):
            proc.stdin.write(b"{1}" * (1 << 20))
        proc.stdin.write(b'"}\n' + good[3] + b"\n")
        proc.stdin.close()

    writer = threading.Thread(target=feed)
    start = time.monotonic()
    writer.start()
    peak = 0
    while proc.poll() is None and time.monotonic() - start < 300:
        try:
            with open(f"/proc/{proc.pid}/status", encoding="ascii") as fh:
                peak = max([peak] + [int(x.split()[1]) * 1024 for x in fh if x.startswith("VmHWM:")])
        except OSError:
            break
        time.sleep(0.2)
    writer.join()
    assert proc.stdout is not None and proc.stderr is not None
    out, err = proc.stdout.read(), proc.stderr.read()
    proc.wait(timeout=300)
    answers = [json.loads(x) for x in out.splitlines()]
    ids = [a.get("id") for a in answers]
    bad = [a.get("error", {}).get("code") for a in answers[1::2]]
    return {"check": "batch: 989-deep id, 65-deep query, 150 MB line between good lines", "answers": len(answers),
            "ids": ids, "errors": bad, "peak_mb": round(peak / 2**20), "seconds": round(time.monotonic() - start, 1),
            "exit": proc.returncode, "tracebacks": err.count(b"Traceback"),
            "pass": (proc.returncode == 0 and len(answers) == 7 and ids[0::2] == [0, 1, 2, 3]
                     and bad == ["bad_query"] * 3)}


def hostile_memory(headroom_mb: int = 200) -> dict[str, Any]:
    """``batch`` whose address space is capped ``headroom_mb`` above what it uses once started,
    then a line under the size limit that decodes to more objects than fit (5 million empty
    arrays): that line is answered as an error and the next line is answered."""
    import resource
    proc = subprocess.Popen([*CLI, "batch"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert proc.stdin is not None and proc.stdout is not None and proc.stderr is not None
    try:
        proc.stdin.write(json.dumps({"query": "mana_value", "cost": "{2}", "id": 0}).encode() + b"\n")
        proc.stdin.flush()
        first = json.loads(proc.stdout.readline())
        with open(f"/proc/{proc.pid}/status", encoding="ascii") as fh:
            size = next(int(x.split()[1]) * 1024 for x in fh if x.startswith("VmSize:"))
        cap = size + (headroom_mb << 20)
        resource.prlimit(proc.pid, resource.RLIMIT_AS, (cap, cap))
        heavy = b'{"query": "mana_value", "cost": "{1}", "id": 1, "x": [' + b"[]," * 5_000_000 + b"[]]}"
        start = time.monotonic()
        proc.stdin.write(heavy + b"\n" + json.dumps({"query": "mana_value", "cost": "{3}", "id": 2}).encode() + b"\n")
        proc.stdin.close()
        rest = [json.loads(x) for x in proc.stdout.read().splitlines()]
        err = proc.stderr.read()
        proc.wait(timeout=120)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    answers = [first, *rest]
    return {"check": f"batch capped {headroom_mb} MB above its size, a 15 MB line of 5 million arrays",
            "answers": answers, "seconds": round(time.monotonic() - start, 1), "exit": proc.returncode,
            "tracebacks": err.count(b"Traceback"),
            "pass": (proc.returncode == 0 and len(answers) == 3
                     and answers[1].get("error", {}).get("code") == "bad_query"
                     and answers[2].get("mana_value") == 3)}


def _rocks(n: int = 200) -> dict[str, Any]:
    cards = ["Urza's Tower", "Fellwar Stone", "Azorius Signet", "Boros Signet", "Orzhov Signet", "Rugged Prairie",
             "Basalt Monolith", "Sol Ring"]
    return _board(*[{"id": f"p{i}", "card": cards[i % len(cards)]} for i in range(n)])


def hostile_options(runs: int = 10) -> dict[str, Any]:
    """``options`` on 200 permanents of Urza's Tower, Fellwar Stone, Signets, Rugged Prairie, Basalt
    Monolith and Sol Ring, ``runs`` times through a server, then four at once beside a light query:
    each within the options bound (3 s) plus 1 s."""
    from manasolver.solver.pools.options import DEFAULT_BUDGET
    query = {"query": "options", "state": _rocks()}
    times: list[float] = []
    with _Served() as served:
        served.post({"query": "options", "state": _rocks(20)})
        for _ in range(runs):
            start = time.monotonic()
            served.post(query)
            times.append(time.monotonic() - start)
        together: list[float] = []

        def one() -> None:
            start = time.monotonic()
            served.post(query)
            together.append(time.monotonic() - start)

        threads = [threading.Thread(target=one) for _ in range(4)]
        for thread in threads:
            thread.start()
        time.sleep(0.3)
        start = time.monotonic()
        served.post({"query": "can_pay", "state": _example("commander"), "cost": "{2}{G}"})
        light = time.monotonic() - start
        for thread in threads:
            thread.join()
    limit = DEFAULT_BUDGET + 1.0
    return {"check": f"options on 200 rocks/Signets/filter lands, {runs} runs, then 4 at once",
            "seconds": [round(t, 2) for t in times], "within": sum(t <= limit for t in times),
            "four_at_once_s": [round(t, 2) for t in sorted(together)], "light_query_beside_s": round(light, 2),
            "limit_s": limit, "pass": all(t <= limit for t in times)}


def _read_answer(conn: Any, results: list[Any]) -> None:
    """The answer on ``conn`` (status, decoded body), or the exception that lost it, into ``results``."""
    try:
        response = conn.getresponse()
        results.append((response.status, json.loads(response.read())))
    except Exception as err:  # noqa: BLE001 - a dropped request is what is counted
        results.append(err)


def hostile_sigterm(trials: int = 10, requests: int = 8) -> dict[str, Any]:
    """SIGTERM to ``serve --grace 1`` with ``requests`` max_x queries in flight (CP-SAT), ``trials``
    times: every request answered, exit 0."""
    import http.client
    board = _big_commander()
    board["battlefield"] = board["battlefield"][:150]
    body = json.dumps({"query": "max_x", "state": board, "cost": "{X}{G}"}).encode()
    dropped = answered = cut = 0
    codes: list[int] = []
    seconds: list[float] = []
    for _ in range(trials):
        with _Served("--grace", "1") as served:
            conns = [http.client.HTTPConnection("127.0.0.1", served.port, timeout=120) for _ in range(requests)]
            for conn in conns:
                conn.request("POST", "/v1/query", body, {"Content-Type": "application/json"})
            results: list[Any] = []

            threads = [threading.Thread(target=_read_answer, args=(c, results)) for c in conns]
            for thread in threads:
                thread.start()
            time.sleep(0.5)
            start = time.monotonic()
            served.proc.send_signal(signal.SIGTERM)
            for thread in threads:
                thread.join(timeout=120)
            code = served.proc.wait(timeout=120)
            seconds.append(time.monotonic() - start)
            codes.append(code)
            ok = [r for r in results if isinstance(r, tuple) and r[0] == 200]
            answered += len(ok)
            dropped += requests - len(ok)
            cut += sum(1 for _, got in ok if "max_x" not in got or got.get("time_bound"))
    return {"check": f"SIGTERM with {requests} max_x requests in flight, {trials} trials, --grace 1",
            "answered": answered, "dropped": dropped, "cut_short_by_the_grace": cut, "exit_codes": codes,
            "stop_seconds": [round(s, 1) for s in seconds],
            "pass": dropped == 0 and all(c == 0 for c in codes)}


def hostile_connections(idle: int = 2000, slow: int = 300, normal: int = 20) -> dict[str, Any]:
    """``idle`` connections that send nothing and ``slow`` that send a request head a byte a
    second, then a normal client asks ``normal`` queries; a 16 MB chunked body in 2-byte chunks."""
    import socket
    query = json.dumps({"query": "can_pay", "state": _example("commander"), "cost": "{2}{G}"}).encode()
    with _Served("--timeout", "30") as served:
        served.post(query)
        base = served.memory()
        socks: list[socket.socket] = []
        for _ in range(idle):
            socks.append(socket.create_connection(("127.0.0.1", served.port), timeout=10))
        slow_socks = [socket.create_connection(("127.0.0.1", served.port), timeout=10) for _ in range(slow)]
        head = b"POST /v1/query HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        stop = threading.Event()

        def trickle() -> None:
            at = 0
            while not stop.is_set() and at < len(head):
                for s in slow_socks:
                    try:
                        s.send(head[at:at + 1])
                    except OSError:
                        pass
                at += 1
                stop.wait(1.0)

        trickler = threading.Thread(target=trickle)
        trickler.start()
        time.sleep(1.0)
        ok = 0
        latencies: list[float] = []
        for _ in range(normal):
            start = time.monotonic()
            try:
                status, got = served.post(query, timeout=30)
                ok += status == 200 and "payable" in got
            except OSError:
                pass
            latencies.append(time.monotonic() - start)
        stop.set()
        trickler.join()
        held = served.memory() - base
        for s in socks + slow_socks:
            s.close()
        # a 16 MB body in 2-byte chunks
        body = b'{"query": "mana_value", "cost": "{1}", "id": "' + b"x" * (16 * 2**20 - 60) + b'"}'
        chunked = b"".join(b"2\r\n" + body[i:i + 2] + b"\r\n" for i in range(0, len(body), 2)) + b"0\r\n\r\n"
        before = served.memory("VmHWM")
        start = time.monotonic()
        with socket.create_connection(("127.0.0.1", served.port), timeout=120) as s:
            s.sendall(head + b"Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n" + chunked)
            reply = b""
            while chunk := s.recv(65536):
                reply += chunk
        chunk_seconds = time.monotonic() - start
        peak = served.memory("VmHWM")
        del chunked
        code = served.stop()
    status_line = reply.split(b"\r\n", 1)[0].decode("latin-1")
    return {"check": (f"{idle} idle + {slow} slow-header connections, then a normal client; "
                      "16 MB chunked in 2-byte chunks"),
            "normal_answered": f"{ok}/{normal}", "slowest_normal_s": round(max(latencies), 3),
            "memory_held_by_connections_mb": round(held / 2**20),
            "chunked_status": status_line, "chunked_seconds": round(chunk_seconds, 1),
            "chunked_peak_mb": round(peak / 2**20), "peak_before_chunked_mb": round(before / 2**20), "exit": code,
            "pass": ok == normal and peak < 300 * 2**20 and status_line.startswith("HTTP/1.1 200")}


def hostile_fifo() -> dict[str, Any]:
    """``batch`` with a query whose ``cards`` names a FIFO: refused at once, the next line answered."""
    import os
    import tempfile
    with tempfile.TemporaryDirectory() as folder:
        fifo = os.path.join(folder, "cards.jsonl")
        os.mkfifo(fifo)
        lines = [{"query": "mana_value", "card": "Forest", "cards": fifo, "id": 1},
                 {"query": "mana_value", "cost": "{2}", "id": 2}]
        start = time.monotonic()
        proc = subprocess.run([*CLI, "batch"], input="".join(json.dumps(q) + "\n" for q in lines),
                              capture_output=True, text=True, timeout=60, check=False)
        took = time.monotonic() - start
    answers = [json.loads(x) for x in proc.stdout.splitlines()]
    return {"check": "batch: a cards path naming a FIFO", "seconds": round(took, 2),
            "answers": answers, "exit": proc.returncode,
            "pass": len(answers) == 2 and "FIFO" in answers[0]["error"]["message"] and answers[1]["mana_value"] == 2}


HOSTILE: dict[str, Callable[[], dict[str, Any]]] = {
    "sessions": hostile_sessions, "lines": hostile_lines, "memory": hostile_memory, "options": hostile_options,
    "sigterm": hostile_sigterm,
    "connections": hostile_connections, "fifo": hostile_fifo,
}


def _hostile_markdown(results: list[dict[str, Any]]) -> str:
    from manasolver.benchmarks.machine import machine
    lines = ["# Audit: hostile load", "",
             ("`python -m manasolver.benchmarks.audit --hostile`; machine: "
              + ", ".join(f"{k} {v}" for k, v in machine().items() if k != "versions") + "."), "",
             ("Every check is bounded and stops by itself; servers are started on a free loopback port and "
              "stopped at the end of their check."), ""]
    for result in results:
        lines += [f"## {result['check']}: {'pass' if result['pass'] else '**fail**'}", ""]
        lines += [f"- {k}: {v}" for k, v in result.items() if k not in ("check", "pass")]
        lines.append("")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m manasolver.benchmarks.audit", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--only", help="substrings of the shapes to run, separated by |")
    ap.add_argument("--no-serve", action="store_true", help="skip the concurrency and service checks")
    ap.add_argument("--out", default=str(Path(__file__).parent / "results" / "audit.md"))
    ap.add_argument("--hostile", nargs="?", const=",".join(HOSTILE), metavar="CHECKS",
                    help=f"run the hostile-load checks instead ({', '.join(HOSTILE)}; all by default), "
                         "written to results/audit_hostile.md")
    ap.add_argument("--sessions", type=int, metavar="N",
                    help="with --hostile sessions: open N boards of 10 MB (default 40; 1,000 is the cap of kept "
                         "boards, about 20 minutes)")
    args = ap.parse_args(argv)
    if args.hostile:
        results = []
        for name in args.hostile.split(","):
            check = HOSTILE[name.strip()]
            result = (hostile_sessions(args.sessions) if check is hostile_sessions and args.sessions
                      else check())
            print(json.dumps(result), flush=True)
            results.append(result)
        if set(args.hostile.split(",")) == set(HOSTILE):
            out = Path(args.out).with_name("audit_hostile.md")
            out.write_text(_hostile_markdown(results))
        return 0 if all(r["pass"] for r in results) else 1
    _warm()
    rows: list[Row] = []
    wanted = [w.strip() for w in args.only.split("|")] if args.only else None
    for shape in SHAPES:
        if wanted and not any(w in shape.name for w in wanted):
            continue
        row = run_shape(shape)
        rows.append(row)
        print(f"{row.seconds:7.2f} s  pass={row.passed!s:5}  [{row.flagged}]  {row.name}: {row.outcome}",
              flush=True)
    if not wanted or any("batch" in w for w in wanted):
        row = batch_bad_bytes()
        rows.append(row)
        print(f"{row.seconds:7.2f} s  pass={row.passed}  {row.name}: {row.outcome}", flush=True)
    conc = serve = None
    if not args.no_serve:
        conc = concurrency()
        print(json.dumps(conc), flush=True)
        serve = service()
        print(json.dumps(serve), flush=True)
    if not wanted:
        Path(args.out).write_text(_markdown(rows, conc, serve))
    return 0 if all(r.passed for r in rows) else 1


if __name__ == "__main__":
    raise SystemExit(main())
