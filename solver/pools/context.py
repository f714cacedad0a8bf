"""The context of one ``options`` query: its board, its restriction blocks and its bounds.

Mana under a spending restriction (CR 106.6) is kept apart from other mana: every
restriction met on the board gets a *block*, a number, block 0 being unrestricted
mana, and a search state holds one rank table per block.  The context hands the
numbers out, says whether life and energy can run out (when they can't, costs in
them are not tracked, so fewer states differ), and counts the states examined
against the size bound and the clock against the time bound: past either,
:class:`Budget` is raised and the answer says ``complete: false``.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from manasolver.models.abilities import Restriction
from manasolver.models.state import GameState

__all__ = ["MAX_STATES", "Budget", "Search"]

#: Bound on the number of search states kept (memory, and a second guard against hanging).
MAX_STATES = 50_000


class Budget(Exception):
    """The time or size bound was hit."""


@dataclass
class Search:
    """One query's board, player, deadline (``time.perf_counter`` seconds), whether life and
    energy bind, the restriction blocks handed out so far and the states examined."""

    state: GameState
    player: str
    deadline: float
    life_binding: bool
    energy_binding: bool
    blocks: dict[Restriction | None, int] = field(default_factory=dict)
    states: int = 0

    def block(self, r: Restriction | None) -> int:
        """The block of mana under restriction ``r`` (``None``: unrestricted, block 0 when
        asked first)."""
        if r not in self.blocks:
            self.blocks[r] = len(self.blocks)
        return self.blocks[r]

    def tick(self, n: int = 1) -> None:
        """Count ``n`` states examined; raise :class:`Budget` past the size or time bound."""
        self.states += n
        if self.states > MAX_STATES or time.perf_counter() > self.deadline:
            raise Budget
