"""The filter-land benchmark board: ``pay`` on ten different filter lands and ten basics.

``python -m manasolver.benchmarks.filters`` asks ``pay`` for a spread of costs (mono, gold,
hybrid, generic-heavy, unpayable) on the bundled ``example:filters`` board and on the same
filter lands beside ten basics (two of each), each query prepared once and asked again
(the second time is timed), and prints per cost the time, whether it is payable and
whether it hit a time bound, then the median, the 99th percentile and the count of answers
at a time bound, then an ``options`` row per board: the median time of three asks with no
``limit`` to speak of (every pool listed), whether the answer is complete, whether a time
bound cut it, and how many pools it lists (``--no-options`` leaves that row out;
``--repeat N`` times each ``pay`` N times and keeps the fastest).  Run by
hand on a quiet machine: the figures are the target's (``pay`` median ≤ 50 ms, never at the
time bound; ``options`` exact, complete, ≤ 1 s).
"""

from __future__ import annotations

import argparse
import statistics
import time
from typing import Any

__all__ = ["COSTS", "boards", "main", "options_row"]

#: Mono, gold, hybrid, generic-heavy and unpayable costs.
COSTS = ("{W}", "{U}{U}", "{B}{B}{B}", "{R}{R}{R}{R}", "{G}{G}{G}{G}{G}", "{W}{U}", "{U}{B}{R}",
         "{W}{U}{B}{R}{G}", "{U}{U}{R}{R}", "{W}{W}{B}{B}{G}", "{W/U}{B/R}", "{2/W}{2/U}",
         "{R/G}{R/G}{G/W}", "{1}", "{5}", "{3}{G}{G}", "{8}{W}", "{2}{U}{U}{B}",
         "{W}{W}{W}{W}{W}{W}{W}{W}{W}", "{C}{C}{C}", "{10}{B}{B}", "{X}{R}")


def boards() -> dict[str, Any]:
    """``example:filters`` and its ten filter lands beside ten basics."""
    from manasolver.solver.service.demo import example_state
    small = example_state("filters")
    big = example_state("filters")
    big["battlefield"] = [p for p in big["battlefield"] if p["id"] not in ("island", "mountain")]
    for i, name in enumerate(("Plains", "Island", "Swamp", "Mountain", "Forest") * 2):
        big["battlefield"].append({"id": f"basic{i}", "card": name})
    return {"example:filters": small, "ten filters + ten basics": big}


def options_row(state: dict[str, Any], repeat: int = 3) -> str:
    """``options`` on one board, every pool listed: median time, complete, bounded, count."""
    from manasolver.solver.service.protocol import answer
    q = {"query": "options", "state": state, "limit": 100_000}  # the protocol's largest
    times = []
    a: dict[str, Any] = {}
    for _ in range(repeat):
        t = time.perf_counter()
        a = answer(q)
        times.append(time.perf_counter() - t)
    return (f"options: {statistics.median(times) * 1000:.0f} ms (median of {repeat}), "
            f"complete={a.get('complete')}, bounded={bool(a.get('bounded'))}, "
            f"{len(a.get('options', []))} pools")


def main(argv: list[str] | None = None) -> int:
    from manasolver.solver.service.protocol import answer
    ap = argparse.ArgumentParser(prog="python -m manasolver.benchmarks.filters")
    ap.add_argument("--no-options", action="store_true", help="leave the options row out")
    ap.add_argument("--repeat", type=int, default=1, metavar="N",
                    help="time each pay N times and keep the fastest (a steadier figure on a busy machine)")
    args = ap.parse_args(argv)
    if args.repeat < 1:
        ap.error("--repeat must be 1 or more")
    for label, state in boards().items():
        times = []
        bound = 0
        print(f"== {label}")
        for cost in COSTS:
            q = {"query": "pay", "state": state, "cost": cost}
            answer(q)
            dt = float("inf")
            for _ in range(args.repeat):
                t = time.perf_counter()
                a = answer(q)
                dt = min(dt, time.perf_counter() - t)
            times.append(dt)
            hit = bool(a.get("time_bound")) or "error" in a
            bound += hit
            print(f"  {cost:30s} {dt * 1000:9.1f} ms  payable={a.get('payable')}  time_bound={hit}")
        times.sort()
        p99 = times[min(len(times) - 1, int(0.99 * len(times)))]
        print(f"  median {statistics.median(times) * 1000:.1f} ms, p99 {p99 * 1000:.1f} ms, "
              f"at a time bound: {bound} of {len(times)}")
        if not args.no_options:
            print("  " + options_row(state))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
