"""One time budget per query: the deadline every stage of a query reads.

A query's :class:`Deadline` is set when it starts, by :func:`query_budget`: the protocol's
``answer`` opens one around each query, and each payment query of the Python API
(:mod:`~manasolver.solver.queries`) opens one when none is running, so that a query called
inside another (``max_x`` asking ``pay``) shares its caller's.  It lives in a context variable:
one per thread, never shared between two queries.

Every stage takes its time from it: CP-SAT's time limit per stage and per slack model is
at most what is left of the query's budget, the enumeration of ``payments`` and the search of
``options`` stop at it, and a stage that finds the deadline passed does not start.  What a
cut-short stage did not prove is never stated as fact: a payment whose optimality was not
proven says ``time_bound: true``, a list cut short says ``complete: false``, and a REASON
whose search was cut short says ``"proved": false`` (its answer ``time_bound: true``).
Stages whose work grows faster than the input (building CP-SAT's model, whose members with
mana-costing abilities may pay one another: a flow per pair) check the deadline as they go
(:meth:`Deadline.check`): past it they stop with :class:`OutOfTime`, an ``unsupported`` error
saying the time bound came first, which a stage that can answer without them turns into a
flagged answer (a REASON not proved).  Stages whose work is linear in the input (cost
announcement by counts, supply grouping, could-produce over classes, payment writing) are not
cut; the limits of the board schema keep them well inside the budget.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from contextlib import AbstractContextManager, nullcontext
from contextvars import ContextVar, Token
from functools import wraps
from typing import Any, ParamSpec, TypeVar

from manasolver.models.errors import Unsupported

__all__ = ["MARGIN", "QUERY_BUDGET", "Deadline", "OutOfTime", "budgeted", "current", "query_budget", "stop_all"]

#: Seconds a query may take, all of its stages together.  Each stage keeps its own bound inside
#: it (CP-SAT 2 s a stage, the enumeration 2 s, ``options`` 3 s), so a query whose stages each
#: finish inside their own bounds answers as it did with per-stage bounds alone, and one whose
#: stages add up is stopped here.
QUERY_BUDGET = 5.0
#: What an answer may take beyond its budget: the stage running when the deadline passes
#: finishes its step, the answer is written and encoded (documented, not enforced).
MARGIN = 1.0


class OutOfTime(Unsupported):
    """The query's time budget ran out before a stage finished (:meth:`Deadline.check`): an
    ``unsupported`` error whose message says the time bound came first."""

    def __init__(self, stage: str, seconds: float) -> None:
        super().__init__(f"the query's time bound ({seconds:g} s) came before {stage} finished", "")


class Deadline:
    """The end of one query's budget (``time.monotonic`` seconds) and whether the bound cut a
    stage short (:meth:`mark`); a context manager, the running query's deadline (:func:`current`)
    inside its ``with`` (:func:`query_budget` makes it)."""

    __slots__ = ("__weakref__", "cut", "end", "seconds", "solvers", "token")

    #: what :meth:`__enter__` set the running deadline from, for :meth:`__exit__` to set it back
    token: Token[Deadline | None]

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.end = time.monotonic() + seconds
        self.cut = False
        #: the CP-SAT solvers working for this query (:meth:`watch`), stopped by :meth:`stop`
        self.solvers: list[Any] = []

    def left(self) -> float:
        """Seconds left, never negative."""
        return max(0.0, self.end - time.monotonic())

    def within(self, limit: float) -> float:
        """A stage's own bound ``limit``, within what is left of the query's."""
        return min(limit, self.left())

    def expired(self) -> bool:
        """Has the deadline passed?"""
        return time.monotonic() >= self.end

    def extend(self, seconds: float) -> None:
        """Move the deadline ``seconds`` later (time not counted against the query: the
        one-time import of an optimiser library)."""
        self.end += seconds

    def mark(self) -> None:
        """Note that the bound decided part of the answer."""
        self.cut = True

    def watch(self, solver: Any) -> Any:
        """Keep ``solver`` (a CP-SAT solver about to solve for this query) so that :meth:`stop`
        can interrupt it; the solver itself, and stopped at once when the query is already stopped."""
        if len(self.solvers) >= 8:
            del self.solvers[:4]  # the stages before: finished
        self.solvers.append(solver)
        if self.end == float("-inf"):
            solver.stop_search()
        return solver

    def stop(self) -> None:
        """End the query now, from any thread: the deadline has passed for every stage that reads
        it, and CP-SAT's running search is stopped through its own mechanism (``StopSearch``), so
        it returns its best solution so far, unproven (the answer then says ``time_bound``)."""
        self.end = float("-inf")
        for solver in list(self.solvers):
            solver.stop_search()  # a solver not solving yet or any more has nothing to stop: a no-op

    def __enter__(self) -> Deadline:
        """Run as the query's deadline (:func:`current`) until :meth:`__exit__`, stopped at once
        when :func:`stop_all` stops every new query."""
        self.token = _CURRENT.set(self)
        # without the lock (each set operation is atomic): added before _STOPPING is read, and
        # stop_all sets _STOPPING before it copies the set, so one of them stops this deadline
        _RUNNING.add(self)
        if _STOPPING:
            self.stop()
        return self

    def __exit__(self, kind: object, error: object, trace: object) -> None:
        _CURRENT.reset(self.token)
        _RUNNING.discard(self)

    def check(self, stage: str) -> None:
        """Stop ``stage`` (words: "building the CP-SAT model") with :class:`OutOfTime` when the
        deadline has passed, noting that the bound decided the answer."""
        if time.monotonic() >= self.end:
            self.cut = True
            raise OutOfTime(stage, self.seconds)


_CURRENT: ContextVar[Deadline | None] = ContextVar("manasolver_query_deadline", default=None)
#: the deadlines of the queries running now, in every thread (:func:`stop_all`)
_RUNNING: set[Deadline] = set()  # (each taken out when its query's context exits)
#: held by stop_all while it reads _STOPPING and the running deadlines
_RUNNING_LOCK = threading.Lock()


_STOPPING = False


def stop_all(and_new: bool = False) -> int:
    """Stop every query running in this process (:meth:`Deadline.stop`): a server that must exit
    now answers its requests in flight with what their bound allows.  With ``and_new``, every
    query started from now on is stopped as it starts too (the requests still waiting for the
    engine).  The number stopped."""
    global _STOPPING
    with _RUNNING_LOCK:
        _STOPPING = _STOPPING or and_new
        running = list(_RUNNING)
    for deadline in running:
        deadline.stop()
    return len(running)


def current() -> Deadline:
    """The running query's deadline; outside any query, a fresh one of :data:`QUERY_BUDGET`
    (a stage called on its own gets the whole budget)."""
    found = _CURRENT.get()
    return found if found is not None else Deadline(QUERY_BUDGET)


def query_budget(seconds: float | None = None) -> AbstractContextManager[Deadline]:
    """The deadline of a query starting now (``seconds``, default :data:`QUERY_BUDGET`); inside a
    running query, that query's (one budget per query, however its stages nest): a context manager
    whose ``with`` gives the deadline, the running one from ``__enter__`` to ``__exit__``."""
    running = _CURRENT.get()
    if running is not None:
        return nullcontext(running)  # left running when the inner stage's ``with`` ends
    return Deadline(QUERY_BUDGET if seconds is None else seconds)


P = ParamSpec("P")
R = TypeVar("R")


def budgeted(fn: Callable[P, R]) -> Callable[P, R]:
    """``fn`` run inside :func:`query_budget` (a query of the Python API)."""
    @wraps(fn)
    def run(*args: P.args, **kwargs: P.kwargs) -> R:
        if _CURRENT.get() is not None:  # inside a running query: its budget (what query_budget yields)
            return fn(*args, **kwargs)
        with Deadline(QUERY_BUDGET):
            return fn(*args, **kwargs)
    return run
