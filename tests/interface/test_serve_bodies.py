"""A ``POST /v1/query`` body is read as the protocol's JSON decoder reads it, whichever way
the server gets there (the decoder's C scanner for a body that is one value, the decoder itself
for blanks before it or an error): the same query answered, or the same 400 with the decoder's
own message."""

from __future__ import annotations

import json
from typing import Any

import pytest
from manasolver.solver.service.protocol import (
    JSON_DECODER,
    TOO_DEEP,
    answer,
    not_json,
    too_deep,
)
from manasolver.solver.service.serve import QueryApp, Request

QUERY = '{"query": "mana_value", "cost": "{2}{G}"}'


def _expected(text: str) -> tuple[int, dict[str, Any]]:
    """What the decoder makes of ``text``: the answer of the query, or the refusal."""
    try:
        obj = JSON_DECODER.decode(text)
    except (ValueError, RecursionError) as err:
        if not text.strip():
            return 400, {"error": {"code": "bad_query", "message": "the body is empty: POST one JSON query object",
                                   "where": "body"}}
        return 400, {"error": {"code": "bad_query", "message": not_json(err), "where": "body"}}
    if type(obj) is not dict:
        return 400, {"error": {"code": "bad_query", "message": "a query must be a JSON object", "where": "body"}}
    if too_deep(text):
        return 400, {"error": {"code": "bad_query", "message": TOO_DEEP, "where": "body"}}
    return 200, answer(obj)


@pytest.mark.parametrize("text", [
    QUERY, f"  {QUERY}", f"{QUERY}\n", f"\r\n\t{QUERY} \n\n", f"{QUERY} x", f"{QUERY}{QUERY}", f"{QUERY}}}",
    "", "   \n", "[1, 2]", "3", '{"query": "mana_value", "cost": NaN}', '{"a": 1e999}', '{"a": Infinity}',
    '{"query": "mana_value" "cost": "{1}"}', '{"query": "mana_value", "cost": "{1}"', "[" * 100_000,
    '{"query": "mana_value", "cost": "{1}", "x": 1.5e3}',
    '{"query": "mana_value", "cost": "{1}", "id": ' + "[" * 65 + "]" * 65 + "}",
    '{"query": "mana_value", "cost": "{1}", "id": ' + "[" * 64 + "]" * 64 + "}",
])
def test_a_query_body_is_read_as_the_protocols_decoder_reads_it(text: str) -> None:
    response = QueryApp("127.0.0.1", 0)._query(Request("POST", "/v1/query", {}, text.encode("utf-8")))
    assert isinstance(response.body, bytes)
    assert (response.status, json.loads(response.body)) == _expected(text)
