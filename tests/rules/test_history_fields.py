"""The game's history and earlier choices given on the board, read by the cards that need
them: ``lands_played_this_turn`` (River of Tears), ``life_gained_this_turn`` (Accomplished
Alchemist), ``imprinted`` (Chrome Mox), and the charge counters without which Jeweled Amulet and
Ice Cauldron can't be activated.  Where a field is missing and the answer depends on it, the answer
is ``unsupported`` naming the field, never a guess.  Every payment is checked by ``validate``.
"""

from __future__ import annotations

from typing import Any

import pytest
from manasolver.models.board.dump import state_to_json
from manasolver.models.board.load import load_state
from manasolver.solver.service.protocol import answer

from cards import json_board, pay_validated as _pay


def _board(*cards: str | dict[str, Any], **player: Any) -> dict[str, Any]:
    state = json_board(*cards)
    state["players"][0].update(player)
    return state


def _refused(out: dict[str, Any], where: str) -> None:
    assert out["error"]["code"] == "unsupported", out
    assert out["error"]["where"] == where, out


def test_history_fields_load_and_round_trip() -> None:
    """On the board: the player's history fields, a permanent's imprinted cards and chosen name are read,
    written back by the dump, and their defaults kept (0, 0, not given; not given)."""
    raw = _board({"card": "Chrome Mox", "imprinted": ["Lightning Bolt"]},
                 {"card": "Alpine Moon", "chosen": {"name": "Urza's Tower"}},
                 lands_played_this_turn=1, spells_cast_this_turn=2, life_gained_this_turn=3)
    state = load_state(raw)
    you = state.players[0]
    assert (you.lands_played_this_turn, you.spells_cast_this_turn, you.life_gained_this_turn) == (1, 2, 3)
    assert [c.name for c in state.battlefield[0].imprinted or ()] == ["Lightning Bolt"]
    assert state.battlefield[1].chosen_name == "Urza's Tower"
    assert load_state(state_to_json(state)) == state
    plain = load_state(_board("Forest"))
    assert (plain.players[0].lands_played_this_turn, plain.players[0].life_gained_this_turn) == (0, None)
    assert plain.battlefield[0].imprinted is None


@pytest.mark.parametrize("player, where", [
    ({"lands_played_this_turn": -1}, "players[0].lands_played_this_turn"),
    ({"life_gained_this_turn": "3"}, "players[0].life_gained_this_turn"),
    ({"spells_cast_this_turn": True}, "players[0].spells_cast_this_turn"),
])
def test_history_fields_bad_values_name_the_field(player: dict[str, Any], where: str) -> None:
    out = answer({"query": "can_pay", "state": _board("Forest", **player), "cost": "{G}"})
    assert out["error"]["code"] == "bad_state" and out["error"]["where"] == where


def test_imprinted_bad_entry_names_its_position() -> None:
    out = answer({"query": "can_pay", "state": _board({"card": "Chrome Mox", "imprinted": [3]}), "cost": "{G}"})
    assert out["error"]["code"] == "bad_state" and out["error"]["where"] == "battlefield[0].imprinted[0]"


def test_river_of_tears_adds_black_after_a_land_drop() -> None:
    """River of Tears: "{T}: Add {U}. If you played a land this turn, add {B} instead."; the
    board's lands_played_this_turn defaults to 0."""
    assert _pay(_board("River of Tears"), "{U}")["payable"] is True
    assert _pay(_board("River of Tears"), "{B}")["payable"] is False
    played = _board("River of Tears", lands_played_this_turn=1)
    assert _pay(played, "{B}")["payable"] is True
    assert _pay(played, "{U}")["payable"] is False


def test_river_of_tears_beside_three_basics_is_answered() -> None:
    """The survey's board: {1}{G} paid, no source left out."""
    out = _pay(_board("River of Tears", "Plains", "Island", "Forest"), "{1}{G}")
    assert out["payable"] is True and "unsupported" not in out


def test_chrome_mox_adds_the_exiled_cards_colors() -> None:
    """Chrome Mox: "{T}: Add one mana of any of the exiled card's colors." (CR 607.2a: the
    linked imprint ability's card)."""
    bolt = _board({"card": "Chrome Mox", "imprinted": ["Lightning Bolt"]})
    assert _pay(bolt, "{R}")["payable"] is True
    assert _pay(bolt, "{G}")["payable"] is False
    gold = _board({"card": "Chrome Mox", "imprinted": ["Lightning Helix"]})
    assert _pay(gold, "{W}")["payable"] is True and _pay(gold, "{R}")["payable"] is True
    assert _pay(_board({"card": "Chrome Mox", "imprinted": []}), "{R}")["payable"] is False  # nothing exiled


def test_chrome_mox_without_imprinted_names_the_field() -> None:
    """Chrome Mox without ``imprinted``: a cost the rest pays is answered without it and the
    answer names it (``unsupported``); a cost only it might pay is refused naming the field."""
    answered = _pay(_board("Plains", {"card": "Chrome Mox"}), "{W}")
    assert answered["payable"] is True and answered["unsupported"][0]["permanent"] == "p1", answered
    _refused(_pay(_board("Plains", {"card": "Chrome Mox"}), "{W}{R}"), "battlefield[1].imprinted")
    # tapped, it adds nothing whatever was exiled: no need to know
    assert _pay(_board({"card": "Chrome Mox", "tapped": True}, "Forest"), "{G}")["payable"] is True


def test_accomplished_alchemist_adds_the_life_gained_this_turn() -> None:
    """Accomplished Alchemist: "{T}: Add X mana of any one color, where X is the amount of life you
    gained this turn." (CR 107.3)."""
    state = _board("Accomplished Alchemist", life_gained_this_turn=3)
    assert _pay(state, "{G}{G}{G}")["payable"] is True
    four = _pay(state, "{G}{G}{G}{G}")
    assert four.get("payable") is False, four
    assert _pay(state, "{G}{U}")["payable"] is False  # one color
    none = _board("Accomplished Alchemist", life_gained_this_turn=0)
    assert _pay(none, "{W}")["payable"] is True  # its other ability
    assert _pay(none, "{W}{W}")["payable"] is False


def test_accomplished_alchemist_without_life_gained_names_the_field() -> None:
    _refused(_pay(_board("Accomplished Alchemist"), "{G}"), "players[0].life_gained_this_turn")


@pytest.mark.parametrize("name", ["Jeweled Amulet", "Ice Cauldron"])
def test_noted_mana_without_a_charge_counter_adds_nothing(name: str) -> None:
    """Jeweled Amulet / Ice Cauldron: "{T}, Remove a charge counter from ~: Add … ~'s last noted
    type": without a charge counter the cost can't be paid (CR 118.3), so the answer needs no
    noted type; with one, the noted type is not on the board and the answer says so."""
    out = _pay(_board(name, "Plains", "Island", "Forest"), "{1}{G}")
    assert out["payable"] is True and "unsupported" not in out
    assert _pay(_board(name), "{G}")["payable"] is False
    _refused(_pay(_board({"card": name, "counters": {"charge": 1}}), "{G}"), "battlefield.p0")


def test_kyren_toy_adds_x_plus_one() -> None:
    """Kyren Toy: "{T}, Remove X charge counters from ~: Add an amount of {C} equal to X plus one."
    (CR 107.3: X may be 0)."""
    assert _pay(_board("Kyren Toy"), "{1}")["payable"] is True
    assert _pay(_board("Kyren Toy"), "{2}")["payable"] is False
    two = _board({"card": "Kyren Toy", "counters": {"charge": 2}})
    assert _pay(two, "{3}")["payable"] is True
    assert _pay(two, "{4}")["payable"] is False


@pytest.mark.parametrize("name, missing", [
    ("Druid of the Sacred Beaker", "the permanents' watermarks"),
])
def test_history_the_board_does_not_hold_is_left_out_naming_it(name: str, missing: str) -> None:
    """What the board gives no field for is never guessed: the source is left out of the supply, the
    answer naming what the board does not hold; the payment without it is legal."""
    out = _pay(_board(name, "Forest"), "{G}")
    assert out["payable"] is True
    (gap,) = out["unsupported"]
    assert gap["permanent"] == "p0" and missing in gap["reason"]


def test_phyrexian_revoker_with_a_chosen_name_stops_those_sources_602_5() -> None:
    """Phyrexian Revoker ("choose a nonland card name … Activated abilities of sources with the chosen
    name can't be activated."): with chosen.name given, a Sol Ring of that name adds nothing and other
    sources are untouched; without it, the answer names the field where a source could be reached."""
    revoker = {"card": "Phyrexian Revoker", "controller": "opp", "chosen": {"name": "Sol Ring"}}
    state = _board(revoker, "Sol Ring", "Forest")
    assert _pay(state, "{2}")["payable"] is False
    assert _pay(state, "{1}")["payable"] is True
    other = _board(dict(revoker, chosen={"name": "Mind Stone"}), "Sol Ring", "Forest")
    assert _pay(other, "{3}")["payable"] is True
    unnamed = {"card": "Phyrexian Revoker", "controller": "opp"}
    _refused(_pay(_board(unnamed, "Sol Ring"), "{2}"), "battlefield[0].chosen")


def test_phyrexian_revoker_may_name_a_card_in_the_hand() -> None:
    """A Spirit Guide in the hand is a source with a mana ability (CR 605.1a): Revoker naming it, or
    naming nothing given, is refused rather than ignored; naming another card changes nothing."""
    hand = {"hand": ["Elvish Spirit Guide"]}
    unnamed = {"card": "Phyrexian Revoker", "controller": "opp"}
    assert _pay(_board(unnamed, "Forest", **hand), "{G}{G}")["error"]["code"] == "unsupported"
    named = dict(unnamed, chosen={"name": "Elvish Spirit Guide"})
    assert _pay(_board(named, "Forest", **hand), "{G}{G}")["error"]["code"] == "unsupported"
    elsewhere = dict(unnamed, chosen={"name": "Sol Ring"})
    assert _pay(_board(elsewhere, "Forest", **hand), "{G}{G}")["payable"] is True


@pytest.mark.parametrize("name, field", [("Accomplished Alchemist", "life_gained_this_turn"),
                                         ("Chrome Mox", "imprinted"), ("Extraplanar Lens", "imprinted")])
def test_survey_board_with_history_fields_answers_the_cards_that_read_them(name: str, field: str) -> None:
    """On the board: a card whose mana reads a history field is left out naming the field on the survey's
    plain board (the basics pay the cost; a cost only it might pay is refused), and answered
    (nothing left out) on the same board with the fields given, as ``benchmarks/survey.py --history`` asks."""
    from manasolver.benchmarks.survey import COST, board
    plain = answer({"query": "pay", "state": board(name), "cost": COST})
    if "error" in plain:  # an effect on other lands' mana (Extraplanar Lens): refused
        assert plain["error"]["code"] == "unsupported" and field in plain["error"]["message"]
    else:
        assert plain["payable"] is True and field in plain["unsupported"][0]["reason"], plain
    given = answer({"query": "pay", "state": board(name, history=True), "cost": COST})
    assert given["payable"] is True and "unsupported" not in given
    check = answer({"query": "validate", "state": board(name, history=True), "cost": COST,
                    "payment": given["payment"]})
    assert check["legal"] is True
