"""An HTTP/1.1 server for CPU-bound handlers: a thread per connection (bounded) that reads,
parses and answers its own requests, the engine's work bounded by a first-come semaphore.

It knows nothing of queries: :mod:`~manasolver.solver.serve` gives it an :class:`App` that
checks a request's head (refusals and quick answers) and handles the body.

Why this design: a request's time is mostly the server's own Python, not the engine's (a
session ``can_pay`` answered from its kept answer is some 40,000 instructions in process), and
on two cores the client's process shares them, so every step of framing counts.  Measured with
``python -m manasolver.benchmarks.http`` and the server's instructions per request under
callgrind (session ``can_pay``, one kept-alive ``http.client`` connection): h11 (a strict
pure-Python parser, an object per event) took about three times the engine's share; the head
parsed here with ``bytes.find`` and ``str.split`` (and not parsed again when a kept-alive client
sends the same head), the application's check not asked again for a head it let through, the
answer written in one ``sendall``, reads of 64 KB (a 256 KB read buffer is an ``mmap`` and
``munmap`` per read, and the unmapping stops the other threads), come to about 87,000 user
instructions per request in all, within 7% of a minimal server that only splits the head and
answers (82,000).  An ``asyncio.Protocol`` server with the same parsing measured the same
requests per second (within the machine's noise) from 1 and 4 clients; the thread per
connection was kept: its own thread answers each request, so there is no hand-over between
threads on the way, and a query that runs to a solver's time bound (``can_pay`` on filter lands
can take most of a second) holds only its own connection: the other connections' threads take
their turns at the interpreter between its steps, and :attr:`Limits.workers` queries compute at
once.

A client that sends a request's head and body in two writes (``http.client`` does, even with
``TCP_NODELAY``) would wake the connection's thread twice a request: for the head alone (on two
cores, mostly the same core as the client, which it then preempts), and again for the body.
Measured with the benchmark's client, 1.7 to 1.97 reads and context switches a request when the
two processes shared a core, 1.0 when they ran on both (the thread then wakes on the other core
after the body is in).  So once a head is read with its body still on the way, the next reads,
after a request with a body, wait under a receive low-water mark (``SO_RCVLOWAT``) of the last
head's size and one byte: the kernel wakes the thread once the head and the start of the body
are in, one read and one switch a request.  Every :data:`_SPLIT_RUN` requests one is read without
the mark, to see whether the client still splits them.  The wait under the mark is short
(:attr:`Limits.split_wait`): a shorter request (a ``GET`` after ``POST`` s), a body sent late, or
an idle client are then read as they are, as without the mark, and after a shorter one the mark
is not set again for a while (16 requests, doubling with each).

The parser accepts what HTTP/1.1 clients send and refuses the rest with 400 and the
application's error object: a request line of a token method, a target of visible ASCII and
``HTTP/1.1`` or ``HTTP/1.0``; header names that are tokens, no line folding, no control
characters; ``Content-Length`` a number (repeated only with one value) or ``Transfer-Encoding:
chunked`` (never both); ``Host`` required on HTTP/1.1.  Keep-alive as HTTP/1.1 says (``Connection:
close`` ends it; HTTP/1.0 connections close after one answer), pipelined requests answered in
order, ``Expect: 100-continue`` answered before the body is read.

Every resource a client can claim is bounded (:class:`Limits`): connections (one over the limit
is answered 503 and closed, so a thread is never spent on it), the size of a request's head and
body, the time to send a request's head (``idle_timeout`` from connecting or the end of the
previous answer) and its body (``request_timeout`` from the end of the head), both totals, not per
read, so a client trickling a byte every few seconds is answered 408 and closed; bodies over
``large_body`` (or of unknown length) are read, handled and answered one at a time, and the
engine decodes at most :attr:`Limits.workers` bodies at once (a JSON body decodes to twenty and
more times its size); an answer a client doesn't read times out too.  Clients that hang up are
dropped silently.
"""

from __future__ import annotations

import collections
import http
import re
import socket
import struct
import sys
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Protocol

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
    #: requests the engine answers at once (its caches are safe to share between threads): more
    #: than one, so that a query running to its time bound does not hold up the others
    workers: int = 4
    #: seconds to wait for the body after a head when the client's last requests had one, before
    #: the bytes in are read as they are (:meth:`_Connection._recv_expected`); the kernel counts it
    #: in clock ticks, one or two of them (4 ms each at 250 Hz); a request shorter than the last
    #: ones waits this long, once in a while
    split_wait: float = 0.005


@dataclass(slots=True)
class Request:
    """A request: header names in lower case, repeated headers joined with ``, ``; ``headers`` is
    shared by the requests of one connection that sent the same head, and never changed."""

    method: str
    target: str
    headers: dict[str, str]
    body: bytes = b""


@dataclass(slots=True)
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
        the body and :meth:`handle` it.  Must be quick, and depend on the head alone: a
        connection that sends again a head let through is not checked again."""

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
        self._waiters: collections.deque[threading.Lock] = collections.deque()

    def __enter__(self) -> None:
        with self._lock:
            if self._free and not self._waiters:
                self._free -= 1
                return
            turn = threading.Lock()
            turn.acquire()
            self._waiters.append(turn)
        turn.acquire()  # released by the one that hands its place over

    def __exit__(self, *exc: object) -> None:
        with self._lock:
            if self._waiters:
                self._waiters.popleft().release()  # handed over: the place is never free to be taken
            else:
                self._free += 1


class _Timeout(Exception):
    """The client took longer than a limit allows."""


class _Malformed(Exception):
    """A request that is not HTTP/1.1 as this server reads it; ``status`` 400 or 431."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.status = status


class _Closed(Exception):
    """The client closed its side before the request was complete."""


_TOKEN = re.compile(r"[!#$%&'*+\-.^_`|~0-9A-Za-z]+")
_TARGET = re.compile(r"[\x21-\x7e]+")
#: control characters but tab, CR and LF (a head's lines are split on CR LF: a lone CR is counted)
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
_NOT_CONTROL = bytes([9, 10, 13, *range(0x20, 0x7f), *range(0x80, 0x100)])  # deleted, control bytes remain
_CHUNK_SIZE = re.compile(rb"([0-9A-Fa-f]{1,16})[ \t]*(?:;[^\r\n]*)?")
_REQUEST_LINE = re.compile(r"([!#$%&'*+\-.^_`|~0-9A-Za-z]+) ([\x21-\x7e]+) (HTTP/1\.[01])")
_CONTINUE = b"HTTP/1.1 100 Continue\r\n\r\n"
#: Linux: time limits kept by the kernel (SO_RCVTIMEO, SO_SNDTIMEO) on a blocking socket: a read is
#: one system call, where Python's own timeouts add a poll and a change of the socket's mode.
_KERNEL_TIMEOUTS = sys.platform.startswith("linux")
_TIMEVAL = struct.Struct("@ll")
#: requests read under the low-water mark after one whose body came after its head, before one is
#: read without it again to see whether the client still splits them
_SPLIT_RUN = 32
#: requests read without a low-water mark after a short request met one (doubled for each, up to 64x)
_COOLDOWN = 16


def _timeval(seconds: float) -> bytes:
    """A ``struct timeval`` of ``seconds`` (at least a millisecond: zero would mean no limit)."""
    micro = max(1000, int(seconds * 1_000_000))
    return _TIMEVAL.pack(micro // 1_000_000, micro % 1_000_000)


def _bad_header(lines: list[str]) -> None:
    """Raise the refusal of the first header line that is not ``NAME: VALUE``."""
    for line in lines:
        name, colon, value = line.partition(":")
        if not colon or not _TOKEN.fullmatch(name):
            raise _Malformed(f"the header line {line[:100]!r} is not NAME: VALUE"
                             + (" (folded lines are refused)" if line[:1] in (" ", "\t") else ""))
        if _CONTROL.search(value) or "\r" in value:
            raise _Malformed(f"the header {name[:100]!r} has a control character in its value")
    raise _Malformed("a header has a control character")


class _Head:
    """A parsed request head and what the server needs of it to frame the body and the answer."""

    __slots__ = ("request", "length", "chunked", "keep_alive", "expects_continue", "http10")

    def __init__(self, raw: bytes) -> None:
        text = raw.decode("latin-1")
        if text.count("\n") != text.count("\r\n"):  # lines ended by bare line feeds
            text = "\r\n".join(line.rstrip("\r") for line in text.split("\n"))
        lines = text.split("\r\n")
        first = _REQUEST_LINE.fullmatch(lines[0])
        if first is None:
            parts = lines[0].split(" ")
            if len(parts) == 3 and _TOKEN.fullmatch(parts[0]) and _TARGET.fullmatch(parts[1]):
                raise _Malformed(f"the version {parts[2][:20]!r} is not HTTP/1.1 or HTTP/1.0")
            raise _Malformed(f"the request line {lines[0][:100]!r} is not METHOD TARGET HTTP/1.1")
        method, target, version = first.groups()
        if raw.translate(None, _NOT_CONTROL) or text.count("\r") != len(lines) - 1:
            _bad_header(lines[1:])
        headers: dict[str, str] = {}
        for line in lines[1:]:
            name, colon, value = line.partition(":")
            if not colon or not _TOKEN.fullmatch(name):
                _bad_header([line])
            key = name.lower()
            value = value.strip(" \t")
            headers[key] = f"{headers[key]}, {value}" if key in headers else value
        self.http10 = version == "HTTP/1.0"
        if not self.http10 and "host" not in headers:
            raise _Malformed("an HTTP/1.1 request must send a Host header")
        self.length: int | None = None
        length = headers.get("content-length")
        if length is not None and length.isdigit() and length.isascii() and len(length) <= 18:
            self.length = int(length)
        elif length is not None:
            values = {v.strip() for v in length.split(",")}
            if len(values) != 1 or not (only := values.pop()).isdigit() or not only.isascii() or len(only) > 18:
                raise _Malformed(f"Content-Length {length[:40]!r} is not one whole number of bytes")
            self.length = int(only)
        encoding = headers.get("transfer-encoding")
        self.chunked = encoding is not None
        if encoding is not None:
            if encoding.strip().lower() != "chunked":
                raise _Malformed(f"Transfer-Encoding {encoding[:40]!r} is not supported: send chunked or "
                                 "a Content-Length")
            if length is not None:
                raise _Malformed("a request can't have both Content-Length and Transfer-Encoding")
        tokens = headers.get("connection", "").lower()
        self.keep_alive = "close" not in tokens and not self.http10
        self.expects_continue = not self.http10 and "100-continue" in headers.get("expect", "").lower()
        self.request = Request(method, target, headers)

    @property
    def bodyless(self) -> bool:
        """No body follows the head."""
        return not self.chunked and not self.length


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
            _Connection(self, sock).serve()
        except (ConnectionError, OSError, _Closed):
            pass  # the client hung up
        except Exception as err:  # noqa: BLE001 - a bug costs one connection, never the server
            print(f"manasolver serve: internal error: {type(err).__name__}: {err}", file=sys.stderr, flush=True)
        finally:
            self._slots.release()
            _close(sock)

    def _send_raw(self, sock: socket.socket, response: Response) -> None:
        """A response after which the connection is closed."""
        body = response.body if isinstance(response.body, bytes) else b"".join(response.body)
        try:
            sock.sendall(_head(response, len(body), close=True) + body)
        except (ConnectionError, OSError):
            pass


class _Connection:
    """One client's connection: its requests read, answered and written in order."""

    __slots__ = ("server", "sock", "buf", "limits", "last_raw", "last_head", "passed", "read_timeout", "lowat",
                 "expect", "head_size", "split_run", "cooldown", "misses")

    def __init__(self, server: Server, sock: socket.socket) -> None:
        self.server = server
        self.sock = sock
        self.buf = b""
        self.limits = server.limits
        self.last_raw = b""  # the last head read, and what it was parsed to
        self.last_head: _Head | None = None
        self.passed: _Head | None = None  # the last head that the application's check let through
        self.read_timeout = 0.0  # the socket's receive timeout (SO_RCVTIMEO), 0 for none
        self.lowat = 1  # the socket's receive low-water mark (SO_RCVLOWAT)
        self.expect = 0  # bytes to wait for before the next request is read (0: wake on the first)
        self.head_size = 0  # bytes of the last head, with the blank line that ends it
        self.split_run = 0  # requests left to read under the mark since a body was seen to come after its head
        self.cooldown = 0  # requests to read without a low-water mark after one met a short request
        self.misses = 0  # short requests met under a low-water mark
        if _KERNEL_TIMEOUTS:  # a blocking socket, the kernel keeps the time: no poll and no mode switch a read
            sock.settimeout(None)
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDTIMEO, _timeval(server.limits.request_timeout))

    def _recv(self, deadline: float) -> bytes:
        """The next bytes from the client, waiting until ``deadline`` (``time.monotonic()``)."""
        left = deadline - time.monotonic()
        if left <= 0:
            raise _Timeout("the request was not complete in time")
        sock = self.sock
        try:
            if _KERNEL_TIMEOUTS:
                if self.lowat != 1:
                    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVLOWAT, 1)
                    self.lowat = 1
                if not left - 0.1 <= self.read_timeout <= left + 0.05:  # else the one set is near enough
                    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVTIMEO, _timeval(left))
                    self.read_timeout = left
                data = sock.recv(65536)
            else:
                sock.settimeout(left)
                data = sock.recv(65536)
        except (socket.timeout, BlockingIOError):  # the kernel's receive timeout ends in EAGAIN
            raise _Timeout("the request was not complete in time") from None
        if not data:
            raise _Closed()
        return data

    def _recv_expected(self, deadline: float) -> bytes:
        """The next request's first bytes, woken only once :attr:`expect` of them are in (or
        :attr:`Limits.split_wait` has passed): a client that sends its head and its body in two writes
        (``http.client`` does) would otherwise wake this thread for the head alone, and again for
        the body.  Fewer bytes in that time (a shorter request than the last ones, or an idle client)
        are read as usual: the mark is dropped, and after a shorter request it is not set again for
        a while."""
        wait = self.limits.split_wait
        if deadline - time.monotonic() <= wait:
            return self._recv(deadline)
        sock = self.sock
        if self.lowat != self.expect:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVLOWAT, self.expect)
            self.lowat = self.expect
        if self.read_timeout != wait:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVTIMEO, _timeval(wait))
            self.read_timeout = wait
        try:
            data = sock.recv(65536)
        except (TimeoutError, BlockingIOError):  # nothing in that time: an idle client
            return self._recv(deadline)
        if not data:
            raise _Closed()
        if len(data) < self.expect:  # a short request, or one sent slowly: it waited for nothing
            self.misses += 1
            self.cooldown = _COOLDOWN << min(self.misses - 1, 6)
            self.expect = 0
        return data

    def _read_head(self, deadline: float) -> _Head | None:
        """The next request's head, or ``None`` when the client closed between requests."""
        start = 0
        while True:
            buf = self.buf
            end = buf.find(b"\r\n\r\n", start)
            size = end + 4
            # lines ended by bare line feeds, before that blank line (pipelined requests may follow it)
            bare = buf.find(b"\n\n", start, end + 1 if end >= 0 else len(buf))
            if bare >= 0:
                end, size = bare, bare + 2
            if end >= 0:
                break
            if len(buf) > self.limits.max_head:
                raise _Malformed(f"the request's head is over {self.limits.max_head} bytes", 431)
            start = max(0, len(buf) - 3)
            try:
                data = self._recv_expected(deadline) if self.expect and not buf else self._recv(deadline)
            except _Closed:
                if not buf.strip():
                    return None
                raise
            self.buf = buf + data if buf else data
        if size > self.limits.max_head + 4:
            raise _Malformed(f"the request's head is over {self.limits.max_head} bytes", 431)
        raw = buf[:end]
        self.buf = buf[size:]
        self.head_size = size
        if raw != self.last_raw:  # a kept-alive client sends the same head again and again
            self.last_head = _Head(raw.lstrip(b"\r\n"))  # blank lines before a request are allowed
            self.last_raw = raw
        return self.last_head

    def _read_body(self, head: _Head, deadline: float) -> bytes | Response:
        """The request's body, or the refusal of one too large."""
        if head.expects_continue and (head.chunked or len(self.buf) < (head.length or 0)):
            self.sock.sendall(_CONTINUE)  # curl asks before sending a body over 1 KB
        if head.chunked:
            return self._read_chunked(deadline)
        length = head.length or 0
        buf = self.buf
        if len(buf) < length:
            parts, have = [buf], len(buf)
            while have < length:
                data = self._recv(deadline)
                parts.append(data)
                have += len(data)
            buf = b"".join(parts)
            del parts
        self.buf = buf[length:]
        return buf[:length] if len(buf) > length else buf

    def _read_chunked(self, deadline: float) -> bytes | Response:
        max_body = self.limits.max_body
        parts: list[bytes] = []
        size = 0
        buf, at = self.buf, 0  # the bytes read, and how far into them the body is parsed

        def more(need: int = 1) -> None:  # at least ``need`` bytes after ``at``, and more than now
            nonlocal buf, at
            got = [buf[at:], self._recv(deadline)]
            have = len(got[0]) + len(got[1])
            while have < need:
                got.append(self._recv(deadline))
                have += len(got[-1])
            buf, at = b"".join(got), 0

        while True:
            line_end = buf.find(b"\r\n", at)
            while line_end < 0:
                if len(buf) - at > 1024:
                    raise _Malformed("a chunk's size line is over 1 KB")
                more()
                line_end = buf.find(b"\r\n", at)
            found = _CHUNK_SIZE.fullmatch(buf, at, line_end)
            if found is None:
                raise _Malformed(f"bad chunk size line {buf[at:line_end][:40]!r}")
            chunk = int(found.group(1), 16)
            at = line_end + 2
            if chunk == 0:
                break
            size += chunk
            if size > max_body:
                self.buf = b""
                return self.server.app.refuse(413, f"the body has more than {max_body} bytes")
            if len(buf) < at + chunk + 2:
                more(chunk + 2)
            if buf[at + chunk:at + chunk + 2] != b"\r\n":
                raise _Malformed("a chunk does not end with CRLF where its size says")
            parts.append(buf[at:at + chunk])
            at += chunk + 2
        while True:  # trailers, up to an empty line
            end = buf.find(b"\r\n", at)
            while end < 0:
                if len(buf) - at > self.limits.max_head:
                    raise _Malformed("the chunked body's trailers are too long", 431)
                more()
                end = buf.find(b"\r\n", at)
            line, at = buf[at:end], end + 2
            if not line:
                self.buf = buf[at:]
                return b"".join(parts)

    def serve(self) -> None:
        server, limits, app = self.server, self.limits, self.server.app
        while True:
            head: _Head | None = None
            large = False  # holding the large-body turn, until the answer is sent
            keep = False
            try:
                try:
                    marked = self.expect
                    head = self._read_head(time.monotonic() + limits.idle_timeout)
                    if head is None:
                        return
                    if not marked and head.length and not head.chunked and len(self.buf) < head.length:
                        self.split_run = _SPLIT_RUN  # its body is still on the way: the client splits them
                    request = head.request
                    deadline = time.monotonic() + limits.request_timeout
                    if head is self.passed:  # the same head as a request this connection sent before
                        response = None
                    else:
                        response = app.check(request)
                        if response is None:
                            response = self._length_refusal(head)
                            if response is None:
                                self.passed = head
                    if response is None and (head.chunked or (head.length or 0) > limits.large_body):
                        large = server._large.acquire(timeout=max(0.0, deadline - time.monotonic()))
                        if not large:
                            response = app.refuse(503, "the server is busy with another large request; try again")
                    if response is None:
                        body = self._read_body(head, deadline)
                        if isinstance(body, Response):
                            response = body  # too large: refused, the rest unread
                        else:
                            keep = head.keep_alive
                            with server._engine:
                                response = app.handle(Request(request.method, request.target, request.headers,
                                                              body))
                            del body
                    else:
                        keep = head.keep_alive and head.bodyless  # a body refused unread ends the connection
                except _Malformed as err:
                    server._send_raw(self.sock, app.refuse(err.status, f"malformed HTTP request: {err}"))
                    return
                except _Timeout as err:
                    if head is None and not self.buf.strip():
                        return  # an idle kept-alive connection: close it quietly
                    server._send_raw(self.sock, app.refuse(408, str(err)))
                    return
                if not _KERNEL_TIMEOUTS:
                    self.sock.settimeout(limits.request_timeout)  # a client that doesn't read its answer
                else:
                    self._expect_next(head)
                self._send(response, request.method == "HEAD", keep, head.http10)
            finally:
                if large:
                    server._large.release()
            if not keep:
                return

    def _expect_next(self, head: _Head) -> None:
        """Whether to wait for the next request's head and a byte of its body before reading it
        (:meth:`_recv_expected`): within :data:`_SPLIT_RUN` requests of one whose body was still on
        the way when its head was read, after a request with a body of a known length, sent without
        waiting for ``100 Continue`` and with nothing sent after it yet."""
        if self.cooldown:
            self.cooldown -= 1
        if (self.split_run and not self.cooldown and head.length and not head.chunked and not head.expects_continue
                and not self.buf and self.head_size < 65536):
            self.split_run -= 1
            self.expect = self.head_size + 1
        else:
            self.expect = 0

    def _length_refusal(self, head: _Head) -> Response | None:
        """411 for a body of unknown length, 413 for one declared too large."""
        if head.length is None and not head.chunked:
            if head.request.method in ("POST", "PUT", "PATCH"):
                return self.server.app.refuse(411, "a Content-Length header is required")
            return None
        if head.length is not None and head.length > self.limits.max_body:
            return self.server.app.refuse(413, f"the body has {head.length} bytes; at most "
                                               f"{self.limits.max_body} are accepted")
        return None

    # -- writing ----------------------------------------------------------------------------

    def _send(self, response: Response, head_only: bool, keep: bool, http10: bool) -> None:
        sock = self.sock
        body = response.body
        if isinstance(body, bytes):
            if keep and not head_only and not response.headers:  # an answer on a kept-alive connection
                start = _STARTS.get((response.status, response.content_type)) or _start(response)
                sock.sendall(b"%sContent-Length: %d\r\n\r\n%s" % (start, len(body), body))  # one write: one segment
                return
            data = _head(response, len(body), close=not keep)
            sock.sendall(data if head_only else data + body)
            return
        chunks = body
        chunked = not http10  # HTTP/1.0 has no chunks: the body ends when the connection does
        try:
            sock.sendall(_head(response, None, close=not keep or http10, chunked=chunked))
            while not head_only:
                with self.server._engine:
                    chunk = next(chunks, None)
                if chunk is None:
                    break
                if chunk:
                    sock.sendall(b"%x\r\n%s\r\n" % (len(chunk), chunk) if chunked else chunk)
        finally:
            close = getattr(chunks, "close", None)
            if close is not None:
                with self.server._engine:
                    close()
        if chunked and not head_only:
            sock.sendall(b"0\r\n\r\n")


def _head(response: Response, length: int | None, close: bool, chunked: bool = False) -> bytes:
    """A response's status line and headers."""
    lines = [_STARTS.get((response.status, response.content_type)) or _start(response)]
    if length is not None:
        lines.append(b"Content-Length: %d\r\n" % length)
    elif chunked:
        lines.append(b"Transfer-Encoding: chunked\r\n")
    if close:
        lines.append(b"Connection: close\r\n")
    for name, value in response.headers:
        lines.append(f"{name}: {value}\r\n".encode("latin-1"))
    lines.append(b"\r\n")
    return b"".join(lines)


#: the first lines of a response, by status and content type
_STARTS: dict[tuple[int, str], bytes] = {}


def _start(response: Response) -> bytes:
    """The status line and ``Content-Type`` of ``response``, kept in :data:`_STARTS`."""
    status, kind = response.status, response.content_type
    start = f"HTTP/1.1 {status} {_reason(status)}\r\nContent-Type: {kind}\r\n".encode("latin-1")
    if len(_STARTS) < 64:
        _STARTS[(status, kind)] = start
    return start


def _reason(status: int) -> str:
    try:
        return http.HTTPStatus(status).phrase
    except ValueError:
        return ""


def _close(sock: socket.socket) -> None:
    """Close after a graceful half-close, so an unread request doesn't turn the answer into a reset."""
    try:
        sock.shutdown(socket.SHUT_WR)
    except OSError:
        pass
    sock.close()
