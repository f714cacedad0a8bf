"""What a cold ``manasolver can-pay example:commander "{2}{G}"`` loads (start-up ≤ 0.2 s).

Speed is not asserted (a wall clock in a test measures the machine); what the command imports and
builds is: a fresh interpreter runs the command line's ``main`` and reports which of the modules
that a light query must not need it has loaded, and how many subcommand parsers it built.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap

#: Modules a light query must not load: the optimiser and what it brings, the source graph, the
#: enumerator, and what only card files, help text or package resources need.
NOT_NEEDED = ("ortools", "pandas", "numpy", "networkx", "constraint", "shutil", "lzma", "bz2", "gzip",
              "importlib.resources", "importlib.metadata", "manasolver.models.card_import", "difflib",
              # a payable can_pay writes no payment, and a board without doublers or cost modifiers
              # reads none of their modules
              "manasolver.solver.payment", "manasolver.solver.payment_writer", "manasolver.solver.pools.doublers",
              "manasolver.models.text.cost_modifiers", "manasolver.models.text.keyword_costs")

_CHILD = textwrap.dedent("""
    import argparse, contextlib, io, json, sys
    built = []
    real = argparse.ArgumentParser.__init__
    def counting(self, *args, **kwargs):
        built.append(kwargs.get("prog") or (args[0] if args else None))
        real(self, *args, **kwargs)
    argparse.ArgumentParser.__init__ = counting
    from manasolver.solver.service.cli import main
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = main(sys.argv[1:4])
    loaded = sorted(m for m in sys.argv[4:] if m in sys.modules)
    print(json.dumps({"code": code, "out": out.getvalue(), "loaded": loaded, "parsers": len(built)}))
""")


def _cold(*args: str) -> dict[str, object]:
    proc = subprocess.run([sys.executable, "-c", _CHILD, *args, *NOT_NEEDED], capture_output=True, text=True,
                          timeout=120, check=False)
    assert proc.returncode == 0, proc.stderr
    result = json.loads(proc.stdout)
    assert isinstance(result, dict)
    return result


def test_cold_can_pay_loads_only_what_it_needs() -> None:
    got = _cold("can-pay", "example:commander", "{2}{G}")
    assert got["code"] == 0 and got["out"] == "payable\n"
    assert got["loaded"] == [], f"a cold can-pay loaded {got['loaded']}"
    assert got["parsers"] == 2, "the top-level parser and can-pay's alone"


def test_cold_start_with_an_imported_database_loads_no_card_file_reader(tmp_path: object) -> None:
    """--cards DB (made by cards import) opens the database: the card-file readers stay unloaded."""
    from pathlib import Path

    from manasolver.models.card_import import import_card_file

    scryfall = Path(__file__).resolve().parents[1] / "data" / "scryfall" / "oracle-cards.json"
    db = import_card_file(scryfall, Path(str(tmp_path)) / "cards.sqlite").out
    got = _cold("mana-value", "Insectile Aberration", f"--cards={db}")
    assert got["code"] == 0 and got["out"].startswith("mana value 1"), got["out"]
    assert "manasolver.models.card_import" not in got["loaded"]
    assert [m for m in got["loaded"] if m.split(".")[0] in ("ortools", "pandas", "networkx")] == []
