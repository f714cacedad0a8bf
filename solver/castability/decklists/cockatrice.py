"""Cockatrice ``.cod`` decks: ``<cockatrice_deck>`` holding ``<zone name="main">`` and
``<zone name="side">`` of ``<card number="4" name="…"/>`` elements.

``main`` is the library, ``commander`` (when a file has one) the command zone; ``side``, ``tokens``
and any other zone are not drawn.  Cockatrice has no commander zone of its own: players keep the
commander in ``side``, which :mod:`manasolver.solver.castability.deck` reads so.
"""

from __future__ import annotations

from manasolver.solver.castability.decklists.entries import DeckError, Entry, Zone, count_of
from manasolver.solver.castability.decklists.xmltree import parse

__all__ = ["read"]

_ZONES: dict[str, Zone] = {"main": "deck", "commander": "commander"}


def read(text: str) -> tuple[Entry, ...]:
    """The entries of a Cockatrice deck."""
    root = parse(text)
    out: list[Entry] = []
    for zone in root.children:
        if zone.tag != "zone":
            continue
        if "name" not in zone.attrs:
            raise DeckError(f"{zone.where()}: a zone needs a name (main, side)", zone.where())
        kind = _ZONES.get(zone.attrs["name"].strip().lower(), "side")
        for card in zone.children:
            if card.tag != "card":
                continue
            where = card.where()
            name = card.attrs.get("name", "").strip()
            if not name:
                raise DeckError(f"{where}: a card needs a name attribute", where)
            n = count_of(card.attrs["number"], f"{where} number") if "number" in card.attrs else 1
            out.append(Entry(name, n, kind, where, card.line))
    return tuple(out)
