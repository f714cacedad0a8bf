"""Build ``models/data/cards.sqlite`` from the repository's card data (``data/cards.jsonl.gz``).

Usage::

    python scripts/build_carddb.py [--source data/cards.jsonl.gz] [--out models/data/cards.sqlite]

The database has two tables:

* ``card(id, name, data)``: one row per record, ``data`` the record's JSON
  (every field but ``sets`` and ``source``, which the engine never reads),
  zlib-compressed with a preset dictionary (table ``meta``, key ``zdict``: 32 KiB
  taken from evenly spaced records) to keep the committed file small;
* ``lookup(key, id, face, rank, name)``: lower-case lookup keys.  ``rank`` 0 is
  a record's own name (``"fire // ice"``), 1 the front face of a multi-face
  card (``"bonecrusher giant"``), 2 any other face (``"stomp"``); ``face`` is
  the face index, or -1 for the whole record.  When two records claim one key
  the lowest rank wins (the card "Bind" beats the front face of
  "Bind // Liberate"), then the earlier record.

The build is deterministic: records in file order, fixed compression level,
``VACUUM`` at the end, so the same input gives the same bytes.
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import sqlite3
import sys
import zlib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_SOURCE = ROOT / "data" / "cards.jsonl.gz"
DEFAULT_OUT = ROOT / "models" / "data" / "cards.sqlite"
#: Fields dropped from the stored records: not read by the engine.
DROPPED = ("sets", "source")
ZDICT_SIZE = 32768

SCHEMA = """
CREATE TABLE card (id INTEGER PRIMARY KEY, name TEXT NOT NULL, data BLOB NOT NULL);
CREATE TABLE meta (key TEXT PRIMARY KEY, value BLOB NOT NULL);
CREATE TABLE lookup (key TEXT PRIMARY KEY, id INTEGER NOT NULL, face INTEGER NOT NULL,
                     rank INTEGER NOT NULL, name TEXT NOT NULL) WITHOUT ROWID;
"""


def lookup_keys(record: dict[str, object]) -> list[tuple[str, int, int, str]]:
    """The ``(key, face, rank, display name)`` entries of one record."""
    name = str(record["name"])
    keys = [(name.lower(), -1, 0, name)]
    faces = record.get("faces") or []
    if isinstance(faces, list):
        for i, face in enumerate(faces):
            if isinstance(face, dict) and face.get("name"):
                fname = str(face["name"])
                keys.append((fname.lower(), i, 1 if i == 0 else 2, fname))
    return keys


def build(source: Path, out: Path) -> tuple[int, int]:
    """Write the database; return (records, lookup keys)."""
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = out.with_suffix(".tmp")
    if tmp.exists():
        tmp.unlink()
    records: list[dict[str, object]] = []
    with gzip.open(source, "rt", encoding="utf-8") as fh:
        for line in fh:
            if line.strip():
                record = json.loads(line)
                for field in DROPPED:
                    record.pop(field, None)
                records.append(record)
    encoded = [json.dumps(r, ensure_ascii=False, sort_keys=True, separators=(",", ":")).encode("utf-8")
               for r in records]
    zdict = b"".join(encoded[::max(1, len(encoded) // 300)])[-ZDICT_SIZE:]
    con = sqlite3.connect(tmp)
    con.executescript(SCHEMA)
    con.execute("INSERT INTO meta (key, value) VALUES ('zdict', ?)", (zdict,))
    best: dict[str, tuple[int, int, int, str]] = {}
    for count, (record, data) in enumerate(zip(records, encoded), 1):
        packer = zlib.compressobj(9, zdict=zdict)
        blob = packer.compress(data) + packer.flush()
        con.execute("INSERT INTO card (id, name, data) VALUES (?, ?, ?)", (count, record["name"], blob))
        for key, face, rank, display in lookup_keys(record):
            entry = (rank, count, face, display)
            if key not in best or entry[:2] < best[key][:2]:
                best[key] = entry
    count = len(records)
    con.executemany("INSERT INTO lookup (key, id, face, rank, name) VALUES (?, ?, ?, ?, ?)",
                    [(k, e[1], e[2], e[0], e[3]) for k, e in sorted(best.items())])
    con.commit()
    con.execute("VACUUM")
    con.close()
    os.replace(tmp, out)
    return count, len(best)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--source", type=Path, default=DEFAULT_SOURCE)
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    args = parser.parse_args(argv)
    if not args.source.exists():
        print(f"card data not found: {args.source}", file=sys.stderr)
        return 1
    records, keys = build(args.source, args.out)
    print(f"wrote {args.out}: {records} records, {keys} lookup keys, {args.out.stat().st_size} bytes")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
