"""``manasolver bench``: measure every performance figure in one run on one machine.

Figures (medians and 99th percentiles, never asserted, always checked):

* ``can_pay`` and optimal ``pay`` (default policy) in process on boards of real
  cards of 10, 40, 300 and 1,000 permanents (:mod:`manasolver.benchmarks.boards`);
  each payment is read back from its JSON and checked by the independent
  ``validate``; ``pay`` and ``can_pay`` must agree;
* the same boards and costs through phase.rs (:mod:`manasolver.benchmarks.phase_driver`):
  its castability check and its autotapped cast, the ratio of medians, and
  every case where the two engines disagree on payability;
* ``batch`` throughput of ``can_pay`` lines that each carry their own
  40-permanent board, through :func:`~manasolver.solver.service.protocol.answer_line`
  and through a real ``manasolver batch`` process;
* command-line start-up, process start to answer, of ``manasolver card Forest``
  and ``manasolver mana-value``, cold (a new process each run), and which heavy
  modules such a process imports;
* ``options`` on three Cascading Cataracts and thirty lands, when implemented;
* the client's path (:mod:`manasolver.benchmarks.client`): fresh, repeated and session boards
  through a ``batch`` process, HTTP with 1 and 4 clients, the filter board and cold start, each
  beside a plain JSON loop.

Queries that report hitting a time bound are counted, as are queries over
50 ms that do not say so.  ``--quick`` is a CI-sized run of a few seconds;
the full run writes ``benchmarks/results/`` (JSON, markdown, one plot per
figure) with the machine noted.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from manasolver.benchmarks import report as benchreport
from manasolver.benchmarks.cases import FULL, QUICK, SLOW_MS, Plan, make_cases
from manasolver.benchmarks.measure import (
    measure_batch,
    measure_engine,
    measure_options,
    measure_startup,
    warm_up,
)
from manasolver.benchmarks.peer import disagreements, measure_phase, peer_subset

__all__ = ["main", "run"]


def run(plan: Plan, *, phase: bool = True, log: Callable[[str], None] = print) -> dict[str, Any]:
    """Measure everything ``plan`` asks for; returns the results as JSON-ready data."""
    results: dict[str, Any] = {"machine": benchreport.machine(), "plan": plan.__class__.__name__}
    cases = make_cases(plan)
    results["engine"] = "ok"
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
    peer_cases = peer_subset(cases, plan)
    results["phase"] = measure_phase(peer_cases, log) if phase else "skipped (--no-phase)"
    results["phase"] = results["phase"] or "ok"
    results["cases"] = [c.summary() for c in cases]
    results["disagreements"] = disagreements(cases)
    results["figures"] = benchreport.figures(cases, peer_cases)
    results["checks"] = benchreport.checks(cases, SLOW_MS)
    results["quality"] = benchreport.quality(peer_cases)
    results["batch"] = measure_batch(plan.batch_lines)
    results["options"] = measure_options() if plan.options else {"status": "skipped in --quick"}
    results["startup"] = measure_startup(plan.startup_runs)
    from manasolver.benchmarks import client
    results["client"] = client.run(client.QUICK if plan is QUICK else client.FULL, log=log)
    return results


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
    """``benchmarks/results`` of the checkout this module runs from, else ``./bench-results``
    (an installed package has no checkout around it)."""
    root = Path(__file__).resolve().parent.parent
    if (root / "benchmarks").is_dir() and (root / "pyproject.toml").is_file():
        return root / "benchmarks" / "results"
    return Path(os.getcwd()) / "bench-results"
