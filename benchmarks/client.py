"""The client's path: what a game client waits for, through the real front ends.

``python -m manasolver.benchmarks.client [--quick] [--only SECTIONS] [--out DIR]`` (and the
"client path" section of ``manasolver bench``) measures, each figure beside the plain JSON loop
(read a line, ``json.loads`` it, write ``{"id": …, "payable": true}`` with ``json.dumps``, through
the same pipes, no flush per line) and beside phase.rs where it applies:

* fresh boards (section ``fresh``): one ``manasolver batch`` process, ``can_pay`` and optimal
  ``pay`` lines that each carry their own new board, per board family: ``commander`` and ``sixty``,
  boards sampled from games of the real decks of ``data/decks/``
  (:mod:`~manasolver.benchmarks.deck_boards`: ids fresh on every line, ``x`` on a quarter of the
  lines, the cost a card of the hand with its ``spell``), and ``generator``, the 40-permanent
  Commander boards of :func:`~manasolver.benchmarks.boards.commander_board`: lines per second
  streamed, and each line's latency asked one at a time (median, p99);
* the same board sent again, and a session board (``repeated``: ``open``, then ``"board": handle``;
  a clear "sessions not available" row when ``open`` is refused);
* HTTP (``http``): ``manasolver serve --port 0`` with keep-alive, session ``can_pay`` from 1 and 4
  client processes, every answer checked (requests per second, failures);
* scale (``scale``): optimal ``pay`` in process on fresh mixed boards of real cards of 300 and
  1,000 permanents (lands, dorks, rocks, Signets, Talismans, filter and utility lands), a cost
  needing about 60% of the board's mana (75% on 300 too: more than the lands make), every
  payment validated;
* the filter board (``filters``, ``example:filters``): ``pay`` median and p99, ``options``,
  time-bound hits;
* ``guide`` (``guide``): a click of a manual payment, on the bundled Commander board in a session
  and on deck boards paid by hand along ``pay``'s payment (median, p99, every prefix checked);
* cold start (``cold``) of ``manasolver can-pay example:commander "{2}{G}"``, process start to answer;
* phase.rs (``phase``) on boards of each family, request positioned.

Every answer is checked whole against the same query answered in this process (for repeated
boards and sessions, against the query with the board sent in full).  ``--quick`` runs in a few
seconds (tests run it); the full run writes ``client.md``, ``client.json`` and ``client.png`` into
``--out`` (default ``benchmarks/results`` of a checkout).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from manasolver.benchmarks import boards as bd
from manasolver.benchmarks import deck_boards as db
from manasolver.benchmarks import http_load as http_bench
from manasolver.benchmarks.cases import hit_time_bound, ms
from manasolver.benchmarks.client_report import markdown, plot, write
from manasolver.benchmarks.client_pipes import (LOOP, LOOP_FLUSHED, Pipe, cli, errors, expected, mismatches, ratio,
                                                stats, time_bound_hits, unsupported)

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
    warm_lines: int = 50      # lines per deck family read before the fresh rows
    scale_boards: int = 0     # mixed boards per size (0: the section is not run)
    fresh_parts: int = 1      # parts a streamed row's lines are sent in, the loop timed beside each


QUICK = ClientPlan("quick", fresh_lines=40, pay_lines=12, latency_lines=12, repeat_lines=40, http_seconds=0.3,
                   filter_costs=2, filter_repeats=1, options=False, cold_runs=1, phase_boards=0)
FULL = ClientPlan("full", fresh_lines=2000, pay_lines=400, latency_lines=300, repeat_lines=1000, http_seconds=5.0,
                  filter_costs=8, filter_repeats=5, options=True, cold_runs=9, phase_boards=6, warm_lines=600,
                  scale_boards=9, fresh_parts=5)

#: The targets of this section.
TARGET_FRESH_CAN_PAY_PER_S = 3000.0
#: Times the JSON loop, per family: the deck boards are smaller than 40 permanents, so the loop is
#: cheaper there and the bound looser.
TARGET_FRESH_RATIO = {"commander": 10.0, "sixty": 10.0, "generator": 3.0}
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
#: The board families of the fresh rows: boards sampled from games of the real decks
#: (:mod:`~manasolver.benchmarks.deck_boards`), and the generator's 40-permanent Commander boards
#: (:func:`~manasolver.benchmarks.boards.commander_board`).
FAMILIES = ("commander", "sixty", "generator")


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
    """``n`` lines of ``query``, each on its own new board of family ``kind`` (:data:`FAMILIES`, or
    ``varied``)."""
    if kind in ("commander", "sixty"):
        return db.lines(kind, query, n, seed)  # type: ignore[arg-type]
    costs = bd.costs_for(seed, n)
    make = bd.commander_board if kind == "generator" else varied_board
    return [json.dumps({"query": query, "id": i, "state": make(seed * 100_000 + i), "cost": costs[i]})
            for i in range(n)]


# -- the sections --------------------------------------------------------------------------------

def _loop_stream(lines: list[str]) -> float:
    """Seconds the plain JSON loop (:data:`LOOP`, a new process) takes to answer ``lines``
    streamed, from the first write to its last answer (its output flushed when its input ends)."""
    loop = Pipe([sys.executable, "-c", LOOP], ready=True)
    try:
        return loop.stream(lines, close=True)[1]
    finally:
        loop.close()


def _fresh(plan: ClientPlan, batch: Pipe, loop: Pipe, log: Callable[[str], None],
           families: tuple[str, ...] = FAMILIES) -> list[dict[str, Any]]:
    """Fresh boards through the batch process, per board family: can_pay streamed and one at a
    time, pay one at a time (``loop``: the JSON loop that flushes each line, for lines asked alone)."""
    rows: list[dict[str, Any]] = []
    for kind in families:
        seed = 11 + FAMILIES.index(kind) if kind in FAMILIES else 19
        lines = _lines(kind, "can_pay", plan.fresh_lines, seed)
        answers, secs, loop_secs, part_ratios = _paired_stream(lines, plan.fresh_parts, batch)
        per_line = secs / len(lines)
        loop_line = loop_secs / len(lines)
        row: dict[str, Any] = {
            "figure": f"fresh can_pay, {kind} boards (batch, streamed)", "query": "can_pay", "board": kind,
            "lines": len(lines), "lines_per_s": round(len(lines) / secs, 1), "per_line_ms": ms(per_line),
            "json_loop_ms": ms(loop_line), "ratio_to_json_loop": ratio(per_line, loop_line),
            "part_ratios": part_ratios,
            "errors": errors(answers), "unsupported": unsupported(answers),
            "payable": sum(1 for a in answers if a.get("payable")),
            "mismatches": mismatches(answers, expected(lines)),
            "target": f"≥ {TARGET_FRESH_CAN_PAY_PER_S:g}/s, ≤ {TARGET_FRESH_RATIO.get(kind, 3.0):g}× the JSON loop",
        }
        row["met"] = (row["lines_per_s"] >= TARGET_FRESH_CAN_PAY_PER_S
                      and row["ratio_to_json_loop"] <= TARGET_FRESH_RATIO.get(kind, 3.0))
        rows.append(row)
        log(f"client: {row['figure']}: {row['lines_per_s']}/s, {row['ratio_to_json_loop']}× the JSON loop "
            f"(parts {', '.join(f'{r:g}' for r in part_ratios)})")
        one = _lines(kind, "can_pay", plan.latency_lines, seed + 100)
        rows.append(_one_at_a_time(f"fresh can_pay, {kind} boards (batch, one line at a time)", "can_pay", kind,
                                   one, batch, loop, None))
        pay = _lines(kind, "pay", plan.pay_lines, seed + 200)
        row = _one_at_a_time(f"fresh pay, {kind} boards (batch, one line at a time)", "pay", kind, pay, batch,
                             loop, TARGET_FRESH_PAY_MS)
        rows.append(row)
        log(f"client: {row['figure']}: median {row.get('median_ms')} ms, p99 {row.get('p99_ms')} ms")
    return rows


def _paired_stream(lines: list[str], parts: int, batch: Pipe) -> tuple[list[dict[str, Any]], float, float,
                                                                       list[float]]:
    """``lines`` streamed through the batch process in ``parts`` consecutive parts, in their order
    (the batch process meets them as it would in one stream), the JSON loop timed on each part just
    before and just after it: (answers, batch seconds, loop seconds (each part's two timings
    averaged), each part's ratio).  The loop answers a part in a few milliseconds, so one timing of
    it taken at another minute than the batch's measures the machine's state as much as the loop;
    timed beside every part, both are measured in the same minutes."""
    size = -(-len(lines) // max(1, parts))
    answers: list[dict[str, Any]] = []
    secs = loop_secs = 0.0
    part_ratios: list[float] = []
    for start in range(0, len(lines), size):
        part = lines[start:start + size]
        before = _loop_stream(part)
        got, took = batch.stream(part)
        loop_took = (before + _loop_stream(part)) / 2
        answers += got
        secs += took
        loop_secs += loop_took
        part_ratios.append(ratio(took, loop_took))
    return answers, secs, loop_secs, part_ratios


def _one_at_a_time(figure: str, query: str, board: str, lines: list[str], batch: Pipe, loop: Pipe,
                   target: tuple[float, float] | None) -> dict[str, Any]:
    """Each line asked alone (write, wait for its answer): the latency a client sees; the JSON loop
    asked each line right after the batch process, so both are timed in the same moments."""
    times: list[float] = []
    loop_times: list[float] = []
    answers: list[dict[str, Any]] = []
    for line in lines:
        ans, secs = batch.ask(line)
        answers.append(ans)
        times.append(secs)
        loop_times.append(loop.ask(line)[1])
    row: dict[str, Any] = {"figure": figure, "query": query, "board": board, "lines": len(lines), **stats(times),
                           "json_loop_ms": ms(statistics.median(loop_times)) if loop_times else None,
                           "ratio_to_json_loop": ratio(statistics.median(times), statistics.median(loop_times))
                           if times and loop_times else None,
                           "errors": errors(answers), "unsupported": unsupported(answers),
                           "time_bound_hits": time_bound_hits(answers),
                           "mismatches": mismatches(answers, expected(lines))}
    if target is not None and times:
        row["target"] = f"median ≤ {target[0]:g} ms, p99 ≤ {target[1]:g} ms"
        row["met"] = row["median_ms"] <= target[0] and row["p99_ms"] <= target[1]
    return row


def _repeated(plan: ClientPlan, batch: Pipe, log: Callable[[str], None]) -> list[dict[str, Any]]:
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
            rows.append(_streamed(f"same board again, {query}, {kind}", query, kind, same, batch, plan.fresh_parts,
                                  same))
            if handle is None:
                rows.append({"figure": f"session board, {query}, {kind}", "query": query, "board": kind,
                             "status": "sessions not available",
                             "message": str(opened.get("error", {}).get("message", opened))[:200]})
                continue
            session = [json.dumps({"query": query, "id": i, "board": handle, "cost": c}) for i, c in enumerate(costs)]
            rows.append(_streamed(f"session board, {query}, {kind}", query, kind, session, batch,
                                  plan.fresh_parts, same))
        if handle is not None:
            batch.ask(json.dumps({"query": "close", "board": handle}))
    for row in rows:
        if "per_line_ms" in row:
            log(f"client: {row['figure']}: {row['per_line_ms']} ms a line ({row['lines_per_s']}/s)")
    return rows


def _streamed(figure: str, query: str, board: str, lines: list[str], batch: Pipe, parts: int,
              reference: list[str]) -> dict[str, Any]:
    """``lines`` streamed through the batch process, the JSON loop timed beside it as the fresh rows
    time it (:func:`_paired_stream`, ``parts`` parts); every answer compared whole with ``reference``
    (the same queries with the board sent in full) answered here."""
    answers, secs, loop_secs, _ = _paired_stream(lines, parts, batch)
    want = expected(reference)
    per_line = secs / len(lines)
    limit = TARGET_REPEAT_MS[query]
    return {"figure": figure, "query": query, "board": board, "lines": len(lines),
            "lines_per_s": round(len(lines) / secs, 1), "per_line_ms": ms(per_line),
            "json_loop_ms": ms(loop_secs / len(lines)),
            "ratio_to_json_loop": ratio(secs, loop_secs), "errors": errors(answers),
            "differ_from_in_process": mismatches(answers, want),
            "target": f"≤ {limit:g} ms a line", "met": ms(per_line) <= limit}


# -- HTTP -------------------------------------------------------------------------------------------

def _http(plan: ClientPlan, log: Callable[[str], None]) -> list[dict[str, Any]]:
    """``manasolver serve --port 0``: session can_pay from 1 and 4 client processes, keep-alive."""
    server = subprocess.Popen(cli() + ["serve", "--port", "0"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
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
        from manasolver.solver.service.protocol import answer
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


# -- in process, beside another checkout ---------------------------------------------------------

#: Timed in a child interpreter: answer the warm lines, then the lines under other ids (their cards
#: read), then time each line; prints the per-line seconds as JSON.
_TIMER = """
import json, sys, time
from manasolver.solver.service.protocol import answer_line
warm, lines = json.load(sys.stdin)
def other_ids(line):
    q = json.loads(line)
    for p in q["state"]["battlefield"]:
        p["id"] = "w" + str(p["id"])
    return json.dumps(q)
for line in warm:
    answer_line(line)
for line in lines:
    answer_line(other_ids(line))
out = []
for line in lines:
    t0 = time.perf_counter()
    answer_line(line)
    out.append(time.perf_counter() - t0)
print(json.dumps(out))
"""


def inprocess(plan: ClientPlan, pythons: dict[str, str], log: Callable[[str], None],
              rounds: int = 2) -> list[dict[str, Any]]:
    """Fresh deck-board lines answered in process by each interpreter of ``pythons`` (a name ->
    the ``python`` of a checkout's environment), interleaved round by round so that a shared
    machine's load falls on each alike: mean, median and p99 a line, per family and query."""
    rows: list[dict[str, Any]] = []
    for kind in ("commander", "sixty"):
        for query in ("can_pay", "pay"):
            warm = _lines(kind, query, plan.warm_lines, 97)
            lines = _lines(kind, query, plan.latency_lines, 11)
            data = json.dumps([warm, lines])
            times: dict[str, list[float]] = {name: [] for name in pythons}
            for _ in range(rounds):
                for name, python in pythons.items():
                    got = subprocess.run([python, "-c", _TIMER], input=data, capture_output=True, text=True,
                                         timeout=1800, check=True)
                    times[name] += json.loads(got.stdout)
            for name, ts in times.items():
                row = {"figure": f"in process, fresh {query}, {kind} boards ({name})", "query": query, "board": kind,
                       "code": name, "lines": len(ts), "mean_ms": ms(statistics.mean(ts)), **stats(ts)}
                rows.append(row)
                log(f"client: {row['figure']}: mean {row['mean_ms']} ms, median {row['median_ms']} ms")
    return rows


# -- scale on mixed boards -------------------------------------------------------------------------

#: Median targets of ``pay`` on mixed boards, by size (ms).
TARGET_SCALE_MS = {300: 5.0, 1000: 20.0}
#: The rows of the scale section: (permanents, share of the board's mana the cost asks, the seed of its first
#: board: each row boards of its own). At 75%
#: the cost needs more than the lands make, so the best payment taps Sol Ring, Signets and dorks.
SCALE_ROWS = ((300, 0.6, 7000), (1000, 0.6, 7000), (300, 0.75, 7500))


def _scale(plan: ClientPlan, log: Callable[[str], None]) -> list[dict[str, Any]]:
    """Optimal ``pay`` in process on fresh mixed boards of real cards
    (:func:`~manasolver.benchmarks.boards.mixed_board`: lands, dorks, rocks, Signets, Talismans,
    filter and utility lands), a cost needing about 60% of the board's mana, and on 300 permanents
    75% (:data:`SCALE_ROWS`); every payment checked by the ``validate`` query."""
    from manasolver.solver.service.protocol import answer
    rows: list[dict[str, Any]] = []
    if plan.scale_boards <= 0:
        return rows
    for size, share, seeds in SCALE_ROWS:
        target = TARGET_SCALE_MS[size]
        times: list[float] = []
        answers: list[dict[str, Any]] = []
        invalid = 0
        for seed in range(plan.scale_boards):
            # each row its own boards: a board another row sent is one the board cache knows
            board = bd.mixed_board(size, seeds + seed)
            cost = bd.mana_cost_share(board, share, seed)
            t0 = time.perf_counter()
            got = answer({"query": "pay", "state": board, "cost": cost})
            times.append(time.perf_counter() - t0)
            answers.append(got)
            if got.get("payable"):
                check = answer({"query": "validate", "state": board, "cost": cost, "payment": got["payment"]})
                invalid += not check.get("legal")
        bound = sum(1 for a in answers if hit_time_bound(a) or "time bound" in str(a.get("error", {}).get("message")))
        figure = f"pay, mixed board of {size} permanents, cost ~{round(share * 100)}% of its mana (in process)"
        row: dict[str, Any] = {"figure": figure, "query": "pay",
                               "board": f"mixed-{size}" + ("" if share == 0.6 else f"-{round(share * 100)}"),
                               **stats(times),
                               "payable": sum(1 for a in answers if a.get("payable")), "errors": errors(answers),
                               "unsupported": unsupported(answers), "time_bound_hits": bound, "invalid": invalid,
                               "target": f"median ≤ {target:g} ms, none at a time bound, every payment valid"}
        row["met"] = bool(times) and row["median_ms"] <= target and bound == 0 and invalid == 0 \
            and row["payable"] == len(answers)
        rows.append(row)
        log(f"client: {row['figure']}: median {row.get('median_ms')} ms, {bound} at a time bound, {invalid} invalid")
    return rows


# -- filter board, cold start, phase.rs ------------------------------------------------------------

def _filters(plan: ClientPlan, log: Callable[[str], None]) -> list[dict[str, Any]]:
    """``example:filters`` in process: pay on real costs, and options."""
    from manasolver.solver.service.demo import example_state
    from manasolver.solver.service.protocol import answer
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
    row: dict[str, Any] = {"figure": f"filter board pay ({len(costs)} costs)", **stats(times),
                           "time_bound_hits": time_bound_hits(answers), "errors": errors(answers),
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
    cmd = cli() + ["can-pay", "example:commander", "{2}{G}"]
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
    """phase.rs on fresh boards of each family: its castability check and autotapped cast (request
    positioned: phase.rs has no JSON path of its own to compare)."""
    if plan.phase_boards <= 0:
        return {"status": f"skipped in the {plan.name} run"}
    from manasolver.benchmarks.cases import Case
    from manasolver.benchmarks.peer import measure_phase
    out: dict[str, Any] = {"status": "ok", "families": {}}
    for kind in FAMILIES:
        queries = [json.loads(line) for line in _lines(kind, "can_pay", plan.phase_boards, 31)]
        cases = [Case(len(q["state"]["battlefield"]), f"fresh-{kind}-{i}", q["state"], q["cost"], "real")
                 for i, q in enumerate(queries)]
        why = measure_phase(cases, lambda s: None)
        if why:
            return {"status": why}
        checks = [c.phase["check_ms"] for c in cases if c.phase and "error" not in c.phase]
        casts = [c.phase["cast_ms"] for c in cases if c.phase and c.phase.get("cast_ms") is not None]
        fam = {"boards": len(cases), "measured": len(checks),
               "check_median_ms": round(statistics.median(checks), 4) if checks else None,
               "cast_median_ms": round(statistics.median(casts), 4) if casts else None}
        out["families"][kind] = fam
        log(f"client: phase.rs on fresh {kind} boards: check {fam['check_median_ms']} ms, "
            f"cast {fam['cast_median_ms']} ms ({fam['measured']}/{fam['boards']} boards it could build)")
    return out


# -- the run --------------------------------------------------------------------------------------

#: The sections of a run, in order.
SECTIONS = ("fresh", "repeated", "scale", "http", "filters", "guide", "cold", "phase")


def run(plan: ClientPlan = QUICK, log: Callable[[str], None] = print,
        sections: tuple[str, ...] = SECTIONS) -> dict[str, Any]:
    """Measure every figure of the ``sections``; returns JSON-ready results."""
    from manasolver.benchmarks.machine import machine
    t0 = time.perf_counter()
    out: dict[str, Any] = {"machine": machine(), "plan": plan.name, "sections": list(sections)}
    batch = Pipe(cli() + ["batch"])
    loop = Pipe([sys.executable, "-c", LOOP_FLUSHED], ready=True)
    rows: list[dict[str, Any]] = []
    try:
        warm = _lines("commander", "pay", 3, 99) + _lines("generator", "pay", 3, 99)
        # CP-SAT answers what the fast optimiser declines; its import (ortools, pandas: about
        # 0.3 s) comes once per process, so it is made here rather than in the first such line.
        warm.append(json.dumps({"query": "pay", "state": bd.commander_board(98), "cost": "{2}{G}",
                                "backend": "cpsat"}))
        for line in warm:  # start-up and lazy imports, outside every figure
            batch.ask(line)
            loop.ask(line)
        expected(warm)
        if "fresh" in sections:
            # a client's process has met the cards of its games before: the cards of other games
            # of the same decks are read first, outside the figures
            seen = [line for kind in ("commander", "sixty") for line in _lines(kind, "can_pay", plan.warm_lines, 97)]
            batch.stream(seen)
            rows += _fresh(plan, batch, loop, log)
        if "repeated" in sections:
            rows += _repeated(plan, batch, log)
    finally:
        batch.close()
        loop.close()
    if "scale" in sections:
        rows += _scale(plan, log)
    if "http" in sections:
        rows += _http(plan, log)
    if "filters" in sections:
        rows += _filters(plan, log)
    if "guide" in sections:
        from manasolver.benchmarks.client_guide import guide_rows
        rows += guide_rows(plan.name, log)
    out["rows"] = rows
    out["cold_start"] = _cold(plan, log) if "cold" in sections else {}
    out["phase"] = _phase(plan, log) if "phase" in sections else {"status": "not run"}
    for row in rows:
        fam = out["phase"].get("families", {}).get(row.get("board"), {})
        base = row.get("per_line_ms") or row.get("median_ms")
        ref = fam.get("check_median_ms") if row.get("query") == "can_pay" else \
            fam.get("cast_median_ms") if row.get("query") == "pay" else None
        if base and ref and row.get("figure", "").startswith("fresh"):
            row["phase_ms"] = ref
            row["phase_ratio"] = round(ref / base, 2)
    out["seconds"] = round(time.perf_counter() - t0, 1)
    out["load_average_end"] = [round(x, 2) for x in os.getloadavg()]
    return out


def main(argv: list[str] | None = None) -> int:
    """``python -m manasolver.benchmarks.client [--quick] [--out DIR]``."""
    parser = argparse.ArgumentParser(prog="python -m manasolver.benchmarks.client", description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="a run of a few seconds")
    parser.add_argument("--only", metavar="SECTIONS", help=f"comma-separated sections to run (of {','.join(SECTIONS)})")
    parser.add_argument("--against", metavar="PYTHON", help="time fresh deck-board lines in process with this "
                        "interpreter (another checkout's environment) and this one, interleaved, and print that only")
    parser.add_argument("--out", metavar="DIR", help="write client.md, client.json, client.png here "
                        "(default: benchmarks/results of a checkout; none for --quick)")
    args = parser.parse_args(argv)
    if args.against:
        from manasolver.benchmarks.machine import machine
        start = machine()
        rows = inprocess(QUICK if args.quick else FULL, {"other": args.against, "this": sys.executable},
                         lambda s: print(s, file=sys.stderr))
        print(json.dumps({"machine": start, "load_average_end": [round(x, 2) for x in os.getloadavg()],
                          "rows": rows}, indent=1))
        return 0
    sections = tuple(args.only.split(",")) if args.only else SECTIONS
    unknown = set(sections) - set(SECTIONS)
    if unknown:
        parser.error(f"--only: unknown sections {', '.join(sorted(unknown))} (known: {', '.join(SECTIONS)})")
    results = run(QUICK if args.quick else FULL, log=lambda s: print(s, file=sys.stderr), sections=sections)
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
