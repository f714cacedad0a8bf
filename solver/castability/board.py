"""Whether a board of lands and mana sources can pay a cost, asked of the payment engine and remembered.

A board is its key: the sorted tuple of ``2 * card index + tapped`` over the permanents (lands and nonland
mana sources; the sources are never sick when asked about, see :mod:`.games`).  The answer for a key is
the engine's exact ``can_pay`` (:func:`manasolver.solver.queries.can_pay`) on a board of those permanents,
never a count of lands, and it is kept: in a run of many games most boards repeat, so most questions
are a dictionary lookup.
"""

from __future__ import annotations

from collections.abc import Sequence

from manasolver.models.board.load import load_state
from manasolver.models.card import Card
from manasolver.models.carddb import CardDB
from manasolver.models.cost import ManaCost
from manasolver.models.errors import ManasolverError
from manasolver.solver import queries
from manasolver.solver.casting.build import build_request
from manasolver.solver.request import Policy

__all__ = ["BoardOracle", "BoardKey"]

BoardKey = tuple[int, ...]


class BoardOracle:
    """The engine's answers for boards made of ``cards`` (by index), remembered per key.

    ``spells`` are the costs asked about on every board; :meth:`castable` gives them as a bit mask
    (bit ``i`` for ``spells[i]``); :meth:`payable` asks one other cost (a mana source being cast)."""

    def __init__(self, cards: Sequence[Card], spells: Sequence[ManaCost], db: CardDB) -> None:
        self.cards = tuple(cards)
        self.spells = tuple(spells)
        self.db = db
        self._masks: dict[BoardKey, int] = {}
        self._costs: dict[tuple[BoardKey, str], bool] = {}
        self.engine_calls = 0
        self.lookups = 0

    def _request_state(self, key: BoardKey) -> object:
        battlefield = [{"id": f"p{i}", "card": self.cards[code >> 1].name, "tapped": bool(code & 1)}
                       for i, code in enumerate(key)]
        return load_state({"players": [{"name": "you"}, {"name": "opponent"}], "battlefield": battlefield},
                          self.db)

    def _can_pay(self, state: object, cost: ManaCost) -> bool:
        self.engine_calls += 1
        try:
            req = build_request(state, "you", None, cost, None, (), Policy())  # type: ignore[arg-type]
            return queries.can_pay(req).payable
        except ManasolverError:
            return False

    def castable(self, key: BoardKey) -> int:
        """The mask of :attr:`spells` the board ``key`` can pay."""
        self.lookups += 1
        hit = self._masks.get(key)
        if hit is not None:
            return hit
        state = self._request_state(key)
        mask = 0
        for i, cost in enumerate(self.spells):
            if self._can_pay(state, cost):
                mask |= 1 << i
        self._masks[key] = mask
        return mask

    def payable(self, key: BoardKey, cost: ManaCost) -> bool:
        """Whether the board ``key`` can pay ``cost``."""
        ck = (key, cost.format())
        hit = self._costs.get(ck)
        if hit is not None:
            return hit
        ok = self._can_pay(self._request_state(key), cost)
        self._costs[ck] = ok
        return ok

    @property
    def boards(self) -> int:
        return len(self._masks)
