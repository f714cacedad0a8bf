"""Measuring our engine: ``can_pay`` and ``pay`` per case, batch throughput, start-up, ``options``.

:func:`measure_engine` times both queries on a prepared request (wall clock and CPU time of the
same calls), then checks the answers: no errors, ``pay`` and ``can_pay`` agree, ``pay`` is
deterministic across repeats, and every payment read back from its JSON passes the independent
``validate``.  :func:`measure_batch` runs ``can_pay`` lines in process and through a real
``manasolver batch`` process; :func:`measure_startup` times cold command-line processes and
lists the heavy modules they import.
"""

from __future__ import annotations

import json
import resource
import shutil
import statistics
import subprocess
import sys
import time
from typing import Any

from manasolver.benchmarks import boards as bd
from manasolver.benchmarks.cases import Case, hit_time_bound, ms
from manasolver.solver.service.protocol import answer_json as _as_json

__all__ = ["batch_lines", "measure_batch", "measure_engine", "measure_options", "measure_startup", "warm_up"]


def warm_up() -> None:
    """Load what the queries import lazily before any figure is measured: the default
    path on a Commander board (the fast optimiser answers it), CP-SAT (``ortools``, about
    0.3 s to import, used when the fast paths decline and for unpayable costs' reasons)
    and an unpayable cost's reason, each on a board no figure uses."""
    from manasolver.solver import queries
    from manasolver.solver.service import protocol

    measure_engine(Case(40, "warm-up", bd.commander_board(99), "{2}{W}{U}", "real"), 1)
    req = protocol.build_request({"query": "pay", "state": bd.small_board(99), "cost": "{1}{G}"})
    queries.pay(req, backend="cpsat")
    measure_engine(Case(10, "warm-up", bd.small_board(99), "{W}{W}{U}{U}{B}{B}{R}{R}{G}{G}",
                        "real"), 1)


def measure_engine(case: Case, repeats: int) -> None:
    """Time ``can_pay`` and ``pay`` on a prepared request; check the answers."""
    from manasolver.models.errors import ManasolverError
    from manasolver.solver import queries
    from manasolver.solver.service import protocol
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


def _validate(req: Any, payment: Any, case: Case) -> bool:
    from manasolver.solver.validate import validate

    verdict = _as_json(validate(req, payment))
    if not verdict.get("legal"):
        case.problems += [str(p) for p in verdict.get("problems", [])] or ["validate: not legal"]
    return bool(verdict.get("legal"))


def _cli() -> list[str]:
    exe = shutil.which("manasolver")
    return [exe] if exe else [sys.executable, "-m", "manasolver.solver.service.cli"]


def batch_lines(n: int) -> list[str]:
    """``n`` ``can_pay`` lines, each with its own 40-permanent Commander board."""
    costs = bd.costs_for(7, n)
    return [json.dumps({"query": "can_pay", "id": i, "state": bd.commander_board(10_000 + i),
                        "cost": costs[i]}) for i in range(n)]


def measure_batch(n: int) -> dict[str, Any]:
    """Throughput in process (``answer_line``) and through a ``manasolver batch`` process."""
    from manasolver.solver.service.protocol import answer_line

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
    from manasolver.solver import queries
    from manasolver.solver.service import protocol

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
    return {k: ms(statistics.median(v)) for k, v in parts.items() if v}


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
    proc = subprocess.run([sys.executable, "-X", "importtime", "-m", "manasolver.solver.service.cli", "card", "Forest"],
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
    from manasolver.solver.service.protocol import answer

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
