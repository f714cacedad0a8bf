"""Decklists as players export them, read into a :class:`Deck` of card names and counts.

Accepted (SPEC §10): plain lines ``4 Lightning Bolt`` and ``4x Lightning Bolt``; Arena and MTGO exports
with set codes and collector numbers (``1 Forest (M21) 274``); the sections ``Deck``, ``Sideboard``,
``Commander``, ``Companion`` and ``Maybeboard`` (``About``/``Name`` lines of Arena exports are skipped);
``//`` and ``#`` comments; ``SB:`` prefixes; blank lines.  A file without any section header whose cards
come in two blocks separated by a blank line, the second of at most 15 cards, is an MTGO export: the
second block is its sideboard.  The same deck as JSON: ``{"cards": [{"name", "count"}], "commander":
[...]}``.  The sideboard, the companion and the maybeboard are not part of the deck.

Every refusal is a :class:`DeckError` naming the line (or the JSON path): a malformed line, a count of 0
or more than 9,999, an unknown card (with the card database's suggestions), fewer than 7 cards.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field

from manasolver.models.carddb import CardDB
from manasolver.models.card import Card
from manasolver.models.errors import BadQuery, ManasolverError, UnknownCard

__all__ = ["Deck", "DeckError", "MAX_COUNT", "load_deck", "parse_deck"]

#: The largest count one line may give.
MAX_COUNT = 9999
#: The largest deck accepted.
MAX_CARDS = 10000

_SECTIONS = {"deck": "deck", "main": "deck", "main deck": "deck", "maindeck": "deck", "mainboard": "deck",
             "sideboard": "side", "side": "side", "commander": "commander", "commanders": "commander",
             "companion": "companion", "maybeboard": "maybe", "considering": "maybe"}
_LINE = re.compile(r"^(?P<count>\d+)\s*[xX]?\s+(?P<name>.+?)"
                   r"(?:\s+\((?P<set>[A-Za-z0-9]{2,6})\)(?:\s+[A-Za-z0-9★\-]+)?)?"
                   r"(?:\s+\*[A-Z]+\*)*\s*$")


class DeckError(BadQuery):
    """A decklist the command refuses; ``where`` names the line (``line 3``) or the JSON path."""


@dataclass(frozen=True, slots=True)
class Deck:
    """The cards of a deck: ``cards`` the library (name, count, card) in list order, ``commander``
    the cards of the command zone; ``lines`` the source line of each entry of ``cards``."""

    cards: tuple[tuple[str, int, Card], ...]
    commander: tuple[Card, ...] = ()
    lines: tuple[int, ...] = field(default=(), compare=False)

    @property
    def size(self) -> int:
        return sum(n for _, n, _ in self.cards)

    @property
    def is_commander(self) -> bool:
        return bool(self.commander)


def _resolve(db: CardDB, name: str, where: str) -> Card:
    try:
        return db.get(name, where)
    except UnknownCard as err:
        raise DeckError(f"{where}: {err.message}", where) from None
    except ManasolverError as err:
        raise DeckError(f"{where}: {err.message}", where) from None


def _count(text: str, where: str) -> int:
    n = int(text)
    if n < 1:
        raise DeckError(f"{where}: a count of {n}; each line needs at least 1 copy", where)
    if n > MAX_COUNT:
        raise DeckError(f"{where}: a count of {n} is more than {MAX_COUNT:,}", where)
    return n


def _finish(entries: list[tuple[str, int, Card, int]], commander: list[Card]) -> Deck:
    merged: dict[str, list[object]] = {}
    for name, n, card, line in entries:
        if card.name in merged:
            merged[card.name][1] = int(str(merged[card.name][1])) + n
        else:
            merged[card.name] = [card.name, n, card, line]
    cards = tuple((str(v[0]), int(str(v[1])), v[2]) for v in merged.values())
    size = sum(n for _, n, _ in cards) + len(commander)
    if size < 7:
        raise DeckError(f"the deck has {size} card{'s' if size != 1 else ''}; at least 7 are needed "
                        "to draw an opening hand", "deck")
    if size > MAX_CARDS:
        raise DeckError(f"the deck has {size:,} cards; at most {MAX_CARDS:,} are accepted", "deck")
    return Deck(cards=cards, commander=tuple(commander),  # type: ignore[arg-type]
                lines=tuple(int(str(v[3])) for v in merged.values()))


def _parse_json(obj: object, db: CardDB) -> Deck:
    if not isinstance(obj, dict):
        raise DeckError("a JSON deck must be an object with \"cards\"", "deck")
    unknown = sorted(set(obj) - {"cards", "commander", "sideboard", "name"})
    if unknown:
        raise DeckError(f"unknown field {unknown[0]!r} in the JSON deck (known: cards, commander, "
                        "sideboard, name)", unknown[0])
    raw = obj.get("cards")
    if not isinstance(raw, list):
        raise DeckError('a JSON deck needs "cards": a list of {"name", "count"}', "cards")
    entries: list[tuple[str, int, Card, int]] = []
    for i, item in enumerate(raw):
        where = f"cards[{i}]"
        if isinstance(item, str):
            item = {"name": item, "count": 1}
        if not isinstance(item, dict) or not isinstance(item.get("name"), str):
            raise DeckError(f'{where}: each card is {{"name": NAME, "count": N}}', where)
        count = item.get("count", 1)
        if not isinstance(count, int) or isinstance(count, bool):
            raise DeckError(f"{where}.count: a count must be a whole number", f"{where}.count")
        n = _count(str(count), f"{where}.count") if count >= 0 else _count("0", f"{where}.count")
        entries.append((item["name"], n, _resolve(db, item["name"], f"{where}.name"), i + 1))
    commander: list[Card] = []
    raw_cmd = obj.get("commander", [])
    if isinstance(raw_cmd, str):
        raw_cmd = [raw_cmd]
    if not isinstance(raw_cmd, list):
        raise DeckError('"commander" is a list of card names', "commander")
    for i, item in enumerate(raw_cmd):
        name = item.get("name") if isinstance(item, dict) else item
        if not isinstance(name, str):
            raise DeckError(f"commander[{i}]: a card name", f"commander[{i}]")
        commander.append(_resolve(db, name, f"commander[{i}]"))
    return _finish(entries, commander)


def parse_deck(text: str, db: CardDB) -> Deck:
    """The deck a decklist's ``text`` names (plain, Arena, MTGO or JSON)."""
    stripped = text.strip()
    if stripped.startswith("{"):
        try:
            obj = json.loads(stripped)
        except json.JSONDecodeError as err:
            raise DeckError(f"line {err.lineno}: not valid JSON ({err.msg})", f"line {err.lineno}") from None
        return _parse_json(obj, db)
    lines = text.splitlines()
    has_headers = any(_SECTIONS.get(_header(line) or "") for line in lines)
    section = "deck"
    blocks = 0
    gap = True
    parsed: list[tuple[int, str, str]] = []  # (line number, section, raw card line)
    for number, raw in enumerate(lines, 1):
        line = raw.split("//", 1)[0] if "//" in raw and not re.search(r"\S\s*//\s*\S", raw) else raw
        line = re.sub(r"(^|\s)#.*$", "", line).strip()
        if line.startswith("//"):
            line = ""
        if not line:
            gap = True
            continue
        head = _header(line)
        if head is not None and head in _SECTIONS:
            section = _SECTIONS[head]
            continue
        if re.match(r"^(about|name)\b", line, re.IGNORECASE) and not line[0].isdigit():
            continue
        if line.upper().startswith("SB:"):
            parsed.append((number, "side", line[3:].strip()))
            continue
        if gap:
            blocks += 1
            gap = False
        parsed.append((number, section if has_headers else f"block{blocks}", line))
    if not has_headers:
        second = [p for p in parsed if p[1] == "block2"]
        mtgo = blocks == 2 and sum(_quick_count(p[2]) for p in second) <= 15
        parsed = [(n, "side" if (mtgo and s == "block2") else ("deck" if s.startswith("block") else s), t)
                  for n, s, t in parsed]
    entries: list[tuple[str, int, Card, int]] = []
    commander: list[Card] = []
    for number, sec, line in parsed:
        where = f"line {number}"
        m = _LINE.match(line)
        if m is None:
            raise DeckError(f"{where}: {line!r} is not a card line (expected a count and a name, "
                            "such as '4 Lightning Bolt' or '1 Forest (M21) 274')", where)
        n = _count(m.group("count"), where)
        if sec in ("side", "maybe", "companion"):
            continue
        name = m.group("name").strip()
        try:
            card = _resolve(db, name, where)
        except DeckError:
            if "//" not in name:
                raise
            # "4 Lightning Bolt // burn": a comment after the name, not a split card
            card = _resolve(db, name.split("//", 1)[0].strip(), where)
        if sec == "commander":
            commander.extend([card] * n)
        else:
            entries.append((card.name, n, card, number))
    return _finish(entries, commander)


def _header(line: str) -> str | None:
    text = line.strip().rstrip(":").strip().lower()
    return text if text in _SECTIONS else None


def _quick_count(line: str) -> int:
    m = re.match(r"^(\d+)", line)
    return int(m.group(1)) if m else 1


def load_deck(path: str, db: CardDB) -> Deck:
    """The deck in the file at ``path``."""
    try:
        with open(path, encoding="utf-8-sig") as fh:
            text = fh.read()
    except OSError as err:
        raise DeckError(f"can't read the deck file {path!r}: {err.strerror}", "deck") from None
    except UnicodeDecodeError:
        raise DeckError(f"the deck file {path!r} is not UTF-8 text", "deck") from None
    return parse_deck(text, db)
