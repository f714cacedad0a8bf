"""Boards whose permanents differ only in their ids (as a client's object ids differ from game to
game) are read and grouped from what each permanent is: the same permanents, rows and answers, with
each id where the board puts it."""

from __future__ import annotations

from typing import Any

from manasolver.models.board.load import load_state
from manasolver.solver.service.protocol import answer
from manasolver.solver.supply.build import build_supply


def _board(prefix: str) -> dict[str, Any]:
    return {"players": [{"name": "you", "commander": ["Kenrith, the Returned King"]}, {"name": "them"}],
            "battlefield": [{"id": f"{prefix}1", "card": "Forest"},
                            {"id": f"{prefix}2", "card": "Llanowar Elves", "sick": True},
                            {"id": f"{prefix}3", "card": "Coldsteel Heart", "chosen": {"color": "U"}},
                            {"id": f"{prefix}4", "card": "Command Tower", "tapped": True},
                            {"id": f"{prefix}5", "card": "Arcane Signet"},
                            {"id": f"{prefix}6", "card": "Forest", "controller": "them"}]}


def test_a_permanent_read_before_under_another_id_gets_this_boards_id() -> None:
    first, second = load_state(_board("a")), load_state(_board("b"))
    assert [p.id for p in second.battlefield] == ["b1", "b2", "b3", "b4", "b5", "b6"]
    for a, b in zip(first.battlefield, second.battlefield):
        assert a.card is b.card and (a.tapped, a.sick, a.chosen_color, a.controller) == \
            (b.tapped, b.sick, b.chosen_color, b.controller)


def test_supply_classes_name_this_boards_ids_after_a_board_with_other_ids() -> None:
    build_supply(load_state(_board("a")), "you")
    got = build_supply(load_state(_board("c")), "you")
    ids = {i for cls in got.classes for i in cls.members}
    assert ids == {"c1", "c3", "c5"}  # the sick Elves and the tapped Tower add nothing now (CR 302.6, 107.5)


def test_payment_names_this_boards_ids_coldsteel_heart_chosen_blue() -> None:
    """Coldsteel Heart adds its chosen color (CR 614.12); the same answer on both boards but for ids."""
    a = answer({"query": "pay", "state": _board("a"), "cost": "{1}{U}"})
    b = answer({"query": "pay", "state": _board("d"), "cost": "{1}{U}"})
    assert a["payable"] and b["payable"]
    assert [x["permanent"].replace("a", "d", 1) for x in a["payment"]["activations"]] == \
        [x["permanent"] for x in b["payment"]["activations"]]
    assert any(x["permanent"] == "d3" and x["mana"] == "{U}" for x in b["payment"]["activations"])


def test_an_excluded_permanent_is_named_by_this_boards_id() -> None:
    """A permanent the engine leaves out is reported under its own id on every board."""
    def board(prefix: str) -> dict[str, Any]:
        return {"players": [{"name": "you"}],
                "battlefield": [{"id": f"{prefix}1", "card": "Forest"},
                                {"id": f"{prefix}2", "card": "Wizard's Rockets"}]}
    answer({"query": "can_pay", "state": board("a"), "cost": "{G}{G}"})
    got = answer({"query": "can_pay", "state": board("e"), "cost": "{G}{G}"})
    assert "e2" in str(got) and "a2" not in str(got), got


def test_a_permanent_sent_again_under_its_own_id_is_an_equal_permanent() -> None:
    """A client whose ids repeat from board to board gets its permanents back equal to those built
    before, those of plain fields (a card, its controller, tapped, sick) and one with more
    (Coldsteel Heart's chosen color) alike; and a new id a permanent with that id."""
    first, again, other = load_state(_board("f")), load_state(_board("f")), load_state(_board("g"))
    assert first.battlefield == again.battlefield
    assert all(a is not c and c.id == "g" + a.id[1:] for a, c in zip(first.battlefield, other.battlefield))


def test_remembered_rows_follow_each_permanents_own_tapped_and_sick_state() -> None:
    """A plain card's rows are remembered per tapped and summoning-sick state, with and without
    resources (CR 107.5, 302.6): a board that swaps which Forest is tapped and which Elves are sick
    gets, for each permanent, the row of its own state."""
    def board(prefix: str, flip: bool) -> dict[str, Any]:
        return {"players": [{"name": "you"}],
                "battlefield": [{"id": f"{prefix}1", "card": "Forest", "tapped": flip},
                                {"id": f"{prefix}2", "card": "Forest", "tapped": not flip},
                                {"id": f"{prefix}3", "card": "Llanowar Elves", "sick": flip},
                                {"id": f"{prefix}4", "card": "Llanowar Elves", "sick": not flip}]}
    for resources in (False, True):
        first = build_supply(load_state(board("h", False)), "you", resources)
        assert {i for cls in first.classes for i in cls.members} == {"h1", "h3"}
        again = build_supply(load_state(board("i", True)), "you", resources)
        assert {i for cls in again.classes for i in cls.members} == {"i2", "i4"}
