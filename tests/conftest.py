"""Shared test set-up: the helper modules of ``tests/support`` importable by name."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent / "support"))
