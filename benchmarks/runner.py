"""``manasolver bench``: measure every figure of SPEC §8 in one run on one machine.

Figures (medians and 99th percentiles, never asserted, always checked):

* ``can_pay`` and optimal ``pay`` (default policy) in process on boards of real
  cards of 10, 40, 300 and 1,000 permanents (:mod:`manasolver.benchmarks.boards`);
  each payment is read back from its JSON and checked by the independent
  ``validate``; ``pay`` and ``can_pay`` must agree;
* the same boards and costs through phase.rs (:mod:`manasolver.benchmarks.phase`):
  its castability check and its autotapped cast, the ratio of medians, and
  every case where the two engines disagree on payability;
* ``batch`` throughput of ``can_pay`` lines that each carry their own
  40-permanent board, through :func:`~manasolver.solver.protocol.answer_line`
  and through a real ``manasolver batch`` process;
* command-line start-up, process start to answer, of ``manasolver card Forest``
  and ``manasolver mana-value``, cold (a new process each run), and which heavy
  modules such a process imports;
* ``options`` on three Cascading Cataracts and thirty lands, when implemented.

Queries that report hitting a time bound are counted, as are queries over
50 ms that do not say so.  ``--quick`` is a CI-sized run of a few seconds;
the full run writes ``benchmarks/results/`` (JSON, markdown, one plot per
figure) with the machine noted.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import resource
import shutil
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from manasolver.benchmarks import boards as bd

__all__ = ["FULL", "QUICK", "Case", "Plan", "main", "make_cases", "run"]

SLOW_MS = 50.0  # SPEC §8: no query over 50 ms without saying it hit its time bound
_TIME_BOUND_KEYS = ("bounded", "time_bound", "hit_time_bound", "timed_out", "timeout", "time_limit_hit")


@dataclass(frozen=True, slots=True)
class Plan:
    """How much to measure: boards per size, costs per board, repeats per query."""

    boards: dict[int, int]
    costs_per_board: dict[int, int]
    repeats: dict[int, int]
    phase_cases: dict[int, int]
    batch_lines: int
    startup_runs: int
    options: bool
    budget_s: float  # per board size: cases left when it runs out are skipped and counted


QUICK = Plan(boards={10: 2, 40: 2, 300: 1}, costs_per_board={10: 3, 40: 4, 300: 2},
             repeats={10: 3, 40: 3, 300: 1}, phase_cases={10: 1, 40: 1}, batch_lines=40,
             startup_runs=1, options=False, budget_s=3.0)
FULL = Plan(boards={10: 5, 40: 10, 300: 4, 1000: 3}, costs_per_board={10: 10, 40: 20, 300: 5, 1000: 3},
            repeats={10: 5, 40: 5, 300: 5, 1000: 3}, phase_cases={10: 20, 40: 40, 300: 6, 1000: 2},
            batch_lines=2000, startup_runs=7, options=True, budget_s=400.0)


@dataclass(slots=True)
class Case:
    """One board and one cost, and everything measured on it."""

    size: int
    label: str
    board: dict[str, Any]
    cost: str
    kind: str  # "real", "tight", "over" or "refusal"
    payable: bool | None = None
    error: str | None = None
    valid: bool | None = None
    problems: list[str] = field(default_factory=list)
    time_bound: bool = False
    skipped: bool = False
    tapped: int | None = None  # permanents our payment activates
    floating: int | None = None  # mana our payment produces and leaves unspent
    can_pay_s: list[float] = field(default_factory=list)
    pay_s: list[float] = field(default_factory=list)
    can_pay_cpu: list[float] = field(default_factory=list)  # CPU seconds of the same calls
    pay_cpu: list[float] = field(default_factory=list)
    phase: dict[str, Any] | None = None

    def summary(self) -> dict[str, Any]:
        """A JSON-ready record (times in ms, the board by label only)."""
        out: dict[str, Any] = {"size": self.size, "board": self.label, "cost": self.cost, "kind": self.kind,
                               "payable": self.payable, "error": self.error, "valid": self.valid,
                               "problems": self.problems, "time_bound": self.time_bound,
                               "skipped": self.skipped, "tapped": self.tapped,
                               "floating": self.floating}
        if self.can_pay_s:
            out["can_pay_ms"] = _ms(statistics.median(self.can_pay_s))
        if self.pay_s:
            out["pay_ms"] = _ms(statistics.median(self.pay_s))
        if self.phase is not None:
            out["phase"] = self.phase
        return out


def _ms(seconds: float) -> float:
    return round(seconds * 1000.0, 4)


def percentile(samples: list[float], q: float) -> float:
    """The ``q``-th percentile (0–100) by nearest rank; 0.0 for no samples."""
    if not samples:
        return 0.0
    ordered = sorted(samples)
    rank = max(0, min(len(ordered) - 1, math.ceil(q / 100.0 * len(ordered)) - 1))
    return ordered[rank]


# -- cases ---------------------------------------------------------------------------------------

def make_cases(plan: Plan) -> list[Case]:
    """The benchmark cases of ``plan``: real costs on 10- and 40-permanent boards, tight and
    impossible costs plus real ones on the large lands boards, and PEERS.md's refusals."""
    cases: list[Case] = []
    for size, nboards in plan.boards.items():
        per = plan.costs_per_board.get(size, 1)
        for seed in range(nboards):
            if size == 10:
                board, label = bd.small_board(seed), f"small-{seed}"
            elif size == 40:
                board, label = bd.commander_board(seed), f"commander-{seed}"
            else:
                board, label = bd.lands_board(size, seed), f"lands{size}-{seed}"
            if size <= 40:
                costs = [(c, "real") for c in bd.costs_for(1000 * size + seed, per)]
            else:
                costs = [(bd.generic_cost(board), "generic"), (bd.tight_cost(board, seed), "tight"),
                         (bd.over_cost(board, seed), "over")][:per]
                costs += [(c, "real") for c in bd.costs_for(1000 * size + seed, max(0, per - 3))]
            cases += [Case(size, label, board, cost, kind) for cost, kind in costs]
    for i, (cards, cost) in enumerate(bd.PEER_REFUSALS):
        board = {"players": [{"name": "you"}, {"name": "opponent"}],
                 "battlefield": [bd.permanent(f"r{j}", n) for j, n in enumerate(cards)]}
        cases.append(Case(len(cards), f"refusal-{i}", board, cost, "refusal"))
    return cases


# -- our engine ----------------------------------------------------------------------------------

def _as_json(result: Any) -> dict[str, Any]:
    if isinstance(result, dict):
        return result
    out = result.to_json()
    assert isinstance(out, dict)
    return out


def hit_time_bound(answer: dict[str, Any]) -> bool:
    """True when an answer says it stopped at a time bound: a flag with one of the usual
    field names, or an error answer whose message says so (CP-SAT's "hit its time bound")."""
    if any(answer.get(k) for k in _TIME_BOUND_KEYS):
        return True
    for key in ("reason", "error"):
        inner = answer.get(key)
        if isinstance(inner, dict) and (any(inner.get(k) for k in _TIME_BOUND_KEYS)
                                        or "time bound" in str(inner.get("message", ""))):
            return True
    return False


def engine_missing() -> str | None:
    """``None`` when the queries can run, else why not."""
    try:
        from manasolver.solver import protocol, queries  # noqa: F401
    except Exception as exc:  # noqa: BLE001
        return f"solver queries not importable: {type(exc).__name__}: {exc}"
    return None


def warm_up() -> None:
    """Load what the queries import lazily before any figure is measured: the default
    path on a Commander board (the fast optimiser answers it), CP-SAT (``ortools``, about
    0.3 s to import, used when the fast paths decline and for unpayable costs' reasons)
    and an unpayable cost's reason, each on a board no figure uses."""
    from manasolver.solver import protocol, queries

    measure_engine(Case(40, "warm-up", bd.commander_board(99), "{2}{W}{U}", "real"), 1)
    req = protocol.build_request({"query": "pay", "state": bd.small_board(99), "cost": "{1}{G}"})
    queries.pay(req, backend="cpsat")
    measure_engine(Case(10, "warm-up", bd.small_board(99), "{W}{W}{U}{U}{B}{B}{R}{R}{G}{G}",
                        "real"), 1)


def measure_engine(case: Case, repeats: int) -> None:
    """Time ``can_pay`` and ``pay`` on a prepared request; check the answers."""
    from manasolver.models.errors import ManasolverError
    from manasolver.solver import protocol, queries
    from manasolver.solver.payment import Payment

    try:
        req = protocol.build_request({"query": "pay", "state": case.board, "cost": case.cost})
    except ManasolverError as err:
        case.error = f"{err.code}: {err}"
        return
    can_answers: list[dict[str, Any]] = []
    pay_answers: list[dict[str, Any]] = []
    for i in range(repeats):
        if i == 1 and case.pay_s[0] + case.can_pay_s[0] > 0.5:
            break  # one sample of a slow case is enough: the budget goes to covering more cases
        for fn, answers, times, cpu in ((queries.can_pay, can_answers, case.can_pay_s, case.can_pay_cpu),
                                        (queries.pay, pay_answers, case.pay_s, case.pay_cpu)):
            c0 = time.process_time()
            t0 = time.perf_counter()
            try:
                ans = _as_json(fn(req))
            except ManasolverError as err:  # an answer too: the protocol would send it as an error
                ans = err.to_json()
            times.append(time.perf_counter() - t0)
            cpu.append(time.process_time() - c0)
            answers.append(ans)
    everything = can_answers + pay_answers
    case.time_bound = any(hit_time_bound(a) for a in everything)
    failed = [a["error"] for a in everything if "error" in a]
    if failed:
        case.error = f"{failed[0].get('code')}: {failed[0].get('message')}"
        return
    verdicts = {bool(a.get("payable")) for a in everything}
    if len(verdicts) != 1:
        case.problems.append(f"can_pay and pay disagree: {sorted(verdicts)}")
    case.payable = bool(pay_answers[0].get("payable"))
    if len({json.dumps(a, sort_keys=True) for a in pay_answers}) != 1:
        case.problems.append("pay is not deterministic across repeats")
    if case.payable:
        payment = pay_answers[0]["payment"]
        case.tapped = len({a["permanent"] for a in payment.get("activations", [])})
        case.floating = _mana_count(str(payment.get("floating", "")))
        case.valid = _validate(req, Payment.from_json(payment), case)


def _mana_count(text: str) -> int:
    """How many mana a mana string such as ``{C}{C}{W}`` or ``{2}{W}`` holds."""
    if not text:
        return 0
    from manasolver.models.cost import ManaCost
    cost = ManaCost.parse(text, allow_empty=True)
    return cost.mana_value()


def _validate(req: Any, payment: Any, case: Case) -> bool | None:
    try:
        from manasolver.solver.validate import validate
    except ImportError:
        return None
    verdict = _as_json(validate(req, payment))
    if not verdict.get("legal"):
        case.problems += [str(p) for p in verdict.get("problems", [])] or ["validate: not legal"]
    return bool(verdict.get("legal"))


# -- phase.rs ----------------------------------------------------------------------------------

def _peer_cards(cases: list[Case]) -> list[Any]:
    from manasolver.models.carddb import default_db
    from manasolver.benchmarks.phase import PeerCard

    db = default_db()
    out = [PeerCard("Treasure", "", "Artifact — Treasure",
                    "{T}, Sacrifice this artifact: Add one mana of any color.")]
    seen = {"Treasure"}
    for case in cases:
        for name in bd.board_cards(case.board):
            if name in seen:
                continue
            seen.add(name)
            rec = db.record(name)  # the printed record, as phase.rs would read it from MTGJSON
            if rec is None:
                continue
            out.append(PeerCard(str(rec["name"]), str(rec.get("mana_cost") or ""), str(rec.get("type_line", "")),
                                str(rec.get("oracle_text", "")), tuple(rec.get("colors") or ()),
                                rec.get("power"), rec.get("toughness")))
    return out


def _phase_one(driver: Any, case: Case) -> dict[str, Any]:
    """Position one case in phase.rs, time its castability check and its autotapped cast."""
    from manasolver.benchmarks.phase import PeerPermanent

    board = [PeerPermanent(p["card"], bool(p.get("tapped")), bool(p.get("sick")))
             for p in case.board["battlefield"]]
    you = case.board["players"][0]
    life = int(you.get("life", 20))
    try:
        pos = driver.position(board, case.cost, life=life, commander=tuple(you.get("commander", ())))
    except Exception as exc:  # noqa: BLE001 - a peer failure is recorded, never fatal
        return {"error": f"{type(exc).__name__}: {exc}"}
    repeats = 5 if case.size <= 40 else (2 if case.size <= 300 else 1)
    offered, raw, delta = driver.castable(pos, repeats=repeats)
    cast_ok, cast_s, tapped, floating = driver.cast(pos) if offered else (False, 0.0, [], 0)
    return {"castable": offered, "check_ms": _ms(delta), "check_raw_ms": _ms(raw),
            "cast_ok": cast_ok, "cast_ms": _ms(cast_s) if offered else None,
            "tapped": len(tapped), "floating": floating}


def _phase_child(driver: Any, case: Case, queue: Any) -> None:
    queue.put(_phase_one(driver, case))


def _phase_bounded(driver: Any, case: Case, timeout: float) -> dict[str, Any]:
    """:func:`_phase_one` in a forked child process, stopped after ``timeout`` seconds:
    phase.rs's native calls cannot be interrupted otherwise."""
    import multiprocessing as mp

    ctx = mp.get_context("fork")
    queue = ctx.Queue()
    child = ctx.Process(target=_phase_child, args=(driver, case, queue), daemon=True)
    child.start()
    try:
        result: dict[str, Any] = queue.get(timeout=timeout)
    except Exception:  # noqa: BLE001 - queue.Empty: the peer ran past its bound
        result = {"error": f"phase.rs did not finish within {timeout:.0f} s (stopped)", "timeout": True}
    child.join(1.0)
    if child.is_alive():
        child.terminate()  # our own child, by its handle
        child.join(5.0)
    return result


def measure_phase(cases: list[Case], log: Callable[[str], None], timeout: float = 150.0) -> str | None:
    """Run the cases through phase.rs; returns why it was skipped, or ``None``.
    Boards of more than 300 permanents run in a child process stopped after ``timeout`` s."""
    from manasolver.benchmarks.phase import PhaseDriver, phase_missing

    missing = phase_missing()
    if missing:
        return missing
    driver = PhaseDriver(_peer_cards(cases), [c.cost for c in cases])
    for case in cases:
        bounded = case.size > 300 and sys.platform != "win32"
        case.phase = _phase_bounded(driver, case, timeout) if bounded else _phase_one(driver, case)
        log(f"  phase.rs {case.label} {case.cost[:40]}: {case.phase}")
    if driver.skipped:
        log(f"  phase.rs could not build: {driver.skipped}")
    return None


def disagreements(cases: list[Case]) -> list[dict[str, Any]]:
    """Cases where phase.rs and manasolver differ on payability (or phase.rs offers a cast it
    then fails to pay)."""
    out = []
    for c in cases:
        if c.phase is None or "error" in c.phase or c.payable is None:
            continue
        if c.phase["castable"] != c.payable or (c.phase["castable"] and not c.phase["cast_ok"]):
            out.append({"board": c.label, "cards": bd.board_cards(c.board) if c.size <= 10 else
                        f"{c.size} permanents", "cost": c.cost, "manasolver": c.payable,
                        "phase_castable": c.phase["castable"], "phase_cast_ok": c.phase["cast_ok"]})
    return out


# -- batch, start-up, options -----------------------------------------------------------------------

def _cli() -> list[str]:
    exe = shutil.which("manasolver")
    return [exe] if exe else [sys.executable, "-m", "manasolver.solver.cli"]


def batch_lines(n: int) -> list[str]:
    """``n`` ``can_pay`` lines, each with its own 40-permanent Commander board."""
    costs = bd.costs_for(7, n)
    return [json.dumps({"query": "can_pay", "id": i, "state": bd.commander_board(10_000 + i),
                        "cost": costs[i]}) for i in range(n)]


def measure_batch(n: int) -> dict[str, Any]:
    """Throughput in process (``answer_line``) and through a ``manasolver batch`` process."""
    from manasolver.solver.protocol import answer_line

    lines = batch_lines(n)
    t0 = time.perf_counter()
    inproc = [answer_line(line) for line in lines]
    inproc_s = time.perf_counter() - t0
    errors = [a for a in inproc if "error" in a]
    t0 = time.perf_counter()
    proc = subprocess.run(_cli() + ["batch"], input="\n".join(lines) + "\n", check=False, capture_output=True,
                          text=True, timeout=600)
    proc_s = time.perf_counter() - t0
    t0 = time.perf_counter()
    subprocess.run(_cli() + ["batch"], input=lines[0] + "\n", check=False, capture_output=True, text=True, timeout=120)
    one_s = time.perf_counter() - t0
    out_lines = [json.loads(x) for x in proc.stdout.splitlines() if x.strip()]
    breakdown = _batch_breakdown(lines[:200])
    mismatch = sum(1 for a, b in zip(inproc, out_lines) if a.get("payable") != b.get("payable"))
    return {
        "lines": n,
        "in_process_per_s": round(n / inproc_s, 1),
        "process_per_s": round(n / proc_s, 1),
        "process_per_s_after_startup": round(n / max(1e-9, proc_s - one_s), 1),
        "process_wall_s": round(proc_s, 3), "one_line_wall_s": round(one_s, 3),
        "exit_code": proc.returncode, "answers": len(out_lines),
        "errors": len(errors), "first_error": errors[0] if errors else None,
        "payable": sum(1 for a in inproc if a.get("payable")),
        "process_vs_in_process_mismatches": mismatch + abs(len(out_lines) - n),
        "per_line_median_ms": breakdown,
    }


def _batch_breakdown(lines: list[str]) -> dict[str, float]:
    """Where one batch line's time goes: JSON decoding, loading the board into a request,
    the ``can_pay`` query itself, encoding the answer (medians, ms)."""
    from manasolver.solver import protocol, queries

    parts: dict[str, list[float]] = {"decode": [], "build_request": [], "can_pay": [], "encode": []}
    for line in lines:
        t0 = time.perf_counter()
        obj = json.loads(line)
        t1 = time.perf_counter()
        req = protocol.build_request(obj)
        t2 = time.perf_counter()
        ans = _as_json(queries.can_pay(req))
        t3 = time.perf_counter()
        json.dumps(ans)
        t4 = time.perf_counter()
        for key, dt in zip(parts, (t1 - t0, t2 - t1, t3 - t2, t4 - t3)):
            parts[key].append(dt)
    return {k: _ms(statistics.median(v)) for k, v in parts.items() if v}


def measure_startup(runs: int) -> dict[str, Any]:
    """Cold start to answer of two queries that need no optimiser, and a bare interpreter."""
    commands = {
        "card Forest": (_cli() + ["card", "Forest"], "Forest"),
        "mana-value": (_cli() + ["mana-value", "{2/W}{2/U}{2/B}{2/R}{2/G}", "--json"], "10"),
        "python -c pass": ([sys.executable, "-c", "pass"], ""),
    }
    out: dict[str, Any] = {}
    for name, (cmd, expect) in commands.items():
        times, cpu, ok = [], [], True
        for _ in range(runs):
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            t0 = time.perf_counter()
            proc = subprocess.run(cmd, check=False, capture_output=True, text=True, timeout=60)
            times.append(time.perf_counter() - t0)
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpu.append(after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime)
            ok = ok and proc.returncode == 0 and expect in proc.stdout
        out[name] = {"median_s": round(statistics.median(times), 4), "first_s": round(times[0], 4),
                     "cpu_median_s": round(statistics.median(cpu), 4), "runs": runs, "answer_ok": ok}
    proc = subprocess.run([sys.executable, "-X", "importtime", "-m", "manasolver.solver.cli", "card", "Forest"],
                          check=False, capture_output=True, text=True, timeout=60)
    heavy = sorted({line.split("|")[-1].strip().split(".")[0] for line in proc.stderr.splitlines()
                    if "|" in line and line.split("|")[-1].strip().split(".")[0]
                    in ("ortools", "networkx", "constraint", "pandas", "numpy")})
    out["heavy_imports_for_card"] = heavy
    rows = []
    for line in proc.stderr.splitlines():
        parts = line.split("|")
        if len(parts) == 3 and parts[1].strip().isdigit():
            rows.append((int(parts[1]), parts[2].rstrip()))
    out["slowest_imports_for_card_ms"] = {name.strip(): round(us / 1000, 1)
                                          for us, name in sorted(rows, reverse=True)[:6]}
    return out


def measure_options() -> dict[str, Any]:
    """``options`` on three Cascading Cataracts and thirty lands (XMage: 6,902, froze games)."""
    from manasolver.solver.protocol import answer

    query = {"query": "options", "state": bd.cataracts_board(), "limit": 100_000}
    t0 = time.perf_counter()
    ans = answer(query)
    elapsed = time.perf_counter() - t0
    if "error" in ans:
        code = ans["error"].get("code")
        status = "not implemented" if code == "unsupported" else "error"
        return {"status": status, "message": ans["error"].get("message")}
    return {"status": "ok", "seconds": round(elapsed, 4), "options": len(ans.get("options", [])),
            "complete": ans.get("complete"), "time_bound": hit_time_bound(ans)}


# -- the run -----------------------------------------------------------------------------------------

def run(plan: Plan, *, phase: bool = True, log: Callable[[str], None] = print) -> dict[str, Any]:
    """Measure everything ``plan`` asks for; returns the results as JSON-ready data."""
    from manasolver.benchmarks import report as benchreport

    results: dict[str, Any] = {"machine": benchreport.machine(), "plan": plan.__class__.__name__}
    cases = make_cases(plan)
    why_not = engine_missing()
    results["engine"] = why_not or "ok"
    if why_not is None:
        warm_up()  # lazy imports and caches load here, outside every figure
        spent: dict[int, float] = {}
        for case in cases:
            key = -1 if case.kind == "refusal" else case.size
            if spent.get(key, 0.0) > plan.budget_s:
                case.skipped = True
                continue
            t0 = time.perf_counter()
            measure_engine(case, 3 if case.kind == "refusal" else plan.repeats.get(case.size, 1))
            spent[key] = spent.get(key, 0.0) + time.perf_counter() - t0
        for key, secs in sorted(spent.items()):
            log(f"manasolver: {'refusals' if key < 0 else f'{key} permanents'}: {secs:.1f} s")
        log(f"manasolver: {len(cases)} cases measured")
    peer_cases = _phase_subset(cases, plan)
    results["phase"] = measure_phase(peer_cases, log) if phase else "skipped (--no-phase)"
    results["phase"] = results["phase"] or "ok"
    results["cases"] = [c.summary() for c in cases]
    results["disagreements"] = disagreements(cases)
    results["figures"] = benchreport.figures(cases, peer_cases)
    results["checks"] = benchreport.checks(cases, SLOW_MS)
    results["quality"] = benchreport.quality(peer_cases)
    if why_not is None:
        results["batch"] = measure_batch(plan.batch_lines)
        results["options"] = measure_options() if plan.options else {"status": "skipped in --quick"}
    results["startup"] = measure_startup(plan.startup_runs)
    return results


def _phase_subset(cases: list[Case], plan: Plan) -> list[Case]:
    out: list[Case] = []
    taken: dict[int, int] = {}
    for case in cases:
        if case.kind == "refusal":
            out.append(case)
        elif taken.get(case.size, 0) < plan.phase_cases.get(case.size, 0):
            taken[case.size] = taken.get(case.size, 0) + 1
            out.append(case)
    return out


def main(argv: list[str] | None = None) -> int:
    """``manasolver bench [--quick] [--out DIR] [--no-phase] [--no-plots]``."""
    parser = argparse.ArgumentParser(prog="manasolver bench", description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="a CI-sized run of a few seconds")
    parser.add_argument("--out", metavar="DIR", help="write results here (full run default: "
                        "benchmarks/results of a checkout)")
    parser.add_argument("--no-phase", action="store_true", help="do not run phase.rs")
    parser.add_argument("--no-plots", action="store_true")
    parser.add_argument("--json", action="store_true", help="print the results JSON")
    argv = list(sys.argv[1:] if argv is None else argv)
    args = parser.parse_args([a for a in argv if a != "--"])  # `manasolver bench -- --out DIR`
    from manasolver.benchmarks import report as benchreport

    plan = QUICK if args.quick else FULL
    log = (lambda s: print(s, file=sys.stderr)) if args.json else print
    results = run(plan, phase=not args.no_phase, log=log)
    results["plan"] = "quick" if args.quick else "full"
    out = Path(args.out) if args.out else (None if args.quick else _default_out())
    if out is not None:
        benchreport.write(results, out, plots=not args.no_plots)
        log(f"results written to {out}")
    if args.json:
        print(json.dumps(results, indent=1))
    else:
        print(benchreport.markdown(results))
    bad = results["checks"].get("failed_checks", 0)
    return 1 if bad else 0


def _default_out() -> Path:
    root = Path(__file__).resolve().parent.parent
    if (root / "benchmarks").is_dir():
        return root / "benchmarks" / "results"
    return Path(os.getcwd()) / "bench-results"
