"""The rows every decklist reader yields, and the error every one raises.

An :class:`Entry` is a card name as the file writes it, a count, the zone it goes to and where it
was read; a :class:`Listing` is a file's entries with its format's name.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from manasolver.models.errors import BadQuery

__all__ = ["MAX_COUNT", "DeckError", "Entry", "Listing", "Zone", "count_of"]

#: The largest count one line may give.
MAX_COUNT = 9999

#: Where a card of a list goes: the library, the command zone, or outside the game (sideboard,
#: maybeboard, companion, tokens: none of them is drawn).
Zone = Literal["deck", "commander", "side"]


class DeckError(BadQuery):
    """A decklist the command refuses; ``where`` names the line (``line 3``), the element or the
    JSON path.  ``unknown`` lists every ``(where, name)`` the card data doesn't know, when that is
    the reason."""

    def __init__(self, message: str, where: str = "", unknown: tuple[tuple[str, str], ...] = ()) -> None:
        super().__init__(message, where)
        self.unknown = unknown


@dataclass(frozen=True, slots=True)
class Entry:
    """One row of a list: ``count`` copies of ``name`` (as written) in ``zone``, read at ``where``
    (``line 12``, ``cards[3]``), ``line`` its line number (or position) for the deck's ``lines``."""

    name: str
    count: int
    zone: Zone
    where: str
    line: int


@dataclass(frozen=True, slots=True)
class Listing:
    """A file's entries and its format's name; ``side_commander`` when the format keeps a
    Commander deck's commander in the sideboard (XMage, Cockatrice, MTGO do)."""

    format: str
    entries: tuple[Entry, ...]
    side_commander: bool = False


def count_of(text: str, where: str) -> int:
    """The count ``text`` gives (a whole number from 1 to :data:`MAX_COUNT`), or a :class:`DeckError`
    at ``where``."""
    if not re.fullmatch(r"\s*-?\d+\s*", text):
        raise DeckError(f"{where}: {text!r} is not a count (a whole number of copies)", where)
    n = int(text)
    if n < 1:
        raise DeckError(f"{where}: a count of {n}; each line needs at least 1 copy", where)
    if n > MAX_COUNT:
        raise DeckError(f"{where}: a count of {n} is more than {MAX_COUNT:,}", where)
    return n


