"""The audit under hostile load: the service's promises kept while it is attacked, run by hand with
``python -m manasolver.benchmarks.audit --hostile [CHECKS]``.

Each check starts ``manasolver serve`` (or ``batch``) on a free loopback port, attacks one promise
and says whether it held: sessions of 10 MB boards against ``--session-memory`` (memory stays
under the budget), hostile ``batch`` lines, memory headroom, ``options`` runs against their stage
bound, SIGTERM with requests in flight (each answered or cut short, the exit clean), thousands
of idle and slow connections beside normal clients, and a card file that is a FIFO.  Every check
is bounded and stops its server at the end; the results go to
``benchmarks/results/audit_hostile.md``.  The audit of input shapes is
:mod:`~manasolver.benchmarks.audit`.
"""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from typing import Any

from manasolver.benchmarks.boards import repeated_commander_board

__all__ = ["HOSTILE", "hostile_connections", "hostile_fifo", "hostile_lines", "hostile_memory", "hostile_options",
           "hostile_sessions", "hostile_sigterm", "markdown"]

CLI = [sys.executable, "-m", "manasolver.solver.service.cli"]


def _commander() -> dict[str, Any]:
    """The bundled Commander example board, as the protocol reads it."""
    from manasolver.solver.service.demo import example_state
    state: dict[str, Any] = example_state("commander")
    return state


class _Served:
    """A ``manasolver serve`` subprocess on a free loopback port, always stopped on leaving."""

    def __init__(self, *args: str) -> None:
        self.proc = subprocess.Popen([*CLI, "serve", "--port", "0", *args], stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, text=True)
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        if not line:
            self.stop()
            raise RuntimeError(f"serve did not start: {self.proc.stderr.read() if self.proc.stderr else ''}")
        self.port = int(json.loads(line)["listening"].rstrip("/").rsplit(":", 1)[1])

    def __enter__(self) -> _Served:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def stop(self) -> int:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=60)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        return self.proc.returncode

    def memory(self, field: str = "VmRSS") -> int:
        """The server's resident memory (``VmHWM``: its peak), bytes."""
        with open(f"/proc/{self.proc.pid}/status", encoding="ascii") as fh:
            for line in fh:
                if line.startswith(field + ":"):
                    return int(line.split()[1]) * 1024
        return 0

    def post(self, query: dict[str, Any] | bytes, path: str = "/v1/query", timeout: float = 120) -> tuple[int, Any]:
        import http.client
        body = query if isinstance(query, bytes) else json.dumps(query).encode()
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout)
        try:
            conn.request("POST", path, body, {"Content-Type": "application/json"})
            response = conn.getresponse()
            data = response.read()
            return response.status, json.loads(data) if path != "/v1/batch" else data
        finally:
            conn.close()

    def health(self, timeout: float = 10) -> float | None:
        """Seconds ``GET /healthz`` took, or ``None`` when it was not answered in ``timeout``."""
        import http.client
        start = time.monotonic()
        try:
            conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout)
            conn.request("GET", "/healthz")
            ok = conn.getresponse().status == 200
            conn.close()
        except OSError:
            return None
        return time.monotonic() - start if ok else None


def _ten_mb_board(tag: int) -> dict[str, Any]:
    """A board of about 10 MB inside every limit: 10,000 permanents with long ids and 16 counters."""
    return {"players": [{"name": "you"}, {"name": "opponent"}],
            "battlefield": [{"id": f"{tag}-{i:05d}-" + "x" * 150, "card": ("Forest", "Island", "Sol Ring")[i % 3],
                             "counters": {f"kind{k:02d}" + "y" * 40: k + 1 for k in range(16)}}
                            for i in range(10_000)]}


def hostile_sessions(count: int = 40, budget_mb: int = 256) -> dict[str, Any]:
    """``count`` sessions of 10 MB boards opened on ``serve --session-memory budget_mb``: the
    server's memory above its start stays under the budget plus 200 MB, ``/healthz`` answers."""
    with _Served("--session-memory", str(budget_mb)) as served:
        served.post({"query": "open", "state": _ten_mb_board(-1)})  # the loader's first use, outside
        served.post({"query": "close", "board": "none"})
        base = served.memory()
        peak = 0
        slowest_health = 0.0
        opened = refused = 0
        start = time.monotonic()
        for i in range(count):
            status, got = served.post({"query": "open", "state": _ten_mb_board(i)})
            opened += status == 200 and "board" in got
            refused += "error" in got
            peak = max(peak, served.memory() - base)
            took = served.health()
            slowest_health = max(slowest_health, took if took is not None else float("inf"))
        seconds = time.monotonic() - start
        code = served.stop()
    limit = (budget_mb + 200) << 20
    return {"check": f"{count} sessions of 10 MB boards, --session-memory {budget_mb}", "opened": opened,
            "refused": refused, "peak_growth_mb": round(peak / 2**20), "limit_mb": limit >> 20,
            "slowest_healthz_s": round(slowest_health, 3), "seconds": round(seconds, 1), "exit": code,
            "pass": peak <= limit and slowest_health < 10 and opened == count and code == 0}


def hostile_lines() -> dict[str, Any]:
    """``batch`` with an ``id`` nested 989 deep, a line nested 65 deep and a 150 MB line between
    good ones: each answered in order (the bad ones as errors), exit 0; the peak memory."""
    good = [json.dumps({"query": "mana_value", "cost": "{2}{G}", "id": i}).encode() for i in range(4)]
    deep_id = b'{"query": "mana_value", "cost": "{1}", "id": ' + b"[" * 989 + b"]" * 989 + b"}"
    deep = b'{"query": "mana_value", "cost": "{1}", "x": ' + b"[" * 65 + b"]" * 65 + b"}"
    proc = subprocess.Popen([*CLI, "batch"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert proc.stdin is not None

    def feed() -> None:
        assert proc.stdin is not None
        for line in (good[0], deep_id, good[1], deep, good[2]):
            proc.stdin.write(line + b"\n")
        piece = b'{"query": "mana_value", "cost": "' + b"{1}" * (1 << 20)
        proc.stdin.write(piece)
        for _ in range(150 * 2**20 // len(piece)):
            proc.stdin.write(b"{1}" * (1 << 20))
        proc.stdin.write(b'"}\n' + good[3] + b"\n")
        proc.stdin.close()

    writer = threading.Thread(target=feed)
    start = time.monotonic()
    writer.start()
    peak = 0
    while proc.poll() is None and time.monotonic() - start < 300:
        try:
            with open(f"/proc/{proc.pid}/status", encoding="ascii") as fh:
                peak = max([peak] + [int(x.split()[1]) * 1024 for x in fh if x.startswith("VmHWM:")])
        except OSError:
            break
        time.sleep(0.2)
    writer.join()
    assert proc.stdout is not None and proc.stderr is not None
    out, err = proc.stdout.read(), proc.stderr.read()
    proc.wait(timeout=300)
    answers = [json.loads(x) for x in out.splitlines()]
    ids = [a.get("id") for a in answers]
    bad = [a.get("error", {}).get("code") for a in answers[1::2]]
    return {"check": "batch: 989-deep id, 65-deep query, 150 MB line between good lines", "answers": len(answers),
            "ids": ids, "errors": bad, "peak_mb": round(peak / 2**20), "seconds": round(time.monotonic() - start, 1),
            "exit": proc.returncode, "tracebacks": err.count(b"Traceback"),
            "pass": (proc.returncode == 0 and len(answers) == 7 and ids[0::2] == [0, 1, 2, 3]
                     and bad == ["bad_query"] * 3)}


def hostile_memory(headroom_mb: int = 200) -> dict[str, Any]:
    """``batch`` whose address space is capped ``headroom_mb`` above what it uses once started,
    then a line under the size limit that decodes to more objects than fit (5 million empty
    arrays): that line is answered as an error and the next line is answered."""
    import resource
    proc = subprocess.Popen([*CLI, "batch"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert proc.stdin is not None and proc.stdout is not None and proc.stderr is not None
    try:
        proc.stdin.write(json.dumps({"query": "mana_value", "cost": "{2}", "id": 0}).encode() + b"\n")
        proc.stdin.flush()
        first = json.loads(proc.stdout.readline())
        with open(f"/proc/{proc.pid}/status", encoding="ascii") as fh:
            size = next(int(x.split()[1]) * 1024 for x in fh if x.startswith("VmSize:"))
        cap = size + (headroom_mb << 20)
        resource.prlimit(proc.pid, resource.RLIMIT_AS, (cap, cap))
        heavy = b'{"query": "mana_value", "cost": "{1}", "id": 1, "x": [' + b"[]," * 5_000_000 + b"[]]}"
        start = time.monotonic()
        proc.stdin.write(heavy + b"\n" + json.dumps({"query": "mana_value", "cost": "{3}", "id": 2}).encode() + b"\n")
        proc.stdin.close()
        rest = [json.loads(x) for x in proc.stdout.read().splitlines()]
        err = proc.stderr.read()
        proc.wait(timeout=120)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    answers = [first, *rest]
    return {"check": f"batch capped {headroom_mb} MB above its size, a 15 MB line of 5 million arrays",
            "answers": answers, "seconds": round(time.monotonic() - start, 1), "exit": proc.returncode,
            "tracebacks": err.count(b"Traceback"),
            "pass": (proc.returncode == 0 and len(answers) == 3
                     and answers[1].get("error", {}).get("code") == "bad_query"
                     and answers[2].get("mana_value") == 3)}


def _rocks(n: int = 200) -> dict[str, Any]:
    cards = ["Urza's Tower", "Fellwar Stone", "Azorius Signet", "Boros Signet", "Orzhov Signet", "Rugged Prairie",
             "Basalt Monolith", "Sol Ring"]
    return {"players": [{"name": "you"}, {"name": "opponent"}],
            "battlefield": [{"id": f"p{i}", "card": cards[i % len(cards)]} for i in range(n)]}


def hostile_options(runs: int = 10) -> dict[str, Any]:
    """``options`` on 200 permanents of Urza's Tower, Fellwar Stone, Signets, Rugged Prairie, Basalt
    Monolith and Sol Ring, ``runs`` times through a server, then four at once beside a light query:
    each within the options bound (3 s) plus 1 s."""
    from manasolver.solver.pools.options import DEFAULT_BUDGET
    query = {"query": "options", "state": _rocks()}
    times: list[float] = []
    with _Served() as served:
        served.post({"query": "options", "state": _rocks(20)})
        for _ in range(runs):
            start = time.monotonic()
            served.post(query)
            times.append(time.monotonic() - start)
        together: list[float] = []

        def one() -> None:
            start = time.monotonic()
            served.post(query)
            together.append(time.monotonic() - start)

        threads = [threading.Thread(target=one) for _ in range(4)]
        for thread in threads:
            thread.start()
        time.sleep(0.3)
        start = time.monotonic()
        served.post({"query": "can_pay", "state": _commander(), "cost": "{2}{G}"})
        light = time.monotonic() - start
        for thread in threads:
            thread.join()
    limit = DEFAULT_BUDGET + 1.0
    return {"check": f"options on 200 rocks/Signets/filter lands, {runs} runs, then 4 at once",
            "seconds": [round(t, 2) for t in times], "within": sum(t <= limit for t in times),
            "four_at_once_s": [round(t, 2) for t in sorted(together)], "light_query_beside_s": round(light, 2),
            "limit_s": limit, "pass": all(t <= limit for t in times)}


def _read_answer(conn: Any, results: list[Any]) -> None:
    """The answer on ``conn`` (status, decoded body), or the exception that lost it, into ``results``."""
    try:
        response = conn.getresponse()
        results.append((response.status, json.loads(response.read())))
    except Exception as err:  # noqa: BLE001 - a dropped request is what is counted
        results.append(err)


def hostile_sigterm(trials: int = 10, requests: int = 8) -> dict[str, Any]:
    """SIGTERM to ``serve --grace 1`` with ``requests`` max_x queries in flight (CP-SAT), ``trials``
    times: every request answered, exit 0."""
    import http.client
    board = repeated_commander_board()
    board["battlefield"] = board["battlefield"][:150]
    body = json.dumps({"query": "max_x", "state": board, "cost": "{X}{G}"}).encode()
    dropped = answered = cut = 0
    codes: list[int] = []
    seconds: list[float] = []
    for _ in range(trials):
        with _Served("--grace", "1") as served:
            conns = [http.client.HTTPConnection("127.0.0.1", served.port, timeout=120) for _ in range(requests)]
            for conn in conns:
                conn.request("POST", "/v1/query", body, {"Content-Type": "application/json"})
            results: list[Any] = []

            threads = [threading.Thread(target=_read_answer, args=(c, results)) for c in conns]
            for thread in threads:
                thread.start()
            time.sleep(0.5)
            start = time.monotonic()
            served.proc.send_signal(signal.SIGTERM)
            for thread in threads:
                thread.join(timeout=120)
            code = served.proc.wait(timeout=120)
            seconds.append(time.monotonic() - start)
            codes.append(code)
            ok = [r for r in results if isinstance(r, tuple) and r[0] == 200]
            answered += len(ok)
            dropped += requests - len(ok)
            cut += sum(1 for _, got in ok if "max_x" not in got or got.get("time_bound"))
    return {"check": f"SIGTERM with {requests} max_x requests in flight, {trials} trials, --grace 1",
            "answered": answered, "dropped": dropped, "cut_short_by_the_grace": cut, "exit_codes": codes,
            "stop_seconds": [round(s, 1) for s in seconds],
            "pass": dropped == 0 and all(c == 0 for c in codes)}


def hostile_connections(idle: int = 2000, slow: int = 300, normal: int = 20) -> dict[str, Any]:
    """``idle`` connections that send nothing and ``slow`` that send a request head a byte a
    second, then a normal client asks ``normal`` queries; a 16 MB chunked body in 2-byte chunks."""
    import socket
    query = json.dumps({"query": "can_pay", "state": _commander(), "cost": "{2}{G}"}).encode()
    with _Served("--timeout", "30") as served:
        served.post(query)
        base = served.memory()
        socks: list[socket.socket] = []
        for _ in range(idle):
            socks.append(socket.create_connection(("127.0.0.1", served.port), timeout=10))
        slow_socks = [socket.create_connection(("127.0.0.1", served.port), timeout=10) for _ in range(slow)]
        head = b"POST /v1/query HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        stop = threading.Event()

        def trickle() -> None:
            at = 0
            while not stop.is_set() and at < len(head):
                for s in slow_socks:
                    try:
                        s.send(head[at:at + 1])
                    except OSError:
                        pass
                at += 1
                stop.wait(1.0)

        trickler = threading.Thread(target=trickle)
        trickler.start()
        time.sleep(1.0)
        ok = 0
        latencies: list[float] = []
        for _ in range(normal):
            start = time.monotonic()
            try:
                status, got = served.post(query, timeout=30)
                ok += status == 200 and "payable" in got
            except OSError:
                pass
            latencies.append(time.monotonic() - start)
        stop.set()
        trickler.join()
        held = served.memory() - base
        for s in socks + slow_socks:
            s.close()
        # a 16 MB body in 2-byte chunks
        body = b'{"query": "mana_value", "cost": "{1}", "id": "' + b"x" * (16 * 2**20 - 60) + b'"}'
        chunked = b"".join(b"2\r\n" + body[i:i + 2] + b"\r\n" for i in range(0, len(body), 2)) + b"0\r\n\r\n"
        before = served.memory("VmHWM")
        start = time.monotonic()
        with socket.create_connection(("127.0.0.1", served.port), timeout=120) as s:
            s.sendall(head + b"Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n" + chunked)
            reply = b""
            while chunk := s.recv(65536):
                reply += chunk
        chunk_seconds = time.monotonic() - start
        peak = served.memory("VmHWM")
        del chunked
        code = served.stop()
    status_line = reply.split(b"\r\n", 1)[0].decode("latin-1")
    return {"check": (f"{idle} idle + {slow} slow-header connections, then a normal client; "
                      "16 MB chunked in 2-byte chunks"),
            "normal_answered": f"{ok}/{normal}", "slowest_normal_s": round(max(latencies), 3),
            "memory_held_by_connections_mb": round(held / 2**20),
            "chunked_status": status_line, "chunked_seconds": round(chunk_seconds, 1),
            "chunked_peak_mb": round(peak / 2**20), "peak_before_chunked_mb": round(before / 2**20), "exit": code,
            "pass": ok == normal and peak < 300 * 2**20 and status_line.startswith("HTTP/1.1 200")}


def hostile_fifo() -> dict[str, Any]:
    """``batch`` with a query whose ``cards`` names a FIFO: refused at once, the next line answered."""
    import os
    import tempfile
    with tempfile.TemporaryDirectory() as folder:
        fifo = os.path.join(folder, "cards.jsonl")
        os.mkfifo(fifo)
        lines = [{"query": "mana_value", "card": "Forest", "cards": fifo, "id": 1},
                 {"query": "mana_value", "cost": "{2}", "id": 2}]
        start = time.monotonic()
        proc = subprocess.run([*CLI, "batch"], input="".join(json.dumps(q) + "\n" for q in lines),
                              capture_output=True, text=True, timeout=60, check=False)
        took = time.monotonic() - start
    answers = [json.loads(x) for x in proc.stdout.splitlines()]
    return {"check": "batch: a cards path naming a FIFO", "seconds": round(took, 2),
            "answers": answers, "exit": proc.returncode,
            "pass": len(answers) == 2 and "FIFO" in answers[0]["error"]["message"] and answers[1]["mana_value"] == 2}


HOSTILE: dict[str, Callable[[], dict[str, Any]]] = {
    "sessions": hostile_sessions, "lines": hostile_lines, "memory": hostile_memory, "options": hostile_options,
    "sigterm": hostile_sigterm,
    "connections": hostile_connections, "fifo": hostile_fifo,
}


def markdown(results: list[dict[str, Any]]) -> str:
    from manasolver.benchmarks.machine import machine
    lines = ["# Audit: hostile load", "",
             ("`python -m manasolver.benchmarks.audit --hostile`; machine: "
              + ", ".join(f"{k} {v}" for k, v in machine().items() if k != "versions") + "."), "",
             ("Every check is bounded and stops by itself; servers are started on a free loopback port and "
              "stopped at the end of their check."), ""]
    for result in results:
        lines += [f"## {result['check']}: {'pass' if result['pass'] else '**fail**'}", ""]
        lines += [f"- {k}: {v}" for k, v in result.items() if k not in ("check", "pass")]
        lines.append("")
    return "\n".join(lines)
