"""Forge and XMage ``.dck`` files: two engines' deck files under one extension.

Forge writes sections in brackets, ``[metadata]`` (``Name=…`` lines), ``[Main]``, ``[Sideboard]``,
``[Commander]`` and the variants' own (``[Planes]``, ``[Schemes]``, ``[Avatar]``, …), and cards as
``COUNT Name|SET|ART|[NUMBER]|…``, a ``+`` after the name marking a foil.  Only ``[Main]`` is the
library and ``[Commander]`` the command zone; the other sections are not drawn.

XMage writes ``COUNT [SET:NUMBER] Name`` lines, ``SB:`` before a sideboard card, ``NAME:`` and
``AUTHOR:`` lines, ``LAYOUT …`` lines of its deck editor and ``#``/``//`` comments.  XMage keeps a
Commander deck's commander in the sideboard; :mod:`manasolver.solver.castability.deck` reads it so.
A ``COMMANDER:`` prefix names a commander outright.
"""

from __future__ import annotations

import re

from manasolver.solver.castability.decklists.entries import DeckError, Entry, Zone, count_of

__all__ = ["read_forge", "read_xmage"]

_FORGE_ZONES: dict[str, Zone] = {"main": "deck", "commander": "commander"}
_FORGE_CARD = re.compile(r"^(?:(?P<count>\d+)\s*[xX]?\s+)?(?P<name>[^|]+?)\s*(?:\|.*)?$")
_XMAGE_CARD = re.compile(r"^(?P<prefix>(?:SB|COMMANDER)\s*:)?\s*(?P<count>\d+)\s+"
                         r"\[(?P<set>[^:\]]*):(?P<number>[^\]]*)\]\s*(?P<name>.+?)\s*$", re.IGNORECASE)


def read_forge(text: str) -> tuple[Entry, ...]:
    """The entries of a Forge ``.dck`` file."""
    out: list[Entry] = []
    section = ""
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        where = f"line {number}"
        if not line or line.startswith(("#", "//")):
            continue
        head = re.fullmatch(r"\[([^\]]+)\]", line)
        if head:
            section = head.group(1).strip().lower()
            continue
        if section == "metadata":
            continue
        if not section:
            raise DeckError(f"{where}: {line!r} comes before any section (a Forge deck starts with "
                            "[metadata] or [Main])", where)
        m = _FORGE_CARD.match(line)
        if m is None or not m.group("name").strip():
            raise DeckError(f"{where}: {line!r} is not a card line (expected '4 Name|SET')", where)
        n = count_of(m.group("count"), where) if m.group("count") else 1
        name = m.group("name").strip()
        if name.endswith("+"):
            name = name[:-1].rstrip()  # Forge's foil mark
        out.append(Entry(name, n, _FORGE_ZONES.get(section, "side"), where, number))
    return tuple(out)


def read_xmage(text: str) -> tuple[Entry, ...]:
    """The entries of an XMage ``.dck`` file."""
    out: list[Entry] = []
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        where = f"line {number}"
        if not line or line.startswith(("#", "//")):
            continue
        if re.match(r"^(NAME|AUTHOR|LAYOUT\b[^:]*)\s*:", line, re.IGNORECASE):
            continue
        m = _XMAGE_CARD.match(line)
        if m is None:
            raise DeckError(f"{where}: {line!r} is not a card line (expected '4 [SET:NUMBER] Name', "
                            "'SB: 1 [SET:NUMBER] Name' for the sideboard)", where)
        prefix = (m.group("prefix") or "").upper().replace(" ", "")
        zone: Zone = "side" if prefix == "SB:" else "commander" if prefix == "COMMANDER:" else "deck"
        out.append(Entry(m.group("name"), count_of(m.group("count"), where), zone, where, number))
    return tuple(out)
