"""The card database: bundled card data and a user's newer card file, looked up by name.

The bundled data is ``models/data/cards.sqlite`` (built by ``scripts/build_carddb.py``
from the repository's ``data/cards.jsonl.gz``); it is opened lazily with the stdlib
``sqlite3`` and read one record at a time, so a cold ``default_db().get("Forest")``
costs a few milliseconds, not the parse of 35,000 cards.

Name resolution (case-insensitive, exact), in this order:

1. the predefined tokens (Treasure, Gold, Powerstone, Eldrazi Spawn,
   Eldrazi Scion, Everywhere; :mod:`manasolver.models.tokens`).  No real card
   has these names, and a Scryfall file's token objects of the same name are
   skipped, so "Treasure" is always the token;
2. the user's cards (``--cards FILE`` or ``MANASOLVER_CARDS``), which win over bundled
   ones: a database written by ``manasolver cards import``
   (:mod:`manasolver.models.card_import`; opened like the bundled one, in milliseconds),
   or a card file read whole into memory (our JSONL, a Scryfall bulk file, card object or
   list), unless ``cards import`` made the default database from that very file, unchanged
   since, which is then used instead;
3. the bundled data.

In each, a record's full name (``"Fire // Ice"``) comes first, then the front face of a
multi-face card (``"Bonecrusher Giant"``), then any other face (``"Stomp"``,
``"Insectile Aberration"``, which gives that face alone: a transforming back face keeps the
front face's mana cost for its mana value, CR 712.8e).

A miss raises :class:`~manasolver.models.errors.UnknownCard` with up to five
near names (:data:`NEAR`), saying which date the bundled data reaches and how to bring newer
cards (:func:`unknown_cards_error`, which also names every unknown card of a board or deck at
once).  What the bundled data holds is in its ``meta`` table (:func:`data_info`).  A record becomes a
:class:`~manasolver.models.card.Card` in
:mod:`manasolver.models.card_build` (its text read once), when it is first looked up;
the database keeps each card it built.
"""

from __future__ import annotations

import json
import os
import re
import sqlite3
import zlib
from collections.abc import Sequence
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from manasolver.models.card import Card
from manasolver.models.card_build import WHERE as _WHERE
from manasolver.models.card_build import card_from_record
from manasolver.models.errors import BadState, ManasolverError, UnknownCard
from manasolver.models.tokens import TOKEN_NAMES, token_record

if TYPE_CHECKING:  # the card-file readers are imported only when a user's cards are given
    from pathlib import Path

    from manasolver.models.card_import import scryfall_to_record

__all__ = [
    "DB_PATH",
    "ENV_VAR",
    "NEAR",
    "CardDB",
    "data_info",
    "data_summary",
    "default_db",
    "is_sqlite",
    "load_card_file",
    "scryfall_to_record",
    "unknown_cards_error",
]

#: The bundled database (a plain path: pathlib and what it imports cost a cold start 9 ms).
DB_PATH = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "cards.sqlite")
ENV_VAR = "MANASOLVER_CARDS"


def __getattr__(name: str) -> Any:
    if name == "scryfall_to_record":
        from manasolver.models.card_import import scryfall_to_record
        return scryfall_to_record
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


# ---------------------------------------------------------------------------------------------
# Scryfall and user card files


def load_card_file(path: str | os.PathLike[str]) -> dict[str, dict[str, Any]]:
    """Read a user's card file into memory (any format that
    :func:`~manasolver.models.card_import.read_card_file` reads).

    Returns records by lower-case key: a record's name and its front face's name give the whole
    record, another face's name that face's own record (:func:`face_record`); a key two records
    claim goes as in the database (a record's own name first, then the earlier record).  A name
    given twice keeps one record, as ``cards import`` does (:func:`~manasolver.models.card_import.printing_rank`).
    Errors are :class:`BadState` naming the file and the line or index.
    """
    from manasolver.models.card_import import printing_rank, read_card_file

    kept: dict[str, tuple[tuple[bool, bool], dict[str, Any]]] = {}
    for _, rec in read_card_file(path):
        name = str(rec["name"]).lower()
        quality = printing_rank(rec)
        if name not in kept or quality > kept[name][0]:
            kept[name] = quality, rec
    out: dict[str, dict[str, Any]] = {}
    rank: dict[str, int] = {}
    for _, rec in kept.values():
        for key, face, r in _keys(rec):
            if key in rank and rank[key] <= r:
                continue
            rank[key] = r
            out[key] = rec if face <= 0 else {**face_record(rec, face), _WHERE: rec.get(_WHERE, "")}
    return out


def face_record(record: dict[str, Any], face: int) -> dict[str, Any]:
    """The record of face ``face`` (1 or more) of a multi-face record, as a card of its own: the
    card's layout, and for a transforming back face the front face's mana cost (CR 712.8e)."""
    sub = dict(record["faces"][face])
    sub["layout"] = record.get("layout", "normal")
    if sub["layout"] == "transform":
        sub["front_mana_cost"] = record["faces"][0].get("mana_cost", "")
    return sub


def _keys(record: dict[str, Any]) -> list[tuple[str, int, int]]:
    """``(key, face, rank)`` of a record, as :func:`~manasolver.models.card_import.lookup_keys`."""
    keys = [(str(record["name"]).lower(), -1, 0)]
    faces = record.get("faces")
    if isinstance(faces, list):
        for i, face in enumerate(faces):
            if isinstance(face, dict) and face.get("name"):
                keys.append((str(face["name"]).lower(), i, 1 if i == 0 else 2))
    return keys


# ---------------------------------------------------------------------------------------------
# the database


class _Store:
    """One card database file (the bundled one, or one ``cards import`` wrote), opened on first use."""

    def __init__(self, path: str, bundled: bool) -> None:
        self.path = path
        self.bundled = bundled
        self._con: sqlite3.Connection | None = None
        self._zdict = b""
        self._zdict_id = b""

    def con(self) -> sqlite3.Connection:
        if self._con is None:
            if not os.path.exists(self.path):
                if self.bundled:
                    raise BadState(f"the bundled card database is missing: {self.path} "
                                   f"(run python scripts/build_carddb.py)", "cards")
                raise BadState(f"card database {self.path} does not exist", "cards")
            # the bundled file never changes while it is read: immutable spares the locking
            mode = "ro&immutable=1" if self.bundled else "ro"
            try:
                uri = self.path.replace("%", "%25").replace("?", "%3f").replace("#", "%23")
                con = sqlite3.connect(f"file:{uri}?mode={mode}", uri=True, check_same_thread=False)
                row = con.execute("SELECT value FROM meta WHERE key = 'zdict'").fetchone()
                con.execute("SELECT key, id, face FROM lookup LIMIT 1").fetchall()
            except sqlite3.Error as exc:
                raise BadState(f"{self.path} is not a card database (make one with manasolver cards "
                               f"import FILE): {exc}", "cards") from None
            self._zdict = bytes(row[0]) if row else b""
            self._zdict_id = zlib.adler32(self._zdict).to_bytes(4, "big")
            self._con = con
        return self._con

    def find(self, key: str) -> tuple[dict[str, Any], int] | None:
        """The record of a lookup key and the face it names (-1 or 0 for the whole record)."""
        row = self.con().execute(
            "SELECT card.data, lookup.face FROM lookup JOIN card ON card.id = lookup.id WHERE lookup.key = ?",
            (key,)).fetchone()
        if row is None:
            return None
        return json.loads(self._inflate(bytes(row[0])).decode("utf-8")), int(row[1])

    def _inflate(self, blob: bytes) -> bytes:
        """A record's JSON from its stored zlib stream (RFC 1950) compressed with the database's
        dictionary.

        The stream is checked as zlib checks it (the header, the dictionary's id, the adler32 of
        the data at the end) but inflated raw: zlib would compute the adler32 of the 32 KiB
        dictionary for every record to compare it with the id, most of the time a lookup took;
        here that id is computed once, when the database is opened.  A bad stream raises
        :class:`zlib.error`, as zlib does.
        """
        cmf_flg = blob[:2]
        if len(blob) < 10 or cmf_flg[0] & 0x0F != 8 or int.from_bytes(cmf_flg, "big") % 31:
            raise zlib.error("incorrect header check")
        if not cmf_flg[1] & 0x20 or blob[2:6] != self._zdict_id:
            raise zlib.error("the record was not compressed with the database's dictionary")
        unpacker = zlib.decompressobj(-15, zdict=self._zdict)
        data = unpacker.decompress(blob[6:])
        if not unpacker.eof or unpacker.unused_data != zlib.adler32(data).to_bytes(4, "big"):
            raise zlib.error("incorrect data check")
        return data

    def close(self) -> None:
        if self._con is not None:
            self._con.close()
            self._con = None


class CardDB:
    """Card lookup over the bundled SQLite data, under a user's cards: an imported database
    (``user``, a path) and/or records read from a card file (``overlay``)."""

    def __init__(self, path: str | os.PathLike[str] | None = None,
                 overlay: dict[str, dict[str, Any]] | None = None,
                 user: str | os.PathLike[str] | None = None) -> None:
        self.path = os.fspath(path) if path is not None else DB_PATH
        self.overlay = overlay or {}
        self._bundled_store = _Store(self.path, bundled=True)
        self._stores = ([_Store(os.fspath(user), bundled=False)] if user is not None else []) + [self._bundled_store]
        self._cache: dict[str, Card] = {}
        self._names: list[str] | None = None
        self._index: dict[str, frozenset[str]] | None = None
        self._display: dict[str, str] | None = None

    @property
    def user_path(self) -> Path | None:
        """The imported database under the bundled one, if any."""
        from pathlib import Path

        return Path(self._stores[0].path) if len(self._stores) > 1 else None

    def check(self) -> None:
        """Open every database now (a bad ``user`` file fails here, not at the first lookup)."""
        for store in self._stores:
            store.con()

    # -- storage ------------------------------------------------------------------------
    def _db(self) -> sqlite3.Connection:
        """The bundled database's connection."""
        return self._bundled_store.con()

    def _found(self, key: str) -> tuple[dict[str, Any], str] | None:
        """The record a lookup key resolves to, and its position in the user's file ("" if none)."""
        if key in self.overlay:
            rec = self.overlay[key]
            return {k: v for k, v in rec.items() if k != _WHERE}, str(rec.get(_WHERE, ""))
        if not key.isascii():
            try:
                key.encode("utf-8")
            except UnicodeEncodeError:
                return None  # a lone surrogate: no card is named so
        for store in self._stores:
            got = store.find(key)
            if got is not None:
                rec, face = got
                origin = str(rec.pop(_WHERE, ""))
                return (face_record(rec, face) if face > 0 else rec), origin
        return None

    # -- lookups ------------------------------------------------------------------------
    def record(self, name: str) -> dict[str, Any] | None:
        """The raw record a name resolves to (a face's own record for a back face), or None."""
        if not isinstance(name, str):
            return None
        key = name.strip().lower()
        tok = token_record(key)
        if tok is not None:
            return tok
        got = self._found(key)
        return None if got is None else got[0]

    def get(self, name: str, where: str = "") -> Card:
        """The card named ``name`` (exact, case-insensitive; see the module docstring)."""
        card = self.lookup(name, where)
        if card is None:
            raise unknown_cards_error([(name, where)], self)
        return card

    def lookup(self, name: str, where: str = "") -> Card | None:
        """The card named ``name``, or None when no card data knows it (no error worded: a caller
        gathering every unknown name words one, :func:`unknown_cards_error`)."""
        if not isinstance(name, str):
            raise BadState(f"a card name must be a string, not {type(name).__name__}", where)
        key = name.strip().lower()
        if key in self._cache:
            return self._cache[key]
        tok = token_record(key)
        found = (tok, "") if tok is not None else self._found(key)
        rec, origin = found if found is not None else (None, "")
        if rec is None:
            return None
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
            names = {r[0] for store in self._stores for r in store.con().execute("SELECT name FROM card")}
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
        close = difflib.get_close_matches(query, pool, n=n, cutoff=NEAR)
        if len(close) < n and len(query) >= 4:  # then names holding the query's words, starting ones first
            whole = re.compile(rf"(?:^|[\s,(-]){re.escape(query)}(?:$|[\s,)'])")
            contain = sorted((k for k in pool if k not in close and whole.search(k)),
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
        return difflib.get_close_matches(query, [k for _, k in scored], n=10, cutoff=NEAR)

    def _display_names(self) -> dict[str, str]:
        """Every lookup key (bundled, overlay, tokens) with the name to show."""
        if self._display is None:
            display: dict[str, str] = {}
            for store in reversed(self._stores):  # the user's names over the bundled ones
                display.update((k, v) for k, v in store.con().execute("SELECT key, name FROM lookup"))
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
        """Close the database connections."""
        for store in self._stores:
            store.close()


_STOP_WORDS = frozenset({"the", "of", "and", "for", "from", "with", "into", "to"})

#: How alike a name must be to be suggested for an unknown one: :mod:`difflib`'s ratio (twice the
#: matching characters over both lengths, lower case).  A misspelling ("Llanowar Elfs", 0.89; "Sol
#: Rnig", 0.88) passes; another card that merely shares a word ("Cast Down" for "Cut Dawn Raider")
#: does not.  Names that hold the query as whole words ("Nykthos") are suggested too.
NEAR = 0.8
#: Unknown cards named one by one in an error; the rest are counted.
_SHOWN = 20


def unknown_cards_error(missing: Sequence[tuple[str, str]], db: CardDB | None = None) -> UnknownCard:
    """One error for every card name that ``db`` (default: :func:`default_db`) doesn't know, given
    as ``(name, where)`` pairs in the order they were read (``where``: the board path, such as
    ``battlefield[2].card``, or a deck file's ``FILE:LINE``).

    The message names each distinct unknown name once (at its first place, with how many more), with
    near names only when they are near (:data:`NEAR`), then says which set and date the bundled card
    data reaches and how to bring newer cards.  ``where`` of the error is the first place;
    ``suggestions`` the near names of every unknown card, in order, without repeats."""
    db = db if db is not None else default_db()
    first: dict[str, tuple[str, str, int]] = {}
    for name, where in missing:
        key = str(name).strip().lower()
        if key in first:
            shown, at, more = first[key]
            first[key] = (shown, at, more + 1)
        else:
            first[key] = (str(name), where, 0)
    parts: list[str] = []
    suggestions: list[str] = []
    for i, (shown, at, more) in enumerate(first.values()):
        near = db.suggest(shown) if i < _SHOWN else ()
        suggestions.extend(s for s in near if s not in suggestions)
        if i >= _SHOWN:
            continue
        place = [at] if at else []
        if more:
            place.append(f"and {more} more place{'s' if more > 1 else ''}")
        if near:
            place.append(f"did you mean {', '.join(near)}?")
        parts.append(f"{shown!r}" + (f" ({'; '.join(place)})" if place else ""))
    if len(first) > _SHOWN:
        parts.append(f"and {len(first) - _SHOWN} more")
    head = "unknown card" if len(first) == 1 else f"{len(first)} unknown cards"
    info = data_info()
    reach = (f"the bundled card data reaches {info['newest_set']} ({info['newest_set_date']})"
             if info.get("newest_set") else "the bundled card data may be older than these cards")
    message = (f"{head}: {', '.join(parts)}. {reach[:1].upper()}{reach[1:]}; for newer cards run "
               f"'manasolver cards update', or give a card file with --cards FILE")
    where = missing[0][1] if missing else ""
    return UnknownCard(message, where, tuple(suggestions))


def data_info(path: str | None = None) -> dict[str, str]:
    """What a card database holds, read from its ``meta`` table without loading a card: ``cards``
    (the count), ``source``, ``version``, ``newest_set``, ``newest_set_date``, ``wheel`` and
    ``wheel_sha256`` for the bundled data (``scripts/build_carddb.py``), ``source`` and ``kind``
    for one ``manasolver cards import`` wrote.  Default: the bundled database; {} when it can't
    be read."""
    target = path if path is not None else DB_PATH
    out: dict[str, str] = {}
    try:
        uri = target.replace("%", "%25").replace("?", "%3f").replace("#", "%23")
        con = sqlite3.connect(f"file:{uri}?mode=ro", uri=True)
        try:
            rows = con.execute("SELECT key, value FROM meta WHERE key != 'zdict'").fetchall()
            if not any(str(k) == "data_cards" for k, _ in rows):
                out["cards"] = str(con.execute("SELECT count(*) FROM card").fetchone()[0])
        finally:
            con.close()
    except sqlite3.Error:
        return {}
    for key, value in rows:
        text = bytes(value).decode("utf-8", "replace") if isinstance(value, bytes) else str(value)
        out[str(key).removeprefix("data_")] = text
    return out


def data_summary(info: dict[str, str]) -> str:
    """One line saying what :func:`data_info` found: the cards, the newest set and its date, the source."""
    if not info:
        return "card data: unreadable"
    count = info.get("cards", "?")
    cards = f"{int(count):,} cards" if count.isdigit() else f"{count} cards"
    newest = (f", newest set {info['newest_set']} ({info['newest_set_date']})"
              if info.get("newest_set") else "")
    source = f"; source: {info['source']}" if info.get("source") else ""
    return f"card data: {cards}{newest}{source}"


def _trigrams(text: str) -> set[str]:
    padded = f"  {text} "
    return {padded[i:i + 3] for i in range(len(padded) - 2)}


def is_sqlite(path: str | os.PathLike[str]) -> bool:
    """Whether ``path`` is an SQLite database file (by the first bytes SQLite writes)."""
    try:
        with open(path, "rb") as fh:
            return fh.read(16) == b"SQLite format 3\x00"
    except (OSError, ValueError):
        return False


@lru_cache(maxsize=8)
def _db_for(cards_file: str | None) -> CardDB:
    if not cards_file:
        return CardDB()
    if is_sqlite(cards_file):
        db = CardDB(user=cards_file)
        db.check()
        return db
    from manasolver.models.card_import import imported_db_for

    imported = imported_db_for(cards_file)
    if imported is not None:
        return CardDB(user=imported)
    return CardDB(overlay=load_card_file(cards_file))


def default_db(cards_file: str | None = None) -> CardDB:
    """The shared database: the bundled data under the user's cards of ``cards_file`` or, when
    that is None, of the file named in ``MANASOLVER_CARDS`` (if set): a database made by
    ``manasolver cards import``, or a card file (see the module docstring); ``""``: the bundled
    data alone.  Cached per file."""
    if cards_file is None:
        cards_file = os.environ.get(ENV_VAR) or None
    return _db_for(str(cards_file) if cards_file else None)
