"""The rows of a permanent whose mana reads only its controller's commander identity (Command
Tower, Arcane Signet, Path of Ancestry: CR 903.4) are kept with its card per identity, tapped and
summoning-sick state: each board gets its own identity's mana, whatever board came before."""

from __future__ import annotations

from typing import Any

import pytest

from manasolver.models.board.load import load_state
from manasolver.models.symbols import mask_from_letters
from manasolver.solver.supply import build
from manasolver.solver.supply.build import build_supply

#: Commanders by their color identity's letters ("": no commander, 903.4f).
_COMMANDERS = {"WUBRG": ["Kenrith, the Returned King"], "G": ["Azusa, Lost but Seeking"],
               "R": ["Krenko, Mob Boss"], "U": ["Talrand, Sky Summoner"], "": []}


def _board(prefix: str, identity: str, card: str, tapped: bool = False) -> dict[str, Any]:
    return {"players": [{"name": "you", "commander": _COMMANDERS[identity]},
                        {"name": "them", "commander": _COMMANDERS["WUBRG"]}],
            "battlefield": [{"id": f"{prefix}1", "card": card, "controller": "you", "tapped": tapped},
                            {"id": f"{prefix}2", "card": card, "controller": "them"}]}


def _slots(prefix: str, identity: str, card: str, tapped: bool = False,
           resources: bool = True) -> set[tuple[int, ...]]:
    supply = build_supply(load_state(_board(prefix, identity, card, tapped)), "you", resources)
    return {o.slots for cls in supply.classes for o in cls.options}


@pytest.mark.parametrize("card", ["Command Tower", "Arcane Signet", "Path of Ancestry"])
def test_each_board_gets_its_controllers_identity_whatever_came_before_903_4(card: str) -> None:
    """Identities in turn, each twice, with and without resources, and tapped (107.5): the mana of
    the board's own commander, none without one (903.4f) or tapped, never another board's."""
    for n, identity in enumerate(["G", "WUBRG", "", "R", "G", "U", "", "WUBRG"] * 2):
        for resources in (True, False):
            want = {(mask_from_letters(identity),)} if identity else set()
            assert _slots(f"b{n}{resources}", identity, card, False, resources) == want, (identity, resources)
            assert _slots(f"t{n}{resources}", identity, card, True, resources) == set()


def test_a_command_towers_row_is_kept_with_its_card_per_identity() -> None:
    """Two boards of one identity share the Tower's options, rows table emptied between them (the
    row is the card's: one lookup by state and identity); another identity has its own."""
    def tower(prefix: str, identity: str) -> object:
        supply = build_supply(load_state(_board(prefix, identity, "Command Tower")), "you", True)
        (cls,) = supply.classes
        return cls.options
    first = tower("k", "R")
    build._ROWS.clear()
    assert tower("l", "R") is first
    other = tower("m", "U")
    assert other is not first and other == tower("n", "U")
