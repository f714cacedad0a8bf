"""Hostile JSON (no input, however malformed or large, may crash the process, hang it, or
answer wrongly without saying so): random bytes, random JSON values, queries with known fields
given values of every type, deep nesting, huge numbers, lone surrogates; each answered by
``answer_line`` with a JSON object, errors with the protocol's codes and never an internal error."""

from __future__ import annotations

import json
from typing import Any

from fuzzing import FUZZ, check_answer
from hypothesis import given
from hypothesis import strategies as st

from manasolver.solver.service.demo import example_state
from manasolver.solver.service.protocol import QUERIES, answer, answer_line

JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-10**30, 10**30) | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=30),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12)
FIELDS = sorted({f for fields in QUERIES.values() for f in fields} | {"query", "id", "player", "cards"})


@FUZZ
@given(data=st.binary(max_size=300))
def test_random_bytes_are_answered(data: bytes) -> None:
    check_answer({}, answer_line(data, 1))


@FUZZ
@given(value=JSON_VALUES)
def test_random_json_values_are_answered(value: Any) -> None:
    check_answer({}, answer_line(json.dumps(value), 1))


@FUZZ
@given(name=st.sampled_from(sorted(QUERIES)),
       fields=st.dictionaries(st.sampled_from(FIELDS), JSON_VALUES, max_size=5))
def test_known_fields_with_values_of_any_type(name: str, fields: dict[str, Any]) -> None:
    query = {**fields, "query": name}
    check_answer(query, answer(query), validate=False)


@FUZZ
@given(name=st.sampled_from(["pay", "can_pay", "payments", "max_x", "options", "could_produce", "counts"]),
       field=st.sampled_from(["players", "battlefield", "turn"]), value=JSON_VALUES)
def test_a_real_board_with_one_hostile_part(name: str, field: str, value: Any) -> None:
    state = example_state("commander")
    state[field] = value
    query = {"query": name, "state": state, "cost": "{X}{G}"}
    check_answer(query, answer(query), validate=False)


def test_deep_nesting_and_huge_lines() -> None:
    for line in ("[" * 100_000 + "]" * 100_000, '{"query": "pay", "cost": "' + "{G}" * 40_000 + '"}',
                 '{"query": "pay", "x": 1' + "0" * 5000 + "}", '{"query": "card", "card": "\\ud800"}',
                 '{"query": "mana_value", "cost": "{' + "9" * 400 + '}"}', "\ufeff{}", "NaN", "1e999"):
        result = answer_line(line, 7)
        check_answer({}, result)
        assert "error" in result, (line[:60], result)
