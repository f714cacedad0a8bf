"""A real ``manasolver serve --port 0`` for the tests that talk to it over sockets."""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path


@contextmanager
def serving(*args: str) -> Iterator[str]:
    """Start the server (``args`` added to ``serve --port 0``), yield the URL of its listening
    line (``http://127.0.0.1:PORT/``), stop it, and fail if it wrote a traceback."""
    stderr = tempfile.NamedTemporaryFile("w+", suffix=".stderr", delete=False)
    proc = subprocess.Popen([sys.executable, "-m", "manasolver.solver.service.cli", "serve", "--port", "0", *args],
                            stdout=subprocess.PIPE, stderr=stderr, text=True)
    assert proc.stdout is not None
    first = proc.stdout.readline()
    try:
        assert first, Path(stderr.name).read_text()
        yield str(json.loads(first)["listening"])
    finally:
        proc.terminate()
        proc.wait(timeout=30)
        errors = Path(stderr.name).read_text()
        Path(stderr.name).unlink()
        assert "Traceback" not in errors, errors
