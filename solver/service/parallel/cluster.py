"""``--dask ADDRESS``: tasks run on a Dask distributed cluster (the package extra ``dask``).

The scheduler at ADDRESS (``tcp://HOST:8786``) is reached within :data:`CONNECT_TIMEOUT` seconds or
the run stops with a clear error; a cluster with no worker is waited for as long, then refused.  Each
task gets a key of its own (the run's and the task's number), so two equal tasks are never merged, and
Dask's own retries redo a task whose worker was lost mid-run: tasks are pure, so the redone task gives
the same result and :func:`~manasolver.solver.service.parallel.in_order` takes it once.  What a worker loads
once (the card database, a deck's board oracle) is cached in the worker process by the task functions
themselves, which needs no worker plugin and survives a worker restarted by its nanny.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
import socket
import uuid
from collections.abc import Callable
from concurrent.futures import CancelledError
from importlib import import_module
from typing import Any, TypeVar

from manasolver.solver.service.parallel.core import ParallelError

__all__ = ["CONNECT_TIMEOUT", "Cluster"]

#: Seconds to reach the scheduler, and to wait for its first worker.
CONNECT_TIMEOUT = 10.0

T = TypeVar("T")

#: The loggers of the client side of Dask distributed, quiet while a :class:`Cluster` is open: what
#: goes wrong (a lost scheduler, its reconnection given up) comes back as a :class:`ParallelError`,
#: not as their tracebacks on standard error.
_QUIET = ("distributed.client", "distributed.utils", "distributed.core", "distributed.comm", "distributed.batched")

#: The address schemes taken: the network transports of Dask distributed.
_SCHEMES = ("tcp", "tls", "ws", "wss")


def _distributed() -> Any:
    """The ``distributed`` package (untyped: its client is used through ``Any``)."""
    return import_module("distributed")


class _Remote:
    """A Dask future whose failures are :class:`ParallelError` answers."""

    __slots__ = ("_future", "_address")

    def __init__(self, future: Any, address: str) -> None:
        self._future = future
        self._address = address

    def result(self) -> Any:
        try:
            return self._future.result()
        except _distributed().KilledWorker as err:
            raise ParallelError(f"--dask {self._address}: a task's workers kept dying while running it "
                                f"({err}); is a worker out of memory?", "--dask") from None
        except (OSError, TimeoutError, CancelledError) as err:
            raise ParallelError(f"--dask {self._address}: lost the scheduler during the run "
                                f"({type(err).__name__}: {err})", "--dask") from None

    def cancel(self) -> None:
        self._future.cancel()


def _reach(address: str, timeout: float) -> None:
    """Refuse, with a :class:`ParallelError`, an ADDRESS that is malformed, that nothing answers
    within ``timeout`` seconds, or whose answer is not a Dask scheduler's, before a client is made."""
    comm = import_module("distributed.comm")
    try:
        scheme, location = comm.parse_address(address)
        if scheme not in _SCHEMES:
            raise ValueError(f"the scheme {scheme!r} is not one of {', '.join(_SCHEMES)}")
        host, port = comm.parse_host_port(location)
    except ValueError as err:
        raise ParallelError(f"--dask {address!r} is not a scheduler address such as tcp://HOST:8786 ({err})",
                            "--dask", usage=True) from None
    try:
        socket.create_connection((host, port), timeout=timeout).close()
    except OSError as err:
        raise ParallelError(f"--dask {address}: can't connect to {host}:{port} "
                            f"({err.strerror or type(err).__name__}); is a Dask scheduler running there "
                            f"(dask scheduler --port {port})?", "--dask", usage=True) from None
    if scheme != "tcp":
        return

    async def identity() -> Any:
        link = await comm.connect(address, timeout=timeout)
        try:
            await link.write({"op": "identity"})
            return await asyncio.wait_for(link.read(), timeout)
        finally:
            link.abort()

    try:
        reply = asyncio.run(asyncio.wait_for(identity(), timeout + 1))
    except Exception as err:  # noqa: BLE001 - whatever answered, it is not a scheduler we can use
        reply = f"its reply could not be read: {type(err).__name__}"
    if not (isinstance(reply, dict) and reply.get("type") == "Scheduler"):
        raise ParallelError(f"--dask {address}: what answers there is not a Dask scheduler ({str(reply)[:200]})",
                            "--dask", usage=True)


class Cluster:
    """A client of the Dask scheduler at ``address``."""

    def __init__(self, address: str, timeout: float = CONNECT_TIMEOUT) -> None:
        try:
            client = _distributed().Client
        except ImportError:
            raise ParallelError("--dask needs Dask distributed: pip install 'manasolver[dask]'", "--dask",
                                usage=True) from None
        self.address = address
        _reach(address, timeout)
        self._levels = {name: logging.getLogger(name).level for name in _QUIET}
        for name in _QUIET:
            logging.getLogger(name).setLevel(logging.CRITICAL + 1)
        try:
            self._client: Any = client(address, timeout=timeout, set_as_default=False)
        except (OSError, TimeoutError, ValueError, TypeError) as err:
            self._loud()
            raise ParallelError(f"--dask {address!r}: can't reach a Dask scheduler there within {timeout:g} s "
                                f"({type(err).__name__}: {err})", "--dask", usage=True) from None
        try:
            self._client.wait_for_workers(1, timeout=timeout)
        except (OSError, TimeoutError) as err:
            self.close()
            raise ParallelError(f"--dask {address}: the scheduler has no worker after {timeout:g} s "
                                f"(start some with: dask worker {address}) ({type(err).__name__})",
                                "--dask", usage=True) from None
        self.slots = max(1, sum(self._client.nthreads().values()))
        self._prefix = f"manasolver-{uuid.uuid4().hex[:12]}"
        self._numbers = itertools.count()

    def submit(self, fn: Callable[..., T], *args: Any) -> _Remote:
        key = f"{self._prefix}-{getattr(fn, '__name__', 'task')}-{next(self._numbers)}"
        return _Remote(self._client.submit(fn, *args, key=key, pure=False), self.address)

    def close(self) -> None:
        try:
            self._client.close()
        except (OSError, TimeoutError, CancelledError):
            pass  # a scheduler already gone: nothing left to close
        finally:
            self._loud()

    def _loud(self) -> None:
        """The client loggers' levels back as they were."""
        for name, level in self._levels.items():
            logging.getLogger(name).setLevel(level)
