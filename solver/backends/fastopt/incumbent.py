"""The incumbent of the fast optimiser: the best answer so far and the node budget.

One :class:`Incumbent` is shared by every search of one query (the forward search of each
form, the complement search, the second pass with activations that cost mana), so that
each prunes against the answer any of them found and all count against one budget.

Besides the answer the searches found, it may hold a *seed*: the exact vector of a payment
found before the search (:mod:`~manasolver.solver.backends.fastopt.seed`), an upper bound
on the optimum.  The seed prunes only what is strictly worse, so the searches still reach
the first payment, in their own order, whose vector is the optimum: the same answer as
without the seed, ties included, in fewer nodes.
"""

from __future__ import annotations

__all__ = ["Incumbent"]


class Incumbent:
    """``best``: the best criteria vector found; ``plan``: its form and activations per
    mode; ``uncertain``: the best vector of a cover whose activations would pay one
    another's mana costs (legal or not depending on an order not modelled here);
    ``seed``: a vector known reachable before the search (pruned against strictly);
    ``ties``: when not ``None``, every plan of vector ``best`` found (the search then prunes
    strictly, to meet them all); ``nodes`` explored against ``budget``."""

    __slots__ = ("best", "budget", "nodes", "plan", "seed", "ties", "uncertain")

    def __init__(self, budget: int) -> None:
        self.best: tuple[int, ...] | None = None
        self.plan: tuple[int, list[int]] | None = None
        self.uncertain: tuple[int, ...] | None = None
        self.seed: tuple[int, ...] | None = None
        self.ties: list[list[int]] | None = None
        self.nodes = 0
        self.budget = budget

    def reset(self, budget: int) -> None:
        """Forget the answer found, for a new query."""
        self.best = None
        self.plan = None
        self.uncertain = None
        self.seed = None
        self.ties = None
        self.nodes = 0
        self.budget = budget

    def bar(self) -> tuple[tuple[int, ...] | None, bool]:
        """What a lower bound is pruned against, and whether only strictly: the answer found
        (a bound equal to it is pruned: the first payment found of a vector stays), or the
        seed when it is better (a bound equal to it is not: the search must still reach,
        in its order, the payment it will answer)."""
        seed = self.seed
        best = self.best
        if seed is not None and (best is None or seed < best):
            return seed, True
        return best, self.ties is not None

    def prunes(self, low: tuple[int, ...] | None) -> bool:
        """Can nothing of lower bound ``low`` (``None``: no payment) beat the answer?"""
        if low is None:
            return True
        bar, strict = self.bar()
        if bar is None:
            return False
        return low > bar if strict else low >= bar

    def seed_kept(self) -> bool:
        """Did the search reach the seed's vector or better?  (It always should: the seed is
        a payment the search also models; False only if that ever fails.)"""
        return self.seed is None or (self.best is not None and self.best <= self.seed)
