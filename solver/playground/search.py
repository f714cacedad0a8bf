"""Card names completed as a person types them: the playground's search endpoint (SPEC §11).

A search is a prefix and substring match over every name the card database knows (bundled,
the server's ``--cards`` file, the predefined tokens, and the faces of multi-face cards, which
a board may name as well: "Bonecrusher Giant" of "Bonecrusher Giant // Stomp"), folded the same way on both sides
(case, accents, ``Æ`` as ``ae``) so ``lim-dul`` finds "Lim-Dûl's Vault".  Names that start
with the query come first, then names with a word that starts with it, then names that contain
it, each group by length and then alphabetically.  The names are folded once per database
(about 30,000 names: tens of milliseconds, the first search only); a search is then one pass
over them, bounded by :data:`MAX_LIMIT` results and :data:`MAX_QUERY` characters of query.
"""

from __future__ import annotations

import heapq
import threading
import unicodedata
from typing import Any

from manasolver.models.carddb import CardDB
from manasolver.models.errors import BadQuery

__all__ = ["DEFAULT_LIMIT", "MAX_LIMIT", "MAX_QUERY", "fold", "search"]

DEFAULT_LIMIT = 20  #: names answered when the request gives no limit
MAX_LIMIT = 50  #: the most names one search answers (a larger limit is capped)
MAX_QUERY = 200  #: the longest query accepted, in characters (no card name is half as long)

_SPECIAL = str.maketrans({"æ": "ae", "Æ": "ae", "ø": "o", "ß": "ss", "’": "'", "‘": "'"})
_lock = threading.Lock()
_folded: dict[int, tuple[CardDB, list[tuple[str, str]]]] = {}


def fold(text: str) -> str:
    """``text`` as names are compared: lower case, accents dropped, ``æ`` as ``ae``."""
    text = text.translate(_SPECIAL).casefold()
    if text.isascii():
        return text
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def _names(db: CardDB) -> list[tuple[str, str]]:
    """(folded, shown) for every name of ``db``, kept per database."""
    kept = _folded.get(id(db))
    if kept is not None and kept[0] is db:
        return kept[1]
    with _lock:
        kept = _folded.get(id(db))
        if kept is None or kept[0] is not db:
            names = dict.fromkeys(db.names())
            for name in list(names):
                for face in name.split(" // ")[:2] if " // " in name else ():
                    names.setdefault(face, None)  # a face names its card on a board too
            kept = (db, [(fold(name), name) for name in names])
            _folded[id(db)] = kept
    return kept[1]


def search(db: CardDB, query: str, limit: int = DEFAULT_LIMIT) -> dict[str, Any]:
    """``{"query", "cards": [{"name", "mana_cost", "type_line"}], "more"}``: up to ``limit``
    (at most :data:`MAX_LIMIT`) names matching ``query``; ``more`` when others match too.
    A query longer than :data:`MAX_QUERY` is a :class:`BadQuery` at ``q``, a limit below 1
    one at ``limit``; an empty query matches nothing."""
    if len(query) > MAX_QUERY:
        raise BadQuery(f"the search is {len(query)} characters long; at most {MAX_QUERY}", "q")
    if limit < 1:
        raise BadQuery(f"limit must be at least 1, not {limit}", "limit")
    limit = min(limit, MAX_LIMIT)
    key = fold(query.strip())
    if not key:
        return {"query": query, "cards": [], "more": False}
    ranked: list[tuple[int, int, str]] = []
    for folded, shown in _names(db):
        at = folded.find(key)
        if at < 0:
            continue
        group = 0 if at == 0 else 1 if not folded[at - 1].isalnum() or folded.find(" " + key) >= 0 else 2
        ranked.append((group, len(folded), shown))
    best = [name for _, _, name in heapq.nsmallest(limit, ranked)]
    return {"query": query, "cards": [_entry(db, name) for name in best],
            "more": len(ranked) > limit}


def _entry(db: CardDB, name: str) -> dict[str, Any]:
    record = db.record(name) or {}
    faces = record.get("faces")
    front = faces[0] if isinstance(faces, list) and faces and isinstance(faces[0], dict) else {}
    mana_cost = record.get("mana_cost") or front.get("mana_cost") or ""
    type_line = record.get("type_line") or front.get("type_line") or ""
    return {"name": name, "mana_cost": str(mana_cost), "type_line": str(type_line)}
