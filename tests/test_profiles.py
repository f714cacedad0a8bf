"""The hypothesis profiles of ``conftest.py``: ``ci`` derandomized and chosen by the ``CI``
environment variable, ``dev`` the default; and the ``slow`` marker that the fast subset leaves out."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import settings
from paths import REPO


def test_the_ci_profile_is_derandomized_and_keeps_no_database() -> None:
    ci, dev = settings.get_profile("ci"), settings.get_profile("dev")
    assert ci.derandomize is True and ci.database is None and ci.deadline is None
    assert dev.derandomize is False and dev.deadline is None


def test_the_loaded_profile_is_the_one_the_environment_names() -> None:
    expected = os.environ.get("HYPOTHESIS_PROFILE") or ("ci" if os.environ.get("CI") else "dev")
    assert settings.default == settings.get_profile(expected)


@pytest.mark.slow
@pytest.mark.parametrize("ci", ["1", None])
def test_ci_set_or_not_selects_its_profile_in_a_fresh_run(ci: str | None) -> None:
    env = {k: v for k, v in os.environ.items() if k not in ("CI", "HYPOTHESIS_PROFILE")}
    if ci is not None:
        env["CI"] = ci
    test = "tests/test_profiles.py::test_the_loaded_profile_is_the_one_the_environment_names"
    proc = subprocess.run([sys.executable, "-m", "pytest", "-v", "-p", "no:cacheprovider", test], cwd=REPO, env=env,
                          capture_output=True, text=True, timeout=300, check=False)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "1 passed" in proc.stdout  # -v against the -q of addopts: the summary line


def test_the_slow_marker_is_registered(pytestconfig: pytest.Config) -> None:
    assert any(line.startswith("slow:") for line in pytestconfig.getini("markers"))


def test_every_line_of_slow_txt_names_a_test_that_exists() -> None:
    """A renamed or removed test would otherwise leave its line behind, naming nothing."""
    import ast

    from slowlist import slow_entries

    entries = slow_entries()
    assert entries
    functions: dict[Path, set[str]] = {}  # each module parsed once
    for entry in entries:
        module, _, function = entry.partition("::")
        path = REPO / module
        assert path.is_file() and path.name.startswith("test_"), entry
        if function:
            if path not in functions:
                tree = ast.parse(path.read_text(encoding="utf-8"))
                functions[path] = {n.name for n in tree.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))}
            assert function in functions[path], entry


@pytest.mark.slow
def test_the_fast_subset_leaves_out_what_slow_txt_lists(pytestconfig: pytest.Config) -> None:
    proc = subprocess.run([sys.executable, "-m", "pytest", "--co", "-o", "addopts=--import-mode=importlib", "-q",
                           "-m", "slow", "-p", "no:cacheprovider",
                           "tests/differential/test_concurrency.py", "tests/test_layering.py"],
                          cwd=REPO, capture_output=True, text=True, timeout=300, check=False)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    chosen = [line for line in proc.stdout.splitlines() if "::" in line]
    assert chosen and all(line.startswith("tests/differential/test_concurrency.py::") for line in chosen), chosen
