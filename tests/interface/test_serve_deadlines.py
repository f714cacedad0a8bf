"""Deadlines that hold and a clean stop: ``options`` on a 200-permanent board of mana rocks,
Signets and a filter land answers within its bound and a second, the server answers a query held
past its hard limit with the time bound's error, and SIGTERM lets the requests in flight finish
(cutting CP-SAT short once the grace runs out) and exits 0."""

from __future__ import annotations

import asyncio
import json
import time
from typing import Any

import pytest
from manasolver.benchmarks.hostile import hostile_sigterm
from manasolver.models.board.load import load_state
from manasolver.models.carddb import default_db
from manasolver.solver.service.asgi import Application, Limits
from manasolver.solver.pools.options import options
from manasolver.solver.service.serve import QueryApp

ROCKS = ["Urza's Tower", "Fellwar Stone", "Azorius Signet", "Boros Signet", "Orzhov Signet", "Rugged Prairie",
         "Basalt Monolith", "Sol Ring"]


def rocks_board(n: int = 200) -> dict[str, Any]:
    """``n`` permanents of Urza's Tower, Fellwar Stone, Signets, Rugged Prairie, Basalt Monolith and
    Sol Ring (abilities that cost mana: thousands of final states for ``options``)."""
    return {"players": [{"name": "you"}, {"name": "opponent"}],
            "battlefield": [{"id": f"p{i}", "card": ROCKS[i % len(ROCKS)]} for i in range(n)]}


@pytest.mark.slow
def test_options_on_200_rocks_and_signets_answers_within_its_bound_and_a_second() -> None:
    state = load_state(rocks_board(), default_db())
    for seconds in (0.0, 0.5):
        start = time.monotonic()
        got = options(state, "you", budget=seconds)
        took = time.monotonic() - start
        assert took < seconds + 1.0, took
        assert got.bounded and not got.complete and got.options  # a page of what it found, flagged


def _asgi(app: Application, path: str, body: bytes) -> tuple[int, dict[str, Any]]:
    """One request through the ASGI application, in process."""
    sent: list[dict[str, Any]] = []
    messages = [{"type": "http.request", "body": body, "more_body": False}]

    async def receive() -> dict[str, Any]:
        return messages.pop(0) if messages else {"type": "http.disconnect"}

    async def send(message: Any) -> None:
        sent.append(message)

    scope = {"type": "http", "method": "POST", "path": path, "raw_path": path.encode(), "query_string": b"",
             "http_version": "1.1", "headers": [(b"host", b"127.0.0.1"), (b"content-type", b"application/json"),
                                                (b"content-length", str(len(body)).encode())]}
    asyncio.run(app(scope, receive, send))  # type: ignore[arg-type]
    return sent[0]["status"], json.loads(b"".join(m.get("body", b"") for m in sent[1:]))


def test_a_query_past_the_servers_hard_limit_is_stopped_and_answered() -> None:
    app = Application(QueryApp("127.0.0.1", 0), Limits(query_limit=0.3))
    try:
        start = time.monotonic()
        status, got = _asgi(app, "/v1/query", json.dumps({"query": "options", "state": rocks_board()}).encode())
        took = time.monotonic() - start
    finally:
        app.engine.shutdown(wait=True)
    assert status == 200 and took < 2.5, took
    assert got.get("bounded") is True or "time bound" in got.get("error", {}).get("message", ""), got


@pytest.mark.slow
def test_sigterm_answers_every_request_in_flight_and_exits_0() -> None:
    """Six max_x queries on 150 permanents (CP-SAT) in flight, SIGTERM half a second later, a
    grace of 1 s: each answered (cut short or not), the server exits 0 (the audit's check, once)."""
    result = hostile_sigterm(trials=1, requests=6)
    assert result["pass"], result
    assert result["answered"] == 6 and result["exit_codes"] == [0]
