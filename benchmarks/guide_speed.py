"""How fast ``guide`` answers a click of a manual payment: the bundled Commander board in a session.

``python benchmarks/guide_speed.py [--repeat N]`` opens ``example:commander`` as a session board and pays
``{2}{W}{U}{B}`` by hand the way a client would: before each click it asks ``guide`` with the
activations made so far (none, then one, two, three: a Forest, an Island, a Plains) for the
sources to light up and the best completion.  It prints, per click and over all clicks, the median
wall-clock and CPU time of the answer (``protocol.answer``, the path a ``batch`` or ``serve``
client takes), the number of activations lit, and the load average, since the machine may be
shared: the CPU time is what the answer costs, the wall-clock time what a client waits on this
machine now.  The target is a median of at most 5 ms.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from typing import Any

from manasolver.solver import answer
from manasolver.solver.service.demo import example_state

__all__ = ["CLICKS", "main", "measure"]

#: The activations made before each ``guide`` query, in order.
CLICKS: tuple[dict[str, Any], ...] = ({"permanent": "forest1", "ability": 0},
                                      {"permanent": "island1", "ability": 0},
                                      {"permanent": "plains1", "ability": 0})
COST = "{2}{W}{U}{B}"


def measure(repeat: int = 50) -> list[dict[str, Any]]:
    """Per click: how many activations were made, the median wall and CPU milliseconds, and
    how many activations ``guide`` lit."""
    handle = answer({"query": "open", "state": example_state("commander")})["board"]
    rows: list[dict[str, Any]] = []
    try:
        for n in range(len(CLICKS) + 1):
            query = {"query": "guide", "board": handle, "cost": COST, "partial": list(CLICKS[:n])}
            out = answer(query)  # the first answer builds what the kept board keeps
            assert out.get("completable"), out
            wall: list[float] = []
            cpu: list[float] = []
            for _ in range(repeat):
                t, c = time.perf_counter(), time.process_time()
                answer(query)
                wall.append(time.perf_counter() - t)
                cpu.append(time.process_time() - c)
            rows.append({"made": n, "lit": len(out["next"]), "wall_ms": statistics.median(wall) * 1000,
                         "cpu_ms": statistics.median(cpu) * 1000, "wall": wall, "cpu": cpu})
    finally:
        answer({"query": "close", "board": handle})
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=50, help="answers timed per click")
    args = parser.parse_args()
    load = os.getloadavg()
    rows = measure(args.repeat)
    for row in rows:
        print(f"made {row['made']}: lit {row['lit']:3d}   median wall {row['wall_ms']:6.2f} ms   "
              f"median cpu {row['cpu_ms']:6.2f} ms")
    wall = [w for row in rows for w in row["wall"]]
    cpu = [c for row in rows for c in row["cpu"]]
    print(f"all clicks: median wall {statistics.median(wall) * 1000:.2f} ms, median cpu "
          f"{statistics.median(cpu) * 1000:.2f} ms (target 5 ms); load average {load[0]:.2f} {load[1]:.2f} "
          f"{load[2]:.2f} on {os.cpu_count()} cores")


if __name__ == "__main__":
    main()
