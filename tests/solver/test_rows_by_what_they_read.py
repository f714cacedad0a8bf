"""Rows remembered by what their permanent reads of the board: whether an ability's condition holds,
a count's value, the color chosen as it entered, its own counters.  Boards that differ in what is
read get their own rows, in any order, as a board read for the first time does."""

from __future__ import annotations

from typing import Any

from manasolver.models.board.load import load_state
from manasolver.solver.supply.build import build_supply
from manasolver.solver.supply.model import Supply


def _board(*cards: dict[str, Any]) -> dict[str, Any]:
    return {"players": [{"name": "you"}, {"name": "them"}],
            "battlefield": [{"id": f"p{i}", **c} for i, c in enumerate(cards)]}


def _slots(supply: Supply, name: str) -> list[tuple[int, ...]]:
    return sorted(o.slots for k in supply.classes if k.name == name for o in k.options)


def _temple_board(lands: int) -> dict[str, Any]:
    return _board({"card": "Temple of the False God"}, *({"card": "Wastes"} for _ in range(lands - 1)))


def test_temple_of_the_false_god_row_follows_its_condition_602_5b() -> None:
    """Temple of the False God: "Activate only if you control five or more lands." (CR 602.5b): no
    option with four lands, {C}{C} with five, and none again with four."""
    for lands, made in ((4, []), (5, [(32, 32)]), (4, []), (5, [(32, 32)])):
        assert _slots(build_supply(load_state(_temple_board(lands)), "you", resources=True),
                      "Temple of the False God") == made, lands


def test_tainted_field_row_follows_whether_you_control_a_swamp_602_5b() -> None:
    """Tainted Field: "{T}: Add {W} or {B}. Activate only if you control a Swamp." beside its
    "{T}: Add {C}.": the Swamp the board holds (yours, not an opponent's) decides."""
    white_black = [(1,), (4,), (32,)]
    for swamp, made in (("you", white_black), ("them", [(32,)]), (None, [(32,)]), ("you", white_black)):
        cards: list[dict[str, Any]] = [{"card": "Tainted Field"}]
        if swamp is not None:
            cards.append({"card": "Swamp", "controller": swamp, "tapped": True})
        assert _slots(build_supply(load_state(_board(*cards)), "you", resources=True), "Tainted Field") == made


def test_thriving_heath_adds_the_color_chosen_as_it_entered_614_12() -> None:
    """Thriving Heath: "{T}: Add {W} or one mana of the chosen color.": each board's chosen color."""
    for color, bit in (("U", 2), ("B", 4), ("U", 2)):
        supply = build_supply(load_state(_board({"card": "Thriving Heath", "chosen": {"color": color}})), "you",
                              resources=True)
        assert _slots(supply, "Thriving Heath") == sorted([(1,), (bit,)]), color


def test_everflowing_chalice_adds_one_colorless_per_charge_counter_107_1b() -> None:
    """Everflowing Chalice: "{T}: Add {C} for each charge counter on Everflowing Chalice.": its own
    counters, board after board."""
    for n in (2, 0, 3, 2):
        chalice = {"card": "Everflowing Chalice", "counters": {"charge": n}} if n else {"card": "Everflowing Chalice"}
        supply = build_supply(load_state(_board(chalice)), "you", resources=True)
        assert _slots(supply, "Everflowing Chalice") == ([(32,) * n] if n else []), n


def test_urzas_tower_row_follows_whether_tron_is_complete_605_1a() -> None:
    """Urza's Tower: "{T}: Add {C}. If you control an Urza's Mine and an Urza's Power Plant, add {C}{C}{C}
    instead.": one {C} without the other two, three with them, board after board in either order."""
    tron = ({"card": "Urza's Mine", "tapped": True}, {"card": "Urza's Power Plant", "tapped": True})
    for complete, made in ((True, [(32, 32, 32)]), (False, [(32,)]), (True, [(32, 32, 32)]), (False, [(32,)])):
        board = _board({"card": "Urza's Tower"}, *(tron if complete else tron[:1]))
        assert _slots(build_supply(load_state(board), "you", resources=True), "Urza's Tower") == made, complete


def test_storage_land_row_follows_its_storage_counters_602_5b() -> None:
    """Dreadship Reef: "{T}: Add {C}.", "{1}, {T}: Put a storage counter on Dreadship Reef." and "{T},
    Remove X storage counters from Dreadship Reef: Add X mana in any combination of {U} and/or {B}.":
    the most one activation adds follows its counters (one {C} without any), board after board."""
    def most(n: int) -> int:
        reef = {"card": "Dreadship Reef", "counters": {"storage": n}} if n else {"card": "Dreadship Reef"}
        supply = build_supply(load_state(_board(reef)), "you", resources=True)
        return max((len(o.slots) for k in supply.classes if k.name == "Dreadship Reef" for o in k.options), default=0)
    assert [most(n) for n in (2, 0, 3, 2)] == [2, 1, 3, 2]
