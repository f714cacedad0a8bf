"""``batch`` throughput over local worker processes: the same file of ``pay`` and
``can_pay`` lines, each with its own 40-permanent Commander board (:func:`~.boards.commander_board`),
answered by real ``manasolver batch`` processes in one process (``--workers 1`` is the same) and
with ``--workers 2``, and with ``--dask`` on a two-worker ``LocalCluster`` when asked for.

``python -m manasolver.benchmarks.parallel [--lines N] [--repeats R] [--dask] [--out DIR]`` writes
``parallel.md`` to ``benchmarks/results/`` (or DIR).  Each configuration runs R times, the
configurations taking turns, and the median wall time counts (start-up included); every run's answers
are compared with the one-process answers byte for byte, so a speed-up that answers differently is
reported as a failure, not a figure.  The target is ``--workers 2`` at 1.7 times the one-process
throughput or more on 2 cores; it means something only on a machine that is otherwise quiet (the load
average is in the report).
"""

from __future__ import annotations

import argparse
import json
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from manasolver.benchmarks import boards as bd
from manasolver.benchmarks.machine import machine

__all__ = ["TARGET", "main", "write_lines"]

RESULTS = Path(__file__).resolve().parent / "results"
#: ``--workers 2`` over one process, on 2 cores.
TARGET = 1.7


def write_lines(path: Path, n: int) -> None:
    """``n`` lines, ``pay`` and ``can_pay`` in turn, each on its own 40-permanent board."""
    costs = bd.costs_for(11, n)
    with path.open("w", encoding="utf-8") as fh:
        for i in range(n):
            query = {"query": "pay" if i % 2 else "can_pay", "id": i, "state": bd.commander_board(20_000 + i),
                     "cost": costs[i]}
            fh.write(json.dumps(query) + "\n")


def _cli() -> list[str]:
    return [sys.executable, "-m", "manasolver.solver.service.cli", "batch"]


def _run(args: list[str], lines: Path, out: Path) -> tuple[float, float, int]:
    """One ``batch`` run: (wall seconds, CPU seconds of it and its workers, exit status)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    with lines.open("rb") as fin, out.open("wb") as fout:
        proc = subprocess.run(_cli() + args, stdin=fin, stdout=fout, stderr=subprocess.PIPE, check=False,
                              timeout=3600)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if proc.returncode != 0:
        sys.stderr.write(proc.stderr.decode("utf-8", "replace"))
    return wall, cpu, proc.returncode


def _differ(expected: bytes, got: bytes) -> str:
    """How two runs' answers differ ("" when byte for byte equal); answers cut short by the engine's
    time bound (a loaded machine) are counted apart."""
    if got == expected:
        return ""
    a, b = expected.splitlines(), got.splitlines()
    lines = [(x, y) for x, y in zip(a, b) if x != y]
    bounded = sum(1 for x, y in lines if b'"time_bound": true' in x or b'"time_bound": true' in y)
    return (f"{len(b)} answers for {len(a)} lines; {len(lines)} differ, {bounded} of them cut short by the "
            "time bound in one of the runs")


def measure(n: int, repeats: int, dask: bool) -> dict[str, Any]:
    """Every configuration's runs over one file of ``n`` lines."""
    configs: dict[str, list[str]] = {"one process": [], "--workers 2": ["--workers", "2"]}
    cluster: Any = None
    if dask:
        from importlib import import_module
        cluster = import_module("distributed").LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                                            dashboard_address=None)
        configs["--dask (LocalCluster, 2 workers)"] = ["--dask", cluster.scheduler_address]
    runs: dict[str, list[tuple[float, float]]] = {name: [] for name in configs}
    failures: list[str] = []
    try:
        with tempfile.TemporaryDirectory() as tmp:
            lines = Path(tmp) / "lines.jsonl"
            write_lines(lines, n)
            reference = Path(tmp) / "reference.jsonl"
            _run([], lines, reference)
            expected = reference.read_bytes()
            answers = [json.loads(x) for x in expected.splitlines()]
            for _ in range(repeats):
                for name, args in configs.items():
                    out = Path(tmp) / "out.jsonl"
                    wall, cpu, code = _run(args, lines, out)
                    differ = _differ(expected, out.read_bytes())
                    if code != 0 or differ:
                        failures.append(f"{name}: exit {code}, {differ}")
                    runs[name].append((wall, cpu))
    finally:
        if cluster is not None:
            cluster.close()
    base = statistics.median(w for w, _ in runs["one process"])
    rows = {}
    for name, samples in runs.items():
        wall = statistics.median(w for w, _ in samples)
        rows[name] = {"wall_s": round(wall, 3), "lines_per_s": round(n / wall, 1),
                      "speedup": round(base / wall, 3), "cpu_s": round(statistics.median(c for _, c in samples), 3),
                      "walls": [round(w, 3) for w, _ in samples]}
    return {"lines": n, "repeats": repeats, "rows": rows, "failures": failures,
            "errors": sum(1 for a in answers if "error" in a),
            "payable": sum(1 for a in answers if a.get("payable")), "machine": machine()}


def markdown(result: dict[str, Any], command: str) -> str:
    m = result["machine"]
    ratio = result["rows"]["--workers 2"]["speedup"]
    out = ["# `batch` over local workers and Dask", "",
           f"Written by `{command}` on {m['date']}: {m['cpu']}, {m['cores']} cores, load average "
           f"{m['load_average']} at the end, Python {m['python']}.", "",
           f"{result['lines']:,} lines, `pay` and `can_pay` in turn, each with its own 40-permanent Commander "
           f"board ({result['payable']:,} payable, {result['errors']} errors); each configuration run "
           f"{result['repeats']} times in turn, the median wall time of a whole `manasolver batch` process "
           "(start-up included); every run's answers compared byte for byte with the one-process answers.", "",
           "| configuration | wall s | lines/s | × one process | CPU s (process and workers) | walls |",
           "|---|---:|---:|---:|---:|---|"]
    for name, row in result["rows"].items():
        out.append(f"| {name} | {row['wall_s']} | {row['lines_per_s']:,} | {row['speedup']} | {row['cpu_s']} | "
                   f"{', '.join(str(w) for w in row['walls'])} |")
    verdict = "met" if ratio >= TARGET else "NOT met"
    out += ["", f"`--workers 2` over one process: {ratio}× (target ≥ {TARGET}× on 2 cores: {verdict}).", ""]
    if result["failures"]:
        out += ["Runs that failed or answered differently:", ""] + [f"- {f}" for f in result["failures"]]
    else:
        out.append("Every run answered exactly as the one-process run.")
    return "\n".join(out) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--lines", type=int, default=12_000, help="lines in the file (default 12,000)")
    parser.add_argument("--repeats", type=int, default=3, help="runs of each configuration (default 3)")
    parser.add_argument("--dask", action="store_true", help="also through a two-worker Dask LocalCluster")
    parser.add_argument("--out", default=str(RESULTS), help="where parallel.md goes")
    args = parser.parse_args(argv)
    command = "python -m manasolver.benchmarks.parallel" + "".join(
        f" {a}" for a in (argv if argv is not None else sys.argv[1:]))
    result = measure(args.lines, args.repeats, args.dask)
    text = markdown(result, command)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    (out / "parallel.md").write_text(text, encoding="utf-8")
    print(text)
    return 1 if result["failures"] else 0


if __name__ == "__main__":
    raise SystemExit(main())
