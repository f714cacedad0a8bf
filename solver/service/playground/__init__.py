"""The playground page: a board built in the browser, its payment drawn on it.

The page is plain HTML, JavaScript and CSS in ``static/`` (no build step), with the Mana font's
symbols (``static/fonts``, SIL OFL 1.1; the rules of its CSS that the page uses, MIT; both
notices in ``static/LICENSES``).  It asks the server it came from and nothing else: card names
from ``GET /v1/cards`` (:mod:`.search`), the bundled boards from ``GET /v1/examples``, answers
from ``POST /v1/query``.  This module gives :mod:`~manasolver.solver.service.serve` the files: a request
names one of the files listed here when the package is first asked, never a path on disk, so
``/static/../x`` is simply not among them.
"""

from __future__ import annotations

import json
import threading
from importlib import resources
from importlib.resources.abc import Traversable
from typing import Any

__all__ = ["CONTENT_TYPES", "PAGE_POLICY", "examples", "static_file"]

#: The type sent for each kind of file the page ships.
CONTENT_TYPES = {
    ".html": "text/html; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".woff2": "font/woff2",
    ".woff": "font/woff",
    ".txt": "text/plain; charset=utf-8",
    ".png": "image/png",
    ".svg": "image/svg+xml",
}

#: The Content-Security-Policy of the page: everything from its own origin, nothing else.
PAGE_POLICY = ("default-src 'self'; script-src 'self'; style-src 'self'; font-src 'self'; "
               "img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; "
               "frame-ancestors 'none'")

_lock = threading.Lock()
_files: dict[str, Traversable] | None = None
_read: dict[str, bytes] = {}


def _listing() -> dict[str, Traversable]:
    global _files
    if _files is None:
        found: dict[str, Traversable] = {}
        stack: list[tuple[str, Traversable]] = [("", resources.files(__name__).joinpath("static"))]
        while stack:
            prefix, folder = stack.pop()
            for entry in folder.iterdir():
                if entry.is_dir():
                    stack.append((f"{prefix}{entry.name}/", entry))
                elif _suffix(entry.name) in CONTENT_TYPES:
                    found[prefix + entry.name] = entry
        _files = found
    return _files


def _suffix(name: str) -> str:
    dot = name.rfind(".")
    return name[dot:].lower() if dot > 0 else ""


def static_file(name: str) -> tuple[bytes, str] | None:
    """The bytes and content type of the shipped file ``name`` (``"index.html"``,
    ``"fonts/mana.woff2"``), or None when the page ships no such file."""
    entry = _listing().get(name)
    if entry is None:
        return None
    data = _read.get(name)
    if data is None:
        with _lock:
            data = _read.setdefault(name, entry.read_bytes())
    return data, CONTENT_TYPES[_suffix(name)]


def examples(questions: list[tuple[str, str, dict[str, Any]]] | None = None) -> list[dict[str, Any]]:
    """The bundled example boards (``solver/service/examples/*.json``), each ``{"name", "state",
    "questions": [{"text", "query"}]}`` with the questions asked of it in ``questions``."""
    folder = resources.files("manasolver.solver.service").joinpath("examples")
    out = []
    for entry in sorted(folder.iterdir(), key=lambda e: e.name):
        if not entry.name.endswith(".json"):
            continue
        name = entry.name[:-len(".json")]
        asked = [{"text": text, "query": query} for board, text, query in questions or [] if board == name]
        out.append({"name": name, "state": json.loads(entry.read_text(encoding="utf-8")), "questions": asked})
    return out
