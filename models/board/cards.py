"""Cards on a board: names resolved in the card database and inline characteristics.

:class:`CardResolver` turns a board's card fields into :class:`~manasolver.models.card.Card`
values, once per distinct input: a name (exact, case-insensitive) through the card database,
inline characteristics through the card builder, and a name with characteristics as the
database's record with the given fields laid over it (colors follow new characteristics).
Names already resolved are kept per database (:data:`CACHE_SIZE` at most), so a stream of boards
resolves each name once.
"""

from __future__ import annotations

import json
import weakref
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from manasolver.models.board.schema import CHARACTERISTICS, LIMITS, as_list, as_str, clip, join_path, type_name
from manasolver.models.board.status import is_token_card
from manasolver.models.card import Card
from manasolver.models.cost import ManaCost
from manasolver.models.errors import BadCost, BadState, ManasolverError

if TYPE_CHECKING:  # carddb is imported lazily: only boards that name cards need it
    from manasolver.models.carddb import CardDB

__all__ = ["CACHE_SIZE", "CardResolver", "record_of"]

#: Per card database, the cards already resolved by the exact name string a board used, each beside
#: whether it is a token card (:func:`~manasolver.models.board.status.is_token_card`, what a
#: permanent of it is unless its board says), so that a stream of boards (``batch``) resolves each
#: name once; bounded against hostile variety.
_NAME_CACHE: weakref.WeakKeyDictionary[CardDB, dict[str, tuple[Card, bool]]] = weakref.WeakKeyDictionary()
CACHE_SIZE = 50_000


_SPLIT_LAYOUTS = ("split", "aftermath")


class CardResolver:
    """Resolves card names and inline characteristics, once per distinct input.  Slotted: every
    board loaded makes one, and reads its fields for every name."""

    __slots__ = ("_cache", "_db", "_text", "entries", "known")

    def __init__(self, db: CardDB | None) -> None:
        self._db = db
        self._cache: dict[object, Card] = {}
        self._text = 0          # characters of oracle text parsed for this board
        self.entries = 0        # cards in hands and graveyards, all players together
        #: The cards of names read before, by the name as given, each beside whether it is a token
        #: card (empty until the database is read).
        self.known: dict[str, tuple[Card, bool]] = ({} if db is None else _NAME_CACHE.get(db)
                                                    or _NAME_CACHE.setdefault(db, {}))

    @property
    def db(self) -> CardDB:
        if self._db is None:
            from manasolver.models.carddb import default_db
            self._db = default_db()
            self.known = _NAME_CACHE.setdefault(self._db, {})
        return self._db

    def named(self, name: object, where: str) -> Card:
        """The database card ``name`` (exact, case-insensitive); UnknownCard suggests others."""
        if type(name) is str:
            hit = self.known.get(name)
            if hit is None and self._db is None:
                self.db  # the database's own name cache replaces this board's empty one
                hit = self.known.get(name)
            if hit is not None:
                return hit[0]
        text = as_str(name, where, "a card name", LIMITS["name"])
        key = ("name", text.strip().lower())
        card = self._cache.get(key)
        if card is None:
            try:
                card = self.db.get(text.strip(), where=where)
            except ManasolverError as err:
                raise err if err.where else err.at(where) from None
            self._cache[key] = card
        if len(self.known) >= CACHE_SIZE:
            self.known.clear()
        self.known[text] = (card, is_token_card(card))
        return card

    def entry(self, obj: Mapping[str, Any], where: str) -> Card:
        """A card from the card fields of ``obj``: ``card`` and/or characteristics.

        Given characteristics override the database's.
        """
        given = {k: obj[k] for k in CHARACTERISTICS if k in obj}
        if "card" in obj:
            base = self.named(obj["card"], join_path(where, "card"))
            if not given:
                return base
            record = self._base_record(base, obj["card"])
            if "colors" not in given and given.keys() & {"mana_cost", "oracle_text", "type_line"}:
                # the colors follow the new characteristics (and any color indicator)
                record.pop("colors", None)
        else:
            if not given:
                raise BadState("a card needs \"card\" (a name in the card database) or its "
                               "characteristics (name, type_line, mana_cost, oracle_text)", where)
            if "name" not in given:
                raise BadState("inline characteristics need a \"name\"", join_path(where, "name"))
            if "type_line" not in given:
                raise BadState(f"inline card {clip(str(given['name']))!r} needs a \"type_line\" "
                               "(or write \"card\" to look it up in the card database)",
                               join_path(where, "type_line"))
            record = {"oracle_text": "", "mana_cost": ""}
        record.update(self._checked(given, where))
        key = ("record", json.dumps(record, sort_keys=True, default=str))
        card = self._cache.get(key)
        if card is None:
            self._text += len(record.get("oracle_text") or "")
            if self._text > LIMITS["inline_text"]:
                raise BadState(f"the board's inline cards have more than {LIMITS['inline_text']} "
                               "characters of distinct oracle_text in all", where)
            from manasolver.models.card_build import card_from_record
            try:
                card = card_from_record(record, where=where)
            except ManasolverError as err:
                raise err if err.where else err.at(where) from None
            self._cache[key] = card
        return card

    def _base_record(self, base: Card, name: str) -> dict[str, Any]:
        """The database record under ``base``, as one face, to lay given characteristics over."""
        raw = None
        lookup = getattr(self.db, "record", None)
        if callable(lookup):
            raw = lookup(name)
        if not isinstance(raw, dict) or raw.get("layout") in _SPLIT_LAYOUTS:
            return record_of(base)       # a split card: both halves' characteristics at once
        record = dict(raw)
        faces = record.pop("faces", None)
        if isinstance(faces, list) and faces and isinstance(faces[0], dict):
            record = {**faces[0], "layout": record.get("layout", "normal")}
        return record

    @staticmethod
    def _checked(given: Mapping[str, Any], where: str) -> dict[str, Any]:
        out: dict[str, Any] = {}
        if "name" in given:
            out["name"] = as_str(given["name"], join_path(where, "name"), "name", LIMITS["name"]).strip()
        if "type_line" in given:
            out["type_line"] = as_str(given["type_line"], join_path(where, "type_line"), "type_line",
                                    LIMITS["type_line"])
        if "oracle_text" in given:
            path = join_path(where, "oracle_text")
            text = as_str(given["oracle_text"], path, "oracle_text", LIMITS["oracle_text"], empty=True)
            depth = _paren_depth(text)
            if depth > LIMITS["paren_depth"]:
                raise BadState(f"oracle_text nests parentheses {depth} deep; at most "
                               f"{LIMITS['paren_depth']} are accepted (real cards nest 2)", path)
            out["oracle_text"] = text
        if "mana_cost" in given:
            path = join_path(where, "mana_cost")
            text = given["mana_cost"]
            if text is None:
                text = ""
            if not isinstance(text, str):
                raise BadCost(f"mana_cost must be a string of mana symbols such as \"{{2}}{{W}}\", "
                              f"not {type_name(text)}", path)
            if len(text) > LIMITS["mana_cost"]:
                raise BadCost(f"mana_cost is {len(text)} characters long; at most "
                              f"{LIMITS['mana_cost']} are accepted", path)
            cost = ManaCost.parse(text, where=path, allow_empty=True)
            for sym in cost.symbols:
                if sym.special in ("T", "Q", "E"):
                    raise BadCost(f"{sym.text} cannot appear in a mana cost", path)
            out["mana_cost"] = cost.format()
        if "colors" in given:
            out["colors"] = _colors(given["colors"], join_path(where, "colors"))
        return out


def _paren_depth(text: str) -> int:
    """The deepest nesting of parentheses (reminder text), in one linear pass."""
    if "(" not in text:
        return 0
    depth = deepest = 0
    for ch in text:
        if ch == "(":
            depth += 1
            deepest = max(deepest, depth)
        elif ch == ")" and depth:
            depth -= 1
    return deepest


def _colors(value: object, where: str) -> list[str]:
    """A color list (``["W", "U"]``, or ``"WU"``) in WUBRG order."""
    letters = value if isinstance(value, str) else None
    if letters is None:
        items = as_list(value, where, "colors", 5)
        for i, item in enumerate(items):
            if not isinstance(item, str) or len(item) != 1:
                raise BadState(f"a color is one of the letters W, U, B, R, G, not {item!r}",
                               f"{where}[{i}]")
        letters = "".join(items)
    out = set()
    for i, ch in enumerate(letters.upper()):
        if ch not in "WUBRG":
            raise BadState(f"unknown color {ch!r}: the colors are W, U, B, R, G "
                           "(colorless is no color: write [])", f"{where}[{i}]")
        out.add(ch)
    return [c for c in "WUBRG" if c in out]


def record_of(card: Card) -> dict[str, Any]:
    """The characteristics of a card as an inline record (the fields a board may give)."""
    record: dict[str, Any] = {
        "name": card.name,
        "type_line": card.type_line.text,
        "mana_cost": card.mana_cost.format() if card.mana_cost is not None else "",
        "oracle_text": card.oracle_text,
        "colors": card.color_letters,
    }
    return record
