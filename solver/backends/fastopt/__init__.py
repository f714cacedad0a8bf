"""A fast exact optimiser in plain Python over the grouped board.

Branch and bound over *modes* (a class of identical permanents used a certain way)
deciding how many members activate each mode, minimising the same lexicographic vector
CP-SAT minimises (the policy's criteria in order, then the tie-break by board position).
It answers only what it models exactly and declines (``None``: CP-SAT answers) the rest
or a search longer than its node budget.  Tests check its optimum against CP-SAT's and
the brute force's on random boards.

The modules, in the order a query meets them:

* :mod:`.backend` — :class:`FastOptBackend` (what is declined, the answer as a
  ``Solution``) and :func:`evaluate`;
* :mod:`.floor` — large boards whose lands pay the cost, by a greedy over a matroid with a
  proof that nothing else does better; :mod:`.unitflow` — large boards needing more, by a
  min-cost flow over one-unit sources (Signets as one unit net) with a bound colors aside;
* :mod:`.shape` — the whitelist of supply fields it models (:data:`KNOWN_FIELDS`);
* :mod:`.search` — one problem's passes (without, then with activations that cost mana)
  and the searches kept per board;
* :mod:`.modes` — the modes a class can take; :mod:`.keep` — the ``keep_castable`` and
  ``keep_colors`` terms; :mod:`.linear` — the criteria counted per activation packed as
  the digits of one integer;
* :mod:`.bounds` — the relaxation bounding forms and activations with mana costs;
* :mod:`.tables` — the demand tables of one form and the greedy first dive;
* :mod:`.seed` — a short search in a waste-aware order before each forward search: its
  first payment prunes the forward search at once, and when it meets the whole tree it
  answers for it (the payment the forward search would reach first);
* :mod:`.forward` — the forward search of one form; :mod:`.complement` — the search of
  the units left unused, for costs that need most of the board; :mod:`.incumbent` — the
  answer so far, the seed and the node budget they share.
"""

from __future__ import annotations

from manasolver.solver.backends.fastopt.backend import SUPPORTED, FastOptBackend, evaluate
from manasolver.solver.backends.fastopt.linear import DIGIT
from manasolver.solver.backends.fastopt.search import COSTLY_NODE_BUDGET, MAX_COSTLY_KINDS, NODE_BUDGET
from manasolver.solver.backends.fastopt.shape import KNOWN_FIELDS, shape_known

__all__ = ["COSTLY_NODE_BUDGET", "DIGIT", "KNOWN_FIELDS", "MAX_COSTLY_KINDS", "NODE_BUDGET", "SUPPORTED",
           "FastOptBackend", "evaluate", "shape_known"]
