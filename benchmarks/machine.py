"""The machine a benchmark ran on: CPU model, cores, load, the versions of what it measured.

Every result file notes it, so that figures from different runs are never compared blind.
"""

from __future__ import annotations

import os
import platform
import sys
from datetime import datetime, timezone
from typing import Any

__all__ = ["machine"]


def _version(dist: str) -> str:
    try:
        from importlib.metadata import version
        return version(dist)
    except Exception:  # noqa: BLE001
        return "not installed"


def machine() -> dict[str, Any]:
    """The machine and software the run used: CPU model, cores, load, versions, date (UTC)."""
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as fh:
            for line in fh:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    try:
        load = [round(x, 2) for x in os.getloadavg()]
    except OSError:
        load = []
    return {
        "cpu": cpu, "cores": os.cpu_count(), "load_average": load,
        "python": sys.version.split()[0], "platform": platform.platform(),
        "versions": {d: _version(d) for d in ("manasolver", "ortools", "networkx", "python-constraint2",
                                                "phase-python", "matplotlib")},
        "date": datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
    }
