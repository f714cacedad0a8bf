"""``--workers N``: tasks run in N local worker processes (:class:`~concurrent.futures.ProcessPoolExecutor`),
each process started once for the whole run and warmed once (the card database loaded) before its
first task.  The workers are forked where the system can, all of them when the runner is made, before
the parent starts any thread of its own (a fork copies a process with other threads mid-step); then the
parent warms itself once before the fork and every worker starts with what it loaded.  Elsewhere each
worker process warms itself as it starts.
"""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import Future as _Future
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from multiprocessing import get_all_start_methods, get_context
from typing import Any, TypeVar

from manasolver.solver.service.parallel.core import ParallelError

__all__ = ["Local"]

T = TypeVar("T")


class _Checked:
    """A local future whose broken pool (a worker process killed) is a :class:`ParallelError`."""

    __slots__ = ("_future",)

    def __init__(self, future: _Future[Any]) -> None:
        self._future = future

    def result(self) -> Any:
        try:
            return self._future.result()
        except BrokenProcessPool:
            raise ParallelError("a local worker process ended before its task was done (killed, or out "
                                "of memory); nothing was written for the lines after it", "--workers") from None

    def cancel(self) -> bool:
        return self._future.cancel()


def _ready() -> None:
    """The empty task that starts a worker."""


class Local:
    """``workers`` local processes."""

    def __init__(self, workers: int, warm: Callable[[], object] | None = None) -> None:
        self.slots = workers
        fork = "fork" in get_all_start_methods()
        if fork and warm is not None:
            warm()
        self._pool = ProcessPoolExecutor(max_workers=workers, initializer=None if fork else warm,
                                         mp_context=get_context("fork" if fork else None))
        # one empty task per worker: every process is started and warmed now
        for future in [self._pool.submit(_ready) for _ in range(workers)]:
            _Checked(future).result()

    def submit(self, fn: Callable[..., T], *args: Any) -> _Checked:
        return _Checked(self._pool.submit(fn, *args))

    def close(self) -> None:
        self._pool.shutdown(wait=True, cancel_futures=True)
