"""The predefined tokens a board may name by ``"card"``.

Each is a record in the card-data format, built by
:func:`manasolver.models.carddb.card_from_record` like any card.  Tokens have
no mana cost (CR 202.1b, 111.4), so they are colorless unless their creator
says otherwise; ``colors`` is given explicitly for clarity.  Everywhere is the
land token of Overlord of the Hauntwoods: colorless, nonbasic, every basic land
type, so its five mana abilities are the intrinsic ones of CR 305.6.
"""

from __future__ import annotations

from typing import Any

__all__ = ["TOKENS", "TOKEN_NAMES", "token_record"]

TOKENS: dict[str, dict[str, Any]] = {
    "Treasure": {
        "name": "Treasure", "mana_cost": "", "type_line": "Token Artifact — Treasure", "colors": [],
        "oracle_text": "{T}, Sacrifice this artifact: Add one mana of any color.", "layout": "token",
    },
    "Gold": {
        "name": "Gold", "mana_cost": "", "type_line": "Token Artifact — Gold", "colors": [],
        "oracle_text": "Sacrifice this artifact: Add one mana of any color.", "layout": "token",
    },
    "Powerstone": {
        "name": "Powerstone", "mana_cost": "", "type_line": "Token Artifact — Powerstone", "colors": [],
        "oracle_text": "{T}: Add {C}. This mana can't be spent to cast nonartifact spells.", "layout": "token",
    },
    "Eldrazi Spawn": {
        "name": "Eldrazi Spawn", "mana_cost": "", "type_line": "Token Creature — Eldrazi Spawn", "colors": [],
        "oracle_text": "Sacrifice this creature: Add {C}.", "power": "0", "toughness": "1", "layout": "token",
    },
    "Eldrazi Scion": {
        "name": "Eldrazi Scion", "mana_cost": "", "type_line": "Token Creature — Eldrazi Scion", "colors": [],
        "oracle_text": "Sacrifice this creature: Add {C}.", "power": "1", "toughness": "1", "layout": "token",
    },
    "Everywhere": {
        "name": "Everywhere", "mana_cost": "", "type_line": "Token Land — Plains Island Swamp Mountain Forest",
        "colors": [], "oracle_text": "", "layout": "token",
    },
}
TOKEN_NAMES = tuple(TOKENS)
_BY_KEY = {name.lower(): rec for name, rec in TOKENS.items()}


def token_record(name: str) -> dict[str, Any] | None:
    """The record of a predefined token by name (case-insensitive), or None."""
    rec = _BY_KEY.get(name.strip().lower())
    return dict(rec) if rec is not None else None
