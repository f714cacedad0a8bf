"""A small XML tree with line numbers, for the XML deck formats.

:mod:`xml.parsers.expat` builds it, so every element knows the line it starts on and an error can
name it.  Documents that declare a DTD or entities are refused: no deck format uses them, and an
entity can expand into a document far larger than the file.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from xml.parsers import expat

from manasolver.solver.castability.decklists.entries import DeckError

__all__ = ["Element", "parse"]


@dataclass(slots=True)
class Element:
    """An element: ``tag``, ``attrs``, the ``line`` it starts on, its children and text."""

    tag: str
    attrs: dict[str, str]
    line: int
    children: list[Element] = field(default_factory=list)
    text: str = ""

    def where(self) -> str:
        return f"line {self.line} <{self.tag}>"


def parse(text: str) -> Element:
    """The root element of ``text``; a :class:`DeckError` naming the line when it is not
    well-formed XML."""
    parser = expat.ParserCreate()
    stack: list[Element] = []
    root: list[Element] = []

    def start(tag: str, attrs: dict[str, str]) -> None:
        node = Element(tag, dict(attrs), parser.CurrentLineNumber)
        (stack[-1].children if stack else root).append(node)
        stack.append(node)

    def end(tag: str) -> None:
        stack.pop()

    def chars(data: str) -> None:
        if stack:
            stack[-1].text += data

    def refuse(*_: object) -> None:
        where = f"line {parser.CurrentLineNumber}"
        raise DeckError(f"{where}: a DTD or entity declaration; deck files have none", where)

    parser.StartElementHandler = start
    parser.EndElementHandler = end
    parser.CharacterDataHandler = chars
    parser.StartDoctypeDeclHandler = refuse
    parser.EntityDeclHandler = refuse
    try:
        parser.Parse(text.encode("utf-8"), True)
    except expat.ExpatError as err:
        where = f"line {err.lineno}"
        raise DeckError(f"{where}: not well-formed XML ({expat.ErrorString(err.code)}, column "
                        f"{err.offset + 1})", where) from None
    return root[0]
