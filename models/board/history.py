"""The board's history fields beyond the turn's counts: what the rules read of the game so far
that the battlefield alone does not show.

On a player: ``cards_drawn_this_turn`` (a number, default 0), ``designations`` (which of the
monarch, the initiative and the city's blessing the player has; CR 724, 725, 702.131) and
``library`` (``{"size": 53, "top": ["Forest", "Opt"]}``: how many cards it holds and, as far as
known, its top cards in order).  On a permanent: ``entered_this_turn`` and ``renowned`` (true or
false).  A field left out is None on the state, and an answer that depends on it says so naming
the field (:class:`~manasolver.models.rules.missing.NotOnBoard`); nothing is assumed.

Every error names the field and its position: ``players[0].library.top[2]``,
``players[1].designations[0]``, ``battlefield[4].renowned``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from manasolver.models.board.schema import LIMITS, as_bool, as_int, as_list, as_object, as_str, check_fields, clip
from manasolver.models.card import Card
from manasolver.models.errors import BadState
from manasolver.models.state import DESIGNATIONS, Library, Player

if TYPE_CHECKING:
    from manasolver.models.board.cards import CardResolver

__all__ = [
    "LIBRARY_FIELDS",
    "PERMANENT_HISTORY_FIELDS",
    "PLAYER_HISTORY_FIELDS",
    "check_designations",
    "load_permanent_history",
    "load_player_history",
]

#: The player fields read here.
PLAYER_HISTORY_FIELDS = ("cards_drawn_this_turn", "designations", "library")
#: The permanent fields read here.
PERMANENT_HISTORY_FIELDS = ("entered_this_turn", "renowned", "activated_this_turn")
#: The most activations of one ability this turn a board may state.
MAX_ACTIVATED = 1000
#: The fields of a player's ``library``.
LIBRARY_FIELDS = ("size", "top")

#: Reads a list of cards (names or characteristics) at a path with a board's card resolver:
#: ``zone(raw, where, what, cards)``.
ZoneReader = Callable[[object, str, str, "CardResolver"], tuple[Card, ...]]


def load_player_history(obj: Mapping[str, Any], where: str, zone: ZoneReader, cards: CardResolver) \
        -> tuple[int, frozenset[str] | None, Library | None]:
    """``(cards_drawn_this_turn, designations, library)`` of a player object, as
    :class:`~manasolver.models.state.Player` takes them: 0, None and None for a field left out
    (a null value counts as left out); ``zone`` reads the library's known cards with ``cards``
    as the loader reads a hand (they count toward its limits)."""
    drawn = obj.get("cards_drawn_this_turn")
    if drawn is None:
        drawn = 0
    elif type(drawn) is not int or not 0 <= drawn <= LIMITS["library"]:
        drawn = as_int(drawn, f"{where}.cards_drawn_this_turn", "cards_drawn_this_turn", 0, LIMITS["library"])
    designations = obj.get("designations")
    if designations is not None:
        designations = _designations(designations, f"{where}.designations")
    library = obj.get("library")
    if library is not None:
        library = _library(library, f"{where}.library", zone, cards)
    return drawn, designations, library


def load_permanent_history(obj: Mapping[str, Any], where: str) \
        -> tuple[bool | None, bool | None, tuple[tuple[int, int], ...]]:
    """``(entered_this_turn, renowned, activated_this_turn)`` of a permanent object: None for
    each of the first two it leaves out, ``()`` for the third."""
    entered = obj.get("entered_this_turn")
    renowned = obj.get("renowned")
    return (None if entered is None else as_bool(entered, f"{where}.entered_this_turn", "entered_this_turn"),
            None if renowned is None else as_bool(renowned, f"{where}.renowned", "renowned"),
            _activated(obj.get("activated_this_turn"), f"{where}.activated_this_turn"))


def _activated(raw: object, where: str) -> tuple[tuple[int, int], ...]:
    """``activated_this_turn``: an object from a mana ability's index (``"0"``) to the times it was
    activated this turn, as sorted ``(index, times)`` pairs without the zeros."""
    if raw is None:
        return ()
    obj = as_object(raw, where, "activated_this_turn (a mana ability's index to its activations this turn)")
    out: list[tuple[int, int]] = []
    for key, value in obj.items():
        if not isinstance(key, str) or not key.isdigit() or len(key) > 3:
            raise BadState(f"activated_this_turn's keys are mana ability indexes such as \"0\", not {key!r}",
                           f"{where}.{clip(str(key))}")
        times = as_int(value, f"{where}.{key}", "activated_this_turn", 0, MAX_ACTIVATED)
        if times:
            out.append((int(key), times))
    return tuple(sorted(out))


def check_designations(players: Sequence[Player]) -> None:
    """The monarch and the initiative are each held by one player at most (CR 724.1, 725.1):
    a second player given one is an error naming that player's entry."""
    holder: dict[str, int] = {}
    for i, player in enumerate(players):
        if not player.designations:
            continue
        for d in sorted(player.designations):
            if d == "city's blessing":
                continue
            if d in holder:
                raise BadState(f"{players[holder[d]].name!r} (players[{holder[d]}]) is already {_the(d)}; only "
                               f"one player can be {_the(d)} at a time", f"players[{i}].designations")
            holder[d] = i


def _the(designation: str) -> str:
    return f"the {designation}"


def _designations(raw: object, where: str) -> frozenset[str]:
    items = as_list(raw, where, "designations", len(DESIGNATIONS) * 4)
    out: set[str] = set()
    for k, item in enumerate(items):
        path = f"{where}[{k}]"
        text = " ".join(as_str(item, path, "a designation", LIMITS["name"]).lower().replace("’", "'").split())
        text = text.removeprefix("the ")
        if text not in DESIGNATIONS:
            raise BadState(f"unknown designation {clip(str(item))!r}; the designations are "
                           f"{', '.join(repr(d) for d in DESIGNATIONS)}", path)
        if text in out:
            raise BadState(f"designation {text!r} is given twice", path)
        out.add(text)
    return frozenset(out)


def _library(raw: object, where: str, zone: ZoneReader, cards: CardResolver) -> Library:
    obj = as_object(raw, where, "library")
    check_fields(obj, LIBRARY_FIELDS, where, "library")
    if "size" not in obj:
        raise BadState("library needs a \"size\": how many cards it holds", f"{where}.size")
    size = as_int(obj["size"], f"{where}.size", "library size", 0, LIMITS["library"])
    top: tuple[Card, ...] = ()
    if obj.get("top") is not None:
        top = zone(obj["top"], f"{where}.top", "library's top", cards)
        if len(top) > size:
            raise BadState(f"library.top names {len(top)} cards but the library holds {size}",
                           f"{where}.top")
    return Library(size, top)
