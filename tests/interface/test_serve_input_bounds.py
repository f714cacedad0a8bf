"""Input bounded where it is read: nesting deeper than 64 levels and lines longer than the HTTP
body limit are answered ``bad_query`` in order, in ``batch``, ``serve`` and the API; an answer that
can't be written (an ``id`` nested 989 deep) is that line's error and the next line is answered."""

from __future__ import annotations

import io
import json
import random
import subprocess
import sys
from typing import Any

import pytest
from manasolver.solver.service.protocol import (
    MAX_DEPTH,
    TooLong,
    answer,
    answer_text,
    bounded_lines,
    too_deep,
)

CLI = [sys.executable, "-m", "manasolver.solver.service.cli"]
GOOD = {"query": "mana_value", "cost": "{2}{G}"}


def _depth(value: Any) -> int:
    if isinstance(value, dict):
        return 1 + max((_depth(v) for v in value.values()), default=0)
    if isinstance(value, list):
        return 1 + max((_depth(v) for v in value), default=0)
    return 0


def test_too_deep_reads_the_depth_of_random_json_as_the_decoder_does() -> None:
    """Strings holding brackets, quotes and backslashes do not count; every level does."""
    rng = random.Random(5)

    def value(levels: int) -> Any:
        if levels == 0 or rng.random() < 0.2:
            return rng.choice(["[{", '"\\', '\\"]', "x", 1, None, '{"', "", "é[", '\\\\"{'])
        if rng.random() < 0.5:
            return [value(levels - 1) for _ in range(rng.randint(0, 3))]
        return {rng.choice(["a", "[", "{}", '"', "\\"]) + str(k): value(levels - 1) for k in range(rng.randint(0, 3))}

    for _ in range(2000):
        v = value(rng.randint(0, 12))
        text = json.dumps(v, ensure_ascii=rng.random() < 0.5)
        for limit in range(12):
            assert too_deep(text, limit) == (_depth(v) > limit), (text, limit)
            assert too_deep(text.encode("utf-8"), limit) == (_depth(v) > limit)


def test_an_id_nested_989_deep_is_answered_as_an_error_by_the_api() -> None:
    deep: Any = 0
    for _ in range(989):
        deep = [deep]
    for got in (answer({**GOOD, "id": deep}), json.loads(answer_text({**GOOD, "id": deep}))):
        assert got["error"]["code"] == "bad_query" and got["error"]["where"] == "id"
    assert answer({**GOOD, "id": [[["fine"]]]}) == {"id": [[["fine"]]], "mana_value": 3, "colors": ["G"]}


def test_bounded_lines_reads_past_a_line_too_long() -> None:
    stream = io.BufferedReader(io.BytesIO(b"a\n" + b"x" * 100 + b"\nb\n" + b"y" * 30), buffer_size=16)
    lines = list(bounded_lines(stream, limit=20))
    assert lines[0] == b"a\n" and lines[2] == b"b\n" and len(lines) == 4
    assert type(lines[1]) is TooLong and lines[1].size == 101
    assert type(lines[3]) is TooLong and lines[3].size == 30


def _pipe_lines(data: bytes, limit: int, waits: list[int]) -> list[tuple[bool, int | None, bytes]]:
    """What :func:`input_lines` gives for ``data`` written to a pipe (each wait counted in ``waits``)."""
    import os
    import threading

    from manasolver.solver.service.parallel.batch import input_lines
    read, write = os.pipe()
    writer = threading.Thread(target=lambda: (os.write(write, data), os.close(write)))
    writer.start()
    with os.fdopen(read, "rb") as stream:
        got = [(type(line) is TooLong, getattr(line, "size", None), bytes(line))
               for line in input_lines(stream, lambda: waits.append(1), limit)]
    writer.join()
    return got


@pytest.mark.parametrize("chunk", [1, 3, 7, 1 << 16])
def test_batch_input_lines_are_bounded_lines_with_a_wait_before_each_read(
        chunk: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """``batch`` flushes its answers when no whole line of input is at hand (not after every line):
    the lines are those :func:`bounded_lines` gives, a line longer than the limit read past to its
    newline or the end, whatever size the reads come in."""
    from manasolver.solver.service.parallel import batch
    monkeypatch.setattr(batch, "_READ", chunk)
    rng = random.Random(7)
    for _ in range(100):
        data = b"".join(b"x" * rng.choice([0, 1, 19, 20, 21, 22, 70]) + (b"\n" if rng.random() < 0.85 else b"")
                        for _ in range(rng.randint(0, 8)))
        waits: list[int] = []
        want = [(type(line) is TooLong, getattr(line, "size", None), bytes(line))
                for line in bounded_lines(io.BufferedReader(io.BytesIO(data), buffer_size=7), limit=20)]
        assert _pipe_lines(data, 20, waits) == want, data
        assert waits, "a read of input is always preceded by the wait's call"


def test_batch_input_lines_wait_only_when_no_whole_line_is_at_hand() -> None:
    """Lines that came in one read are given without a wait between them: the answers of a stream
    are flushed once per read of input."""
    from manasolver.solver.service.parallel.batch import input_lines
    events: list[str] = []
    stream = io.BufferedReader(io.BytesIO(b"a\nb\nc\n"))
    for line in input_lines(stream, lambda: events.append("wait")):
        events.append(line.decode().strip())
    assert events == ["wait", "a", "b", "c", "wait"]


@pytest.mark.slow
def test_batch_answers_deep_and_huge_lines_in_order_and_goes_on() -> None:
    deep_id = '{"query": "mana_value", "cost": "{1}", "id": ' + "[" * 989 + "]" * 989 + "}"
    deep_query = '{"query": "mana_value", "cost": "{1}", "x": ' + "[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1) + "}"
    huge = '{"query": "mana_value", "cost": "' + "{1}" * (6 * 1024 * 1024) + '"}'  # 18 MB, over the limit
    lines = [json.dumps({**GOOD, "id": 1}), deep_id, json.dumps({**GOOD, "id": 2}), deep_query,
             json.dumps({**GOOD, "id": 3}), huge, json.dumps({**GOOD, "id": 4})]
    proc = subprocess.run([*CLI, "batch"], input="\n".join(lines) + "\n", capture_output=True, text=True,
                          timeout=300, check=False)
    assert proc.returncode == 0 and "Traceback" not in proc.stderr, proc.stderr[-2000:]
    answers = [json.loads(line) for line in proc.stdout.splitlines()]
    assert len(answers) == len(lines)
    assert [a.get("id") for a in answers[0::2]] == [1, 2, 3, 4]
    assert all(a["mana_value"] == 3 for a in answers[0::2])
    for bad, words in zip(answers[1::2], ("deeper than 64", "deeper than 64", "at most")):
        assert bad["error"]["code"] == "bad_query" and words in bad["error"]["message"], bad


@pytest.mark.slow
@pytest.mark.skipif(not sys.platform.startswith("linux"),
                    reason="the address-space cap is set through /proc and prlimit")
def test_memory_running_out_on_a_line_is_that_lines_error_and_batch_goes_on() -> None:
    """``batch`` capped 200 MB above its size reads a 15 MB line of 5 million arrays: that line is
    answered ``bad_query`` and the next line is answered (the audit's check, once)."""
    from manasolver.benchmarks.hostile import hostile_memory
    result = hostile_memory()
    assert result["pass"], result
