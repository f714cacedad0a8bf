"""The rules that read the board's history fields: cards drawn this turn, which permanents entered
this turn, renown, a player's designations and library.

Each reader answers from the field, or raises :class:`~manasolver.models.rules.missing.NotOnBoard`
naming the field (its path on the board) when the board leaves it out and the answer depends on it.
"""

from __future__ import annotations

from dataclasses import replace

from manasolver.models.abilities import Amount, ManaAbility, Production
from manasolver.models.card import Card
from manasolver.models.rules.missing import NotOnBoard, permanent_field, player_field
from manasolver.models.state import GameState, Library, Permanent

__all__ = ["HISTORY_AMOUNTS", "MILLED_CARD_MANA", "MILL_A_CARD", "MilledOut", "designation", "entered_creatures",
           "entered_this_turn", "history_amount", "library", "milling_ability", "renowned", "top_card", "unknown_tops"]

#: The cost part "Mill a card" as the tap-cost reader names it (CR 701.13).
MILL_A_CARD = "mill a card"
#: What a mana ability that adds the milled card's colored mana symbols says (Charmed Pendant).
MILLED_CARD_MANA = "the milled card's mana cost"


#: The :class:`~manasolver.models.abilities.Amount` kinds read here.
HISTORY_AMOUNTS = frozenset({"cards_drawn", "designation", "entered_self", "entered_self_or_basic",
                             "exiled_with", "renowned", "revealed_nonland", "top_card"})


def history_amount(amount: Amount, state: GameState, permanent: Permanent) -> int:
    """The value, before ``plus`` and ``times``, of an amount of :data:`HISTORY_AMOUNTS` for
    ``permanent``'s ability:

    * ``cards_drawn``: the controller's ``cards_drawn_this_turn`` (Kydele, Chosen of Kruphix);
    * ``entered_self``: 1 when the source entered this turn ("Activate only if this land entered
      this turn"); ``entered_self_or_basic``: 1 when it did or its controller controls a basic
      land (Gathering Place, Dark Fortress);
    * ``designation``: 1 when the controller has the designation ``amount.name`` (Sarevok's Tome);
    * ``renowned``: 1 when the source is renowned (Honored Hierarch);
    * ``top_card``: 1 when the top card of the controller's library has one of ``amount.types``
      (Mul Daya Channelers), 0 when it is not known (the least it can be);
    * ``revealed_nonland``: the nonland cards among each player's top card (Selvala, Explorer
      Returned's parley), an unknown top card counted as a land (the least it can be);
    * ``exiled_with``: the cards exiled with the source, its ``imprinted`` (Ugin's Labyrinth)."""
    if amount.kind == "cards_drawn":
        return state.player(permanent.controller).cards_drawn_this_turn
    if amount.kind == "exiled_with":
        if permanent.imprinted is None:
            raise NotOnBoard(f"{permanent.card.name} ({permanent.id}) reads whether a card is exiled with it, which "
                             "the board does not give (\"imprinted\")", permanent_field(state, permanent, "imprinted"))
        return len(permanent.imprinted)
    if amount.kind == "renowned":
        return int(renowned(state, permanent))
    if amount.kind == "top_card":
        card = top_card(state, permanent.controller, permanent)
        return int(card is not None and bool(amount.types & set(card.type_line.types)))
    if amount.kind == "revealed_nonland":
        tops = [top_card(state, p.name, permanent) for p in state.players]
        return sum(1 for card in tops if card is not None and "land" not in card.type_line.types)
    if amount.kind == "designation":
        return int(designation(state, permanent.controller, amount.name, permanent))
    if amount.kind == "entered_self_or_basic" and any(
            p.is_land and "basic" in p.card.type_line.supertypes for p in state.controlled_by(permanent.controller)):
        return 1  # "or if you control a basic land": whether it entered does not matter
    if amount.kind in ("entered_self", "entered_self_or_basic"):
        return int(entered_this_turn(state, permanent))
    raise ValueError(f"not a history amount: {amount.kind!r}")


def entered_creatures(state: GameState, reader: Permanent) -> list[Permanent]:
    """The creatures ``reader``'s controller controls that entered the battlefield this turn."""
    return [p for p in state.controlled_by(reader.controller) if p.is_creature and entered_this_turn(state, p, reader)]


def entered_this_turn(state: GameState, permanent: Permanent, reader: Permanent | None = None) -> bool:
    """Did ``permanent`` enter the battlefield this turn (its ``entered_this_turn``)?  ``reader``:
    the permanent whose ability asks, named in the error when the field is left out."""
    if permanent.entered_this_turn is None:
        who = reader or permanent
        raise NotOnBoard(f"{who.card.name} ({who.id}) reads whether {permanent.card.name} ({permanent.id}) entered "
                         "the battlefield this turn, which the board does not give (\"entered_this_turn\")",
                         permanent_field(state, permanent, "entered_this_turn"))
    return permanent.entered_this_turn


def renowned(state: GameState, permanent: Permanent) -> bool:
    """Is ``permanent`` renowned (CR 702.112b; its ``renowned``)?"""
    if permanent.renowned is None:
        raise NotOnBoard(f"{permanent.card.name} ({permanent.id}) has mana only while renowned, which the board "
                         "does not give (\"renowned\")", permanent_field(state, permanent, "renowned"))
    return permanent.renowned


def designation(state: GameState, player: str, which: str, reader: Permanent) -> bool:
    """Does ``player`` have designation ``which`` (``"monarch"``, ``"initiative"``, ``"city's
    blessing"``; the player's ``designations``)?"""
    held = state.player(player).designations
    if held is None:
        raise NotOnBoard(f"{reader.card.name} ({reader.id}) reads whether player {player!r} {_verb(which)} the "
                         f"{which}, which the board does not give (\"designations\")",
                         player_field(state, player, "designations"))
    return which in held


def _verb(which: str) -> str:
    return "is" if which == "monarch" else "has"


def library(state: GameState, player: str, reader: Permanent) -> Library:
    """``player``'s library as the board gives it."""
    found = state.player(player).library
    if found is None:
        raise NotOnBoard(f"{reader.card.name} ({reader.id}) reads the library of {player}, which the board does not "
                         "give (\"library\")", player_field(state, player, "library"))
    return found


def top_card(state: GameState, player: str, reader: Permanent) -> Card | None:
    """The top card of ``player``'s library: None when the library is empty or the board does not
    give its top card.  A hidden card is chance from the payer's side, so what reads it counts the
    least it can give (no card of the kind it asks for) and the answers name the reader under
    ``uncertain`` (:func:`unknown_tops`).  Raises ``NotOnBoard`` when the board gives no library."""
    lib = library(state, player, reader)
    return lib.top[0] if lib.size and lib.top else None


def unknown_tops(state: GameState, players: tuple[str, ...]) -> tuple[str, ...]:
    """The players among ``players`` whose library the board gives, not empty, without its top
    card: what reads their top card is counted as the least it can give."""
    out = []
    for name in players:
        lib = state.player(name).library
        if lib is not None and lib.size and not lib.top:
            out.append(name)
    return tuple(out)


class MilledOut(Exception):
    """A mana ability with a milling cost that the board's library can't answer exactly: the
    permanent is left out of the supply with :attr:`reason`."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def milling_ability(state: GameState, permanent: Permanent, ab: ManaAbility,
                    parts: tuple[str, ...]) -> ManaAbility | None:
    """``ab`` (whose cost mills a card, CR 701.13) as the supply can pay it from its controller's
    ``library``: the cost read as paid, or None when it can't be paid (an empty library, CR
    118.3).  The library is one resource of all the controller's milling costs, so the cost is
    read as paid only when the library holds a card for each of them (each such ability is
    activated once, its cost taps the permanent).  Charmed Pendant's mana, the milled card's
    colored symbols, is nothing while the top card is hidden (the least it can give).  Raises
    :class:`MilledOut` naming why otherwise (Charmed Pendant's "Activate only as an instant" with
    its top card known among them)."""
    lib = state.player(permanent.controller).library
    if lib is None:
        raise MilledOut("milling a card needs the player's library, which the board does not give (\"library\")")
    if lib.size == 0:
        return None
    if MILLED_CARD_MANA in ab.text and not lib.top:
        # Charmed Pendant: what it adds is the hidden top card's colored symbols, so the least it
        # can give is nothing, whenever it is activated (the answers name it as uncertain)
        return replace(ab, cost=replace(ab.cost, unmodelled=""), production=Production())
    if "Activate only as" in ab.text:
        raise MilledOut("'Activate only as an instant/a sorcery': the mana is made before the spell is cast "
                        "(CR 602.5d, 605.3a), which is not modelled for this cost")
    if any(p not in (MILL_A_CARD, "{T}") and not p.startswith("{") for p in parts):
        raise MilledOut("its cost has another part that is not modelled: " + ", ".join(parts))
    if not ab.cost.tap:
        raise MilledOut("a milling cost without {T} (activated any number of times) is not modelled")
    millers = _milling_costs(state, permanent.controller)
    if lib.size < millers:
        raise MilledOut(f"the library holds {lib.size} cards for {millers} milling costs, and which ones are paid "
                        "is not modelled")
    return replace(ab, cost=replace(ab.cost, unmodelled=""))


def _milling_costs(state: GameState, player: str) -> int:
    """How many of ``player``'s permanents have a mana ability whose cost mills a card."""
    from manasolver.models.text.read import card_text

    return sum(1 for p in state.controlled_by(player)
               if any(MILL_A_CARD in t.parts for t in card_text(p.card).tap_costs))

