"""``manasolver batch --workers N`` through real subprocesses: the lines answered in local
worker processes, in chunks, byte for byte as one process answers them, bad lines included; answers
written while standard input is still open; sessions refused with a clear error; usage errors."""

from __future__ import annotations

import json
import select
import subprocess
import sys
from pathlib import Path
from typing import Any

from manasolver.benchmarks.boards import costs_for, small_board
from manasolver.solver.service.parallel.batch import LINES

CLI = [sys.executable, "-m", "manasolver.solver.service.cli", "batch"]


def run(args: list[str], data: bytes, timeout: float = 300) -> subprocess.CompletedProcess[bytes]:
    proc = subprocess.run([*CLI, *args], input=data, capture_output=True, timeout=timeout)
    assert b"Traceback" not in proc.stderr, proc.stderr.decode()
    return proc


def _line(query: dict[str, Any]) -> bytes:
    return json.dumps(query).encode() + b"\n"


def assert_same_answers(one: bytes, two: bytes) -> None:
    """Two runs' answers are the same line for line, byte for byte; an answer that says it hit the
    engine's time bound (``time_bound``: wall-clock work cut short on a loaded machine) need only agree
    on its id and payability."""
    a, b = one.splitlines(), two.splitlines()
    assert len(a) == len(b)
    differ = []
    for i, (x, y) in enumerate(zip(a, b)):
        if x == y:
            continue
        jx, jy = json.loads(x), json.loads(y)
        if (jx.get("time_bound") or jy.get("time_bound")) and \
                (jx.get("id"), jx.get("payable")) == (jy.get("id"), jy.get("payable")):
            continue
        differ.append(f"line {i + 1}: {x[:300]!r} != {y[:300]!r}")
    assert not differ, "\n".join(differ[:5])


def mixed_lines(n: int) -> list[bytes]:
    """``n`` lines: ``can_pay`` and ``pay`` on ten-permanent boards of real cards, with and without
    ids, and every few lines one that ``batch`` answers with an error (bad JSON, bytes that are not
    UTF-8, a blank line, JSON that is not an object, NaN, an unknown query), and a byte order mark."""
    costs = costs_for(3, n)
    bad = [b'{"query": "pay", "cost": "{G}"\n', b'\xff\xfe{"query": "can_pay"}\n', b"\n", b"[1, 2, 3]\n",
           b'{"query": "can_pay", "cost": "{G}", "x": NaN, "state": {}}\n', b'{"query": "pya", "id": 5}\n',
           b'\xef\xbb\xbf{"query": "mana_value", "cost": "{2/W}{B/P}", "id": "bom"}\n']
    out = []
    for i in range(n):
        if i % 9 == 4:
            out.append(bad[(i // 9) % len(bad)])
            continue
        query: dict[str, Any] = {"query": "pay" if i % 3 else "can_pay", "state": small_board(i), "cost": costs[i]}
        if i % 2:
            query["id"] = i
        out.append(_line(query))
    return out


def test_workers_two_answer_byte_for_byte_as_one_process() -> None:
    lines = mixed_lines(2 * LINES + 17)  # three chunks, the last one short
    data = b"".join(lines)
    one = run([], data)
    two = run(["--workers", "2"], data)
    assert one.returncode == two.returncode == 0
    answers = [json.loads(x) for x in two.stdout.splitlines()]
    assert len(answers) == len(lines)
    assert_same_answers(one.stdout, two.stdout)
    # the bad lines are answered in place, naming their own line number
    assert answers[4]["error"]["where"] == "line 5" and "not valid JSON" in answers[4]["error"]["message"]
    assert answers[13]["error"]["where"] == "line 14" and "not valid UTF-8" in answers[13]["error"]["message"]
    assert answers[22]["error"]["message"].startswith("empty line")
    assert answers[58] == {"id": "bom", "mana_value": 3, "colors": ["W", "B"]}
    assert answers[1]["id"] == 1 and ("payment" in answers[1] or "reason" in answers[1])
    bad = [i for i in range(len(lines)) if i % 9 == 4 and (i // 9) % 7 != 6]  # every 9th, but the BOM line
    assert [i for i, a in enumerate(answers) if "error" in a] == bad


def test_answers_come_while_standard_input_is_open() -> None:
    """The first chunks are answered and written before the input ends (a bounded window, not the
    whole input read first)."""
    lines = [_line({"query": "can_pay", "id": i, "state": small_board(i), "cost": "{1}"}) for i in range(2 * LINES)]
    proc = subprocess.Popen([*CLI, "--workers", "2"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE)
    assert proc.stdin is not None and proc.stdout is not None
    try:
        proc.stdin.write(b"".join(lines))
        proc.stdin.flush()
        ready, _, _ = select.select([proc.stdout], [], [], 120)
        assert ready, "no answer within 120 s while standard input stayed open"
        first = json.loads(proc.stdout.readline())
        assert first == {"id": 0, "payable": True}
        assert proc.poll() is None
    finally:
        proc.stdin.close()
        rest = proc.stdout.read()
        proc.wait(timeout=120)
    assert len(rest.splitlines()) == 2 * LINES - 1 and proc.returncode == 0


def test_sessions_are_refused_across_processes() -> None:
    """A session keeps its board in one process: under --workers, open/update/close and a "board"
    handle are bad_query errors that say to run batch without --workers; the other lines are answered."""
    state = small_board(1)
    lines = [_line({"query": "open", "state": state, "id": "o"}),
             _line({"query": "can_pay", "board": "b1", "cost": "{G}", "id": 2}),
             _line({"query": "update", "board": "b1", "changes": [{"tap": "p0"}]}),
             _line({"query": "close", "board": "b1"}),
             _line({"query": "can_pay", "state": state, "cost": "{1}", "id": "fresh"})]
    proc = run(["--workers", "2"], b"".join(lines))
    assert proc.returncode == 0
    answers = [json.loads(x) for x in proc.stdout.splitlines()]
    assert [a.get("id") for a in answers] == ["o", 2, None, None, "fresh"]
    for answer, where in zip(answers[:4], ["query", "board", "query", "query"]):
        assert answer["error"]["code"] == "bad_query" and answer["error"]["where"] == where
        assert "without --workers or --dask" in answer["error"]["message"]
    assert answers[4] == {"id": "fresh", "payable": True}


def test_the_card_file_reaches_every_worker(tmp_path: Path) -> None:
    cards = tmp_path / "cards.jsonl"
    cards.write_text(json.dumps({"name": "Batch Test Dork", "type_line": "Creature — Elf", "mana_cost": "{3}{G}",
                                 "oracle_text": "{T}: Add {G}."}) + "\n", encoding="utf-8")
    lines = [_line({"query": "mana_value", "card": "Batch Test Dork", "id": i}) for i in range(LINES + 5)]
    data = b"".join(lines)
    one = run(["--cards", str(cards)], data)
    two = run(["--workers", "2", "--cards", str(cards)], data)
    assert one.returncode == two.returncode == 0 and one.stdout == two.stdout  # no time bound here
    answers = [json.loads(x) for x in two.stdout.splitlines()]
    assert answers[-1] == {"id": LINES + 4, "mana_value": 4, "colors": ["G"]}
    bare = json.loads(run(["--workers", "2"], lines[0]).stdout)
    assert bare["error"]["code"] == "unknown_card"
    missing = run(["--workers", "2", "--cards", str(tmp_path / "none.jsonl")], data)
    assert missing.returncode == 2 and b"none.jsonl" in missing.stderr and missing.stdout == b""


def test_usage_errors_exit_two() -> None:
    both = run(["--workers", "2", "--dask", "tcp://127.0.0.1:8786"], b"")
    assert both.returncode == 2 and b"not allowed with" in both.stderr
    zero = run(["--workers", "0"], b"")
    assert zero.returncode == 2 and b"--workers 0" in zero.stderr


def test_an_unreachable_scheduler_is_a_clear_error_in_bounded_time() -> None:
    import socket
    with socket.socket() as sock:  # a port nothing listens on
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    for address, says in ((f"tcp://127.0.0.1:{port}", b"can't connect"),
                          ("tcp://127.0.0.1", b"not a scheduler address"), ("inproc://x", b"not a scheduler address")):
        proc = run(["--dask", address], b'{"query": "mana_value", "cost": "{1}"}\n', timeout=120)
        assert proc.returncode == 2 and says in proc.stderr and proc.stdout == b"", proc.stderr


def test_the_throughput_benchmark_runs_and_checks_its_answers(tmp_path: Path) -> None:
    """benchmarks/parallel.py on a few lines: its table is written and every run answered as the
    one-process run (no speed is asserted)."""
    from manasolver.benchmarks.parallel import main
    assert main(["--lines", "24", "--repeats", "1", "--out", str(tmp_path)]) == 0
    text = (tmp_path / "parallel.md").read_text(encoding="utf-8")
    assert "| one process |" in text and "| --workers 2 |" in text
    assert "Every run answered exactly as the one-process run." in text
