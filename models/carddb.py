"""The card database: bundled card data, a user's newer card file, and building cards.

The bundled data is ``models/data/cards.sqlite`` (built by ``scripts/build_carddb.py``
from ``../shared/data/cards.jsonl.gz``); it is opened lazily with the stdlib
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
close names.
"""

from __future__ import annotations

import json
import os
import re
import sqlite3
import zlib
from collections.abc import Iterable
from dataclasses import replace
from functools import lru_cache
from pathlib import Path
from typing import Any

from manasolver.models.abilities import ManaAbility
from manasolver.models.card import BASIC_LAND_TYPES, CARD_TYPES, Card, TypeLine
from manasolver.models.cost import ManaCost
from manasolver.models.errors import BadState, ManasolverError, UnknownCard
from manasolver.models.symbols import ANY_COLOR, mask_from_letters, type_bit

__all__ = [
    "DB_PATH",
    "ENV_VAR",
    "CardDB",
    "card_from_record",
    "default_db",
    "intrinsic_abilities",
    "load_card_file",
    "scryfall_to_record",
]

DB_PATH = Path(__file__).resolve().parent / "data" / "cards.sqlite"
ENV_VAR = "MANASOLVER_CARDS"

#: Keywords the engine reads, found at the start of a keyword line.
_KEYWORDS = ("haste", "flash", "convoke", "delve", "improvise", "devoid", "affinity", "impending",
             "flying", "vigilance", "trample", "reach", "defender", "changeling", "indestructible",
             "lifelink", "deathtouch", "first strike", "double strike", "menace", "hexproof", "shroud")
#: The key under which a user file's records keep their position (file:line or file[index]).
_WHERE = "_where"
#: Scryfall layouts that are not cards.
_NOT_CARDS = {"token", "double_faced_token", "emblem", "art_series"}
#: Layouts whose halves share one face: the card has both halves' characteristics (CR 709.4).
_SPLIT = {"split", "aftermath"}


# ---------------------------------------------------------------------------------------------
# building a Card


def _str_field(record: dict[str, Any], key: str, where: str, required: bool = False) -> str:
    value = record.get(key)
    if value is None:
        if required:
            raise BadState(f"a card needs a {key!r}", f"{where}.{key}" if where else key)
        return ""
    if not isinstance(value, str):
        raise BadState(f"{key!r} must be a string, not {type(value).__name__}",
                       f"{where}.{key}" if where else key)
    return value


def _cost(text: str, where: str) -> ManaCost | None:
    """The mana cost, or None for a card without one (CR 202.1b)."""
    if not text.strip():
        return None
    return ManaCost.parse(text, where)


_KEYWORD_FIRST = frozenset(k.split()[0] for k in _KEYWORDS)
_FIRST_WORD = re.compile(r"[A-Za-z]+")


def _keywords(oracle: str) -> frozenset[str]:
    """Lower-case keywords read from keyword lines (``Flying, haste``), with
    "affinity for artifacts" kept whole and "Impending 4—{1}{G}{G}" as "impending"."""
    from manasolver.models.text.oracle import strip_reminder

    found: set[str] = set()
    for raw in oracle.split("\n"):
        first = _FIRST_WORD.match(raw)
        if not first or first.group(0).lower() not in _KEYWORD_FIRST:
            continue  # a keyword line starts with a keyword
        line = strip_reminder(raw).rstrip(".")
        for part in re.split(r"[,;] ", line):
            low = part.strip().lower()
            for kw in _KEYWORDS:
                if low == kw or low.startswith((kw + " ", kw + "—")):
                    if kw == "affinity":
                        m = re.match(r"affinity for [a-z' ]+", low)
                        if m:
                            found.add(m.group(0).strip())
                    elif low == kw or kw == "impending" and re.match(r"impending \d+—", low):
                        found.add(kw)
                    break
    return frozenset(found)


def _alternative_costs(oracle: str, where: str) -> tuple[tuple[str, ManaCost], ...]:
    """Alternative costs printed as keywords: "Impending N—{cost}" (CR 702.176)."""
    out: list[tuple[str, ManaCost]] = []
    for m in re.finditer(r"^Impending \d+—((?:\{[^}]+\})+)", oracle, re.MULTILINE):
        out.append(("impending", ManaCost.parse(m.group(1), f"{where}.oracle_text")))
    return tuple(out)


def _colors(record: dict[str, Any], cost: ManaCost | None, keywords: frozenset[str], oracle: str,
            name: str, where: str) -> int:
    """Colors by CR 202.2 / 204: the cost (hybrid halves included), the color
    indicator, devoid (colorless), "is all colors", "is colorless"; a given
    ``colors`` field overrides."""
    given = record.get("colors")
    if given is not None:
        return _color_mask(given, f"{where}.colors" if where else "colors")
    mask = cost.colors if cost is not None else 0
    indicator = record.get("color_indicator")
    if indicator is not None:
        mask |= _color_mask(indicator, f"{where}.color_indicator" if where else "color_indicator")
    if "devoid" in keywords:
        return 0
    if "colors" not in oracle and "colorless" not in oracle:
        return mask
    from manasolver.models.text.oracle import self_reference, strip_reminder

    text = self_reference(strip_reminder(oracle), name)
    if re.search(r"(?:^|\n|\. )~ is all colors", text):
        return ANY_COLOR
    if re.search(r"(?:^|\n|\. )~ is colorless", text):
        return 0
    return mask


def _color_mask(value: Any, where: str) -> int:
    letters = value if isinstance(value, (list, tuple)) else [value] if isinstance(value, str) else None
    if letters is None:
        raise BadState(f"colors must be a list of letters such as [\"W\", \"G\"], not {value!r}", where)
    mask = 0
    for i, letter in enumerate(letters):
        if not isinstance(letter, str):
            raise BadState(f"a color is a letter W, U, B, R or G, not {letter!r}", f"{where}[{i}]")
        for ch in letter.strip().upper():
            if ch not in "WUBRG":
                raise BadState(f"unknown color {letter!r}: use W, U, B, R or G", f"{where}[{i}]")
            mask |= type_bit(ch)
    return mask


def intrinsic_abilities(type_line: TypeLine) -> tuple[ManaAbility, ...]:
    """The intrinsic ``{T}: Add [symbol]`` of each basic land type (CR 305.6), in the order
    the type line prints them: Savannah, "Land — Forest Plains", has {G} then {W}, as its
    reminder text "({T}: Add {G} or {W}.)" reads (SPEC §5: abilities in printed order)."""
    from manasolver.models.abilities import AbilityCost, Production

    out: list[ManaAbility] = []
    for land_type in dict.fromkeys(type_line.subtypes):
        letter = BASIC_LAND_TYPES.get(land_type)
        if letter is not None:
            out.append(ManaAbility(cost=AbilityCost(tap=True),
                                   production=Production(options=((mask_from_letters(letter),),)),
                                   text=f"{{T}}: Add {{{letter}}}.", intrinsic=True))
    return tuple(out)


def _face(record: dict[str, Any], where: str, layout: str) -> Card:
    """One face (or a single-faced card) as a Card."""
    name = _str_field(record, "name", where, required=True)
    if not name.strip():
        raise BadState("a card's name can't be empty", f"{where}.name" if where else "name")
    type_text = _str_field(record, "type_line", where)
    oracle = _str_field(record, "oracle_text", where)
    cost = _cost(_str_field(record, "mana_cost", where), f"{where}.mana_cost" if where else "mana_cost")
    type_line = TypeLine.parse(type_text)
    keywords = _keywords(oracle)
    extra_kw = record.get("keywords")
    if isinstance(extra_kw, list):
        keywords |= frozenset(str(k).lower() for k in extra_kw if isinstance(k, str)
                              and str(k).lower() != "affinity")
    from manasolver.models.text.oracle import parse_oracle, reindex

    parsed = parse_oracle(oracle, type_line, name)
    abilities = reindex(intrinsic_abilities(type_line) + parsed.mana_abilities)
    power = record.get("power")
    toughness = record.get("toughness")
    return Card(
        name=name, mana_cost=cost, type_line=type_line,
        colors=_colors(record, cost, keywords, oracle, name, where),
        oracle_text=oracle, layout=layout,
        power=str(power) if power is not None else None,
        toughness=str(toughness) if toughness is not None else None,
        keywords=keywords, mana_abilities=abilities, unsupported=parsed.unsupported,
        alternative_costs=_alternative_costs(oracle, where),
        front_mana_cost=_front_cost(record, where),
    )


def _front_cost(record: dict[str, Any], where: str) -> ManaCost | None:
    """The front face's mana cost given to a transforming back face (CR 712.8e)."""
    text = record.get("front_mana_cost")
    if not isinstance(text, str) or not text:
        return None
    return _cost(text, f"{where}.front_mana_cost" if where else "front_mana_cost")


def card_from_record(record: dict[str, Any], where: str = "") -> Card:
    """Build a :class:`Card` from a card-data record or a board's inline characteristics.

    Inline characteristics are ``name``, ``type_line``, ``mana_cost``,
    ``oracle_text`` and optional ``colors``.  A multi-face record gives its front
    face (CR 712.8a, 715.4: an adventurer is its creature; a flip card its
    unflipped half) with ``faces`` holding every face; a split card (``split``,
    ``aftermath``) has both halves' characteristics at once (CR 709.4): its full
    name, the sum of the halves' mana costs (so mana value and colors combine,
    202.3d) and both halves' types.  Errors (a non-string field, a bad cost)
    name ``where``.
    """
    if not isinstance(record, dict):
        raise BadState(f"a card must be an object, not {type(record).__name__}", where)
    layout = record.get("layout") or "normal"
    if not isinstance(layout, str):
        raise BadState("'layout' must be a string", f"{where}.layout" if where else "layout")
    raw_faces = record.get("faces")
    if not raw_faces:
        return _face(record, where, layout)
    if not isinstance(raw_faces, list) or not all(isinstance(f, dict) for f in raw_faces):
        raise BadState("'faces' must be a list of objects", f"{where}.faces" if where else "faces")
    faces = tuple(_face(f, f"{where}.faces[{i}]" if where else f"faces[{i}]", layout)
                  for i, f in enumerate(raw_faces))
    front = faces[0]
    if layout in _SPLIT:
        cost: ManaCost | None = None
        for f in faces:
            if f.mana_cost is not None:
                cost = f.mana_cost if cost is None else cost + f.mana_cost
        types = tuple(t for t in CARD_TYPES if any(t in f.type_line.types for f in faces))
        type_line = TypeLine(_str_field(record, "type_line", where), front.type_line.supertypes, types,
                             tuple(dict.fromkeys(s for f in faces for s in f.type_line.subtypes)))
        colors = 0
        for f in faces:
            colors |= f.colors
        if record.get("colors") is not None:
            colors = _color_mask(record["colors"], f"{where}.colors" if where else "colors")
        abilities = reindex_all(faces)
        unsupported = tuple(u for f in faces for u in f.unsupported)
        return replace(front, name=_str_field(record, "name", where, required=True), mana_cost=cost,
                       type_line=type_line, colors=colors, mana_abilities=abilities,
                       unsupported=unsupported, faces=faces,
                       keywords=frozenset().union(*(f.keywords for f in faces)))
    return replace(front, faces=faces)


def reindex_all(faces: Iterable[Card]) -> tuple[ManaAbility, ...]:
    """The mana abilities of several faces, numbered in order."""
    from manasolver.models.text.oracle import reindex

    return reindex([a for f in faces for a in f.mana_abilities])


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
        if record["layout"] not in _SPLIT:
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
        _str_field(record, key, where)
    _str_field(record, "mana_cost", where)
    for key in ("colors", "color_indicator"):
        if record.get(key) is not None:
            _color_mask(record[key], f"{where}.{key}")


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
