"""The typed definitions of the protocol (solver/service/schema/), the JSON Schema and OpenAPI document made
from them, and the typed Python API: the definitions match what the engine reads and answers.

The broad run asks every query kind on every bundled example board, the lines of
examples/queries.jsonl and the reference's own requests, validates each answer against its
query's answers in docs/schema.json, and names the definition that describes every key path.
"""

from __future__ import annotations

import http.client
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator
from paths import EXAMPLES, REPO
from protocol_docs import DOCS, Walker, documented, examples

from manasolver.models import errors
from manasolver.models.board import schema as board
from manasolver.solver.service import api
from manasolver.solver.service.protocol import QUERIES, answer
from manasolver.solver.service.schema import types as defs
from manasolver.solver.service.schema.jsonschema import check_board_fields, json_schema, schema_text
from manasolver.solver.service.schema.openapi import openapi

SCHEMA = json_schema()
#: Fields and queries of the protocol the definitions hold before the engine answers them.
SESSION_FIELDS = frozenset({"board", "changes"})
NOT_YET = frozenset({"plan", "open", "update", "close"})


def _validator(ref: str) -> Draft202012Validator:
    return Draft202012Validator({"$ref": "#/$defs/" + ref, "$defs": SCHEMA["$defs"]})


# -- the committed schema and the definitions ------------------------------------------------------

def test_committed_schema_is_what_the_definitions_generate() -> None:
    committed = (DOCS / "schema.json").read_text(encoding="utf-8")
    assert committed == schema_text(), (
        "docs/schema.json is stale: run python -m manasolver.solver.service.schema --write docs/"
    )


def test_the_schema_is_valid_draft_2020_12() -> None:
    Draft202012Validator.check_schema(SCHEMA)
    assert SCHEMA["$schema"] == "https://json-schema.org/draft/2020-12/schema"


def test_board_definitions_have_the_engines_field_names() -> None:
    """The board's definitions list exactly the fields models/board/schema.py reads."""
    check_board_fields()
    props = SCHEMA["$defs"]
    assert set(props["Permanent"]["properties"]) == set(board.PERMANENT_FIELDS)
    assert set(props["Player"]["properties"]) == set(board.PLAYER_FIELDS)
    assert props["Permanent"]["properties"]["id"]["anyOf"][0]["maxLength"] == board.LIMITS["name"]
    assert props["Player"]["required"] == ["name"] and props["State"]["required"] == ["players"]


def test_query_definitions_take_exactly_the_fields_the_protocol_accepts() -> None:
    """Each query's definition has the fields protocol.QUERIES accepts (and the common ones);
    beyond them only the session fields of the protocol, while the engine does not take them."""
    import typing
    from manasolver.solver.service import protocol
    common = set(getattr(protocol, "_COMMON", {"query", "id", "player", "cards"}))
    assert set(QUERIES) <= set(defs.QUERIES) and set(defs.QUERIES) - set(QUERIES) <= NOT_YET
    for name, accepted in QUERIES.items():
        keys = set(typing.get_type_hints(defs.QUERIES[name]))
        expected = set(accepted) | common
        assert expected <= keys, (name, sorted(expected - keys))
        ahead = SESSION_FIELDS | ({"detail"} if name == "could_produce" else set())  # the answer's why
        assert keys - expected <= ahead, (name, sorted(keys - expected))


def test_error_and_reason_codes_are_the_engines() -> None:
    import typing
    codes = set(typing.get_args(defs.ErrorCode))
    classes = [errors.BadCost, errors.BadState, errors.UnknownCard, errors.UnknownField, errors.Unsupported,
               errors.BadQuery]
    assert {c.code for c in classes} <= codes
    assert codes == {"bad_cost", "bad_state", "unknown_card", "unknown_field", "unknown_board", "unsupported",
                     "bad_query"}  # the protocol's codes
    assert set(typing.get_args(defs.ReasonCode)) == {"insufficient_mana", "insufficient_life", "insufficient_energy",
                                                     "restricted_mana", "no_legal_x", "timing", "not_castable",
                                                     "conflicting_sources", "illegal_partial"}


def test_objects_are_closed_so_an_undocumented_field_fails() -> None:
    """An answer with a field the definitions don't have is invalid: ``payabel`` is caught."""
    board_ = {"players": [{"name": "you"}], "battlefield": [{"id": "f1", "card": "Forest"}]}
    good = answer({"query": "pay", "state": board_, "cost": "{G}"})
    assert _validator("answer.pay").is_valid(good)
    assert not _validator("answer.pay").is_valid({**good, "payabel": True})
    bad_payment = {**good, "payment": {**good["payment"], "sacrificed": []}}
    assert not _validator("answer.pay").is_valid(bad_payment)
    assert not _validator("Query").is_valid({"query": "pay", "state": board_, "cost": "{G}", "polcy": []})


# -- the broad run: real answers against the schema and the reference ------------------------------

def _boards() -> dict[str, Any]:
    return {p.stem: json.loads(p.read_text(encoding="utf-8")) for p in sorted(EXAMPLES.glob("*.json"))}


def _broad_queries() -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for name, state in _boards().items():
        for query, cost in (("pay", "{1}{G}{U/P}"), ("can_pay", "{W}{U}{B}{R}{G}"), ("can_pay", "{20}"),
                            ("payments", "{G}"), ("max_x", "{X}{G}"), ("pay", "{2/W}{W/U}")):
            q: dict[str, Any] = {"id": f"{name}-{query}-{cost}", "query": query, "state": state, "cost": cost}
            if query == "payments":
                q["limit"] = 3
            out.append(q)
        out += [{"query": "options", "state": state, "limit": 5},
                {"query": "options", "state": state, "limit": 5, "detail": True},
                {"query": "could_produce", "state": state}, {"query": "counts", "state": state},
                {"query": "card", "card": state["battlefield"][-1].get("card", "Forest")}]
    for line in (REPO / "examples" / "queries.jsonl").read_text(encoding="utf-8").splitlines():
        out.append(json.loads(line))
    out += [e.request for e in examples()]
    return out


@pytest.fixture(scope="module")
def broad() -> list[tuple[dict[str, Any], dict[str, Any]]]:
    pairs = []
    for q in _broad_queries():
        a = answer(q)
        pairs.append((q, a))
        if q["query"] == "pay" and a.get("payable") and "activating" not in a:  # its own payment, validated
            v = {k: w for k, w in q.items() if k not in ("policy", "backend", "id")}
            v.update(query="validate", payment=a["payment"])
            pairs.append((v, answer(v)))
    return pairs


def test_every_broad_query_is_valid_and_every_answer_matches_its_schema(
        broad: list[tuple[dict[str, Any], dict[str, Any]]]) -> None:
    queries = _validator("Query")
    bad = []
    for q, a in broad:
        for err in ([] if "error" in a else queries.iter_errors(q)):  # a refused query may be malformed
            bad.append(f"query {q.get('id', q['query'])}: {err.message[:200]}")
        for err in _validator("answer." + q["query"]).iter_errors(a):
            bad.append(f"answer to {q.get('id', q['query'])}: {err.message[:300]}")
    assert not bad, "\n".join(bad[:20])
    kinds = {q["query"] for q, _ in broad}
    assert set(QUERIES) - {"open", "update", "close"} <= kinds
    assert any("error" in a for _, a in broad) and any(a.get("payable") is False for _, a in broad)


def test_every_answer_key_path_is_described_in_the_reference(
        broad: list[tuple[dict[str, Any], dict[str, Any]]]) -> None:
    """Each key of each answer is a field of a definition that docs/protocol.md has a table for,
    listing that field (sacrificed, tapped, hand, floating, complete, time_bound, unsupported,
    restricted, activating, spent ...)."""
    walker = Walker(SCHEMA)
    tables = documented()
    seen: dict[str, str] = {}
    for q, a in broad:
        for definition, field, path in walker.fields(a, "answer." + q["query"]):
            assert field in tables.get(definition, set()), \
                f"{q['query']} answers {path}, which docs/protocol.md's {definition} table does not describe"
            seen.setdefault(f"{q['query']}:{path}", definition)
    for path in ("pay:payment.activations[].sacrificed", "pay:payment.activations[].tapped",
                 "pay:payment.activations[].hand", "pay:payment.floating", "pay:unsupported[].reason",
                 "options:options[].restricted", "payments:complete", "pay:payment.colors_spent",
                 "pay:activating.text", "card:card.mana_abilities[].produces"):
        assert path in seen, f"the broad run never answered {path}"


# -- the OpenAPI document, served -------------------------------------------------------------------

def _refs(value: Any) -> list[str]:
    if isinstance(value, dict):
        return [v for k, v in value.items() if k == "$ref"] + [r for v in value.values() for r in _refs(v)]
    if isinstance(value, list):
        return [r for v in value for r in _refs(v)]
    return []


def test_openapi_over_a_real_server_is_the_definitions_document() -> None:
    proc = subprocess.Popen([sys.executable, "-m", "manasolver.solver.service.cli", "serve", "--port", "0"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None
        line = json.loads(proc.stdout.readline())
        port = int(line["listening"].rsplit(":", 1)[1].strip("/"))
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        conn.request("GET", "/openapi.json")
        response = conn.getresponse()
        body = response.read()
        assert response.status == 200 and response.getheader("Content-Type") == "application/json"
        doc = json.loads(body)
        served: dict[str, Any] = {}
        for path in ("/healthz", "/v1/cards?q=Fores&limit=3", "/v1/examples"):
            conn.close()  # a GET is answered before the engine, and its connection is not kept
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
            conn.request("GET", path)
            got = conn.getresponse()
            served[path.split("?")[0]] = (got.status, json.loads(got.read()))
        conn.close()
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        conn.request("POST", "/openapi.json", b"{}", {"Content-Type": "application/json"})
        refused = conn.getresponse()
        assert refused.status == 405 and json.loads(refused.read())["error"]["where"] == "method"
        conn.close()
    finally:
        proc.terminate()
        proc.wait(timeout=30)
    from manasolver.solver.service.serve import QueryApp
    routes = tuple(QueryApp("127.0.0.1", port).routes)
    assert doc == openapi(line["version"], routes)
    assert doc["openapi"] == "3.1.0" and doc["info"]["version"] == line["version"]
    assert set(doc["paths"]) == set(routes)  # the document describes exactly what the server answers
    assert {"/v1/query", "/v1/batch", "/healthz", "/openapi.json", "/"} <= set(routes)
    described = openapi(line["version"])["paths"]
    for path in routes:
        assert path in described, f"{path} is served but openapi.py does not describe it"
    for path, name in (("/healthz", "Health"), ("/v1/cards", "CardSearch"), ("/v1/examples", "Examples")):
        if path in routes:  # the service's own answers match their definitions
            status, body_ = served[path]
            assert status == 200 and _validator(name).is_valid(body_), (path, status, str(body_)[:300])
    schemas = doc["components"]["schemas"]
    assert set(schemas) == set(SCHEMA["$defs"])
    for ref in _refs(doc):
        assert ref.startswith("#/components/schemas/") and ref.rsplit("/", 1)[1] in schemas, ref
    query = doc["paths"]["/v1/query"]["post"]
    assert query["requestBody"]["content"]["application/json"]["schema"] == {"$ref": "#/components/schemas/Query"}


# -- the typed Python API ---------------------------------------------------------------------------

BOARD: defs.State = {"players": [{"name": "you", "life": 20}, {"name": "opponent"}],
                     "battlefield": [{"id": "f1", "card": "Forest"}, {"id": "i1", "card": "Island"},
                                     {"id": "rp", "card": "Reflecting Pool"}]}


def test_api_answers_are_the_protocols() -> None:
    paid = api.pay(BOARD, "{1}{G}", policy=["min_life"])
    assert paid == answer({"query": "pay", "state": BOARD, "cost": "{1}{G}", "policy": ["min_life"]})
    assert paid["payable"] is True and paid["payment"]["total"] == "{1}{G}"
    unpaid = api.can_pay(BOARD, "{G}{G}{G}{G}")
    assert unpaid["payable"] is False and unpaid["reason"]["code"] == "insufficient_mana"
    assert api.max_x(BOARD, "{X}{U}")["max_x"] == 2
    assert api.payments(BOARD, "{G}", limit=1)["complete"] is False
    assert api.could_produce(BOARD)["could_produce"]["rp"] == ["U", "G"]
    assert api.counts(BOARD)["domain"] == 2
    assert api.mana_value("{2/W}{2/U}")["mana_value"] == 4
    assert api.mana_value(card="Reaper King")["colors"] == ["W", "U", "B", "R", "G"]
    assert api.card("Forest")["card"]["mana_abilities"][0]["produces"] == ["{G}"]
    options = api.options(BOARD, detail=True)
    assert options["complete"] is True and {"mana": "{U}{G}{G}", "restricted": ""} in options["options"]
    if paid["payable"]:
        assert api.validate(BOARD, "{1}{G}", paid["payment"]) == {"legal": True, "problems": []}
    assert api.ask({"query": "mana_value", "cost": "{W/P}"}) == {"mana_value": 1, "colors": ["W"]}


def test_api_raises_an_error_answer_as_its_error_class() -> None:
    with pytest.raises(errors.BadCost) as bad:
        api.pay(BOARD, "{2}{Q/W}")
    assert bad.value.where == "cost[1]"
    with pytest.raises(errors.UnknownCard):
        api.card("Forrest")
    with pytest.raises(errors.UnknownField) as unknown:
        api.pay(BOARD, "{G}", **{"polcy": ["min_life"]})  # type: ignore[typeddict-unknown-key]
    assert unknown.value.where == "polcy"
    error = api.error_of({"error": {"code": "unknown_board", "message": "no such board", "where": "board"}})
    assert error.code == "unknown_board" and isinstance(error, ValueError)


def test_mypy_catches_a_misspelled_answer_field() -> None:
    """The point of the typed API: ``answer["payabel"]``, an unknown keyword and reading the
    payment before checking ``payable`` are type errors (mypy --strict over a small client)."""
    pytest.importorskip("mypy")
    with tempfile.TemporaryDirectory() as root:
        pkg = Path(root) / "manasolver"
        pkg.mkdir()
        for name in ("models", "solver"):
            os.symlink(REPO / name, pkg / name)
        client = Path(root) / "client.py"
        client.write_text(
            "from manasolver.solver import api\n"
            "board: api.State = {'players': [{'name': 'you'}], 'battlefield': [{'id': 'f1', 'card': 'Forest'}]}\n"
            "answer = api.pay(board, '{G}', polcy=['min_life'])\n"
            "print(answer['payabel'])\n"
            "print(answer['payment'])\n"
            "if answer['payable']:\n"
            "    print(answer['payment']['total'])\n", encoding="utf-8")
        done = subprocess.run([sys.executable, "-m", "mypy", "--strict", "--namespace-packages",
                               "--ignore-missing-imports", "--follow-imports=silent", "--no-incremental",
                               "client.py"], cwd=root, capture_output=True, text=True, timeout=600)
        shutil.rmtree(pkg)
    lines = [ln for ln in done.stdout.splitlines() if ": error:" in ln]
    assert any(ln.startswith("client.py:3:") and "polcy" in ln for ln in lines), done.stdout
    assert any(ln.startswith("client.py:4:") and "payabel" in ln for ln in lines), done.stdout
    assert any(ln.startswith("client.py:5:") and '"Unpaid" has no key "payment"' in ln for ln in lines), done.stdout
    assert not any(ln.startswith(("client.py:2:", "client.py:7:")) for ln in lines), done.stdout


def test_api_module_examples_run() -> None:
    import doctest
    result = doctest.testmod(api)
    assert result.attempted >= 3 and result.failed == 0
