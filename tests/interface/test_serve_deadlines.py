"""Deadlines that hold and a clean stop: ``options`` on a 200-permanent board of mana rocks,
Signets and a filter land answers within its bound and a second, the server answers a query held
past its hard limit with the time bound's error, and SIGTERM lets the requests in flight finish
(cutting CP-SAT short once the grace runs out) and exits 0."""

from __future__ import annotations

import asyncio
import http.client
import json
import signal
import subprocess
import sys
import threading
import time
from typing import Any
from urllib.parse import urlsplit

from manasolver.benchmarks.boards import commander_board
from manasolver.models.board.load import load_state
from manasolver.models.carddb import default_db
from manasolver.solver.asgi import Application, Limits
from manasolver.solver.pools.options import options
from manasolver.solver.serve import QueryApp

CLI = [sys.executable, "-m", "manasolver.solver.cli"]
ROCKS = ["Urza's Tower", "Fellwar Stone", "Azorius Signet", "Boros Signet", "Orzhov Signet", "Rugged Prairie",
         "Basalt Monolith", "Sol Ring"]


def rocks_board(n: int = 200) -> dict[str, Any]:
    """``n`` permanents of Urza's Tower, Fellwar Stone, Signets, Rugged Prairie, Basalt Monolith and
    Sol Ring (abilities that cost mana: thousands of final states for ``options``)."""
    return {"players": [{"name": "you"}, {"name": "opponent"}],
            "battlefield": [{"id": f"p{i}", "card": ROCKS[i % len(ROCKS)]} for i in range(n)]}


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


def _max_x_board() -> dict[str, Any]:
    board = commander_board(0)
    perms = board["battlefield"]
    board["battlefield"] = [{**perms[i % len(perms)], "id": f"p{i}"} for i in range(150)]
    return board


def test_sigterm_answers_every_request_in_flight_and_exits_0() -> None:
    proc = subprocess.Popen([*CLI, "serve", "--port", "0", "--grace", "1"], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None
        parts = urlsplit(json.loads(proc.stdout.readline())["listening"])
        body = json.dumps({"query": "max_x", "state": _max_x_board(), "cost": "{X}{G}"}).encode()
        results: list[Any] = []
        conns = [http.client.HTTPConnection(str(parts.hostname), parts.port, timeout=120) for _ in range(6)]
        for conn in conns:
            conn.request("POST", "/v1/query", body, {"Content-Type": "application/json"})

        def read(conn: http.client.HTTPConnection) -> None:
            try:
                response = conn.getresponse()
                results.append((response.status, json.loads(response.read())))
            except Exception as err:  # noqa: BLE001 - a dropped request is what is counted
                results.append(err)

        threads = [threading.Thread(target=read, args=(conn,)) for conn in conns]
        for thread in threads:
            thread.start()
        time.sleep(0.5)
        proc.send_signal(signal.SIGTERM)
        for thread in threads:
            thread.join(timeout=120)
        proc.wait(timeout=120)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 0
    assert len(results) == 6 and all(isinstance(r, tuple) and r[0] == 200 for r in results), results
    for _, got in results:
        assert "max_x" in got or "time bound" in got["error"]["message"], got
    assert proc.stderr is not None and "Traceback" not in proc.stderr.read()
