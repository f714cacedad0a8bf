"""Life paid rather than mana for a colored symbol: K'rrik, Son of Yawgmoth.

"For each {B} in a cost, you may pay 2 life rather than pay that mana." (CR 118.9-style choice
made as the cost is paid, 601.2b/601.2g; K'rrik's ruling: it doesn't change the mana cost or
mana value.)  Each plain ``{B}`` symbol of its controller's costs may be paid as ``{B}`` or with
2 life: exactly a Phyrexian ``{B/P}`` (CR 107.4f), so such a cost is read with ``{B/P}`` in
place of each ``{B}``.  Hybrid symbols with a black half are not rewritten (what the engine
does not apply is refused where the cost is read); only two life is the Phyrexian amount.
"""

from __future__ import annotations

import re

from manasolver.models.cost import ManaCost
from manasolver.models.state import GameState
from manasolver.models.symbols import parse_symbol

__all__ = ["life_for_mana_colors", "with_life_for_mana"]

_CLAUSE = re.compile(r"For each \{([WUBRG])\} in a cost, you may pay 2 life rather than pay that mana\.")


def life_for_mana_colors(state: GameState, player: str) -> frozenset[str]:
    """The color letters whose plain symbols ``player``'s costs may pay with 2 life."""
    out = set()
    for perm in state.battlefield:
        if perm.controller == player and "rather than pay that mana" in perm.card.oracle_text:
            m = _CLAUSE.search(perm.card.oracle_text)
            if m:
                out.add(m.group(1))
    return frozenset(out)


def with_life_for_mana(cost: ManaCost, colors: frozenset[str]) -> ManaCost:
    """``cost`` with each plain symbol of a color in ``colors`` read as its Phyrexian symbol."""
    if not colors:
        return cost
    texts = {"{" + c + "}" for c in colors}
    if not any(s.text in texts for s in cost.symbols):
        return cost
    return ManaCost.of([parse_symbol("{" + s.text[1] + "/P}") if s.text in texts else s for s in cost.symbols])
