"""The audit of bounded work (no input may hang the process or answer wrongly without
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
``benchmarks/results/audit.md``.  With ``--hostile`` it runs the checks under hostile load instead
(:mod:`~manasolver.benchmarks.hostile`).
"""

from __future__ import annotations

import argparse
import copy
import json
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from manasolver.benchmarks.boards import repeated_commander_board as _big_commander
from manasolver.benchmarks.hostile import HOSTILE, hostile_sessions
from manasolver.benchmarks.hostile import markdown as hostile_markdown

__all__ = ["SHAPES", "Row", "concurrency", "main", "run_shape", "service"]

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
            out.write_text(hostile_markdown(results))
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
