"""Run the benchmarks from a checkout: ``python benchmarks/run.py [--quick] [--out DIR]``.

The same as ``manasolver bench``; the runner, the board generators and the
phase.rs driver live in the package (``manasolver.solver.bench``,
``benchdata``, ``benchphase``, ``benchreport``) so that an installed
``manasolver bench`` works without this folder.  Results of a full run go to
``benchmarks/results/``.
"""

from __future__ import annotations

import sys

from manasolver.solver.bench import main

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
