"""Card files named by ``--cards`` or by a query's ``cards``: regular files only, refused at once
otherwise (a FIFO would block the process on open), and an error about a file that is not a card
file quotes none of its content."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

CLI = [sys.executable, "-m", "manasolver.solver.service.cli"]
SECRET = "hunter2-secret-token"

pytestmark = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs are POSIX's")


def _batch(lines: list[dict[str, object]], *args: str) -> tuple[list[dict[str, object]], float, int]:
    start = time.monotonic()
    proc = subprocess.run([*CLI, "batch", *args], input="".join(json.dumps(q) + "\n" for q in lines),
                          capture_output=True, text=True, timeout=60, check=False)
    return [json.loads(line) for line in proc.stdout.splitlines()], time.monotonic() - start, proc.returncode


def test_a_fifo_named_by_a_query_is_refused_at_once_and_the_next_line_answered(tmp_path: Path) -> None:
    fifo = tmp_path / "cards.jsonl"
    os.mkfifo(fifo)
    answers, seconds, code = _batch([{"query": "mana_value", "card": "Forest", "cards": str(fifo), "id": 1},
                                     {"query": "mana_value", "cost": "{2}", "id": 2}])
    assert code == 0 and seconds < 30
    assert answers[0]["error"] == {"code": "bad_query", "where": "cards",  # type: ignore[comparison-overlap]
                                   "message": f"card file {fifo} is a FIFO (named pipe), not a regular file"}
    assert answers[1] == {"id": 2, "mana_value": 2, "colors": []}


@pytest.mark.slow
def test_a_fifo_given_as_cards_to_batch_or_serve_is_a_usage_error(tmp_path: Path) -> None:
    fifo = tmp_path / "cards.jsonl"
    os.mkfifo(fifo)
    for command in (["batch"], ["serve", "--port", "0"]):
        proc = subprocess.run([*CLI, *command, "--cards", str(fifo)], capture_output=True, text=True, timeout=60,
                              check=False,
                              stdin=subprocess.DEVNULL)
        assert proc.returncode == 2 and "FIFO" in proc.stderr and proc.stdout == "", (command, proc.stderr)


@pytest.mark.parametrize("content", [f"{SECRET}: x\n", json.dumps({SECRET: 1}) + "\n",
                                     f'[{{"name": "Forest"}} {SECRET}]'])
def test_an_error_about_a_file_that_is_no_card_file_quotes_none_of_it(tmp_path: Path, content: str) -> None:
    path = tmp_path / "private.txt"
    path.write_text(content, encoding="utf-8")
    answers, _, _ = _batch([{"query": "mana_value", "card": "Forest", "cards": str(path)}])
    error = answers[0]["error"]
    assert isinstance(error, dict) and error["code"] in ("bad_state", "bad_query")
    assert SECRET not in json.dumps(error) and SECRET[:4] not in error["message"]
    assert b"hunter2".hex(" ")[:8] not in error["message"]  # nor its first bytes in hex
