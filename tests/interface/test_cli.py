"""The command line through a real subprocess: exit codes, JSON, bad input."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

CLI = [sys.executable, "-m", "manasolver.solver.service.cli"]


def run(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    proc = subprocess.run([*CLI, *args], input=stdin, capture_output=True, text=True, timeout=120)
    assert "Traceback" not in proc.stderr, proc.stderr
    return proc


def run_json(*args: str, stdin: str | None = None) -> tuple[int, Any]:
    proc = run(*args, "--json", stdin=stdin)
    return proc.returncode, json.loads(proc.stdout)


def test_reaper_king_card_json() -> None:
    """Issue 2 done-criterion: mana value 10, colors W, U, B, R, G (CR 202.3f, 202.2d)."""
    code, out = run_json("card", "Reaper King")
    assert code == 0
    assert out["mana_value"] == 10
    assert out["colors"] == ["W", "U", "B", "R", "G"]


def test_cascade_bluffs_shows_filter_ability() -> None:
    """Issue 2 done-criterion: the filter ability with cost {U/R}, {T} and its three productions."""
    proc = run("card", "Cascade Bluffs")
    assert proc.returncode == 0
    assert "{U/R}, {T}" in proc.stdout
    for option in ("{U}{U}", "{U}{R}", "{R}{R}"):
        assert option in proc.stdout
    code, out = run_json("card", "cascade bluffs")
    filt = [a for a in out["mana_abilities"] if "{U/R}" in a["cost"]]
    assert len(filt) == 1 and filt[0]["cost"] == ["{U/R}", "{T}"]
    assert filt[0]["produces"] == ["{U}{U}", "{U}{R}", "{R}{R}"]


def test_unknown_card_suggests_and_exits_1() -> None:
    code, out = run_json("card", "Reaper Kign")
    assert code == 1
    assert out["error"]["code"] == "unknown_card"
    assert "Reaper King" in out["error"]["message"]


def test_basics_and_everywhere_counts() -> None:
    """Issue 2 done-criterion: no colors, one card type, domain 5 (CR 202.2b, 205.2a, 305.6)."""
    state = {"players": [{"name": "you"}], "battlefield": [
        {"id": str(i), "card": name} for i, name in
        enumerate(["Plains", "Island", "Swamp", "Mountain", "Forest", "Everywhere"])]}
    code, out = run_json("counts", "-", stdin=json.dumps(state))
    assert code == 0
    assert out["colors_among_permanents"] == []
    assert out["card_types"] == ["land"]
    assert out["domain"] == 5


def test_mana_value_of_a_cost() -> None:
    code, out = run_json("mana-value", "{X}{G}{G}{G}")
    assert (code, out) == (0, {"mana_value": 3, "colors": ["G"]})


def test_bad_cost_exits_1_with_position() -> None:
    code, out = run_json("mana-value", "{2}{W}{K}")
    assert code == 1
    assert out["error"] == {"code": "bad_cost", "message": "unknown mana symbol {K}", "where": "cost[2]"}


def test_usage_errors_exit_2() -> None:
    assert run().returncode == 2
    assert run("pay").returncode == 2
    assert run("frobnicate").returncode == 2
    proc = run("counts", "/nonexistent/board.json")
    assert proc.returncode == 2 and "'/nonexistent/board.json' does not exist" in proc.stderr
    proc = run("counts", "example:nope")
    assert proc.returncode == 2 and "commander" in proc.stderr


@pytest.mark.parametrize("text", ["", "{", "[]", "null", '"x"', "{\"players\": 3}", "\u00e9\u00e8"])
def test_malformed_state_never_crashes(text: str) -> None:
    """A state that is not a board is an error answer (exit 1), not a usage error."""
    proc = run("counts", "-", "--json", stdin=text)
    assert proc.returncode == 1
    assert json.loads(proc.stdout)["error"]["code"] == "bad_state"


def test_unicode_and_wrong_types_are_answers(tmp_path: Path) -> None:
    board = {"players": [{"name": "\u30d7\u30ec\u30a4\u30e4\u30fc", "life": "twenty"}]}
    path = tmp_path / "b.json"
    path.write_text(json.dumps(board), encoding="utf-8")
    code, out = run_json("counts", str(path))
    assert code == 1
    assert out["error"]["where"] == "players[0].life"


def test_batch_keeps_going_and_echoes_ids() -> None:
    lines = "\n".join([
        json.dumps({"query": "mana_value", "cost": "{1}{W/U}{W/U}", "id": "a"}),
        "this is not json",
        json.dumps({"query": "mana_value", "cost": "{Q/W}", "id": 7}),
        json.dumps({"query": "nope", "id": None}),
        json.dumps({"query": "mana_value", "card": "Gitaxian Probe", "id": "c"}),
    ]) + "\n"
    proc = run("batch", stdin=lines)
    assert proc.returncode == 0
    answers = [json.loads(line) for line in proc.stdout.splitlines()]
    assert len(answers) == 5
    assert answers[0] == {"id": "a", "mana_value": 3, "colors": ["W", "U"]}
    assert answers[1]["error"]["code"] == "bad_query" and answers[1]["error"]["where"] == "line 2"
    assert answers[2]["id"] == 7 and answers[2]["error"]["code"] == "bad_cost"
    assert answers[3]["error"]["code"] == "bad_query"
    assert answers[4] == {"id": "c", "mana_value": 1, "colors": ["U"]}


def test_console_script_is_installed() -> None:
    """pyproject's console script points at the same main."""
    import shutil
    exe = shutil.which("manasolver")
    if exe is None:
        pytest.fail("the manasolver console script is not on PATH: is the package installed?")
    proc = subprocess.run([exe, "mana-value", "{U/P}", "--json"], capture_output=True, text=True, timeout=60)
    assert json.loads(proc.stdout) == {"mana_value": 1, "colors": ["U"]}


def test_pay_commander_example_readable_and_json() -> None:
    """Issue 3 done-criterion: a readable payment, and --json the protocol's."""
    proc = run("pay", "example:commander", "{2}{W/U}{B/P}")
    assert proc.returncode == 0, proc.stdout
    assert proc.stdout.startswith("payable")
    code, out = run_json("pay", "example:commander", "{2}{W/U}{B/P}")
    assert code == 0 and out["payable"] is True
    payment = out["payment"]
    for key in ("total", "choices", "x", "activations", "pool_used", "convoked", "delved", "improvised",
                "life", "energy", "damage", "floating"):
        assert key in payment
    assert {c["symbol"] for c in payment["choices"]} == {"{W/U}", "{B/P}"}


def test_batch_survives_lone_surrogates_and_non_finite_numbers() -> None:
    """The protocol: batch keeps going after a bad line; output stays valid JSON."""
    lines = ('{"query":"mana_value","cost":"{\\ud800}","id":1}\n'
             '{"query":"mana_value","cost":"{W}","id":NaN}\n'
             '{"query":"mana_value","cost":"{W}","id":1e999}\n'
             '{"query":"mana_value","cost":"{W}","id":4}\n')
    proc = run("batch", stdin=lines)
    answers = [json.loads(line) for line in proc.stdout.splitlines()]
    assert [a.get("id") for a in answers] == [1, None, None, 4]
    assert answers[0]["error"]["code"] == "bad_cost"
    assert answers[1]["error"]["code"] == answers[2]["error"]["code"] == "bad_query"
    assert answers[3] == {"id": 4, "mana_value": 1, "colors": ["W"]}


def test_activate_kicker_and_alternative_flags() -> None:
    """CR 602.2b: --activate pays Mind Stone's draw ability without tapping Mind Stone for mana;
    --additional kicker (CR 118.8) and --alternative flashback (CR 702.34a) change the total."""
    code, out = run_json("pay", "example:commander", "--activate", "mindstone", "--json")
    assert code == 0 and out["payable"] is True
    assert out["activating"]["permanent"] == "mindstone"
    assert "mindstone" not in {a["permanent"] for a in out["payment"]["activations"]}
    code, out = run_json("pay", "example:commander", "--spell", "Goblin Bushwhacker", "--additional", "kicker",
                         "--json")
    assert code == 0 and out["payment"]["total"] == "{R}{R}"
    from manasolver.solver.service.demo import example_state
    board = example_state("commander")
    board["players"][0]["graveyard"] += ["Dregscape Zombie", "Lingering Souls"]
    code, out = run_json("can-pay", "-", "--spell", "Dregscape Zombie", "--activate", "unearth", "--json",
                         stdin=json.dumps(board))
    assert code == 0 and out["payable"] is True and out["activating"]["zone"] == "graveyard"
    code, out = run_json("pay", "-", "--spell", "Lingering Souls", "--alternative", "flashback", "--json",
                         stdin=json.dumps(board))
    assert code == 0 and out["payment"]["total"] == "{1}{B}"
    proc = run("pay", "example:commander")
    assert proc.returncode == 2 and "COST" in proc.stderr


# -- the command line's surface: version, help, options, where errors go -------------------------


def test_version_is_the_installed_package_version() -> None:
    """``manasolver --version``: the version importlib.metadata reads, pyproject's, then what
    the bundled card data holds (cards, newest set and its date, source), read from its meta table."""
    from importlib.metadata import version
    proc = run("--version")
    assert proc.returncode == 0
    assert proc.stdout.startswith(f"manasolver {version('manasolver')}; card data: ")
    import re
    pyproject = (Path(__file__).resolve().parents[2] / "pyproject.toml").read_text(encoding="utf-8")
    declared = re.search(r'^version = "([^"]+)"', pyproject, re.M)
    assert declared and proc.stdout.startswith(f"manasolver {declared.group(1)}; ")
    assert re.search(r"card data: [\d,]+ cards, newest set .+ \(\d{4}-\d\d-\d\d\); source: ", proc.stdout)
    assert proc.stdout.count("\n") == 1


def _commands() -> list[str]:
    import argparse
    from manasolver.solver.service.cli import _parser
    sub = next(a for a in _parser()._actions if isinstance(a, argparse._SubParsersAction))
    return sorted(sub.choices)


@pytest.mark.parametrize("command", _commands())
def test_every_subcommand_help_has_a_description(command: str) -> None:
    """``COMMAND --help`` says what the command does, between the usage and the arguments."""
    proc = run(command, "--help")
    assert proc.returncode == 0
    usage, _, rest = proc.stdout.partition("\n\n")
    assert usage.startswith(f"usage: manasolver {command}")
    description = rest.split("\n\n", 1)[0]
    assert not description.startswith(("positional arguments", "options")), proc.stdout
    assert len(description.split()) >= 5, description


def test_every_option_has_help() -> None:
    """No bare option in any subcommand's help: each says what it is for."""
    import argparse
    from manasolver.solver.service.cli import _parser
    sub = next(a for a in _parser()._actions if isinstance(a, argparse._SubParsersAction))
    bare = [f"{name} {action.option_strings or action.dest}"
            for name, p in sub.choices.items() for action in p._actions if not action.help]
    assert bare == []


@pytest.mark.parametrize("args, option", [
    (("max-x", "example:commander", "{X}{G}{G}", "--x", "3"), "--x"),
    (("validate", "example:basics", "{G}", "payment.json", "--policy", "min_life"), "--policy"),
    (("validate", "example:basics", "{G}", "payment.json", "--backend", "cpsat"), "--backend"),
    (("validate", "example:basics", "{G}", "payment.json", "--backend=flow"), "--backend"),
])
def test_options_that_do_not_apply_are_refused_at_parse_time(args: tuple[str, ...], option: str) -> None:
    """A usage error (exit 2) naming the option and why, before any file is read (the payment
    file does not exist: the refusal comes first)."""
    proc = run(*args)
    assert proc.returncode == 2
    assert proc.stdout == ""
    assert f"manasolver {args[0]}: error: unrecognized arguments: {option}" in proc.stderr
    assert "(" in proc.stderr.splitlines()[-1], proc.stderr


def test_validate_help_offers_no_policy_or_backend_and_max_x_no_x() -> None:
    assert "--policy" not in run("validate", "--help").stdout
    assert "--backend" not in run("validate", "--help").stdout
    assert "--x" not in run("max-x", "--help").stdout
    assert "--x X" in run("pay", "--help").stdout


def test_human_mode_errors_go_to_stderr_exit_1() -> None:
    """Without --json an error answer is text on standard error, exit 1; with --json it is the
    protocol's JSON on standard output, exit 1."""
    proc = run("pay", "example:basics", "{2}{K}")
    assert proc.returncode == 1
    assert proc.stdout == ""
    assert proc.stderr == "manasolver: error [bad_cost] (at cost[1]): unknown mana symbol {K}\n"
    proc = run("pay", "example:basics", "{2}{K}", "--json")
    assert proc.returncode == 1 and proc.stderr == ""
    assert json.loads(proc.stdout)["error"]["where"] == "cost[1]"
    proc = run("card", "Reaper Kign")
    assert proc.returncode == 1 and proc.stdout == ""
    assert "unknown_card" in proc.stderr and "Reaper King" in proc.stderr


def test_an_answer_that_is_no_is_not_an_error() -> None:
    """A cost that can't be paid is an answer (exit 0, standard output), not an error."""
    proc = run("can-pay", "example:filters", "{W}{W}{W}{W}{W}{W}{W}{W}{W}")
    assert proc.returncode == 0 and proc.stderr == ""
    assert proc.stdout.startswith("not payable")


def test_missing_files_are_named(tmp_path: Path) -> None:
    """A STATE or PAYMENT file that does not exist, or a folder, is a usage error naming it."""
    missing = tmp_path / "no-such-board.json"
    proc = run("pay", str(missing), "{1}")
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr == (f"manasolver: error: STATE file '{missing}' does not exist "
                           "(give a JSON file, - for standard input, or example:NAME)\n")
    proc = run("validate", "example:basics", "{G}", str(tmp_path / "pay.json"))
    assert proc.returncode == 2
    assert f"PAYMENT file '{tmp_path / 'pay.json'}' does not exist" in proc.stderr
    proc = run("counts", str(tmp_path))
    assert proc.returncode == 2 and f"STATE '{tmp_path}' is a folder" in proc.stderr
    proc = run("counts", "example:basics", "--cards", str(tmp_path / "cards.jsonl"))
    assert proc.returncode == 1 and "cards.jsonl" in proc.stderr


def test_the_sample_queries_file_is_answered_line_by_line() -> None:
    """examples/queries.jsonl (the README's tour) through ``manasolver batch`` in a subprocess:
    one answer per line, in order, with its id, and none of them an error."""
    sample = Path(__file__).resolve().parents[2] / "examples" / "queries.jsonl"
    queries = [json.loads(line) for line in sample.read_text(encoding="utf-8").splitlines()]
    assert len(queries) >= 10
    assert {q["query"] for q in queries} >= {"pay", "can_pay", "payments", "max_x", "options", "could_produce",
                                               "validate", "mana_value", "counts", "card"}
    proc = run("batch", stdin=sample.read_text(encoding="utf-8"))
    assert proc.returncode == 0
    answers = [json.loads(line) for line in proc.stdout.splitlines()]
    assert [a.get("id") for a in answers] == [q["id"] for q in queries]
    errors = [a for a in answers if "error" in a]
    assert errors == []
    by_id = {a["id"]: a for a in answers}
    assert by_id["check"] == {"id": "check", "legal": True, "problems": []}
    assert by_id["mv"]["mana_value"] == 10 and by_id["no"]["payable"] is False
