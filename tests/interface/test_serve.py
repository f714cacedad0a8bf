"""``manasolver serve`` as a real subprocess, spoken to over real sockets.

The server is started once for the module (``--port 0 --timeout 3``) and its standard error is
kept: after every test that hangs up on it, it must still be empty (no tracebacks).
"""

from __future__ import annotations

import http.client
import json
import socket
import subprocess
import sys
import tempfile
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from manasolver.solver.service.demo import example_state
from manasolver.solver.service.protocol import answer

CLI = [sys.executable, "-m", "manasolver.solver.service.cli"]
JSON = {"Content-Type": "application/json"}


class Served:
    def __init__(self, proc: subprocess.Popen[str], line: dict[str, Any], stderr: Any) -> None:
        self.proc, self.line, self.stderr = proc, line, stderr
        parts = urlsplit(line["listening"])
        self.host, self.port = str(parts.hostname), int(parts.port or 0)

    def conn(self) -> http.client.HTTPConnection:
        return http.client.HTTPConnection(self.host, self.port, timeout=60)

    def request(self, method: str, path: str, body: bytes | None = None,
                headers: dict[str, str] | None = None) -> tuple[int, dict[str, str], bytes]:
        conn = self.conn()
        try:
            conn.request(method, path, body, headers if headers is not None else JSON)
            response = conn.getresponse()
            return response.status, {k.lower(): v for k, v in response.getheaders()}, response.read()
        finally:
            conn.close()

    def raw(self, data: bytes) -> bytes:
        """Send bytes on a fresh socket; everything the server answers until it closes."""
        with socket.create_connection((self.host, self.port), timeout=60) as sock:
            sock.sendall(data)
            return _read_all(sock)

    def errors(self) -> str:
        self.stderr.flush()
        return Path(self.stderr.name).read_text(encoding="utf-8")


def _read_all(sock: socket.socket) -> bytes:
    out = b""
    while True:
        chunk = sock.recv(65536)
        if not chunk:
            return out
        out += chunk


def _start(*args: str) -> Served:
    stderr = tempfile.NamedTemporaryFile("w+", suffix=".stderr", delete=False)
    proc = subprocess.Popen([*CLI, "serve", "--port", "0", *args], stdout=subprocess.PIPE, stderr=stderr,
                            text=True)
    assert proc.stdout is not None
    first = proc.stdout.readline()
    assert first, f"the server printed nothing: {Path(stderr.name).read_text()}"
    return Served(proc, json.loads(first), stderr)


def _stop(served: Served) -> None:
    served.proc.terminate()
    served.proc.wait(timeout=30)


@pytest.fixture(scope="module")
def server() -> Iterator[Served]:
    served = _start("--timeout", "3")
    try:
        yield served
    finally:
        _stop(served)
        assert served.proc.returncode == 0
        assert "Traceback" not in served.errors()


def _body(status: int, data: bytes) -> Any:
    return json.loads(data)


def _refused(status: int, data: bytes, expected: int, where: str | None = None) -> dict[str, Any]:
    assert status == expected, (status, data)
    error = json.loads(data)["error"]
    assert error["code"] == "bad_query" and error["message"], error
    if where is not None:
        assert error["where"] == where, error
    return dict(error)


def _query(cost: str = "{W}{U}{B}{R}{G}") -> dict[str, Any]:
    return {"query": "can_pay", "state": example_state("commander"), "cost": cost}


# -- the routes ---------------------------------------------------------------------------------

def test_listening_line_is_one_json_object_and_healthz_gives_the_version(server: Served) -> None:
    assert set(server.line) == {"listening", "version"}
    assert server.line["listening"] == f"http://127.0.0.1:{server.port}/" and server.port > 0
    status, headers, data = server.request("GET", "/healthz", headers={})
    assert status == 200 and headers["content-type"] == "application/json"
    assert json.loads(data) == {"status": "ok", "version": server.line["version"]}


def test_keep_alive_two_requests_on_one_connection(server: Served) -> None:
    conn = server.conn()
    try:
        conn.request("POST", "/v1/query", json.dumps(_query()).encode(), JSON)
        first = conn.getresponse()
        assert first.status == 200 and first.version == 11 and not first.will_close
        assert json.loads(first.read()) == answer(_query())
        sock = conn.sock
        conn.request("GET", "/healthz")
        second = conn.getresponse()
        assert second.status == 200 and json.loads(second.read())["status"] == "ok"
        assert conn.sock is sock  # the same connection answered both
    finally:
        conn.close()


def test_keep_alive_after_a_get_answered_from_its_head(server: Served) -> None:
    """GETs answered without a body (healthz, the page, the card search) keep the connection
    open too, and a query follows on it (a browser reuses it for the next completion)."""
    conn = server.conn()
    try:
        sock = None
        for path in ("/healthz", "/v1/cards?q=flooded", "/healthz"):
            conn.request("GET", path)
            got = conn.getresponse()
            assert got.status == 200 and not got.will_close, path
            got.read()
            assert sock is None or conn.sock is sock, path
            sock = conn.sock
        conn.request("POST", "/v1/query", json.dumps(_query()).encode(), JSON)
        last = conn.getresponse()
        assert last.status == 200 and json.loads(last.read()) == answer(_query()) and conn.sock is sock
    finally:
        conn.close()


def test_query_and_root_answer_as_the_protocol_does(server: Served) -> None:
    for cost in ("{W}{U}{B}{R}{G}", "{2}{G}", "{G}" * 40):
        for path in ("/v1/query", "/"):
            status, _, data = server.request("POST", path, json.dumps({**_query(cost), "id": 7}).encode())
            assert status == 200 and json.loads(data) == answer({**_query(cost), "id": 7})
    # an error of input is an answer: status 200
    status, _, data = server.request("POST", "/v1/query", json.dumps(_query("{Q/W}")).encode())
    assert status == 200 and json.loads(data)["error"]["code"] == "bad_cost"


def test_batch_of_json_lines_and_of_a_json_array(server: Served) -> None:
    queries = [{**_query(cost), "id": i} for i, cost in enumerate(["{2}{G}", "{W}" * 30, "{Q}", "{1}"])]
    expected = [answer(q) for q in queries]
    lines = b"".join(json.dumps(q).encode() + b"\n" for q in queries)
    lines = lines.replace(b"\n", b"\n{not json\n\xff\xfe\n", 1)  # a bad line and an undecodable one
    status, headers, data = server.request("POST", "/v1/batch", lines, {"Content-Type": "application/x-ndjson"})
    assert status == 200 and headers["content-type"] == "application/x-ndjson"
    answers = [json.loads(line) for line in data.splitlines()]
    assert len(answers) == len(queries) + 2
    assert answers[1]["error"]["where"] == "line 2" and answers[2]["error"]["where"] == "line 3"
    assert [answers[0], *answers[3:]] == expected
    status, _, data = server.request("POST", "/v1/batch", json.dumps([*queries, 5]).encode())
    answers = [json.loads(line) for line in data.splitlines()]
    assert status == 200 and answers[:-1] == expected
    assert answers[-1]["error"]["where"] == f"[{len(queries)}]"


# -- requests that never reach the engine -------------------------------------------------------

def test_refusals_have_their_status_and_the_protocol_error_object(server: Served) -> None:
    _refused(*server.request("POST", "/v1/query", b"{not json")[::2], 400, "body")
    _refused(*server.request("POST", "/v1/query", b"[1, 2]")[::2], 400, "body")
    _refused(*server.request("POST", "/v2/query", b"{}")[::2], 404, "path")
    status, headers, data = server.request("GET", "/v1/query")
    _refused(status, data, 405, "method")
    assert headers["allow"] == "POST"
    _refused(*server.request("POST", "/v1/query", b"{}", {"Content-Type": "text/plain"})[::2], 415,
             "Content-Type")
    _refused(*server.request("POST", "/v1/batch", b"{}", {"Content-Type": "text/csv"})[::2], 415,
             "Content-Type")
    _refused(*server.request("POST", "/v1/query", b"{}", {})[::2], 415, "Content-Type")


def test_no_length_is_411_and_too_large_is_413(server: Served) -> None:
    answer_411 = server.raw(b"POST /v1/query HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                            b"Connection: close\r\n\r\n")
    head, _, body = answer_411.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 411 ")
    _refused(411, body, 411)
    too_large = server.raw(b"POST /v1/query HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                           b"Content-Length: %d\r\n\r\n{" % (16 * 1024 * 1024 + 1))
    head, _, body = too_large.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 413 ")
    _refused(413, body, 413)


def test_malformed_http_is_400_with_the_error_object(server: Served) -> None:
    head, _, body = server.raw(b"GARBAGE\r\n\r\n").partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 400 ")
    _refused(400, body, 400)


def test_a_cards_field_over_http_is_refused(server: Served) -> None:
    query = {"query": "mana_value", "card": "Forest", "cards": "/etc/passwd", "id": "q"}
    status, _, data = server.request("POST", "/v1/query", json.dumps(query).encode())
    out = json.loads(data)
    assert status == 200 and out["id"] == "q" and out["error"]["where"] == "cards"
    status, _, data = server.request("POST", "/v1/batch", json.dumps([query]).encode())
    assert json.loads(data)["error"]["where"] == "cards"


def test_the_card_file_is_the_one_chosen_at_start(tmp_path: Path) -> None:
    cards = tmp_path / "cards.jsonl"
    cards.write_text(json.dumps({"name": "Served Test Dork", "type_line": "Creature — Elf", "mana_cost": "{3}{G}",
                                 "oracle_text": "{T}: Add {G}."}) + "\n", encoding="utf-8")
    served = _start("--cards", str(cards))
    try:
        query = {"query": "mana_value", "card": "Served Test Dork"}
        status, _, data = served.request("POST", "/v1/query", json.dumps(query).encode())
        assert status == 200 and json.loads(data) == {"mana_value": 4, "colors": ["G"]}
    finally:
        _stop(served)
    proc = subprocess.run([*CLI, "serve", "--port", "0", "--cards", str(tmp_path / "none.jsonl")],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2 and "none.jsonl" in proc.stderr and proc.stdout == ""


# -- safe from the web --------------------------------------------------------------------------

def test_a_foreign_host_or_origin_is_refused(server: Served) -> None:
    """DNS rebinding (a name that now points at 127.0.0.1) and pages elsewhere get 403."""
    body = json.dumps(_query()).encode()
    _refused(*server.request("POST", "/v1/query", body, {**JSON, "Host": "evil.example"})[::2], 403, "Host")
    _refused(*server.request("GET", "/healthz", None, {"Host": f"evil.example:{server.port}"})[::2], 403, "Host")
    _refused(*server.request("POST", "/v1/query", body, {**JSON, "Origin": "http://evil.example"})[::2], 403,
             "Origin")
    _refused(*server.request("POST", "/v1/query", body, {**JSON, "Origin": "null"})[::2], 403, "Origin")
    for host in (f"localhost:{server.port}", f"127.0.0.1:{server.port}"):
        status, headers, _ = server.request("POST", "/v1/query", body,
                                            {**JSON, "Host": host, "Origin": f"http://{host}"})
        assert status == 200 and "access-control-allow-origin" not in headers
    status, _, data = server.request("OPTIONS", "/v1/query", None, {"Origin": f"http://127.0.0.1:{server.port}"})
    _refused(status, data, 405, "method")


def test_allow_origin_answers_options_and_sends_cors_headers() -> None:
    served = _start("--allow-origin", "http://app.example")
    try:
        status, headers, _ = served.request("OPTIONS", "/v1/query", None, {"Origin": "http://app.example"})
        assert status == 204 and headers["access-control-allow-origin"] == "http://app.example"
        assert "POST" in headers["access-control-allow-methods"]
        status, headers, data = served.request("POST", "/v1/query", json.dumps(_query()).encode(),
                                               {**JSON, "Origin": "http://app.example"})
        assert status == 200 and headers["access-control-allow-origin"] == "http://app.example"
        assert json.loads(data) == answer(_query())
        status, _, data = served.request("POST", "/v1/query", b"{}", {**JSON, "Origin": "http://other.example"})
        _refused(status, data, 403, "Origin")
    finally:
        _stop(served)


# -- safe from load -----------------------------------------------------------------------------

def test_128_clients_connecting_at_once_are_all_answered(server: Served) -> None:
    barrier = threading.Barrier(128)
    results: list[Any] = []
    body = json.dumps({"query": "mana_value", "cost": "{2}{W}"}).encode()

    def client() -> None:
        try:
            barrier.wait(timeout=60)
            results.append(server.request("POST", "/v1/query", body)[::2])
        except Exception as err:  # noqa: BLE001 - a reset is what the test is about
            results.append(err)

    threads = [threading.Thread(target=client) for _ in range(128)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert len(results) == 128
    assert all(r == (200, b'{"mana_value": 3, "colors": ["W"]}') for r in results), \
        [r for r in results if not isinstance(r, tuple) or r[0] != 200][:5]


def test_a_stalled_client_does_not_block_another_and_is_answered_408(server: Served) -> None:
    with socket.create_connection((server.host, server.port), timeout=60) as slow:
        slow.sendall(b"POST /v1/query HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                     b"Content-Length: 100\r\n\r\n{\"query\": ")  # and then nothing
        for _ in range(3):
            status, _, data = server.request("POST", "/v1/query", json.dumps(_query()).encode())
            assert status == 200 and json.loads(data) == answer(_query())
        head, _, body = _read_all(slow).partition(b"\r\n\r\n")  # --timeout 3: then closed
        assert head.startswith(b"HTTP/1.1 408 ")
        _refused(408, body, 408)
    with socket.create_connection((server.host, server.port), timeout=60) as trickle:
        trickle.sendall(b"GET /heal")  # a head that never ends is also cut off
        assert _read_all(trickle).startswith(b"HTTP/1.1 408 ")


def test_clients_that_hang_up_leave_no_traceback(server: Served) -> None:
    body = json.dumps({"query": "payments", "state": example_state("commander"), "cost": "{G}", "limit": 50})
    for data in (b"POST /v1/query HTTP/1.1\r\nHost: 127.0.0.1\r\n",
                 b"POST /v1/query HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                 b"Content-Length: 1000\r\n\r\n{\"qu",
                 b"POST /v1/batch HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                 b"Content-Length: %d\r\n\r\n%s" % (len(body) * 3 + 4, ("[" + ",".join([body] * 3) + "]").encode())):
        sock = socket.create_connection((server.host, server.port), timeout=60)
        sock.sendall(data)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, b"\x01\x00\x00\x00\x00\x00\x00\x00")
        sock.close()  # a reset, mid-request or before the answer is read
    status, _, _ = server.request("GET", "/healthz", headers={})
    assert status == 200
    assert server.errors() == ""


def test_a_port_in_use_or_out_of_range_is_a_usage_error() -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        proc = subprocess.run([*CLI, "serve", "--port", str(port)], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2 and proc.stdout == ""
    assert f"cannot listen on 127.0.0.1:{port}" in proc.stderr and "Traceback" not in proc.stderr
    for bad in ("70000", "-1"):
        proc = subprocess.run([*CLI, "serve", "--port", bad], capture_output=True, text=True, timeout=60)
        assert proc.returncode == 2 and "--port" in proc.stderr and "Traceback" not in proc.stderr


def test_expect_100_continue_is_answered_before_the_body(server: Served) -> None:
    """curl sends ``Expect: 100-continue`` for bodies over 1 KB and waits for the go-ahead."""
    body = json.dumps(_query()).encode()
    with socket.create_connection((server.host, server.port), timeout=60) as sock:
        sock.sendall(b"POST /v1/query HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                     b"Expect: 100-continue\r\nConnection: close\r\nContent-Length: %d\r\n\r\n" % len(body))
        assert sock.recv(100).startswith(b"HTTP/1.1 100 ")
        sock.sendall(body)
        head, _, data = _read_all(sock).partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 200 ") and json.loads(data) == answer(_query())


def test_get_root_serves_the_playground_page(server: Served) -> None:
    """The playground page (tests/interface/test_playground*.py test the page itself)."""
    status, headers, data = server.request("GET", "/", headers={})
    assert status == 200 and headers["content-type"].startswith("text/html"), (status, headers)
    assert b"static/app.js" in data


def test_a_long_batch_does_not_hold_the_engine_from_other_requests(server: Served) -> None:
    """Between two chunks of a batch's answers the engine serves whoever waited first."""
    lines = b"".join(json.dumps({**_query(cost), "id": i}).encode() + b"\n"
                     for i, cost in enumerate(["{2}{G}", "{W}{U}{B}{R}{G}"] * 1000))
    first_line = threading.Event()
    batch: list[Any] = []

    def run_batch() -> None:
        conn = server.conn()
        conn.request("POST", "/v1/batch", lines, {"Content-Type": "application/x-ndjson"})
        response = conn.getresponse()
        batch.append(response.readline())
        first_line.set()
        batch.extend(response.read().splitlines())
        conn.close()

    thread = threading.Thread(target=run_batch)
    thread.start()
    try:
        assert first_line.wait(timeout=120)
        status, _, data = server.request("POST", "/v1/query", json.dumps(_query("{1}")).encode())
        assert status == 200 and json.loads(data) == answer(_query("{1}"))
        assert thread.is_alive(), "the single query waited for the whole batch"
    finally:
        thread.join(timeout=600)
    assert len(batch) == 2000 and json.loads(batch[-1])["id"] == 1999


# -- the HTTP/1.1 framing -----------------------------------------------------------------------

def _responses(data: bytes) -> list[tuple[bytes, bytes]]:
    """Split a stream of responses framed by Content-Length: (status line, body) each."""
    out = []
    while data:
        head, _, rest = data.partition(b"\r\n\r\n")
        length = next(int(line.split(b":", 1)[1]) for line in head.split(b"\r\n")
                      if line.lower().startswith(b"content-length:"))
        out.append((head.split(b"\r\n", 1)[0], rest[:length]))
        data = rest[length:]
    return out


def test_a_chunked_body_and_pipelined_requests_are_answered_in_order(server: Served) -> None:
    first = json.dumps(_query("{2}{G}")).encode()
    second = json.dumps(_query("{W}{U}{B}{R}{G}")).encode()
    chunked = b"".join(b"%x\r\n%s\r\n" % (len(first[i:i + 50]), first[i:i + 50]) for i in range(0, len(first), 50))
    data = server.raw(b"POST /v1/query HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                      b"Transfer-Encoding: chunked\r\n\r\n" + chunked + b"0\r\n\r\n"
                      b"POST /v1/query HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                      b"Content-Length: %d\r\nConnection: close\r\n\r\n%s" % (len(second), second))
    got = _responses(data)
    assert [line[:12] for line, _ in got] == [b"HTTP/1.1 200", b"HTTP/1.1 200"]
    assert [json.loads(body) for _, body in got] == [answer(_query("{2}{G}")), answer(_query("{W}{U}{B}{R}{G}"))]


def test_the_same_head_again_on_a_connection_is_read_as_new(server: Served) -> None:
    """Two requests with one head and different bodies of one length: each body answered as itself."""
    good, bad = b'{"query": "mana_value", "cost": "{2}{G}"}', b'{"query": "mana_value", "cost": "{2}{G}"]'
    assert len(good) == len(bad)
    head = (b"POST /v1/query HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            b"Content-Length: %d\r\n\r\n" % len(good))
    got = _responses(server.raw(head + good + head + bad + head + good + b"GET /healthz HTTP/1.1\r\n"
                                b"Host: 127.0.0.1\r\nConnection: close\r\n\r\n"))
    assert [line[:12] for line, _ in got] == [b"HTTP/1.1 200", b"HTTP/1.1 400", b"HTTP/1.1 200", b"HTTP/1.1 200"]
    assert json.loads(got[0][1]) == json.loads(got[2][1]) == {"mana_value": 3, "colors": ["G"]}
    assert json.loads(got[1][1])["error"]["where"] == "body"


@pytest.mark.parametrize("head", [
    b"POST /v1/query HTTP/1.1\r\nHost: 127.0.0.1\r\n folded: value\r\n\r\n",
    b"GET /healthz HTTP/1.1\r\n\r\n",  # HTTP/1.1 without Host
    b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-A: a\x01b\r\n\r\n",
    b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-A: a\rb\r\n\r\n",
    b"GET /healthz HTTP/2.0\r\nHost: 127.0.0.1\r\n\r\n",
    b"POST /v1/query HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 2\r\n"
    b"Transfer-Encoding: chunked\r\n\r\n{}",
    b"POST /v1/query HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 2x\r\n\r\n{}",
    b"POST /v1/query HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 2, 3\r\n\r\n{}",
    b"POST /v1/query HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nTransfer-Encoding: gzip\r\n\r\n",
    b"POST /v1/query HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n"
    b"\r\nzz\r\n{}\r\n0\r\n\r\n",
])
def test_malformed_heads_are_400_with_the_error_object(server: Served, head: bytes) -> None:
    status_line, _, body = server.raw(head).partition(b"\r\n\r\n")
    assert status_line.startswith(b"HTTP/1.1 400 "), (head, status_line)
    assert b"connection: close" in status_line.lower()
    _refused(400, body, 400)


def test_http_1_0_is_answered(server: Served) -> None:
    head, _, body = server.raw(b"GET /healthz HTTP/1.0\r\n\r\n").partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 200 ") and json.loads(body)["status"] == "ok"


def test_deep_and_unwritable_queries_are_answered_in_order(server: Served) -> None:
    """An id nested 989 deep, and a query nested past 64 levels, are errors of their own line (or
    body); the lines around them are answered, over /v1/batch as lines and as an array."""
    good = [json.dumps({"query": "mana_value", "cost": "{2}{G}", "id": i}) for i in range(3)]
    deep_id = '{"query": "mana_value", "cost": "{1}", "id": ' + "[" * 989 + "]" * 989 + "}"
    deep = '{"query": "mana_value", "cost": "{1}", "x": ' + "[" * 70 + "]" * 70 + "}"
    body = "\n".join([good[0], deep_id, good[1], deep, good[2]]).encode()
    status, _, data = server.request("POST", "/v1/batch", body, {"Content-Type": "application/x-ndjson"})
    answers = [json.loads(line) for line in data.splitlines()]
    assert status == 200 and len(answers) == 5
    assert [a["id"] for a in answers[0::2]] == [0, 1, 2]
    assert all(a["error"]["code"] == "bad_query" for a in answers[1::2]), answers[1::2]
    status, _, data = server.request("POST", "/v1/batch", ("[" + ",".join([good[0], deep, good[1]]) + "]").encode())
    answers = [json.loads(line) for line in data.splitlines()]
    assert [a.get("id") for a in answers] == [0, None, 1] and answers[1]["error"]["where"] == "[1]"
    status, _, data = server.request("POST", "/v1/query", deep_id.encode())
    assert status == 400 and json.loads(data)["error"]["code"] == "bad_query"


@pytest.mark.slow
def test_a_client_that_stops_reading_its_answer_is_disconnected(server: Served) -> None:
    """A large batch answer to a client that reads none of it: once the buffers are full, the
    server waits --timeout (3 s) for it to read, then drops the connection; others are answered."""
    import time
    # 20 answers of 1,000 payments, about 320 KB each: several times what loopback's buffers hold
    line = json.dumps({"query": "payments", "state": example_state("commander"), "cost": "{2}", "limit": 1000})
    body = ("\n".join([line] * 20) + "\n").encode()
    with socket.socket() as sock:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        sock.settimeout(60)
        sock.connect((server.host, server.port))
        sock.sendall(b"POST /v1/batch HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-ndjson\r\n"
                     b"Content-Length: %d\r\n\r\n%s" % (len(body), body))
        time.sleep(12)  # the answers are made, the buffers fill, then the 3 s pass
        status, _, _ = server.request("GET", "/healthz", headers={})
        assert status == 200
        got = 0
        try:
            while chunk := sock.recv(65536):
                got += len(chunk)
        except ConnectionResetError:
            pass
        whole = 20 * (len(json.dumps(answer(json.loads(line)))) + 1)
        assert got < whole, (got, whole)  # cut off: not the whole answer


def test_a_slow_chunked_upload_holds_no_other_large_request(server: Served) -> None:
    """A chunked body that stalls after its first chunk, and a 2 MB body sent beside it: the
    second is answered at once, not after the first one's timeout."""
    import time
    with socket.create_connection((server.host, server.port), timeout=60) as slow:
        slow.sendall(b"POST /v1/query HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                     b"Transfer-Encoding: chunked\r\n\r\n5\r\n{\"que\r\n")  # and then nothing
        big = json.dumps({"query": "mana_value", "cost": "{1}", "id": "x" * (2 * 1024 * 1024)}).encode()
        start = time.monotonic()
        status, _, data = server.request("POST", "/v1/query", big)
        assert status == 200 and json.loads(data)["mana_value"] == 1
        assert time.monotonic() - start < 2.5  # the server's --timeout is 3 s
