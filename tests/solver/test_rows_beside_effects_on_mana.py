"""On a board with effects on mana, the permanents no effect reaches keep the supply rows of a board
without them (remembered by what each permanent is), and those the effects reach have theirs made
on the board; every permanent stays its own class there, and the answers are those of rows all made
on the board."""

from __future__ import annotations

import json
from typing import Any

from manasolver.models.board.load import load_state
from manasolver.models.rules.board_effects import reached_by_effects
from manasolver.solver.service.protocol import answer
from manasolver.solver.supply import build
from manasolver.solver.supply.build import build_supply


def _board(prefix: str, extra: list[dict[str, Any]]) -> dict[str, Any]:
    return {"players": [{"name": "you"}, {"name": "them"}],
            "battlefield": [{"id": f"{prefix}1", "card": "Forest"},
                            {"id": f"{prefix}2", "card": "Forest"},
                            {"id": f"{prefix}3", "card": "Sol Ring"},
                            {"id": f"{prefix}4", "card": "Llanowar Elves"},
                            {"id": f"{prefix}5", "card": "Forest", "controller": "them"}] + extra}


def test_cr_605_1b_wild_growth_reaches_only_its_land() -> None:
    state = load_state(_board("a", [{"id": "a6", "card": "Wild Growth", "attached_to": "a1"}]))
    assert reached_by_effects(state) == frozenset({"a1"})


def test_cr_613_1f_chromatic_lantern_reaches_the_lands_of_its_controller() -> None:
    state = load_state(_board("b", [{"id": "b6", "card": "Chromatic Lantern"}]))
    assert reached_by_effects(state) == frozenset({"b1", "b2"})


def test_cr_613_1d_blood_moon_reaches_every_land_and_nothing_else() -> None:
    """Layer 4 changes the types of lands alone (CR 305.7): Sol Ring and the Elves keep theirs."""
    state = load_state(_board("c", [{"id": "c6", "card": "Blood Moon"}]))
    assert reached_by_effects(state) == frozenset({"c1", "c2", "c5"})


def test_cr_305_7_spreading_seas_reaches_its_land_alone() -> None:
    """An Aura changing its land's type (layer 4) reaches that land and no other permanent."""
    state = load_state(_board("s", [{"id": "s6", "card": "Spreading Seas", "attached_to": "s2"}]))
    assert reached_by_effects(state) == frozenset({"s2"})


def test_cr_613_1d_answers_beside_land_type_changes_equal_answers_with_rows_made_on_the_board() -> None:
    """Under Stormtide Leviathan (every land an Island) and Blood Moon the lands' rows are made on
    the board, Sol Ring's and the Elves' are those of a board without them: the answers are those
    of rows all made on the board."""
    def board(prefix: str, card: str) -> dict[str, Any]:
        return _board(prefix, [{"id": f"{prefix}6", "card": card}])
    costs = ("{U}{U}{G}", "{2}{G}{G}", "{U}{U}{U}{U}")
    for card, n in (("Stormtide Leviathan", 0), ("Blood Moon", 1)):
        build._ROWS.clear()
        for perm in load_state(board("z", card)).battlefield:  # (rows a card keeps in its facts too)
            perm.card.facts.supply_info = None
        fresh = [answer({"query": "pay", "state": board(f"f{n}", card), "cost": cost}) for cost in costs]
        answer({"query": "pay", "state": _board(f"g{n}", []), "cost": "{1}"})  # rows remembered by what each is
        again = [answer({"query": "pay", "state": board(f"h{n}", card), "cost": cost}) for cost in costs]
        assert json.dumps(fresh) == json.dumps(again).replace(f'"h{n}', f'"f{n}'), card
    assert [a["payable"] for a in fresh] == [False, True, False]


def test_cr_605_1b_wild_growth_land_adds_two_the_other_rows_as_without_it() -> None:
    """Rows remembered from a plain board serve the Forest, Sol Ring and Elves Wild Growth does not
    enchant; each permanent is its own class, as on every board with effects on mana."""
    build_supply(load_state(_board("d", [])), "you", resources=True)
    got = build_supply(load_state(_board("e", [{"id": "e6", "card": "Wild Growth", "attached_to": "e1"}])),
                       "you", resources=True)
    assert [cls.members for cls in got.classes] == [("e1",), ("e2",), ("e3",), ("e4",)]
    slots = {cls.members[0]: [len(o.slots) for o in cls.options] for cls in got.classes}
    assert slots == {"e1": [2], "e2": [1], "e3": [2], "e4": [1]}


def test_cr_605_1b_answers_with_remembered_rows_equal_answers_with_rows_made_on_the_board() -> None:
    def board(prefix: str) -> dict[str, Any]:
        return _board(prefix, [{"id": f"{prefix}6", "card": "Wild Growth", "attached_to": f"{prefix}2"},
                               {"id": f"{prefix}7", "card": "Chromatic Lantern"}])
    costs = ("{3}{G}{G}", "{R}{U}{4}", "{W}{W}{W}{W}")
    build._ROWS.clear()
    fresh = [answer({"query": "pay", "state": board("f"), "cost": cost}) for cost in costs]
    answer({"query": "pay", "state": _board("g", []), "cost": "{1}"})  # rows remembered by what each is
    again = [answer({"query": "pay", "state": board("h"), "cost": cost}) for cost in costs]
    assert json.dumps(fresh) == json.dumps(again).replace('"h', '"f')
    assert [a["payable"] for a in fresh] == [True, True, False]


def test_cr_603_2_manabarbs_hurts_the_lands_sol_ring_keeps_its_row() -> None:
    """Manabarbs is no effect on mana, but its trigger hurts each land tapped for mana: the lands
    are reached, Sol Ring keeps the row of a board without it, in a class of its own."""
    build_supply(load_state({"players": [{"name": "you"}], "battlefield": [{"id": "k2", "card": "Sol Ring"}]}),
                 "you", resources=True)
    state = load_state({"players": [{"name": "you"}],
                        "battlefield": [{"id": "m1", "card": "Swamp"}, {"id": "m2", "card": "Sol Ring"},
                                        {"id": "m3", "card": "Manabarbs"}]})
    assert reached_by_effects(state) == frozenset({"m1"})
    got = build_supply(state, "you", resources=True)
    assert [(cls.members, [(len(o.slots), o.damage) for o in cls.options]) for cls in got.classes] == \
        [(("m1",), [(1, 1)]), (("m2",), [(2, 0)])]


def test_cr_613_1f_a_permanent_no_effect_reaches_has_its_printed_abilities() -> None:
    """Outside the reached set, the effective abilities are the card's own (read without the board's
    effects), and those the effects reach are made on the board (Chromatic Lantern's grant)."""
    from manasolver.models.rules.board_effects import _effective, effective_mana_abilities
    state = load_state(_board("n", [{"id": "n6", "card": "Chromatic Lantern"}]))
    for perm in state.battlefield:
        got = effective_mana_abilities(state, perm)
        assert got == _effective(state, perm)
        if perm.id not in {"n1", "n2"}:
            assert got is perm.card.mana_abilities
    assert len(effective_mana_abilities(state, state.permanent("n1"))) == 2


def test_cr_701_21a_beside_wild_growth_creatures_without_mana_abilities_count_and_are_fodder() -> None:
    """Beside Wild Growth (an effect on mana), the untapped creatures the supply counts include
    those without a mana ability (Grizzly Bears) and leave out tapped ones, as on a board without
    it, and Ashnod's Altar ("Sacrifice a creature: Add {C}{C}.") may sacrifice the player's Bears,
    tapped or not, never the opponent's (CR 701.21a): two Forests, Wild Growth's {G}, Sol Ring, the
    Elves (tapped for {G}, then sacrificed too, CR 605.3a) and two Bears pay {12}, not {13}."""
    def board(prefix: str, effect: bool) -> dict[str, Any]:
        extra = [{"id": f"{prefix}7", "card": "Grizzly Bears"}, {"id": f"{prefix}8", "card": "Ashnod's Altar"},
                 {"id": f"{prefix}9", "card": "Grizzly Bears", "tapped": True},
                 {"id": f"{prefix}10", "card": "Grizzly Bears", "controller": "them"}]
        if effect:
            extra.append({"id": f"{prefix}6", "card": "Wild Growth", "attached_to": f"{prefix}1"})
        return _board(prefix, extra)
    with_growth = load_state(board("w", True))
    assert reached_by_effects(with_growth) == frozenset({"w1"})
    assert build_supply(with_growth, "you", resources=True).creatures == 2  # the Elves, the untapped Bears
    assert build_supply(load_state(board("n", False)), "you", resources=True).creatures == 2
    for cost, payable in (("{12}", True), ("{13}", False)):
        assert answer({"query": "can_pay", "state": board("q" + cost, True), "cost": cost})["payable"] is payable
