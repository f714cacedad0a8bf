"""Sessions: ``open``, ``update``, ``close`` and ``"board"`` handles, in process, through a
real ``manasolver batch`` subprocess and through a real ``manasolver serve`` with two connections.

The rule every test leans on: an answer on a kept board is exactly the answer to the same query
with the equivalent ``state`` (the board JSON with the changes applied), and a bad change leaves
the kept board as it was.  Hypothesis drives random change sequences against a model of the
changes written here, independently of :mod:`manasolver.solver.service.sessions`.
"""

from __future__ import annotations

import copy
import http.client
import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from manasolver.models.board.load import load_state
from manasolver.models.carddb import default_db
from manasolver.models.errors import ManasolverError
from manasolver.solver.service import sessions
from manasolver.solver.service.demo import example_state
from manasolver.solver.service.protocol import answer
from paths import REPO

CLI = [sys.executable, "-m", "manasolver.solver.service.cli"]

#: A small board of real cards: basics, a dual, a dork (sick), a Signet, a pain land.
BOARD: dict[str, Any] = {
    "players": [{"name": "you", "life": 20}, {"name": "opponent"}],
    "battlefield": [
        {"id": "f1", "card": "Forest"}, {"id": "f2", "card": "Forest"}, {"id": "i1", "card": "Island"},
        {"id": "m1", "card": "Mountain"}, {"id": "dual", "card": "Tropical Island"},
        {"id": "elf", "card": "Llanowar Elves", "sick": True}, {"id": "signet", "card": "Simic Signet"},
        {"id": "pain", "card": "Yavimaya Coast"},
    ],
}

#: Queries of every kind that takes a state, without their state.
QUERIES: list[dict[str, Any]] = [
    {"query": "can_pay", "cost": "{2}{G}{U}"},
    {"query": "can_pay", "cost": "{U}{U}{U}{U}"},
    {"query": "pay", "cost": "{1}{G}{U}"},
    {"query": "pay", "cost": "{G}{U/P}", "policy": ["min_life", "keep_colors"]},
    {"query": "max_x", "cost": "{X}{G}"},
    {"query": "payments", "cost": "{G}{U}", "limit": 5},
    {"query": "options", "limit": 20},
    {"query": "could_produce"},
    {"query": "counts"},
]


def _with(query: dict[str, Any], **fields: Any) -> dict[str, Any]:
    return {**query, **fields}


def _open(state: dict[str, Any]) -> str:
    got = answer({"query": "open", "state": state})
    assert set(got) == {"board"}, got
    handle = got["board"]
    assert isinstance(handle, str)
    return handle


def _bounded(got: dict[str, Any]) -> bool:
    """Did a time bound decide this answer (a loaded machine can reach one, CP-SAT's first import)?"""
    text = json.dumps(got)
    return '"time_bound": true' in text or "time bound" in text


def _same_answers(handle: str, state: dict[str, Any], queries: list[dict[str, Any]] = QUERIES) -> None:
    for query in queries:
        for _ in range(3):  # an answer a time bound decided is asked again: it is not the board's
            mine, theirs = answer(_with(query, board=handle)), answer(_with(query, state=copy.deepcopy(state)))
            if not _bounded(mine) and not _bounded(theirs):
                break
        assert mine == theirs, query


# -- the model of the changes, written apart from the sessions module ---------------

def _model(state: dict[str, Any], change: dict[str, Any]) -> dict[str, Any]:
    """The board JSON ``change`` makes of ``state`` (no checks: the loader checks the result)."""
    out = copy.deepcopy(state)
    field = out.setdefault("battlefield", [])
    if "tap" in change or "untap" in change:
        pid = change.get("tap", change.get("untap"))
        next(p for p in field if p["id"] == pid)["tapped"] = "tap" in change
    elif "remove" in change:
        out["battlefield"].remove(next(p for p in field if p["id"] == change["remove"]))
    elif "add" in change:
        field.append(copy.deepcopy(change["add"]))
    elif "set" in change:
        perm = next(p for p in field if p["id"] == change["set"])
        for key, value in change["fields"].items():
            if value is None:
                perm.pop(key, None)
            else:
                perm[key] = copy.deepcopy(value)
    elif "player" in change:
        player = next(p for p in out["players"] if p["name"] == change["player"])
        for key, value in change["fields"].items():
            if value is None:
                player.pop(key, None)
            else:
                player[key] = copy.deepcopy(value)
    elif "turn" in change:
        if change["turn"] is None:
            out.pop("turn", None)
        else:
            out["turn"] = copy.deepcopy(change["turn"])
    return out


def _valid(state: dict[str, Any]) -> bool:
    try:
        load_state(state, default_db())
    except ManasolverError:
        return False
    return True


# -- in process ---------------------------------------------------------------------------------

def test_open_answers_a_handle_and_every_query_on_it_answers_as_the_state_does() -> None:
    handle = _open(BOARD)
    _same_answers(handle, BOARD)
    assert answer({"query": "validate", "board": handle, "cost": "{G}",
                   "payment": answer({"query": "pay", "board": handle, "cost": "{G}"})["payment"]}) == \
        {"legal": True, "problems": []}
    assert answer({"query": "close", "board": handle}) == {"closed": True}


def test_handles_are_unique_and_the_id_is_echoed() -> None:
    handles = {_open(BOARD) for _ in range(20)}
    assert len(handles) == 20
    assert answer({"id": 7, "query": "open", "state": BOARD})["id"] == 7


def test_every_example_board_answers_the_same_through_a_session() -> None:
    for name in ("commander", "reaper", "pools", "phyrexian", "basics"):
        state = example_state(name)
        _same_answers(_open(state), state, [q for q in QUERIES if q["query"] != "options"])


def test_tapping_a_land_changes_the_answer_as_the_tapped_state_does() -> None:
    handle = _open(BOARD)
    assert answer({"query": "can_pay", "board": handle, "cost": "{U}{U}{U}{U}"})["payable"] is True
    changes = [{"tap": "i1"}, {"tap": "dual"}]
    assert answer({"query": "update", "board": handle, "changes": changes}) == {"board": handle}
    tapped = _model(_model(BOARD, changes[0]), changes[1])
    _same_answers(handle, tapped)
    assert answer({"query": "can_pay", "board": handle, "cost": "{U}{U}{U}{U}"})["payable"] is False
    # tapping what is tapped leaves it tapped; untapping brings the answer back
    assert answer({"query": "update", "board": handle, "changes": [{"tap": "i1"}]}) == {"board": handle}
    _same_answers(handle, tapped)
    answer({"query": "update", "board": handle, "changes": [{"untap": "i1"}, {"untap": "dual"}]})
    _same_answers(handle, _model(_model(tapped, {"untap": "i1"}), {"untap": "dual"}))


def test_changes_on_a_query_apply_to_the_kept_board_first_and_stay() -> None:
    handle = _open(BOARD)
    query = {"query": "pay", "cost": "{G}{G}"}
    changes = [{"tap": "f1"}, {"set": "elf", "fields": {"sick": False}}, {"add": {"id": "f3", "card": "Forest"}}]
    after = BOARD
    for change in changes:
        after = _model(after, change)
    assert answer({**query, "board": handle, "changes": changes}) == answer({**query, "state": after})
    _same_answers(handle, after)


def test_player_and_turn_changes_load_as_the_full_state() -> None:
    handle = _open(BOARD)
    changes = [{"player": "you", "fields": {"life": 3, "pool": "{U}"}},
               {"turn": {"active": "opponent", "step": "upkeep"}}]
    answer({"query": "update", "board": handle, "changes": changes})
    after = _model(_model(BOARD, changes[0]), changes[1])
    _same_answers(handle, after)
    # timing is checked when the board gives a turn: a sorcery-speed spell on the opponent's upkeep
    sorcery = {"query": "can_pay", "cost": "{G}", "spell": {"card": "Rampant Growth"}}
    assert answer({**sorcery, "board": handle})["reason"]["code"] == "timing"
    assert answer({**sorcery, "board": handle}) == answer({**sorcery, "state": after})
    answer({"query": "update", "board": handle,
            "changes": [{"turn": None}, {"player": "you", "fields": {"pool": None}}]})
    _same_answers(handle, _model(_model(after, {"turn": None}), {"player": "you", "fields": {"pool": None}}))
    assert answer({**sorcery, "board": handle})["payable"] is True


@pytest.mark.parametrize("changes,code,where", [
    ([{"tap": "nope"}], "bad_state", "changes[0].tap"),
    ([{"tap": "f1"}, {"tap": "f2"}, {"tap": "nope"}], "bad_state", "changes[2].tap"),
    ([{"untap": "f1"}, {"remove": "gone"}], "bad_state", "changes[1].remove"),
    ([{"set": "nope", "fields": {"tapped": True}}], "bad_state", "changes[0].set"),
    ([{"add": {"id": "f1", "card": "Forest"}}], "bad_state", "changes[0].add.id"),
    ([{"add": {"id": "x", "card": "Forrest"}}], "unknown_card", "changes[0].add.card"),
    ([{"add": {"id": "x", "card": "Forest", "tapd": True}}], "unknown_field", "changes[0].add.tapd"),
    ([{"add": "Forest"}], "bad_query", "changes[0].add"),
    ([{"set": "f1", "fields": {"tapped": "yes"}}], "bad_state", "changes[0].fields.tapped"),
    ([{"set": "f1", "fields": {"id": "f9"}}], "bad_query", "changes[0].fields.id"),
    ([{"set": "f1", "fields": {"counters": {"charge": -1}}}], "bad_state", "changes[0].fields.counters.charge"),
    ([{"set": "f1"}], "bad_query", "changes[0].fields"),
    ([{"set": "f1", "fields": 3}], "bad_query", "changes[0].fields"),
    ([{"player": "nobody", "fields": {"life": 1}}], "bad_state", "changes[0].player"),
    ([{"player": "you", "fields": {"life": "lots"}}], "bad_state", "changes[0].fields.life"),
    ([{"player": "you", "fields": {"name": "me"}}], "bad_query", "changes[0].fields.name"),
    ([{"turn": {"step": "combat"}}], "bad_state", "changes[0].turn.step"),
    ([{"turn": "main1"}], "bad_query", "changes[0].turn"),
    ([{"tap": "f1", "untap": "f2"}], "bad_query", "changes[0]"),
    ([{"tap": "f1", "fields": {}}], "unknown_field", "changes[0].fields"),
    ([{"flip": "f1"}], "bad_query", "changes[0]"),
    (["tap f1"], "bad_query", "changes[0]"),
    ([{"tap": True}], "bad_query", "changes[0].tap"),
    ({"tap": "f1"}, "bad_query", "changes"),
    # removing a land an Aura is attached to leaves the Aura attached to nothing
    ([{"add": {"id": "wg", "card": "Wild Growth", "attached_to": "f1"}}, {"remove": "f1"}],
     "bad_state", "changes[1].remove"),
])
def test_a_bad_change_is_an_error_naming_it_and_the_board_is_unchanged(changes: Any, code: str, where: str) -> None:
    handle = _open(BOARD)
    before = sessions.STORE.get(handle)
    for kind in ("update", "can_pay"):
        query: dict[str, Any] = {"query": kind, "board": handle, "changes": changes}
        if kind == "can_pay":
            query["cost"] = "{G}"
        got = answer(query)
        assert set(got) == {"error"}, got
        assert (got["error"]["code"], got["error"]["where"]) == (code, where), got
        assert got["error"]["message"]
        assert sessions.STORE.get(handle) is before
    _same_answers(handle, BOARD)


def test_bad_session_use_is_a_clear_error() -> None:
    handle = _open(BOARD)
    cases: list[tuple[dict[str, Any], str, str]] = [
        ({"query": "can_pay", "board": "b0", "cost": "{G}"}, "unknown_board", "board"),
        ({"query": "can_pay", "board": 3, "cost": "{G}"}, "bad_query", "board"),
        ({"query": "update", "board": "nope", "changes": []}, "unknown_board", "board"),
        ({"query": "update", "board": handle}, "bad_query", "changes"),
        ({"query": "update", "changes": []}, "bad_query", "board"),
        ({"query": "close", "board": "nope"}, "unknown_board", "board"),
        ({"query": "close"}, "bad_query", "board"),
        ({"query": "open"}, "bad_query", "state"),
        ({"query": "open", "state": {"players": []}}, "bad_state", "players"),
        ({"query": "open", "state": BOARD, "board": handle}, "unknown_field", "board"),
        ({"query": "can_pay", "board": handle, "state": BOARD, "cost": "{G}"}, "bad_query", "board"),
        ({"query": "can_pay", "state": BOARD, "changes": [], "cost": "{G}"}, "bad_query", "changes"),
        ({"query": "mana_value", "board": handle, "cost": "{G}"}, "unknown_field", "board"),
    ]
    for query, code, where in cases:
        got = answer(query)
        assert "error" in got, query
        assert (got["error"]["code"], got["error"]["where"]) == (code, where), (query, got)
    answer({"query": "close", "board": handle})
    got = answer({"query": "can_pay", "board": handle, "cost": "{G}"})
    assert got["error"]["code"] == "unknown_board"


def test_changes_that_would_load_the_board_again_too_often_are_refused() -> None:
    """10,000 adds would load a growing board 10,000 times: refused as a whole, the board kept as it
    was; 10,000 taps (no load) and a few hundred adds are answered."""
    handle = _open(BOARD)
    before = sessions.STORE.get(handle)
    adds = [{"add": {"id": f"n{i}", "card": "Forest"}} for i in range(sessions.MAX_CHANGES)]
    got = answer({"query": "update", "board": handle, "changes": adds})
    assert (got["error"]["code"], got["error"]["where"]) == ("bad_query", "changes")
    assert sessions.STORE.get(handle) is before
    taps = [{"tap": "f1"} if i % 2 else {"untap": "f1"} for i in range(sessions.MAX_CHANGES)]
    assert answer({"query": "update", "board": handle, "changes": taps}) == {"board": handle}
    assert answer({"query": "update", "board": handle, "changes": adds[:300]}) == {"board": handle}
    assert len(sessions.STORE.get(handle).state.battlefield) == len(BOARD["battlefield"]) + 300


def test_the_1001st_board_forgets_the_least_recently_used() -> None:
    """At most 1,000 boards are kept: opening the 1,001st forgets the least recently used (here the
    second opened: the first was used since), whose handle is then ``unknown_board``."""
    sessions.STORE.clear()
    small = {"players": [{"name": "you"}], "battlefield": [{"id": "f", "card": "Forest"}]}
    handles = [_open(small) for _ in range(sessions.MAX_BOARDS)]
    assert len(sessions.STORE) == sessions.MAX_BOARDS
    assert answer({"query": "can_pay", "board": handles[0], "cost": "{G}"}) == {"payable": True}
    newest = _open(small)
    assert len(sessions.STORE) == sessions.MAX_BOARDS
    assert answer({"query": "can_pay", "board": handles[1], "cost": "{G}"})["error"]["code"] == "unknown_board"
    for handle in (handles[0], handles[2], handles[-1], newest):
        assert answer({"query": "can_pay", "board": handle, "cost": "{G}"}) == {"payable": True}
    sessions.STORE.clear()


def test_a_board_keeps_the_card_file_it_was_opened_with(tmp_path: Path) -> None:
    """A newer card file's Forest (taps for red here) is what the board's name means; a query on
    the board naming another card file is refused."""
    cards = tmp_path / "cards.jsonl"
    cards.write_text(json.dumps({"name": "Forest", "mana_cost": "", "type_line": "Basic Land", "colors": [],
                                 "oracle_text": "{T}: Add {R}.", "layout": "normal"}) + "\n", encoding="utf-8")
    state = {"players": [{"name": "you"}], "battlefield": [{"id": "f", "card": "Forest"}]}
    handle = answer({"query": "open", "state": state, "cards": str(cards)})["board"]
    assert answer({"query": "could_produce", "board": handle}) == {"could_produce": {"f": ["R"]}}
    assert answer({"query": "could_produce", "board": handle, "cards": str(cards)}) == {"could_produce": {"f": ["R"]}}
    assert answer({"query": "could_produce", "state": state}) == {"could_produce": {"f": ["G"]}}
    answer({"query": "update", "board": handle, "changes": [{"add": {"id": "g", "card": "Forest"}}]})
    assert answer({"query": "could_produce", "board": handle}) == {"could_produce": {"f": ["R"], "g": ["R"]}}
    other = tmp_path / "other.jsonl"
    other.write_text(cards.read_text(encoding="utf-8"), encoding="utf-8")
    got = answer({"query": "could_produce", "board": handle, "cards": str(other)})
    assert (got["error"]["code"], got["error"]["where"]) == ("bad_query", "cards")


def test_the_kept_board_does_not_change_when_the_callers_objects_do() -> None:
    state = copy.deepcopy(BOARD)
    handle = _open(state)
    added = {"id": "f3", "card": "Forest"}
    answer({"query": "update", "board": handle, "changes": [{"add": added}]})
    state["battlefield"][0]["tapped"] = True
    added["tapped"] = True
    _same_answers(handle, _model(BOARD, {"add": {"id": "f3", "card": "Forest"}}))


def test_updates_from_many_threads_are_none_of_them_lost() -> None:
    """Four threads tap, untap and add on one board at once (as ``serve``'s connections may): every
    change lands, in some order, and the board is the one their JSON makes."""
    import threading
    handle = _open(BOARD)
    errors: list[dict[str, Any]] = []

    def work(t: int) -> None:
        for k in range(25):
            got = answer({"query": "update", "board": handle,
                          "changes": [{"add": {"id": f"t{t}.{k}", "card": "Forest"}}, {"tap": f"t{t}.{k}"}]})
            if got != {"board": handle}:
                errors.append(got)

    threads = [threading.Thread(target=work, args=(t,)) for t in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    board = sessions.STORE.get(handle)
    added = [p for p in board.state.battlefield if p.id.startswith("t")]
    assert len(added) == 100 and all(p.tapped for p in added)
    assert board.state == load_state(board.json, default_db())


# -- random change sequences --------------------------------------------------------------------

_CARDS = ["Forest", "Island", "Plains", "Llanowar Elves", "Sol Ring", "Tropical Island", "Cascade Bluffs",
          "Treasure", "Birds of Paradise", "Forrest"]
_IDS = ["f1", "f2", "i1", "m1", "dual", "elf", "signet", "pain", "n0", "n1", "n2", "zz"]


def _changes() -> st.SearchStrategy[dict[str, Any]]:
    ids = st.sampled_from(_IDS)
    perm_fields = st.fixed_dictionaries({}, optional={
        "tapped": st.booleans(), "sick": st.booleans(), "haste": st.booleans() | st.none(),
        "counters": st.none() | st.dictionaries(st.sampled_from(["charge", "time"]), st.integers(-1, 3), max_size=2),
        "card": st.sampled_from(_CARDS), "controller": st.sampled_from(["you", "opponent", "nobody"]),
    })
    player_fields = st.fixed_dictionaries({}, optional={
        "life": st.integers(-1, 40) | st.none(), "energy": st.integers(0, 3),
        "pool": st.sampled_from(["{G}", "{U}{C}", "{2}", None]), "hand": st.just(["Counterspell"]),
    })
    return st.one_of(
        st.builds(lambda i: {"tap": i}, ids), st.builds(lambda i: {"untap": i}, ids),
        st.builds(lambda i: {"remove": i}, ids),
        st.builds(lambda i, c, t: {"add": {"id": i, "card": c, "tapped": t}},
                  ids, st.sampled_from(_CARDS), st.booleans()),
        st.builds(lambda i, f: {"set": i, "fields": f}, ids, perm_fields),
        st.builds(lambda n, f: {"player": n, "fields": f}, st.sampled_from(["you", "opponent"]), player_fields),
        st.builds(lambda s: {"turn": s}, st.none() | st.fixed_dictionaries(
            {"active": st.sampled_from(["you", "opponent"]), "step": st.sampled_from(["main1", "upkeep", "end"])})),
    )


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.lists(_changes(), min_size=1, max_size=4), min_size=1, max_size=5))
def test_random_changes_make_the_board_that_loading_their_json_makes(batches: list[list[dict[str, Any]]]) -> None:
    """Each ``update`` either changes the kept board into exactly the board that loading the model's
    JSON gives (the same ``GameState``, the same answers) or, when some change of it is bad, is an
    error and leaves the board as it was."""
    handle = _open(BOARD)
    model = copy.deepcopy(BOARD)
    for changes in batches:
        after: dict[str, Any] | None = model
        for change in changes:
            try:
                after = _model(after, change) if after is not None else None
            except StopIteration:  # a change naming a missing id or player
                after = None
            if after is not None and not _valid(after):
                after = None
        before = sessions.STORE.get(handle)
        got = answer({"query": "update", "board": handle, "changes": changes})
        if after is None:
            assert "error" in got and got["error"]["where"].startswith("changes["), got
            assert sessions.STORE.get(handle) is before
        else:
            assert got == {"board": handle}, (changes, got)
            model = after
        assert sessions.STORE.get(handle).state == load_state(model, default_db())
        _same_answers(handle, model, QUERIES[:3] + QUERIES[7:])
    answer({"query": "close", "board": handle})


# -- through batch and serve --------------------------------------------------------------------

def _session_lines() -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Session queries and the same queries with the equivalent states, answered in one batch."""
    lines: list[dict[str, Any]] = [{"id": "open", "query": "open", "state": BOARD}]
    plain: list[dict[str, Any]] = []
    model: dict[str, Any] = BOARD
    steps = [[], [{"tap": "f1"}], [{"tap": "dual"}, {"set": "elf", "fields": {"sick": False}}],
             [{"add": {"id": "f3", "card": "Forest"}}, {"remove": "m1"}], [{"player": "you", "fields": {"life": 1}}]]
    for n, changes in enumerate(steps):
        if changes:
            lines.append({"id": f"u{n}", "query": "update", "board": "HANDLE", "changes": changes})
            for change in changes:
                model = _model(model, change)
        for k, query in enumerate(QUERIES):
            lines.append({"id": f"s{n}.{k}", **query, "board": "HANDLE"})
            plain.append({"id": f"p{n}.{k}", **query, "state": model})
    return lines, plain


def _batch_session(lines: list[str]) -> tuple[list[str], str]:
    """``manasolver batch`` driven as a client drives it: the first line (an ``open``) sent alone,
    its handle read from the answer, and every ``"HANDLE"`` of the other lines replaced by it
    (handles are random: a client learns them from ``open``).  The output lines (the handle
    written back as ``"HANDLE"``) and the handle."""
    proc = subprocess.Popen([*CLI, "batch"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, cwd=REPO)
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdin.write(lines[0] + "\n")
    proc.stdin.flush()
    first = proc.stdout.readline()
    handle = json.loads(first)["board"]
    assert isinstance(handle, str) and len(handle) >= 22 and handle != "b1", handle
    rest, errors = proc.communicate("".join(line.replace('"HANDLE"', json.dumps(handle)) + "\n" for line in lines[1:]),
                                    timeout=600)
    assert errors == "" and proc.returncode == 0, errors
    return [line.replace(json.dumps(handle), '"HANDLE"') for line in (first + rest).splitlines()], handle


def test_batch_keeps_the_board_for_the_process_and_answers_as_the_states() -> None:
    lines, plain = _session_lines()
    bad = [{"id": "bad", "query": "update", "board": "HANDLE", "changes": [{"untap": "f1"}, {"tap": "nope"}]},
           {"id": "after", "query": "counts", "board": "HANDLE"}, {"id": "close", "query": "close", "board": "HANDLE"},
           {"id": "gone", "query": "counts", "board": "HANDLE"}]
    out, _ = _batch_session([json.dumps(q) for q in lines + plain + bad])
    answers = {a["id"]: a for a in map(json.loads, out)}
    assert answers["open"] == {"id": "open", "board": "HANDLE"}
    compared = 0
    for q in plain:
        n = q["id"][1:]
        mine = {k: v for k, v in answers[f"s{n}"].items() if k != "id"}
        theirs = {k: v for k, v in answers[f"p{n}"].items() if k != "id"}
        assert "error" not in mine and mine == theirs, q["id"]
        compared += 1
    assert compared == len(plain)
    assert answers["bad"]["error"]["where"] == "changes[1].tap"
    last = {k: v for k, v in answers[f"p{len(plain) // len(QUERIES) - 1}.{len(QUERIES) - 1}"].items() if k != "id"}
    assert {k: v for k, v in answers["after"].items() if k != "id"} == last
    assert answers["close"] == {"id": "close", "closed": True}
    assert answers["gone"]["error"]["code"] == "unknown_board"


def test_the_session_example_file_runs_through_batch() -> None:
    sample = REPO / "examples" / "session.jsonl"
    out, _ = _batch_session(sample.read_text(encoding="utf-8").splitlines())
    answers = {a["id"]: a for a in map(json.loads, out)}
    assert answers["open"]["board"] == "HANDLE" and answers["pay"]["payable"] is True
    assert answers["bad"]["error"]["where"] == "changes[1].tap"
    assert answers["still"]["payable"] is False and answers["still"]["reason"]["missing"] == "{U}"
    assert answers["gone"]["error"]["code"] == "unknown_board"


class _Server:
    def __init__(self) -> None:
        self.proc = subprocess.Popen([*CLI, "serve", "--port", "0"], stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, text=True)
        assert self.proc.stdout is not None
        parts = urlsplit(json.loads(self.proc.stdout.readline())["listening"])
        self.host, self.port = str(parts.hostname), int(parts.port or 0)

    def conn(self) -> http.client.HTTPConnection:
        return http.client.HTTPConnection(self.host, self.port, timeout=120)


def _post(conn: http.client.HTTPConnection, query: dict[str, Any]) -> dict[str, Any]:
    conn.request("POST", "/v1/query", json.dumps(query).encode(), {"Content-Type": "application/json"})
    response = conn.getresponse()
    assert response.status == 200
    out = json.loads(response.read())
    assert isinstance(out, dict)
    return out


@pytest.fixture(scope="module")
def server() -> Iterator[_Server]:
    served = _Server()
    yield served
    served.proc.terminate()
    served.proc.wait(timeout=30)


def test_serve_shares_a_board_across_connections(server: _Server) -> None:
    one, two = server.conn(), server.conn()
    try:
        handle = _post(one, {"query": "open", "state": BOARD})["board"]
        for query in QUERIES:
            assert _post(two, {**query, "board": handle}) == _post(one, {**query, "state": BOARD}), query
        assert _post(two, {"query": "update", "board": handle, "changes": [{"tap": "i1"}, {"tap": "dual"}]}) == \
            {"board": handle}
        tapped = _model(_model(BOARD, {"tap": "i1"}), {"tap": "dual"})
        for query in QUERIES:
            assert _post(one, {**query, "board": handle}) == _post(two, {**query, "state": tapped}), query
        bad = _post(one, {"query": "update", "board": handle, "changes": [{"untap": "i1"}, {"add": {"id": "f1"}}]})
        assert bad["error"]["where"].startswith("changes[1].add")
        assert _post(two, {"query": "can_pay", "board": handle, "cost": "{U}{U}{U}{U}"})["payable"] is False
        assert _post(two, {"query": "close", "board": handle}) == {"closed": True}
        assert _post(one, {"query": "counts", "board": handle})["error"]["code"] == "unknown_board"
    finally:
        one.close()
        two.close()


def test_batch_answers_repeated_queries_byte_for_byte_as_a_fresh_engine_does() -> None:
    """The same queries again and again on a session board and with the same board sent again,
    a land tapped and untapped between rounds: every line ``manasolver batch`` writes is the line
    ``json.dumps`` writes of the answer worked out here on that board loaded afresh (kept answers
    and boards recognised by their text change no byte)."""
    from manasolver.solver.service import boards as board_cache
    rounds = [[], [{"tap": "i1"}, {"tap": "dual"}], [{"untap": "i1"}], [], [{"untap": "dual"}]]
    lines = [{"id": "open", "query": "open", "state": BOARD}]
    want = ['{"id": "open", "board": "HANDLE"}']
    model = BOARD
    for n, changes in enumerate(rounds):
        if changes:
            lines.append({"id": f"u{n}", "query": "update", "board": "HANDLE", "changes": changes})
            want.append(json.dumps({"id": f"u{n}", "board": "HANDLE"}))
            for change in changes:
                model = _model(model, change)
        for k, query in enumerate(QUERIES):
            for how, where in (("board", {"board": "HANDLE"}), ("state", {"state": model})):
                qid: Any = [n, k, how] if k % 2 else n * 100 + k
                lines.append({"id": qid, **query, **where})
                board_cache.clear()
                want.append(json.dumps(answer(json.loads(json.dumps({"id": qid, **query, "state": model})))))
    got, _ = _batch_session([json.dumps(q) for q in lines])
    assert len(got) == len(want)
    for line, mine, theirs in zip(lines, got, want):
        assert mine == theirs, line


# -- what the store keeps: handles, bytes, idle time ----------------------------------------------

def test_handles_are_random_and_unguessable() -> None:
    handles = {answer({"query": "open", "state": BOARD})["board"] for _ in range(20)}
    assert len(handles) == 20
    for handle in handles:
        assert len(handle) >= 22 and not handle[1:].isdigit()
        answer({"query": "close", "board": handle})


def _sized(n: int, tag: str) -> dict[str, Any]:
    """A board of ``n`` Forests whose ids make it big."""
    return {"players": [{"name": "you"}], "battlefield": [{"id": f"{tag}{i:05d}" + "x" * 100, "card": "Forest"}
                                                          for i in range(n)]}


def test_the_store_keeps_boards_within_its_byte_budget_least_recently_used_first() -> None:
    db = default_db()
    size = sessions.footprint(_sized(500, "a"))
    store = sessions.SessionStore(memory=3 * size + size // 2)
    first, second, third = (store.open(_sized(500, tag), db, None) for tag in "abc")
    assert len(store) == 3 and store.bytes <= store.memory
    store.get(first)  # now the most recently used: the second goes when a fourth comes
    fourth = store.open(_sized(500, "d"), db, None)
    assert len(store) == 3 and store.bytes <= store.memory
    with pytest.raises(ManasolverError) as gone:
        store.get(second)
    assert gone.value.code == "unknown_board"
    for kept in (first, third, fourth):
        store.get(kept)


def test_a_board_larger_than_the_budget_is_refused_with_a_clear_error() -> None:
    store = sessions.SessionStore(memory=sessions.footprint(_sized(100, "a")))
    with pytest.raises(ManasolverError) as refused:
        store.open(_sized(2000, "a"), default_db(), None)
    assert refused.value.code == "bad_query" and refused.value.where == "state"
    assert "MB" in refused.value.message and "--session-memory" in refused.value.message
    assert len(store) == 0 and store.bytes == 0


def test_a_board_unused_past_the_idle_time_is_forgotten() -> None:
    import time
    store = sessions.SessionStore(idle=0.2)
    handle = store.open(BOARD, default_db(), None)
    store.get(handle)
    time.sleep(0.3)
    with pytest.raises(ManasolverError) as gone:
        store.get(handle)
    assert gone.value.code == "unknown_board" and len(store) == 0 and store.bytes == 0


def test_an_update_that_grows_a_board_counts_its_new_size() -> None:
    db = default_db()
    store = sessions.SessionStore()
    handle = store.open(_sized(10, "a"), db, None)
    before = store.bytes
    store.update(handle, [{"tap": "a00000" + "x" * 100}])
    assert store.bytes == before  # a flag changed: the same size
    store.update(handle, [{"add": {"id": "new" + "y" * 100, "card": "Island"}}])
    assert store.bytes > before
