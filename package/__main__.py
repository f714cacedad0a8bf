"""``python -m manasolver``: the command line, run as the ``manasolver`` console script runs it."""

import sys

from manasolver.solver.service.cli import run

sys.exit(run())
