"""What a chunk of games counts, by turn and spell: castable, castable given enough lands, and the
reasons of each failure (too few lands, tapped lands, a missing color).  Counts add, so chunks played
anywhere sum to one answer."""

from __future__ import annotations

from dataclasses import dataclass, field

from manasolver.solver.castability.deckmodel import Spell

__all__ = ["Counts"]


@dataclass
class Counts:
    """The counts of a chunk of games, by turn (index 0 is turn 1) and spell; they add.

    Of the games where a spell was not castable: ``why_lands`` had fewer lands than its mana value,
    ``why_tapped`` had a board that would pay it with every land untapped, ``why_colors[t][i][c]`` one
    where a symbol of color ``c`` paid by any mana would do (with the lands untapped); the rest
    (``why_other``: the mana there, the colors there one by one, not all at once) is neither."""

    turns: int
    spells: int
    games: int = 0
    castable: list[list[int]] = field(default_factory=list)
    with_lands: list[list[int]] = field(default_factory=list)
    castable_with_lands: list[list[int]] = field(default_factory=list)
    why_lands: list[list[int]] = field(default_factory=list)
    why_tapped: list[list[int]] = field(default_factory=list)
    why_other: list[list[int]] = field(default_factory=list)
    why_colors: list[list[dict[str, int]]] = field(default_factory=list)
    cut: int = 0
    mulligans: int = 0
    hist: dict[tuple[int, int, int, int, int], int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if not self.castable:
            for name in ("castable", "with_lands", "castable_with_lands", "why_lands", "why_tapped",
                         "why_other"):
                setattr(self, name, [[0] * self.spells for _ in range(self.turns)])
            self.why_colors = [[{} for _ in range(self.spells)] for _ in range(self.turns)]

    def flush(self, spells: tuple[Spell, ...], relaxed: tuple[tuple[int, str], ...] = ()) -> None:
        """Move the games counted in :attr:`hist` (per turn, mask, mask with the lands untapped, lands
        played, cut) into the rows; ``relaxed[k]``: the spell and color of bit ``len(spells) + k``.
        Each row adds the entry's count at the set bits of one mask (:func:`_add_bits`)."""
        base = len(spells)
        every = (1 << base) - 1
        enough: dict[int, int] = {}
        colors_of: dict[int, list[tuple[int, str]]] = {}
        for k, (j, c) in enumerate(relaxed):
            colors_of.setdefault(j, []).append((base + k, c))
        for (t, mask, untapped, lands, cut), n in self.hist.items():
            self.cut += cut * n
            lands_enough = enough.get(lands)
            if lands_enough is None:
                lands_enough = enough[lands] = sum(1 << i for i, s in enumerate(spells) if lands >= s.mana_value)
            mask &= every
            _add_bits(self.castable[t - 1], mask, n)
            _add_bits(self.with_lands[t - 1], lands_enough, n)
            _add_bits(self.castable_with_lands[t - 1], mask & lands_enough, n)
            failing = every & ~mask
            _add_bits(self.why_lands[t - 1], failing & ~lands_enough, n)
            failing &= lands_enough
            _add_bits(self.why_tapped[t - 1], failing & untapped, n)
            failing &= ~untapped
            if not failing:
                continue
            other = self.why_other[t - 1]
            colors_row = self.why_colors[t - 1]
            for i in _bits(failing):
                found = False
                for bit, c in colors_of.get(i, ()):
                    if (untapped >> bit) & 1:
                        colors = colors_row[i]
                        colors[c] = colors.get(c, 0) + n
                        found = True
                if not found:
                    other[i] += n
        self.hist.clear()

    def add(self, other: Counts) -> None:
        self.games += other.games
        self.cut += other.cut
        self.mulligans += other.mulligans
        for mine, theirs in ((self.castable, other.castable), (self.with_lands, other.with_lands),
                             (self.castable_with_lands, other.castable_with_lands),
                             (self.why_lands, other.why_lands), (self.why_tapped, other.why_tapped),
                             (self.why_other, other.why_other)):
            for row, orow in zip(mine, theirs):
                for i, v in enumerate(orow):
                    row[i] += v
        for crow, ocrow in zip(self.why_colors, other.why_colors):
            for mine_c, theirs_c in zip(crow, ocrow):
                for c, v in theirs_c.items():
                    mine_c[c] = mine_c.get(c, 0) + v


#: per byte, the positions of its set bits
_BYTE_BITS = tuple(tuple(j for j in range(8) if b >> j & 1) for b in range(256))


def _bits(mask: int) -> list[int]:
    """The positions of the set bits of ``mask``, ascending."""
    out: list[int] = []
    pos = 0
    while mask:
        byte = mask & 0xFF
        if byte:
            out.extend(pos + j for j in _BYTE_BITS[byte])
        mask >>= 8
        pos += 8
    return out


def _add_bits(row: list[int], mask: int, n: int) -> None:
    """Add ``n`` to ``row`` at each set bit of ``mask``."""
    pos = 0
    while mask:
        byte = mask & 0xFF
        if byte:
            for j in _BYTE_BITS[byte]:
                row[pos + j] += n
        mask >>= 8
        pos += 8
