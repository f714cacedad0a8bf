"""The client-path benchmark (benchmarks/client.py) on real front ends: its quick run answers
every line, and its answers are the engine's.

The run starts a real ``manasolver batch`` process, a plain JSON loop, ``manasolver serve --port 0``
with HTTP clients in their own processes, and a cold ``manasolver can-pay``; times are reported,
never asserted.
"""

from __future__ import annotations

import json
from pathlib import Path

from manasolver.benchmarks import client, client_pipes
from manasolver.solver.service.protocol import answer


def test_varied_board_is_real_cards_with_tapped_and_sick_permanents() -> None:
    """The varied Commander board loads (every card in the database and read), has 40
    permanents, two tapped and two summoning sick, and Atraxa as the commander."""
    board = client.varied_board(3)
    perms = board["battlefield"]
    assert len(perms) == 40 and len({p["id"] for p in perms}) == 40
    assert sum(1 for p in perms if p.get("tapped")) == 2 and sum(1 for p in perms if p.get("sick")) == 2
    got = answer({"query": "pay", "state": board, "cost": "{2}{G}{W}"})
    assert "error" not in got and got["payable"] is True, got


def test_quick_client_run_answers_every_line_as_the_engine_does(tmp_path: Path) -> None:
    results = client.run(client.QUICK, log=lambda s: None)
    rows = {r["figure"]: r for r in results["rows"]}
    fresh = [r for r in rows.values() if r["figure"].startswith("fresh")]
    assert len(fresh) == 9 and {r["board"] for r in fresh} == set(client.FAMILIES)
    for r in fresh:
        assert r["errors"] == 0 and r["mismatches"] == 0, r
    repeated = [r for r in rows.values() if r["figure"].startswith(("same board", "session board"))]
    assert len(repeated) == 8
    for r in repeated:
        if r.get("status") == "sessions not available":
            continue
        assert r["errors"] == 0 and r["differ_from_in_process"] == 0, r
    http = [r for r in rows.values() if r["figure"].startswith("HTTP")]
    assert len(http) == 2 and all(r["failed"] == 0 and r["requests"] > 0 for r in http), http
    filters = rows["filter board pay (2 costs)"]
    assert filters["errors"] == 0
    assert results["cold_start"]["answer_ok"]
    paths = client.write(results, tmp_path)
    assert {p.name for p in paths} >= {"client.json", "client.md"}
    assert json.loads((tmp_path / "client.json").read_text())["plan"] == "quick"
    assert "## Client path" in (tmp_path / "client.md").read_text()


def test_pipe_streams_and_asks_lines_in_order_through_a_real_process() -> None:
    """The harness's pipes to the plain JSON loop (real processes): a stream of lines larger than
    the pipe's buffer comes back whole and in order from the loop that flushes only when its input
    ends, and the loop that flushes each answer answers lines asked alone after a stream (nothing
    read ahead is lost between the two ways of asking)."""
    import sys
    lines = [json.dumps({"id": i, "pad": "x" * (70_000 if i % 7 == 0 else i)}) for i in range(60)]
    plain = client_pipes.Pipe([sys.executable, "-c", client_pipes.LOOP], ready=True)
    try:
        got, secs = plain.stream(lines, close=True)
        assert secs > 0 and got == [{"id": i, "payable": True} for i in range(60)]
    finally:
        plain.close()
    pipe = client_pipes.Pipe([sys.executable, "-c", client_pipes.LOOP_FLUSHED], ready=True)
    try:
        got, _ = pipe.stream(lines)
        assert [g["id"] for g in got] == list(range(60))
        for i in range(3):
            one, _ = pipe.ask(json.dumps({"id": f"alone-{i}"}))
            assert one == {"id": f"alone-{i}", "payable": True}
        again, _ = pipe.stream(lines[:5])
        assert [g["id"] for g in again] == list(range(5))
    finally:
        pipe.close()


def test_every_fresh_row_has_its_ratio_to_the_json_loop() -> None:
    """The ×-loop ratio is computed the same way for every fresh row: our time (per line
    streamed, or median one at a time) over the JSON loop's on the same lines; every answer
    is the in-process one."""
    import sys
    batch = client_pipes.Pipe(client_pipes.cli() + ["batch"])
    loop = client_pipes.Pipe([sys.executable, "-c", client_pipes.LOOP_FLUSHED], ready=True)
    try:
        rows = client._fresh(client.ClientPlan("t", 4, 3, 3, 0, 0, 0, 0, False, 0, 0), batch, loop, lambda s: None)
    finally:
        batch.close()
        loop.close()
    assert len(rows) == 9
    for r in rows:
        ours = r.get("per_line_ms") or r["median_ms"]
        assert abs(r["ratio_to_json_loop"] - ours / r["json_loop_ms"]) <= 0.02 * r["ratio_to_json_loop"] + 0.01, r
        assert r["errors"] == 0 and r["mismatches"] == 0, r


def test_a_streamed_row_sends_its_lines_in_parts_in_order_with_the_loop_timed_beside_each() -> None:
    """The streamed fresh row's parts: every line answered once, in the order sent, whatever the
    parts' sizes (7 lines in 3 parts: 3, 3, 1); a ratio per part."""
    lines = client._lines("sixty", "can_pay", 7, 5)
    batch = client_pipes.Pipe(client_pipes.cli() + ["batch"])
    try:
        answers, secs, loop_secs, ratios = client._paired_stream(lines, 3, batch)
        whole, _, _, one = client._paired_stream(lines, 1, batch)
    finally:
        batch.close()
    assert [a["id"] for a in answers] == [json.loads(line)["id"] for line in lines]
    assert answers == whole == client_pipes.expected(lines)
    assert len(ratios) == 3 and len(one) == 1 and secs > 0 and loop_secs > 0
    assert all(r > 0 for r in ratios)


def test_inprocess_times_deck_lines_with_each_interpreter() -> None:
    """``--against``: each interpreter (here this one, twice under two names) answers the same
    fresh deck-board lines in its own process; a row per family, query and interpreter."""
    import sys
    plan = client.ClientPlan("t", 0, 0, 3, 0, 0, 0, 0, False, 0, 0, warm_lines=2)
    rows = client.inprocess(plan, {"one": sys.executable, "two": sys.executable}, lambda s: None, rounds=1)
    assert len(rows) == 8 and {r["code"] for r in rows} == {"one", "two"}
    assert all(r["lines"] == 3 and r["median_ms"] > 0 for r in rows)
