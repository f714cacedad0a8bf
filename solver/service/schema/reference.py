"""The field tables of the protocol's reference (``docs/protocol.md``), written from the definitions.

A table stands in the document between ``<!-- fields: Name -->`` and ``<!-- end -->``; it lists
each field of the definition ``Name`` of :mod:`~manasolver.solver.service.schema.types` with its type,
whether it is required, and its description (the same text as the JSON Schema's).  The prose and
the examples around the tables are written by hand; :func:`refresh` rewrites only the tables, so
the reference can't describe a field the definitions do not have, or miss one they have.
"""

from __future__ import annotations

import re
import types as pytypes
import typing
from typing import Any, Union

from manasolver.models.board.schema import LIMITS
from manasolver.solver.service.schema import types as defs
from manasolver.solver.service.schema.jsonschema import descriptions

__all__ = ["MARKER", "refresh", "table", "tables_named", "type_text"]

#: A table's place in the document: ``<!-- fields: Payment -->`` … ``<!-- end -->``.
MARKER = re.compile(r"(<!-- fields: (\w+) -->\n)(.*?)(<!-- end -->)", re.S)


def _anchor(name: str) -> str:
    return name.lower()


#: Unions named by the reference's own sections rather than spelled out.
_NAMED: tuple[tuple[Any, str], ...] = (
    (defs.Change, "[CHANGE](#changes)"), (defs.Policy, "[POLICY](#policy)"),
    (defs.Modifier, "[MODIFIER](#modifiers)"), (defs.Spell, "[SpellObject](#spellobject) or "
                                                             "[AbilitySpell](#abilityspell)"),
    (defs.PolicyItem, "criterion"), (defs.CardRef, "card name or [Characteristics](#characteristics)"),
)


def type_text(tp: Any) -> str:
    """A type in a few words, definitions linked to their tables: ``list of [Choice](#choice)``."""
    for alias, words in _NAMED:
        if tp == alias:
            return words
    origin = typing.get_origin(tp)
    if origin is typing.Annotated:
        base, *marks = typing.get_args(tp)
        text = type_text(base)
        notes = []
        for mark in marks:
            if isinstance(mark, defs.OneOf):
                return " \\| ".join(f'`"{v}"`' for v in mark.values)
            if isinstance(mark, defs.Minimum):
                notes.append(f"≥ {mark.value}")
            elif isinstance(mark, defs.Maximum):
                notes.append(f"≤ {mark.value:,}")
            elif isinstance(mark, defs.Limit) and text == "integer":
                notes.append(f"≤ {_number(LIMITS[mark.key])}")
            elif isinstance(mark, defs.Limit) and text == "string":
                notes.append(f"(at most {LIMITS[mark.key]:,} characters)")
        return f"{text} {' '.join(notes)}" if notes else text
    if isinstance(tp, type) and typing.is_typeddict(tp):
        return f"[{tp.__name__}](#{_anchor(tp.__name__)})"
    if origin is typing.Literal:
        return " \\| ".join(_literal(v) for v in typing.get_args(tp))
    if origin in (Union, pytypes.UnionType):
        return " or ".join(type_text(a) for a in typing.get_args(tp))
    if origin is list:
        return "list of " + type_text(typing.get_args(tp)[0])
    if origin is dict:
        key, value = typing.get_args(tp)
        keys = f" ({type_text(key)})" if typing.get_origin(key) is typing.Literal else ""
        return f"object{keys} of {type_text(value)}"
    names = {str: "string", int: "integer", bool: "boolean", float: "number", type(None): "null", object: "any"}
    if tp in names:
        return names[tp]
    raise TypeError(f"no words for {tp!r}")


def _number(n: int) -> str:
    """``1,000,000``, or ``2^62`` for a large power of two."""
    return f"2^{n.bit_length() - 1}" if n >= 2**31 and n & (n - 1) == 0 else f"{n:,}"


def _literal(value: object) -> str:
    if value is True or value is False:
        return f"`{str(value).lower()}`"
    if value is None:
        return "`null`"
    return f'`"{value}"`'


def table(name: str) -> str:
    """The markdown table of the definition ``name``."""
    cls = getattr(defs, name)
    hints = typing.get_type_hints(cls, include_extras=True)
    texts = descriptions(cls)
    rows = [f'<a id="{_anchor(name)}"></a>', "", "| field | type | required | description |",
            "| --- | --- | --- | --- |"]
    for key, tp in hints.items():
        required = "yes" if key in cls.__required_keys__ else ""
        text = texts[key].replace("|", "\\|")
        rows.append(f"| `{key}` | {type_text(tp)} | {required} | {text} |")
    return "\n".join(rows) + "\n"


def tables_named(text: str) -> list[str]:
    """The definitions whose tables a document holds, in order."""
    return [m.group(2) for m in MARKER.finditer(text)]


def refresh(text: str) -> str:
    """``text`` with every table rewritten from the definitions."""
    return MARKER.sub(lambda m: m.group(1) + table(m.group(2)) + m.group(4), text)
