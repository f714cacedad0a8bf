"""What the board does not hold: the error an answer gives when it depends on the game's history
or on a choice the board leaves out (the protocol: "the answer says so (`unsupported` naming the
field), never assumes"), and the paths of the fields it names.
"""

from __future__ import annotations

from manasolver.models.errors import Unsupported
from manasolver.models.state import GameState, Permanent

__all__ = ["NotOnBoard", "permanent_field", "player_field"]


class NotOnBoard(Unsupported):
    """What an ability adds depends on the game's history or a choice the board does not give
    (life gained this turn without ``life_gained_this_turn``, Chrome Mox without ``imprinted``,
    Jeweled Amulet's noted type): the answer says so, naming the field."""


def player_field(state: GameState, name: str, field: str) -> str:
    """The path of a player's field on the board, as the loader names it: ``players[0].field``."""
    for i, p in enumerate(state.players):
        if p.name == name:
            return f"players[{i}].{field}"
    return f"players.{field}"


def permanent_field(state: GameState, permanent: Permanent, field: str) -> str:
    """The path of a permanent's field on the board: ``battlefield[3].imprinted``."""
    for i, p in enumerate(state.battlefield):
        if p is permanent or p.id == permanent.id:
            return f"battlefield[{i}].{field}"
    return f"battlefield.{permanent.id}.{field}"
