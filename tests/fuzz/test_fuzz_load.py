"""Load: costs of thousands of symbols, counters up to the board's limit, thousands of identical
and of referencing sources, and many threads asking at once; each answer proven or flagged
(solver/budget.py), legal when it pays, and from many threads the same as from one."""

from __future__ import annotations

import random
import threading
from typing import Any

import pytest
from fuzzing import CARDS, LONG, SYMBOLS, check_answer, cut_short

from manasolver.models.board.schema import LIMITS
from manasolver.solver.service.demo import example_state
from manasolver.solver.service.protocol import answer

SIZE = 3000 if LONG else 1000


def _board(perms: list[dict[str, Any]]) -> dict[str, Any]:
    return {"players": [{"name": "you"}, {"name": "opponent"}], "battlefield": perms}


@pytest.mark.parametrize("seed", range(6 if LONG else 2))
def test_costs_of_thousands_of_symbols(seed: int) -> None:
    rng = random.Random(seed)
    cost = "".join(rng.choice(SYMBOLS) for _ in range(SIZE))
    for kind in ("pay", "can_pay", "max_x" if "{X}" in cost else "payments"):
        query = {"query": kind, "state": example_state("commander"), "cost": cost, "limit": 3}
        check_answer(query, answer(query))


@pytest.mark.parametrize("card", ["Everflowing Chalice", "Gemstone Mine", "Vivid Crag"])
def test_counters_at_the_limit(card: str) -> None:
    state = example_state("basics")
    state["battlefield"].append({"id": "z", "card": card, "counters": {"charge": LIMITS["counter"]}})
    for kind, cost in (("pay", "{C}"), ("max_x", "{X}"), ("can_pay", "{1}{R}")):
        query = {"query": kind, "state": state, "cost": cost}
        check_answer(query, answer(query), validate=card != "Everflowing Chalice")
    over = {"query": "pay", "state": {**state, "battlefield": state["battlefield"][:-1] + [
        {"id": "z", "card": card, "counters": {"charge": LIMITS["counter"] + 1}}]}, "cost": "{C}"}
    refused = answer(over)
    assert refused["error"]["code"] == "bad_state", refused


@pytest.mark.parametrize("card", ["Reflecting Pool", "Exotic Orchard", "Fellwar Stone", "Forest", "Sol Ring"])
def test_thousands_of_identical_and_referencing_sources(card: str) -> None:
    perms = [{"id": f"b{i}", "card": c, "controller": "opponent" if i % 2 else "you"}
             for i, c in enumerate(["Island", "Forest", "Plains", "Swamp"])]
    perms += [{"id": f"s{i}", "card": card} for i in range(SIZE)]
    state = _board(perms)
    for query in ({"query": "pay", "cost": "{U}{G}{2}"}, {"query": "can_pay", "cost": "{10}{U}"},
                  {"query": "could_produce"}, {"query": "options", "limit": 5}):
        query = {**query, "state": state}
        check_answer(query, answer(query))


@pytest.mark.parametrize("kind,cost", [("can_pay", "{2}{G}"), ("can_pay", "{800}"), ("pay", "{300}{U}"),
                                       ("max_x", "{X}{G}"), ("payments", "{1}{G}")])
def test_hundreds_of_signets_and_filter_lands(kind: str, cost: str) -> None:
    """The benchmark's Commander board (31 real cards) repeated to SIZE // 2 permanents: 75 or
    more Signets and filter lands, whose abilities cost mana (CP-SAT's model has a flow per pair
    of them); every answer legal, proven or flagged, none an internal error."""
    from manasolver.benchmarks.boards import commander_board
    board = commander_board(0)
    perms = board["battlefield"]
    board["battlefield"] = [{**perms[i % len(perms)], "id": f"p{i}"} for i in range(SIZE // 2)]
    query = {"query": kind, "state": board, "cost": cost, "limit": 3}
    result = check_answer(query, answer({k: v for k, v in query.items() if kind == "payments" or k != "limit"}))
    if "error" in result:
        assert "time bound" in result["error"]["message"], result


def test_many_threads_answer_as_one() -> None:
    rng = random.Random(7)
    state = example_state("commander")
    queries = [{"query": rng.choice(["pay", "can_pay", "max_x"]), "state": state,
                "cost": "{X}" + "".join(rng.choice(SYMBOLS[:6] + ("{2}",)) for _ in range(rng.randint(1, 6)))}
               for _ in range(12 if LONG else 5)]
    queries += [{"query": "pay", "state": _board([{"id": f"p{i}", "card": rng.choice(CARDS)} for i in range(20)]),
                 "cost": "{2}{G}"} for _ in range(4 if LONG else 2)]
    serial = [answer(q) for q in queries]
    rounds = 6 if LONG else 1
    got: list[list[dict[str, Any]]] = [[] for _ in range(4)]

    def run(t: int) -> None:
        for _ in range(rounds):
            got[t].extend(answer(q) for q in queries)

    threads = [threading.Thread(target=run, args=(t,)) for t in range(4)]
    for th in threads:
        th.start()
    for th in threads:
        th.join(timeout=600)
    for t in range(4):
        assert len(got[t]) == rounds * len(queries)
        for i, result in enumerate(got[t]):
            q, want = queries[i % len(queries)], serial[i % len(queries)]
            check_answer(q, result, validate=False)
            if not cut_short(result) and not cut_short(want):
                assert result == want, (q["query"], q["cost"], result, want)
