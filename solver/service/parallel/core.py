"""The runners' shape and what they share: :class:`Runner`, the in-process :class:`Serial`, the
error :class:`ParallelError`, and :func:`in_order` and :func:`each_in_order`, which stream tasks through a
runner with a bounded window in flight and give their results back in task order."""

from __future__ import annotations

import threading
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from queue import Queue
from typing import Any, Protocol, TypeVar

__all__ = ["Future", "ParallelError", "Runner", "Serial", "each_in_order", "in_order", "window_of"]

T = TypeVar("T")
R = TypeVar("R", covariant=True)


class ParallelError(Exception):
    """A runner that can't run: a scheduler that can't be reached, a cluster without workers, a
    missing extra (``usage``: the option is at fault, exit status 2), or a run that broke off (a task
    that failed on every worker it was given to).  ``where`` names the option."""

    def __init__(self, message: str, where: str, usage: bool = False) -> None:
        super().__init__(message)
        self.message = message
        self.where = where
        self.usage = usage


class Future(Protocol[R]):
    def result(self) -> R: ...

    def cancel(self) -> Any: ...


class Runner(Protocol):
    """Where tasks run: :class:`Serial`, :class:`~.local.Local` or :class:`~.cluster.Cluster`."""

    #: How many tasks run at the same time.
    slots: int

    def submit(self, fn: Callable[..., T], *args: Any) -> Future[T]: ...

    def close(self) -> None: ...


class _Done:
    """The future of a task already run."""

    __slots__ = ("_value",)

    def __init__(self, value: Any) -> None:
        self._value = value

    def result(self) -> Any:
        return self._value

    def cancel(self) -> bool:
        return False


class Serial:
    """Tasks run in this process, each when it is submitted."""

    slots = 1

    def submit(self, fn: Callable[..., T], *args: Any) -> Future[T]:
        return _Done(fn(*args))

    def close(self) -> None:
        pass


def in_order(runner: Runner, fn: Callable[..., T], tasks: Iterable[tuple[Any, ...]],
             window: int | None = None) -> Iterator[T]:
    """``fn(*task)`` for each task, in task order, with at most ``window`` tasks submitted and not
    yet taken back (default: :func:`window_of` the runner)."""
    limit = window_of(runner, window)
    pending: deque[Future[T]] = deque()
    try:
        for task in tasks:
            pending.append(runner.submit(fn, *task))
            if len(pending) >= limit:
                yield pending.popleft().result()
        while pending:
            yield pending.popleft().result()
    finally:
        for future in pending:
            future.cancel()


def each_in_order(runner: Runner, fn: Callable[..., T], tasks: Iterable[tuple[Any, ...]],
                  sink: Callable[[T], object], window: int | None = None) -> None:
    """``sink(fn(*task))`` for each task, in task order, with at most ``window`` tasks in flight.

    This thread reads ``tasks`` and submits them; ``sink`` runs in a thread of its own as soon as a
    result and those before it are done, so results go out even while the next task is still being
    read (a ``batch`` whose standard input has not ended).  An error of ``sink`` or of a task stops
    the reading and is raised here.  In this process (:class:`Serial`) it is a plain loop."""
    if isinstance(runner, Serial):
        for task in tasks:
            sink(fn(*task))
        return
    queue: Queue[Future[T] | None] = Queue(maxsize=window_of(runner, window))
    failed: list[BaseException] = []

    def drain() -> None:
        while True:
            future = queue.get()
            if future is None:
                return
            if failed:
                future.cancel()
                continue
            try:
                sink(future.result())
            except BaseException as err:  # noqa: BLE001 - raised in the reading thread
                failed.append(err)

    writer = threading.Thread(target=drain, name="manasolver-results", daemon=True)
    writer.start()
    try:
        for task in tasks:
            if failed:
                break
            queue.put(runner.submit(fn, *task))
    finally:
        queue.put(None)
        writer.join()
    if failed:
        raise failed[0]


def window_of(runner: Runner, window: int | None = None) -> int:
    """The tasks in flight: ``window``, or twice the runner's slots and two more, so that no slot
    waits while the parent takes a result back."""
    return max(1, window if window is not None else 2 * runner.slots + 2)
