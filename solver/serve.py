"""``manasolver serve``: the JSON protocol over HTTP (SPEC §5), for clients in other languages.

``POST /`` with one query object as the body answers with the protocol's answer
object, exactly as :func:`manasolver.solver.protocol.answer` gives it (errors of
input are answers too, with HTTP status 200: the status says whether the
request reached the engine, the answer says what the engine made of it).
``GET /health`` answers ``{"ok": true}``.  A body that is not JSON, too large,
or sent to another path gets a protocol error object with status 400, 413 or
404.  The server listens on 127.0.0.1 by default: it is meant to sit beside a
game client, not on the open network.
"""

from __future__ import annotations

import json
import sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

__all__ = ["MAX_BODY", "make_server", "serve"]

#: The largest request body accepted (bytes); SPEC §4's limits keep real boards far below it.
MAX_BODY = 16 * 1024 * 1024


def _error(code: str, message: str, where: str = "") -> dict[str, Any]:
    return {"error": {"code": code, "message": message, "where": where}}


class _Handler(BaseHTTPRequestHandler):
    server_version = "manasolver"
    timeout = 30  # seconds a client may take to send its request: a short body can't hold a thread

    def log_message(self, format: str, *args: Any) -> None:
        """Quiet: a client asking thousands of questions should not fill the terminal."""

    def _send(self, status: int, body: dict[str, Any]) -> None:
        data = json.dumps(body).encode("utf-8")
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self) -> None:
        if self.path.rstrip("/") == "/health":
            self._send(200, {"ok": True})
        else:
            self._send(404, _error("bad_query", f"no such path {self.path[:100]!r}: POST a query to /"))

    def do_POST(self) -> None:
        if self.path not in ("/", "/query"):
            self._send(404, _error("bad_query", f"no such path {self.path[:100]!r}: POST a query to /"))
            return
        try:
            length = int(self.headers.get("Content-Length", ""))
        except ValueError:
            self._send(411, _error("bad_query", "a Content-Length header is required"))
            return
        if length < 0:
            self._send(400, _error("bad_query", f"Content-Length must not be negative ({length})"))
            return
        if length > MAX_BODY:
            self._send(413, _error("bad_query", f"the body has {length} bytes; at most {MAX_BODY} are accepted"))
            return
        raw = self.rfile.read(length)
        from manasolver.solver.protocol import answer_line
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as err:
            self._send(400, _error("bad_query", f"the body is not UTF-8: {err}"))
            return
        result = answer_line(text)
        error = result.get("error")
        unreadable = error is not None and not error.get("where") and str(error.get("message", "")).startswith(
            ("not valid JSON", "empty line", "a query must be"))
        self._send(400 if unreadable else 200, result)


def make_server(host: str = "127.0.0.1", port: int = 8765) -> ThreadingHTTPServer:
    """A server bound to ``host:port`` (port 0: any free port), not yet serving."""
    server = ThreadingHTTPServer((host, port), _Handler)
    server.daemon_threads = True
    return server


def serve(host: str = "127.0.0.1", port: int = 8765) -> int:
    """Serve until interrupted; prints the address it listens on as its first line."""
    server = make_server(host, port)
    bound_host, bound_port = str(server.server_address[0]), int(server.server_address[1])
    print(f"manasolver serving on http://{bound_host}:{bound_port}/", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
    return 0


if __name__ == "__main__":
    sys.exit(serve())
