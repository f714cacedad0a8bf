"""The JSON Schema of the protocol (draft 2020-12), generated from :mod:`~manasolver.solver.service.schema.types`.

Nothing here restates a shape: each ``TypedDict`` becomes an object schema by introspection
(``typing.get_type_hints`` with its ``Annotated`` markers, the required and optional keys), and
each field's description is read from the ``Fields:`` block of the docstring of the class that
declares it (found through the module's source, so that inherited fields keep their text on
every Python version).  Objects are closed (``additionalProperties: false``): a field the
definitions do not have is a field the documentation does not describe.

The document's root is a query; ``$defs`` holds every definition, and ``answer.<query>`` the
answers a query may give (always including the error answer).
"""

from __future__ import annotations

import ast
import inspect
import re
import types as pytypes
import typing
from collections.abc import Mapping
from functools import lru_cache
from typing import Any, Union

from manasolver.models.board import schema as board
from manasolver.solver.service.schema import types as defs

__all__ = ["DIALECT", "check_board_fields", "descriptions", "json_schema", "schema_of"]

DIALECT = "https://json-schema.org/draft/2020-12/schema"
_REF = "#/$defs/"

#: The board's definitions and the field tuples the engine checks a board against.
_BOARD_FIELDS: tuple[tuple[type, tuple[str, ...]], ...] = (
    (defs.State, board.STATE_FIELDS), (defs.Player, board.PLAYER_FIELDS), (defs.Turn, board.TURN_FIELDS),
    (defs.Permanent, board.PERMANENT_FIELDS), (defs.Characteristics, board.CARD_FIELDS),
    (defs.Chosen, board.CHOSEN_FIELDS),
)


def check_board_fields() -> None:
    """Raise ``AssertionError`` when a board definition's keys differ from the engine's field
    tuple of the same object (:mod:`manasolver.models.board.schema`)."""
    for cls, fields in _BOARD_FIELDS:
        keys = set(typing.get_type_hints(cls))
        if keys != set(fields):
            raise AssertionError(f"{cls.__name__} has keys {sorted(keys)}, the engine reads {sorted(fields)}")


# -- field descriptions, read from the docstrings -------------------------------------------------

@lru_cache(maxsize=1)
def _classes() -> dict[str, tuple[list[str], dict[str, str]]]:
    """Every class of the definitions module: its base names and the descriptions of its docstring."""
    tree = ast.parse(inspect.getsource(defs))
    out: dict[str, tuple[list[str], dict[str, str]]] = {}
    for node in tree.body:
        if isinstance(node, ast.ClassDef):
            bases = [b.id for b in node.bases if isinstance(b, ast.Name)]
            out[node.name] = (bases, _fields_block(ast.get_docstring(node) or ""))
    return out


def _fields_block(doc: str) -> dict[str, str]:
    """``name: text`` entries of a docstring's ``Fields:`` block (continuations indented further)."""
    lines = doc.splitlines()
    try:
        start = next(i for i, line in enumerate(lines) if line.strip() == "Fields:")
    except StopIteration:
        return {}
    out: dict[str, str] = {}
    current: str | None = None
    indent = None
    for line in lines[start + 1:]:
        if not line.strip():
            current = None
            continue
        depth = len(line) - len(line.lstrip())
        match = re.match(r"\s*(\w+): (.*)$", line)
        if match and (indent is None or depth <= indent):
            indent = depth
            current = match.group(1)
            out[current] = match.group(2).strip()
        elif current is not None:
            out[current] += " " + line.strip()
    return out


def descriptions(cls: type) -> dict[str, str]:
    """Each key of ``cls`` with its description: from the nearest class in its inheritance
    (itself first) whose docstring describes it."""
    classes = _classes()
    order: list[str] = []

    def walk(name: str) -> None:
        if name in classes and name not in order:
            order.append(name)
            for base in classes[name][0]:
                walk(base)

    walk(cls.__name__)
    out: dict[str, str] = {}
    for key in typing.get_type_hints(cls):
        text = next((classes[n][1][key] for n in order if key in classes[n][1]), None)
        if text is None:
            raise AssertionError(f"{cls.__name__}.{key} has no description in a Fields: block")
        out[key] = text
    return out


def _summary(cls: type) -> str:
    doc = inspect.getdoc(cls) or ""
    if doc.startswith("Fields:"):
        return ""
    return " ".join(doc.split("\n\n", 1)[0].split())


# -- types to schemas ---------------------------------------------------------------------------

def _is_typeddict(tp: object) -> bool:
    return isinstance(tp, type) and typing.is_typeddict(tp)


def schema_of(tp: Any, found: dict[str, type]) -> dict[str, Any]:
    """The schema of one type; the ``TypedDict`` classes it names are added to ``found``."""
    origin = typing.get_origin(tp)
    if origin is typing.Annotated:
        base, *marks = typing.get_args(tp)
        out = schema_of(base, found)
        for mark in marks:
            _apply(out, mark)
        return out
    if _is_typeddict(tp):
        found.setdefault(tp.__name__, tp)
        return {"$ref": _REF + tp.__name__}
    if origin is typing.Literal:
        values = list(typing.get_args(tp))
        return {"const": values[0]} if len(values) == 1 else {"enum": values}
    if origin in (Union, pytypes.UnionType):
        args = typing.get_args(tp)
        if type(None) in args:
            rest = [a for a in args if a is not type(None)]
            inner = schema_of(Union[tuple(rest)] if len(rest) > 1 else rest[0], found)
            if set(inner) == {"type"} and isinstance(inner["type"], str):
                return {"type": [inner["type"], "null"]}
            return {"anyOf": [inner, {"type": "null"}]}
        return {"anyOf": [schema_of(a, found) for a in args]}
    if origin is list:
        (item,) = typing.get_args(tp)
        return {"type": "array", "items": schema_of(item, found)}
    if origin is dict:
        key, value = typing.get_args(tp)
        out = {"type": "object", "additionalProperties": schema_of(value, found)}
        if typing.get_origin(key) is typing.Literal:
            out["propertyNames"] = schema_of(key, found)
        return out
    simple = {str: "string", int: "integer", bool: "boolean", float: "number", type(None): "null"}
    if tp in simple:
        return {"type": simple[tp]}
    if tp is object or tp is Any:
        return {}
    raise TypeError(f"no JSON Schema for {tp!r}")


def _apply(out: dict[str, Any], mark: object) -> None:
    string = out.get("type") == "string"
    if isinstance(mark, defs.Limit):
        out["maxLength" if string else "maximum"] = board.LIMITS[mark.key]
    elif isinstance(mark, defs.Minimum):
        out["minimum"] = mark.value
    elif isinstance(mark, defs.Maximum):
        out["maximum"] = mark.value
    elif isinstance(mark, defs.OneOf):
        out["enum"] = list(mark.values)
    elif isinstance(mark, defs.Pattern):
        out["pattern"] = mark.regex
    else:
        raise TypeError(f"unknown marker {mark!r}")


def _object(cls: type, found: dict[str, type]) -> dict[str, Any]:
    hints = typing.get_type_hints(cls, include_extras=True)
    texts = descriptions(cls)
    props: dict[str, Any] = {}
    for key, tp in hints.items():
        prop = schema_of(tp, found)
        props[key] = {**prop, "description": texts[key]} if "$ref" not in prop else \
            {"$ref": prop["$ref"], "description": texts[key]}
    out: dict[str, Any] = {"type": "object", "title": cls.__name__}
    summary = _summary(cls)
    if summary:
        out["description"] = summary
    out["properties"] = props
    required = [k for k in hints if k in cls.__required_keys__]  # type: ignore[attr-defined]
    if required:
        out["required"] = required
    out["additionalProperties"] = False
    return out


def _union(types: tuple[type, ...], found: dict[str, type]) -> dict[str, Any]:
    return {"anyOf": [schema_of(t, found) for t in types]}


@lru_cache(maxsize=1)
def _document() -> str:
    import json
    check_board_fields()
    found: dict[str, type] = {}
    extra: dict[str, Any] = {
        "Query": {"description": "Any query of the protocol, told apart by its \"query\" field.",
                  **_union(typing.get_args(defs.Query), found)},
        "Answer": {"description": "Any answer of the protocol.", **_union(typing.get_args(defs.Answer), found)},
    }
    for name, answers in defs.ANSWERS.items():
        extra[f"answer.{name}"] = {"description": f"The answers to {name}: "
                                   + ", ".join(a.__name__ for a in answers) + ", or an error.",
                                   **_union((*answers, defs.ErrorAnswer), found)}
    for service in (defs.Health, defs.CardSearch, defs.Examples):  # the service's own answers
        schema_of(service, found)
    objects: dict[str, Any] = {}
    while len(objects) < len(found):
        for name, cls in list(found.items()):
            if name not in objects:
                objects[name] = _object(cls, found)
    doc = {
        "$schema": DIALECT,
        "$id": "urn:manasolver:protocol",
        "title": "manasolver protocol",
        "description": "A query of the manasolver JSON protocol; $defs holds every query, "
                       "answer and board object, and answer.<query> the answers each query may give.",
        "$ref": _REF + "Query",
        "$defs": {**dict(sorted(objects.items())), **extra},
    }
    return json.dumps(doc, indent=2, ensure_ascii=False) + "\n"


def json_schema() -> dict[str, Any]:
    """The JSON Schema document (a fresh copy: callers may change it)."""
    import json
    out = json.loads(_document())
    assert isinstance(out, Mapping)
    return dict(out)


def schema_text() -> str:
    """The document as the text written to ``docs/schema.json``."""
    return _document()
