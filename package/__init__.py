"""manasolver: an exact payment and legality engine for Magic: The Gathering mana costs.

The engine is in two subpackages: :mod:`manasolver.models` (the domain: symbols, costs, cards,
boards, the card database and the oracle-text reader) and :mod:`manasolver.solver` (the queries,
the JSON protocol, the command line and the HTTP service).  ``python -m manasolver`` runs the
command line, as the ``manasolver`` console script does.

This file is the package's top and holds nothing else: importing ``manasolver.models`` or
``manasolver.solver`` loads nothing more than they need, and ``__version__`` is read from the
installed distribution's metadata only when asked for (``importlib.metadata`` costs the command
line's start-up a few milliseconds).
"""

from __future__ import annotations

__all__ = ["__version__"]


def __getattr__(name: str) -> str:
    """``manasolver.__version__``: the installed distribution's version, read on first use."""
    if name != "__version__":
        raise AttributeError(f"module 'manasolver' has no attribute {name!r}")
    from importlib.metadata import PackageNotFoundError, version

    try:
        found = version("manasolver")
    except PackageNotFoundError:  # the source files imported without an install
        found = "0+unknown"
    globals()["__version__"] = found
    return found
