"""A load measurement of ``manasolver serve`` (the HTTP figure), run by hand:
``python -m manasolver.benchmarks.http [--seconds 5] [--clients 1,4] [--connects 128] [--url URL]
[--stack] [--fresh]``.

It starts ``manasolver serve --port 0`` (or uses ``--url``), opens a session on a
40-permanent Commander board of real cards, then each client, a process of its own, sends
``can_pay {2}{G}`` on that session board over one kept-alive ``http.client`` connection for the
given time.  Every answer is checked against the same query answered in this process; a failure
(wrong answer, status other than 200, a reset, a timeout) is counted and the client reconnects.
The figure is answered requests per second, summed over the clients, beside the same query
answered in process (the engine's share of a request).  Then ``--connects`` clients (threads)
connect at once and each sends one query: resets, refusals, wrong answers and the slowest connect
are counted (the service's bounded connections; a listen backlog too short resets connections).

``--stack`` asks ``mana_value`` instead, which the engine answers in microseconds, so that figure
is the server's own cost per request; ``--fresh`` sends the whole board with every request instead
of a session handle.  Each client's own cost is in the figure: on a 2-core machine one client
process and the server share the cores, and four clients share them with it.
"""

from __future__ import annotations

import argparse
import http.client
import json
import multiprocessing
import socket
import subprocess
import sys
import threading
import time
from typing import Any
from urllib.parse import urlsplit

__all__ = ["connect_burst", "main", "measure"]

_HEADERS = {"Content-Type": "application/json"}


def _conn(url: str) -> http.client.HTTPConnection:
    parts = urlsplit(url)
    return http.client.HTTPConnection(parts.hostname or "127.0.0.1", parts.port, timeout=60)


def post(url: str, query: dict[str, Any]) -> Any:
    """One query on its own connection: its decoded answer."""
    conn = _conn(url)
    try:
        conn.request("POST", "/v1/query", json.dumps(query).encode("utf-8"), _HEADERS)
        return json.loads(conn.getresponse().read())
    finally:
        conn.close()


def _client(url: str, seconds: float, body: bytes, expected: Any, out: Any) -> None:
    conn = _conn(url)
    done = failed = 0
    end = time.perf_counter() + seconds
    start = time.perf_counter()
    while time.perf_counter() < end:
        try:
            conn.request("POST", "/v1/query", body, _HEADERS)
            response = conn.getresponse()
            data = response.read()
            if response.status != 200 or json.loads(data) != expected:
                failed += 1
        except (OSError, http.client.HTTPException, ValueError):
            failed += 1
            conn.close()
            conn = _conn(url)
        done += 1
    out.put((done, failed, time.perf_counter() - start))
    conn.close()


def measure(url: str, clients: int, seconds: float, body: bytes, expected: Any) -> dict[str, Any]:
    """Requests per second from ``clients`` processes, each on one kept-alive connection."""
    ctx = multiprocessing.get_context("spawn")
    queue: Any = ctx.Queue()
    procs = [ctx.Process(target=_client, args=(url, seconds, body, expected, queue)) for _ in range(clients)]
    for proc in procs:
        proc.start()
    results = [queue.get(timeout=seconds + 120) for _ in procs]
    for proc in procs:
        proc.join(30)
    return {"clients": clients, "requests": sum(r[0] for r in results), "failed": sum(r[1] for r in results),
            "requests_per_second": round(sum(r[0] / max(1e-9, r[2]) for r in results), 1)}


def connect_burst(url: str, count: int, body: bytes, expected: Any) -> dict[str, Any]:
    """``count`` clients connect at the same moment and each sends one query on its connection."""
    parts = urlsplit(url)
    address = (parts.hostname or "127.0.0.1", parts.port or 80)
    request = (f"POST /v1/query HTTP/1.1\r\nHost: {address[0]}:{address[1]}\r\nContent-Type: application/json\r\n"
               f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n").encode("latin-1") + body
    barrier = threading.Barrier(count)
    outcome: list[str] = []
    connect_seconds: list[float] = []
    lock = threading.Lock()

    def one() -> None:
        barrier.wait()
        start = time.perf_counter()
        try:
            with socket.create_connection(address, timeout=60) as sock:
                took = time.perf_counter() - start
                sock.sendall(request)
                data = b""
                while chunk := sock.recv(65536):
                    data += chunk
            head, _, payload = data.partition(b"\r\n\r\n")
            if not head.startswith(b"HTTP/1.1 200"):
                kind = "refused " + head.split(b"\r\n", 1)[0].decode("latin-1", "replace")
            else:
                kind = "ok" if json.loads(payload) == expected else "wrong answer"
        except ConnectionResetError:
            kind, took = "reset", time.perf_counter() - start
        except (OSError, ValueError) as err:
            kind, took = f"failed {type(err).__name__}", time.perf_counter() - start
        with lock:
            outcome.append(kind)
            connect_seconds.append(took)

    threads = [threading.Thread(target=one) for _ in range(count)]
    start = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    counts: dict[str, int] = {}
    for kind in outcome:
        counts[kind] = counts.get(kind, 0) + 1
    return {"connects": count, "outcomes": counts, "resets": counts.get("reset", 0),
            "slowest_connect_s": round(max(connect_seconds), 3), "seconds": round(time.perf_counter() - start, 3)}


def _in_process(query: dict[str, Any], seconds: float) -> float:
    from manasolver.solver.service.protocol import answer
    done, end = 0, time.perf_counter() + seconds
    start = time.perf_counter()
    while time.perf_counter() < end:
        answer(query)
        done += 1
    return done / (time.perf_counter() - start)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m manasolver.benchmarks.http", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=5.0, help="how long each measurement runs")
    parser.add_argument("--clients", default="1,4", help="client counts to measure, e.g. 1,4")
    parser.add_argument("--connects", type=int, default=128, help="clients connecting at once (0: skip)")
    parser.add_argument("--url", help="a server already running (default: start one)")
    parser.add_argument("--stack", action="store_true", help="measure mana_value instead: the server's own cost")
    parser.add_argument("--fresh", action="store_true", help="send the board with every request, no session")
    args = parser.parse_args(argv)
    from manasolver.benchmarks.boards import commander_board
    from manasolver.solver.service.protocol import answer
    state = commander_board(5)
    server = None
    url = args.url
    if url is None:
        server = subprocess.Popen([sys.executable, "-m", "manasolver.solver.service.cli", "serve", "--port", "0"],
                                  stdout=subprocess.PIPE, text=True)
        assert server.stdout is not None
        url = json.loads(server.stdout.readline())["listening"]
    try:
        query: dict[str, Any] = {"query": "can_pay", "cost": "{2}{G}"}
        local = dict(query)
        if args.stack:
            query = local = {"query": "mana_value", "cost": "{2}{G}"}
        elif args.fresh:
            query["state"] = local["state"] = state
        else:
            opened = post(url, {"query": "open", "state": state})
            query["board"] = opened["board"]
            local["board"] = answer({"query": "open", "state": state})["board"]
        expected = answer(local)
        body = json.dumps(query).encode("utf-8")
        for _ in range(3):  # the server's lazy imports and card data, outside the figure
            post(url, query)
        rate = _in_process(local, min(args.seconds, 2.0))
        print(json.dumps({"query": query if args.stack else {**query, "state": "…"} if args.fresh else query,
                          "in_process_per_second": round(rate, 1), "answer": expected}), flush=True)
        for count in (int(c) for c in args.clients.split(",") if c):
            print(json.dumps(measure(url, count, args.seconds, body, expected)), flush=True)
        if args.connects:
            print(json.dumps(connect_burst(url, args.connects, body, expected)), flush=True)
    finally:
        if server is not None:
            server.terminate()
            server.wait(timeout=30)
    return 0


if __name__ == "__main__":
    sys.exit(main())
