"""Every backend on one request: payability from each that accepts it, each payment validated."""

from __future__ import annotations

from manasolver.solver import queries
from manasolver.solver.backends.cpsat import CpSatBackend
from manasolver.solver.backends.flow import FlowBackend
from manasolver.solver.backends.problem import to_payment
from manasolver.solver.request import PaymentRequest
from manasolver.solver.validate import validate


def backend_answers(req: PaymentRequest) -> dict[str, bool]:
    """Payability from every backend that accepts the problem (``flow``, ``cpsat``); every
    payment a backend returns must pass the independent ``validate``."""
    seen: dict[str, bool] = {}
    for name, backend in (("flow", FlowBackend()), ("cpsat", CpSatBackend())):
        problem = queries.prepare(req, "feasible", req.x if req.x is not None else 0)
        result = backend.solve(problem)
        if result is None:
            continue
        seen[name] = result is not False
        if result is not False:
            payment = to_payment(problem, result)
            verdict = validate(req, payment)
            assert verdict.legal, (name, verdict, payment)
    return seen
