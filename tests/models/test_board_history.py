"""The board's history fields: a player's ``cards_drawn_this_turn``, ``designations`` and ``library``,
a permanent's ``entered_this_turn`` and ``renowned``.  They are read, written back by the dump,
left None when not given, and bad values are refused naming the field and its position."""

from __future__ import annotations

from typing import Any

import pytest
from manasolver.models.board.dump import state_to_json
from manasolver.models.board.load import load_state
from manasolver.models.errors import ManasolverError
from manasolver.models.state import Library
from manasolver.solver.service.protocol import answer


def _board(player: dict[str, Any] | None = None, perm: dict[str, Any] | None = None,
           other: dict[str, Any] | None = None) -> dict[str, Any]:
    return {"players": [{"name": "you", **(player or {})}, {"name": "opp", **(other or {})}],
            "battlefield": [{"id": "a", "card": "Forest", **(perm or {})}]}


def test_history_fields_load_and_round_trip() -> None:
    raw = _board({"cards_drawn_this_turn": 2, "designations": ["Monarch", "the initiative"],
                  "library": {"size": 40, "top": ["Forest", "Opt"]}},
                 {"entered_this_turn": True, "renowned": False}, {"designations": ["city’s blessing"]})
    state = load_state(raw)
    you, opp = state.players
    assert you.cards_drawn_this_turn == 2
    assert you.designations == {"monarch", "initiative"}
    assert opp.designations == {"city's blessing"}
    assert isinstance(you.library, Library) and you.library.size == 40
    assert [c.name for c in you.library.top] == ["Forest", "Opt"]
    assert (state.battlefield[0].entered_this_turn, state.battlefield[0].renowned) == (True, False)
    assert load_state(state_to_json(state)) == state


def test_history_fields_default_to_not_given() -> None:
    state = load_state(_board())
    you = state.players[0]
    assert (you.cards_drawn_this_turn, you.designations, you.library) == (0, None, None)
    assert (state.battlefield[0].entered_this_turn, state.battlefield[0].renowned) == (None, None)
    assert "library" not in state_to_json(state)["players"][0]


@pytest.mark.parametrize(("player", "perm", "other", "where", "words"), [
    ({"library": {"size": 1, "top": ["Forest", "Opt"]}}, None, None, "players[0].library.top", "holds 1"),
    ({"library": {"top": []}}, None, None, "players[0].library.size", "size"),
    ({"library": {"size": -1}}, None, None, "players[0].library.size", "negative"),
    ({"library": {"size": 3, "tops": []}}, None, None, "players[0].library.tops", "did you mean 'top'"),
    ({"library": {"size": 3, "top": ["Forest", 7]}}, None, None, "players[0].library.top[1]", "a name"),
    ({"library": {"size": 3, "top": ["Forestt"]}}, None, None, "players[0].library.top[0]", "Forest"),
    ({"library": [1]}, None, None, "players[0].library", "object"),
    ({"designations": ["king"]}, None, None, "players[0].designations[0]", "monarch"),
    ({"designations": ["monarch", "monarch"]}, None, None, "players[0].designations[1]", "twice"),
    ({"designations": "monarch"}, None, None, "players[0].designations", "list"),
    ({"designations": ["monarch"]}, None, {"designations": ["monarch"]}, "players[1].designations",
     "one player"),
    ({"designations": ["initiative"]}, None, {"designations": ["the initiative"]}, "players[1].designations",
     "one player"),
    ({"cards_drawn_this_turn": -1}, None, None, "players[0].cards_drawn_this_turn", "negative"),
    ({"cards_drawn_this_turn": "2"}, None, None, "players[0].cards_drawn_this_turn", "integer"),
    (None, {"entered_this_turn": "yes"}, None, "battlefield[0].entered_this_turn", "true or false"),
    (None, {"renowned": 1}, None, "battlefield[0].renowned", "true or false"),
    (None, {"renown": True}, None, "battlefield[0].renown", "renowned"),
])
def test_bad_history_fields_name_field_and_position(player: dict[str, Any] | None, perm: dict[str, Any] | None,
                                                    other: dict[str, Any] | None, where: str, words: str) -> None:
    with pytest.raises(ManasolverError) as err:
        load_state(_board(player, perm, other))
    assert err.value.where == where
    assert words in str(err.value)
    out = answer({"query": "pay", "state": _board(player, perm, other), "cost": "{G}"})
    assert out["error"]["where"] == where, out


def test_city_blessing_is_not_exclusive() -> None:
    """CR 702.131: every player can have the city's blessing; only the monarch (CR 724) and the
    initiative (CR 725) are one player's at a time."""
    state = load_state(_board({"designations": ["city's blessing"]}, None, {"designations": ["city's blessing"]}))
    assert all(p.designations == {"city's blessing"} for p in state.players)
