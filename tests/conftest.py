"""Shared test set-up: the helper modules of ``tests/support`` importable by name, the fixtures
many test modules use, and the hypothesis profiles.

Profiles: ``dev`` (the default) draws new examples on every run and keeps failing ones in
``.hypothesis/``; ``ci`` (chosen when the ``CI`` environment variable is set, as ``.ci/run`` sets
it) is derandomized, so a CI run draws the same examples every time, keeps no database and prints
the blob that reproduces a failure.  ``HYPOTHESIS_PROFILE`` names another explicitly.  Both leave
out hypothesis's per-example deadline and its too-slow health check: the examples are whole
solver queries on a shared machine, where a deadline measures the load, not the code.

The fast subset is ``python -m pytest -m "not slow"``: the ``slow`` marker (registered in
``pyproject.toml``) is on the tests of a second or more: installs, servers and browsers, long
differential searches.  A test marks itself (``@pytest.mark.slow``) or is listed in
``tests/slow.txt`` (the ones measured so, marked here at collection).
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

import pytest

if sys.dont_write_bytecode:
    # PYTHONDONTWRITEBYTECODE keeps __pycache__ folders out of the tree; without bytecode the run
    # compiles every test module (its asserts rewritten) and every package module again, in this
    # process and in each of the command-line and server subprocesses the tests start: a fifth of
    # the fast subset's time.  The bytecode goes to a folder of its own outside the tree instead.
    _PYCACHE = Path(tempfile.gettempdir()) / f"manasolver-pycache-{os.getuid()}"
    sys.pycache_prefix = str(_PYCACHE)
    sys.dont_write_bytecode = False
    os.environ["PYTHONPYCACHEPREFIX"] = str(_PYCACHE)
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)

from hypothesis import HealthCheck, settings

sys.path.insert(0, str(Path(__file__).resolve().parent / "support"))

from manasolver.models.carddb import CardDB
from slowlist import slow_entries

# every field the two differ in is given: hypothesis's own defaults change under CI as well
settings.register_profile("dev", deadline=None, suppress_health_check=[HealthCheck.too_slow],
                          derandomize=False, print_blob=False)
settings.register_profile("ci", deadline=None, suppress_health_check=[HealthCheck.too_slow],
                          derandomize=True, database=None, print_blob=True)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE") or ("ci" if os.environ.get("CI") else "dev"))


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Mark ``slow`` every collected test that ``tests/slow.txt`` lists, by module or by function."""
    listed = set(slow_entries())
    for item in items:
        module = item.nodeid.partition("::")[0]  # the path from the repository, as slow.txt writes it
        function = getattr(item, "originalname", item.name)
        if module in listed or f"{module}::{function}" in listed:
            item.add_marker(pytest.mark.slow)


@pytest.fixture(scope="session")
def db() -> CardDB:
    """The bundled card database, one for the session (its caches fill as the tests read it)."""
    return CardDB()
