"""``manasolver demo`` through a real subprocess: every command it prints works, and its titles
say what the boards hold.

The demo prints, for each question, the command line that asks it; a user copies it. Each printed
command is run here as printed (split as a shell would) and must answer what the demo answered.
"""

from __future__ import annotations

import json
import shlex
import subprocess
import sys
from functools import lru_cache
from typing import Any

import pytest
from manasolver.solver.service.demo import QUESTIONS, command_args, example_state
from manasolver.solver.service.protocol import answer

CLI = [sys.executable, "-m", "manasolver.solver.service.cli"]


@lru_cache(maxsize=1)
def demo_output() -> str:
    proc = subprocess.run([*CLI, "demo"], capture_output=True, text=True, timeout=600)
    assert "Traceback" not in proc.stderr, proc.stderr
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return proc.stdout


def printed_commands() -> list[str]:
    return [line.strip()[2:] for line in demo_output().splitlines() if line.strip().startswith("$ ")]


def test_demo_answers_every_question_without_an_error() -> None:
    out = demo_output()
    assert out.count("== ") == len(QUESTIONS)
    assert "error [" not in out


def test_the_demo_prints_one_command_per_question_and_no_json_asides() -> None:
    commands = printed_commands()
    assert len(commands) == len(QUESTIONS)
    assert all(c.startswith("manasolver ") for c in commands)
    assert not any("#" in c for c in commands), commands


def _without_payment(result: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in result.items() if k not in ("payment", "time_bound")}


@pytest.mark.parametrize("index", range(len(QUESTIONS)), ids=[q[1][:40] for q in QUESTIONS])
def test_every_printed_command_works_as_printed(index: int) -> None:
    """The printed line, split as a shell splits it, runs (exit 0) and answers as the demo's query:
    the same answer, the payment too unless a time bound cut either search short."""
    board, _, query = QUESTIONS[index]
    words = shlex.split(printed_commands()[index])
    assert words[0] == "manasolver" and words[1:] == command_args(board, query)
    proc = subprocess.run([*CLI, *words[1:], "--json"], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    got = json.loads(proc.stdout)
    expected = answer({**query, "state": example_state(board)})
    assert "error" not in got
    assert _without_payment(got) == _without_payment(expected)
    if "payment" in expected and not (got.get("time_bound") or expected.get("time_bound")):
        assert got["payment"] == expected["payment"]


def test_a_query_field_without_a_flag_is_refused() -> None:
    with pytest.raises(ValueError, match="convoke"):
        command_args("commander", {"query": "pay", "cost": "{1}", "convoke": True})


def test_gitaxian_probe_title_is_true_on_its_board() -> None:
    """The title says the Island is not tapped under min_sources: the board has an untapped Island,
    and {U/P} is paid with 2 life (CR 107.4f), tapping nothing."""
    board, title, query = next(q for q in QUESTIONS if "Gitaxian Probe" in q[1])
    state = example_state(board)
    islands = [p for p in state["battlefield"] if p["card"] == "Island" and not p.get("tapped")]
    assert islands and "Island" in title and "no blue source" not in title
    payment = answer({**query, "state": state})["payment"]
    assert payment["life"] == 2 and payment["activations"] == []
    assert [c["paid_as"] for c in payment["choices"]] == ["life"]


def test_titles_name_what_the_boards_hold() -> None:
    """Each figure a title states is checked on its board: 40 permanents of yours on the
    Commander board, 3 life before Dismember, four white filter lands, Genesis Hydra's cost."""
    titles = {q[1]: q for q in QUESTIONS}
    commander = example_state("commander")
    mine = [p for p in commander["battlefield"] if p.get("controller", "you") == "you"]
    assert any("40-permanent" in t for t in titles) and len(mine) == 40
    assert any("at 3 life" in t for t in titles)
    assert example_state("phyrexian")["players"][0]["life"] == 3
    assert any("four white filter lands" in t for t in titles)
    filters = {p["card"] for p in example_state("filters")["battlefield"]}
    white_filters = [name for name in filters
                     if any("{W/" in a["cost"][0] or "/W}" in a["cost"][0]
                            for a in answer({"query": "card", "card": name})["card"]["mana_abilities"])]
    assert len(white_filters) == 4, white_filters
    assert any("Genesis Hydra" in t and "{X}{G}{G}" in t for t in titles)
    assert answer({"query": "card", "card": "Genesis Hydra"})["card"]["mana_cost"] == "{X}{G}{G}"
    reaper = {p["card"] for p in example_state("reaper")["battlefield"]}
    assert {"Etherium Sculptor", "Foundry Inspector", "Helm of Awakening", "Heartless Summoning"} <= reaper


@pytest.mark.slow
def test_the_demo_names_permanents_by_card_watery_grave_not_grave() -> None:
    """Every activation and could_produce line names a card of its board: "Watery Grave" where the
    id is ``grave``, "Forest (forest1)" where the board holds three Forests."""
    out = demo_output()
    assert "Forest (forest1)  " in out and "Reflecting Pool: " in out
    cards = {p["card"] for q in QUESTIONS for p in example_state(q[0])["battlefield"]}
    named = [line.split("  ability ")[0].strip() for line in out.splitlines() if "  ability " in line]
    assert named and all(n.partition(" (")[0] in cards for n in named), named
    labels = {p["id"]: p["card"] for p in example_state("commander")["battlefield"]}
    assert labels["grave"] == "Watery Grave" and labels["uriver"] == "Underground River"
    assert not any(line.strip().startswith(("grave ", "uriver ")) for line in out.splitlines())
