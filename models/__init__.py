"""The domain of manasolver: symbols, costs, cards, abilities, the card database,
the oracle-text parser, boards and counts.  Pure data: it never imports
:mod:`manasolver.solver`."""

from manasolver.models.cost import ManaCost
from manasolver.models.errors import (
    BadCost, BadQuery, BadState, ManasolverError, UnknownCard, UnknownField, Unsupported,
)
from manasolver.models.symbols import ManaSymbol, parse_symbol

__all__ = [
    "ManaCost", "ManaSymbol", "parse_symbol",
    "ManasolverError", "BadCost", "BadState", "UnknownCard", "UnknownField", "Unsupported", "BadQuery",
]
