"""Questions about a board: the source graph, casting, the supply, the payment backends, policies,
the queries, the JSON protocol and the front ends (CLI, HTTP service, demo).

The public entry points are :func:`answer` (one decoded protocol query in, one answer object out; it
never raises) and :func:`answer_line` (one JSON line in, one JSON line out; :func:`answer_line_text`
gives that line's answer as the JSON text ``batch`` writes); :mod:`api` is the typed API.  The engine
is this package's modules; the protocol and the front ends around it are :mod:`manasolver.solver.service`.
The entry points are loaded on first use, so importing a submodule does not load the protocol.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

__all__ = ["answer", "answer_line", "answer_line_text", "api"]

if TYPE_CHECKING:
    from manasolver.solver.service import api as api
    from manasolver.solver.service.protocol import answer, answer_line, answer_line_text


def __getattr__(name: str) -> Any:
    if name == "api":
        from manasolver.solver.service import api
        return api
    if name in __all__:
        from manasolver.solver.service import protocol
        return getattr(protocol, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
