"""The flow fast path: exact feasibility of plain payments in pure Python.

"Plain" means: feasibility only; options that are free (no mana cost), exclusive
(one activation per permanent) and pay no life or energy; a permanent either has
only one-mana options (it supplies one unit of the union of their types: the type
is chosen as the ability resolves) or exactly one option (it supplies every slot
of it); damage (pain lands) matters only for forms that pay life.  When the
board has other options too, the plain part alone still answers "payable"
exactly (the rest only adds ways to pay); an "unpayable" is then asked again of
the wider units (:func:`~.wide.wide_units`: options paying life or energy that
can't limit the payment, free repeatable options), and, when deciding payability
(:meth:`~.backend.FlowBackend.decide`), of the converter search
(:func:`~.converters.converter_shortfall`: Signets, filter lands, either way),
else declined (``None``): the fast optimiser or CP-SAT decides.
:meth:`~.backend.FlowBackend.feasible` asks the converter search only on the
boards the fast optimiser declines, and only for an "unpayable".

Units are grouped by ``(type mask, snow)`` and demands by mask, so the check is
Hall's condition for a transportation problem: the total is payable exactly
when, for every set ``T`` of non-generic demands, the units able to pay some
demand of ``T`` are at least the demand of ``T``, and all units cover the whole
cost (every unit pays generic).  With at most a handful of demand kinds this is
a few dozen additions.  A small augmenting-path max-flow writes an actual payment
when one is asked for (pool first), and gives the least missing mana of an
unpayable cost (colored demands first, so the shortfall falls on generic).  No
networkx, no OR-Tools.

The modules, in the order a query meets them:

* :mod:`.backend` — :class:`FlowBackend`: which units each answer reads, and when it declines;
* :mod:`.units` — the plain units, kept per card state and per supply;
* :mod:`.rooms` — whether costs of life and energy, of other permanents tapped, or of other
  permanents or cards taken can never limit a payment (then such options count as free);
* :mod:`.wide` — the wider units: those options, and free repeatable ones, beside the plain units;
* :mod:`.assisted` — the units with convoke, improvise and delve;
* :mod:`.hall` — the verdicts over a problem's forms: Hall's condition, the least missing mana,
  and the relaxations that decide what the units alone can't;
* :mod:`.converters` — the converter search (Signets, filter lands), over the ways each member may
  activate (:mod:`.modes`) and the staged flow that pays the converters' costs first
  (:mod:`.staged`).
"""

from __future__ import annotations

from manasolver.solver.backends.flow.assisted import assisted_units
from manasolver.solver.backends.flow.backend import FlowBackend
from manasolver.solver.backends.flow.converters import CONVERTER_CHOICES, converter_shortfall
from manasolver.solver.backends.flow.units import plain_units

__all__ = ["CONVERTER_CHOICES", "FlowBackend", "assisted_units", "converter_shortfall", "plain_units"]
