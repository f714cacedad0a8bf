"""Reading a ``batch`` line (:func:`~manasolver.solver.service.protocol.answer_line`): the depth
bound holds on every line, whether its board is met for the first time or is a kept board's text
(whose depth is not read again: the rest of the line is)."""

from __future__ import annotations

import json
import random
from typing import Any

from manasolver.solver.service import boards as board_cache
from manasolver.solver.service.protocol import JSON_DECODER, MAX_DEPTH, TOO_DEEP, answer_line

BOARD: dict[str, Any] = {
    "players": [{"name": "you", "life": 20}, {"name": "opponent"}],
    "battlefield": [{"id": "f1", "card": "Forest"}, {"id": "i1", "card": "Island"}],
}


def _nested(levels: int) -> Any:
    value: Any = 0
    for _ in range(levels):
        value = [value]
    return value


def _line(**fields: Any) -> str:
    return json.dumps({"query": "can_pay", "id": 1, "state": BOARD, "cost": "{G}", **fields})


def test_a_kept_boards_line_is_as_deep_as_what_surrounds_the_board() -> None:
    """Met three times, the board is kept and found by its text; a line with that board and a
    field nested one level too deep is refused, one nested to the bound is answered, before the
    board is kept and after."""
    board_cache.clear()
    for _ in range(2):
        for kept in (False, True):
            if kept:
                for n in range(3):
                    assert answer_line(_line(id=n)) == {"id": n, "payable": True}
            # the query is one level, so a field holds MAX_DEPTH - 1 levels at most
            deep = answer_line(_line(policy=_nested(MAX_DEPTH)), 7)
            assert deep == {"error": {"code": "bad_query", "message": TOO_DEEP, "where": "line 7"}}, kept
            assert board_cache.decode_query(_line(policy=_nested(MAX_DEPTH)), JSON_DECODER.scan_once) is None
            within = answer_line(_line(policy=_nested(MAX_DEPTH - 1)), 8)
            assert within["error"]["code"] == "bad_query" and within["error"]["where"] == "policy[0]", within
        board_cache.clear()


def test_a_board_nested_too_deeply_is_refused_every_time() -> None:
    """A board with a value nested past the bound is refused as too deep each time it is sent
    (never kept, so never found by its text)."""
    board_cache.clear()
    deep_board = {**BOARD, "note": _nested(MAX_DEPTH - 1)}
    line = json.dumps({"query": "can_pay", "state": deep_board, "cost": "{G}"})
    for _ in range(4):
        assert answer_line(line) == {"error": {"code": "bad_query", "message": TOO_DEEP, "where": ""}}
    shallow = json.dumps({"query": "can_pay", "state": {**BOARD, "note": _nested(MAX_DEPTH - 3)}, "cost": "{G}"})
    assert answer_line(shallow)["error"]["where"] != ""  # within the bound: read as a board, and refused as one


def _sharing_a_print() -> tuple[dict[str, Any], dict[str, Any]]:
    """Two boards whose texts differ in one character (their first permanents' ids) that their
    print does not read: same length, same print."""
    islands = [{"id": f"i{n}", "card": "Island"} for n in range(6)]
    for pad in range(1, 40):
        first, second = ({"players": [{"name": "y" * pad}],
                          "battlefield": [{"id": forest, "card": "Forest"}, *islands]} for forest in ("a", "b"))
        texts = [json.dumps(first), json.dumps(second)]
        prints = [board_cache._text_print(text, 0, len(text)) for text in texts]
        if prints[0] == prints[1]:
            return first, second
    raise AssertionError("no padding gives two boards one print")


def test_a_board_text_with_a_kept_boards_print_is_read_as_its_own_board() -> None:
    """Two board texts of one length whose prints agree (their first permanents' ids differ, at a
    character the print does not read): with the first kept, the second is still read as its own
    board, every time."""
    board_cache.clear()
    first, second = _sharing_a_print()

    def forest(board: dict[str, Any]) -> list[str]:
        produced = answer_line(json.dumps({"query": "could_produce", "state": board}))["could_produce"]
        return [pid for pid, colors in produced.items() if colors == ["G"]]

    for _ in range(3):
        assert forest(first) == ["a"]
    for _ in range(3):
        assert (forest(second), forest(first)) == (["b"], ["a"])


def test_a_short_board_text_is_known_by_its_own_print_wherever_it_stands() -> None:
    """A board text shorter than twice the print (a lone player) is known by all its characters:
    met at the end of one line and inside the next, it is one board, kept at the second meeting;
    its print never reads what follows it in the line."""
    board_cache.clear()
    board = '{"players":[{"name":"a"}]}'
    last = '{"query": "can_pay", "cost": "{0}", "state": ' + board + "}"
    inside = '{"query": "can_pay", "state": ' + board + ', "cost": "{0}"}'
    for line in (last, inside, last):
        assert answer_line(line) == {"payable": True}
    assert board_cache.recent_count() == 1
    assert board_cache.decode_query(inside, JSON_DECODER.scan_once) is not None
    found = board_cache._text_print(inside, inside.index(board), inside.index(board) + len(board))
    assert found == board_cache._text_print(board, 0, len(board)) == (board, len(board))


def test_boards_of_one_length_that_differ_here_and_there_are_each_met_once() -> None:
    """Boards of one length whose texts differ at many places but agree around their middle (basic
    lands of one name length in other orders), each sent once: none is taken for a board met
    again, so no board text is kept."""
    board_cache.clear()
    rng = random.Random(5)
    sent: set[str] = set()
    while len(sent) < 40:
        lands = [rng.choice(("Forest", "Island", "Plains")) for _ in range(12)]
        lands[5:7] = ["Forest", "Forest"]  # the middle of every text alike
        board = {"players": [{"name": "you"}], "battlefield": [{"id": f"p{n}", "card": c} for n, c in enumerate(lands)]}
        line = json.dumps({"query": "can_pay", "state": board, "cost": "{G}"})
        if line in sent:
            continue
        sent.add(line)
        assert answer_line(line) == {"payable": True}
    assert board_cache.recent_count() == 40 and not board_cache._TEXTS
