"""Decklists as players and engines export them, read into a :class:`Deck` of card names and counts.

The formats (plain text, Arena and MTGO text, MTGO ``.dek``, Forge and XMage ``.dck``, Cockatrice
``.cod``, MTGJSON deck files and our JSON) are read by
:mod:`manasolver.solver.castability.decklists` into entries; this module looks every name up at
once, so that a deck naming several cards the card data doesn't know gets one error listing them
all, each with its line.  The sideboard, the companion and the maybeboard are not part of the deck.

XMage, Cockatrice and MTGO keep a Commander deck's commander in the sideboard: in those formats, a
sideboard of one or two cards beside a main deck of 90 cards or more (a Commander deck has 100 with
its commander; players' lists are sometimes a few off), each a legendary creature, a Background or
a card whose text says it can be your commander, is the command zone.

Every refusal is a :class:`DeckError` naming the line (or the element, or the JSON path): a malformed
line, a count of 0 or more than 9,999, unknown cards (with the card database's suggestions), fewer
than 7 cards.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from manasolver.models.card import Card
from manasolver.models.carddb import CardDB, unknown_cards_error
from manasolver.models.errors import ManasolverError
from manasolver.solver.castability.decklists import read_entries
from manasolver.solver.castability.decklists.entries import MAX_COUNT, DeckError, Entry

__all__ = ["Deck", "DeckError", "MAX_COUNT", "load_deck", "parse_deck"]

#: The largest deck accepted.
MAX_CARDS = 10000
#: The fewest main-deck cards beside which a one- or two-card sideboard may be a Commander deck's
#: command zone (100 cards in all by the rules; players' lists are sometimes a few off).
COMMANDER_MAIN = 90


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


def parse_deck(text: str, db: CardDB, filename: str = "") -> Deck:
    """The deck a decklist's ``text`` names, in any format :func:`read_entries` reads
    (``filename``, when given, hints at the format by its extension)."""
    listing = read_entries(text, filename)
    entries = [e for e in listing.entries if e.zone != "side"]
    side = [e for e in listing.entries if e.zone == "side"]
    side_commander = (listing.side_commander and not any(e.zone == "commander" for e in entries)
                      and 1 <= sum(e.count for e in side) <= 2
                      and sum(e.count for e in entries) >= COMMANDER_MAIN)
    cards, misses = _resolve(entries + side if side_commander else entries, db)
    if misses:
        raise _unknown_error(misses, db)
    if side_commander and all(_may_command(cards[id(e)]) for e in side):
        for e in side:
            moved = Entry(e.name, e.count, "commander", e.where, e.line)
            cards[id(moved)] = cards[id(e)]
            entries.append(moved)
    library: dict[str, list[object]] = {}
    commander: list[Card] = []
    for entry in entries:
        card = cards[id(entry)]
        if entry.zone == "commander":
            commander.extend([card] * entry.count)
        elif card.name in library:
            library[card.name][1] = int(str(library[card.name][1])) + entry.count
        else:
            library[card.name] = [card.name, entry.count, card, entry.line]
    return _finish(library, commander)


def _resolve(entries: list[Entry], db: CardDB) -> tuple[dict[int, Card], list[Entry]]:
    """Each entry's card (keyed by the entry's id), and the entries the card data doesn't know
    (looked up without wording an error: :func:`_unknown_error` words one for all of them)."""
    found: dict[int, Card] = {}
    misses: list[Entry] = []
    for entry in entries:
        for name in (entry.name, *_other_readings(entry.name)):
            card = _card(db, name, entry.where)
            if card is not None:
                found[id(entry)] = card
                break
        else:
            misses.append(entry)
    return found, misses


def _other_readings(name: str) -> list[str]:
    """Other names a list may mean by ``name``: before a ``//`` that starts a comment ("4 Lightning
    Bolt // burn"), and a split card written with one slash ("Fire/Ice", as MTGO writes it)."""
    if "//" in name:
        return [name.split("//", 1)[0].strip()]
    if "/" in name:
        return [" // ".join(part.strip() for part in name.split("/"))]
    return []


def _card(db: CardDB, name: str, where: str) -> Card | None:
    try:
        return db.lookup(name, where)
    except ManasolverError as err:
        raise DeckError(f"{where}: {err.message}", where) from None


def _unknown_error(misses: list[Entry], db: CardDB) -> DeckError:
    """One error naming every unknown card of the deck at once, each with its line, near names only
    when they are near, the date the card data reaches and how to bring newer cards."""
    err = unknown_cards_error([(entry.name, entry.where) for entry in misses], db)
    return DeckError(err.message, misses[0].where, tuple((entry.where, entry.name) for entry in misses))


def _may_command(card: Card) -> bool:
    """Whether ``card`` can be a commander: a legendary creature, a Background, or a card saying so
    (CR 903.3)."""
    front = card.battlefield_face
    legendary = "legendary" in front.type_line.supertypes
    background = legendary and "background" in front.type_line.subtypes
    return (legendary and front.is_type("creature")) or background or \
        "can be your commander" in card.oracle_text.lower()


def _finish(library: dict[str, list[object]], commander: list[Card]) -> Deck:
    cards = tuple((str(v[0]), int(str(v[1])), v[2]) for v in library.values())
    size = sum(n for _, n, _ in cards) + len(commander)
    if size < 7:
        raise DeckError(f"the deck has {size} card{'s' if size != 1 else ''}; at least 7 are needed "
                        "to draw an opening hand", "deck")
    if size > MAX_CARDS:
        raise DeckError(f"the deck has {size:,} cards; at most {MAX_CARDS:,} are accepted", "deck")
    return Deck(cards=cards, commander=tuple(commander),  # type: ignore[arg-type]
                lines=tuple(int(str(v[3])) for v in library.values()))


def load_deck(path: str, db: CardDB) -> Deck:
    """The deck in the file at ``path``."""
    try:
        with open(path, encoding="utf-8-sig") as fh:
            text = fh.read()
    except OSError as err:
        raise DeckError(f"can't read the deck file {path!r}: {err.strerror}", "deck") from None
    except UnicodeDecodeError:
        raise DeckError(f"the deck file {path!r} is not UTF-8 text", "deck") from None
    return parse_deck(text, db, path)
