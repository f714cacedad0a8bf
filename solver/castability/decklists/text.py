"""Plain text, Arena and MTGO text decklists.

Lines ``4 Lightning Bolt`` and ``4x Lightning Bolt``; set codes and collector numbers as Arena and
MTGO write them (``1 Forest (M21) 274``, ``*F*`` foil marks); the sections ``Deck``, ``Sideboard``,
``Commander``, ``Companion`` and ``Maybeboard`` (Arena's ``About`` and ``Name`` lines are skipped);
``SB:`` and ``COMMANDER:`` prefixes, and ``*CMDR*`` after a name, as some exporters write them;
``//`` and ``#`` comments; blank lines.  A file without any section header whose cards come in two
blocks separated by a blank line, the second of at most 15 cards, is an MTGO export: the second
block is its sideboard.
"""

from __future__ import annotations

import re

from manasolver.solver.castability.decklists.entries import DeckError, Entry, Zone, count_of

__all__ = ["read"]

_SECTIONS: dict[str, Zone] = {
    "deck": "deck", "main": "deck", "main deck": "deck", "maindeck": "deck", "mainboard": "deck",
    "sideboard": "side", "side": "side", "commander": "commander", "commanders": "commander",
    "companion": "side", "maybeboard": "side", "considering": "side", "tokens": "side"}
_LINE = re.compile(r"^(?P<count>\d+)\s*[xX]?\s+(?P<name>.+?)"
                   r"(?:\s+\((?P<set>[A-Za-z0-9]{2,6})\)(?:\s+[A-Za-z0-9★\-]+)?)?"
                   r"(?P<marks>(?:\s+\*[A-Z]+\*)*)\s*$")
_PREFIX = re.compile(r"^(SB|COMMANDER|CMDR)\s*:\s*", re.IGNORECASE)


def read(text: str) -> tuple[Entry, ...]:
    """The entries of a text decklist."""
    lines = text.splitlines()
    has_headers = any(_header(_strip_comment(line)) is not None for line in lines)
    section: Zone = "deck"
    blocks = 0
    gap = True
    parsed: list[tuple[int, str, str]] = []  # (line number, zone or block, card line)
    for number, raw in enumerate(lines, 1):
        line = _strip_comment(raw)
        if not line:
            gap = True
            continue
        head = _header(line)
        if head is not None:
            section = head
            continue
        if re.match(r"^(about|name)\b", line, re.IGNORECASE):
            continue
        prefix = _PREFIX.match(line)
        if prefix:
            rest = line[prefix.end():].strip()
            if not re.match(r"^\d", rest):
                rest = f"1 {rest}"
            parsed.append((number, "side" if prefix.group(1).upper() == "SB" else "commander", rest))
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
    out: list[Entry] = []
    for number, zone, line in parsed:
        where = f"line {number}"
        m = _LINE.match(line)
        if m is None:
            raise DeckError(f"{where}: {line!r} is not a card line (expected a count and a name, "
                            "such as '4 Lightning Bolt' or '1 Forest (M21) 274')", where)
        n = count_of(m.group("count"), where)
        if "*CMDR*" in m.group("marks").upper():
            zone = "commander"
        out.append(Entry(m.group("name").strip(), n, zone, where, number))  # type: ignore[arg-type]
    return tuple(out)


def _strip_comment(raw: str) -> str:
    """The line without its ``//`` comment (a ``//`` between two words is a split card's name)
    and without a ``#`` comment."""
    line = raw.split("//", 1)[0] if "//" in raw and not re.search(r"\S\s*//\s*\S", raw) else raw
    line = re.sub(r"(^|\s)#.*$", "", line).strip()
    return "" if line.startswith("//") else line


def _header(line: str) -> Zone | None:
    text = line.strip().rstrip(":").strip().lower()
    return _SECTIONS.get(text)


def _quick_count(line: str) -> int:
    m = re.match(r"^(\d+)", line)
    return int(m.group(1)) if m else 1
