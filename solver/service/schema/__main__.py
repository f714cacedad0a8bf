"""``python -m manasolver.solver.service.schema --write DIR`` writes ``DIR/schema.json`` from the definitions
and rewrites the field tables of ``DIR/protocol.md``; ``--check DIR`` exits 1 when either differs
from what the definitions give."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from manasolver.solver.service.schema.jsonschema import schema_text
from manasolver.solver.service.schema.reference import refresh


def generated(folder: Path) -> dict[Path, str]:
    """Each generated file of ``folder`` and the text the definitions give it."""
    out = {folder / "schema.json": schema_text()}
    reference = folder / "protocol.md"
    if reference.exists():
        out[reference] = refresh(reference.read_text(encoding="utf-8"))
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m manasolver.solver.service.schema",
                                     description="Write or check the protocol's JSON Schema (schema.json) "
                                                 "and the field tables of protocol.md.")
    group = parser.add_mutually_exclusive_group(required=True)
    group.add_argument("--write", metavar="DIR", help="write DIR/schema.json and refresh DIR/protocol.md")
    group.add_argument("--check", metavar="DIR", help="exit 1 if a file of DIR is not current")
    args = parser.parse_args(argv)
    folder = Path(args.write if args.write is not None else args.check)
    stale = 0
    for path, text in generated(folder).items():
        current = path.read_text(encoding="utf-8") if path.exists() else None
        if args.write is not None:
            path.parent.mkdir(parents=True, exist_ok=True)
            if current != text:
                path.write_text(text, encoding="utf-8")
            print(f"wrote {path} ({len(text):,} characters)")
        elif current != text:
            stale += 1
            print(f"{path} is not current: run python -m manasolver.solver.service.schema --write {folder}",
                  file=sys.stderr)
    return 1 if stale else 0


if __name__ == "__main__":
    sys.exit(main())
