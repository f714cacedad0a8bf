"""The protocol's reference (docs/protocol.md) and JSON Schema (docs/schema.json) as tests read them.

``examples()`` gives the request/answer pairs of the reference's fenced blocks; ``documented()``
the fields each field table lists; ``described_fields()`` walks an answer beside its schema and
names, for every key the answer has, the definition that describes it.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from jsonschema import Draft202012Validator
from paths import REPO

DOCS = REPO / "docs"
REFERENCE = DOCS / "protocol.md"
_BLOCK = re.compile(r"^```json (request|answer|answer-fields)\n(.*?)^```$", re.S | re.M)
_TABLE = re.compile(r"<!-- fields: (\w+) -->\n(.*?)<!-- end -->", re.S)


@dataclass(frozen=True)
class Example:
    """One request of the reference and the answer written after it (``exact`` or some fields)."""

    line: int
    request: dict[str, Any]
    answer: dict[str, Any]
    exact: bool


def examples(text: str | None = None) -> list[Example]:
    text = REFERENCE.read_text(encoding="utf-8") if text is None else text
    out: list[Example] = []
    pending: tuple[int, dict[str, Any]] | None = None
    for match in _BLOCK.finditer(text):
        kind, body = match.group(1), match.group(2)
        line = text.count("\n", 0, match.start()) + 1
        value = json.loads(body)
        if kind == "request":
            assert pending is None, f"docs/protocol.md:{pending[0]}: a request without an answer after it"
            pending = (line, value)
        else:
            assert pending is not None, f"docs/protocol.md:{line}: an answer with no request before it"
            out.append(Example(pending[0], pending[1], value, kind == "answer"))
            pending = None
    assert pending is None, f"docs/protocol.md:{pending[0]}: a request without an answer after it"
    return out


def documented(text: str | None = None) -> dict[str, set[str]]:
    """The fields each table of the reference lists, by definition name."""
    text = REFERENCE.read_text(encoding="utf-8") if text is None else text
    out: dict[str, set[str]] = {}
    for name, body in _TABLE.findall(text):
        out[name] = set(re.findall(r"^\| `(\w+)` \|", body, re.M))
    return out


def contains(answer: Any, expected: Any, path: str = "") -> str | None:
    """Where ``answer`` differs from ``expected`` read as a pattern: objects may hold more keys,
    lists must have the same length, other values must be equal; ``None`` when it matches."""
    if isinstance(expected, dict):
        if not isinstance(answer, dict):
            return f"{path or 'the answer'}: expected an object, got {answer!r}"
        for key, value in expected.items():
            if key not in answer:
                return f"{path}.{key}: missing" if path else f"{key}: missing"
            where = contains(answer[key], value, f"{path}.{key}" if path else key)
            if where:
                return where
        return None
    if isinstance(expected, list):
        if not isinstance(answer, list) or len(answer) != len(expected):
            return f"{path}: expected {expected!r}, got {answer!r}"
        for i, (a, e) in enumerate(zip(answer, expected)):
            where = contains(a, e, f"{path}[{i}]")
            if where:
                return where
        return None
    return None if answer == expected and type(answer) is type(expected) else \
        f"{path}: expected {expected!r}, got {answer!r}"


class Walker:
    """Walks an answer beside its schema: each key met, with the definition that holds it."""

    def __init__(self, schema: dict[str, Any]) -> None:
        self.defs = schema["$defs"]

    def _resolve(self, node: dict[str, Any]) -> dict[str, Any]:
        while "$ref" in node:
            node = self.defs[node["$ref"].rsplit("/", 1)[1]]
        return node

    def _valid(self, value: Any, node: dict[str, Any]) -> bool:
        return bool(Draft202012Validator({**node, "$defs": self.defs}).is_valid(value))

    def fields(self, value: Any, ref: str) -> Iterator[tuple[str, str, str]]:
        """``(definition, field, key path)`` for every key of ``value`` under ``$defs[ref]``."""
        yield from self._walk(value, {"$ref": "#/$defs/" + ref}, "")

    def _walk(self, value: Any, node: dict[str, Any], path: str) -> Iterator[tuple[str, str, str]]:
        node = self._resolve(node)
        if "anyOf" in node:
            option = next((o for o in node["anyOf"] if self._valid(value, o)), None)
            assert option is not None, f"{path or 'the answer'} matches no definition: {value!r}"
            yield from self._walk(value, option, path)
            return
        if isinstance(value, dict) and "properties" in node:
            for key, item in value.items():
                where = f"{path}.{key}" if path else key
                assert key in node["properties"], f"{where}: not a field of {node['title']}"
                yield node["title"], key, where
                yield from self._walk(item, node["properties"][key], where)
        elif isinstance(value, dict) and isinstance(node.get("additionalProperties"), dict):
            for item in value.values():
                yield from self._walk(item, node["additionalProperties"], f"{path}.<key>")
        elif isinstance(value, list) and "items" in node:
            for item in value:
                yield from self._walk(item, node["items"], f"{path}[]")
