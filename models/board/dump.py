"""A game state back to board JSON, so that ``load_state(state_to_json(s)) == s``.

Defaults are left out.  Each distinct card is written once (:class:`_Writer`): by name when the
database's card of that name is the same card; as the name and the characteristics that differ
when those rebuild it; otherwise as its characteristics.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from manasolver.models._memo import IdentityMemo
from manasolver.models.board.cards import CardResolver, record_of
from manasolver.models.board.status import is_token_card
from manasolver.models.card import Card
from manasolver.models.errors import ManasolverError
from manasolver.models.state import DESIGNATIONS, GameState

if TYPE_CHECKING:
    from manasolver.models.carddb import CardDB

__all__ = ["state_to_json"]

def state_to_json(state: GameState, db: CardDB | None = None) -> dict[str, Any]:
    """Board JSON for ``state``, with defaults left out.

    A card equal to the database's card of its name is written as ``"card"``;
    any other card as its characteristics.  ``load_state(state_to_json(s))``
    gives back ``s``.
    """
    cards = _Writer(db)
    players: list[dict[str, Any]] = []
    for p in state.players:
        entry: dict[str, Any] = {"name": p.name}
        if p.life != 20:
            entry["life"] = p.life
        if p.starting_life != 20:
            entry["starting_life"] = p.starting_life
        if p.energy:
            entry["energy"] = p.energy
        if p.pool:
            entry["pool"] = p.pool.format()
        if p.hand:
            entry["hand"] = [cards.zone_entry(c) for c in p.hand]
        if p.graveyard:
            entry["graveyard"] = [cards.zone_entry(c) for c in p.graveyard]
        if p.commander:
            entry["commander"] = [cards.zone_entry(c) for c in p.commander]
        if p.lands_played_this_turn:
            entry["lands_played_this_turn"] = p.lands_played_this_turn
        if p.spells_cast_this_turn:
            entry["spells_cast_this_turn"] = p.spells_cast_this_turn
        if p.life_gained_this_turn is not None:
            entry["life_gained_this_turn"] = p.life_gained_this_turn
        if p.cards_drawn_this_turn:
            entry["cards_drawn_this_turn"] = p.cards_drawn_this_turn
        if p.designations is not None:
            entry["designations"] = [d for d in DESIGNATIONS if d in p.designations]
        if p.library is not None:
            entry["library"] = {"size": p.library.size, "top": [cards.zone_entry(c) for c in p.library.top]}
        players.append(entry)
    out: dict[str, Any] = {
        "players": players,
        "turn": {"active": state.turn.active, "step": state.turn.step,
                 "stack_empty": state.turn.stack_empty},
    }
    field: list[dict[str, Any]] = []
    first = state.players[0].name
    for perm in state.battlefield:
        entry = {"id": perm.id}
        entry.update(cards.fields(perm.card))
        if perm.controller != first:
            entry["controller"] = perm.controller
        for key in ("tapped", "sick", "haste"):
            if getattr(perm, key):
                entry[key] = True
        if perm.token != is_token_card(perm.card):
            entry["token"] = perm.token
        if perm.counters:
            entry["counters"] = dict(perm.counters)
        if perm.attached_to is not None:
            entry["attached_to"] = perm.attached_to
        if perm.cast_for is not None:
            entry["cast_for"] = perm.cast_for
        if perm.x is not None:
            entry["x"] = perm.x
        chosen = {k: v for k, v in (("color", perm.chosen_color), ("type", perm.chosen_type),
                                    ("name", perm.chosen_name)) if v is not None}
        if chosen:
            entry["chosen"] = chosen
        if perm.imprinted is not None:
            entry["imprinted"] = [cards.zone_entry(c) for c in perm.imprinted]
        if perm.entered_this_turn is not None:
            entry["entered_this_turn"] = perm.entered_this_turn
        if perm.renowned is not None:
            entry["renowned"] = perm.renowned
        if perm.activated_this_turn:
            entry["activated_this_turn"] = {str(i): n for i, n in perm.activated_this_turn}
        field.append(entry)
    if field:
        out["battlefield"] = field
    return out


class _Writer:
    """Writes each distinct card once: by name when the database's card of that name is the
    same card; as the name plus the characteristics that differ when that rebuilds it; else as
    its characteristics."""

    def __init__(self, db: CardDB | None) -> None:
        if db is None:
            from manasolver.models.carddb import default_db
            db = default_db()
        self._db = db
        # one entry per distinct card of the state, never emptied while it is written
        self._memo: IdentityMemo[Card, dict[str, Any]] = IdentityMemo(limit=2**62)

    def fields(self, card: Card) -> dict[str, Any]:
        return dict(self._memo.get_or(card, self._describe))

    def zone_entry(self, card: Card) -> str | dict[str, Any]:
        got = self.fields(card)
        return str(got["card"]) if list(got) == ["card"] else got

    def _describe(self, card: Card) -> dict[str, Any]:
        try:
            base = self._db.get(card.name)
        except ManasolverError:
            return record_of(card)
        if base == card:
            return {"card": card.name}
        mine, theirs = record_of(card), record_of(base)
        entry: dict[str, Any] = {"card": card.name}
        entry.update({k: v for k, v in mine.items() if theirs.get(k) != v})
        if entry.keys() & {"mana_cost", "oracle_text", "type_line"}:
            entry["colors"] = mine["colors"]
        try:
            if CardResolver(self._db).entry(entry, "") == card:
                return entry
        except ManasolverError:
            pass
        return mine
