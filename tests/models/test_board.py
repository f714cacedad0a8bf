"""Board JSON: loading, path-aware errors, limits, status() and the round trip.

Every error test checks the error class, the protocol code and the exact ``where``.
"""

from __future__ import annotations

import copy
import json
import time
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from manasolver.models.board.dump import state_to_json
from manasolver.models.board.load import (
    LIMITS,
    load_state,
    status,
)
from manasolver.models.errors import (
    BadCost,
    BadState,
    ManasolverError,
    UnknownCard,
    UnknownField,
    Unsupported,
)
from manasolver.models.state import GameState, Library
from paths import EXAMPLES

EXAMPLES = EXAMPLES

BOARD_EXAMPLE: dict[str, Any] = {
    "players": [
        {"name": "you", "life": 20, "starting_life": 20, "energy": 0, "pool": "{R}",
         "hand": ["Counterspell"], "graveyard": ["Bonecrusher Giant"]},
        {"name": "opponent", "life": 20},
    ],
    "turn": {"active": "you", "step": "main1", "stack_empty": True},
    "battlefield": [
        {"id": "f1", "card": "Forest", "controller": "you"},
        {"id": "elf", "card": "Llanowar Elves", "controller": "you", "sick": True},
        {"id": "pool", "card": "Reflecting Pool", "controller": "you", "tapped": True},
        {"id": "dork", "controller": "you", "name": "Test Dork", "type_line": "Creature — Elf",
         "mana_cost": "{G}", "oracle_text": "{T}: Add {G}."},
    ],
}


def board(*permanents: dict[str, Any], **player: Any) -> dict[str, Any]:
    """A one-player board (plus an opponent) with the given permanents."""
    you = {"name": "you", **player}
    return {"players": [you, {"name": "opp"}], "battlefield": list(permanents)}


def refused(obj: object, kind: type[ManasolverError], where: str) -> ManasolverError:
    """Load ``obj``, expect ``kind`` at exactly ``where``; return the error."""
    with pytest.raises(kind) as info:
        load_state(obj)
    err = info.value
    assert err.where == where, (err.where, err.message)
    assert err.to_json()["error"]["where"] == where
    assert err.to_json()["error"]["code"] == kind.code
    return err


# -- loading the example board ----------------------------------------------------------------------

def test_spec_example_loads() -> None:
    state = load_state(BOARD_EXAMPLE)
    assert isinstance(state, GameState)
    you = state.player()
    assert you.name == "you" and you.pool.format() == "{R}"
    assert [c.name for c in you.hand] == ["Counterspell"]
    assert [p.id for p in state.battlefield] == ["f1", "elf", "pool", "dork"]
    elf = state.permanent("elf")
    assert elf.sick and elf.summoning_sick          # CR 302.6
    assert state.permanent("pool").tapped
    dork = state.permanent("dork")
    assert dork.card.name == "Test Dork" and dork.card.mana_cost is not None
    assert dork.card.color_letters == ["G"]


def test_defaults_first_player_main_phase_empty_stack() -> None:
    """On the board: turn defaults to the first player's main phase with an empty stack; a
    permanent's controller defaults to the first player; life 20."""
    state = load_state({"players": [{"name": "a"}, {"name": "b"}],
                        "battlefield": [{"id": "1", "card": "Forest"}]})
    assert (state.turn.active, state.turn.step, state.turn.stack_empty) == ("a", "main1", True)
    assert state.battlefield[0].controller == "a"
    p = state.player()
    assert (p.life, p.starting_life, p.energy, p.pool.format(), p.hand, p.graveyard) == \
        (20, 20, 0, "", (), ())
    perm = state.battlefield[0]
    assert not (perm.tapped or perm.sick or perm.haste or perm.token)
    assert perm.counters == () and perm.attached_to is None and perm.x is None


def test_card_names_are_case_insensitive_and_front_face() -> None:
    """On the board: exact name, case-insensitive; the front face of a double-faced card."""
    state = load_state(board({"id": "a", "card": "llanowar elves"},
                             {"id": "b", "card": "Delver of Secrets"}))
    assert state.battlefield[0].card.name == "Llanowar Elves"
    assert state.battlefield[1].card.type_line.types == ("creature",)


def test_characteristics_override_the_database() -> None:
    """On the board: given characteristics override the database's."""
    state = load_state(board({"id": "a", "card": "Forest", "name": "Renamed Forest"},
                             {"id": "b", "card": "Llanowar Elves", "mana_cost": "{U}"}))
    assert state.battlefield[0].card.name == "Renamed Forest"
    assert state.battlefield[0].card.type_line.subtypes == ("forest",)
    elves = state.battlefield[1].card
    assert elves.mana_cost is not None and elves.mana_cost.format() == "{U}"
    assert elves.color_letters == ["U"]             # colors follow the new cost


def test_characteristics_override_a_split_card() -> None:
    """A split card (CR 709.4) with a given characteristic: both halves' characteristics are the base,
    the given mana cost replaces their sum, and the colors follow it."""
    state = load_state({"players": [{"name": "you", "hand": [{"card": "Fire // Ice", "mana_cost": "{2}{U}"}]}]})
    card = state.players[0].hand[0]
    assert card.name == "Fire // Ice" and card.type_line.types == ("instant",)
    assert card.mana_cost is not None and card.mana_cost.format() == "{2}{U}"
    assert card.color_letters == ["U"]


def test_predefined_tokens_are_tokens_by_default() -> None:
    state = load_state(board({"id": "t", "card": "Treasure"}, {"id": "e", "card": "Everywhere"},
                             {"id": "g", "card": "gold"}))
    assert all(p.token for p in state.battlefield)
    assert state.battlefield[1].card.type_line.types == ("land",)


def test_counters_are_sorted_and_zero_counts_dropped() -> None:
    state = load_state(board({"id": "o", "card": "Overlord of the Hauntwoods", "cast_for": "impending",
                              "counters": {"time": 4, "P1P1": 0, "Charge": 2}}))
    perm = state.battlefield[0]
    assert perm.counters == (("charge", 2), ("time", 4))
    assert perm.counter("time") == 4


def test_unicode_names() -> None:
    """Player names, ids and inline card names may be any unicode; database names with
    diacritics resolve."""
    state = load_state({
        "players": [{"name": "Jürgen 🧙", "hand": ["Lim-Dûl's Vault"]}, {"name": "東京"}],
        "battlefield": [
            {"id": "ф1", "controller": "東京", "name": "Ælfwine’s Grove 🌲",
             "type_line": "Land — Forest", "oracle_text": ""},
            {"id": "☃", "card": "Forest", "attached_to": None},
        ],
    })
    assert state.player().name == "Jürgen 🧙"
    assert state.player().hand[0].name == "Lim-Dûl's Vault"
    assert state.permanent("ф1").controller == "東京"
    assert state.permanent("ф1").card.name == "Ælfwine’s Grove 🌲"


def test_numeric_ids_are_read_as_text() -> None:
    state = load_state(board({"id": 1, "card": "Forest"}, {"id": 2, "card": "Wild Growth",
                                                          "attached_to": 1}))
    assert state.permanent("1").id == "1" and state.permanent("2").attached_to == "1"


def test_step_names_are_normalised() -> None:
    state = load_state({"players": [{"name": "a"}], "turn": {"step": "Declare Attackers"}})
    assert state.turn.step == "declare_attackers"


# -- errors with their exact path --------------------------------------------------------------------

@pytest.mark.parametrize("obj", [None, [], "board", 3, True])
def test_board_must_be_an_object(obj: object) -> None:
    refused(obj, BadState, "")


def test_unknown_top_level_field_suggests() -> None:
    err = refused({"players": [{"name": "a"}], "battlefeld": []}, UnknownField, "battlefeld")
    assert "'battlefield'" in err.message


def test_players_missing_empty_or_not_a_list() -> None:
    refused({}, BadState, "players")
    refused({"players": []}, BadState, "players")
    refused({"players": {"name": "a"}}, BadState, "players")
    refused({"players": ["a"]}, BadState, "players[0]")


def test_player_fields() -> None:
    refused({"players": [{}]}, BadState, "players[0].name")
    refused({"players": [{"name": ""}]}, BadState, "players[0].name")
    refused({"players": [{"name": 7}]}, BadState, "players[0].name")
    refused({"players": [{"name": "a"}, {"name": "a"}]}, BadState, "players[1].name")
    err = refused({"players": [{"name": "a", "lfe": 3}]}, UnknownField, "players[0].lfe")
    assert "'life'" in err.message


@pytest.mark.parametrize("field,value", [
    ("life", "20"), ("life", 20.0), ("life", True), ("life", -1), ("life", None),
    ("starting_life", False), ("starting_life", -40),
    ("energy", -1), ("energy", True), ("energy", [1]),
    ("life", 2**70),
])
def test_player_numbers_are_checked(field: str, value: object) -> None:
    """Wrong types (a bool is not an integer), negative numbers and absurd sizes."""
    refused({"players": [{"name": "a", field: value}]}, BadState, f"players[0].{field}")


@pytest.mark.parametrize("pool,where", [
    ("{2}", "players[0].pool[0]"),          # generic is a cost, not mana
    ("{R}{W/U}", "players[0].pool[1]"),     # hybrid
    ("{G}{G}{B/P}", "players[0].pool[2]"),  # Phyrexian
    ("{S}", "players[0].pool[0]"),
    ("{X}", "players[0].pool[0]"),
    ("{T}", "players[0].pool[0]"),
    ("{E}", "players[0].pool[0]"),
    ("{C/W}", "players[0].pool[0]"),
    ("R", "players[0].pool[0]"),            # not notation
    ("{R}{Q", "players[0].pool[1]"),
    (3, "players[0].pool"),
    ("{R}" * 400, "players[0].pool"),       # 1,200 characters
])
def test_bad_pool(pool: object, where: str) -> None:
    refused({"players": [{"name": "a", "pool": pool}]}, BadCost, where)


def test_pool_of_mana_types() -> None:
    state = load_state({"players": [{"name": "a", "pool": "{w}{U}{C}{C}{g}"}]})
    assert state.player().pool.format() == "{W}{U}{C}{C}{G}"


def test_hand_and_graveyard_entries() -> None:
    err = refused({"players": [{"name": "a", "hand": ["Forest", "Island", "Forrest"]}]},
                  UnknownCard, "players[0].hand[2]")
    assert isinstance(err, UnknownCard) and "Forest" in err.suggestions
    refused({"players": [{"name": "a", "hand": [3]}]}, BadState, "players[0].hand[0]")
    refused({"players": [{"name": "a", "hand": "Forest"}]}, BadState, "players[0].hand")
    refused({"players": [{"name": "a", "graveyard": [{"name": "X"}]}]}, BadState,
            "players[0].graveyard[0].type_line")
    refused({"players": [{"name": "a", "graveyard": [{"type_line": "Instant"}]}]}, BadState,
            "players[0].graveyard[0].name")
    refused({"players": [{"name": "a", "graveyard": [{"card": "Opt", "tapped": True}]}]},
            UnknownField, "players[0].graveyard[0].tapped")
    refused({"players": [{"name": "a", "graveyard": [{"card": "Opt", "mana_cost": "{U}{"}]}]},
            BadCost, "players[0].graveyard[0].mana_cost[1]")
    refused({"players": [{"name": "a", "graveyard": [{"card": "Zzzzzz Qqqq"}]}]},
            UnknownCard, "players[0].graveyard[0].card")


def test_turn_errors() -> None:
    one = [{"name": "you"}, {"name": "opp"}]
    err = refused({"players": one, "turn": {"step": "main"}}, BadState, "turn.step")
    assert "main1" in err.message
    refused({"players": one, "turn": {"step": 3}}, BadState, "turn.step")
    refused({"players": one, "turn": {"active": "nobody"}}, BadState, "turn.active")
    refused({"players": one, "turn": {"stack_empty": "yes"}}, BadState, "turn.stack_empty")
    refused({"players": one, "turn": {"stack_empty": 1}}, BadState, "turn.stack_empty")
    refused({"players": one, "turn": "main1"}, BadState, "turn")
    err = refused({"players": one, "turn": {"activ": "you"}}, UnknownField, "turn.activ")
    assert "'active'" in err.message


def test_unknown_card_on_the_battlefield_suggests_names() -> None:
    err = refused(board({"id": "a", "card": "Forest"}, {"id": "b", "card": "Island"},
                        {"id": "c", "card": "Swamp"}, {"id": "d", "card": "Llanowar Elfs"}),
                  UnknownCard, "battlefield[3].card")
    assert isinstance(err, UnknownCard) and "Llanowar Elves" in err.suggestions


@pytest.mark.parametrize("perm,kind,where", [
    ({"card": "Forest"}, BadState, "battlefield[0].id"),
    ({"id": "", "card": "Forest"}, BadState, "battlefield[0].id"),
    ({"id": True, "card": "Forest"}, BadState, "battlefield[0].id"),
    ({"id": "a"}, BadState, "battlefield[0]"),
    ({"id": "a", "card": 5}, BadState, "battlefield[0].card"),
    ({"id": "a", "card": "Forest", "taped": True}, UnknownField, "battlefield[0].taped"),
    ({"id": "a", "card": "Forest", "tapped": 1}, BadState, "battlefield[0].tapped"),
    ({"id": "a", "card": "Forest", "tapped": "true"}, BadState, "battlefield[0].tapped"),
    ({"id": "a", "card": "Llanowar Elves", "sick": 0}, BadState, "battlefield[0].sick"),
    ({"id": "a", "card": "Forest", "haste": None}, BadState, "battlefield[0].haste"),
    ({"id": "a", "card": "Forest", "token": "no"}, BadState, "battlefield[0].token"),
    ({"id": "a", "card": "Forest", "controller": "nobody"}, BadState, "battlefield[0].controller"),
    ({"id": "a", "card": "Forest", "controller": 0}, BadState, "battlefield[0].controller"),
    ({"id": "a", "card": "Forest", "counters": {"time": -1}}, BadState,
     "battlefield[0].counters.time"),
    ({"id": "a", "card": "Forest", "counters": {"time": True}}, BadState,
     "battlefield[0].counters.time"),
    ({"id": "a", "card": "Forest", "counters": {"charge": 10**6 + 1}}, BadState,
     "battlefield[0].counters.charge"),
    ({"id": "a", "card": "Forest", "counters": {"": 1}}, BadState, "battlefield[0].counters"),
    ({"id": "a", "card": "Forest", "counters": {"Time": 1, "time": 2}}, BadState,
     "battlefield[0].counters.time"),
    ({"id": "a", "card": "Forest", "counters": [["time", 3]]}, BadState, "battlefield[0].counters"),
    ({"id": "a", "card": "Forest", "x": -2}, BadState, "battlefield[0].x"),
    ({"id": "a", "card": "Forest", "x": False}, BadState, "battlefield[0].x"),
    ({"id": "a", "card": "Forest", "x": 1.5}, BadState, "battlefield[0].x"),
    ({"id": "a", "card": "Forest", "cast_for": "evoke"}, Unsupported, "battlefield[0].cast_for"),
    ({"id": "a", "card": "Forest", "cast_for": 1}, BadState, "battlefield[0].cast_for"),
    ({"id": "a", "card": "Forest", "attached_to": []}, BadState, "battlefield[0].attached_to"),
    ({"id": "a", "name": "N", "type_line": "Creature", "mana_cost": "{W/Q}"}, BadCost,
     "battlefield[0].mana_cost[0]"),
    ({"id": "a", "name": "N", "type_line": "Creature", "mana_cost": "{1}{G}{½}"}, BadCost,
     "battlefield[0].mana_cost[2]"),
    ({"id": "a", "name": "N", "type_line": "Creature", "mana_cost": "{T}"}, BadCost,
     "battlefield[0].mana_cost"),
    ({"id": "a", "name": "N", "type_line": "Creature", "mana_cost": 3}, BadCost,
     "battlefield[0].mana_cost"),
    ({"id": "a", "name": "N", "type_line": "Creature", "colors": ["W", "P"]}, BadState,
     "battlefield[0].colors[1]"),
    ({"id": "a", "name": "N", "type_line": "Creature", "colors": "red"}, BadState,
     "battlefield[0].colors[1]"),              # "r" is red, "e" is no color
    ({"id": "a", "name": "N", "type_line": 3}, BadState, "battlefield[0].type_line"),
    ({"id": "a", "name": "N", "type_line": "Land", "oracle_text": None}, BadState,
     "battlefield[0].oracle_text"),
    ({"id": "a", "name": "N"}, BadState, "battlefield[0].type_line"),
    ({"id": "a", "type_line": "Land"}, BadState, "battlefield[0].name"),
])
def test_permanent_errors(perm: dict[str, Any], kind: type[ManasolverError], where: str) -> None:
    refused(board(perm), kind, where)


def test_permanent_must_be_an_object() -> None:
    refused(board({"id": "a", "card": "Forest"}, "Forest"), BadState, "battlefield[1]")
    refused({"players": [{"name": "a"}], "battlefield": {"id": "a"}}, BadState, "battlefield")


def test_duplicate_ids() -> None:
    err = refused(board({"id": "f", "card": "Forest"}, {"id": "i", "card": "Island"},
                        {"id": "f", "card": "Swamp"}), BadState, "battlefield[2].id")
    assert "battlefield[0]" in err.message


@pytest.mark.parametrize("perms,where,first", [
    ([{"id": "a", "card": "Forest"}, {"id": "a", "card": "Island"}, {"id": "b", "card": "Forest", "tapped": 1}],
     "battlefield[1].id", "battlefield[0]"),
    ([{"id": "a", "card": "Forest"}, {"id": "a", "card": "Island"}, {"id": "b", "card": "Zzzz Qqqq"}],
     "battlefield[1].id", "battlefield[0]"),
    ([{"id": "a", "card": "Forest"}, {"id": "a", "card": "Island"}, {"id": "b", "card": "Forest", "zz": 1}],
     "battlefield[1].id", "battlefield[0]"),
    ([{"id": "a", "card": "Forest"}, {"id": "a", "card": "Wild Growth", "attached_to": "a"}],
     "battlefield[1].id", "battlefield[0]"),
    ([{"id": "a", "card": "Forest"}, {"id": "b", "card": "Forest"}, {"id": "b", "card": "Forest"},
      {"id": "a", "card": "Forest"}], "battlefield[2].id", "battlefield[1]"),
    ([{"id": "w", "card": "Wild Growth", "attached_to": "nothere"}, {"id": "w", "card": "Forest"}],
     "battlefield[1].id", "battlefield[0]"),
])
def test_a_repeated_id_is_refused_before_any_later_error(perms: list[dict[str, Any]], where: str, first: str) -> None:
    """A repeated id is refused at the first permanent that repeats one, naming the permanent it
    repeats, before the errors of the permanents after it and before an attachment to nothing."""
    err = refused(board(*perms), BadState, where)
    assert f"first used by {first}" in err.message


def test_attached_to_must_name_a_permanent() -> None:
    refused(board({"id": "f", "card": "Forest"}, {"id": "w", "card": "Wild Growth",
                                                 "attached_to": "nothere"}),
            BadState, "battlefield[1].attached_to")


def test_unknown_field_suggests_closest_permanent_field() -> None:
    err = refused(board({"id": "a", "card": "Forest", "controler": "you"}), UnknownField,
                  "battlefield[0].controler")
    assert "'controller'" in err.message
    err = refused(board({"id": "a", "card": "Forest", "zzzz": 1}), UnknownField,
                  "battlefield[0].zzzz")
    assert "tapped" in err.message                  # no close match: the fields are listed


def test_errors_are_prefixed_by_the_protocol_path() -> None:
    """The protocol puts the board under "state": the path composes."""
    with pytest.raises(UnknownCard) as info:
        load_state(board({"id": "a", "card": "Forrest"}))
    assert info.value.at("state").where == "state.battlefield[0].card"


# -- limits against hostile input ------------------------------------------------------------------

def _quick(obj: object, kind: type[ManasolverError], where: str, seconds: float = 0.5) -> None:
    start = time.perf_counter()
    refused(obj, kind, where)
    assert time.perf_counter() - start < seconds


def test_too_many_permanents_refused_before_reading_them() -> None:
    many = [{"id": str(i), "card": "Forest"} for i in range(LIMITS["permanents"] + 1)]
    _quick({"players": [{"name": "a"}], "battlefield": many}, BadState, "battlefield")


def test_huge_strings_and_lists_refused_quickly() -> None:
    long_name = "x" * 10_000_000
    _quick({"players": [{"name": long_name}]}, BadState, "players[0].name")
    _quick(board({"id": long_name, "card": "Forest"}), BadState, "battlefield[0].id")
    _quick(board({"id": "a", "card": long_name}), BadState, "battlefield[0].card")
    _quick(board({"id": "a", "name": "N", "type_line": "Land", "oracle_text": long_name}),
           BadState, "battlefield[0].oracle_text")
    _quick(board({"id": "a", "name": "N", "type_line": "Land", "oracle_text": "(" * 2000 + ")" * 2000}),
           BadState, "battlefield[0].oracle_text")
    _quick(board({"id": "a", "name": "N", "type_line": "Creature", "mana_cost": "{1}" * 10**6}),
           BadCost, "battlefield[0].mana_cost")
    _quick({"players": [{"name": "a", "hand": ["Forest"] * 1_000_000}]}, BadState,
           "players[0].hand")
    _quick({"players": [{"name": str(i)} for i in range(10**5)]}, BadState, "players")
    _quick({"players": [{"name": str(i), "hand": ["Forest"] * 9000} for i in range(3)]},
           BadState, "players[2].hand")
    inline = [{"name": f"C{i}", "type_line": "Land", "oracle_text": f"{i} " + "x" * 4990}
              for i in range(50)]
    _quick({"players": [{"name": "a", "hand": inline}]}, BadState, "players[0].hand[40]", 5.0)
    _quick(board({"id": "a", "card": "Forest", "counters": {str(i): 1 for i in range(10**5)}}),
           BadState, "battlefield[0].counters")
    _quick(board({"id": "a", "card": "Forest", "x": 10**4000}), BadState, "battlefield[0].x")


def test_ten_thousand_permanents_load() -> None:
    """The limit itself is accepted, and names are looked up once (a cache)."""
    many = [{"id": f"p{i}", "card": ("Forest", "Island", "Sol Ring", "Llanowar Elves")[i % 4],
             "tapped": i % 3 == 0} for i in range(LIMITS["permanents"])]
    start = time.perf_counter()
    state = load_state({"players": [{"name": "a"}], "battlefield": many})
    elapsed = time.perf_counter() - start
    assert len(state.battlefield) == LIMITS["permanents"]
    assert state.battlefield[2].card is state.battlefield[6].card
    assert elapsed < 5.0


# -- status(): tier 2 ----------------------------------------------------------------------------

def test_status_clean_board() -> None:
    assert status(load_state(BOARD_EXAMPLE)) == []


def _one_status(*perms: dict[str, Any], **kw: Any) -> list[str]:
    b = board(*perms)
    b.update(kw)
    return status(load_state(b))


def test_status_aura_attachments() -> None:
    """CR 303.4d / 704.5m: an Aura is attached to an object it can enchant."""
    assert _one_status({"id": "f", "card": "Forest"},
                       {"id": "w", "card": "Wild Growth", "attached_to": "f"}) == []
    (msg,) = _one_status({"id": "w", "card": "Wild Growth"})
    assert "attached to nothing" in msg and msg.startswith("battlefield[0] (w)")
    (msg,) = _one_status({"id": "e", "card": "Llanowar Elves"},
                         {"id": "w", "card": "Wild Growth", "attached_to": "e"})
    assert "not a land" in msg
    (msg,) = _one_status({"id": "w", "card": "Wild Growth", "attached_to": "w"})
    assert "itself" in msg
    msgs = _one_status({"id": "f", "card": "Forest"},
                       {"id": "s", "card": "Sol Ring", "attached_to": "f"})
    assert any("not an Aura" in m for m in msgs)


def test_status_enchant_subtype_and_equipment() -> None:
    """CR 303.4d: Utopia Sprawl (Enchant Forest) on an Island is illegal; CR 301.5c: Equipment
    attached to a noncreature becomes unattached (704.5n)."""
    assert _one_status({"id": "f", "card": "Forest"},
                       {"id": "u", "card": "Utopia Sprawl", "attached_to": "f",
                        "chosen": {"color": "G"}}) == []
    (msg,) = _one_status({"id": "i", "card": "Island"},
                         {"id": "u", "card": "Utopia Sprawl", "attached_to": "i",
                          "chosen": {"color": "G"}})
    assert "not a Forest" in msg
    (msg,) = _one_status({"id": "s", "card": "Sol Ring"},
                         {"id": "b", "card": "Bonesplitter", "attached_to": "s"})
    assert "Equipment" in msg and "704.5n" in msg
    assert _one_status({"id": "e", "card": "Llanowar Elves"},
                       {"id": "b", "card": "Bonesplitter", "attached_to": "e"}) == []


def test_status_tokens() -> None:
    (msg,) = _one_status({"id": "t", "card": "Treasure", "token": False})
    assert "predefined token" in msg
    (msg,) = _one_status({"id": "e", "card": "Llanowar Elves", "token": True})
    assert "not a predefined token" in msg
    msgs = status(load_state({"players": [{"name": "a", "graveyard": ["Treasure"]}]}))
    assert any("704.5d" in m for m in msgs)


def test_status_impending_and_x() -> None:
    assert _one_status({"id": "o", "card": "Overlord of the Hauntwoods", "cast_for": "impending",
                        "counters": {"time": 4}}) == []
    (msg,) = _one_status({"id": "e", "card": "Llanowar Elves", "cast_for": "impending"})
    assert "no impending" in msg
    assert _one_status({"id": "b", "card": "Walking Ballista", "x": 2,
                        "counters": {"+1/+1": 2}}) == []
    (msg,) = _one_status({"id": "f", "card": "Forest", "x": 3})
    assert "no X" in msg


def test_status_sick_noncreature_is_harmless_but_named() -> None:
    """CR 302.6: summoning sickness matters only for creatures."""
    (msg,) = _one_status({"id": "m", "card": "Mind Stone", "sick": True})
    assert "not a creature" in msg and "harmless" in msg


def test_status_untap_step_with_tapped_permanents() -> None:
    """CR 502.3: the active player's permanents untap in the untap step."""
    msgs = _one_status({"id": "f", "card": "Forest", "tapped": True},
                       turn={"active": "you", "step": "untap"})
    assert any("502.3" in m and "f" in m for m in msgs)
    # the opponent's tapped permanents do not untap in your untap step
    assert _one_status({"id": "f", "card": "Forest", "tapped": True, "controller": "opp"},
                       turn={"active": "you", "step": "untap"}) == []


def test_status_life_and_energy_ranges() -> None:
    msgs = status(load_state({"players": [{"name": "a", "life": 2**40, "energy": 2**33}]}))
    assert any("life above 2^31" in m for m in msgs)
    assert any("energy above 2^31" in m for m in msgs)
    assert any("704.5a" in m for m in status(load_state({"players": [{"name": "a", "life": 0}]})))


def test_status_instant_on_the_battlefield_and_legend_rule() -> None:
    (msg,) = _one_status({"id": "i", "card": "Counterspell"})
    assert "304.4" in msg
    msgs = _one_status({"id": "r1", "card": "Reaper King"}, {"id": "r2", "card": "Reaper King"})
    assert any("704.5j" in m for m in msgs)


# -- writing back --------------------------------------------------------------------------------

def test_round_trip_spec_example() -> None:
    state = load_state(BOARD_EXAMPLE)
    again = load_state(json.loads(json.dumps(state_to_json(state))))
    assert again == state
    out = state_to_json(state)
    assert out["battlefield"][0] == {"id": "f1", "card": "Forest"}
    assert out["battlefield"][3]["name"] == "Test Dork"


def test_round_trip_every_field() -> None:
    b = {
        "players": [{"name": "a", "life": 7, "starting_life": 40, "energy": 3, "pool": "{C}{R}",
                     "hand": ["Dismember", {"name": "Odd", "type_line": "Kindred Instant — Elf",
                                            "mana_cost": "{1}{G/W/P}", "oracle_text": ""}],
                     "graveyard": ["Bonecrusher Giant", "Commit // Memory"]},
                    {"name": "b"}],
        "turn": {"active": "b", "step": "end", "stack_empty": False},
        "battlefield": [
            {"id": "o", "card": "Overlord of the Hauntwoods", "cast_for": "impending",
             "counters": {"time": 2}, "sick": True},
            {"id": "f", "card": "Forest", "controller": "b", "tapped": True},
            {"id": "w", "card": "Wild Growth", "attached_to": "f", "controller": "b"},
            {"id": "t", "card": "Treasure"},
            {"id": "c", "card": "Llanowar Elves", "token": True, "haste": True},
            {"id": "x", "card": "Walking Ballista", "x": 3},
            {"id": "q", "name": "Quirk", "type_line": "Artifact", "colors": ["U"],
             "oracle_text": "{T}: Add {U}."},
            {"id": "e1", "card": "Llanowar Elves"},
            {"id": "e2", "card": "Llanowar Elves", "mana_cost": "{U}"},
            {"id": "e3", "card": "Llanowar Elves", "mana_cost": "{U}", "colors": ["G"]},
            {"id": "a1", "card": "Dryad Arbor", "oracle_text": "{T}: Add {C}."},
        ],
    }
    state = load_state(b)
    out = state_to_json(state)
    assert load_state(json.loads(json.dumps(out))) == state
    written = {p["id"]: p for p in out["battlefield"]}
    assert written["e1"] == {"id": "e1", "card": "Llanowar Elves"}
    assert written["e2"] == {"id": "e2", "card": "Llanowar Elves", "mana_cost": "{U}",
                             "colors": ["U"]}
    assert state.permanent("e3").card.color_letters == ["G"]
    # an override keeps the database's other characteristics: the color indicator, power
    arbor = state.permanent("a1").card
    assert arbor.color_letters == ["G"] and arbor.power == "1"


@pytest.mark.parametrize("path", sorted(EXAMPLES.glob("*.json")), ids=lambda p: p.name)
def test_example_boards_load(path: Path) -> None:
    """Every bundled example board loads and round-trips."""
    state = load_state(json.loads(path.read_text(encoding="utf-8")))
    assert load_state(state_to_json(state)) == state


def test_load_does_not_mutate_input() -> None:
    b = copy.deepcopy(BOARD_EXAMPLE)
    load_state(b)
    assert b == BOARD_EXAMPLE


# -- fuzzing: nothing but ManasolverError, ever ----------------------------------------------------


_json_leaf = st.one_of(st.none(), st.booleans(), st.integers(-2**70, 2**70),
                       st.floats(allow_nan=True), st.text(max_size=12),
                       st.sampled_from(["Forest", "Treasure", "you", "{G}", "{2/W}", "main1",
                                        "impending", "Wild Growth", ""]))
_json = st.recursive(_json_leaf, lambda inner: st.one_of(
    st.lists(inner, max_size=4),
    st.dictionaries(st.sampled_from(["id", "card", "name", "type_line", "mana_cost", "players",
                                     "life", "pool", "hand", "turn", "step", "active", "counters",
                                     "tapped", "controller", "attached_to", "x", "colors", "zz"]),
                    inner, max_size=5)), max_leaves=20)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=_json, battlefield=_json, turn=_json)
def test_fuzzed_boards_never_crash(players: object, battlefield: object, turn: object) -> None:
    """The protocol: no input, however malformed, may crash: only ManasolverError comes out."""
    for obj in ({"players": players, "battlefield": battlefield, "turn": turn},
                {"players": [{"name": "you"}], "battlefield": [battlefield], "turn": turn},
                {"players": [{"name": "you", "hand": players}], "battlefield": battlefield}):
        try:
            state = load_state(obj)
        except ManasolverError as err:
            assert isinstance(err.where, str) and err.message
        else:
            status(state)
            assert load_state(state_to_json(state)) == state


# -- choices made as a permanent entered, commanders ------------------------------------------


def _chosen_board(**perm: Any) -> dict[str, Any]:
    return {"players": [{"name": "you"}], "battlefield": [dict({"id": "h", "card": "Coldsteel Heart"}, **perm)]}


def test_chosen_color_and_type_load_and_round_trip() -> None:
    """"chosen": {"color": "G"} / {"type": "Elf"} — choices made as the permanent entered (CR 614.12)."""
    state = load_state({"players": [{"name": "you"}], "battlefield": [
        {"id": "h", "card": "Coldsteel Heart", "chosen": {"color": "green"}},
        {"id": "c", "card": "Cavern of Souls", "chosen": {"type": "Elf"}}]})
    assert state.battlefield[0].chosen_color == "G" and state.battlefield[1].chosen_type == "elf"
    assert load_state(state_to_json(state)) == state
    assert status(state) == []


@pytest.mark.parametrize("chosen, cls, where", [
    ({"color": "C"}, BadState, "battlefield[0].chosen.color"),
    ({"colour": "G"}, UnknownField, "battlefield[0].chosen.colour"),
    ("G", BadState, "battlefield[0].chosen"),
    ({"type": 7}, BadState, "battlefield[0].chosen.type"),
])
def test_chosen_errors(chosen: Any, cls: type[ManasolverError], where: str) -> None:
    """A chosen color is one of the five colors (colorless is not a color, CR 105.1)."""
    with pytest.raises(cls) as err:
        load_state(_chosen_board(chosen=chosen))
    assert err.value.where == where


def test_status_names_a_missing_choice() -> None:
    """Coldsteel Heart without "chosen": its mana of the chosen color is undefined (CR 106.5)."""
    problems = status(load_state(_chosen_board()))
    assert len(problems) == 1 and "battlefield[0] (h)" in problems[0] and "106.5" in problems[0]
    cavern = load_state({"players": [{"name": "you"}], "battlefield": [{"id": "c", "card": "Cavern of Souls"}]})
    assert any("creature type" in p for p in status(cavern))


def test_commander_loads_and_round_trips() -> None:
    """"commander": names or characteristics objects, as hand cards (CR 903.3); at most two (partner)."""
    board = {"players": [{"name": "you", "commander": [
        "Kenrith, the Returned King", {"name": "Homebrew Partner", "type_line": "Legendary Creature — Elf",
                                       "mana_cost": "{G}{G}"}]}]}
    state = load_state(board)
    assert [c.name for c in state.players[0].commander] == ["Kenrith, the Returned King", "Homebrew Partner"]
    assert load_state(state_to_json(state)) == state
    with pytest.raises(BadState) as err:
        load_state({"players": [{"name": "you", "commander": ["Forest", "Forest", "Forest"]}]})
    assert err.value.where == "players[0].commander"
    with pytest.raises(UnknownCard) as unknown:
        load_state({"players": [{"name": "you", "commander": ["Kenrith the Returnd King"]}]})
    assert unknown.value.where == "players[0].commander[0]"


def test_status_names_a_missing_commander() -> None:
    """Command Tower without a commander: the color identity is undefined, no mana (CR 903.4f)."""
    board = {"players": [{"name": "you"}], "battlefield": [{"id": "t", "card": "Command Tower"}]}
    (problem,) = status(load_state(board))
    assert problem.startswith("battlefield[0] (t)") and "903.4f" in problem
    board["players"] = [{"name": "you", "commander": ["Kenrith, the Returned King"]}]
    assert status(load_state(board)) == []


def test_status_thriving_land_other_color() -> None:
    """Thriving Moor: "As this land enters, choose a color other than black." — choosing black is named."""
    board = {"players": [{"name": "you"}], "battlefield": [
        {"id": "m", "card": "Thriving Moor", "chosen": {"color": "B"}}]}
    (problem,) = status(load_state(board))
    assert "other than black" in problem
    board["battlefield"][0]["chosen"] = {"color": "R"}
    assert status(load_state(board)) == []


def test_a_board_sent_again_is_read_again_and_a_value_of_another_type_stays_an_error() -> None:
    """The same board sent twice makes equal permanents; a value equal in Python but of another
    type (1 for true) is still the error it would be alone."""
    from manasolver.models.board.load import load_state
    from manasolver.models.errors import BadState
    good = {"players": [{"name": "you"}], "battlefield": [{"id": "a", "card": "Forest", "tapped": True}]}
    first, second = load_state(good), load_state(good)
    assert first.battlefield[0].tapped and second.battlefield[0] == first.battlefield[0]
    bad = {"players": [{"name": "you"}], "battlefield": [{"id": "a", "card": "Forest", "tapped": 1}]}
    with pytest.raises(BadState) as err:
        load_state(bad)
    assert err.value.where == "battlefield[0].tapped"
    other_player = {"players": [{"name": "me"}], "battlefield": [{"id": "a", "card": "Forest", "tapped": True}]}
    assert load_state(other_player).battlefield[0].controller == "me"


# -- the loader's direct paths make what the field-by-field reading makes ---------------------------

_PLAYERS_OF_COMMON_KINDS: list[dict[str, Any]] = [
    {"name": "you"},
    {"name": "you", "life": 0, "starting_life": 40, "energy": 3},
    {"name": " you", "life": 7},   # (a name starting with a space is a name)
    {"name": "  ", "life": 7},
    {"name": "you", "hand": ["Forest", "Counterspell"], "graveyard": [], "commander": ["Kenrith, the Returned King"],
     "lands_played_this_turn": 1, "spells_cast_this_turn": None, "life_gained_this_turn": 0,
     "cards_drawn_this_turn": None, "library": {"size": 53}},
    {"name": "you", "hand": ["Forest", "Zzzz Qqqq"]},   # (a name the database does not know)
    {"name": "you", "hand": ["Forest", {"card": "Opt"}]},   # (an object of characteristics)
    {"name": "you", "hand": ["Forest", 3]},   # (no card: refused at the entry)
    {"name": "you", "hand": ["Opt"], "graveyard": ["Forest", {"card": "Zzzz Qqqq"}]},   # (an unknown card in an object)
    {"name": "you", "graveyard": ["Forest"], "commander": "Forest"},
    {"name": "you", "hand": ["Forest", "sOL rING"], "commander": ["kENRITH, tHE rETURNED kING"]},  # (not read yet)
    {"name": "you", "library": None, "life_gained_this_turn": None, "hand": ["forest"]},
    {"name": "you", "library": {"size": 2, "top": ["Opt"]}, "designations": ["monarch"], "pool": "{G}"},
    {"name": "you", "library": {"size": 0}},
    {"name": "you", "library": {"size": LIMITS["library"]}},
    {"name": "you", "library": {"size": LIMITS["library"] + 1}},
    {"name": "you", "library": {"size": True}},
    {"name": "you", "library": {"size": 3, "top": []}},
    {"name": "you", "library": {"size": 3}, "pool": "{G}"},
]


@pytest.mark.parametrize("raw", _PLAYERS_OF_COMMON_KINDS)
def test_a_player_of_the_common_kinds_is_the_player_read_field_by_field(raw: dict[str, Any]) -> None:
    """A player whose fields are all of the common kinds is made directly; it is the player the
    field-by-field reading makes, counting the same cards toward the board's limit; a player that
    reading refuses is left to it, or refused at the same place (an unknown name)."""
    from manasolver.models.board.cards import CardResolver
    from manasolver.models.board.load import _plain_player, _player
    from manasolver.models.carddb import default_db

    db = default_db()
    load_state({"players": [{"name": "warm", "hand": ["Forest", "forest", "Counterspell",
                                                      "Kenrith, the Returned King", "Opt"]}]}, db)
    direct, checked = CardResolver(db), CardResolver(db)
    try:
        expected = _player(raw, "players[0]", checked)
    except ManasolverError as err:
        try:
            refused_too = _plain_player(raw, 0, direct)
        except ManasolverError as again:
            assert (type(again), again.where) == (type(err), err.where)
        else:
            assert refused_too is None
        assert direct.entries == 0
        return
    made = _plain_player(raw, 0, direct)
    if made is None:
        assert raw not in _PLAYERS_OF_COMMON_KINDS[:5], "a player of the common kinds left the direct path"
        assert direct.entries == 0
        return
    assert made == expected and direct.entries == checked.entries


@pytest.mark.parametrize("size", [0, 53, LIMITS["library"]])
def test_a_library_of_its_size_alone_is_read_on_the_direct_path(size: int) -> None:
    """A player whose library gives its size alone is made directly, the library of that size with
    no known cards."""
    from manasolver.models.board.cards import CardResolver
    from manasolver.models.board.load import _plain_player
    from manasolver.models.carddb import default_db

    made = _plain_player({"name": "you", "library": {"size": size}}, 0, CardResolver(default_db()))
    assert made is not None and type(made.library) is Library and made.library == Library(size)


@pytest.mark.parametrize("field,value", [
    ("hand", ["Forest"] * (LIMITS["zone_cards"] + 1)), ("hand", "Forest"), ("hand", None), ("graveyard", [3]),
    ("commander", ["Forest"] * 3), ("library", {"size": -1}), ("library", {"top": []}), ("library", 53),
    ("cards_drawn_this_turn", True), ("lands_played_this_turn", -1), ("life_gained_this_turn", 1.0),
])
def test_a_player_not_of_the_common_kinds_is_refused_at_its_field(field: str, value: object) -> None:
    """Values that the direct path leaves to the field-by-field reading are refused there, naming
    the field (the direct path never refuses)."""
    with pytest.raises(ManasolverError) as info:
        load_state({"players": [{"name": "a", "hand": ["Forest"], field: value}]})
    assert info.value.where.startswith(f"players[0].{field}"), info.value.where


@pytest.mark.parametrize("perm", [
    {"id": "a", "card": "Treasure"},
    {"id": "a", "card": "Forest", "controller": "opp", "tapped": True, "sick": False},
    {"id": "a", "card": "Forest", "haste": True},
    {"id": "a", "card": "Forest", "token": True, "tapped": True},
    {"id": "a", "card": "Treasure", "token": False, "controller": "opp"},
    {"id": "a", "card": "Everflowing Chalice", "counters": {"Charge": 2, "time": 0}, "sick": True},
    {"id": "a", "card": "Coldsteel Heart", "chosen": {"color": "green"}, "counters": {}},
    {"id": "a", "card": "Cavern of Souls", "chosen": {"type": "Elf", "name": "Llanowar Elves"}, "haste": False},
    {"id": "a", "card": "Coldsteel Heart", "chosen": None, "token": True, "haste": True, "counters": {"charge": 1}},
    {"id": "a", "card": "Forest", "controller": "you", "tapped": False, "sick": False},   # (each its default)
    {"id": "a", "card": "Forest", "controller": "opp", "tapped": True, "sick": True},
    {"id": "a", "card": "Forest", "controller": "opp"},   # (no field beyond these: tapped and sick not asked)
    {"id": "a", "card": "Forest", "tapped": True},
    {"id": "a", "card": "Forest", "sick": True},
    {"id": "a", "card": "Forest", "controller": "opp", "sick": True},
])
def test_a_permanent_with_choices_and_counters_is_the_permanent_read_field_by_field(perm: dict[str, Any]) -> None:
    """A plain permanent (a token card's too), and haste, token, counters and chosen beside a plain
    permanent's fields, are read as the field-by-field reading reads them."""
    from manasolver.models.board.cards import CardResolver
    from manasolver.models.board.load import load_permanent

    state = load_state(board(perm))
    assert state.battlefield[0] == load_permanent(perm, "battlefield[0]", ("you", "opp"), CardResolver(None))


@pytest.mark.parametrize("perm", [
    {"id": "a", "card": "Forest", "controller": "opp"},
    {"id": "a", "card": "Forest", "controller": "you"},
    {"id": "a", "card": "Forest", "controller": "you", "tapped": True},
    {"id": "a", "card": "Forest", "tapped": True},
    {"id": "a", "card": "Forest", "sick": True, "controller": "opp"},
    {"id": "a", "card": "Treasure", "controller": "opp"},
])
@pytest.mark.parametrize("decoded", [True, False])
def test_a_permanent_decoded_from_json_is_the_permanent_read_field_by_field(perm: dict[str, Any],
                                                                              decoded: bool) -> None:
    """A board as a client's JSON gives it, each controller a string of its own, or as a Python caller
    builds it, the controller the very object of the player's name (the literals here): its permanents
    are those the field-by-field reading makes."""
    from manasolver.models.board.cards import CardResolver
    from manasolver.models.board.load import load_permanent

    state = load_state(json.loads(json.dumps(board(perm))) if decoded else board(perm))
    assert state.battlefield[0] == load_permanent(perm, "battlefield[0]", ("you", "opp"), CardResolver(None))


@pytest.mark.parametrize("perms,kind,where", [
    ([{"id": "a", "card": "Forest", "haste": None, "counters": {"time": -1}}], BadState, "battlefield[0].haste"),
    ([{"id": "a", "card": "Forest", "token": 1, "counters": {"time": -1}}], BadState, "battlefield[0].token"),
    ([{"id": "a", "card": "Forest", "counters": {"time": -1}, "chosen": {"color": "C"}}], BadState,
     "battlefield[0].counters.time"),
    ([{"id": "a", "card": "Forest"}, {"id": "a", "card": "Forest", "counters": {"time": -1}}], BadState,
     "battlefield[1].counters.time"),
    ([{"id": "a", "card": "Forest"}, {"id": "a", "card": "Forest", "chosen": {"color": "W"}}], BadState,
     "battlefield[1].id"),
    ([{"id": "a", "card": "Forest"}, {"id": "a", "card": "Zzzz Qqqq", "counters": {"time": -1}}], UnknownCard,
     "battlefield[1].card"),
    ([{"id": "a", "card": " ", "counters": {"time": 1}}], BadState, "battlefield[0].card"),
    ([{"id": "a", "card": "Forest", "counters": {"time": 1}, "tapped": 0}], BadState, "battlefield[0].tapped"),
    ([{"id": "a", "card": "Forest", "controller": None}], BadState, "battlefield[0].controller"),
    ([{"id": "a", "card": "Forest", "controller": "you", "tapped": None}], BadState, "battlefield[0].tapped"),
    ([{"id": "a", "card": "Forest", "sick": None, "haste": True}], BadState, "battlefield[0].sick"),
    ([{"id": "a", "card": "Forest", "sick": 1}], BadState, "battlefield[0].sick"),
    ([{"id": "a", "card": "Forest", "controller": "opp", "tapped": "yes"}], BadState, "battlefield[0].tapped"),
    ([{"id": "a", "card": "Forest", "tapped": False, "zz": 1}], UnknownField, "battlefield[0].zz"),
    ([{"card": "Forest", "controller": "you", "haste": True}], BadState, "battlefield[0].id"),
    ([{"id": "a", "controller": "you", "tapped": True, "sick": True}], BadState, "battlefield[0]"),
])
def test_permanent_errors_come_in_the_order_of_the_fields(perms: list[dict[str, Any]], kind: type[ManasolverError],
                                                          where: str) -> None:
    """A permanent with several bad fields is refused at the first the reading meets (its id, its
    card, its controller, tapped and sick, haste, token, counters, chosen), and a repeated id only
    after the permanent's own fields."""
    refused(board(*perms), kind, where)


def test_a_permanent_whose_fields_are_given_as_the_defaults_own_objects_is_read_the_same() -> None:
    """A board built in Python may give a permanent's controller as the very name object of its
    player and tapped or sick as ``False`` itself: the permanent is the one the field-by-field reading
    makes, and a field beside them is still refused at its path."""
    from manasolver.models.board.cards import CardResolver
    from manasolver.models.board.load import load_permanent

    name = "".join(["y", "ou"])  # (not the literal's object)
    perms = [{"id": "a", "card": "Forest", "controller": name},
             {"id": "b", "card": "Forest", "controller": name, "tapped": False, "sick": True}]
    state = load_state({"players": [{"name": name}, {"name": "opp"}], "battlefield": perms})
    for i, perm in enumerate(perms):
        assert state.battlefield[i] == load_permanent(perm, f"battlefield[{i}]", (name, "opp"), CardResolver(None))
    refused({"players": [{"name": name}], "battlefield": [{"id": "a", "card": "Forest", "controller": name,
                                                          "zz": 1}]}, UnknownField, "battlefield[0].zz")
