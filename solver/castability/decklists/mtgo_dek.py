"""MTGO ``.dek`` decks: ``<Deck>`` holding ``<Cards CatID=… Quantity="4" Sideboard="false"
Name="…"/>`` elements, as Magic Online exports them.

``Sideboard="true"`` cards are not drawn (MTGO keeps a Commander deck's commander there, which
:mod:`manasolver.solver.castability.deck` reads so).  MTGO writes a split card's halves with one
slash (``Fire/Ice``), which the deck's lookup reads as ``Fire // Ice``.
"""

from __future__ import annotations

from manasolver.solver.castability.decklists.entries import DeckError, Entry, count_of
from manasolver.solver.castability.decklists.xmltree import parse

__all__ = ["read"]


def read(text: str) -> tuple[Entry, ...]:
    """The entries of an MTGO deck."""
    root = parse(text)
    out: list[Entry] = []
    for card in root.children:
        if card.tag.lower() != "cards":
            continue
        where = card.where()
        attrs = {k.lower(): v for k, v in card.attrs.items()}
        name = attrs.get("name", "").strip()
        if not name:
            raise DeckError(f"{where}: a card needs a Name attribute", where)
        if "quantity" not in attrs:
            raise DeckError(f"{where}: a card needs a Quantity attribute", where)
        n = count_of(attrs["quantity"], f"{where} Quantity")
        side = attrs.get("sideboard", "false").strip().lower()
        if side not in ("true", "false"):
            raise DeckError(f"{where}: Sideboard={attrs['sideboard']!r}; it is true or false", where)
        out.append(Entry(name, n, "side" if side == "true" else "deck", where, card.line))
    return tuple(out)
