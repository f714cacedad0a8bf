"""Card files read as a stream and written once into a card database (the bundled one's format).

A card file is our JSONL (one record a line, ``data/SOURCE.md``) or what Scryfall serves: a bulk
file (a JSON array of card objects, "oracle cards" or "default cards", hundreds of megabytes), one
card object (what ``/cards/named`` returns) or a ``"list"`` object (``{"object": "list", "data":
[...]}``); gzip-compressed or not.  :func:`read_card_file` yields the file's cards one at a time,
in our record format (Scryfall objects through
:func:`~manasolver.models.carddb.scryfall_to_record`), reading the text in chunks with
:meth:`json.JSONDecoder.raw_decode`, so a 137 MB bulk file never sits in memory whole.  A file that
is not a card file (an image, an empty file, a JSON object of another shape, an array cut short)
raises :class:`~manasolver.models.errors.BadState` naming the file and the line (or the card's
index) where reading stopped.

:func:`write_db` writes records into an SQLite database with two tables:

* ``card(id, name, data)``: one row per record, ``data`` the record's JSON (every field but
  ``sets`` and ``source``, which the engine never reads), zlib-compressed with a preset dictionary
  (table ``meta``, key ``zdict``: 32 KiB taken from evenly spaced records);
* ``lookup(key, id, face, rank, name)``: lower-case lookup keys.  ``rank`` 0 is a record's own
  name (``"fire // ice"``), 1 the front face of a multi-face card (``"bonecrusher giant"``), 2 any
  other face (``"stomp"``, ``"insectile aberration"``); ``face`` is the face index, or -1 for the
  whole record.  When two records claim one key the lowest rank wins (the card "Bind" beats the
  front face of "Bind // Liberate"), then the earlier record.

The bundled ``models/data/cards.sqlite`` is built so (``scripts/build_carddb.py``: deterministic,
the same input gives the same bytes); :func:`import_card_file` builds a user's database the same
way, from any card file, with the file's path, size and modification time in ``meta`` so that a
later ``--cards FILE`` naming the unchanged file can use the database instead
(:func:`imported_db_for`).  Opening either costs milliseconds, whatever the size of the source.
"""

from __future__ import annotations

import codecs
import json
import os
import sqlite3
import time
import zlib
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from manasolver.models.card import SPLIT_LAYOUTS
from manasolver.models.card_build import WHERE, color_mask, str_field
from manasolver.models.errors import BadState, ManasolverError

__all__ = [
    "DEFAULT_NAME",
    "DROPPED",
    "ImportResult",
    "SQLITE_MAGIC",
    "checked_record",
    "default_import_path",
    "encode",
    "import_card_file",
    "imported_db_for",
    "lookup_keys",
    "printing_rank",
    "read_card_file",
    "scryfall_to_record",
    "user_data_dir",
    "write_db",
    "write_encoded",
]

#: Fields dropped from the stored records: not read by the engine.
DROPPED = ("sets", "source")
ZDICT_SIZE = 32768
#: The first bytes of every SQLite database file.
SQLITE_MAGIC = b"SQLite format 3\x00"
#: The file name of an imported database in the user's data folder.
DEFAULT_NAME = "cards.sqlite"
#: Scryfall layouts that are not cards.
_NOT_CARDS = {"token", "double_faced_token", "emblem", "art_series"}
#: Characters read at a time from a card file.
_CHUNK = 1 << 20
#: The longest single JSON value (one card, or one line) accepted: far above any real card.
_MAX_VALUE = 16 << 20

SCHEMA = """
CREATE TABLE card (id INTEGER PRIMARY KEY, name TEXT NOT NULL, data BLOB NOT NULL);
CREATE TABLE meta (key TEXT PRIMARY KEY, value BLOB NOT NULL);
CREATE TABLE lookup (key TEXT PRIMARY KEY, id INTEGER NOT NULL, face INTEGER NOT NULL,
                     rank INTEGER NOT NULL, name TEXT NOT NULL) WITHOUT ROWID;
"""


# ---------------------------------------------------------------------------------------------
# writing a database


def lookup_keys(record: dict[str, Any]) -> list[tuple[str, int, int, str]]:
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


def encode(record: dict[str, Any]) -> bytes:
    """A record's stored JSON: compact, keys sorted, without the fields the engine never reads."""
    kept = {k: v for k, v in record.items() if k not in DROPPED}
    return json.dumps(kept, ensure_ascii=False, sort_keys=True, separators=(",", ":")).encode("utf-8")


def write_db(records: Iterable[dict[str, Any]], out: Path, meta: dict[str, str] | None = None) -> tuple[int, int]:
    """Write ``records`` (in order) as a card database at ``out``, atomically (a temporary file
    beside it, then a rename); ``meta`` adds rows to the ``meta`` table.  Returns (records, keys)."""
    return write_encoded([(str(r["name"]), lookup_keys(r), encode(r)) for r in records], out, meta)


def write_encoded(items: list[tuple[str, list[tuple[str, int, int, str]], bytes]], out: Path,
                  meta: dict[str, str] | None = None) -> tuple[int, int]:
    """:func:`write_db` of records already encoded: ``(name, lookup keys, stored JSON)`` each."""
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = out.with_name(out.name + ".tmp")
    if tmp.exists():
        tmp.unlink()
    zdict = b"".join(item[2] for item in items[::max(1, len(items) // 300)])[-ZDICT_SIZE:]
    con = sqlite3.connect(tmp)
    try:
        con.executescript(SCHEMA)
        con.execute("INSERT INTO meta (key, value) VALUES ('zdict', ?)", (zdict,))
        for key, value in sorted((meta or {}).items()):
            con.execute("INSERT INTO meta (key, value) VALUES (?, ?)", (key, value.encode("utf-8")))
        best: dict[str, tuple[int, int, int, str]] = {}
        primed = zlib.compressobj(9, zdict=zdict)  # copied for each record: the same bytes, faster
        for count, (name, keys, data) in enumerate(items, 1):
            packer = primed.copy()
            blob = packer.compress(data) + packer.flush()
            con.execute("INSERT INTO card (id, name, data) VALUES (?, ?, ?)", (count, name, blob))
            for key, face, rank, display in keys:
                entry = (rank, count, face, display)
                if key not in best or entry[:2] < best[key][:2]:
                    best[key] = entry
        con.executemany("INSERT INTO lookup (key, id, face, rank, name) VALUES (?, ?, ?, ?, ?)",
                        [(k, e[1], e[2], e[0], e[3]) for k, e in sorted(best.items())])
        con.commit()
        con.execute("VACUUM")
    finally:
        con.close()
    os.replace(tmp, out)
    return len(items), len(best)


# ---------------------------------------------------------------------------------------------
# Scryfall objects and records


def scryfall_to_record(card: dict[str, Any], where: str = "") -> dict[str, Any] | None:
    """Convert one Scryfall card object to our record format; None for non-cards (tokens, emblems).

    A multi-face card (``card_faces``: transform, modal double-faced, adventure, split, flip)
    keeps every face in ``faces``; its mana cost is its front face's (a split card's is both
    halves', CR 709.4), which gives the mana value Scryfall's ``cmc`` says, kept as
    ``mana_value``."""
    if not isinstance(card, dict):
        raise BadState(f"a Scryfall card must be an object, not {type(card).__name__}", where)
    if card.get("layout") in _NOT_CARDS:
        return None
    name = card.get("name")
    if not isinstance(name, str) or not name:
        raise BadState("a Scryfall card needs a 'name'", f"{where}.name" if where else "name")

    def face_record(obj: dict[str, Any]) -> dict[str, Any]:
        rec: dict[str, Any] = {
            "name": obj.get("name", ""),
            "mana_cost": obj.get("mana_cost") or "",
            "type_line": obj.get("type_line") or "",
            "oracle_text": obj.get("oracle_text") or "",
        }
        if obj.get("colors") is not None:
            rec["colors"] = list(obj["colors"])
        for key in ("color_indicator", "power", "toughness", "loyalty"):
            if obj.get(key) is not None:
                rec[key] = obj[key]
        if isinstance(obj.get("keywords"), list):
            rec["keywords"] = [str(k).lower() for k in obj["keywords"]]
        return rec

    if card.get("layout") == "reversible_card":  # one card printed on both sides: its first side
        sides = card.get("card_faces")
        if isinstance(sides, list) and sides and isinstance(sides[0], dict):
            side = {k: v for k, v in card.items() if k not in ("card_faces", "name", "layout")}
            side.update(sides[0])
            side["layout"] = sides[0].get("layout") or "normal"
            side.pop("object", None)
            return scryfall_to_record(side, where)
    record = face_record(card)
    record["layout"] = card.get("layout") or "normal"
    if isinstance(card.get("lang"), str) and card["lang"] != "en":
        record["lang"] = card["lang"]  # which printing to keep (import_card_file); not stored
    if isinstance(card.get("cmc"), (int, float)):
        record["mana_value"] = card["cmc"]
    if card.get("border_color") == "silver" or card.get("set_type") == "funny":
        record["funny"] = True
    faces = card.get("card_faces")
    if isinstance(faces, list) and faces:
        recs = []
        for i, f in enumerate(faces):
            if not isinstance(f, dict):
                raise BadState("card_faces must hold objects", f"{where}.card_faces[{i}]")
            # Scryfall's keywords are the whole card's (Delver of Secrets' "Flying" is its back
            # face's): each face's keywords are read from its own text
            recs.append(face_record(f))
        record["faces"] = recs
        if not record["oracle_text"]:
            record["oracle_text"] = "\n//\n".join(f["oracle_text"] for f in recs)
        if card.get("colors") is None:
            letters: set[str] = set()
            for f in recs:
                letters.update(f.get("colors") or [])
            record["colors"] = [c for c in "WUBRG" if c in letters]
        if record["layout"] not in SPLIT_LAYOUTS:
            record["mana_cost"] = recs[0]["mana_cost"]
    return record


def checked_record(record: dict[str, Any], where: str) -> dict[str, Any]:
    """Check a record's shape cheaply, so that a large file loads fast: the name and
    the type of every field the engine reads, on the record and its faces; errors
    name the file position.  The card itself is built when it is looked up: a bad
    mana cost (or a silver-bordered symbol the engine refuses, such as Little Girl's
    {HW}) then fails that lookup only, naming the file position too, so one odd card
    doesn't make a whole Scryfall bulk file unusable."""
    try:
        _check_fields(record, where)
        faces = record.get("faces")
        if faces is not None:
            if not isinstance(faces, list) or not all(isinstance(f, dict) for f in faces):
                raise BadState("'faces' must be a list of objects", f"{where}.faces")
            for i, face in enumerate(faces):
                _check_fields(face, f"{where}.faces[{i}]")
    except ManasolverError as exc:
        raise type(exc)(f"{exc.message} ({where})", exc.where or where) from None
    record[WHERE] = where
    return record


def _check_fields(record: dict[str, Any], where: str) -> None:
    name = record.get("name")
    if not isinstance(name, str) or not name.strip():
        raise BadState("a card record needs a non-empty 'name' string", f"{where}.name")
    for key in ("type_line", "oracle_text", "layout"):
        str_field(record, key, where)
    str_field(record, "mana_cost", where)
    for key in ("colors", "color_indicator"):
        if record.get(key) is not None:
            color_mask(record[key], f"{where}.{key}")


# ---------------------------------------------------------------------------------------------
# reading a card file as a stream


class _Stream:
    """JSON values read one at a time from a text stream, with the line each one starts on."""

    def __init__(self, fh: IO[str], label: str) -> None:
        self.fh = fh
        self.label = label
        self.buf = ""
        self.pos = 0
        self.line = 1  # the line of ``buf[pos]``
        self.eof = False
        self.decoder = json.JSONDecoder()

    def _fill(self) -> bool:
        if self.eof:
            return False
        try:
            chunk = self.fh.read(_CHUNK)
        except UnicodeDecodeError as exc:
            raise BadState(f"card file {self.label} is not UTF-8 text near line {self.line}: {exc.reason}",
                           f"{self.label}:{self.line}") from None
        except (OSError, EOFError) as exc:  # a gzip file cut short, a read error
            raise BadState(f"can't read card file {self.label} near line {self.line}: {exc}",
                           f"{self.label}:{self.line}") from None
        if not chunk:
            self.eof = True
            return False
        if self.pos > _CHUNK:
            self.buf = self.buf[self.pos:]
            self.pos = 0
        self.buf += chunk
        return True

    def _advance(self, end: int) -> None:
        self.line += self.buf.count("\n", self.pos, end)
        self.pos = end

    def peek(self) -> str | None:
        """The next character that is not white space (None at the end of the file)."""
        while True:
            n = len(self.buf)
            while self.pos < n and self.buf[self.pos] in " \t\r\n":
                if self.buf[self.pos] == "\n":
                    self.line += 1
                self.pos += 1
            if self.pos < n:
                return self.buf[self.pos]
            if not self._fill():
                return None

    def take(self, char: str) -> None:
        assert self.buf[self.pos] == char
        self.pos += 1

    def value(self, what: str) -> Any:
        """The JSON value starting at the next character; errors say ``what`` was being read."""
        if self.peek() is None:
            raise self.error(f"ends where {what} should be")
        while True:
            try:
                value, end = self.decoder.raw_decode(self.buf, self.pos)
            except json.JSONDecodeError as exc:
                if not self.eof and len(self.buf) - self.pos <= _MAX_VALUE and self._fill():
                    continue
                if self.eof and (exc.pos >= len(self.buf.rstrip()) or exc.msg.startswith("Unterminated string")):
                    raise self.error(f"ends inside {what} (the file is cut short)") from None
                line = self.line + self.buf.count("\n", self.pos, exc.pos)
                raise BadState(f"card file {self.label}, line {line}: {what} is not valid JSON ({exc.msg})",
                               f"{self.label}:{line}") from None
            except RecursionError:
                raise self.error(f"{what} is nested too deeply") from None
            if end == len(self.buf) and not self.eof and not isinstance(value, (dict, list, str)):
                if self._fill():  # a number may go on in the next chunk
                    continue
            self._advance(end)
            return value

    def error(self, message: str) -> BadState:
        return BadState(f"card file {self.label}, line {self.line}: {message}", f"{self.label}:{self.line}")


def _open_text(path: Path) -> IO[str]:
    """The file as text: gzip-compressed or not, UTF-8 with or without a byte-order mark."""
    label = str(path)
    try:
        with open(path, "rb") as fh:
            head = fh.read(16)
    except IsADirectoryError:
        raise BadState(f"card file {label} is a folder, not a file", label) from None
    except OSError as exc:
        raise BadState(f"can't read card file {label}: {exc.strerror or exc}", label) from None
    except ValueError as exc:  # a NUL in the path, or a name the file system can't encode
        raise BadState(f"can't read card file {label!r}: {exc}", "cards") from None
    if head.startswith(b"\x1f\x8b"):
        import gzip  # only for a compressed file: not on every start-up

        return gzip.open(path, "rt", encoding="utf-8-sig")
    if not head:
        raise BadState(f"card file {label} is empty: give a JSONL card file or a Scryfall JSON file", label)
    if head.startswith(SQLITE_MAGIC):
        raise BadState(f"card file {label} is an SQLite database, not a JSON card file "
                       f"(give it as --cards {label})", label)
    probe = head.lstrip(codecs.BOM_UTF8).lstrip(b" \t\r\n")
    if probe and probe[:1] not in (b"{", b"["):
        shown = " ".join(f"{b:02x}" for b in head[:8])
        kind = "an image" if head.startswith((b"\x89PNG", b"\xff\xd8\xff", b"GIF8")) else "not JSON"
        raise BadState(f"card file {label} is not a card file: it is {kind} (it starts with bytes {shown}); "
                       f"give a JSONL card file or a Scryfall JSON file", f"{label}:1")
    return open(path, encoding="utf-8-sig")


def read_card_file(path: str | os.PathLike[str]) -> Iterator[tuple[str, dict[str, Any]]]:
    """The cards of a card file, one ``(position, record)`` at a time, in file order.

    The position is ``FILE:LINE`` for a JSONL line, ``FILE[INDEX]`` for an element of an array,
    ``FILE.data[INDEX]`` for a card of a Scryfall list and ``FILE`` for a file of one card.  Records
    are checked cheaply (the name, the type of each field the engine reads); Scryfall's tokens,
    emblems and art cards are skipped.
    """
    p = Path(path)
    label = str(p)
    with _open_text(p) as fh:
        stream = _Stream(fh, label)
        first = stream.peek()
        if first is None:
            raise BadState(f"card file {label} holds nothing but white space", label)
        if first == "[":
            stream.take("[")
            yield from _array(stream, label, scryfall_to_record, checked_record)
            if stream.peek() is not None:
                raise stream.error("text after the end of the array")
            return
        if first != "{":
            raise stream.error("a card file is a JSON array, a JSON object, or one JSON object a line")
        values = 0
        while stream.peek() is not None:
            line = stream.line
            obj = stream.value("a card object" if values == 0 else "the next card object")
            values += 1
            if not isinstance(obj, dict):
                raise BadState(f"card file {label}, line {line}: a record must be a JSON object, "
                               f"not {_kind(obj)}", f"{label}:{line}")
            kind = obj.get("object")
            if values == 1 and kind == "list" and stream.peek() is None:
                data = obj.get("data")
                if not isinstance(data, list):
                    raise BadState(f"card file {label} is a Scryfall list without a 'data' array",
                                   f"{label}.data")
                for i, item in enumerate(data):
                    rec = _one(item, f"{label}.data[{i}]", scryfall_to_record, checked_record)
                    if rec is not None:
                        yield rec
                return
            where = f"{label}:{line}"
            if values == 1 and stream.peek() is None and line == 1 and kind is not None:
                where = label  # one Scryfall object in the file
            rec = _one(obj, where, scryfall_to_record, checked_record)
            if rec is not None:
                yield rec


def _array(stream: _Stream, label: str, convert: Any, check: Any) -> Iterator[tuple[str, dict[str, Any]]]:
    index = 0
    if stream.peek() == "]":
        stream.take("]")
        return
    while True:
        item = stream.value(f"card [{index}]")
        rec = _one(item, f"{label}[{index}]", convert, check)
        if rec is not None:
            yield rec
        index += 1
        nxt = stream.peek()
        if nxt == ",":
            stream.take(",")
        elif nxt == "]":
            stream.take("]")
            return
        elif nxt is None:
            raise stream.error(f"ends after card [{index - 1}]: the array is not closed (the file is cut short)")
        else:
            raise stream.error(f"expected ',' or ']' after card [{index - 1}], found {nxt!r}")


def _kind(value: Any) -> str:
    return {dict: "an object", list: "an array", str: "a string", bool: "true or false"}.get(
        type(value), "null" if value is None else "a number")


def _one(obj: Any, where: str, convert: Any, check: Any) -> tuple[str, dict[str, Any]] | None:
    """One element of a card file as a checked record (None for what is not a card)."""
    if not isinstance(obj, dict):
        raise BadState(f"card file {where}: a card must be a JSON object, not {_kind(obj)}", where)
    kind = obj.get("object")
    if kind is not None and kind != "card":
        detail = f": {obj['details']}" if kind == "error" and isinstance(obj.get("details"), str) else ""
        raise BadState(f"card file {where}: a Scryfall {kind!r} object, not a card{detail}", where)
    if kind == "card" or "card_faces" in obj or ("cmc" in obj and "faces" not in obj):
        rec = convert(obj, where)
        if rec is None:
            return None
    else:
        if "name" not in obj:
            keys = ", ".join(sorted(map(str, obj))[:6]) or "no fields"
            raise BadState(f"card file {where}: not a card: a card has a 'name' (this object has {keys}); "
                           f"give a JSONL card file or a Scryfall JSON file", f"{where}.name")
        rec = obj
    return where, check(rec, where)


# ---------------------------------------------------------------------------------------------
# importing a user's file


@dataclass(frozen=True)
class ImportResult:
    """What :func:`import_card_file` wrote."""

    out: Path
    cards: int
    keys: int
    skipped: int  # records of a name read before (other printings of a card), merged
    seconds: float


def user_data_dir() -> Path:
    """Where the user's data goes: ``$XDG_DATA_HOME/manasolver``, else ``~/.local/share/manasolver``
    (on Windows ``%LOCALAPPDATA%\\manasolver``)."""
    base = os.environ.get("XDG_DATA_HOME")
    if not base and os.name == "nt":
        base = os.environ.get("LOCALAPPDATA")
    return Path(base or Path.home() / ".local" / "share") / "manasolver"


def default_import_path() -> Path:
    """The database ``cards import`` writes when no ``--out`` is given."""
    return user_data_dir() / DEFAULT_NAME


def printing_rank(record: dict[str, Any]) -> tuple[bool, bool]:
    """How good a printing of a name is, to keep one of several (Scryfall's "default cards" lists
    every printing): English over another language, black-bordered over silver ("funny"); the
    first of equal ones is kept."""
    return record.get("lang", "en") == "en", not record.get("funny")


def _source_meta(path: Path) -> dict[str, str]:
    st = path.stat()
    return {"source": str(path.resolve()), "source_size": str(st.st_size),
            "source_mtime_ns": str(st.st_mtime_ns), "kind": "user"}


def import_card_file(source: str | os.PathLike[str], out: str | os.PathLike[str] | None = None) -> ImportResult:
    """Read the card file ``source`` (any format :func:`read_card_file` reads) and write it as a card
    database at ``out`` (default :func:`default_import_path`).  A name given twice keeps one record
    (the first, or a later English, black-bordered printing of it: Scryfall's "default cards" lists
    every printing)."""
    start = time.perf_counter()
    src = Path(source)
    target = Path(out) if out is not None else default_import_path()
    if target.exists() and target.resolve() == src.resolve():
        raise BadState(f"--out {target} is the card file being read", "out")
    kept: dict[str, tuple[tuple[bool, bool], tuple[str, list[tuple[str, int, int, str]], bytes]]] = {}
    seen = 0
    for where, rec in read_card_file(src):
        seen += 1
        key = str(rec["name"]).lower()
        quality = printing_rank(rec)
        if key in kept and quality <= kept[key][0]:
            continue  # a printing no better than the one kept
        stored = {k: v for k, v in rec.items() if k not in ("lang", WHERE)}
        stored[WHERE] = where
        kept[key] = quality, (str(rec["name"]), lookup_keys(stored), encode(stored))
    if not kept:
        raise BadState(f"card file {src} holds no cards", str(src))
    cards, keys = write_encoded([item for _, item in kept.values()], target, _source_meta(src))
    return ImportResult(target, cards, keys, seen - cards, time.perf_counter() - start)


def imported_db_for(source: str | os.PathLike[str]) -> Path | None:
    """The database ``cards import`` made from ``source`` at the default place, when it is still
    current (the same path, size and modification time); None otherwise."""
    db = default_import_path()
    try:
        if not db.is_file():
            return None
        st = Path(source).stat()
        want = {"source": str(Path(source).resolve()), "source_size": str(st.st_size),
                "source_mtime_ns": str(st.st_mtime_ns)}
        con = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
        try:
            rows = dict(con.execute("SELECT key, value FROM meta WHERE key IN "
                                    "('source', 'source_size', 'source_mtime_ns')").fetchall())
        finally:
            con.close()
    except (OSError, ValueError, sqlite3.Error):
        return None
    got = {k: bytes(v).decode("utf-8", "replace") for k, v in rows.items()}
    return db if got == want else None
