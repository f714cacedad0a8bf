"""Concurrent clients against a real ``manasolver serve`` subprocess: several clients on
keep-alive connections send valid and hostile queries at once; every request is answered, each
answer equal to the same query answered in process one at a time (unless a bound decided it), and
the server's standard error holds no traceback."""

from __future__ import annotations

import http.client
import json
import random
import subprocess
import sys
import tempfile
import threading
from pathlib import Path
from typing import Any

from fuzzing import CARDS, LONG, check_answer, cut_short

from manasolver.solver.service.demo import example_state
from manasolver.solver.service.protocol import QUERIES, answer

CLIENTS = 16 if LONG else 4
ROUNDS = 8 if LONG else 1


def _queries() -> list[bytes]:
    rng = random.Random(11)
    out: list[dict[str, Any] | str] = []
    for _ in range(40 if LONG else 6):
        board = {"players": [{"name": "you"}, {"name": "opponent"}],
                 "battlefield": [{"id": f"p{i}", "card": rng.choice(CARDS)} for i in range(rng.randint(0, 25))]}
        kind = rng.choice(["pay", "can_pay", "payments", "options", "could_produce", "max_x"])
        query = {"query": kind, "state": board, "limit": 3,
                 "cost": "{X}" if kind == "max_x" else rng.choice(["{G}", "{2}{U}", "{W}{U}{B}{R}{G}", "{X}{R}"])}
        out.append({k: v for k, v in query.items() if k in QUERIES[kind] | {"query"}})
    out.append({"query": "pay", "state": example_state("commander"), "cost": "{2/W}" * (500 if LONG else 40)})
    out.append('{"query": "pay", "state": {"players": [{"name": "you"}], "battlefield": [[[[')
    out.append('{"query": "can_pay", "cost": "{G}", "state": {"players": [{"name": "\\udc00"}]}}')
    out.append({"query": "pay", "state": example_state("commander"), "cost": "{G}",
                "policy": {"spend_color": {"G": 10**30}}})
    return [json.dumps(q).encode() if not isinstance(q, str) else q.encode() for q in out]


def _in_process(body: bytes) -> dict[str, Any]:
    from manasolver.solver.service.protocol import answer_line
    return answer_line(body)


def test_concurrent_clients_against_serve(tmp_path: Path) -> None:
    bodies = _queries()
    serial = [_in_process(b) for b in bodies]
    stderr = tempfile.NamedTemporaryFile("w+", suffix=".stderr", delete=False, dir=tmp_path)
    proc = subprocess.Popen([sys.executable, "-m", "manasolver.solver.service.cli", "serve", "--port", "0"],
                            stdout=subprocess.PIPE, stderr=stderr, text=True)
    try:
        assert proc.stdout is not None
        line = json.loads(proc.stdout.readline())
        port = int(line["listening"].rsplit(":", 1)[1].strip("/"))
        results: list[list[tuple[int, int, dict[str, Any]]]] = [[] for _ in range(CLIENTS)]

        def client(c: int) -> None:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
            order = list(range(len(bodies))) * ROUNDS
            random.Random(c).shuffle(order)
            for i in order:
                conn.request("POST", "/v1/query", body=bodies[i], headers={"Content-Type": "application/json"})
                response = conn.getresponse()
                results[c].append((i, response.status, json.loads(response.read())))
            conn.close()

        threads = [threading.Thread(target=client, args=(c,)) for c in range(CLIENTS)]
        for th in threads:
            th.start()
        for th in threads:
            th.join(timeout=900)
        for c in range(CLIENTS):
            assert len(results[c]) == len(bodies) * ROUNDS, f"client {c} got {len(results[c])} answers"
            for i, status, result in results[c]:
                check_answer({}, result, validate=False)
                assert status in (200, 400, 422), (status, result)
                if "error" in result or "error" in serial[i]:  # the HTTP front end names the body
                    assert result["error"]["code"] == serial[i]["error"]["code"], (result, serial[i])
                elif not cut_short(result) and not cut_short(serial[i]):
                    assert result == serial[i], (bodies[i][:120], result, serial[i])
    finally:
        proc.terminate()
        proc.wait(timeout=30)
    errors = Path(stderr.name).read_text()
    assert "Traceback" not in errors, errors[-3000:]
    check_answer({}, answer({"query": "counts", "state": example_state("basics")}))
