"""Chunked execution: many independent tasks (chunks of games, chunks of ``batch`` lines) run in this
process, in local worker processes (:mod:`.local`) or on a Dask cluster (:mod:`.cluster`), their
results given back in the order of the tasks.

The three runners share one shape, :class:`Runner`: ``submit(fn, *args)`` gives back a future, and
``slots`` says how many tasks run at once.  :func:`in_order` (a generator) and :func:`each_in_order` (results handed to
a function by a thread of their own, while the next task is read) stream the tasks through a runner
with a bounded window of tasks in flight, so an input of any length is never held in memory whole,
and give each result back in task order.  A task is a pure function of its arguments: a task redone (a Dask worker
lost mid-run) gives the same result, and its result is taken once.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager

from manasolver.solver.service.parallel.core import Future, ParallelError, Runner, Serial, each_in_order, in_order

__all__ = ["Future", "ParallelError", "Runner", "Serial", "each_in_order", "in_order", "open_runner"]


@contextmanager
def open_runner(workers: int = 1, dask: str | None = None,
                warm: Callable[[], object] | None = None) -> Iterator[Runner]:
    """The runner of ``--workers N`` (local processes when N > 1) or ``--dask ADDRESS``, closed after.
    ``warm`` runs once in each local worker process as it starts (loading the card database)."""
    runner: Runner
    if dask is not None:
        from manasolver.solver.service.parallel.cluster import Cluster
        runner = Cluster(dask)
    elif workers > 1:
        from manasolver.solver.service.parallel.local import Local
        runner = Local(workers, warm)
    else:
        runner = Serial()
    try:
        yield runner
    finally:
        runner.close()
