"""What the engine does not model: every refusal of a question it can't answer exactly.

An answer that ignored an unmodelled source or rule could be wrong, so instead of guessing these
functions raise :class:`~manasolver.models.errors.Unsupported` with a message naming the permanent
and clause and a ``where`` path (``battlefield[i]``, ``hand[i]``, ``cost``, ``spell``).

- :func:`guard_excluded`: sources the supply model leaves out (``Supply.excluded``: unreadable mana
  text, an Altar whose fodder has a usable mana ability that costs mana, triggered mana from a snow
  source) when the cost is unpayable without them;
- :func:`guard_doublers`: a pool doubler (Doubling Cube, RULES T117) that could be activated now.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

from manasolver.models.errors import Unsupported
from manasolver.solver.pools.doublers import find_doublers
from manasolver.solver.request import PaymentRequest, SpellInfo
from manasolver.solver.supply.build import Supply

__all__ = ["guard_doublers", "guard_excluded"]


def guard_excluded(supply: Supply, req: PaymentRequest) -> None:
    """Refuse to call a cost unpayable when unmodelled sources or ways of paying exist
    (``supply.excluded``: what the supply model still leaves out)."""
    if supply.excluded:
        e = supply.excluded[0]
        index = next((i for i, p in enumerate(req.state.battlefield) if p.id == e.permanent), None)
        raise Unsupported(f"{e.name} ({e.permanent}) might help pay this, but its mana ability is "
                          f"not supported: {e.clause!r} ({e.reason})",
                          f"battlefield[{index}]" if index is not None else "battlefield")


def guard_doublers(req: PaymentRequest, supply: Supply,
                   payable: Callable[[PaymentRequest], bool]) -> Supply:
    """Refuse a payment answer that a pool doubler (Doubling Cube) could change.

    The optimisers do not model "double the amount of each type of unspent mana"
    (RULES §1.4, T117), so when ``req``'s player has a doubler that could be
    activated now (the non-mana parts of its cost payable: untapped, not summoning
    sick; its mana cost payable by the rest of the board, as ``payable`` of the
    sub-request says) an answer ignoring it may be wrong (unpayable) or not optimal
    (8 Forests and a Cube pay {8} leaving a Forest untapped): this raises
    :class:`Unsupported` naming it and its ``battlefield[i]`` position.  Otherwise
    the doublers can't matter, and the supply is returned without them in
    ``excluded`` (a tapped Cube does not make an unpayable answer unsupported).
    ``can_pay`` calls this only when its answer is false: a payment found without
    the doubler is a payment.
    """
    idle: set[str] = set()
    for d in find_doublers(req.state, supply.player):
        perm = req.state.battlefield[d.position]
        for ab in d.usable:
            source = SpellInfo.of_ability(perm.card, perm.types)
            sub = PaymentRequest(req.state, ab.cost.mana, supply.player, spell=source)
            if not ab.cost.mana or payable(sub):
                raise Unsupported(f"{d.name} ({d.permanent}) could be activated now "
                                  f"({ab.text or 'doubles the mana pool'}); payments with a pool "
                                  "doubler are not modelled (RULES T117)", f"battlefield[{d.position}]")
        if d.only:
            idle.add(d.permanent)
    if not idle:
        return supply
    return dataclasses.replace(supply, excluded=tuple(e for e in supply.excluded if e.permanent not in idle))
