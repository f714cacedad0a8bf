"""An HTTP/1.1 server for CPU-bound handlers: h11 for the wire protocol, a thread per
connection (bounded), the engine's work bounded by a semaphore.

It knows nothing of queries: :mod:`~manasolver.solver.serve` gives it an :class:`App` that
checks a request's head (refusals and quick answers) and handles the body.  Why this stack,
measured on the 2 shared cores of the development machine with ``python -m
manasolver.benchmarks.http --stack`` (a query the engine answers in microseconds, so the figure
is the server's own cost, one kept-alive connection per client): an asyncio server on h11 with
the engine in a thread pool gave 280-480 requests/s from 1 client, because every request
crossed between the event loop's thread and a worker's and waited for the GIL twice; this
design, where the connection's own thread parses and answers, gave 570-820 from 1 client and
1,330-1,870 from 4; the standard library's ``ThreadingHTTPServer`` with HTTP/1.1 gave 20/s as
it writes (headers and body in separate writes meet delayed ACKs) and 1,150-1,600 with its
writes buffered, but it parses leniently, has no total deadline for a request (its timeout is
per read, so a byte every few seconds holds a thread forever) and no bound on threads.  h11
(pure Python, no dependencies of its own) parses HTTP/1.1 strictly: keep-alive, pipelining,
chunked bodies, malformed requests.  The engine is CPU-bound Python under the GIL, so more
engine threads than :attr:`Limits.workers` would only add switching.

Every resource a client can claim is bounded (:class:`Limits`): connections (one over the limit
is answered 503 and closed, so a thread is never spent on it), the size of a request's head and
body, the time to send a request's head (``idle_timeout`` from the end of the previous answer)
and its body (``request_timeout`` from the end of the head), both totals, not per read, so a
client trickling a byte every few seconds is answered 408 and closed; bodies over
``large_body`` are read, handled and answered one at a time, and the engine decodes one body at
a time (a JSON body decodes to twenty and more times its size: a 12 MB board of empty objects
peaks at about 350 MB, and four sent at once at about the same); an answer a client doesn't read
times out too.  Clients that hang up are dropped silently.
"""

from __future__ import annotations

import collections
import http
import socket
import sys
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Protocol

import h11

__all__ = ["App", "Limits", "Request", "Response", "Server"]


@dataclass(frozen=True)
class Limits:
    """What one client can claim of the server."""

    max_body: int = 16 * 1024 * 1024  #: bytes of a request body
    large_body: int = 1024 * 1024  #: bodies above this are read, handled and answered one at a time
    max_head: int = 64 * 1024  #: bytes of a request line and headers
    max_connections: int = 256  #: open connections; one more is answered 503 and closed
    request_timeout: float = 30.0  #: seconds to send a request's body once its head is in
    idle_timeout: float = 30.0  #: seconds to send a whole head, from connecting or the last answer
    backlog: int = 1024  #: connections the kernel queues before they are accepted
    #: requests the engine answers at once; 1 while the engine's caches are not safe to share
    #: between threads (two queries on one board in two threads can race on them)
    workers: int = 1


@dataclass(frozen=True)
class Request:
    """A request: header names in lower case, repeated headers joined with ``, ``."""

    method: str
    target: str
    headers: dict[str, str]
    body: bytes = b""


@dataclass
class Response:
    """A response; a ``body`` that is an iterator is streamed (chunked), each chunk made in the pool."""

    status: int
    body: bytes | Iterator[bytes]
    content_type: str = "application/json"
    headers: list[tuple[str, str]] = field(default_factory=list)


class App(Protocol):
    """What the server asks of the application."""

    def check(self, request: Request) -> Response | None:
        """Before the body is read (``request.body`` is empty), outside the engine's bound: a
        response to send now (a refusal, or an answer that needs no engine), or ``None`` to read
        the body and :meth:`handle` it.  Must be quick."""

    def handle(self, request: Request) -> Response:
        """With the whole body, within the engine's bound (:attr:`Limits.workers`); a streamed
        body's chunks are made within it too, one at a time."""

    def refuse(self, status: int, message: str) -> Response:
        """The error response for a request the server itself refuses (400, 408, 411, 413, 503...)."""


class _Gate:
    """A semaphore that serves its waiters in order of arrival: a request waiting for the
    engine gets it before a long batch's next chunk does."""

    def __init__(self, size: int) -> None:
        self._lock = threading.Lock()
        self._free = size
        self._waiters: collections.deque[threading.Event] = collections.deque()

    def __enter__(self) -> None:
        with self._lock:
            if self._free and not self._waiters:
                self._free -= 1
                return
            turn = threading.Event()
            self._waiters.append(turn)
        turn.wait()

    def __exit__(self, *exc: object) -> None:
        with self._lock:
            if self._waiters:
                self._waiters.popleft().set()  # handed over: the place is never free to be taken
            else:
                self._free += 1


class _Timeout(Exception):
    """The client took longer than a limit allows."""


class Server:
    """Serves an :class:`App` on one listening socket: :meth:`start` binds, :meth:`run` accepts
    until :meth:`stop` (or an exception in the thread that runs it)."""

    def __init__(self, app: App, limits: Limits = Limits()) -> None:
        self.app = app
        self.limits = limits
        self._engine = _Gate(limits.workers)
        self._large = threading.Semaphore(1)
        self._slots = threading.BoundedSemaphore(limits.max_connections)
        self._sock: socket.socket | None = None
        self._stopping = threading.Event()

    def start(self, host: str, port: int) -> tuple[str, int]:
        """Bind and listen (``OSError`` when the address can't be had); the bound host and port."""
        family, kind, proto, _, address = socket.getaddrinfo(host or None, port, type=socket.SOCK_STREAM,
                                                             flags=socket.AI_PASSIVE)[0]
        sock = socket.socket(family, kind, proto)
        try:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            sock.bind(address)
            sock.listen(self.limits.backlog)
        except OSError:
            sock.close()
            raise
        self._sock = sock
        name = sock.getsockname()
        return str(name[0]), int(name[1])

    def run(self) -> None:
        """Accept connections, a thread each, until :meth:`stop`."""
        assert self._sock is not None, "start() first"
        listener = self._sock
        try:
            while not self._stopping.is_set():
                try:
                    sock, _ = listener.accept()
                except OSError:
                    if self._stopping.is_set():
                        return
                    continue  # a connection reset before it was accepted
                if not self._slots.acquire(blocking=False):
                    threading.Thread(target=self._overflow, args=(sock,), daemon=True).start()
                    continue
                threading.Thread(target=self._connection, args=(sock,), daemon=True,
                                 name="manasolver-connection").start()
        finally:
            listener.close()

    def stop(self) -> None:
        """Stop accepting (from any thread)."""
        self._stopping.set()
        if self._sock is not None:
            try:
                self._sock.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass

    # -- one connection ---------------------------------------------------------------------

    def _overflow(self, sock: socket.socket) -> None:
        sock.settimeout(5.0)
        self._send_raw(sock, self.app.refuse(503, "too many open connections; try again"))
        _close(sock)

    def _connection(self, sock: socket.socket) -> None:
        try:
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            self._requests(sock)
        except (ConnectionError, OSError):
            pass  # the client hung up
        except Exception as err:  # noqa: BLE001 - a bug costs one connection, never the server
            print(f"manasolver serve: internal error: {type(err).__name__}: {err}", file=sys.stderr, flush=True)
        finally:
            self._slots.release()
            _close(sock)

    def _requests(self, sock: socket.socket) -> None:
        conn = h11.Connection(h11.SERVER, max_incomplete_event_size=self.limits.max_head)
        while True:
            head: Request | None = None
            large = False  # holding the large-body turn, until the answer is sent
            try:
                try:
                    event = self._event(conn, sock, time.monotonic() + self.limits.idle_timeout)
                    if isinstance(event, h11.ConnectionClosed):
                        return
                    assert isinstance(event, h11.Request), event
                    head = _request(event)
                    deadline = time.monotonic() + self.limits.request_timeout
                    response = self.app.check(head)
                    if response is None:
                        response = self._length_refusal(head)
                    if response is None:
                        length = head.headers.get("content-length")
                        if length is None or int(length) > self.limits.large_body:
                            large = self._large.acquire(timeout=max(0.0, deadline - time.monotonic()))
                            if not large:
                                response = self.app.refuse(503, "the server is busy with another large "
                                                                "request; try again")
                    if response is None:
                        response = self._answer(conn, sock, head, deadline)
                    elif _bodyless(head):
                        # read the request's end (no bytes), so that the connection stays alive
                        self._event(conn, sock, deadline)
                except h11.RemoteProtocolError as err:
                    status = err.error_status_hint if err.error_status_hint in (400, 431) else 400
                    self._send_raw(sock, self.app.refuse(status, f"malformed HTTP request: {err}"))
                    return
                except _Timeout as err:
                    if head is None and conn.their_state is h11.IDLE and not conn.trailing_data[0]:
                        return  # an idle kept-alive connection: close it quietly
                    self._send_raw(sock, self.app.refuse(408, str(err)))
                    return
                sock.settimeout(self.limits.request_timeout)  # a client that doesn't read its answer
                self._send(conn, sock, response, head.method == "HEAD")
            finally:
                if large:
                    self._large.release()
            if conn.our_state is h11.DONE and conn.their_state is h11.DONE:
                conn.start_next_cycle()
            else:
                return  # the client asked to close, or the body was refused unread

    def _event(self, conn: h11.Connection, sock: socket.socket, deadline: float) -> h11.Event | type[h11.PAUSED]:
        """The next event, reading as needed until ``deadline`` (a ``time.monotonic()``)."""
        while True:
            event = conn.next_event()
            if event is h11.PAUSED or isinstance(event, h11.Event):
                return event
            left = deadline - time.monotonic()
            if left <= 0:
                raise _Timeout("the request was not complete in time")
            sock.settimeout(left)
            try:
                data = sock.recv(65536)
            except socket.timeout:
                raise _Timeout("the request was not complete in time") from None
            conn.receive_data(data)

    def _length_refusal(self, head: Request) -> Response | None:
        """411 for a body of unknown length, 413 for one declared too large."""
        length = head.headers.get("content-length")
        chunked = "chunked" in head.headers.get("transfer-encoding", "").lower()
        if length is None and not chunked:
            if head.method in ("POST", "PUT", "PATCH"):
                return self.app.refuse(411, "a Content-Length header is required")
            return None
        if length is not None and int(length) > self.limits.max_body:  # h11 checked it is a number
            return self.app.refuse(413, f"the body has {length} bytes; at most {self.limits.max_body} "
                                        "are accepted")
        return None

    def _answer(self, conn: h11.Connection, sock: socket.socket, head: Request, deadline: float) -> Response:
        if conn.they_are_waiting_for_100_continue:  # curl asks before sending a body over 1 KB
            sock.sendall(conn.send(h11.InformationalResponse(status_code=100, headers=[])) or b"")
        parts: list[bytes] = []
        size = 0
        while True:
            event = self._event(conn, sock, deadline)
            if isinstance(event, h11.Data):
                size += len(event.data)
                if size > self.limits.max_body:
                    return self.app.refuse(413, f"the body has more than {self.limits.max_body} bytes")
                parts.append(bytes(event.data))
            elif isinstance(event, h11.EndOfMessage):
                break
            elif isinstance(event, h11.ConnectionClosed):
                raise ConnectionResetError("the client closed the connection mid-request")
        request = Request(head.method, head.target, head.headers, b"".join(parts))
        del parts
        with self._engine:
            return self.app.handle(request)

    # -- writing ----------------------------------------------------------------------------

    def _send(self, conn: h11.Connection, sock: socket.socket, response: Response, head_only: bool) -> None:
        headers = [("Content-Type", response.content_type), *response.headers]
        if isinstance(response.body, bytes):
            headers.append(("Content-Length", str(len(response.body))))
        out = [conn.send(h11.Response(status_code=response.status, headers=headers,
                                      reason=_reason(response.status))) or b""]
        if isinstance(response.body, bytes):
            if not head_only:
                out.append(conn.send(h11.Data(data=response.body)) or b"")
            out.append(conn.send(h11.EndOfMessage()) or b"")
            sock.sendall(b"".join(out))  # one write: one segment for a small answer
            return
        sock.sendall(out[0])
        chunks = response.body
        try:
            while not head_only:
                with self._engine:
                    chunk = next(chunks, None)
                if chunk is None:
                    break
                sock.sendall(conn.send(h11.Data(data=chunk)) or b"")
        finally:
            close = getattr(chunks, "close", None)
            if close is not None:
                with self._engine:
                    close()
        sock.sendall(conn.send(h11.EndOfMessage()) or b"")

    def _send_raw(self, sock: socket.socket, response: Response) -> None:
        """A response outside h11's bookkeeping (the connection is closed after it)."""
        body = response.body if isinstance(response.body, bytes) else b"".join(response.body)
        lines = [f"HTTP/1.1 {response.status} {_reason(response.status).decode()}",
                 f"Content-Type: {response.content_type}", f"Content-Length: {len(body)}", "Connection: close",
                 *(f"{k}: {v}" for k, v in response.headers)]
        try:
            sock.sendall(("\r\n".join(lines) + "\r\n\r\n").encode("latin-1") + body)
        except (ConnectionError, OSError):
            pass


def _bodyless(head: Request) -> bool:
    """A request without a body: its end follows its head with no bytes to read."""
    chunked = "chunked" in head.headers.get("transfer-encoding", "").lower()
    return not chunked and head.headers.get("content-length", "0").strip() == "0"


def _request(event: h11.Request) -> Request:
    headers: dict[str, str] = {}
    for name, value in event.headers:
        key, text = name.decode("latin-1"), value.decode("latin-1")
        headers[key] = f"{headers[key]}, {text}" if key in headers else text
    return Request(event.method.decode("latin-1"), event.target.decode("latin-1"), headers)


def _reason(status: int) -> bytes:
    try:
        return http.HTTPStatus(status).phrase.encode("latin-1")
    except ValueError:
        return b""


def _close(sock: socket.socket) -> None:
    """Close after a graceful half-close, so an unread request doesn't turn the answer into a reset."""
    try:
        sock.shutdown(socket.SHUT_WR)
    except OSError:
        pass
    sock.close()
