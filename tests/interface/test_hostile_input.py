"""Hostile input gets the error it deserves, naming the field, never an internal error.

"Errors of input are answers, not crashes … No input, however malformed or large, may
crash the process, hang it, or make it answer wrongly without saying so."  An internal error
(``unsupported`` with "internal error while answering") is a bug reaching the user; each input
here must come back as ``bad_query``, ``bad_state`` or ``unknown_card`` with ``where`` naming the
field, or as a real answer.

* ``batch`` reads bytes and decodes each line itself: a line that is not UTF-8 is answered with
  an error naming it, and the lines around it are answered in order (through a real subprocess).
* A lone surrogate in a card name (the card database is SQLite, which can't store one), a NUL or
  a lone surrogate in the ``cards`` path, ``spend_color`` and ``weights`` beyond 64-bit solver
  integers, and a sweep of hostile values (huge and negative integers, floats, NaN, nesting,
  empty strings) in every numeric and name field of the query and the board.
* A ``payments`` or ``options`` answer cut short by its bound lists what it found before the
  bound (never an empty stand-in) and says ``complete: false``.
"""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from importlib import resources
from typing import Any

import pytest
from manasolver.benchmarks import boards
from manasolver.solver.service.cli import main as cli_main
from manasolver.solver.service.protocol import answer

CLI = [sys.executable, "-m", "manasolver.solver.service.cli"]
INPUT_CODES = {"bad_query", "bad_state", "unknown_card", "bad_cost", "unknown_field"}


def _example(name: str) -> dict[str, Any]:
    board: dict[str, Any] = json.loads(
        resources.files("manasolver.solver.service").joinpath(f"examples/{name}.json").read_text())
    return board


BASICS = _example("basics")


def _input_error(result: dict[str, Any], code: str | set[str], where: str) -> dict[str, Any]:
    """The answer is an input error of ``code`` whose ``where`` starts with ``where``."""
    assert "error" in result, result
    err: dict[str, Any] = result["error"]
    assert "internal error" not in err["message"], err
    assert err["code"] in ({code} if isinstance(code, str) else code), err
    assert err["where"].startswith(where), err
    return err


# -- batch reads bytes ------------------------------------------------------------------------

def test_batch_answers_every_line_around_invalid_utf8() -> None:
    """Bytes that are not UTF-8 on line 2 (0xff, and a truncated two-byte sequence on line 4)
    are answered with bad_query naming the line; lines 1, 3 and 5 are answered as usual, in
    order, and batch exits 0 (it keeps going after a bad line)."""
    lines = [b'{"query": "mana_value", "cost": "{2}{G}", "id": 1}',
             b'{"query": "mana_value", "cost": "{\xff}", "id": 2}',
             b'{"query": "mana_value", "card": "Reaper King", "id": 3}',
             b'{"query": "mana_value", "cost": "\xc3", "id": 4}',
             '{"query": "mana_value", "card": "Jötun Grunt", "id": 5}'.encode()]
    proc = subprocess.run([*CLI, "batch"], input=b"\n".join(lines) + b"\n", capture_output=True,
                          timeout=120)
    assert b"Traceback" not in proc.stderr, proc.stderr
    assert proc.returncode == 0
    out = [json.loads(line) for line in proc.stdout.decode("ascii").splitlines()]
    assert len(out) == 5
    assert out[0] == {"id": 1, "mana_value": 3, "colors": ["G"]}
    assert out[2]["id"] == 3 and out[2]["mana_value"] == 10
    assert out[4]["id"] == 5 and out[4]["mana_value"] == 2
    for n in (2, 4):
        err = out[n - 1]["error"]
        assert err["code"] == "bad_query" and err["where"] == f"line {n}", err
        assert "UTF-8" in err["message"]


def test_batch_accepts_a_byte_order_mark() -> None:
    """A UTF-8 byte order mark before the first line is not part of the query."""
    proc = subprocess.run([*CLI, "batch"], input=b'\xef\xbb\xbf{"query": "mana_value", "cost": "{W/P}"}\n',
                          capture_output=True, timeout=120)
    assert proc.returncode == 0
    assert json.loads(proc.stdout) == {"mana_value": 1, "colors": ["W"]}


# -- names and paths --------------------------------------------------------------------------

@pytest.mark.parametrize("name", ["\ud800", "Forest\ud800", "\udcff"])
def test_lone_surrogate_card_name_is_unknown_card(name: str) -> None:
    """A name with a lone surrogate names no card: unknown_card at the field, on the board, in
    ``spell.card`` and in ``mana_value``'s ``card``."""
    state = {**BASICS, "battlefield": [{"id": "q", "card": name}]}
    _input_error(answer({"query": "pay", "state": state, "cost": "{G}"}), "unknown_card", "battlefield[0].card")
    _input_error(answer({"query": "pay", "state": BASICS, "cost": "{G}", "spell": {"card": name}}),
                 "unknown_card", "spell")
    _input_error(answer({"query": "mana_value", "card": name}), "unknown_card", "card")


def test_lone_surrogate_from_json_text() -> None:
    """The same through JSON text, where ``\\ud800`` is a valid escape of an invalid string."""
    line = '{"query": "counts", "state": {"players": [{"name": "you", "hand": ["\\ud800"]}]}}'
    from manasolver.solver.service.protocol import answer_line
    _input_error(answer_line(line, 1), "unknown_card", "players[0].hand[0]")


@pytest.mark.parametrize("path", ["cards\x00.jsonl", "/tmp/\ud800.jsonl"])
def test_cards_path_with_nul_or_surrogate_is_bad_query(path: str) -> None:
    """A ``cards`` path no file system can name is a bad_query at ``cards``."""
    _input_error(answer({"query": "mana_value", "card": "Forest", "cards": path}), "bad_query", "cards")
    _input_error(answer({"query": "pay", "state": BASICS, "cost": "{G}", "cards": path}), "bad_query", "cards")


def test_cli_cards_option_with_nul(capsys: pytest.CaptureFixture[str]) -> None:
    """``--cards`` with a NUL (possible through the Python entry point, not a shell) exits 1
    with the protocol's error, not an internal error."""
    code = cli_main(["mana-value", "Forest", "--cards", "a\x00b", "--json"])
    out = json.loads(capsys.readouterr().out)
    assert code == 1
    _input_error(out, "bad_query", "cards")


def test_nul_in_card_name_is_unknown_card() -> None:
    state = {**BASICS, "battlefield": [{"id": "q", "card": "Forest\x00"}]}
    _input_error(answer({"query": "pay", "state": state, "cost": "{G}"}), "unknown_card", "battlefield[0].card")


# -- numbers beyond the solvers' integers ----------------------------------------------------

@pytest.mark.parametrize("n", [10**30, 10**6 + 1, 2**63])
def test_spend_color_beyond_bound_is_bad_query(n: int) -> None:
    """spend_color with 10**30 reached CP-SAT as a constant it can't hold (a TypeError)."""
    q = {"query": "pay", "state": BASICS, "cost": "{G}", "policy": {"spend_color": {"G": n}}}
    err = _input_error(answer(q), "bad_query", "policy.spend_color.G")
    assert str(n) in err["message"]
    q = {"query": "pay", "state": BASICS, "cost": "{G}", "policy": [{"spend_color": {"G": n}}]}
    _input_error(answer(q), "bad_query", "policy[0].G")


def test_spend_color_at_bound_is_answered() -> None:
    """At the bound the requirement is simply unmet on a five-land board."""
    q = {"query": "pay", "state": BASICS, "cost": "{G}", "policy": {"spend_color": {"G": 10**6}}}
    result = answer(q)
    assert result["payable"] is False, result


@pytest.mark.parametrize("w", [10**30, 10**6 + 1, -1])
def test_weight_beyond_bound_is_bad_query(w: int) -> None:
    """A weight of 10**30 made CP-SAT time out ("unsupported"); it is refused at its field."""
    q = {"query": "pay", "state": BASICS, "cost": "{G}{W/P}", "policy": {"weights": {"min_life": w}}}
    _input_error(answer(q), "bad_query", "policy.weights")


# -- a sweep of hostile values -------------------------------------------------------------

HOSTILE: list[Any] = [10**30, -1, -10**30, 1.5, float("nan"), float("inf"), "", None, [], {}, [[[[]]]], True,
                      "\ud800", "a\x00b"]


def _with_perm(**fields: Any) -> dict[str, Any]:
    s = copy.deepcopy(BASICS)
    s["battlefield"].append({"id": "z", "card": "Everflowing Chalice", **fields})
    return s


def _with_player(**fields: Any) -> dict[str, Any]:
    s = copy.deepcopy(BASICS)
    s["players"][0].update(fields)
    return s


def _sweep(v: Any) -> list[tuple[str, dict[str, Any]]]:
    out: list[tuple[str, dict[str, Any]]] = []
    for q in ("pay", "can_pay", "payments", "max_x"):
        out.append(("x", {"query": q, "state": BASICS, "cost": "{X}{G}", "x": v}))
    for q in ("payments", "options"):
        out.append(("limit", {"query": q, "state": BASICS, "cost": "{G}", "limit": v}))
    for f in ("life", "energy", "starting_life"):
        out.append((f"players[0].{f}", {"query": "pay", "state": _with_player(**{f: v}), "cost": "{G}{W/P}"}))
    for f in ("hand", "graveyard"):
        out.append((f"players[0].{f}", {"query": "pay", "state": _with_player(**{f: [v]}), "cost": "{G}",
                                        "delve": True}))
    out.append(("battlefield[5].counters", {"query": "pay", "state": _with_perm(counters={"charge": v}),
                                            "cost": "{C}"}))
    out.append(("battlefield[5].counters", {"query": "max_x", "state": _with_perm(counters={str(v): 1}),
                                            "cost": "{X}"}))
    out.append(("battlefield[5].tapped", {"query": "pay", "state": _with_perm(tapped=v), "cost": "{G}"}))
    out.append(("battlefield[0].id", {"query": "pay", "state": {**BASICS, "battlefield": [{"id": v, "card": "Forest"}]},
                                      "cost": "{G}"}))
    out.append(("players[0].mana_pool", {"query": "pay", "state": _with_player(mana_pool={"G": v}), "cost": "{G}"}))
    out.append(("policy", {"query": "pay", "state": BASICS, "cost": "{G}", "policy": {"weights": {"min_life": v}}}))
    out.append(("policy", {"query": "pay", "state": BASICS, "cost": "{G}", "policy": {"spend_color": {"G": v}}}))
    out.append(("modifiers[0]", {"query": "pay", "state": BASICS, "cost": "{G}", "modifiers": [{"minimum": v}]}))
    out.append(("cost", {"query": "pay", "state": BASICS, "cost": v}))
    out.append(("player", {"query": "pay", "state": BASICS, "cost": "{G}", "player": v}))
    out.append(("x", {"query": "mana_value", "cost": "{X}", "x": v}))
    out.append(("turn", {"query": "pay", "state": {**BASICS, "turn": {"active": "you", "step": v}}, "cost": "{G}"}))
    out.append(("payment", {"query": "validate", "state": BASICS, "cost": "{G}", "payment": v}))
    return out


@pytest.mark.parametrize("value", HOSTILE, ids=repr)
def test_hostile_values_get_input_errors(value: Any) -> None:
    """Every hostile value in every field is an answer or an input error naming the field;
    never an internal error."""
    for where, q in _sweep(value):
        result = answer(q)
        if "error" not in result:
            continue  # a value the field accepts (an empty hand, no counters): answered
        err = result["error"]
        assert "internal error" not in err["message"], (where, q.get("query"), err)
        assert err["code"] in INPUT_CODES, (where, err)
        assert err["where"], (where, err)


# -- cut-short enumerations list what they found ---------------------------------------------

def test_payments_cut_short_lists_what_it_found() -> None:
    """200 permanents of real cards paying {150}: far more payments than the bound allows to
    list; the answer lists the ones found and says complete: false, never an empty list."""
    q = {"query": "payments", "state": boards.commander_board(0, 200), "cost": "{150}", "limit": 100}
    result = answer(q)
    assert result["complete"] is False
    assert result["payments"], "cut short with nothing listed although the cost is payable"
    for pay in result["payments"][:3]:
        check = answer({"query": "validate", "state": q["state"], "cost": "{150}", "payment": pay})
        assert check["legal"] is True, check


def test_options_cut_short_lists_what_it_found() -> None:
    """A limit of 5 on a 40-permanent Commander board: five pools, the largest, and complete: false."""
    result = answer({"query": "options", "state": boards.commander_board(0), "limit": 5})
    assert result["complete"] is False
    assert len(result["options"]) == 5 and "" not in result["options"]


def test_options_of_many_states_of_one_total_stop_at_the_bound() -> None:
    """96 permanents: original duals, pain lands, filter lands, Signets and mana creatures, four
    of each.  Its final states share one total and one of them alone has millions of maximal
    pools: the listing stops at the bound inside that state's pools (it ran for minutes), and
    lists the largest pools it found with complete: false."""
    names = (sorted(boards.DUALS) + list(boards.PAIN_LANDS) + list(boards.FILTER_LANDS) + list(boards.SIGNETS)
             + list(boards.DORKS)) * 4
    state = {"players": [{"name": "you"}, {"name": "opponent"}],
             "battlefield": [boards.permanent(f"p{i}", n) for i, n in enumerate(names)]}
    result = answer({"query": "options", "state": state, "limit": 50})
    assert result["complete"] is False
    assert len(result["options"]) == 50 and "" not in result["options"]
    sizes = [o.count("{") for o in result["options"]]
    assert sizes == sorted(sizes, reverse=True)
