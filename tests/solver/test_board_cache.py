"""Boards recognised by content (:mod:`manasolver.solver.service.boards`): the same board sent again
is the same loaded ``GameState``; a board with any difference of content or type, or read with
another card file, never gets another board's state; errors are never kept; the memo of checks
refuses on a kept board exactly as on a fresh one.
"""

from __future__ import annotations

import copy
import json
import threading
from pathlib import Path
from typing import Any

import pytest

from manasolver.models.board.load import load_state
from manasolver.models.carddb import default_db
from manasolver.models.errors import ManasolverError
from manasolver.solver.service import boards as board_cache
from manasolver.solver.service.decode import load_state_field
from manasolver.solver.service.protocol import answer

BOARD: dict[str, Any] = {
    "players": [{"name": "you", "life": 20}, {"name": "opponent"}],
    "battlefield": [{"id": "f1", "card": "Forest"}, {"id": "i1", "card": "Island"},
                    {"id": "elf", "card": "Llanowar Elves", "sick": True}],
}


def _fresh() -> dict[str, Any]:
    """The board as a client's JSON line gives it: new objects every time."""
    return json.loads(json.dumps(BOARD))


def test_the_same_board_sent_again_is_the_same_loaded_state() -> None:
    """Met once, a board is known by its key alone; met again, it is kept, and every later
    sending of it is that kept state."""
    db = default_db()
    board_cache.clear()
    once = board_cache.load_board(_fresh(), db)
    first = board_cache.load_board(_fresh(), db)
    assert first is not once and first == once
    assert all(board_cache.load_board(_fresh(), db) is first for _ in range(5))
    assert first == load_state(BOARD, db)
    # a caller's own dict sent again and again settles on one state too
    mine = _fresh()
    states = [board_cache.load_board(mine, db) for _ in range(4)]
    assert states[-1] is states[-2] and states[-1] == first


def test_a_change_of_content_or_of_type_is_another_board() -> None:
    """``true`` and ``1``, ``20`` and ``20.0``, a tapped land: each is read as its own board (a
    board with ``"tapped": 1`` is refused, never answered as the tapped board)."""
    db = default_db()
    tapped = _fresh()
    tapped["battlefield"][0]["tapped"] = True
    got = board_cache.load_board(tapped, db)
    assert got.battlefield[0].tapped and got == load_state(tapped, db)
    as_number = _fresh()
    as_number["battlefield"][0]["tapped"] = 1
    for _ in range(2):
        try:
            board_cache.load_board(as_number, db)
        except ManasolverError as err:
            assert err.where == "battlefield[0].tapped"
        else:
            raise AssertionError("a tapped of 1 was read as a board")
    assert "error" not in answer({"query": "counts", "state": _fresh()})
    life = _fresh()
    life["players"][0]["life"] = 20.0
    for _ in range(2):
        got = answer({"query": "counts", "state": copy.deepcopy(life)})
        assert (got["error"]["code"], got["error"]["where"]) == ("bad_state", "players[0].life")


def test_a_board_changed_in_place_is_read_again() -> None:
    query = {"query": "can_pay", "state": _fresh(), "cost": "{G}{U}"}
    assert answer(query) == {"payable": True}
    query["state"]["battlefield"][1]["tapped"] = True
    assert answer(query)["payable"] is False
    query["state"]["battlefield"][1]["tapped"] = False
    assert answer(query) == {"payable": True}


def test_the_card_file_is_part_of_what_a_board_means(tmp_path: Path) -> None:
    cards = tmp_path / "cards.jsonl"
    cards.write_text(json.dumps({"name": "Forest", "mana_cost": "", "type_line": "Basic Land", "colors": [],
                                 "oracle_text": "{T}: Add {R}.", "layout": "normal"}) + "\n", encoding="utf-8")
    state = {"players": [{"name": "you"}], "battlefield": [{"id": "f", "card": "Forest"}]}
    for _ in range(2):
        assert answer({"query": "could_produce", "state": state}) == {"could_produce": {"f": ["G"]}}
        assert answer({"query": "could_produce", "state": state, "cards": str(cards)}) == \
            {"could_produce": {"f": ["R"]}}


def test_errors_are_answered_every_time_and_never_kept() -> None:
    bad = _fresh()
    bad["battlefield"][0]["card"] = "Forrest"
    board_cache.clear()
    before = board_cache.recent_count()
    for _ in range(3):
        got = answer({"query": "counts", "state": bad})
        assert got["error"]["code"] == "unknown_card" and got["error"]["where"] == "battlefield[0].card"
    assert board_cache.recent_count() == before


def test_at_most_the_limit_of_boards_is_kept_by_content() -> None:
    db = default_db()
    board_cache.clear()
    states = []
    for n in range(board_cache.RECENT_LIMIT + 10):
        board = {"players": [{"name": "you", "life": n + 1}], "battlefield": [{"id": "f", "card": "Forest"}]}
        states.append((board, board_cache.load_board(board, db)))
    assert board_cache.recent_count() == board_cache.RECENT_LIMIT
    newest_board, newest = states[-1]
    kept = board_cache.load_board(json.loads(json.dumps(newest_board)), db)  # met again: kept
    assert kept == newest and board_cache.load_board(json.loads(json.dumps(newest_board)), db) is kept
    oldest_board, oldest = states[0]
    again = board_cache.load_board(json.loads(json.dumps(oldest_board)), db)
    assert again is not oldest and again == oldest
    assert board_cache.load_board(json.loads(json.dumps(oldest_board)), db) is not again  # known anew


def test_boards_met_once_count_their_keys_against_the_byte_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    """A board met once is known by its key alone, and its key's bytes count: with room for ten
    keys, ten boards are known, however many come and go, and as many again once all are forgotten;
    a board kept counts its keys too."""
    db = default_db()
    board_cache.clear()
    boards = [{"players": [{"name": "you", "life": n + 1}], "battlefield": [{"id": "f", "card": "Forest"}]}
              for n in range(40)]
    sizes = {len(board_cache.content_key(board) or b"") for board in boards}
    assert len(sizes) == 1
    monkeypatch.setattr(board_cache, "MAX_CACHE_BYTES", 10 * sizes.pop())
    for round_ in range(2):
        for board in boards:
            board_cache.load_board(board, db)
        assert board_cache.recent_count() == 10
        newest = board_cache.load_board(json.loads(json.dumps(boards[-1])), db)  # met again: kept
        assert board_cache.load_board(json.loads(json.dumps(boards[-1])), db) is newest
        assert board_cache.recent_count() == 9  # kept, it is found by its fast key too, whose bytes count
        board_cache.clear()
        assert board_cache.recent_count() == 0


def test_a_board_too_large_to_keep_is_loaded_every_time() -> None:
    db = default_db()
    big = {"players": [{"name": "you"}], "battlefield": [
        {"id": f"f{i}", "card": "Forest", "oracle_text": "x" * 200, "name": "Forest", "type_line": "Land"}
        for i in range(board_cache.MAX_KEY_BYTES // 200 + 1)]}
    key = board_cache.content_key(big)
    assert key is not None and len(key) > board_cache.MAX_KEY_BYTES
    count = board_cache.recent_count()
    first = board_cache.load_board(big, db)
    assert board_cache.load_board(big, db) is not first and board_cache.recent_count() == count


def test_values_marshal_does_not_write_are_loaded_every_time() -> None:
    class Name(str):
        pass

    db = default_db()
    odd = _fresh()
    odd["battlefield"][0]["card"] = Name("Forest")
    assert board_cache.content_key(odd) is None
    assert board_cache.load_board(odd, db) == load_state(BOARD, db)


def test_threads_loading_boards_at_once_each_get_their_own_board() -> None:
    db = default_db()
    boards = []
    for n in range(12):
        board = _fresh()
        board["players"][0]["life"] = n + 1
        board["battlefield"][n % 3]["tapped"] = True
        boards.append(board)
    expected = [load_state(b, db) for b in boards]
    wrong: list[int] = []

    def work(offset: int) -> None:
        for k in range(200):
            n = (k + offset) % len(boards)
            if board_cache.load_board(json.loads(json.dumps(boards[n])), db) != expected[n]:
                wrong.append(n)

    threads = [threading.Thread(target=work, args=(t,)) for t in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert wrong == []


def test_a_refusal_on_a_kept_board_is_the_same_every_time() -> None:
    """Phyrexian Revoker (CR 602.5: "Activated abilities of sources with the chosen name can't be
    activated", the name not given) beside Sol Ring is refused; the second and third time on the
    kept board with the same error, and a board without it is not refused."""
    rod = _fresh()
    rod["battlefield"].append({"id": "rod", "card": "Phyrexian Revoker"})
    rod["battlefield"].append({"id": "ring", "card": "Sol Ring"})
    answers = [answer({"query": "pay", "state": json.loads(json.dumps(rod)), "cost": "{2}"}) for _ in range(3)]
    assert answers[0]["error"]["code"] == "unsupported" and answers[0]["error"]["where"].startswith("battlefield[3]")
    assert answers[1] == answers[0] == answers[2]
    fine = _fresh()
    fine["battlefield"].append({"id": "ring", "card": "Sol Ring"})
    assert answer({"query": "pay", "state": fine, "cost": "{2}"})["payable"] is True


def test_the_rules_of_paying_read_each_question_on_a_kept_board() -> None:
    """K'rrik's "pay 2 life rather than {B}" is refused on a cost with a hybrid black half and not
    on one without, each time, on one kept board."""
    krrik = _fresh()
    krrik["battlefield"].append({"id": "k", "card": "K'rrik, Son of Yawgmoth"})
    for _ in range(2):
        assert answer({"query": "can_pay", "state": krrik, "cost": "{B/G}"})["error"]["code"] == "unsupported"
        assert answer({"query": "can_pay", "state": krrik, "cost": "{G}"}) == {"payable": True}


def test_load_state_field_goes_through_the_cache() -> None:
    board_cache.clear()
    load_state_field({"query": "counts", "state": _fresh()})  # met once: known by its key
    query = {"query": "counts", "state": _fresh()}
    assert load_state_field(query) is load_state_field({"query": "counts", "state": _fresh()})


# -- boards recognised by their text, and kept answers ------------------------------------------

def _decode(text: str) -> dict[str, Any] | None:
    from manasolver.solver.service.protocol import JSON_DECODER
    return board_cache.decode_query(text, JSON_DECODER.scan_once)


def _line(state: Any, **fields: Any) -> str:
    return json.dumps({"query": "can_pay", "id": 1, "state": state, "cost": "{G}", **fields})


def test_a_query_line_decodes_as_json_loads_decodes_it() -> None:
    """Every line decode_query decodes is what json.loads makes of it; what it can't place
    (no state object, the marker's digits in the line, a state in a string, a nested state,
    duplicate keys, whitespace everywhere JSON allows it) is decoded as usual or found exactly."""
    board = json.dumps(BOARD)
    lines = [
        _line(BOARD), _line(BOARD, player="you"), _line([1, 2]), _line("a string"), _line(None),
        '{"state": ' + board + '}', '  {  "state" :\n' + board + ' ,"query":"counts"}  \n',
        '{"query": "counts", "state": ' + board + ', "state": {"players": []}}',
        '{"query": "counts", "state": {"players": []}, "state": ' + board + '}',
        '{"query": "counts", "note": "\\"state\\": ' + board.replace('"', '\\"') + '", "state": 1}',
        '{"query": "counts", "spell": {"state": ' + board + '}, "state": ' + board + '}',
        '{"query": "counts", "spell": {"state": ' + board + '}}',
        '{"query": "counts", "x": ' + board_cache._MARKER + ', "state": ' + board + '}',
        '{"query": "counts", "state": ' + board + ', "x": 1' + board_cache._MARKER + '}',
        '{"query": "counts", "state": ' + board + '', '{"query": "counts", "state": ' + board + '}}',
        '{"query": "counts", "state": ' + board + ',}', '["state", ' + board + ']', '{}', ' ',
    ]
    board_cache.clear()
    seen: dict[str, Any] = {}
    recognised = 0
    for round_ in range(3):  # met twice, the boards are kept and recognised by their text
        for text in lines:
            try:
                want: Any = json.loads(text)
            except ValueError:
                want = None
            got = _decode(text)
            assert got is None or got == want, text
            if got is None:
                continue
            assert list(got) == list(want), text
            if round_ == 2 and isinstance(got.get("state"), dict) and text in seen:
                assert got["state"] is seen[text], text  # recognised: the object decoded before
                recognised += 1
            if "error" not in answer({"query": "counts", "state": got["state"]}):  # kept: its text finds it
                seen[text] = got.get("state")
    assert recognised == 6  # the six lines with a top-level state of BOARD that json.loads reads
    assert _decode(lines[0]) is not None and board_cache.identified(_decode(lines[0])["state"], default_db)


def test_a_board_sent_again_as_text_is_found_by_its_text_from_the_second_time() -> None:
    """A board met for the first time is known by its content key only (a client sending a new
    board every line pays nothing for keeping it or its text); met again, it is kept with its
    text, and from then on the line's board is the object decoded that second time, and the
    state loaded then."""
    from manasolver.solver.service.protocol import answer_line
    board_cache.clear()
    text = _line(BOARD)
    first = _decode(text)
    assert first is not None
    state = load_state_field(first)
    second = _decode(text.replace('"id": 1', '"id": 2'))
    assert second is not None and second["state"] is not first["state"] and second["state"] == first["state"]
    kept = load_state_field(second)  # known by its content: kept now, with its text
    assert kept is not state and kept == state
    state = kept
    again = _decode(text.replace('"id": 1', '"id": 3'))
    assert again is not None and again["state"] is second["state"] and again["id"] == 3
    assert load_state_field(again) is state
    tapped = json.loads(json.dumps(BOARD))
    tapped["battlefield"][0]["tapped"] = True
    other = _decode(_line(tapped))
    assert other is not None and other["state"] is not first["state"] and other["state"] == tapped
    assert load_state_field(other).battlefield[0].tapped and not state.battlefield[0].tapped
    # the same board text at another place of another line is the same board again
    assert answer_line('{"state": ' + json.dumps(BOARD) + ', "query": "can_pay", "cost": "{G}{U}"}') == \
        {"payable": True}
    assert answer_line('{"state": ' + json.dumps(tapped) + ', "query": "can_pay", "cost": "{G}{U}"}') == \
        {"payable": False, "reason": answer({"query": "can_pay", "state": tapped, "cost": "{G}{U}"})["reason"]}


def test_a_board_text_that_fails_to_load_is_never_kept() -> None:
    bad = json.loads(json.dumps(BOARD))
    bad["battlefield"][0]["card"] = "Forrest"
    from manasolver.solver.service.protocol import answer_line
    for _ in range(3):
        got = answer_line(_line(bad))
        assert got["error"]["code"] == "unknown_card" and got["error"]["where"] == "battlefield[0].card"
        decoded = _decode(_line(bad))
        assert decoded is not None and decoded["state"] == bad
        assert board_cache.identified(decoded["state"], default_db) is None


def test_answers_written_from_kept_answers_are_the_answers_worked_out_again() -> None:
    """Through the batch writer (the kept answer's text with the line's id) and the Python API (a
    fresh copy), every answer equals the one worked out on a board loaded afresh, and a caller
    changing an answer it got changes no later answer."""
    from manasolver.solver.service.protocol import answer_line_text
    queries = [{"query": "pay", "cost": "{G}"}, {"query": "can_pay", "cost": "{G}{U}{G}"},
               {"query": "max_x", "cost": "{X}{G}"}, {"query": "options"}, {"query": "could_produce"},
               {"query": "counts"}, {"query": "payments", "cost": "{1}", "limit": 2},
               {"query": "pay", "cost": "{U}", "policy": ["min_sources"]}]
    ids: list[Any] = [None, 7, "seven", "é\"", [1, {"a": None}], 2.5, True]
    board_cache.clear()
    for round_ in range(3):
        for n, query in enumerate(queries):
            qid = ids[(n + round_) % len(ids)]
            full = {**query, "state": BOARD, **({"id": qid} if qid is not None else {})}
            want = json.dumps(answer(json.loads(json.dumps(full))))
            board_cache.clear() if round_ == 0 else None
            assert answer_line_text(json.dumps(full)) == want, (round_, query)
    line = json.dumps({"query": "pay", "cost": "{G}", "state": BOARD})
    from manasolver.solver.service.protocol import answer_line
    got = answer_line(line)
    got["payment"]["activations"].clear()
    assert answer_line(line)["payment"]["activations"] != []


def test_a_board_line_sent_again_is_answered_from_its_kept_board() -> None:
    """A line whose board is met for the first time looks up no memo (its board, just decoded,
    is no kept board); the same board met again is kept, and from its third line on the answer is
    its kept board's: the memo holds it, and a line with another id is written from it."""
    from manasolver.solver.service.protocol import JSON_DECODER, answer_line_text
    board_cache.clear()
    line = _line(BOARD)
    first = answer_line_text(line)
    assert first == json.dumps({"id": 1, "payable": True})
    for _ in range(2):
        assert answer_line_text(line) == first
    found = board_cache.read_query(line, JSON_DECODER.scan_once)
    assert found is not None and found[1] is None  # found by its text: a kept board's object
    kept = board_cache.identified(found[0]["state"], default_db)
    assert kept is not None and len(kept.answers) == 1
    assert answer_line_text(line.replace('"id": 1', '"id": 2')) == json.dumps({"id": 2, "payable": True})
    assert len(kept.answers) == 1
