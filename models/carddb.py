"""The card database: bundled card data and a user's newer card file, looked up by name.

The bundled data is ``models/data/cards.sqlite`` (built by ``scripts/build_carddb.py``
from the repository's ``data/cards.jsonl.gz``); it is opened lazily with the stdlib
``sqlite3`` and read one record at a time, so a cold ``default_db().get("Forest")``
costs a few milliseconds, not the parse of 24,000 cards.

Name resolution (case-insensitive, exact), in this order:

1. the predefined tokens of SPEC §4 (Treasure, Gold, Powerstone, Eldrazi Spawn,
   Eldrazi Scion, Everywhere; :mod:`manasolver.models.tokens`).  No real card
   has these names, and a Scryfall file's token objects of the same name are
   skipped, so "Treasure" is always the token;
2. the overlay: a user's newer card file (``--cards FILE`` or ``MANASOLVER_CARDS``),
   in our JSONL format or as Scryfall's "oracle cards" bulk JSON; overlay cards
   win over bundled ones;
3. the bundled data: a record's full name (``"Fire // Ice"``), then the front
   face of a multi-face card (``"Bonecrusher Giant"``), then any other face
   (``"Stomp"``, which gives that face alone).

A miss raises :class:`~manasolver.models.errors.UnknownCard` with up to five
close names.  A record becomes a :class:`~manasolver.models.card.Card` in
:mod:`manasolver.models.card_build` (its text read once), when it is first looked up;
the database keeps each card it built.
"""

from __future__ import annotations

import json
import os
import re
import sqlite3
import zlib
from functools import lru_cache
from pathlib import Path
from typing import Any

from manasolver.models.card import SPLIT_LAYOUTS, Card
from manasolver.models.card_build import card_from_record, color_mask, str_field
from manasolver.models.errors import BadState, ManasolverError, UnknownCard

__all__ = [
    "DB_PATH",
    "ENV_VAR",
    "CardDB",
    "default_db",
    "load_card_file",
    "scryfall_to_record",
]

DB_PATH = Path(__file__).resolve().parent / "data" / "cards.sqlite"
ENV_VAR = "MANASOLVER_CARDS"

#: The key under which a user file's records keep their position (file:line or file[index]).
_WHERE = "_where"
#: Scryfall layouts that are not cards.
_NOT_CARDS = {"token", "double_faced_token", "emblem", "art_series"}


# ---------------------------------------------------------------------------------------------
# Scryfall and user card files


def scryfall_to_record(card: dict[str, Any], where: str = "") -> dict[str, Any] | None:
    """Convert one Scryfall card object to our record format; None for non-cards (tokens, emblems)."""
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

    record = face_record(card)
    record["layout"] = card.get("layout") or "normal"
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
            fr = face_record(f)
            if "keywords" not in fr and "keywords" in record:
                fr["keywords"] = record["keywords"]
            recs.append(fr)
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


def load_card_file(path: str | os.PathLike[str]) -> dict[str, dict[str, Any]]:
    """Read a user's card file: JSONL records (one a line) or a Scryfall bulk JSON array.

    Returns records by lower-case name (and front-face name).  Errors are
    :class:`BadState` naming the file and the line or index.
    """
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except OSError as exc:
        raise BadState(f"can't read card file {p}: {exc.strerror or exc}", str(p)) from None
    except UnicodeDecodeError as exc:
        raise BadState(f"card file {p} is not UTF-8 text: {exc.reason}", str(p)) from None
    except ValueError as exc:  # a NUL in the path, or a name the file system can't encode
        raise BadState(f"can't read card file {str(path)!r}: {exc}", "cards") from None
    records: list[dict[str, Any]] = []
    if text.lstrip().startswith("["):
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise BadState(f"card file {p} is not valid JSON: {exc.msg} at line {exc.lineno}",
                           f"{p}:{exc.lineno}") from None
        for i, obj in enumerate(data):
            try:
                rec = scryfall_to_record(obj, f"{p}[{i}]")
            except ManasolverError as exc:
                raise exc.at("") from None
            if rec is not None:
                records.append(_checked(rec, f"{p}[{i}]"))
    else:
        for n, line in enumerate(text.splitlines(), 1):
            if not line.strip():
                continue
            try:
                obj = json.loads(line)
            except json.JSONDecodeError as exc:
                raise BadState(f"card file {p}, line {n}: not valid JSON ({exc.msg})", f"{p}:{n}") from None
            if not isinstance(obj, dict):
                raise BadState(f"card file {p}, line {n}: a record must be a JSON object", f"{p}:{n}")
            records.append(_checked(obj, f"{p}:{n}"))
    out: dict[str, dict[str, Any]] = {}
    for rec in records:
        for key in _keys(rec):
            out.setdefault(key, rec)
        out[rec["name"].lower()] = rec
    return out


def _checked(record: dict[str, Any], where: str) -> dict[str, Any]:
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
    record[_WHERE] = where
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


def _keys(record: dict[str, Any]) -> list[str]:
    keys = [str(record["name"]).lower()]
    faces = record.get("faces")
    if isinstance(faces, list) and faces and isinstance(faces[0], dict) and faces[0].get("name"):
        keys.append(str(faces[0]["name"]).lower())
    return keys


# ---------------------------------------------------------------------------------------------
# the database


class CardDB:
    """Card lookup over the bundled SQLite data and an optional overlay of records."""

    def __init__(self, path: str | os.PathLike[str] | None = None,
                 overlay: dict[str, dict[str, Any]] | None = None) -> None:
        self.path = Path(path) if path is not None else DB_PATH
        self.overlay = overlay or {}
        self._con: sqlite3.Connection | None = None
        self._zdict: bytes | None = None
        self._cache: dict[str, Card] = {}
        self._names: list[str] | None = None
        self._index: dict[str, frozenset[str]] | None = None
        self._display: dict[str, str] | None = None

    # -- storage ------------------------------------------------------------------------
    def _db(self) -> sqlite3.Connection:
        if self._con is None:
            if not self.path.exists():
                raise BadState(f"the bundled card database is missing: {self.path} "
                               f"(run python scripts/build_carddb.py)", "cards")
            self._con = sqlite3.connect(f"file:{self.path}?mode=ro&immutable=1", uri=True,
                                        check_same_thread=False)
            row = self._con.execute("SELECT value FROM meta WHERE key = 'zdict'").fetchone()
            self._zdict = bytes(row[0]) if row else b""
        return self._con

    def _bundled(self, key: str) -> tuple[dict[str, Any], int] | None:
        if not key.isascii():
            try:
                key.encode("utf-8")
            except UnicodeEncodeError:
                return None  # a lone surrogate: no card is named so
        row = self._db().execute(
            "SELECT card.data, lookup.face FROM lookup JOIN card ON card.id = lookup.id WHERE lookup.key = ?",
            (key,)).fetchone()
        if row is None:
            return None
        unpacker = zlib.decompressobj(zdict=self._zdict or b"")
        data = unpacker.decompress(bytes(row[0])) + unpacker.flush()
        return json.loads(data.decode("utf-8")), int(row[1])

    # -- lookups ------------------------------------------------------------------------
    def record(self, name: str) -> dict[str, Any] | None:
        """The raw record a name resolves to (a face's own record for a back face), or None."""
        from manasolver.models.tokens import token_record

        if not isinstance(name, str):
            return None
        key = name.strip().lower()
        tok = token_record(key)
        if tok is not None:
            return tok
        if key in self.overlay:
            return {k: v for k, v in self.overlay[key].items() if k != _WHERE}
        got = self._bundled(key)
        if got is None:
            return None
        rec, face = got
        if face > 0:
            sub = dict(rec["faces"][face])
            sub["layout"] = rec.get("layout", "normal")
            if sub["layout"] == "transform":  # CR 712.8e: the front face's mana value
                sub["front_mana_cost"] = rec["faces"][0].get("mana_cost", "")
            return sub
        return rec

    def get(self, name: str, where: str = "") -> Card:
        """The card named ``name`` (exact, case-insensitive; see the module docstring)."""
        if not isinstance(name, str):
            raise BadState(f"a card name must be a string, not {type(name).__name__}", where)
        key = name.strip().lower()
        if key in self._cache:
            return self._cache[key]
        rec = self.record(name)
        origin = self.overlay[key].get(_WHERE, "") if key in self.overlay else ""
        if rec is None:
            suggestions = self.suggest(name)
            hint = f"; did you mean {', '.join(suggestions)}?" if suggestions else ""
            raise UnknownCard(f"unknown card {name!r}{hint}", where, suggestions)
        try:
            card = card_from_record(rec, "")
        except ManasolverError as exc:
            place = f" ({origin}: {exc.where})" if origin else ""
            raise type(exc)(f"card {rec.get('name')!r}{place}: {exc.message}", where) from None
        self._cache[key] = card
        return card

    def names(self) -> list[str]:
        """Every card name (bundled, overlay and predefined tokens), sorted."""
        if self._names is None:
            from manasolver.models.tokens import TOKEN_NAMES

            rows = self._db().execute("SELECT name FROM card").fetchall()
            names = {r[0] for r in rows}
            names.update(str(r["name"]) for r in self.overlay.values())
            names.update(TOKEN_NAMES)
            self._names = sorted(names)
        return list(self._names)

    def suggest(self, name: str, n: int = 5) -> tuple[str, ...]:
        """Up to ``n`` close names, fast enough for one miss in a cold process.

        Prefilter: names that contain one of the query's words (three letters or
        more) or start like it; :mod:`difflib` ranks those.  When that finds
        nothing (a misspelt single word), a trigram index over every name (built
        once per database) picks the candidates instead.
        """
        import difflib

        query = name.strip().lower()
        if not query:
            return ()
        display = self._display_names()
        words = [w for w in re.findall(r"[a-z0-9']+", query) if len(w) >= 3 and w not in _STOP_WORDS]
        pattern = re.compile("|".join(re.escape(w) for w in words)) if words else None
        head = query[:2]
        pool = [k for k in display if k.startswith(head) or (pattern is not None and pattern.search(k))]
        if len(pool) > 4000:
            pool = [k for k in pool if abs(len(k) - len(query)) <= max(4, len(query) // 2)]
        close = difflib.get_close_matches(query, pool, n=n, cutoff=0.6)
        if len(close) < n:  # then names that contain the query, those starting with it first
            contain = sorted((k for k in pool if query in k and k not in close),
                             key=lambda k: (not k.startswith(query), len(k), k))
            close += contain[:n - len(close)]
        if not close:
            for key in self._trigram_candidates(query):
                if len(close) >= n:
                    break
                if key not in close:
                    close.append(key)
        return tuple(dict.fromkeys(display[k] for k in close))[:n]

    def _trigram_candidates(self, query: str) -> list[str]:
        """Names ranked by difflib among the 300 sharing the most trigrams with ``query``."""
        import difflib
        import heapq

        grams_of = self._suggestion_index()
        grams = _trigrams(query)
        scored = heapq.nlargest(300, ((len(grams & g), k) for k, g in grams_of.items() if not grams.isdisjoint(g)))
        return difflib.get_close_matches(query, [k for _, k in scored], n=10, cutoff=0.5)

    def _display_names(self) -> dict[str, str]:
        """Every lookup key (bundled, overlay, tokens) with the name to show."""
        if self._display is None:
            from manasolver.models.tokens import TOKEN_NAMES

            display = {k: v for k, v in self._db().execute("SELECT key, name FROM lookup")}
            for key, rec in self.overlay.items():
                display[key] = str(rec["name"]) if key == str(rec["name"]).lower() else key
            display.update({t.lower(): t for t in TOKEN_NAMES})
            self._display = display
        return self._display

    def _suggestion_index(self) -> dict[str, frozenset[str]]:
        if self._index is None:
            self._index = {k: frozenset(_trigrams(k)) for k in self._display_names()}
        return self._index

    def close(self) -> None:
        """Close the database connection."""
        if self._con is not None:
            self._con.close()
            self._con = None


_STOP_WORDS = frozenset({"the", "of", "and", "for", "from", "with", "into", "to"})


def _trigrams(text: str) -> set[str]:
    padded = f"  {text} "
    return {padded[i:i + 3] for i in range(len(padded) - 2)}


@lru_cache(maxsize=8)
def _db_for(cards_file: str | None) -> CardDB:
    overlay = load_card_file(cards_file) if cards_file else None
    return CardDB(overlay=overlay)


def default_db(cards_file: str | None = None) -> CardDB:
    """The shared database: the bundled data, overlaid by ``cards_file`` or, when
    that is None, by the file named in ``MANASOLVER_CARDS`` (if set).  Cached per file."""
    if cards_file is None:
        cards_file = os.environ.get(ENV_VAR) or None
    return _db_for(str(cards_file) if cards_file else None)
