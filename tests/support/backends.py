"""Every backend on one request: payability from each that accepts it, each payment validated;
and CP-SAT, the default queries and the csp enumeration held against the brute force."""

from __future__ import annotations

from manasolver.solver import queries
from manasolver.solver.backends import csp
from manasolver.solver.backends.cpsat import CpSatBackend
from manasolver.solver.backends.flow import FlowBackend
from manasolver.solver.backends.problem import to_payment
from manasolver.solver.request import PaymentRequest
from manasolver.solver.validate import validate

from brute import Result, canon, value


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


def assert_agrees_with_brute(r: PaymentRequest, where: str, b: Result, limit: int, validated: int,
                             check_default: bool = False, cut_by_limit: bool = False) -> None:
    """``can_pay``, CP-SAT's ``pay`` (its optimum's criteria recomputed by the brute force) and
    (``check_default``) the default ``pay`` equal the brute force's answer ``b``; the csp
    enumeration (at most ``limit`` payments) lists the brute force's payments, all of them when it
    says it is complete and only theirs when it is cut short (``cut_by_limit``: then by reaching
    ``limit``, with the brute force listing more); the first ``validated`` listed and
    every optimum pass validate."""
    assert queries.can_pay(r).payable == b.payable, where
    ans = queries.pay(r, backend="cpsat")
    assert ans.payable == b.payable, where
    if ans.payable:
        assert ans.payment is not None
        res = validate(r, ans.payment)
        assert res.legal, (ans.payment.to_json(), res.problems, where)
        got = value(ans.payment, r, r.policy.criteria)
        assert got == b.best_value, (ans.payment.to_json(), got, b.best_value,
                                     b.best.to_json() if b.best else None, where)
        if check_default:
            default = queries.pay(r)
            assert default.payment is not None
            assert value(default.payment, r, r.policy.criteria) == b.best_value, where
    listed, complete = csp.payments(r, limit=limit, time_limit=20.0)
    mine, theirs = {canon(p) for p in listed}, {canon(p) for p in b.payments}
    if not complete:
        assert mine <= theirs, where
        if cut_by_limit:
            assert len(listed) == limit < len(theirs), where
    else:
        assert mine == theirs, (where, [p.to_json() for p in listed if canon(p) not in theirs][:2],
                                [p.to_json() for p in b.payments if canon(p) not in mine][:2])
    for p in listed[:validated]:
        res = validate(r, p)
        assert res.legal, (p.to_json(), res.problems, where)
