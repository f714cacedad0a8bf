"""The package's top through real subprocesses: ``python -m manasolver`` runs the command line,
``manasolver.__version__`` is the installed distribution's version, and a normal (non-editable)
install is what Python imports even when run beside a checkout: from the checkout itself, and from
a folder holding a checkout named ``manasolver``.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from importlib.metadata import version
from pathlib import Path

import pytest
from paths import REPO

PYTHON = sys.executable


def _run(*args: str, cwd: Path | str = REPO, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    proc = subprocess.run([PYTHON, *args], capture_output=True, text=True, timeout=300, cwd=str(cwd),
                          env=env, check=False)
    assert "Traceback" not in proc.stderr, proc.stderr
    return proc


def test_python_m_manasolver_prints_the_version() -> None:
    proc = _run("-m", "manasolver", "--version")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip().startswith(f"manasolver {version('manasolver')}; card data: ")


def test_python_m_manasolver_answers_a_query_as_the_console_script_does(tmp_path: Path) -> None:
    """Reaper King through ``python -m manasolver``: mana value 10, five colors (CR 202.3f),
    the same JSON the command line's own module prints."""
    via_package = _run("-m", "manasolver", "mana-value", "Reaper King", "--json", cwd=tmp_path)
    via_cli = _run("-m", "manasolver.solver.service.cli", "mana-value", "Reaper King", "--json", cwd=tmp_path)
    assert via_package.returncode == 0, via_package.stderr
    answer = json.loads(via_package.stdout)
    assert answer["mana_value"] == 10
    assert answer["colors"] == ["W", "U", "B", "R", "G"]
    assert answer == json.loads(via_cli.stdout)


def test_python_m_manasolver_reports_bad_input_without_a_traceback(tmp_path: Path) -> None:
    proc = _run("-m", "manasolver", "card", "Llanowar Elfs", cwd=tmp_path)
    assert proc.returncode == 1
    assert "unknown card: 'Llanowar Elfs'" in proc.stderr
    assert "Llanowar Elves" in proc.stderr


def test_version_attribute_is_the_installed_distributions() -> None:
    proc = _run("-c", "import manasolver; print(manasolver.__version__)")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == version("manasolver")


def test_importing_the_engine_does_not_read_the_version(tmp_path: Path) -> None:
    """``import manasolver.models`` stays light: the metadata is read only when the version is asked."""
    proc = _run("-c", "import sys, manasolver.models; print('importlib.metadata' in sys.modules)", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "False"


@pytest.mark.slow
def test_a_normal_install_is_not_shadowed_by_a_checkout(tmp_path: Path) -> None:
    """``pip install`` of the checkout into a folder, then Python run from the checkout and from a
    folder holding a checkout named ``manasolver``: every ``manasolver`` module comes from the install."""
    source = tmp_path / "source"  # what a build reads, copied: pip builds inside the tree it installs
    source.mkdir()
    for part in ("pyproject.toml", "README.md", "LICENSE"):
        shutil.copy2(REPO / part, source / part)
    for folder in ("package", "models", "solver", "benchmarks"):
        shutil.copytree(REPO / folder, source / folder, ignore=shutil.ignore_patterns("__pycache__"))
    target = tmp_path / "installed"
    pip = subprocess.run([PYTHON, "-m", "pip", "install", "-q", "--no-deps", "--target", str(target), str(source)],
                         capture_output=True, text=True, timeout=600, check=False)
    if pip.returncode != 0 and "Could not find a version that satisfies" in pip.stderr:
        pytest.skip(f"the build backend can't be installed here: {pip.stderr.strip()[-300:]}")
    assert pip.returncode == 0, pip.stderr
    beside = tmp_path / "beside"
    beside.mkdir()
    (beside / "manasolver").symlink_to(REPO, target_is_directory=True)
    env = {**os.environ, "PYTHONPATH": str(target)}
    probe = ("import json, manasolver, manasolver.models, manasolver.solver.service.cli; "
             "print(json.dumps([manasolver.__version__, manasolver.__file__, manasolver.models.__file__, "
             "manasolver.solver.service.cli.__file__]))")
    for cwd in (REPO, beside):
        proc = _run("-c", probe, cwd=cwd, env=env)
        assert proc.returncode == 0, proc.stderr
        found, *files = json.loads(proc.stdout)
        assert found == version("manasolver")
        for file in files:
            assert Path(file).is_relative_to(target), (cwd, file)
        run = _run("-m", "manasolver", "--version", cwd=cwd, env=env)
        assert run.returncode == 0, run.stderr
        assert run.stdout.strip().startswith(f"manasolver {found}; card data: ")
