"""CP-SAT backend: exact optimal payments over the grouped supply (OR-Tools, imported lazily).

One integer model per problem, solved stage by stage under the policy:

* :mod:`~manasolver.solver.backends.cpsat.model`: forms, X, activations, flows from units to
  demands, the order of activations paying one another's costs, life and energy;
* :mod:`~manasolver.solver.backends.cpsat.resources`: convoke, improvise, delve, sacrifice and
  tapping costs, and the roles each permanent plays;
* :mod:`~manasolver.solver.backends.cpsat.terms`: the policy's terms;
* :mod:`~manasolver.solver.backends.cpsat.solve`: :class:`CpSatBackend`, the stage-by-stage
  solve, the cycle cuts and the slack model behind REASON;
* :mod:`~manasolver.solver.backends.cpsat.variables`: the model's handles.
"""

from __future__ import annotations

from manasolver.solver.backends.cpsat.model import build_model
from manasolver.solver.backends.cpsat.resources import member_roles
from manasolver.solver.backends.cpsat.solve import MAX_CUT_ROUNDS, TIME_LIMIT, CpSatBackend
from manasolver.solver.backends.cpsat.variables import Model, Role

__all__ = ["MAX_CUT_ROUNDS", "TIME_LIMIT", "CpSatBackend", "Model", "Role", "build_model", "member_roles"]
