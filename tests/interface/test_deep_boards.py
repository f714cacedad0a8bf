"""A ``batch`` line whose board nests too deeply is refused as it always was, whichever query
carries the board and wherever in it the deep value stands.

The line reader reads the depth of the line without its board, and the board's own depth only
when it matters: when the board did not load, or the answer is an error
(:func:`~manasolver.solver.service.boards.read_query`).  The argument is that a board that loads
nests at most :data:`~manasolver.solver.service.boards.LOADED_DEPTH` levels, since the loader
types every field; these tests hold the answers to what the depth read from the whole line gives:
a line one level past :data:`MAX_DEPTH` is the too-deep error (no ``id``, the line's number as
``where``), and a line at the bound is the query's own answer (the loader's error naming the field).
"""

from __future__ import annotations

import copy
import io
import json
from collections.abc import Callable
from typing import Any

import pytest
from manasolver.models.board.load import load_state
from manasolver.models.errors import ManasolverError
from manasolver.solver.service import boards as board_cache
from manasolver.solver.service import sessions
from manasolver.solver.service.decode import load_state_field
from manasolver.solver.service.parallel.batch import run_batch
from manasolver.solver.service.protocol import (
    JSON_DECODER,
    MAX_DEPTH,
    TOO_DEEP,
    answer,
    answer_line,
    answer_line_text,
)

BOARD: dict[str, Any] = {
    "players": [{"name": "you", "life": 20, "hand": ["Forest"]}, {"name": "opponent"}],
    "battlefield": [{"id": "f1", "card": "Forest"}, {"id": "f2", "card": "Forest", "tapped": True},
                    {"id": "i1", "card": "Island"}],
}

#: Every query that carries a ``state``, with the fields it needs besides.
QUERIES: dict[str, dict[str, Any]] = {
    "can_pay": {"cost": "{G}"},
    "pay": {"cost": "{G}"},
    "max_x": {"cost": "{X}{G}"},
    "payments": {"cost": "{G}"},
    "options": {},
    "could_produce": {},
    "counts": {},
    "validate": {"cost": "{G}", "payment": {"activations": [{"permanent": "f1"}]}},
    "guide": {"cost": "{G}"},
    "plan": {"costs": ["{G}"]},
    "open": {},
}


def _nested(levels: int) -> Any:
    value: Any = 0
    for _ in range(levels):
        value = [value]
    return value


def _depth(value: Any) -> int:
    """How deep JSON ``value`` nests arrays and objects (a scalar: 0)."""
    if isinstance(value, dict):
        return 1 + max(map(_depth, value.values()), default=0)
    if isinstance(value, list):
        return 1 + max(map(_depth, value), default=0)
    return 0


def _in_board(place: Callable[[dict[str, Any], Any], None]) -> Callable[[dict[str, Any], Any], None]:
    """A way of putting a deep value into a query's board, from one of putting it into a board."""
    def put(query: dict[str, Any], deep: Any) -> None:
        board = copy.deepcopy(BOARD)
        place(board, deep)
        query["state"] = board
    return put


def _set(*path: Any) -> Callable[[dict[str, Any], Any], None]:
    def place(obj: dict[str, Any], deep: Any) -> None:
        for key in path[:-1]:
            obj = obj[key]
        obj[path[-1]] = deep
    return place


#: Where a deep value is put: in fields the loader reads, in fields it does not know (on the board,
#: a player, a permanent, a card of a hand), in the query without its board.
PLACES: dict[str, Callable[[dict[str, Any], Any], None]] = {
    "counters": _in_board(_set("battlefield", 0, "counters")),
    "chosen": _in_board(_set("battlefield", 1, "chosen")),
    "hand": _in_board(_set("players", 0, "hand")),
    "library top": _in_board(_set("players", 0, "library")),
    "turn": _in_board(_set("turn")),
    "players": _in_board(_set("players")),
    "unknown board key": _in_board(_set("note")),
    "unknown player key": _in_board(_set("players", 1, "note")),
    "unknown permanent key": _in_board(_set("battlefield", 2, "note")),
    "card's extra field": _in_board(lambda board, deep: board["players"][0]["hand"].append(
        {"card": "Island", "extra": deep})),
    "last permanent": _in_board(lambda board, deep: board["battlefield"].append(
        {"id": "x", "card": "Forest", "activated_this_turn": {"0": deep}})),
    "query rest": lambda query, deep: query.update(state=copy.deepcopy(BOARD), note=deep),
}


def _line(name: str, place: str, extra: int) -> str:
    """A line of query ``name`` with a deep value at ``place``, nesting ``MAX_DEPTH + extra`` levels."""
    for levels in range(MAX_DEPTH + 2):
        query: dict[str, Any] = {"query": name, "id": 5, **QUERIES[name]}
        PLACES[place](query, _nested(levels))
        if _depth(query) == MAX_DEPTH + extra:
            return json.dumps(query)
    raise AssertionError(place)


def _refused(where: str) -> dict[str, Any]:
    return {"error": {"code": "bad_query", "message": TOO_DEEP, "where": where}}


@pytest.mark.parametrize("name", sorted(QUERIES))
def test_a_line_one_level_too_deep_is_refused_wherever_its_deep_value_stands(name: str) -> None:
    """One level past the bound: the too-deep error, without the query's id, through each reader
    (a line of text or of bytes, answered as an object or as text), each time it is sent."""
    board_cache.clear()
    opened = len(sessions.STORE)
    for place in PLACES:
        line = _line(name, place, 1)
        for _ in range(3):  # never kept, so refused the same each time
            assert answer_line(line, 7) == _refused("line 7"), place
            assert answer_line(line) == _refused(""), place
            assert answer_line_text(line.encode("utf-8"), 8) == json.dumps(_refused("line 8")), place
            assert answer_line_text(line, 9, cards="") == json.dumps(_refused("line 9")), place
    assert len(sessions.STORE) == opened  # no board opened


@pytest.mark.parametrize("name", sorted(QUERIES))
def test_a_line_at_the_bound_is_answered_as_its_query(name: str) -> None:
    """At the bound, the line is its query's answer: the loader's error naming the deep field (or,
    in the query's rest, the protocol's), as the query object itself is answered."""
    board_cache.clear()
    opened = len(sessions.STORE)
    for place in PLACES:
        line = _line(name, place, 0)
        for _ in range(2):
            want = answer(json.loads(line))
            assert "error" in want and want["error"]["message"] != TOO_DEEP, (place, want)
            assert answer_line(line, 7) == want, place
            assert answer_line_text(line, 7) == json.dumps(want), place
    assert len(sessions.STORE) == opened


def test_batch_answers_deep_boards_between_plain_lines_as_it_did() -> None:
    """``batch`` (:func:`run_batch`): deep lines among lines that load, each answered in order; the
    plain line after a refused one is answered as if alone."""
    board_cache.clear()
    plain = json.dumps({"query": "can_pay", "state": BOARD, "cost": "{G}"})
    lines = [plain, _line("can_pay", "unknown board key", 1), plain, _line("open", "hand", 1),
             _line("counts", "card's extra field", 0), plain, "[" * 5000 + "]" * 5000]
    out = io.StringIO()
    run_batch((line.encode("utf-8") + b"\n" for line in lines), out, None)
    got = [json.loads(text) for text in out.getvalue().splitlines()]
    assert got[0] == got[2] == got[5] == {"payable": True}
    assert got[1] == _refused("line 2") and got[3] == _refused("line 4") and got[6] == _refused("line 7")
    assert got[4] == answer(json.loads(lines[4])) and got[4]["error"]["code"] == "unknown_field"


def test_an_open_line_too_deep_opens_nothing() -> None:
    """``open`` loads a copy of its board: a board too deep (within what the decoder reads, or
    past it) is refused as too deep and opens no session; one that loads opens one."""
    opened = len(sessions.STORE)
    for levels in (MAX_DEPTH, 500, 5000):
        line = json.dumps({"query": "open", "state": {**BOARD, "note": 0}})
        line = line.replace('"note": 0', '"note": ' + "[" * levels + "]" * levels)
        assert answer_line(line, 3) == _refused("line 3")
    assert len(sessions.STORE) == opened
    handle = answer_line(json.dumps({"query": "open", "state": BOARD}))["board"]
    assert len(sessions.STORE) == opened + 1
    assert answer_line(json.dumps({"query": "close", "board": handle})) == {"closed": True}


def test_the_note_of_a_board_says_whether_it_loaded() -> None:
    """:func:`read_query` leaves a board met for the first time with its depth unread, and its note
    says so until the board loads; a board that fails to load stays unread, a kept board's text
    has no note."""
    board_cache.clear()
    scan = JSON_DECODER.scan_once
    line = json.dumps({"query": "counts", "state": BOARD})
    for _ in range(2):
        found = board_cache.read_query(line, scan)
        assert found is not None and found[1] is not None and found[1][4] is False and found[1][1] == line
        load_state_field(found[0])
        assert found[1][4] is True
    found = board_cache.read_query(line, scan)  # met twice: kept, found by its text
    assert found is not None and found[1] is None
    bad = board_cache.read_query(json.dumps({"query": "counts", "state": {**BOARD, "note": 1}}), scan)
    assert bad is not None and bad[1] is not None
    with pytest.raises(ManasolverError):
        load_state_field(bad[0])
    assert bad[1][4] is False


#: A board with a value in every nested field the loader reads, the deepest at LOADED_DEPTH.
RICH: dict[str, Any] = {
    "players": [
        {"name": "you", "life": 20, "pool": "{G}", "hand": ["Forest", {"card": "Island", "colors": ["U"]}],
         "graveyard": [{"name": "Bear", "type_line": "Creature — Bear", "mana_cost": "{1}{G}"}],
         "designations": ["monarch"],
         "library": {"size": 5, "top": ["Forest", {"card": "Island", "colors": ["U", "G"]}]}},
        {"name": "opponent"},
    ],
    "turn": {"active": "you", "step": "main1", "stack_empty": True},
    "battlefield": [
        {"id": "f1", "card": "Forest", "counters": {"charge": 2}, "chosen": {"color": "G"},
         "activated_this_turn": {"0": 1}, "imprinted": ["Island", {"card": "Forest", "colors": ["G"]}]},
        {"id": "c1", "card": "Forest", "colors": ["G"], "tapped": True},
    ],
}


def _places(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """The path of every value inside JSON ``value``."""
    out: list[tuple[Any, ...]] = []
    items = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
    for key, item in items:
        out.append((*path, key))
        out.extend(_places(item, (*path, key)))
    return out


def test_a_board_that_loads_nests_at_most_loaded_depth() -> None:
    """The argument the line reader leans on: every value of a board that loads, wrapped in one
    more list or object, and every object of it given a key it does not know, either still loads
    and nests within :data:`LOADED_DEPTH`, or is refused; the rich board is at that depth."""
    load_state(RICH)
    assert _depth(RICH) == board_cache.LOADED_DEPTH
    changed: list[dict[str, Any]] = []
    for path in _places(RICH):
        for wrap in (lambda v: [v], lambda v: {"x": v}, lambda v: {"card": v}, lambda v: {"size": v}):
            board = copy.deepcopy(RICH)
            holder: Any = board
            for key in path[:-1]:
                holder = holder[key]
            holder[path[-1]] = wrap(holder[path[-1]])
            changed.append(board)
    for path in [(), *_places(RICH)]:
        board = copy.deepcopy(RICH)
        holder = board
        for key in path:
            holder = holder[key]
        if isinstance(holder, dict):
            holder["zz"] = [[0]]
            changed.append(board)
    loaded = 0
    for board in changed:
        try:
            load_state(board)
        except ManasolverError:
            continue
        loaded += 1
        assert _depth(board) <= board_cache.LOADED_DEPTH, board
    assert len(changed) > 150 and loaded > 0
