"""Every answer checked against the committed docs/schema.json (the file clients read, not the
definitions it is generated from): ``check(kind, answer)`` raises on a field the schema forbids."""

from __future__ import annotations

import json
from functools import cache
from typing import Any

from jsonschema import Draft202012Validator
from paths import REPO

__all__ = ["answer_validator", "check"]


@cache
def answer_validator(kind: str) -> Draft202012Validator:
    """The validator of the answers to query ``kind`` (``answer.<kind>`` of docs/schema.json)."""
    schema = json.loads((REPO / "docs" / "schema.json").read_text(encoding="utf-8"))
    return Draft202012Validator({"$ref": "#/$defs/answer." + kind, "$defs": schema["$defs"]})


def check(kind: str, answer: Any) -> None:
    """Raise ``jsonschema.ValidationError`` when ``answer`` is not an answer to ``kind`` by the schema."""
    answer_validator(kind).validate(answer)
