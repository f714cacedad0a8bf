"""Castability and ``batch`` on a real Dask cluster: a ``LocalCluster`` of two worker
processes, one thread each, started once for the module; the command line as a real subprocess with
``--dask tcp://…``.  The same seed gives the same numbers as one process; the same lines the same
answers; a worker process killed mid-run has its chunk redone (the scheduler's story of the task shows
it processed twice) and the answer is still exactly the one-process answer."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from distributed import Client, LocalCluster

from manasolver.benchmarks.boards import costs_for, small_board
from manasolver.models.carddb import default_db
from manasolver.solver.castability.deck import load_deck
from manasolver.solver.castability.run import CHUNK, Options, run
from manasolver.solver.service.parallel.batch import LINES

CLI = [sys.executable, "-m", "manasolver.solver.service.cli"]
DECK = Path(__file__).resolve().parents[2] / "data" / "decks" / "izzet.txt"


@pytest.fixture(scope="module")
def cluster() -> Iterator[tuple[str, Client]]:
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as local, \
            Client(local, set_as_default=False) as client:
        yield local.scheduler_address, client


def one_process(samples: int, seed: int, turns: tuple[int, int]) -> dict[str, Any]:
    return run(load_deck(str(DECK), default_db()), Options(turns=turns, samples=samples, seed=seed))


def castability(*args: str) -> subprocess.Popen[str]:
    return subprocess.Popen([*CLI, "castability", str(DECK), "--json", "--quiet", *args], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)


def finish(proc: subprocess.Popen[Any], timeout: float = 300) -> tuple[Any, Any]:
    out, err = proc.communicate(timeout=timeout)
    text = err if isinstance(err, str) else err.decode("utf-8", "replace")
    assert "Traceback" not in text, text
    assert proc.returncode == 0, text
    return out, err


def same_numbers(a: dict[str, Any], b: dict[str, Any]) -> None:
    assert a["samples"] == b["samples"] and a["seed"] == b["seed"]
    assert a["spells"] == b["spells"]
    assert a["model"] == b["model"]


def kill_a_worker_running_ours(client: Client, proc: subprocess.Popen[Any]) -> list[str]:
    """Kill (SIGKILL) a worker process as soon as it is running one of our chunks, while ``proc``
    still runs; the keys of the chunks it was running."""
    pids = client.run(os.getpid)
    deadline = time.monotonic() + 240
    while time.monotonic() < deadline:
        assert proc.poll() is None, "the run ended before a worker ran one of its chunks"
        for worker, keys in client.processing().items():
            ours = [str(k) for k in keys if str(k).startswith("manasolver-")]
            if ours and worker in pids:
                os.kill(pids[worker], signal.SIGKILL)
                return ours
        time.sleep(0.01)
    raise AssertionError("no chunk of the run was seen running")


def processed_twice(client: Client, keys: list[str]) -> bool:
    """The scheduler's story of ``keys``: one of them went to processing more than once."""
    story = client.run_on_scheduler(
        lambda dask_scheduler: [(str(s[0]), str(s[2])) for s in dask_scheduler.story(*keys)])
    return any(sum(1 for key, to in story if key == k and to == "processing") >= 2 for k in keys)


def test_castability_on_dask_gives_the_numbers_of_one_process(cluster: tuple[str, Client]) -> None:
    address, _ = cluster
    out, _ = finish(castability("--samples", str(5 * CHUNK + 123), "--seed", "9", "--turns", "1-4", "--dask", address))
    same_numbers(json.loads(out), one_process(5 * CHUNK + 123, 9, (1, 4)))


def test_castability_survives_a_worker_killed_mid_run(cluster: tuple[str, Client]) -> None:
    """SIGKILL a worker process while it runs a chunk: the nanny restarts it, the scheduler redoes
    the chunk elsewhere, and the totals are exactly the one-process totals (nothing lost or doubled)."""
    address, client = cluster
    samples = 16 * CHUNK
    proc = castability("--samples", str(samples), "--seed", "4", "--turns", "1-4", "--dask", address)
    killed = kill_a_worker_running_ours(client, proc)
    out, _ = finish(proc)
    assert processed_twice(client, killed)
    same_numbers(json.loads(out), one_process(samples, 4, (1, 4)))
    client.wait_for_workers(2, timeout=120)


def _lines(n: int) -> bytes:
    """``can_pay`` lines on ten-permanent boards, every tenth a ``pay``, every fiftieth not a query
    (bytes that are not UTF-8, or JSON cut short)."""
    costs = costs_for(5, n)
    out = []
    for i in range(n):
        if i % 50 == 7:
            out.append(b'\xff{"query": "can_pay"}\n' if i % 100 == 7 else b'{"query": "pay", \n')
            continue
        query = {"query": "pay" if i % 10 == 3 else "can_pay", "state": small_board(i % 40), "cost": costs[i],
                 "id": i}
        out.append(json.dumps(query).encode() + b"\n")
    return b"".join(out)


#: The batch file of the tests below: six chunks of lines.
DATA = _lines(6 * LINES)


@pytest.fixture(scope="module")
def one_process_answers() -> bytes:
    return batch([], DATA)


def batch(args: list[str], data: bytes) -> bytes:
    proc = subprocess.Popen([*CLI, "batch", *args], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE)
    out, _ = finish_with_input(proc, data)
    return out


def finish_with_input(proc: subprocess.Popen[bytes], data: bytes) -> tuple[bytes, bytes]:
    out, err = proc.communicate(data, timeout=300)
    assert b"Traceback" not in err, err.decode()
    assert proc.returncode == 0, err.decode()
    return out, err


def same_answers(one: bytes, two: bytes) -> None:
    """Line for line the same; an answer cut by the engine's time bound (a loaded machine) need only
    agree on id and payability."""
    a, b = one.splitlines(), two.splitlines()
    assert len(a) == len(b)
    for i, (x, y) in enumerate(zip(a, b)):
        if x != y:
            jx, jy = json.loads(x), json.loads(y)
            assert jx.get("time_bound") or jy.get("time_bound"), f"line {i + 1}: {x[:300]!r} != {y[:300]!r}"
            assert (jx.get("id"), jx.get("payable")) == (jy.get("id"), jy.get("payable"))


def test_batch_on_dask_answers_as_one_process(cluster: tuple[str, Client], one_process_answers: bytes) -> None:
    address, _ = cluster
    two = batch(["--dask", address], DATA)
    same_answers(one_process_answers, two)
    answers = [json.loads(x) for x in two.splitlines()]
    assert "not valid UTF-8" in answers[7]["error"]["message"] and answers[7]["error"]["where"] == "line 8"
    assert "not valid JSON" in answers[57]["error"]["message"]
    session = batch(["--dask", address], b'{"query": "open", "state": {}, "id": 1}\n')
    assert json.loads(session)["error"]["code"] == "bad_query" and b"without --workers or --dask" in session


def test_batch_survives_a_worker_killed_mid_run(cluster: tuple[str, Client], one_process_answers: bytes) -> None:
    address, client = cluster
    data = DATA
    proc = subprocess.Popen([*CLI, "batch", "--dask", address], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE)
    assert proc.stdin is not None
    # two chunks now, so the run is under way when the worker dies (and their answers can't fill
    # the pipe while this write waits); the rest after
    split = len(b"".join(data.splitlines(keepends=True)[: 2 * LINES]))
    proc.stdin.write(data[:split])
    proc.stdin.flush()
    killed = kill_a_worker_running_ours(client, proc)
    out, _ = finish_with_input(proc, data[split:])
    assert processed_twice(client, killed)
    same_answers(one_process_answers, out)
    client.wait_for_workers(2, timeout=120)


def test_castability_dask_usage_errors(cluster: tuple[str, Client]) -> None:
    address, _ = cluster
    both = castability("--workers", "2", "--dask", address)
    _, err = both.communicate(timeout=120)
    assert both.returncode == 2 and "not allowed with" in err
    bad = castability("--dask", "tcp://127.0.0.1")
    out, err = bad.communicate(timeout=120)
    assert bad.returncode == 2 and "Traceback" not in err
    error = json.loads(out)["error"]
    assert error["where"] == "--dask" and "not a scheduler address" in error["message"]
