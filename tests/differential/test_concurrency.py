"""The same answers from many threads as from one, and from warm caches as from cold ones.

no input may "make it answer wrongly without saying so"; ``serve`` answers each request
in its own thread, so two requests about one board run at once.  The engine keeps caches keyed
by object identity and by board content (supplies, the fast optimiser's searches, announcement
tables); a cache shared between threads must hold only values nobody changes, and what a query
changes while it runs (the fast optimiser's incumbent and modes) must be its thread's own.

* :func:`test_threads_answer_as_one_thread`: mixed ``pay``, ``can_pay``, ``max_x``, ``options``
  and ``payments`` queries on the bundled example boards and on benchmark boards of real cards,
  answered from 8 threads many times over; every answer equals (as JSON) the serial answer,
  unless it says a time bound decided it (on a loaded machine a bound may be reached).
* :func:`test_cache_reuse_across_boards`: random small boards of real cards asked in a random
  interleaving, each answer equal to the answer of a cold start (every cache emptied first),
  unless one of the two says a bound decided it.
* :func:`test_memo_lookups_racing_clears`: the memo utilities under lookups, stores and clears
  from several threads: a hit is always the value stored for that very object.
"""

from __future__ import annotations

import functools
import json
import sys
import threading
import time
from collections.abc import Iterator
from importlib import resources
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from manasolver.benchmarks import boards
from manasolver.models._memo import IdentityMemo, KeyMemo
from manasolver.solver.backends.fastopt.search import clear_searches
from manasolver.solver.service.protocol import answer

THREADS = 8
ROUNDS = 4


def _example(name: str) -> dict[str, Any]:
    text = resources.files("manasolver.solver.service").joinpath(f"examples/{name}.json").read_text()
    board: dict[str, Any] = json.loads(text)
    return board


def _queries() -> list[dict[str, Any]]:
    """Mixed payment queries whose answers no time bound decides (each is quick alone)."""
    out: list[dict[str, Any]] = []
    commander = _example("commander")
    for cost in ("{2}{G}{U}", "{W}{U}{B}{R}{G}", "{3}{B}{B}", "{1}{R}", "{4}{U}{U}", "{8}{G}{G}{G}"):
        out.append({"query": "pay", "state": commander, "cost": cost})
        out.append({"query": "can_pay", "state": commander, "cost": cost})
    out.append({"query": "max_x", "state": commander, "cost": "{X}{G}{G}"})
    out.append({"query": "pay", "state": commander, "cost": "{X}{R}", "x": 3})
    for name, cost in (("basics", "{W}{U}{B}{R}{G}"), ("filters", "{W}{W}{U}"), ("phyrexian", "{1}{B/P}{B/P}"),
                       ("reaper", "{2/W}{2/U}{2/B}{2/R}{2/G}"), ("pools", "{1}{U}")):
        board = _example(name)
        out.append({"query": "pay", "state": board, "cost": cost})
        out.append({"query": "can_pay", "state": board, "cost": cost})
        out.append({"query": "max_x", "state": board, "cost": "{X}"})
        out.append({"query": "payments", "state": board, "cost": "{1}", "limit": 20})
        out.append({"query": "options", "state": board, "limit": 20})
    for seed in range(3):
        board = boards.commander_board(seed)
        for cost in boards.costs_for(seed, 3):
            out.append({"query": "pay", "state": board, "cost": cost})
            out.append({"query": "can_pay", "state": board, "cost": cost})
        small = boards.small_board(seed)
        out.append({"query": "pay", "state": small, "cost": boards.tight_cost(small, seed)})
        out.append({"query": "payments", "state": small, "cost": "{2}", "limit": 30})
        out.append({"query": "options", "state": small, "limit": 30})
    return out


def _flagged(got: str, expected: str) -> bool:
    """Does ``got`` say a bound decided it (``time_bound``, ``bounded``, a cut-short list that the
    expected answer completed)?  Such an answer may differ on a loaded machine, and says so."""
    return ('"time_bound": true' in got or '"bounded": true' in got or "time bound" in got
            or ('"complete": false' in got and '"complete": true' in expected))


def _slow_free(queries: list[dict[str, Any]]) -> list[tuple[dict[str, Any], str]]:
    """The queries with their serial answers, keeping only those answered well inside every
    time bound (an answer a bound decided may differ under load, and says so)."""
    kept = []
    for q in queries:
        start = time.perf_counter()
        got = json.dumps(answer(q), sort_keys=True)
        if time.perf_counter() - start < 0.25 and "time bound" not in got and '"bounded"' not in got:
            kept.append((q, got))
    return kept


@pytest.fixture
def fast_switching() -> Iterator[None]:
    """Threads switched every microsecond, so that races show up in a short run."""
    before = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    try:
        yield
    finally:
        sys.setswitchinterval(before)


def test_threads_answer_as_one_thread(fast_switching: None) -> None:
    """8 threads asking the same mixed queries give every time the serial answer (json equal)."""
    work = _slow_free(_queries())
    assert len(work) >= 40, "too few quick queries to race"
    differ: list[tuple[int, str, str]] = []
    failed: list[BaseException] = []
    lock = threading.Lock()
    start = threading.Barrier(THREADS)

    def run(offset: int) -> None:
        try:
            start.wait()
            for r in range(ROUNDS):
                for k in range(len(work)):
                    i = (k + offset * 7 + r) % len(work)  # threads meet on the same board
                    q, serial = work[i]
                    got = json.dumps(answer(q), sort_keys=True)
                    if got != serial and not _flagged(got, serial):
                        with lock:
                            differ.append((i, serial, got))
        except BaseException as err:  # noqa: BLE001 - reported below
            failed.append(err)

    threads = [threading.Thread(target=run, args=(t,)) for t in range(THREADS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not failed, failed
    total = THREADS * ROUNDS * len(work)
    assert not differ, (f"{len(differ)} of {total} answers differ from the serial ones; first: "
                        f"query {work[differ[0][0]][0]['query']} {work[differ[0][0]][0].get('cost')}: "
                        f"{differ[0][1][:300]} != {differ[0][2][:300]}")


# -- cache reuse across boards ----------------------------------------------------------------

def _clear_caches() -> None:
    """Empty every cache of the package, as in a fresh process: the module-level memos, the
    ``lru_cache`` functions, and this thread's fast-optimiser searches."""
    for name, module in list(sys.modules.items()):
        if not name.startswith("manasolver.") or module is None:
            continue
        for value in list(vars(module).values()):
            if isinstance(value, (IdentityMemo, KeyMemo)):
                value.clear()
            elif isinstance(value, functools._lru_cache_wrapper):
                value.cache_clear()
    clear_searches()


CARDS = boards.BASICS + tuple(sorted(boards.DUALS)) + boards.PAIN_LANDS[:3] + boards.FILTER_LANDS[:2] + \
    boards.SIGNETS[:2] + boards.DORKS[:3] + ("Sol Ring", "Command Tower", "Reflecting Pool", "Treasure")


@st.composite
def small_boards(draw: st.DrawFn) -> dict[str, Any]:
    names = draw(st.lists(st.sampled_from(CARDS), min_size=1, max_size=7))
    perms = []
    for i, name in enumerate(names):
        fields: dict[str, Any] = {}
        if draw(st.booleans()) and draw(st.booleans()):
            fields["tapped"] = True
        if name == "Treasure":
            fields["token"] = True
        perms.append(boards.permanent(f"p{i}", name, **fields))
    return {"players": [{"name": "you", "life": draw(st.integers(0, 6))}, {"name": "opponent"}],
            "battlefield": perms}


COSTS = ("{G}", "{1}{U}", "{W}{B}", "{2}{R}{G}", "{C}", "{X}{G}", "{U/P}", "{2/W}{B}", "{3}")


@st.composite
def interleavings(draw: st.DrawFn) -> list[dict[str, Any]]:
    bs = draw(st.lists(small_boards(), min_size=2, max_size=3))
    out = []
    for _ in range(draw(st.integers(3, 10))):
        board = bs[draw(st.integers(0, len(bs) - 1))]
        kind = draw(st.sampled_from(("pay", "can_pay", "max_x", "payments", "options")))
        q: dict[str, Any] = {"query": kind, "state": board}
        if kind != "options":
            q["cost"] = draw(st.sampled_from(COSTS))
        if kind in ("payments", "options"):
            q["limit"] = 10
        out.append(q)
    return out


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(interleavings())
def test_cache_reuse_across_boards(queries: list[dict[str, Any]]) -> None:
    """Asked one after another with the caches warm, every answer is the cold start's."""
    warm = [json.dumps(answer(q), sort_keys=True) for q in queries]
    for q, got in zip(queries, warm):
        _clear_caches()
        cold = json.dumps(answer(q), sort_keys=True)
        if _flagged(got, cold) or _flagged(cold, got):
            continue  # a bound decided one of them, and it says so
        assert got == cold, f"{q}: warm {got[:300]} != cold {cold[:300]}"


# -- the memo utilities -----------------------------------------------------------------------

class _Box:
    __slots__ = ("n",)

    def __init__(self, n: int) -> None:
        self.n = n


def test_memo_lookups_racing_clears(fast_switching: None) -> None:
    """Lookups racing stores and clears never raise and never return another object's value."""
    ident: IdentityMemo[_Box, int] = IdentityMemo(limit=16)
    keyed: KeyMemo[tuple[int, int], int] = KeyMemo(limit=16)
    wrong: list[str] = []
    stop = time.perf_counter() + 1.0

    def churn(seed: int) -> None:
        n = 0
        while time.perf_counter() < stop:
            n += 1
            box = _Box(seed * 10**9 + n)  # short-lived: ids are reused by later boxes
            ident.put(box, box.n)
            keyed.put((id(box), 1), box, box.n)
            for _ in range(3):
                a = ident.get(box)
                if a is not None and a != box.n:
                    wrong.append(f"identity memo: {a} for {box.n}")
                b = keyed.get((id(box), 1), box)
                if b is not None and b != box.n:
                    wrong.append(f"key memo: {b} for {box.n}")
                if ident.get_or(box, lambda bx: bx.n) != box.n:
                    wrong.append("get_or")
            if n % 5 == 0:
                ident.clear()
                keyed.clear()

    threads = [threading.Thread(target=churn, args=(t,)) for t in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not wrong, wrong[:5]
