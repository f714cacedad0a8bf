"""Write the benchmark boards as board JSON files (SPEC §4), to look at or to feed other engines.

``python benchmarks/boards.py OUTDIR`` writes ``small-0.json`` (10 permanents),
``commander-0.json`` (40), ``lands300-0.json``, ``lands1000-0.json`` and
``cataracts.json``, each with the costs used on it in ``costs.json``.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from manasolver.solver import benchdata as bd


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print(__doc__)
        return 2
    out = Path(argv[0])
    out.mkdir(parents=True, exist_ok=True)
    boards = {"small-0": bd.small_board(0), "commander-0": bd.commander_board(0),
              "lands300-0": bd.lands_board(300, 0), "lands1000-0": bd.lands_board(1000, 0),
              "cataracts": bd.cataracts_board()}
    costs = {"small-0": bd.costs_for(0, 10), "commander-0": bd.costs_for(0, 20),
             "lands300-0": [bd.tight_cost(boards["lands300-0"]), bd.over_cost(boards["lands300-0"])],
             "lands1000-0": [bd.tight_cost(boards["lands1000-0"]), bd.over_cost(boards["lands1000-0"])]}
    for name, board in boards.items():
        (out / f"{name}.json").write_text(json.dumps(board, indent=1) + "\n", encoding="utf-8")
    (out / "costs.json").write_text(json.dumps(costs, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
