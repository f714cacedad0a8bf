"""ManaCost: a frozen, canonically ordered sequence of symbols (CR 202).

Canonical order: X, Y, Z first, then one merged generic numeral, then every
other symbol in the order given (the order printed on the card).  ``format``
of ``parse`` is a fixed point and ``repr`` evaluates back:

>>> ManaCost.parse("{u/w}{1}{1}{X}")
ManaCost.parse('{X}{2}{W/U}')
>>> ManaCost.parse("{2/W}{2/U}{2/B}{2/R}{2/G}").mana_value()
10
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from functools import lru_cache

from manasolver.models.errors import BadCost
from manasolver.models.symbols import (
    COLORS,
    ManaSymbol,
    iter_symbols,
    mask_letters,
    parse_symbol,
)

__all__ = ["ManaCost"]


@dataclass(frozen=True, slots=True)
class ManaCost:
    """An ordered, canonical collection of mana (and energy) symbols.

    An empty ``ManaCost`` is "nothing" (the mana part of a cost such as ``{T}``);
    a card without a mana cost is represented by ``None`` elsewhere, never by
    ``{0}`` (CR 118.6, 202.1b).
    """

    symbols: tuple[ManaSymbol, ...] = ()

    # -- construction -----------------------------------------------------
    @staticmethod
    def parse(text: str, where: str = "cost", allow_empty: bool = False) -> ManaCost:
        """Parse a cost in card notation; errors name the symbol and its position."""
        if not isinstance(text, str):
            raise BadCost(f"a cost must be a string of mana symbols, not {type(text).__name__}", where)
        if len(text) > 100_000:
            raise BadCost(f"cost is too long ({len(text)} characters)", where)
        cost = _parse_cached(text, where)
        if not cost.symbols and not allow_empty:
            raise BadCost("empty cost: write {0} for a cost of nothing", where)
        return cost

    @staticmethod
    def of(symbols: list[ManaSymbol] | tuple[ManaSymbol, ...]) -> ManaCost:
        """Build a canonical cost from symbols in any order."""
        return ManaCost(_canonical(list(symbols)))

    # -- text ---------------------------------------------------------------
    def format(self) -> str:
        """Canonical card notation (``""`` for the empty cost)."""
        return "".join(s.text for s in self.symbols)

    def __str__(self) -> str:
        return self.format()

    def __repr__(self) -> str:
        return f"ManaCost.parse({self.format()!r})"

    # -- arithmetic ---------------------------------------------------------
    def __add__(self, other: ManaCost) -> ManaCost:
        return ManaCost.of(self.symbols + other.symbols)

    def __bool__(self) -> bool:
        return bool(self.symbols)

    def __len__(self) -> int:
        return len(self.symbols)

    # -- properties -----------------------------------------------------------
    @property
    def generic(self) -> int:
        """The merged generic numeral (0 when there is none)."""
        return sum(s.generic for s in self.symbols if s.is_numeral)

    @property
    def x_count(self) -> int:
        """How many X symbols (``{X}{X}`` is 2); Y and Z are counted apart."""
        return sum(1 for s in self.symbols if s.variable == "X")

    @property
    def has_colorless(self) -> bool:
        """Does it contain a colorless symbol (``{C}``, ``{C/P}``: "a cost that contains {C}")?"""
        return any(s.colorless for s in self.symbols)

    @property
    def variables(self) -> tuple[str, ...]:
        """The distinct variables (X, Y, Z) in order of appearance."""
        seen: list[str] = []
        for s in self.symbols:
            if s.variable and s.variable not in seen:
                seen.append(s.variable)
        return tuple(seen)

    @property
    def energy(self) -> int:
        """The number of ``{E}`` symbols."""
        return sum(1 for s in self.symbols if s.special == "E")

    @property
    def mana_symbols(self) -> tuple[ManaSymbol, ...]:
        """Symbols paid with mana or life: no numerals of 0, no ``{E}``/``{T}``/``{Q}``."""
        return tuple(s for s in self.symbols if s.is_mana and not (s.is_numeral and s.generic == 0))

    def mana_value(self, x: int | None = None) -> int:
        """Mana value by CR 202.3; X counts ``x`` only when given (a spell on the stack)."""
        mv = sum(s.mana_value for s in self.symbols)
        if x is not None:
            mv += x * sum(1 for s in self.symbols if s.variable)
        return mv

    @property
    def colors(self) -> int:
        """Color bitmask of every colored symbol, hybrid halves included (CR 202.2d)."""
        mask = 0
        for s in self.symbols:
            mask |= s.colors
        return mask

    @property
    def color_letters(self) -> list[str]:
        """Colors in WUBRG order as letters."""
        return list(mask_letters(self.colors))

    def devotion(self) -> dict[str, int]:
        """Mana symbols of each color, hybrid counting for each of its colors (Nykthos ruling)."""
        counts = Counter[str]()
        for s in self.symbols:
            for letter in mask_letters(s.colors):
                counts[letter] += 1
        return {c: counts[c] for c in COLORS}

    def with_x(self, x: int) -> ManaCost:
        """This cost with every X, Y and Z replaced by ``x`` generic mana."""
        if not self.variables:
            return self
        extra = x * sum(1 for s in self.symbols if s.variable)
        rest = [s for s in self.symbols if not s.variable]
        if extra:
            rest.append(parse_symbol(str(extra)))
        return ManaCost.of(rest)

    def without_special(self) -> ManaCost:
        """The mana part only: drop ``{E}``, ``{T}`` and ``{Q}``."""
        return ManaCost.of([s for s in self.symbols if not s.special])


def _canonical(symbols: list[ManaSymbol]) -> tuple[ManaSymbol, ...]:
    variables = [s for s in symbols if s.variable]
    numerals = [s for s in symbols if s.is_numeral]
    rest = [s for s in symbols if not s.variable and not s.is_numeral]
    generic = sum(s.generic for s in numerals)
    head: list[ManaSymbol] = list(variables)
    if generic or (numerals and not variables and not rest):
        head.append(parse_symbol(str(generic)))
    return tuple(head + rest)


@lru_cache(maxsize=4096)
def _parse_cached(text: str, where: str) -> ManaCost:
    symbols = iter_symbols(text, where)
    total = sum(s.generic for s in symbols if s.is_numeral)
    if total > 1_000_000:
        raise BadCost(f"generic total {total} is larger than 1000000", where)
    return ManaCost(_canonical(symbols))
