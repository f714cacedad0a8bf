"""Where the repository's files are for a benchmark: ``data/decks``, ``docs/schema.json``.

The benchmarks package is installed (so that ``manasolver bench`` runs), but the decklists and the
committed schema stay in the repository.  A checkout is found beside this module (an editable
install), at ``MANASOLVER_CHECKOUT``, or in the current directory (a clone the command runs in)."""

from __future__ import annotations

import os
from pathlib import Path

__all__ = ["checkout_root"]


def checkout_root() -> Path:
    """The first of those places holding ``data/decks/index.json``; the one beside this module
    when none does, so that a missing file is named where it was looked for."""
    here = Path(__file__).resolve().parent.parent
    places = [here]
    if os.environ.get("MANASOLVER_CHECKOUT"):
        places.insert(0, Path(os.environ["MANASOLVER_CHECKOUT"]))
    places.append(Path.cwd())
    for place in places:
        if (place / "data" / "decks" / "index.json").is_file():
            return place
    return here
