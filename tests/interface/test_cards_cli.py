"""``manasolver cards import`` through a real subprocess, and later commands given the
database it wrote (``--cards DB``, ``MANASOLVER_CARDS``, the unchanged source file again)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

CLI = [sys.executable, "-m", "manasolver.solver.service.cli"]
SCRYFALL = Path(__file__).resolve().parents[1] / "data" / "scryfall"


def run(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    proc = subprocess.run([*CLI, *args], capture_output=True, text=True, timeout=120, env=env)
    assert "Traceback" not in proc.stderr, proc.stderr
    return proc


@pytest.fixture()
def env(tmp_path: Path) -> dict[str, str]:
    out = {**os.environ, "XDG_DATA_HOME": str(tmp_path / "xdg")}
    out.pop("MANASOLVER_CARDS", None)
    return out


def test_import_scryfall_bulk_then_back_face_by_name(tmp_path: Path, env: dict[str, str]) -> None:
    db = tmp_path / "my-cards.sqlite"
    proc = run("cards", "import", str(SCRYFALL / "oracle-cards.json"), "--out", str(db), env=env)
    assert proc.returncode == 0, proc.stderr
    assert f"imported 7 cards from {SCRYFALL / 'oracle-cards.json'}" in proc.stdout
    assert f"--cards {db}" in proc.stdout and db.is_file()
    card = run("card", "Insectile Aberration", "--cards", str(db), "--json", env=env)
    assert card.returncode == 0, card.stderr
    out = json.loads(card.stdout)
    assert out["name"] == "Insectile Aberration" and out["mana_value"] == 1 and out["colors"] == ["U"]


def test_import_to_the_user_data_folder_and_use_it(tmp_path: Path, env: dict[str, str]) -> None:
    """No --out: the database goes to $XDG_DATA_HOME/manasolver/cards.sqlite, printed; a later
    command finds it by --cards DB, by MANASOLVER_CARDS=DB, and by the unchanged source file."""
    src = SCRYFALL / "emerias-call.json"
    proc = run("cards", "import", str(src), env=env)
    assert proc.returncode == 0, proc.stderr
    db = Path(env["XDG_DATA_HOME"]) / "manasolver" / "cards.sqlite"
    assert str(db) in proc.stdout and db.is_file()
    for extra, more_env in ((["--cards", str(db)], {}), ([], {"MANASOLVER_CARDS": str(db)}),
                            (["--cards", str(src)], {})):
        got = run("mana-value", "Emeria's Call", "--json", *extra, env={**env, **more_env})
        assert got.returncode == 0, (extra, got.stderr)
        assert json.loads(got.stdout)["mana_value"] == 7


def test_board_naming_an_imported_back_face(tmp_path: Path, env: dict[str, str]) -> None:
    """A board whose land is the back face of an imported modal double-faced card pays {W}."""
    db = tmp_path / "db.sqlite"
    assert run("cards", "import", str(SCRYFALL / "emerias-call.json"), "--out", str(db), env=env).returncode == 0
    board = tmp_path / "board.json"
    board.write_text(json.dumps({"players": [{"name": "me"}], "battlefield": [
        {"id": "e1", "card": "Emeria, Shattered Skyclave", "controller": "me"}]}), encoding="utf-8")
    proc = run("can-pay", str(board), "{W}", "--cards", str(db), "--json", env=env)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["payable"] is True
    proc = run("can-pay", str(board), "{U}", "--cards", str(db), "--json", env=env)
    assert json.loads(proc.stdout)["payable"] is False


@pytest.mark.parametrize("name, data, says", [
    ("art.png", b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", "it is an image"),
    ("empty.json", b"", "is empty"),
    ("set.json", b'{"object": "set", "code": "znr", "name": "Zendikar Rising"}', "a Scryfall 'set' object"),
    ("cut.json", b'[{"object": "card", "name": "A", "layout": "normal", "cmc": 0.0},\n{"object": "ca',
     "the file is cut short"),
])
def test_not_a_card_file_exit_1(tmp_path: Path, env: dict[str, str], name: str, data: bytes, says: str) -> None:
    path = tmp_path / name
    path.write_bytes(data)
    proc = run("cards", "import", str(path), "--out", str(tmp_path / "db.sqlite"), env=env)
    assert proc.returncode == 1
    assert says in proc.stderr and str(path) in proc.stderr and proc.stdout == ""
    assert not (tmp_path / "db.sqlite").exists()


def test_missing_file_is_a_usage_error(tmp_path: Path, env: dict[str, str]) -> None:
    proc = run("cards", "import", str(tmp_path / "nope.json"), env=env)
    assert proc.returncode == 2 and "does not exist" in proc.stderr


def test_cards_without_action_is_a_usage_error(env: dict[str, str]) -> None:
    proc = run("cards", env=env)
    assert proc.returncode == 2 and "import" in proc.stderr


def test_bad_card_file_given_to_a_query_is_an_error_answer(tmp_path: Path, env: dict[str, str]) -> None:
    path = tmp_path / "art.png"
    path.write_bytes(b"\x89PNG\r\n\x1a\n")
    proc = run("can-pay", "example:basics", "{G}", "--cards", str(path), "--json", env=env)
    assert proc.returncode == 1
    assert "it is an image" in json.loads(proc.stdout)["error"]["message"]
