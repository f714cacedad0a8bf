"""The JSON protocol in process: shapes, errors as answers, no crash on any input."""

from __future__ import annotations

import doctest
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from manasolver.solver.service.protocol import QUERIES, answer, answer_line
from paths import REPO

ROOT = REPO


def test_readme_examples_run() -> None:
    """The README's Python examples are doctests."""
    result = doctest.testfile(str(ROOT / "README.md"), module_relative=False)
    assert result.attempted > 0 and result.failed == 0


def test_module_doctests() -> None:
    from manasolver.models import cost, symbols
    from manasolver.solver.service import boards, protocol
    for module in (symbols, cost, protocol, boards):
        result = doctest.testmod(module)
        assert result.failed == 0, module.__name__


def test_every_query_of_the_spec_is_known() -> None:
    assert set(QUERIES) == {"pay", "can_pay", "payments", "max_x", "options", "could_produce", "validate",
                            "mana_value", "counts", "card", "plan", "guide", "open", "update", "close"}


@pytest.mark.parametrize("query,code,where", [
    ({}, "bad_query", "query"),
    ({"query": 3}, "bad_query", "query"),
    ({"query": "pay"}, "bad_query", "state"),
    ({"query": "mana_value", "cost": "{2}", "colour": 1}, "unknown_field", "colour"),
    ({"query": "mana_value", "cost": 5}, "bad_cost", "cost"),
    ({"query": "mana_value", "cost": "{2}", "zone": "moon"}, "bad_query", "zone"),
    ({"query": "mana_value", "card": "Forrest"}, "unknown_card", "card"),
    ({"query": "counts", "state": {"players": []}}, "bad_state", "players"),
    ({"query": "counts", "state": {"players": [{"name": "a"}], "battlefield": [{"id": "x", "card": "Nope Nope"}]}},
     "unknown_card", "battlefield[0].card"),
    ({"query": "pay", "cost": "{1}", "state": {"players": [{"name": "a"}]}, "modifiers": [{"shrink": "{1}"}]},
     "unknown_field", "modifiers[0]"),
    ({"query": "pay", "cost": "{1}", "state": {"players": [{"name": "a"}]}, "policy": ["min_lfe"]},
     "bad_query", "policy[0]"),
    ({"query": "pay", "cost": "{1}", "state": {"players": [{"name": "a"}]}, "x": -1}, "bad_query", "x"),
    ({"query": "pay", "cost": "{1}", "state": {"players": [{"name": "a"}]}, "player": "b"}, "bad_query", "player"),
])
def test_errors_are_answers_naming_the_field(query: dict[str, Any], code: str, where: str) -> None:
    result = answer(query)
    assert result["error"]["code"] == code, result
    assert result["error"]["where"] == where, result


def test_unknown_card_suggestion() -> None:
    result = answer({"query": "mana_value", "card": "Forrest"})
    assert "Forest" in result["error"]["message"]


def test_id_is_echoed_on_errors_and_answers() -> None:
    assert answer({"query": "mana_value", "cost": "{W}", "id": "q1"})["id"] == "q1"
    assert answer({"query": "bogus", "id": 5})["id"] == 5


def test_mana_value_of_card_and_stack_x() -> None:
    """CR 202.3e: X counts only on the stack."""
    assert answer({"query": "mana_value", "card": "Reaper King"}) == {
        "mana_value": 10, "colors": ["W", "U", "B", "R", "G"]}
    assert answer({"query": "mana_value", "cost": "{X}{X}", "x": 2})["mana_value"] == 0
    assert answer({"query": "mana_value", "cost": "{X}{X}", "x": 2, "zone": "stack"})["mana_value"] == 4
    assert answer({"query": "mana_value", "card": "Forest"}) == {"mana_value": 0, "colors": []}


def test_deeply_nested_json_line_is_an_answer() -> None:
    line = "[" * 100_000 + "]" * 100_000
    assert answer_line(line)["error"]["code"] == "bad_query"
    line = json.dumps({"query": "counts", "state": {"players": [{"name": "a", "hand": [[[[[]]]]]}]}})
    assert "error" in answer_line(line)


_json = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=True) | st.text(max_size=8),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4),
    max_leaves=20,
)


@settings(max_examples=300, deadline=None)
@given(name=st.sampled_from(sorted(QUERIES)), body=st.dictionaries(
    st.sampled_from(["state", "cost", "card", "x", "limit", "policy", "modifiers", "spell", "payment",
                     "player", "zone", "detail"]), _json, max_size=5))
def test_fuzzed_queries_always_answer(name: str, body: dict[str, Any]) -> None:
    """No input may crash the process or answer without saying what is wrong."""
    result = answer({"query": name, **body})
    assert isinstance(result, dict)
    if "error" in result:
        assert result["error"]["code"] in ("bad_cost", "bad_state", "unknown_card", "unknown_field",
                                           "unsupported", "bad_query")
        assert "internal error" not in result["error"]["message"], result


def test_validate_refuses_absurd_times_quickly() -> None:
    """A caller's payment with times=10^9 is a bad query, answered at once, never a hang."""
    state = {"players": [{"name": "you"}], "battlefield": [{"id": "f", "card": "Forest"}]}
    payment = {"total": "{G}", "activations": [{"permanent": "f", "ability": 0, "costs": ["{T}"], "mana": "{G}",
                                                  "times": 1_000_000_000}]}
    result = answer({"query": "validate", "state": state, "cost": "{G}", "payment": payment})
    assert result["error"]["code"] == "bad_query" and result["error"]["where"] == "payment"


def test_validate_refuses_a_whole_answer_as_payment() -> None:
    state = {"players": [{"name": "you"}], "battlefield": [{"id": "f", "card": "Forest"}]}
    paid = answer({"query": "pay", "state": state, "cost": "{G}"})
    result = answer({"query": "validate", "state": state, "cost": "{G}", "payment": paid})
    assert result["error"]["code"] == "bad_query" and "PAYMENT" in result["error"]["message"]
    assert answer({"query": "validate", "state": state, "cost": "{G}", "payment": paid["payment"]}) == {
        "legal": True, "problems": []}


def test_cr_712_8e_transformed_back_face_has_the_front_faces_mana_value() -> None:
    """CR 712.8e: Insectile Aberration (back of Delver of Secrets {U}) has mana value 1; an
    adventure (Stomp {1}{R}) keeps its own."""
    assert answer({"query": "mana_value", "card": "Insectile Aberration"}) == {"mana_value": 1, "colors": ["U"]}
    assert answer({"query": "mana_value", "card": "Stomp"})["mana_value"] == 2


@pytest.mark.parametrize("name", ["Llanowar Elves", "Lightning Bolt", "Sol Ring", "Dryad Arbor", "Fire // Ice"])
def test_a_spell_named_alone_is_read_once_per_card(name: str) -> None:
    """``{"spell": {"card": NAME}}`` casts what the card's facts keep (read the first time), equal to
    the spell read field by field; a spell that gives more than its name is read from its fields."""
    from manasolver.models.carddb import default_db
    from manasolver.solver.service import decode

    first = decode.spell({"spell": {"card": name}})
    assert first is not None and first is decode.spell({"spell": {"card": name}})
    card = default_db().get(name)
    assert first == decode.spell({"spell": {"card": name, "ability": False}})  # (read field by field)
    assert (first.types, first.colors, first.card) == (frozenset(card.type_line.types), card.colors, card)
    given = decode.spell({"spell": {"card": name, "types": ["sorcery"]}})
    assert given is not None and given is not first and given.types == frozenset({"sorcery"})


def test_a_spell_named_alone_that_is_no_card_is_refused_at_spell() -> None:
    """The name read alone is refused as it was read with other fields: at ``spell.card``."""
    got = answer({"query": "can_pay", "state": {"players": [{"name": "you"}]}, "cost": "{1}",
                  "spell": {"card": "Llanowar Elvess"}})
    assert got["error"]["code"] == "unknown_card" and got["error"]["where"] == "spell.card"


def test_the_environments_card_file_is_read_by_the_first_query_and_kept_for_the_process(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``MANASOLVER_CARDS`` is the process's configuration: a process started with it answers
    queries that name no card file with its cards; set later in a process that has answered such a
    query, it is not read again (``default_db`` reads it; a query names the file in ``cards``)."""
    from manasolver.models.carddb import default_db
    from manasolver.solver.service import decode

    path = tmp_path / "env.jsonl"
    path.write_text(json.dumps({"name": "Envtest Golem", "mana_cost": "{7}", "type_line": "Artifact Creature — Golem",
                                "oracle_text": ""}) + "\n", encoding="utf-8")
    query = {"query": "mana_value", "card": "Envtest Golem"}
    code = f"from manasolver.solver import answer; print(answer({query!r})['mana_value'])"
    started = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                             env={**os.environ, "MANASOLVER_CARDS": str(path)})
    assert started.stdout.strip() == "7"
    before = decode.card_db({})
    monkeypatch.setenv("MANASOLVER_CARDS", str(path))
    assert decode.card_db({}) is before and default_db() is not before
    assert answer(query)["error"]["code"] == "unknown_card"
    assert answer({**query, "cards": str(path)}) == {"mana_value": 7, "colors": []}
