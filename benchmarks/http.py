"""A load measurement of ``manasolver serve`` (SPEC §8's HTTP figure), run by hand:
``python -m manasolver.benchmarks.http [--seconds 5] [--clients 1,4] [--url URL] [--stack]``.

It starts ``manasolver serve --port 0`` (or uses ``--url``), then each client, a process of its
own, sends ``can_pay`` on the bundled Commander board over one kept-alive ``http.client``
connection for the given time; the figure is answered requests per second, beside the same
query answered in process (the engine's share) and the count of failed requests (every answer
is checked against the in-process one).  ``--stack`` asks ``mana_value`` instead, which the
engine answers in microseconds, so that figure is the server's own cost per request.

Measured on the 2 shared cores of the development machine at a load of 7-8 (other work running):
``can_pay {2}{G}`` on the Commander board 71 requests/s from 1 client and 123/s from 4, beside
89/s answered in process (a fresh board each time: the engine's cost dominates); ``--stack``
570-820/s from 1 client and 1,330-1,870/s from 4; no request failed.
"""

from __future__ import annotations

import argparse
import http.client
import json
import multiprocessing
import subprocess
import sys
import time
from typing import Any
from urllib.parse import urlsplit

__all__ = ["main", "measure"]

_QUERY: dict[str, Any] = {"query": "can_pay", "cost": "{2}{G}"}
#: ``--stack``: a query the engine answers in microseconds, so the figure is the server's own cost.
_STACK_QUERY: dict[str, Any] = {"query": "mana_value", "cost": "{2}{G}"}
_stack = False


def _body() -> bytes:
    if _stack:
        return json.dumps(_STACK_QUERY).encode("utf-8")
    from manasolver.solver.demo import example_state
    return json.dumps({**_QUERY, "state": example_state("commander")}).encode("utf-8")


def _client(url: str, seconds: float, expected: bytes, out: Any, stack: bool) -> None:
    global _stack
    _stack = stack
    parts = urlsplit(url)
    conn = http.client.HTTPConnection(parts.hostname or "127.0.0.1", parts.port, timeout=60)
    body, done, failed = _body(), 0, 0
    headers = {"Content-Type": "application/json"}
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        conn.request("POST", "/v1/query", body, headers)
        response = conn.getresponse()
        data = response.read()
        if response.status != 200 or json.loads(data) != json.loads(expected):
            failed += 1
        done += 1
    conn.close()
    out.put((done, failed))


def measure(url: str, clients: int, seconds: float, expected: bytes) -> dict[str, Any]:
    """Requests per second from ``clients`` processes, each on one kept-alive connection."""
    queue: Any = multiprocessing.Queue()
    procs = [multiprocessing.Process(target=_client, args=(url, seconds, expected, queue, _stack)) for _ in range(clients)]
    start = time.perf_counter()
    for proc in procs:
        proc.start()
    results = [queue.get(timeout=seconds + 120) for _ in procs]
    for proc in procs:
        proc.join()
    elapsed = time.perf_counter() - start
    done = sum(r[0] for r in results)
    return {"clients": clients, "requests": done, "failed": sum(r[1] for r in results),
            "requests_per_second": round(done / elapsed, 1)}


def _in_process(seconds: float) -> tuple[float, bytes]:
    from manasolver.solver.protocol import answer
    query = json.loads(_body())
    expected = json.dumps(answer(query)).encode("utf-8")
    done, end = 0, time.perf_counter() + seconds
    start = time.perf_counter()
    while time.perf_counter() < end:
        answer(json.loads(_body()))
        done += 1
    return done / (time.perf_counter() - start), expected


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m manasolver.benchmarks.http", description=__doc__)
    parser.add_argument("--seconds", type=float, default=5.0, help="how long each measurement runs")
    parser.add_argument("--clients", default="1,4", help="client counts to measure, e.g. 1,4")
    parser.add_argument("--url", help="a server already running (default: start one)")
    parser.add_argument("--stack", action="store_true", help="measure mana_value instead: the server's own cost")
    args = parser.parse_args(argv)
    global _stack
    _stack = args.stack
    rate, expected = _in_process(args.seconds)
    print(json.dumps({"in_process_per_second": round(rate, 1), "answer": json.loads(expected)}), flush=True)
    server = None
    url = args.url
    if url is None:
        server = subprocess.Popen([sys.executable, "-m", "manasolver.solver.cli", "serve", "--port", "0"],
                                  stdout=subprocess.PIPE, text=True)
        assert server.stdout is not None
        url = json.loads(server.stdout.readline())["listening"]
    try:
        for count in (int(c) for c in args.clients.split(",")):
            print(json.dumps(measure(url, count, args.seconds, expected)), flush=True)
    finally:
        if server is not None:
            server.terminate()
            server.wait(timeout=30)
    return 0


if __name__ == "__main__":
    sys.exit(main())
