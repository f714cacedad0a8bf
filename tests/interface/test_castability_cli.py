"""``manasolver castability`` through a real subprocess: the table, the JSON answer, the
plot, the same numbers over --workers 2, and bad decks answered with the line named."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

CLI = [sys.executable, "-m", "manasolver.solver.service.cli", "castability"]
DECKS = Path(__file__).resolve().parents[1] / "data" / "decks"


def run(*args: str) -> subprocess.CompletedProcess[str]:
    proc = subprocess.run([*CLI, *args], capture_output=True, text=True, timeout=300)
    assert "Traceback" not in proc.stderr, proc.stderr
    return proc


def run_json(*args: str) -> tuple[int, Any]:
    proc = run(*args, "--json")
    return proc.returncode, json.loads(proc.stdout)


def test_json_answer_has_the_spec_shape() -> None:
    code, out = run_json(str(DECKS / "izzet.txt"), "--samples", "2000", "--seed", "3", "--turns", "1-3")
    assert code == 0
    assert out["samples"] == 2000 and out["seed"] == 3
    assert out["model"]["play"] == "play" and "mulligan" in out["model"] and "mana_sources" in out["model"]
    bolt = next(s for s in out["spells"] if s["card"] == "Lightning Bolt")
    assert bolt["cost"] == "{R}"
    assert [r["turn"] for r in bolt["turns"]] == [1, 2, 3]
    row = bolt["turns"][0]
    assert set(row) == {"turn", "p", "p_interval", "p_given_lands", "p_given_lands_interval", "games_with_lands", "why"}
    assert set(row["why"]) == {"lands", "colors", "tapped", "other"}
    assert row["p_interval"][0] <= row["p"] <= row["p_interval"][1]
    drake = next(s for s in out["spells"] if s["card"] == "Crackling Drake")
    assert drake["turns"][0]["p"] == 0.0 and drake["turns"][0]["p_given_lands"] is None


def test_draw_beats_play_on_turn_one() -> None:
    _, play = run_json(str(DECKS / "izzet.txt"), "--samples", "3000", "--turns", "1")
    _, draw = run_json(str(DECKS / "izzet.txt"), "--samples", "3000", "--turns", "1", "--draw")
    assert draw["model"]["play"] == "draw"
    p = {s["card"]: s["turns"][0]["p"] for s in play["spells"]}
    d = {s["card"]: s["turns"][0]["p"] for s in draw["spells"]}
    assert d["Opt"] > p["Opt"]


def test_workers_two_same_numbers_as_one() -> None:
    args = (str(DECKS / "izzet.txt"), "--samples", "5000", "--seed", "12", "--turns", "1-4")
    _, one = run_json(*args)
    _, two = run_json(*args, "--workers", "2")
    assert one["spells"] == two["spells"]


def test_table_and_plot(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    png = tmp_path / "curves.png"
    proc = run(str(DECKS / "izzet.txt"), "--samples", "1000", "--plot", str(png))
    assert proc.returncode == 0
    assert "Crackling Drake {U}{U}{R}{R}" in proc.stdout and "T7" in proc.stdout
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_commander_json_deck() -> None:
    code, out = run_json(str(DECKS / "commander.json"), "--samples", "1000", "--turns", "1-4")
    assert code == 0
    assert out["model"]["commander"] == ["Niv-Mizzet, Parun"]
    assert "Sol Ring" in out["model"]["mana_sources"]


@pytest.mark.parametrize("deck, where, words", [
    ("4 Lightning Bolt\n4 Lightnin Bolt\n52 Mountain\n", "line 2", "Lightning Bolt"),
    ("Deck\n0 Lightning Bolt\n60 Mountain\n", "line 2", "at least 1"),
    ("60 Mountain\n10000 Opt\n", "line 2", "9,999"),
    ("60 Mountain\nOpt, four of them\n", "line 2", "not a card line"),
    ("3 Mountain\n3 Opt\n", "deck", "at least 7"),
])
def test_bad_deck_names_the_line(tmp_path: Path, deck: str, where: str, words: str) -> None:
    path = tmp_path / "deck.txt"
    path.write_text(deck)
    code, out = run_json(str(path), "--samples", "100")
    assert code == 1
    assert out["error"]["where"] == where
    assert words in out["error"]["message"]
    proc = run(str(path), "--samples", "100")
    assert proc.returncode == 1 and where in proc.stderr


@pytest.mark.parametrize("flag, value", [("--samples", "0"), ("--turns", "3-1"), ("--workers", "two"),
                                         ("--plot", "out.jpg")])
def test_bad_option_is_an_error(flag: str, value: str) -> None:
    code, out = run_json(str(DECKS / "basics.txt"), flag, value)
    assert code == 1
    assert out["error"]["where"] == flag


def test_missing_deck_file() -> None:
    code, out = run_json("/nonexistent/deck.txt")
    assert code == 1 and "can't read" in out["error"]["message"]
