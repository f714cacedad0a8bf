"""``manasolver serve``: the JSON protocol over HTTP, for clients in any language.

Routes: ``POST /v1/query`` (and ``POST /``) one query object, its answer object;
``POST /v1/batch`` JSON lines or a JSON array in, JSON lines out in order (streamed), every
item answered; ``GET /healthz`` ``{"status": "ok", "version": …}``; ``GET /openapi.json`` the service's
OpenAPI document (:mod:`~manasolver.solver.service.schema.openapi`); ``GET /`` the playground
page, its files under ``/static/``, card names for it from ``GET /v1/cards?q=…&limit=…&zone=…``
and the bundled boards from ``GET /v1/examples``
(:mod:`~manasolver.solver.service.playground`).  Errors of input are
answers with status 200, exactly as :func:`manasolver.solver.service.protocol.answer` gives them; a
request that never reached the engine gets the protocol's error object with the status that
says why: 400 (not UTF-8 or not JSON, malformed HTTP), 403 (a foreign ``Host`` or ``Origin``),
404, 405, 408 (too slow), 411, 413, 415 (a body that is not declared JSON), 503 (the server
is full or stopping).

Safe beside a browser: a page elsewhere can make the browser send ``text/plain`` POSTs to
127.0.0.1 without asking, or reach it through a name it rebinds to 127.0.0.1; both are refused
(415, and 403 for a ``Host`` that is not the listening host or a loopback name, or an ``Origin``
that is neither this server nor the one ``--allow-origin`` names; OPTIONS and CORS headers
exist only with ``--allow-origin``).  A request never names a file: ``cards`` in a query is
refused and the card file is the one chosen at start (``--cards``).  Sessions (``open``,
``update``, ``close``) are queries like any other, so a session store kept by the protocol in
this process is shared by every connection.

The routes are plain functions of a request (:class:`QueryApp`: :meth:`~QueryApp.check` on the
head, :meth:`~QueryApp.handle` with the body); :mod:`~manasolver.solver.service.asgi` serves them as an
ASGI application on uvicorn, which does the HTTP (uvicorn itself is imported only when serving).
"""

from __future__ import annotations

import ipaddress
import json
import os
import sys
import time
from collections.abc import Callable, Iterator
from typing import Any, cast
from urllib.parse import urlsplit

from manasolver.models.errors import BadQuery, ManasolverError
from manasolver.solver.service.asgi import Request, Response
from manasolver.solver.service.protocol import JSON_DECODER as _DECODER
from manasolver.solver.service.protocol import (
    MAX_LINE,
    TOO_DEEP,
    answer,
    answer_text,
    kept_answer_text,
    not_json,
    too_deep,
)

__all__ = ["MAX_BODY", "QueryApp", "Request", "Response", "serve", "version"]

#: The largest request body accepted (bytes), as long as ``batch``'s longest line; real boards are far below it.
MAX_BODY = MAX_LINE
_LOOPBACK = frozenset({"localhost", "127.0.0.1", "::1"})
_WILDCARD = frozenset({"", "0.0.0.0", "::"})
_QUERY_TYPES = frozenset({"application/json"})
_BATCH_TYPES = frozenset({"application/json", "application/x-ndjson", "application/jsonl"})
_QUICK_BODY = 2048  # bytes of a query body that :meth:`QueryApp.quick` may read where requests are read
_CHUNK = 64 * 1024  # bytes of batch answers sent at once
_CHUNK_SECONDS = 0.02  # or the answers of this much work, whichever comes first
#: the decoder's C scanner: one JSON value from a position, with the decoder's number and constant hooks
_SCAN: Callable[[str, int], tuple[Any, int]] = cast(Any, _DECODER).scan_once


def version() -> str:
    """The installed package's version."""
    from importlib.metadata import PackageNotFoundError
    from importlib.metadata import version as _version
    try:
        return _version("manasolver")
    except PackageNotFoundError:
        return "0+unknown"


def _error(message: str, where: str = "") -> dict[str, Any]:
    return {"error": {"code": "bad_query", "message": message, "where": where}}


def _json(status: int, body: dict[str, Any], headers: list[tuple[str, str]] | None = None) -> Response:
    return Response(status, json.dumps(body).encode("utf-8"), headers=headers or [])


class QueryApp:
    """The HTTP service's routes over :func:`~manasolver.solver.service.protocol.answer`."""

    def __init__(self, host: str, port: int, cards: str | None = None, allow_origin: str | None = None) -> None:
        self.host = host.lower().strip("[]")
        self.port = port
        self.cards = cards
        self.allow_origin = allow_origin
        self.version = version()
        self._openapi_body: bytes | None = None
        self._hosts: dict[str, bool] = {}
        self.routes: dict[str, dict[str, Callable[[Request], Response]]] = {
            "/v1/query": {"POST": self._query},
            "/": {"POST": self._query, "GET": self._page},
            "/v1/cards": {"GET": self._cards},
            "/v1/examples": {"GET": self._examples},
            "/v1/batch": {"POST": self._batch},
            "/healthz": {"GET": self._health},
            "/openapi.json": {"GET": self._openapi},
        }
        #: every path under /static/: the playground's files (the page itself is GET /)
        self._files: dict[str, Callable[[Request], Response]] = {"GET": self._static}

    # -- before the body is read: refusals and answers that need no engine -------------------

    def check(self, request: Request) -> Response | None:
        headers = request.headers
        host = headers.get("host")
        if host is not None and not self._host_ok(host):
            return _json(403, _error(f"the Host {host[:100]!r} is not this server's: connect to "
                                     f"{self.host} or a loopback name", "Host"))
        origin = headers.get("origin")
        if origin is not None and not self._allowed_origin(origin):
            return _json(403, _error(f"requests from the Origin {origin[:100]!r} are refused (start the "
                                     "server with --allow-origin to allow one)", "Origin"))
        path = request.target.partition("?")[0]
        methods = self.routes.get(path, self._files if path.startswith("/static/") else None)
        if methods is None:
            return _json(404, _error(f"no such path {path[:100]!r}: POST queries to /v1/query or "
                                     "/v1/batch", "path"))
        method = request.method
        if method == "POST" and "POST" in methods:
            given = headers.get("content-type", "")
            kinds = _BATCH_TYPES if path == "/v1/batch" else _QUERY_TYPES
            if given not in kinds:  # a parameter (charset=utf-8) or other case: read it whole
                given = given.split(";", 1)[0].strip().lower()
                if given not in kinds:
                    return _json(415, _error(f"the body must be sent as {' or '.join(sorted(kinds))}, not "
                                             f"{given[:100] or 'without a Content-Type'}", "Content-Type"))
            return None
        if method == "OPTIONS" and self.allow_origin is not None:
            return Response(204, b"", headers=[
                *self._cors(request), ("Access-Control-Allow-Methods", ", ".join([*methods, "OPTIONS"])),
                ("Access-Control-Allow-Headers", "Content-Type"), ("Access-Control-Max-Age", "600")])
        if method not in methods and not (method == "HEAD" and "GET" in methods):
            return _json(405, _error(f"{method[:20]} is not allowed on {path}; use "
                                     f"{' or '.join(methods)}", "method"), [("Allow", ", ".join(methods))])
        if method in ("GET", "HEAD"):
            return self._with_cors(request, methods["GET"](request))
        return None

    def _host_ok(self, host: str) -> bool:
        """Is ``host`` (a Host header) this server's?  Kept for the few a server sees."""
        known = self._hosts.get(host)
        if known is None:
            known = self._our_host(_hostname(host))
            if len(self._hosts) >= 64:
                self._hosts.clear()
            self._hosts[host] = known
        return known

    def _our_host(self, name: str) -> bool:
        if name in _LOOPBACK or name == self.host:
            return True
        if self.host in _WILDCARD:  # listening everywhere: any address, but never a name
            try:
                ipaddress.ip_address(name)
            except ValueError:
                return False
            return True
        return False

    def _allowed_origin(self, origin: str) -> bool:
        if self.allow_origin is not None and self.allow_origin in ("*", origin):
            return True
        try:
            parts = urlsplit(origin)
            port = parts.port
        except ValueError:
            return False
        return (parts.scheme == "http" and port == self.port and parts.hostname is not None
                and self._our_host(parts.hostname))

    def _cors(self, request: Request) -> list[tuple[str, str]]:
        origin = request.headers.get("origin")
        if self.allow_origin is None or origin is None or self.allow_origin not in ("*", origin):
            return []
        return [("Access-Control-Allow-Origin", origin), ("Vary", "Origin")]

    def _with_cors(self, request: Request, response: Response) -> Response:
        response.headers.extend(self._cors(request))
        return response

    def refuse(self, status: int, message: str) -> Response:
        where = {411: "Content-Length", 413: "body", 408: "body"}.get(status, "")
        return _json(status, _error(message, where))

    # -- within the engine's bound --------------------------------------------------------------

    def handle(self, request: Request) -> Response:
        response = self.routes[request.target.partition("?")[0]][request.method](request)
        return response if self.allow_origin is None else self._with_cors(request, response)

    def _health(self, request: Request) -> Response:
        return _json(200, {"status": "ok", "version": self.version})

    def _openapi(self, request: Request) -> Response:
        """The service described from the protocol's typed definitions, built once."""
        if self._openapi_body is None:
            from manasolver.solver.service.schema.openapi import openapi_bytes
            self._openapi_body = openapi_bytes(self.version, tuple(self.routes))
        return Response(200, self._openapi_body, "application/json")

    # -- the playground page: its files, card names, the example boards -------------

    def _page(self, request: Request) -> Response:
        return self._static_named("index.html")

    def _static(self, request: Request) -> Response:
        return self._static_named(request.target.split("?", 1)[0][len("/static/"):])

    def _static_named(self, name: str) -> Response:
        from manasolver.solver.service.playground import PAGE_POLICY, static_file
        found = static_file(name)
        if found is None:
            return _json(404, _error(f"no such file {name[:100]!r} in the playground's files", "path"))
        data, kind = found
        headers = [("Cache-Control", "no-cache"), ("X-Content-Type-Options", "nosniff")]
        if kind.startswith("text/html"):
            headers += [("Content-Security-Policy", PAGE_POLICY), ("Referrer-Policy", "no-referrer")]
        return Response(200, data, kind, headers)

    def _cards(self, request: Request) -> Response:
        from urllib.parse import parse_qs

        from manasolver.models.carddb import default_db
        from manasolver.solver.service.playground.search import DEFAULT_LIMIT, search
        query = request.target.partition("?")[2]
        try:
            fields = parse_qs(query, errors="strict", max_num_fields=8)
        except UnicodeDecodeError as err:
            return _json(400, _error(f"the search is not UTF-8: {err}", "q"))
        except ValueError as err:
            return _json(400, _error(f"bad query string: {err}", "q"))
        limit_text = fields.get("limit", [str(DEFAULT_LIMIT)])[-1]
        if not limit_text.isascii() or not limit_text.strip().isdigit() or len(limit_text) > 9:
            return _json(400, _error(f"limit must be a whole number, not {limit_text[:20]!r}", "limit"))
        try:
            zone = fields.get("zone", [""])[-1] or None
            return _json(200, search(default_db(self.cards), fields.get("q", [""])[-1], int(limit_text), zone))
        except ManasolverError as err:
            return _json(400, err.to_json())

    def _examples(self, request: Request) -> Response:
        from manasolver.solver.service.demo import QUESTIONS
        from manasolver.solver.service.playground import examples
        return _json(200, {"examples": examples(QUESTIONS)})

    def _query(self, request: Request) -> Response:
        try:
            text = request.body.decode("utf-8")
        except UnicodeDecodeError as err:
            return _json(400, _error(f"the body is not UTF-8: {err}", "body"))
        try:
            obj, end = _SCAN(text, 0)  # a body of one JSON value, read by the C scanner
            if end != len(text) and text[end:].strip(" \t\n\r"):
                raise ValueError
        except (StopIteration, ValueError, RecursionError):
            try:  # blanks before the value, or an error: read again for the decoder's own message
                obj = _DECODER.decode(text)
            except (ValueError, RecursionError) as err:
                if not text.strip():
                    return _json(400, _error("the body is empty: POST one JSON query object", "body"))
                return _json(400, _error(not_json(err), "body"))
        if type(obj) is not dict:
            return _json(400, _error("a query must be a JSON object", "body"))
        if too_deep(text):
            return _json(400, _error(TOO_DEEP, "body"))
        del text
        return Response(200, self.answer(obj).encode("utf-8"))

    def quick(self, request: Request) -> Response | None:
        """The answer of a small query on a session board whose answer the board keeps already
        (a client asking again after a change it did not make), without the engine; ``None`` for
        any other request.  Cheap enough to run where requests are read."""
        body = request.body
        if len(body) > _QUICK_BODY or self.cards is not None or request.target not in ("/v1/query", "/"):
            return None
        try:
            obj, end = _SCAN(body.decode("utf-8"), 0)
        except (StopIteration, ValueError, RecursionError):
            return None
        if end != len(body) or type(obj) is not dict or "cards" in obj:
            return None
        text = kept_answer_text(obj)
        if text is None:
            return None
        response = Response(200, text.encode("utf-8"))
        return response if self.allow_origin is None else self._with_cors(request, response)

    def answer(self, obj: Any, where: str = "") -> str:
        """One query's answer as JSON text: the protocol's (:func:`~manasolver.solver.service.protocol.answer_text`,
        an answer kept for a kept board written from its kept text), after the refusals of a query
        sent over HTTP."""
        if type(obj) is not dict:
            return json.dumps(_error("a query must be a JSON object", where))
        if "cards" in obj:
            refused = BadQuery("a query over HTTP can't name a card file: the server's card file is "
                               "chosen when it starts (manasolver serve --cards FILE)", "cards").to_json()
            return json.dumps({"id": obj["id"], **refused} if obj.get("id") is not None else refused)
        if self.cards is not None:
            obj = {**obj, "cards": self.cards}
        return answer_text(obj)

    def _batch(self, request: Request) -> Response:
        body = request.body
        if body.lstrip()[:1] == b"[":
            try:
                text = body.decode("utf-8")
            except UnicodeDecodeError as err:
                return _json(400, _error(f"the body is not UTF-8: {err}", "body"))
            return Response(200, _chunks(self._array_answers(text)), "application/x-ndjson")
        return Response(200, _chunks(self._line_answers(body)), "application/x-ndjson")

    def _line_answers(self, body: bytes) -> Iterator[str]:
        lines = body.split(b"\n")
        if lines and not lines[-1].strip():
            lines.pop()  # the newline that ends the last line starts no new one
        for number, raw in enumerate(lines, 1):
            where = f"line {number}"
            try:
                line = raw.decode("utf-8")
            except UnicodeDecodeError as err:
                yield json.dumps(_error(f"not UTF-8: {err}", where))
                continue
            if not line.strip():
                yield json.dumps(_error("empty line: one JSON query per line", where))
                continue
            try:
                obj = _DECODER.decode(line)
            except (ValueError, RecursionError) as err:
                yield json.dumps(_error(not_json(err), where))
                continue
            if too_deep(line):
                yield json.dumps(_error(TOO_DEEP, where))
                continue
            yield self.answer(obj, where)

    def _array_answers(self, text: str) -> Iterator[str]:
        """Answers of a JSON array's items, decoded one at a time (memory: one item, not the array)."""
        at = _skip(text, text.index("[") + 1)
        index = 0
        if text.startswith("]", at):
            at = len(text) if not text[at + 1:].strip() else at
        while at < len(text):
            where = f"[{index}]"
            start = at
            try:
                obj, at = _DECODER.raw_decode(text, at)
            except (ValueError, RecursionError) as err:
                yield json.dumps(_error(f"{not_json(err)} (at character {at} of the array)", where))
                return
            if too_deep(text[start:at]):
                yield json.dumps(_error(TOO_DEEP, where))
            else:
                yield self.answer(obj, where)
            index += 1
            at = _skip(text, at)
            if text.startswith(",", at):
                at = _skip(text, at + 1)
            elif text.startswith("]", at) and not text[at + 1:].strip():
                return
            else:
                yield json.dumps(_error(f"expected ',' or ']' at character {at} of the array", f"[{index}]"))
                return


def _skip(text: str, at: int) -> int:
    while at < len(text) and text[at] in " \t\r\n":
        at += 1
    return at


def _chunks(answers: Iterator[str]) -> Iterator[bytes]:
    """JSON lines, gathered into chunks of about ``_CHUNK`` bytes or ``_CHUNK_SECONDS`` of work:
    the engine is free for other requests between two chunks, so a long batch doesn't hold it."""
    part: list[str] = []
    size = 0
    since = time.monotonic()
    for result in answers:
        line = result + "\n"
        part.append(line)
        size += len(line)
        if size >= _CHUNK or time.monotonic() - since >= _CHUNK_SECONDS:
            yield "".join(part).encode("utf-8")
            part, size, since = [], 0, time.monotonic()
    if part:
        yield "".join(part).encode("utf-8")


def _hostname(host: str) -> str:
    """``Host`` without its port: ``[::1]:8765`` -> ``::1``."""
    host = host.strip().lower()
    if host.startswith("["):
        return host[1:].split("]", 1)[0]
    return host.rsplit(":", 1)[0] if host.count(":") == 1 else host


def _usage(message: str) -> int:
    print(f"manasolver: error: {message}", file=sys.stderr, flush=True)
    return 2


def serve(host: str = "127.0.0.1", port: int = 8765, cards: str | None = None,
          allow_origin: str | None = None, timeout: float = 30.0, grace: float = 10.0) -> int:
    """Serve until interrupted or terminated; prints one JSON line ``{"listening": URL, "version"}``
    when it listens.  Exit status 2 for a usage error (a bad port, an address in use, a card
    file that can't be read), 0 when stopped: SIGTERM or SIGINT stop accepting, the requests in
    flight are answered within ``grace`` seconds (past it the engine's running queries are cut
    short and answered as the time bound says), and then the process exits."""
    if not 0 <= port <= 65535:
        return _usage(f"--port {port}: a port is a number from 0 (any free port) to 65535")
    if not timeout > 0:
        return _usage(f"--timeout {timeout:g}: give a number of seconds above 0")
    if not grace >= 0:
        return _usage(f"--grace {grace:g}: give a number of seconds, 0 or more")
    if cards is not None:
        cards = os.path.abspath(cards)
        from manasolver.models.carddb import default_db
        from manasolver.solver.service.decode import card_file
        try:
            card_file(cards, "--cards")
            default_db(cards)
        except (ManasolverError, OSError) as err:
            return _usage(f"--cards {cards}: {err}")
    answer({"query": "mana_value", "cost": "{1}"})  # the protocol's modules, loaded before the first client
    from manasolver.solver.service.asgi import Limits, bind, run
    try:
        sock = bind(host, port)
    except OSError as err:  # socket.gaierror for a host that doesn't resolve is one too
        return _usage(f"cannot listen on {host}:{port}: {err.strerror or err}")
    bound_host, bound_port = sock.getsockname()[:2]
    app = QueryApp(host, bound_port, cards, allow_origin)
    shown = f"[{bound_host}]" if ":" in bound_host else bound_host
    print(json.dumps({"listening": f"http://{shown}:{bound_port}/", "version": app.version}), flush=True)
    run(app, sock, Limits(max_body=MAX_BODY, request_timeout=timeout, idle_timeout=timeout, grace=grace))
    return 0


if __name__ == "__main__":
    sys.exit(serve())
