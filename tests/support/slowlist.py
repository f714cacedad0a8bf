"""The lines of ``tests/slow.txt``: the tests that ``conftest.py`` marks slow."""

from pathlib import Path

SLOW_LIST = Path(__file__).resolve().parents[1] / "slow.txt"


def slow_entries() -> list[str]:
    """``module`` or ``module::function`` per line, paths from the repository; comments dropped."""
    lines = (line.partition("#")[0].strip() for line in SLOW_LIST.read_text(encoding="utf-8").splitlines())
    return [line for line in lines if line]
