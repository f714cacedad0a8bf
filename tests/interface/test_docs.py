"""docs/: every example of the protocol's reference runs against the engine and answers as written,
and the reference describes every field of every definition (its tables are the definitions')."""

from __future__ import annotations

import json
import re
import subprocess
import sys

from typing import Any

import pytest
from paths import REPO
from protocol_docs import DOCS, REFERENCE, Example, contains, documented, examples

from manasolver.solver.service.protocol import answer
from manasolver.solver.service.schema import types as defs
from manasolver.solver.service.schema.jsonschema import json_schema
from manasolver.solver.service.schema.reference import refresh

ALL = examples()


def _in_session(example: Example) -> bool:
    return example.request["query"] == "open" or "$board" in json.dumps(example.request)


#: The session walk-through runs in order (its handle is the one its open answers); the rest alone.
SESSION = [e for e in ALL if _in_session(e)]
EXAMPLES = [e for e in ALL if not _in_session(e)]


def _accepted(request: dict[str, Any]) -> bool:
    """Does the engine take the query and every field of ``request`` that the definitions have?
    (A protocol field may be ahead of the engine; a misspelled one, there to show the error,
    is not a field of the definitions.)"""
    import typing

    from manasolver.solver.service import protocol
    fields = protocol.QUERIES.get(request["query"])
    if fields is None:
        return False
    common = getattr(protocol, "_COMMON", frozenset({"query", "id", "player", "cards"}))
    defined = set(typing.get_type_hints(defs.QUERIES[request["query"]]))
    return (set(request) & defined) <= set(fields) | set(common)


def _put(value: Any, handle: str) -> Any:
    """``value`` with the placeholder ``$board`` replaced by ``handle``."""
    return json.loads(json.dumps(value).replace('"$board"', json.dumps(handle)))


def test_the_reference_has_examples_of_every_query_the_engine_answers() -> None:
    from manasolver.solver.service.protocol import QUERIES
    asked = {e.request["query"] for e in EXAMPLES}
    asked |= {e.request["query"] for e in SESSION}
    answered = set(QUERIES)
    assert answered <= asked, f"queries with no example in docs/protocol.md: {sorted(answered - asked)}"
    assert len(EXAMPLES) >= 25


@pytest.mark.parametrize("example", EXAMPLES, ids=[f"line{e.line}-{e.request['query']}" for e in EXAMPLES])
def test_example_answers_as_the_reference_says(example) -> None:  # type: ignore[no-untyped-def]
    if not _accepted(example.request):
        pytest.skip(f"docs/protocol.md:{example.line}: a protocol field this engine does not take yet")
    got = answer(example.request)
    if example.exact:
        assert got == example.answer, f"docs/protocol.md:{example.line}: the engine answers {got}"
    else:
        where = contains(got, example.answer)
        assert where is None, f"docs/protocol.md:{example.line}: {where}; the engine answers {got}"


def test_the_session_walk_through_answers_as_the_reference_says() -> None:
    """The sessions section, in order: open, queries on the handle, update, a bad change that
    leaves the board as it was, close, and the closed handle refused."""
    assert SESSION and SESSION[0].request["query"] == "open"
    if not _accepted(SESSION[0].request):
        pytest.skip("this engine keeps no boards yet (sessions)")
    handle = ""
    for example in SESSION:
        got = answer(_put(example.request, handle) if handle else example.request)
        if example.request["query"] == "open":
            handle = got["board"]
            assert isinstance(handle, str) and handle, got
        expected = _put(example.answer, handle)
        where = None if not example.exact else (None if got == expected else f"the engine answers {got}")
        where = where or (None if example.exact else contains(got, expected))
        assert where is None, f"docs/protocol.md:{example.line}: {where}; the engine answers {got}"
    assert answer({"query": "close", "board": handle})["error"]["code"] == "unknown_board"


def test_the_pattern_match_of_answer_fields_can_fail() -> None:
    """``answer-fields`` examples compare what they list: a wrong value, a missing key and a list
    of another length are each told apart."""
    got = {"payable": True, "payment": {"activations": [{"permanent": "f1"}], "life": 0}}
    assert contains(got, {"payment": {"activations": [{"permanent": "f1"}]}}) is None
    assert contains(got, {"payable": False}) == "payable: expected False, got True"
    assert contains(got, {"payment": {"floating": ""}}) == "payment.floating: missing"
    assert contains(got, {"payment": {"activations": []}}) is not None
    assert contains({"legal": 1}, {"legal": True}) is not None  # 1 is not true


def test_the_field_tables_are_the_definitions() -> None:
    """Every table of docs/protocol.md is what the definitions write (``python -m
    manasolver.solver.service.schema --write docs/`` refreshes them)."""
    text = REFERENCE.read_text(encoding="utf-8")
    assert refresh(text) == text, \
        "docs/protocol.md's tables are stale: run python -m manasolver.solver.service.schema --write docs/"


def test_every_definition_of_the_schema_has_its_table() -> None:
    """The reference describes every object the protocol has: each definition of the JSON Schema
    has a table listing each of its fields."""
    tables = documented()
    schema = json_schema()
    missing = []
    for name, node in schema["$defs"].items():
        if node.get("type") != "object":
            continue
        if name not in tables:
            missing.append(name)
        else:
            assert tables[name] == set(node["properties"]), name
    assert not missing, f"definitions with no table in docs/protocol.md: {missing}"


def test_every_table_is_a_definition_and_every_anchor_exists() -> None:
    text = REFERENCE.read_text(encoding="utf-8")
    for name in documented(text):
        assert hasattr(defs, name), name
    headings = {re.sub(r"[^\w\- ]", "", h.strip().lower()).replace(" ", "-")
                for h in re.findall(r"^#+ (.*)$", text, re.M)}
    for anchor in set(re.findall(r"\]\(#([\w-]+)\)", text)):
        assert anchor in headings or f'<a id="{anchor}"></a>' in text, f"no #{anchor} in docs/protocol.md"


def test_docs_index_and_readme_point_at_the_reference() -> None:
    index = (DOCS / "index.md").read_text(encoding="utf-8")
    assert "protocol.md" in index and "schema.json" in index
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    assert "docs/protocol.md" in readme


def test_schema_module_check_says_the_committed_files_are_current() -> None:
    """``python -m manasolver.solver.service.schema --check docs/`` (what a contributor runs) exits 0."""
    done = subprocess.run([sys.executable, "-m", "manasolver.solver.service.schema", "--check", str(DOCS)],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr


def test_plan_is_answered_as_the_reference_says() -> None:
    """docs/protocol.md no longer says plan is refused, and the engine answers it (its examples
    run with the others)."""
    from manasolver.solver.service.protocol import QUERIES
    text = REFERENCE.read_text(encoding="utf-8")
    assert "plan" in QUERIES
    assert "This version does not answer `plan` yet" not in text
    got = answer({"query": "plan", "state": {"players": [{"name": "you"}]}, "costs": [{"cost": "{0}"}]})
    assert got["payable"] is True and len(got["payments"]) == 1, got


def test_every_json_block_of_the_docs_is_a_request_or_an_answer() -> None:
    """No JSON example in docs/ escapes the run: each fenced json block is marked request,
    answer or answer-fields (and each request has its answer)."""
    for path in sorted(DOCS.glob("*.md")):
        text = path.read_text(encoding="utf-8")
        infos = re.findall(r"^```json(.*)$", text, re.M)
        unmarked = [i for i in infos if i.strip() not in ("request", "answer", "answer-fields")]
        assert not unmarked, f"{path.name}: json blocks not marked request/answer: {unmarked}"
    assert len(ALL) * 2 == len(re.findall(r"^```json ", REFERENCE.read_text(encoding="utf-8"), re.M))
