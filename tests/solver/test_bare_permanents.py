"""A permanent whose card has no mana ability and no clause about mana the parser left (most
creatures) holds nothing of a supply on a board without effects on mana: no row is made for it, and
it counts only as an untapped creature (what convoke may tap, CR 702.51).  An effect that reaches it
(one granting creatures a mana ability) has its row made on the board."""

from __future__ import annotations

from typing import Any

from manasolver.models.board.load import load_state
from manasolver.solver.supply import build
from manasolver.solver.supply.build import build_supply


def _board(prefix: str, *extra: dict[str, Any]) -> dict[str, Any]:
    return {"players": [{"name": "you"}, {"name": "them"}],
            "battlefield": [{"id": f"{prefix}1", "card": "Forest"},
                            {"id": f"{prefix}2", "card": "Grizzly Bears"},
                            {"id": f"{prefix}3", "card": "Grizzly Bears", "tapped": True},
                            {"id": f"{prefix}4", "card": "Grizzly Bears", "sick": True},
                            {"id": f"{prefix}5", "card": "Llanowar Elves"},
                            {"id": f"{prefix}6", "card": "Overlord of the Hauntwoods", "cast_for": "impending",
                             "counters": {"time": 4}},
                            {"id": f"{prefix}7", "card": "Grizzly Bears", "controller": "them"}, *extra]}


def _forget(state: Any) -> None:
    """Forget every row remembered of the board's cards (in their facts and across boards)."""
    build._ROWS.clear()
    for perm in state.battlefield:
        perm.card.facts.supply_info = None


def test_cr_702_51_bare_permanents_count_as_untapped_creatures_without_a_row() -> None:
    """The untapped Bears (sick or not) count, the tapped one and the impending Overlord (not a
    creature while it has a time counter, CR 702.176a) do not, nor the opponent's; no row is made of
    a Bears or the Overlord (nothing is kept in their cards' facts)."""
    state = load_state(_board("a"))
    _forget(state)
    for resources in (False, True):
        got = build_supply(state, "you", resources=resources)
        assert got.creatures == 3  # a2, a4, a5
        assert [cls.members for cls in got.classes if not cls.hand] == [("a1",), ("a5",)]
        assert not got.excluded
    assert state.battlefield[1].card.facts.supply_info is None
    assert state.battlefield[5].card.facts.supply_info is None


def test_cr_613_1f_bare_permanents_out_of_reach_of_an_effect_count_without_a_row() -> None:
    """Chromatic Lantern reaches its controller's lands alone: the Bears beside it have no row."""
    state = load_state(_board("b", {"id": "b8", "card": "Chromatic Lantern"}))
    _forget(state)
    got = build_supply(state, "you", resources=True)
    assert got.creatures == 3
    assert [cls.members for cls in got.classes if not cls.hand] == [("b1",), ("b5",), ("b8",)]
    assert state.battlefield[1].card.facts.supply_info is None


def test_cr_613_1f_a_granted_mana_ability_reaches_a_bare_permanent() -> None:
    """Cryptolith Rite gives the creatures "{T}: Add one mana of any color": the untapped Bears
    that are not summoning sick (CR 302.6) are sources, in classes of their own."""
    state = load_state(_board("c", {"id": "c8", "card": "Cryptolith Rite"}))
    got = build_supply(state, "you", resources=True)
    assert got.creatures == 3
    assert [cls.members for cls in got.classes if not cls.hand] == [("c1",), ("c2",), ("c5",)]
