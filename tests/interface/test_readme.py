"""Every code block of the README runs as written: the Python blocks as doctests
(``test_protocol.test_readme_examples_run``), the command-line tour through real subprocesses, and
the curl example against a real ``manasolver serve``."""

from __future__ import annotations

import re
import shlex
import shutil
import subprocess
import sys

import pytest
from paths import REPO
from served import serving

README = (REPO / "README.md").read_text(encoding="utf-8")
#: The README's own limit: a newcomer reads it top to bottom.
MAX_LINES = 200


def _blocks(info: str) -> list[str]:
    return re.findall(rf"^```{info}\n(.*?)^```", README, re.M | re.S)


def _commands(block: str) -> list[str]:
    """The block's commands, each joined across continuation lines, comments dropped."""
    text = re.sub(r"\\\n\s*", " ", block)
    commands = []
    pending = ""
    for line in text.splitlines():
        pending = f"{pending}\n{line}" if pending else line
        try:
            shlex.split(pending, comments=True)
        except ValueError:  # a quote still open: the command goes on on the next line
            continue
        if pending.strip() and not pending.lstrip().startswith("#"):
            commands.append(pending)
        pending = ""
    return commands


def _tour() -> list[str]:
    return [c for block in _blocks("sh") for c in _commands(block)
            if c.startswith("manasolver ") and " serve" not in c and "&" not in c]


def test_readme_is_short_and_sends_no_reader_outside_the_repository() -> None:
    lines = README.splitlines()
    assert len(lines) <= MAX_LINES, len(lines)
    assert "SPEC" not in README and "../shared" not in README
    paragraphs = [p for p in README.split("\n\n") if len(p) > 80]
    assert len(paragraphs) == len(set(paragraphs)), "a paragraph printed twice"
    for target in re.findall(r"\]\(([^)#]+)\)", README):
        assert (REPO / target).exists(), target


def test_the_tour_has_the_commands_a_newcomer_tries() -> None:
    tour = _tour()
    assert len(tour) >= 10
    for verb in ("pay", "can-pay", "max-x", "payments", "batch", "castability", "cards info"):
        assert any(c.startswith(f"manasolver {verb} ") or c == f"manasolver {verb}" for c in tour), verb


@pytest.mark.parametrize("command", _tour())
def test_readme_tour_command_runs(command: str) -> None:
    """Each command of the tour exits 0 (a cost that can't be paid is an answer, exit 0) and
    prints something, with no traceback."""
    argv = shlex.split(command, comments=True)
    shell = "<" in argv
    proc = subprocess.run(command if shell else [sys.executable, "-m", "manasolver", *argv[1:]],
                          shell=shell, cwd=REPO, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, (command, proc.stderr[-2000:])
    assert proc.stdout.strip() and "Traceback" not in proc.stderr


def test_readme_curl_example_answers_over_http() -> None:
    """The README's curl line, sent to a real server on the port it printed."""
    curl = [c for block in _blocks("sh") for c in _commands(block) if c.startswith("curl ")]
    assert len(curl) == 1
    if shutil.which("curl") is None:
        pytest.skip("no curl on this machine")
    with serving() as url:
        command = curl[0].replace("http://127.0.0.1:8765/", url)
        proc = subprocess.run(command, shell=True, capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == '{"payable":true}' or proc.stdout.strip() == '{"payable": true}'
