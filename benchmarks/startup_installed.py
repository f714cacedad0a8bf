"""Command-line start-up of an installed manasolver, process start to first answer (SPEC §8).

Run it with the ``manasolver`` of a normal (non-editable) install, whose bytecode pip compiled, and
without PYTHONDONTWRITEBYTECODE, which makes every start recompile the sources:

    env -u PYTHONDONTWRITEBYTECODE python benchmarks/startup_installed.py /path/to/venv/bin/manasolver

It times each command 20 times (wall clock), writes benchmarks/results/startup_installed.md and
prints the same table.  Nothing is asserted: these are figures, not tests.
"""

from __future__ import annotations

import os
import platform
import statistics
import subprocess
import sys
import time
from pathlib import Path

COMMANDS = [["card", "Forest"], ["mana-value", "{2}{W/U}{B/P}"], ["card", "Reaper King", "--json"]]
RUNS = 20


def main(argv: list[str]) -> int:
    exe = argv[0] if argv else "manasolver"
    rows = []
    for args in COMMANDS:
        times = []
        for _ in range(RUNS):
            start = time.perf_counter()
            subprocess.run([exe, *args], stdout=subprocess.DEVNULL, check=True)
            times.append(time.perf_counter() - start)
        rows.append((" ".join(args), statistics.median(times), max(times)))
    cpu = next((line.split(":", 1)[1].strip() for line in Path("/proc/cpuinfo").read_text().splitlines()
                if line.startswith("model name")), platform.processor())
    load = os.getloadavg()
    lines = [
        "# Command-line start-up, installed package",
        "",
        f"Machine: {cpu}, {os.cpu_count()} cores, load average {load[0]:.2f}; Python {platform.python_version()}; "
        f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}. PYTHONDONTWRITEBYTECODE "
        f"{'set' if os.environ.get('PYTHONDONTWRITEBYTECODE') else 'unset'}. {RUNS} runs each, wall clock.",
        "",
        "| command | median s | max s | target |",
        "|---|---|---|---|",
    ]
    lines += [f"| `manasolver {cmd}` | {med:.3f} | {mx:.3f} | ≤ 0.2 |" for cmd, med, mx in rows]
    text = "\n".join(lines) + "\n"
    out = Path(__file__).resolve().parent / "results" / "startup_installed.md"
    out.write_text(text, encoding="utf-8")
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
