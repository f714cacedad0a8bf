"""Command-line start-up of an installed manasolver, process start to first answer.

Run it with the ``manasolver`` of a normal (non-editable) install, whose bytecode pip compiled, and
without PYTHONDONTWRITEBYTECODE, which makes every start recompile the sources:

    python -m venv /tmp/venv_c && /tmp/venv_c/bin/pip install /path/to/manasolver
    env -u PYTHONDONTWRITEBYTECODE python benchmarks/startup_installed.py /tmp/venv_c/bin/manasolver

Each command is timed ``RUNS`` times (wall clock and the child's CPU time) after one run that is not
counted (it writes the bytecode a fresh install may lack), beside the bare interpreter of the same
install (``python -c pass``).  It writes benchmarks/results/startup_installed.md
and prints the same table.  Nothing is asserted: these are figures, not tests.
"""

from __future__ import annotations

import os
import platform
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

COMMANDS = [["can-pay", "example:commander", "{2}{G}"], ["pay", "example:commander", "{2}{G}{W/U}"],
            ["card", "Forest"], ["mana-value", "{2}{W/U}{B/P}"], ["card", "Reaper King", "--json"]]
RUNS = 21


def _time(argv: list[str], env: dict[str, str]) -> tuple[float, float]:
    """Wall-clock and CPU seconds (user + system) of one run."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(argv, stdout=subprocess.DEVNULL, check=True, env=env)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime


def _series(argv: list[str], env: dict[str, str], runs: int) -> tuple[float, float, float]:
    """Median wall, minimum wall, median CPU over ``runs`` runs."""
    got = [_time(argv, env) for _ in range(runs)]
    walls = [w for w, _ in got]
    return statistics.median(walls), min(walls), statistics.median(c for _, c in got)


def main(argv: list[str]) -> int:
    exe = argv[0] if argv else "manasolver"
    runs = int(argv[1]) if len(argv) > 1 else RUNS
    python = str(Path(exe).with_name("python")) if Path(exe).with_name("python").exists() else sys.executable
    base = dict(os.environ)
    load_start = os.getloadavg()
    rows = []
    bare = _series([python, "-c", "pass"], base, runs)
    for args in COMMANDS:
        first = _time([exe, *args], base)[0]
        rows.append((" ".join(args), first, _series([exe, *args], base, runs)))
    load_end = os.getloadavg()
    cpu = next((line.split(":", 1)[1].strip() for line in Path("/proc/cpuinfo").read_text().splitlines()
                if line.startswith("model name")), platform.processor())
    lines = [
        "# Command-line start-up, installed package",
        "",
        f"Machine: {cpu}, {os.cpu_count()} cores, load average {load_start[0]:.2f} at the start and "
        f"{load_end[0]:.2f} at the end; Python {platform.python_version()}; "
        f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}. PYTHONDONTWRITEBYTECODE "
        f"{'set' if os.environ.get('PYTHONDONTWRITEBYTECODE') else 'unset'}. {runs} runs each after one not "
        f"counted (\"first\"); wall clock (median, min) and the process's CPU time (median). "
        + f"The bare interpreter (`python -c pass`): {bare[0]:.3f} s median, {bare[1]:.3f} min, CPU {bare[2]:.3f}.",
        "",
        "| command | median s | min s | CPU s | first run s | target |",
        "|---|---|---|---|---|---|",
    ]
    lines += [f"| `manasolver {cmd}` | {c[0]:.3f} | {c[1]:.3f} | {c[2]:.3f} | {first:.3f} | ≤ 0.2 |"
              for cmd, first, c in rows]
    text = "\n".join(lines) + "\n"
    out = Path(__file__).resolve().parent / "results" / "startup_installed.md"
    out.write_text(text, encoding="utf-8")
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
