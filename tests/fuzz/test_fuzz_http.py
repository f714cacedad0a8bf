"""Requests mangled byte by byte against a real ``manasolver serve`` (``--timeout 2``): every
connection gets a response or is closed within the timeout, each response is a status line the
server meant (200, or a refusal with the protocol's error object), and the server goes on
answering ``/healthz`` with no traceback on its standard error."""

from __future__ import annotations

import json
import random
import socket
from urllib.parse import urlsplit

import pytest
from fuzzing import LONG
from served import serving

BODY = json.dumps({"query": "mana_value", "cost": "{2}{G}", "id": 1}).encode()
REQUEST = (b"POST /v1/query HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
           b"Content-Length: %d\r\n\r\n%s" % (len(BODY), BODY))
CASES = 400 if LONG else 60


def _mangle(rng: random.Random) -> bytes:
    data = bytearray(REQUEST)
    for _ in range(rng.randint(1, 6)):
        kind = rng.random()
        at = rng.randrange(len(data))
        if kind < 0.3:
            data[at] = rng.randrange(256)
        elif kind < 0.5:
            del data[at:at + rng.randint(1, 8)]
        elif kind < 0.7:
            data[at:at] = rng.choice([b"\r\n", b"\n", b"\x00", b" ", b":", b"\r\n\r\n", b"0\r\n", b"chunked",
                                      b"Transfer-Encoding: chunked\r\n", b"Content-Length: 5\r\n"])
        else:
            data[at:at] = bytes(rng.randrange(256) for _ in range(rng.randint(1, 20)))
    return bytes(data)


def _exchange(host: str, port: int, data: bytes) -> bytes:
    with socket.create_connection((host, port), timeout=15) as sock:
        sock.sendall(data)
        sock.shutdown(socket.SHUT_WR)
        out = b""
        while chunk := sock.recv(65536):
            out += chunk
        return out


@pytest.mark.slow
def test_mangled_requests_are_answered_or_closed_and_the_server_goes_on() -> None:
    rng = random.Random(23)
    with serving("--timeout", "2") as url:
        parts = urlsplit(url)
        host, port = str(parts.hostname), int(parts.port or 0)
        for _ in range(CASES):
            data = _mangle(rng)
            reply = _exchange(host, port, data)
            while reply:  # the responses one after another, each framed by its Content-Length
                head, _, rest = reply.partition(b"\r\n\r\n")
                assert head.startswith(b"HTTP/1.1 "), (data, reply[:300])
                status = int(head[9:12])
                assert status in (200, 400, 403, 404, 405, 408, 411, 413, 415), (data, reply[:300])
                length = next(int(line.split(b":", 1)[1]) for line in head.lower().split(b"\r\n")
                              if line.startswith(b"content-length:"))
                body, reply = rest[:length], rest[length:]
                if status != 200:  # the protocol's error object, whoever refused it
                    assert json.loads(body)["error"]["code"] == "bad_query", (data, body)
        assert _exchange(host, port, b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n") \
            .startswith(b"HTTP/1.1 200 ")
