"""manasolver: an exact payment and legality engine for Magic: The Gathering costs.

The domain lives in :mod:`manasolver.models`; the solvers, queries, protocol and
command line live in :mod:`manasolver.solver`.
"""

__version__ = "0.1.0"
