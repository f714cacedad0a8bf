"""``serve``'s routes (:class:`~manasolver.solver.service.serve.QueryApp`) as an ASGI application, served
by uvicorn with the httptools parser: request framing, keep-alive, pipelining, ``100 Continue``
and malformed requests are the maintained server's; this module adds what a query service on a
shared machine needs beside them.

Why uvicorn: measured with ``python -m manasolver.benchmarks.http`` (a session ``can_pay`` over
kept-alive connections, the results in ``benchmarks/results/http.md``) against waitress and
granian, it served as many requests a second as any of them from one client and from four, runs
in this process (sessions are this process's), listens on a socket bound here (``--port 0``
reported before the first request) and stops gracefully on SIGTERM; idle connections cost it a
few kilobytes each, not a thread.

The engine's work runs on :attr:`Limits.workers` threads (first come, first served: a request
waiting for the engine gets it before a long batch's next chunk), never on the event loop, so
``/healthz``, refusals and the reading of other requests go on while a query computes; only a
small query on a session board whose answer the board keeps already is answered on the loop
(:meth:`~manasolver.solver.service.serve.QueryApp.quick`: a lookup, no computing), which saves the hand-over
to a thread and back, most of such a request's time.

What a client can claim is bounded (:class:`Limits`):

- time: a request's head must be in within ``idle_timeout`` of connecting or of the previous
  answer (a connection that sent part of one is answered 408, an idle one closed quietly), its
  body within ``request_timeout`` of its head (408); the time counts from the start, not from the
  last byte, so a trickle of bytes does not extend it; a client that stops reading its answer
  for ``request_timeout`` is disconnected;
- memory: a body of at most ``max_body`` bytes (413), and the bodies being received, over all
  connections, at most ``bodies_in_flight`` bytes together (503 to the one that would pass it);
- connections: at most ``max_connections``; one more closes the longest-waiting connection that
  has no request in progress (idle or still sending its head), or, when every one is working, is
  answered 503 and closed;
- the engine: a query is answered within ``query_limit`` seconds whatever its stages do (past it
  its deadline is stopped, and the time bound's error answers if it still has not finished).
"""

from __future__ import annotations

import asyncio
import json
import resource
import signal
import socket
import sys
from collections.abc import Awaitable, Callable, Iterator, MutableMapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from manasolver.solver import budget

if TYPE_CHECKING:
    from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

__all__ = ["Application", "Limits", "Request", "Response", "Routes", "bind", "run"]

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]


@dataclass(slots=True)
class Request:
    """A request as the routes see it: header names in lower case, repeated headers joined with ``, ``."""

    method: str
    target: str
    headers: dict[str, str]
    body: bytes = b""


@dataclass(slots=True)
class Response:
    """A response; a ``body`` that is an iterator is streamed, each chunk made by the engine's threads."""

    status: int
    body: bytes | Iterator[bytes]
    content_type: str = "application/json"
    headers: list[tuple[str, str]] = field(default_factory=list)


class Routes(Protocol):
    """What the server asks of the application (:class:`~manasolver.solver.service.serve.QueryApp`)."""

    allow_origin: str | None

    def check(self, request: Request) -> Response | None:
        """Before the body is read, on the event loop: a response to send now (a refusal, or an
        answer that needs no engine), or ``None`` to read the body and :meth:`handle` it."""

    def quick(self, request: Request) -> Response | None:
        """With the body, on the event loop: an answer that needs no computing, or ``None``."""

    def handle(self, request: Request) -> Response:
        """With the body, on the engine's threads; a streamed body's chunks are made there too."""

    def refuse(self, status: int, message: str) -> Response:
        """The error response for a request the server refuses (400, 408, 411, 413, 503…)."""


@dataclass(frozen=True)
class Limits:
    """What one client can claim of the server, and how it stops."""

    max_body: int = 16 * 1024 * 1024  #: bytes of a request body
    request_timeout: float = 30.0  #: seconds to send a request's body once its head is in
    idle_timeout: float = 30.0  #: seconds to send a whole head, from connecting or the last answer
    keep_alive: float = 5.0  #: seconds a kept-alive connection may sit idle with nothing sent
    max_connections: int = 4096  #: open connections (each a few KB); see the module's docstring
    bodies_in_flight: int = 256 * 1024 * 1024  #: bytes of request bodies held at once, all connections
    #: queries the engine answers at once (its caches are safe to share between threads): more than
    #: one, so that queries running to their time bound do not hold up the others (with four long
    #: ``options`` in flight, a light query waited 3 s for one of four threads, and is answered in
    #: tens of milliseconds beside them with eight, the threads taking turns)
    workers: int = 8
    #: seconds a stopping server gives the requests in flight before it cuts their queries short
    grace: float = 10.0
    #: seconds one query may take, whatever its stages do: its budget and the margin for writing it
    query_limit: float = budget.QUERY_BUDGET + budget.MARGIN
    backlog: int = 2048  #: connections the kernel queues before they are accepted


def _error_body(message: str, where: str) -> bytes:
    return json.dumps({"error": {"code": "bad_query", "message": message, "where": where}}).encode("utf-8")


def _raw_response(status: int, phrase: str, message: str, where: str) -> bytes:
    """A whole response that closes the connection, written by the protocol itself (outside the
    application: a malformed request, a head too slow, no room)."""
    body = _error_body(message, where)
    return (b"HTTP/1.1 %d %s\r\ncontent-type: application/json\r\ncontent-length: %d\r\n"
            b"connection: close\r\n\r\n%s" % (status, phrase.encode("latin-1"), len(body), body))


class Application:
    """The ASGI application: a request's head checked by :meth:`Routes.check` on the event loop,
    its body read within the limits, and :meth:`Routes.handle` run on the engine's threads."""

    def __init__(self, app: Routes, limits: Limits = Limits()) -> None:
        self.app = app
        self.limits = limits
        self.engine = ThreadPoolExecutor(limits.workers, thread_name_prefix="manasolver-engine")
        self.held = 0  # bytes of bodies being received now, over all connections

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            return
        headers: dict[str, str] = {}
        for raw_name, raw_value in scope["headers"]:
            name, value = raw_name.decode("latin-1"), raw_value.decode("latin-1")
            headers[name] = f"{headers[name]}, {value}" if name in headers else value
        method = scope["method"]
        query_string = scope["query_string"]
        target = scope.get("raw_path") or scope["path"].encode("utf-8")
        target = target.decode("latin-1") + ("?" + query_string.decode("latin-1") if query_string else "")
        request = Request(method, target, headers)
        app = self.app
        close = False
        version = scope["http_version"]
        if version not in ("1.1", "1.0"):
            response: Response | None = app.refuse(400, f"malformed HTTP request: the version HTTP/{version[:8]} "
                                                        "is not HTTP/1.1 or HTTP/1.0")
            close = True
        elif "host" not in headers and version == "1.1":
            response = app.refuse(400, "malformed HTTP request: an HTTP/1.1 request must send a Host header")
            close = True
        else:
            response = app.check(request)
        if response is None:  # a POST to a route that takes one: read its body
            response = self._length_refusal(headers)
            if response is None:
                body = await self._body(receive)
                if body is None:
                    return  # the client went away
                if isinstance(body, Response):
                    response, close = body, True
                else:
                    request.body = body
                    del body
                    try:
                        response = app.quick(request)
                        if response is None:
                            response = await self._handle(request)
                    finally:
                        request.body = b""
            else:
                close = True  # a body refused unread: the connection can't be read further
        await self._send(send, request, response, close)

    async def _handle(self, request: Request) -> Response:
        """:meth:`Routes.handle` on the engine's threads.  A single query is held to
        :attr:`Limits.query_limit`: past it its deadline is stopped (its stages end and answer as
        the time bound says), and if no answer comes a second later, the time bound's error is
        the answer (the thread finishes on its own)."""
        loop = asyncio.get_running_loop()
        if request.target.partition("?")[0] == "/v1/batch":  # each line has its own budget
            return await loop.run_in_executor(self.engine, self.app.handle, request)
        held: list[budget.Deadline] = []
        future = loop.run_in_executor(self.engine, _one_query, self.app, request, held)
        try:
            return await asyncio.wait_for(asyncio.shield(future), self.limits.query_limit)
        except asyncio.TimeoutError:
            pass
        for deadline in held:
            deadline.stop()
        try:
            return await asyncio.wait_for(asyncio.shield(future), 1.0)
        except asyncio.TimeoutError:
            late = budget.OutOfTime("the request", self.limits.query_limit).to_json()
            return Response(200, json.dumps(late).encode("utf-8"))

    def _length_refusal(self, headers: dict[str, str]) -> Response | None:
        """411 for a body of unknown length, 413 for one declared too large."""
        length = headers.get("content-length")
        if length is None:
            if "transfer-encoding" in headers:
                return None
            return self.app.refuse(411, "a Content-Length header is required")
        try:
            declared = int(length)
        except ValueError:
            return self.app.refuse(400, f"Content-Length {length[:40]!r} is not one whole number of bytes")
        if declared > self.limits.max_body:
            return self.app.refuse(413, f"the body has {declared} bytes; at most {self.limits.max_body} "
                                        "are accepted")
        return None

    async def _body(self, receive: Receive) -> bytes | Response | None:
        """The request's body, a refusal (too large, too slow, no room), or ``None`` when the
        client hung up."""
        limits = self.limits
        parts: list[bytes] = []
        size = 0
        loop = asyncio.get_running_loop()
        deadline = loop.time() + limits.request_timeout
        # uvicorn's receive is its request cycle's method: when the cycle holds the whole body
        # already (a small request, the usual case), it is read without arming a timer
        cycle = getattr(receive, "__self__", None)
        message: Message | None
        try:
            while True:
                if not parts and getattr(cycle, "more_body", True) is False:
                    message = await receive()
                else:
                    message = await _within(receive(), deadline, loop)
                if message is None:
                    return self.app.refuse(408, "the request's body was not complete in time")
                if message["type"] == "http.disconnect":
                    return None
                chunk = message.get("body", b"")
                if chunk:
                    size += len(chunk)
                    if size > limits.max_body:
                        return self.app.refuse(413, f"the body has more than {limits.max_body} bytes")
                    if self.held + len(chunk) > limits.bodies_in_flight:
                        return self.app.refuse(503, "the server is receiving too many large requests; "
                                                    "try again")
                    self.held += len(chunk)
                    parts.append(chunk)
                if not message.get("more_body", False):
                    break
        finally:
            self.held -= sum(len(part) for part in parts)
        return parts[0] if len(parts) == 1 else b"".join(parts)

    async def _send(self, send: Send, request: Request, response: Response, close: bool) -> None:
        headers = [(b"content-type", response.content_type.encode("latin-1"))]
        headers += [(name.encode("latin-1"), value.encode("latin-1")) for name, value in response.headers]
        if close:
            headers.append((b"connection", b"close"))
        head_only = request.method == "HEAD"
        body = response.body
        if isinstance(body, bytes):
            headers.append((b"content-length", b"%d" % len(body)))
            await send({"type": "http.response.start", "status": response.status, "headers": headers})
            await send({"type": "http.response.body", "body": b"" if head_only else body})
            return
        await send({"type": "http.response.start", "status": response.status, "headers": headers})
        loop = asyncio.get_running_loop()
        try:
            while not head_only:
                chunk = await loop.run_in_executor(self.engine, next, body, None)
                if chunk is None:
                    break
                if chunk:
                    await send({"type": "http.response.body", "body": chunk, "more_body": True})
        finally:
            closer = getattr(body, "close", None)
            if closer is not None:
                await loop.run_in_executor(self.engine, closer)
        await send({"type": "http.response.body", "body": b""})


def _one_query(app: Routes, request: Request, held: list[budget.Deadline]) -> Response:
    """``app.handle(request)`` inside a query budget of its own, kept in ``held`` so that the
    server can stop it."""
    with budget.query_budget() as deadline:
        held.append(deadline)
        return app.handle(request)


async def _within(waiting: Awaitable[Message], deadline: float, loop: asyncio.AbstractEventLoop) -> Message | None:
    """``waiting``'s result, or ``None`` when ``deadline`` (the loop's time) passes first."""
    if deadline <= loop.time():
        return None
    if _TIMEOUT_AT is None:  # Python 3.10
        try:
            return await asyncio.wait_for(waiting, deadline - loop.time())
        except asyncio.TimeoutError:
            return None
    try:
        async with _TIMEOUT_AT(deadline):  # a timer on this task, not a task of its own as wait_for makes
            return await waiting
    except TimeoutError:
        return None


_TIMEOUT_AT: Callable[[float], Any] | None = getattr(asyncio, "timeout_at", None)


class _Coalescing:
    """A connection's transport whose writes of one turn of the event loop go out as one: uvicorn
    writes a response's head and its body separately, two system calls and two TCP segments for
    an answer of a few hundred bytes; joined, the client reads it in one."""

    __slots__ = ("_loop", "_parts", "_transport")

    def __init__(self, transport: asyncio.Transport, loop: asyncio.AbstractEventLoop) -> None:
        self._transport = transport
        self._loop = loop
        self._parts: list[bytes] = []

    def write(self, data: bytes) -> None:
        if not self._parts:
            self._loop.call_soon(self.flush)
        self._parts.append(data)

    def flush(self) -> None:
        parts = self._parts
        if parts:
            self._parts = []
            if not self._transport.is_closing():
                self._transport.write(parts[0] if len(parts) == 1 else b"".join(parts))

    def close(self) -> None:
        self.flush()
        self._transport.close()

    def abort(self) -> None:
        self._parts = []
        self._transport.abort()

    def __getattr__(self, name: str) -> Any:
        return getattr(self._transport, name)


def _protocol(limits: Limits) -> type[HttpToolsProtocol]:
    """uvicorn's httptools protocol with the head deadline, the connection bound and the
    protocol's own error object for a request it refuses."""
    from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

    class Protocol(HttpToolsProtocol):
        """One connection."""

        head_timer: asyncio.TimerHandle | None = None
        write_timer: asyncio.TimerHandle | None = None  # set while the client does not read its answer
        partial = False  # bytes of a head not yet complete have come
        since = 0.0  # when it started waiting for a head

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            super().connection_made(_Coalescing(transport, self.loop))  # type: ignore[arg-type]
            self._wait_for_head()
            if len(self.connections) > limits.max_connections:
                self._make_room()

        def _wait_for_head(self) -> None:
            self.partial = False
            self.since = self.loop.time()
            if self.head_timer is not None:
                self.head_timer.cancel()
            self.head_timer = self.loop.call_later(limits.idle_timeout, self._head_too_slow)

        def _head_too_slow(self) -> None:
            self.head_timer = None
            if self.transport.is_closing() or (self.cycle is not None and not self.cycle.response_complete):
                return
            if self.partial:
                self.transport.write(_raw_response(408, "Request Timeout", "the request's head was not "
                                                   "complete in time", "head"))
            self.transport.close()

        def _make_room(self) -> None:
            """Close the connection that has waited longest for a head (an idle one first), or
            refuse this one when every connection has a request in progress."""
            waiting = [c for c in self.connections
                       if c is not self and isinstance(c, Protocol) and c.head_timer is not None
                       and not c.transport.is_closing()]
            if waiting:
                oldest = min(waiting, key=lambda c: (c.partial, c.since))
                oldest.transport.close()
                return
            self.transport.write(_raw_response(503, "Service Unavailable", "the server has too many "
                                               "connections; try again", ""))
            self.transport.close()

        def data_received(self, data: bytes) -> None:
            if self.head_timer is not None:
                self.partial = True
            super().data_received(data)

        def on_headers_complete(self) -> None:
            if self.head_timer is not None:
                self.head_timer.cancel()
                self.head_timer = None
            super().on_headers_complete()

        def on_response_complete(self) -> None:
            super().on_response_complete()
            if not self.transport.is_closing() and (self.cycle is None or self.cycle.response_complete):
                self._wait_for_head()

        def pause_writing(self) -> None:
            """The client is not reading its answer: it has ``request_timeout`` seconds to start again."""
            super().pause_writing()
            if self.write_timer is None:
                self.write_timer = self.loop.call_later(limits.request_timeout, self.transport.abort)

        def resume_writing(self) -> None:
            if self.write_timer is not None:
                self.write_timer.cancel()
                self.write_timer = None
            super().resume_writing()

        def connection_lost(self, exc: Exception | None) -> None:
            for timer in (self.head_timer, self.write_timer):
                if timer is not None:
                    timer.cancel()
            self.head_timer = self.write_timer = None
            super().connection_lost(exc)

        def send_400_response(self, msg: str) -> None:
            self.transport.write(_raw_response(400, "Bad Request", f"malformed HTTP request: {msg}", ""))
            self.transport.close()

    return Protocol


def bind(host: str, port: int, backlog: int = Limits.backlog) -> socket.socket:
    """A listening socket on ``host``:``port`` (0: a free port); ``OSError`` when it can't be had."""
    family, kind, proto, _, address = socket.getaddrinfo(host or None, port, type=socket.SOCK_STREAM,
                                                         flags=socket.AI_PASSIVE)[0]
    sock = socket.socket(family, kind, proto)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(address)
        sock.listen(backlog)
    except OSError:
        sock.close()
        raise
    sock.set_inheritable(True)
    return sock


def _raise_file_limit(wanted: int) -> None:
    """Let the process open ``wanted`` files (connections), as far as the hard limit allows."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
    if soft != resource.RLIM_INFINITY and soft < target:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
        except (ValueError, OSError):
            pass


def run(app: Routes, sock: socket.socket, limits: Limits = Limits()) -> None:
    """Serve ``app`` on the listening ``sock`` until SIGTERM or SIGINT, then stop gracefully:
    no new connections, the requests in flight answered (past :attr:`Limits.grace` their queries
    are stopped, :func:`~manasolver.solver.budget.stop_all`, and answer as the time bound says),
    the engine's threads finished before this returns."""
    import uvicorn

    _raise_file_limit(limits.max_connections + 256)
    # the engine's threads take turns at the interpreter every millisecond, not five: a light query
    # beside long ones waits for fewer of their turns (and the event loop, which reads and writes
    # every request, too)
    sys.setswitchinterval(0.001)
    application = Application(app, limits)

    class Server(uvicorn.Server):
        async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
            cut = asyncio.get_running_loop().call_later(limits.grace, budget.stop_all, True)
            try:
                await super().shutdown(sockets)
            finally:
                cut.cancel()

    config = uvicorn.Config(
        application, http=_protocol(limits), loop="auto", lifespan="off", log_config=None, log_level="error",
        access_log=False, server_header=False, date_header=False, limit_concurrency=None, proxy_headers=False,
        backlog=limits.backlog, timeout_keep_alive=int(max(1, min(limits.keep_alive, limits.idle_timeout))),
        timeout_graceful_shutdown=int(limits.grace + 30))
    server = Server(config)
    # uvicorn raises a captured signal again once it has stopped, with the handler found before it
    # started: a quiet one for SIGTERM, so that the process exits 0
    previous = signal.signal(signal.SIGTERM, _quiet)
    try:
        server.run(sockets=[sock])
    except KeyboardInterrupt:
        pass
    finally:
        signal.signal(signal.SIGTERM, previous)
        budget.stop_all(and_new=True)
        application.engine.shutdown(wait=True, cancel_futures=True)
        sock.close()
        sys.stdout.flush()


def _quiet(signum: int, frame: object) -> None:
    """A signal that was already handled."""
