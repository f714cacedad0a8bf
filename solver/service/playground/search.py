"""Card names completed as a person types them: the playground's search endpoint.

A search matches the query against every name the card database knows (bundled, the server's
``--cards`` file, the predefined tokens, and the faces of multi-face cards, which a board may
name as well: "Bonecrusher Giant" of "Bonecrusher Giant // Stomp"), folded the same way on both
sides (case, accents, ``Æ`` as ``ae``) so ``lim-dul`` finds "Lim-Dûl's Vault".

The answer ranks what a player most likely means:

1. the name that is the query itself;
2. names with a word that starts with the query ("llanowar": Llanowar Elves; "bolt": Lightning
   Bolt), the cards printed in the most sets first (a card printed again and again is the one a
   player knows: ``printings.tsv.gz``, written by ``scripts/build_carddb.py`` from the card
   data; a predefined token counts as :data:`TOKEN_PRINTINGS`), then names that start with the
   query, then the shorter;
3. names that hold the query inside a word ("bolt": Firebolt), ranked the same way;
4. only when nothing holds the query, the names that are the query misspelt ("swmp": Swamp;
   :data:`CLOSE`), in the order of the card database's own suggestions for a misspelt name.

``zone`` says where the card goes, so that only what can be there is offered: ``battlefield``
takes permanent cards (an artifact, creature, enchantment, land, planeswalker or battle on some
face, CR 110.4) and the predefined tokens; ``command`` permanent cards but tokens; ``hand`` and
``graveyard`` cards of a deck (no token, and none of the cards played from outside the game:
planes, phenomena, schemes, vanguards, conspiracies, dungeons).  No zone offers every name.

The names are folded once per database (about 30,000 names: tens of milliseconds, the first
search only) and a card's kind is read when it is first ranked; a search is then one pass over
the names, bounded by :data:`MAX_LIMIT` results and :data:`MAX_QUERY` characters of query.
"""

from __future__ import annotations

import gzip
import re
import threading
import unicodedata
from importlib.resources import files
from typing import Any, NamedTuple

from manasolver.models.carddb import CardDB
from manasolver.models.errors import BadQuery
from manasolver.models.tokens import TOKEN_NAMES

__all__ = ["DEFAULT_LIMIT", "MAX_LIMIT", "MAX_QUERY", "ZONES", "fold", "search"]

DEFAULT_LIMIT = 20  #: names answered when the request gives no limit
MAX_LIMIT = 50  #: the most names one search answers (a larger limit is capped)
MAX_QUERY = 200  #: the longest query accepted, in characters (no card name is half as long)
ZONES = ("battlefield", "command", "hand", "graveyard")  #: the zones a search can be for

#: The card types of a permanent (CR 110.4).
PERMANENT_TYPES = frozenset({"artifact", "creature", "enchantment", "land", "planeswalker", "battle"})
#: The card types of the cards that stay outside the game until played from there: dungeons,
#: planes, phenomena, vanguards, schemes, conspiracies (CR 309, 311-315).
OUTSIDE_TYPES = frozenset({"plane", "phenomenon", "scheme", "vanguard", "conspiracy", "dungeon"})

#: What a predefined token (Treasure, Food, Clue, ...) counts as printings: cards of hundreds of
#: sets make them, so on a battlefield one ranks with the most printed cards.
TOKEN_PRINTINGS = 50
#: How alike a misspelt query and a name must be (difflib's ratio) for the name to be offered.
CLOSE = 0.75

_SPECIAL = str.maketrans({"æ": "ae", "Æ": "ae", "ø": "o", "ß": "ss", "’": "'", "‘": "'"})
_lock = threading.Lock()


class _Name(NamedTuple):
    folded: str
    shown: str
    printings: int


class _Kind(NamedTuple):
    permanent: bool  #: a permanent card or token on some face
    token: bool
    outside: bool  #: played from outside the game (a plane, a scheme, ...)


_folded: dict[int, tuple[CardDB, list[_Name]]] = {}
_kinds: dict[int, tuple[CardDB, dict[str, _Kind]]] = {}
_printings: dict[str, int] = {}


def fold(text: str) -> str:
    """``text`` as names are compared: lower case, accents dropped, ``æ`` as ``ae``."""
    text = text.translate(_SPECIAL).casefold()
    if text.isascii():
        return text
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def _printings_of() -> dict[str, int]:
    """How many sets printed each card (``printings.tsv.gz``); a card not listed counts one."""
    if not _printings:
        data = files("manasolver.solver.service.playground").joinpath("printings.tsv.gz").read_bytes()
        for line in gzip.decompress(data).decode("utf-8").splitlines():
            count, _, name = line.partition("\t")
            _printings[name] = int(count)
    return _printings


def _names(db: CardDB) -> list[_Name]:
    """Every name of ``db`` folded, with its card's printings, kept per database."""
    kept = _folded.get(id(db))
    if kept is not None and kept[0] is db:
        return kept[1]
    with _lock:
        kept = _folded.get(id(db))
        if kept is None or kept[0] is not db:
            printings = _printings_of()
            names = {name: printings.get(name, 1) for name in db.names()}
            names.update((name, TOKEN_PRINTINGS) for name in TOKEN_NAMES if name in names)
            for name, count in list(names.items()):
                for face in name.split(" // ")[:2] if " // " in name else ():
                    names.setdefault(face, count)  # a face names its card on a board too
            kept = (db, [_Name(fold(name), name, count) for name, count in names.items()])
            _folded[id(db)] = kept
    return kept[1]


def _type_words(record: dict[str, Any]) -> set[str]:
    """The card types and supertypes of every face of ``record`` (the words before each dash)."""
    lines = [str(record.get("type_line") or "")]
    faces = record.get("faces")
    if isinstance(faces, list):
        lines += [str(face.get("type_line") or "") for face in faces if isinstance(face, dict)]
    words: set[str] = set()
    for line in lines:
        for face_line in line.split("//"):
            words.update(re.findall(r"[a-z]+", face_line.partition("—")[0].lower()))
    return words


def _kind(db: CardDB, name: str) -> _Kind:
    """What ``name``'s card is, read once per database."""
    kept = _kinds.get(id(db))
    if kept is None or kept[0] is not db:
        kept = (db, {})
        _kinds[id(db)] = kept
    kinds = kept[1]
    kind = kinds.get(name)
    if kind is None:
        words = _type_words(db.record(name) or {})
        kind = _Kind(permanent=not words.isdisjoint(PERMANENT_TYPES), token="token" in words,
                     outside=not words.isdisjoint(OUTSIDE_TYPES))
        kinds[name] = kind
    return kind


def _fits(kind: _Kind, zone: str | None) -> bool:
    """Whether a card of ``kind`` can be named in ``zone`` (every card when there is no zone)."""
    if zone is None:
        return True
    if zone == "battlefield":
        return kind.permanent
    if zone == "command":
        return kind.permanent and not kind.token
    return not kind.token and not kind.outside


def search(db: CardDB, query: str, limit: int = DEFAULT_LIMIT, zone: str | None = None) -> dict[str, Any]:
    """``{"query", "cards": [{"name", "mana_cost", "type_line"}], "more"}``: up to ``limit``
    (at most :data:`MAX_LIMIT`) names matching ``query`` that can be in ``zone`` (one of
    :data:`ZONES`, or None for every name), best first; ``more`` when others match too.
    A query longer than :data:`MAX_QUERY` is a :class:`BadQuery` at ``q``, a limit below 1
    one at ``limit``, an unknown zone one at ``zone``; an empty query matches nothing."""
    if len(query) > MAX_QUERY:
        raise BadQuery(f"the search is {len(query)} characters long; at most {MAX_QUERY}", "q")
    if limit < 1:
        raise BadQuery(f"limit must be at least 1, not {limit}", "limit")
    if zone is not None and zone not in ZONES:
        raise BadQuery(f"zone must be one of {', '.join(ZONES)}, not {zone[:40]!r}", "zone")
    limit = min(limit, MAX_LIMIT)
    key = fold(query.strip())
    if not key:
        return {"query": query, "cards": [], "more": False}
    ranked = sorted(_ranked(db, key))
    best: list[str] = []
    more = False
    for *_, shown in ranked:
        if _fits(_kind(db, shown), zone):
            if len(best) == limit:
                more = True
                break
            best.append(shown)
    if not ranked:
        close = [name for name in db.suggest(query.strip(), n=MAX_LIMIT)
                 if _close(key, fold(name)) and _fits(_kind(db, name), zone)]
        best, more = close[:limit], len(close) > limit
    return {"query": query, "cards": [_entry(db, name) for name in best], "more": more}


def _close(key: str, folded: str) -> bool:
    """Whether a name is ``key`` misspelt (a letter left out, doubled, swapped or changed: three
    quarters of the letters agree) as a whole, or as far as ``key`` is typed."""
    from difflib import SequenceMatcher

    whole = SequenceMatcher(None, key, folded).ratio()
    return whole >= CLOSE or SequenceMatcher(None, key, folded[:len(key)]).ratio() >= CLOSE


def _ranked(db: CardDB, key: str) -> list[tuple[int, int, bool, int, str]]:
    """(tier, fewer printings first, not at the start, length, name) of every name holding ``key``."""
    out: list[tuple[int, int, bool, int, str]] = []
    for folded, shown, printings in _names(db):
        at = folded.find(key)
        if at < 0:
            continue
        if folded == key:
            tier = 0
        elif at == 0 or not folded[at - 1].isalnum() or folded.find(" " + key) >= 0:
            tier = 1
        else:
            tier = 2
        out.append((tier, -printings, at != 0, len(folded), shown))
    return out


def _entry(db: CardDB, name: str) -> dict[str, Any]:
    record = db.record(name) or {}
    faces = record.get("faces")
    front = faces[0] if isinstance(faces, list) and faces and isinstance(faces[0], dict) else {}
    mana_cost = record.get("mana_cost") or front.get("mana_cost") or ""
    type_line = record.get("type_line") or front.get("type_line") or ""
    return {"name": name, "mana_cost": str(mana_cost), "type_line": str(type_line)}
