"""SPEC §9 over requests sent as a head and then a body, as ``http.client`` sends them: once the
server has read such a head with its body still on the way, it waits, under a receive low-water
mark, for the next head and the first byte of its body before it reads (one wake a request
instead of two), and
every request that does not fit that (shorter, slow, idle, stalled, pipelined) is still read
and answered as before, or timed out as before.

The mechanism is seen in process (``httpd._Connection`` on a real loopback socket, its reads
counted); the behaviours on a real ``manasolver serve``.
"""

from __future__ import annotations

import contextlib
import json
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest

from manasolver.solver import httpd
from manasolver.solver.protocol import answer
from manasolver.solver.serve import QueryApp

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the low-water mark is Linux's")

QUERY = b'{"query": "mana_value", "cost": "{2}{G}"}'
ANSWER = {"mana_value": 3, "colors": ["G"]}


def _head(body: bytes, extra: bytes = b"") -> bytes:
    return (b"POST /v1/query HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            b"Content-Length: %d\r\n%s\r\n" % (len(body), extra))


def _read_response(sock: socket.socket, buf: bytearray) -> tuple[bytes, Any]:
    """One response framed by Content-Length from ``sock`` (bytes past it stay in ``buf``)."""
    while b"\r\n\r\n" not in buf:
        data = sock.recv(65536)
        assert data, f"closed before a whole head: {bytes(buf)!r}"
        buf += data
    head, _, rest = bytes(buf).partition(b"\r\n\r\n")
    length = next(int(line.split(b":", 1)[1]) for line in head.split(b"\r\n")
                  if line.lower().startswith(b"content-length:"))
    while len(rest) < length:
        data = sock.recv(65536)
        assert data, "closed before a whole body"
        rest += data
    buf[:] = rest[length:]
    return head.split(b"\r\n", 1)[0], json.loads(rest[:length])


def _split(sock: socket.socket, body: bytes = QUERY, pause: float = 0.0) -> None:
    """A request as two writes: its head, then (after ``pause`` seconds) its body."""
    sock.sendall(_head(body))
    if pause:
        time.sleep(pause)
    sock.sendall(body)


# -- in process: the reads a request takes -------------------------------------------------------

class _Counting:
    """A connection's socket whose reads are counted (everything else is the socket's own)."""

    def __init__(self, sock: socket.socket) -> None:
        self.sock = sock
        self.reads = 0

    def __getattr__(self, name: str) -> Any:
        return getattr(self.sock, name)

    def recv(self, size: int) -> bytes:
        data = self.sock.recv(size)
        self.reads += 1
        return data


@contextlib.contextmanager
def _in_process(split_wait: float) -> Iterator[tuple[socket.socket, _Counting, socket.socket]]:
    """A client socket, the server side's counted socket, served by ``_Connection`` in a thread."""
    server = httpd.Server(QueryApp("127.0.0.1", 0), httpd.Limits(split_wait=split_wait, idle_timeout=20.0,
                                                                  request_timeout=20.0))
    with socket.create_server(("127.0.0.1", 0)) as listener:
        client = socket.create_connection(listener.getsockname(), timeout=30)
        accepted, _ = listener.accept()
    client.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    counted = _Counting(accepted)
    thread = threading.Thread(target=httpd._Connection(server, counted).serve, daemon=True)  # type: ignore[arg-type]
    thread.start()
    try:
        yield client, counted, accepted
    finally:
        client.close()
        thread.join(timeout=30)
        accepted.close()


def _wait_for(condition: Any) -> None:
    for _ in range(2000):
        if condition():
            return
        time.sleep(0.005)
    raise AssertionError("the server thread never got there")


def test_after_a_split_request_the_head_alone_does_not_wake_the_reader() -> None:
    """(``split_wait`` long, so that what the test sees doesn't depend on the machine's speed.)"""
    with _in_process(split_wait=10.0) as (client, counted, accepted):
        _one_read_a_request(client, counted, accepted)


def _one_read_a_request(client: socket.socket, counted: _Counting, accepted: socket.socket) -> None:
    buf = bytearray()
    for pause in (0.05, 0.0):  # the first body well after its head: read apart
        _split(client, pause=pause)
        assert _read_response(client, buf) == (b"HTTP/1.1 200 OK", ANSWER)
    mark = len(_head(QUERY)) + 1
    _wait_for(lambda: accepted.getsockopt(socket.SOL_SOCKET, socket.SO_RCVLOWAT) == mark)
    for _ in range(3):
        reads = counted.reads
        client.sendall(_head(QUERY))
        time.sleep(0.05)
        assert counted.reads == reads  # still waiting: the head alone is under the mark
        client.sendall(QUERY)
        assert _read_response(client, buf) == (b"HTTP/1.1 200 OK", ANSWER)
        assert counted.reads == reads + 1  # head and body in one read


def test_a_bodyless_request_under_the_mark_is_read_and_the_mark_dropped() -> None:
    with _in_process(split_wait=0.2) as (client, _, accepted):
        _shorter_request(client, accepted)


def _shorter_request(client: socket.socket, accepted: socket.socket) -> None:
    buf = bytearray()
    for pause in (0.05, 0.0, 0.0):
        _split(client, pause=pause)
        assert _read_response(client, buf)[1] == ANSWER
    _wait_for(lambda: accepted.getsockopt(socket.SOL_SOCKET, socket.SO_RCVLOWAT) > 1)
    client.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")  # shorter than the mark: waits split_wait
    status, body = _read_response(client, buf)
    assert status == b"HTTP/1.1 200 OK" and body["status"] == "ok"
    _split(client)
    assert _read_response(client, buf)[1] == ANSWER
    assert accepted.getsockopt(socket.SOL_SOCKET, socket.SO_RCVLOWAT) == 1  # not set again for a while


def test_whole_requests_are_read_without_the_mark_and_a_run_under_it_ends() -> None:
    with _in_process(split_wait=10.0) as (client, _, accepted):
        _whole_requests(client, accepted)


def _whole_requests(client: socket.socket, accepted: socket.socket) -> None:
    buf = bytearray()
    for _ in range(5):  # head and body in one write: never seen apart, never waited for
        client.sendall(_head(QUERY) + QUERY)
        assert _read_response(client, buf)[1] == ANSWER
        assert accepted.getsockopt(socket.SOL_SOCKET, socket.SO_RCVLOWAT) == 1
    _split(client, pause=0.05)
    assert _read_response(client, buf)[1] == ANSWER
    _wait_for(lambda: accepted.getsockopt(socket.SOL_SOCKET, socket.SO_RCVLOWAT) > 1)
    for _ in range(httpd._SPLIT_RUN):
        client.sendall(_head(QUERY) + QUERY)
        assert _read_response(client, buf)[1] == ANSWER
    client.sendall(_head(QUERY) + QUERY)  # read without the mark, to see whether requests still come apart
    assert _read_response(client, buf)[1] == ANSWER
    assert accepted.getsockopt(socket.SOL_SOCKET, socket.SO_RCVLOWAT) == 1


# -- a real server: what doesn't fit the pattern is answered as before ----------------------------

@pytest.fixture(scope="module")
def served() -> Iterator[tuple[str, int]]:
    with tempfile.TemporaryFile("w+") as stderr:
        proc = subprocess.Popen([sys.executable, "-m", "manasolver.solver.cli", "serve", "--port", "0",
                                 "--timeout", "2"], stdout=subprocess.PIPE, stderr=stderr, text=True)
        assert proc.stdout is not None
        line = proc.stdout.readline()
        try:
            assert line, "the server printed nothing"
            yield "127.0.0.1", int(json.loads(line)["listening"].rsplit(":", 1)[1].strip("/"))
        finally:
            proc.terminate()
            proc.wait(timeout=30)
            stderr.seek(0)
            errors = stderr.read()
        assert "Traceback" not in errors and "internal error" not in errors, errors


def _connect(address: tuple[str, int]) -> socket.socket:
    sock = socket.create_connection(address, timeout=30)
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    return sock


def _warm(sock: socket.socket, buf: bytearray) -> None:
    """Three split requests, the first one's body well after its head: the server's wait for the
    next one is set."""
    for pause in (0.05, 0.0, 0.0):
        _split(sock, pause=pause)
        assert _read_response(sock, buf) == (b"HTTP/1.1 200 OK", ANSWER)


def test_split_requests_then_shorter_longer_slow_and_idle_ones_are_all_answered(served: tuple[str, int]) -> None:
    """Each request below, if it were left waiting under the mark, would meet the two-second
    timeout (a 408) instead of its answer."""
    state_query = {"query": "can_pay", "cost": "{1}", "state": {"battlefield": [{"card": "Forest"}]}}
    longer = json.dumps(state_query).encode()
    with _connect(served) as sock:
        buf = bytearray()
        _warm(sock, buf)
        sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")  # shorter, no body
        status, body = _read_response(sock, buf)
        assert status == b"HTTP/1.1 200 OK" and body["status"] == "ok"
        short = b'{"query": "mana_value", "cost": "{1}"}'
        _split(sock, short)  # a shorter body
        assert _read_response(sock, buf)[1] == answer(json.loads(short))
        _split(sock, longer)
        assert _read_response(sock, buf)[1] == answer(state_query)
    with _connect(served) as sock:
        buf = bytearray()
        _warm(sock, buf)
        _split(sock, pause=0.05)  # the body well after the head
        assert _read_response(sock, buf)[1] == ANSWER
    with _connect(served) as sock:
        buf = bytearray()
        _warm(sock, buf)
        time.sleep(0.1)  # idle between requests
        _split(sock)
        assert _read_response(sock, buf)[1] == ANSWER
        for byte in _head(QUERY) + QUERY:  # trickled a byte at a time, well within the timeout
            sock.sendall(bytes([byte]))
        assert _read_response(sock, buf)[1] == ANSWER


def test_pipelined_requests_after_split_ones_are_answered_in_order(served: tuple[str, int]) -> None:
    other = b'{"query": "mana_value", "cost": "{W}{U}"}'
    with _connect(served) as sock:
        buf = bytearray()
        _warm(sock, buf)
        sock.sendall(_head(QUERY) + QUERY + _head(other) + other + _head(QUERY) + QUERY)
        assert [_read_response(sock, buf)[1] for _ in range(3)] == [ANSWER, answer(json.loads(other)), ANSWER]


def test_a_head_without_its_body_after_split_requests_is_answered_408(served: tuple[str, int]) -> None:
    with _connect(served) as sock:
        buf = bytearray()
        _warm(sock, buf)
        sock.sendall(_head(QUERY) + QUERY[:5])  # and then nothing: --timeout 2
        status, body = _read_response(sock, buf)
        assert status.startswith(b"HTTP/1.1 408 ") and body["error"]["code"] == "bad_query"
        assert sock.recv(65536) == b""


def test_an_idle_connection_after_split_requests_is_closed_quietly(served: tuple[str, int]) -> None:
    with _connect(served) as sock:
        buf = bytearray()
        _warm(sock, buf)
        assert sock.recv(65536) == b""  # after --timeout 2 with nothing sent: closed, no answer


def test_expect_100_continue_after_split_requests_is_answered_before_the_body(served: tuple[str, int]) -> None:
    with _connect(served) as sock:
        buf = bytearray()
        _warm(sock, buf)
        for _ in range(3):
            sock.sendall(_head(QUERY, b"Expect: 100-continue\r\n"))
            while b"\r\n\r\n" not in buf:
                buf += sock.recv(65536)
            assert bytes(buf).startswith(b"HTTP/1.1 100 Continue\r\n\r\n")
            del buf[:len(b"HTTP/1.1 100 Continue\r\n\r\n")]
            sock.sendall(QUERY)
            assert _read_response(sock, buf)[1] == ANSWER
