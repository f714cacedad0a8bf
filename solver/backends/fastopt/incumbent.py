"""The incumbent of the fast optimiser: the best answer so far and the node budget.

One :class:`Incumbent` is shared by every search of one query (the forward search of each
form, the complement search, the second pass with activations that cost mana), so that
each prunes against the answer any of them found and all count against one budget.
"""

from __future__ import annotations

__all__ = ["Incumbent"]


class Incumbent:
    """``best``: the best criteria vector found; ``plan``: its form and activations per
    mode; ``uncertain``: the best vector of a cover whose activations would pay one
    another's mana costs (legal or not depending on an order not modelled here);
    ``nodes`` explored against ``budget``."""

    __slots__ = ("best", "budget", "nodes", "plan", "uncertain")

    def __init__(self, budget: int) -> None:
        self.best: tuple[int, ...] | None = None
        self.plan: tuple[int, list[int]] | None = None
        self.uncertain: tuple[int, ...] | None = None
        self.nodes = 0
        self.budget = budget

    def reset(self, budget: int) -> None:
        """Forget the answer found, for a new query."""
        self.best = None
        self.plan = None
        self.uncertain = None
        self.nodes = 0
        self.budget = budget
