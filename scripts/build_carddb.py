"""Build ``models/data/cards.sqlite`` and ``solver/service/playground/printings.tsv.gz`` from the
repository's card data (``data/cards.jsonl.gz``).

Usage::

    python scripts/build_carddb.py [--source data/cards.jsonl.gz] [--out models/data/cards.sqlite]
                                   [--printings solver/service/playground/printings.tsv.gz]

What the data holds (``cards.meta.json`` beside the source, written by ``scripts/build_cards.py``:
its source, version, newest set and that set's date), with the number of cards, goes into the
database's ``meta`` table under keys ``data_*``, so that ``manasolver --version`` and ``manasolver
cards info`` read it without loading any card.

The database's tables are described in :mod:`manasolver.models.card_import`, whose
:func:`~manasolver.models.card_import.write_db` writes them (``manasolver cards import`` writes a
user's card file the same way).  The build is deterministic: records in file order, fixed
compression level, ``VACUUM`` at the end, so the same input gives the same bytes.

The printings file says how many sets printed each card (the data's ``sets``, which the database
leaves out): the playground's card search ranks the names that match a query by it, since a card
printed again and again (Lightning Bolt, Llanowar Elves, Swamp) is the one a player most likely
means.  One line a card, ``count<TAB>name``, sorted by name, for the cards printed in two sets or
more (the others count one); gzip with no time stamp, so it too is the same bytes for the same input.
"""

from __future__ import annotations

import argparse
import gzip
import json
import sys
from pathlib import Path
from typing import Any

from manasolver.models.card_import import write_db

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_SOURCE = ROOT / "data" / "cards.jsonl.gz"
DEFAULT_OUT = ROOT / "models" / "data" / "cards.sqlite"
DEFAULT_PRINTINGS = ROOT / "solver" / "service" / "playground" / "printings.tsv.gz"


def _records(source: Path) -> list[dict[str, Any]]:
    with gzip.open(source, "rt", encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]


def data_meta(source: Path, records: int) -> dict[str, str]:
    """The ``data_*`` rows of the ``meta`` table: ``cards.meta.json`` beside ``source`` and the count."""
    meta = {"data_cards": str(records)}
    side = source.parent / "cards.meta.json"
    if side.is_file():
        for key, value in json.loads(side.read_text(encoding="utf-8")).items():
            meta[f"data_{key}"] = str(value)
    return meta


def build(source: Path, out: Path) -> tuple[int, int]:
    """Write the database; return (records, lookup keys)."""
    records = _records(source)
    return write_db(records, out, data_meta(source, len(records)))


def printings_text(source: Path) -> str:
    """The printings file's text: ``count<TAB>name`` for the cards of ``source`` printed in two sets or more."""
    counts = {str(r["name"]): len(r.get("sets") or ()) for r in _records(source)}
    return "".join(f"{n}\t{name}\n" for name, n in sorted(counts.items()) if n >= 2)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--source", type=Path, default=DEFAULT_SOURCE)
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    parser.add_argument("--printings", type=Path, default=DEFAULT_PRINTINGS)
    args = parser.parse_args(argv)
    if not args.source.exists():
        print(f"card data not found: {args.source}", file=sys.stderr)
        return 1
    records, keys = build(args.source, args.out)
    print(f"wrote {args.out}: {records} records, {keys} lookup keys, {args.out.stat().st_size} bytes")
    text = printings_text(args.source)
    args.printings.write_bytes(gzip.compress(text.encode("utf-8"), compresslevel=9, mtime=0))
    print(f"wrote {args.printings}: {text.count(chr(10))} cards, {args.printings.stat().st_size} bytes")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
