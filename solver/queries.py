"""The payment queries: ``pay``, ``can_pay``, ``max_x``, ``payments`` (SPEC §5).

Each takes a :class:`~manasolver.solver.request.PaymentRequest` and returns a small
answer dataclass whose ``to_json()`` is exactly the protocol's shape.

``backend`` (STYLE practice 8): ``None`` means the documented default, which may
change: ``can_pay`` asks the flow fast path and falls back to CP-SAT when the
fast path declines; ``pay`` asks the plain-Python exact optimiser
(:mod:`~manasolver.solver.backends.fastopt`) and falls back to CP-SAT when it
declines; ``max_x`` uses CP-SAT (optimal under the policy).  Named backends:
``"fastopt"`` (declining is an ``Unsupported`` error), ``"flow"`` (``pay`` then
returns *a* payment, not an optimised one), ``"cpsat"``, and ``"csp"`` the
enumeration backend (``pay`` then returns the first payment it lists; ``max_x``
does not take it).

Convoke, improvise and delve (when the request allows them and the player has an
untapped creature, an untapped artifact or a graveyard card) are decided by CP-SAT
inside the same optimisation as the mana (RULES §13.2–13.4): the flow and fastopt
fast paths decline such problems (:attr:`Problem.has_assists`).

Unpayable answers carry a REASON: ``insufficient_mana`` with ``missing`` (the
smallest cost added sources would have to cover: from the flow bound on plain
boards — a max-flow serving colored demands first — else from a CP-SAT model with
one slack per demand, minimised: total first, then colored), ``insufficient_life``,
``insufficient_energy``, ``restricted_mana`` (payable if the restricted mana
could be spent), ``no_legal_x`` (``max_x`` when even X=0 fails).  When the board
holds permanents the supply could not model (unreadable mana text; an Altar whose
fodder has a usable mana ability that costs mana; triggered mana from a snow source)
and the cost is unpayable without them, the answer is an ``Unsupported`` error naming
the permanent and clause, never a wrong "unpayable".

Costs that spend other resources (sacrificing other permanents: Ashnod's Altar;
tapping other permanents: Heritage Druid, Springleaf Drum; cards in the hand: Simian
Spirit Guide) and snow lands whose triggered mana is not snow (Wild Growth) are
modelled by CP-SAT and the enumeration: the supply is built with
``build_supply(resources=True)`` and ``pay`` never asks fastopt when
:attr:`Supply.resource_costs` is set (:func:`_run`).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from manasolver.models.cost import ManaCost
from manasolver.models.errors import BadQuery, Unsupported
from manasolver.solver.casting.announce import Announcement, announce, mask_text
from manasolver.solver.backends.problem import Problem, Solution, to_payment
from manasolver.solver.payment import Payment
from manasolver.solver.policy import check_policy
from manasolver.solver.request import Modifier, PaymentRequest
from manasolver.solver.supply.build import build_supply
from manasolver.solver.supply.model import Supply
from manasolver.solver.supply.resources import reserved_ids, without_cast_card
from manasolver.solver.supply.unmodelled import guard_doublers, guard_excluded

__all__ = ["CanPayAnswer", "MaxXAnswer", "PayAnswer", "PaymentsAnswer", "Reason", "backend_named",
           "can_pay", "max_x", "pay", "payments", "prepare"]


@dataclass(frozen=True, slots=True)
class Reason:
    """Why a cost can't be paid (SPEC §5 REASON)."""

    code: str
    message: str
    missing: str | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"code": self.code, "message": self.message}
        if self.missing is not None:
            out["missing"] = self.missing
        return out


@dataclass(frozen=True, slots=True)
class PayAnswer:
    """``{"payable": true, "payment": …}`` or ``{"payable": false, "reason": …}``."""

    payable: bool
    payment: Payment | None = None
    reason: Reason | None = None
    time_bound: bool = False
    #: Sources left out as unsupported (permanent, why): the payment is legal, but one using
    #: them might be better under the policy, so the answer says so.
    unsupported: tuple[tuple[str, str], ...] = ()

    def to_json(self) -> dict[str, Any]:
        if self.payable:
            assert self.payment is not None
            out: dict[str, Any] = {"payable": True, "payment": self.payment.to_json()}
            if self.time_bound:
                out["time_bound"] = True  # a time bound stopped the proof of optimality
            if self.unsupported:
                out["unsupported"] = [{"permanent": p, "reason": r} for p, r in self.unsupported]
            return out
        assert self.reason is not None
        return {"payable": False, "reason": self.reason.to_json()}


@dataclass(frozen=True, slots=True)
class CanPayAnswer:
    """``{"payable": bool}`` with ``reason`` only when false."""

    payable: bool
    reason: Reason | None = None

    def to_json(self) -> dict[str, Any]:
        if self.payable or self.reason is None:
            return {"payable": self.payable}
        return {"payable": False, "reason": self.reason.to_json()}


@dataclass(frozen=True, slots=True)
class MaxXAnswer:
    """``{"max_x": N, "payment": …}`` or ``{"max_x": null, "reason": …}``."""

    max_x: int | None
    payment: Payment | None = None
    reason: Reason | None = None
    time_bound: bool = False

    def to_json(self) -> dict[str, Any]:
        if self.max_x is not None:
            assert self.payment is not None
            out: dict[str, Any] = {"max_x": self.max_x, "payment": self.payment.to_json()}
            if self.time_bound:
                out["time_bound"] = True
            return out
        assert self.reason is not None
        return {"max_x": None, "reason": self.reason.to_json()}


@dataclass(frozen=True, slots=True)
class PaymentsAnswer:
    """``{"payments": […], "complete": bool}``."""

    payments: tuple[Payment, ...]
    complete: bool

    def to_json(self) -> dict[str, Any]:
        return {"payments": [p.to_json() for p in self.payments], "complete": self.complete}


# -- plumbing ---------------------------------------------------------------------------------

_ANNOUNCED: dict[tuple[int, int], tuple[ManaCost, tuple[Modifier, ...], Announcement]] = {}


def _announce(cost: ManaCost, modifiers: tuple[Modifier, ...]) -> Announcement:
    """:func:`announce`, remembered per cost object (hashing a long cost's symbols on
    every query costs more than the Hall check itself), then per cost text."""
    key = (id(cost), id(modifiers))
    hit = _ANNOUNCED.get(key)
    if hit is not None and hit[0] is cost and hit[1] is modifiers:
        return hit[2]
    ann = _announce_text(cost.format(), modifiers)
    if len(_ANNOUNCED) > 1024:
        _ANNOUNCED.clear()
    _ANNOUNCED[key] = (cost, modifiers, ann)
    return ann


@lru_cache(maxsize=1024)
def _announce_text(cost: str, modifiers: tuple[Modifier, ...]) -> Announcement:
    return announce(ManaCost.parse(cost, allow_empty=True), None, modifiers)


def backend_named(name: str) -> Any:
    """The backend object called ``name`` (``flow``, ``fastopt``, ``cpsat``, ``csp``)."""
    if name == "flow":
        from manasolver.solver.backends.flow import FlowBackend
        return FlowBackend()
    if name == "cpsat":
        from manasolver.solver.backends.cpsat import CpSatBackend
        return CpSatBackend()
    if name == "fastopt":
        from manasolver.solver.backends.fastopt import FastOptBackend
        return FastOptBackend()
    if name == "csp":
        try:
            from manasolver.solver.backends import csp
        except ImportError:
            raise Unsupported("the csp backend is not available", "backend") from None
        cls = getattr(csp, "CspBackend", None)
        if cls is None:
            raise Unsupported("the csp backend has no CspBackend class", "backend")
        return cls()
    raise BadQuery(f"unknown backend {name!r}; known: flow, fastopt, cpsat, csp", "backend")


def prepare(req: PaymentRequest, mode: str, x: int | None = 0,
            ignore_restrictions: bool = False) -> Problem:
    """The :class:`Problem` a backend solves for ``req`` (public so that other
    backends and the tests build the same problems)."""
    if req.x is not None and req.x < 0:
        raise BadQuery(f"x must be 0 or more, not {req.x}", "x")
    check_policy(req.policy)
    supply = without_cast_card(build_supply(req.state, req.player, resources=True,
                                            reserved=reserved_ids(req)), req.spell)
    ann = _announce(req.cost, req.modifiers)
    return Problem.build(req, supply, ann, mode, x, ignore_restrictions)


def _fixed_x(req: PaymentRequest) -> int:
    """X for ``pay``/``can_pay``: the request's, else the smallest legal X, 0."""
    return req.x if req.x is not None else 0


def _run(problem: Problem, backend: str | None, need_payment: bool = True) -> Solution | bool:
    if backend is None:
        if problem.mode == "feasible":
            from manasolver.solver.backends.flow import FlowBackend
            if need_payment:
                found = FlowBackend().solve(problem)
                if found is not None:
                    return found
            else:
                verdict = FlowBackend().feasible(problem)
                if verdict is not None:
                    return verdict[1]
        if problem.mode == "optimal" and not problem.supply.resource_costs:
            # Costs that sacrifice other permanents (Altars) are modelled by CP-SAT and the
            # enumeration only: the fast optimiser is never asked about them.
            from manasolver.solver.backends.fastopt import FastOptBackend
            found = FastOptBackend().solve(problem)
            if found is not None:
                return found
        backend = "cpsat"
    if backend == "fastopt" and problem.supply.resource_costs:
        raise Unsupported("the fastopt backend does not model costs that sacrifice or tap other "
                          "permanents, cards in the hand or nonsnow triggered mana on snow lands; "
                          "use the default backend", "backend")
    chosen = backend_named(backend)
    if not hasattr(chosen, "solve"):
        raise Unsupported(f"the {backend} backend does not answer this query", "backend")
    result = chosen.solve(problem)
    if result is None:
        raise Unsupported(f"the {backend} backend cannot answer this problem exactly; "
                          "use the default backend", "backend")
    return result  # type: ignore[no-any-return]


def _missing_text(slack: dict[tuple[Any, ...], int]) -> str:
    """Slack per demand as a cost: ``{1}{G}``."""
    parts: list[str] = []
    g = slack.get(("generic",), 0)
    if g:
        parts.append("{" + str(g) + "}")
    order = "WUBRGC"
    singles = []
    for d, n in slack.items():
        if d[0] == "spell":
            singles.extend([mask_text(int(d[1]))] * n)
    singles.sort(key=lambda s: (len(s), order.index(s[1]) if s[1] in order else 9, s))
    parts.extend(singles)
    parts.extend(["{S}"] * slack.get(("snow",), 0))
    return "".join(parts) or "{0}"


def _payable(sub: PaymentRequest) -> bool:
    """Is ``sub``'s cost payable (at X=0)? The sub-problem :func:`guard_doublers` asks."""
    return _run(prepare(sub, "feasible", 0), None, need_payment=False) is not False


def _guard_doublers(req: PaymentRequest, supply: Supply) -> Supply:
    """:func:`~manasolver.solver.supply.unmodelled.guard_doublers` with this module's payability."""
    return guard_doublers(req, supply, _payable)


def _reason(req: PaymentRequest, mode: str, x: int | None) -> Reason:
    """The REASON for an unpayable problem (see the module docstring): from the flow
    bound on plain boards, else from CP-SAT with slack variables."""
    if req.policy.spend_color:
        import dataclasses
        free = dataclasses.replace(req, policy=dataclasses.replace(req.policy, spend_color=()))
        if _run(prepare(free, "feasible", x), None, need_payment=False) is not False:
            need = " and ".join(f"{n} {{{c}}}" for c, n in req.policy.spend_color)
            return Reason("insufficient_mana", f"payable, but not while spending at least {need} "
                          f"(the policy's spend_color requirement)")
    problem = prepare(req, "feasible", x)
    from manasolver.solver.backends.flow import FlowBackend
    quick = FlowBackend().shortfall(problem)
    if quick is not None:
        short, life_short, energy_short = quick
        if not short:
            if energy_short:
                return Reason("insufficient_energy", f"needs {energy_short} more energy than "
                              f"the player has ({problem.supply.energy})")
            return Reason("insufficient_life", f"needs {life_short} more life than the player "
                          f"has ({problem.supply.life}) to pay life (CR 119.4)")
        missing = _missing_text(short)
        if energy_short:
            return Reason("insufficient_energy", f"needs {energy_short} more energy, or {missing} "
                          "more mana", missing)
        if life_short:
            return Reason("insufficient_life", f"needs {life_short} more life (CR 119.4), or "
                          f"{missing} more mana", missing)
        return Reason("insufficient_mana", f"{missing} more mana is needed", missing)
    from manasolver.solver.backends.cpsat import CpSatBackend

    cp = CpSatBackend()
    first = cp.relaxed(problem)
    if first is None:
        loose = cp.relaxed(problem, relax_life=True, relax_energy=True)
        if loose is not None and loose[2] > 0:
            return Reason("insufficient_energy", f"needs {loose[2]} more energy than the player "
                          f"has ({problem.supply.energy})")
        if loose is not None and loose[1] > 0:
            return Reason("insufficient_life", f"needs {loose[1]} more life than the player has "
                          f"({problem.supply.life}) to pay life (CR 119.4)")
        return Reason("insufficient_mana", "no way to pay this cost")
    slack, _, _ = first
    missing = _missing_text(slack)
    if any(problem.supply.classes[k].options[o].restriction is not None
           for k, cls in enumerate(problem.supply.classes) for o in range(len(cls.options))):
        lifted = prepare(req, "feasible", x, ignore_restrictions=True)
        if cp.solve(lifted) is not False:
            return Reason("restricted_mana", "payable only with mana whose spending restriction "
                          "does not allow this (CR 106.6)", missing)
    loose = cp.relaxed(problem, relax_life=True, relax_energy=True, mana_first=True)
    if loose is not None and not loose[0]:
        if loose[2] > 0:
            return Reason("insufficient_energy", f"needs {loose[2]} more energy, or {missing} "
                          "more mana", missing)
        if loose[1] > 0:
            return Reason("insufficient_life", f"needs {loose[1]} more life (CR 119.4), or "
                          f"{missing} more mana", missing)
    return Reason("insufficient_mana", f"{missing} more mana is needed", missing)


# -- the queries ------------------------------------------------------------------------------

def _csp_first(req: PaymentRequest) -> Payment | None:
    """One payment from the enumeration backend, ``None`` when it proved there is none;
    an ``Unsupported`` error when its list was cut short (a bound, an excluded source)."""
    found, complete = backend_named("csp").payments(req, 1)
    if found:
        return found[0]  # type: ignore[no-any-return]
    if not complete:
        raise Unsupported("the csp backend could not finish the enumeration (a time bound or "
                          "a source it does not model); use the default backend", "backend")
    return None


def can_pay(req: PaymentRequest, backend: str | None = None) -> CanPayAnswer:
    """Can ``req``'s cost be paid now? Exact; default backend: flow, else CP-SAT."""
    x = _fixed_x(req)
    problem = prepare(req, "feasible", x)
    if backend == "csp":
        if _csp_first(req) is not None:
            return CanPayAnswer(True)
        guard_excluded(_guard_doublers(req, problem.supply), req)
        return CanPayAnswer(False, _reason(req, "feasible", x))
    result = _run(problem, backend, need_payment=False)
    if result is not False:
        return CanPayAnswer(True)
    guard_excluded(_guard_doublers(req, problem.supply), req)
    return CanPayAnswer(False, _reason(req, "feasible", x))


def pay(req: PaymentRequest, backend: str | None = None) -> PayAnswer:
    """The best payment of ``req``'s cost under its policy (SPEC §6), or why there is none."""
    x = _fixed_x(req)
    mode = "feasible" if backend in ("flow", "csp") else "optimal"
    problem = prepare(req, mode, x)
    supply = _guard_doublers(req, problem.supply)
    if backend == "csp":  # the first payment enumerated, not an optimised one
        first = _csp_first(req)
        if first is not None:
            return PayAnswer(True, payment=first)
        guard_excluded(supply, req)
        return PayAnswer(False, reason=_reason(req, "feasible", x))
    result = _run(problem, backend)
    if result is False:
        guard_excluded(supply, req)
        return PayAnswer(False, reason=_reason(req, "feasible", x))
    assert isinstance(result, Solution)
    why = "the payment is legal, its optimality is proven only without it"
    ignored = tuple((e.permanent, f"{e.name}: left out ({e.reason}: {e.clause}); {why}") for e in supply.excluded)
    return PayAnswer(True, payment=to_payment(problem, result), time_bound=not result.optimal,
                     unsupported=ignored)


def _max_x_by_bisection(req: PaymentRequest) -> MaxXAnswer | None:
    """On plain boards: bisect X with the exact flow check (payability only falls as X
    grows: the generic part never shrinks), then the best payment at that X; ``None``
    when the flow check declines somewhere (CP-SAT then optimises X directly)."""
    import dataclasses

    from manasolver.solver.backends.flow import FlowBackend

    flow = FlowBackend()

    def payable(x: int) -> bool | None:
        verdict = flow.feasible(prepare(req, "feasible", x))
        return None if verdict is None else verdict[1]

    first = payable(0)
    if not first:
        return None
    problem = prepare(req, "feasible", 0)
    sup = problem.supply
    units = sup.pool_total + sum(
        k.count * max((o.produced * (1 if o.exclusive else o.repeat) for o in k.options), default=0)
        for k in sup.classes)
    slack = max(f.generic_reduction for f in problem.forms)
    lo, hi = 0, (units + slack) // max(1, problem.announcement.x_count) + 1
    while lo < hi:  # invariant: lo payable, hi + 1 not known payable
        mid = (lo + hi + 1) // 2
        verdict = payable(mid)
        if verdict is None:
            return None
        if verdict:
            lo = mid
        else:
            hi = mid - 1
    answer = pay(dataclasses.replace(req, x=lo))
    if not answer.payable or answer.payment is None:  # pragma: no cover - flow said payable
        return None
    return MaxXAnswer(lo, payment=answer.payment, time_bound=answer.time_bound)


def max_x(req: PaymentRequest, backend: str | None = None) -> MaxXAnswer:
    """The largest X payable, with its best payment: by bisection over the exact flow
    check on plain boards, else by CP-SAT maximising X (never a linear probe)."""
    if not req.cost.variables:
        raise BadQuery("max_x needs a cost with {X}", "cost")
    supply = _guard_doublers(req, build_supply(req.state, req.player, resources=True))
    guard_excluded(supply, req)  # an unmodelled source could make X larger: refuse, never understate
    if backend is None:
        quick = _max_x_by_bisection(req)
        if quick is not None:
            return quick
    problem = prepare(req, "max_x", None)
    result = _run(problem, backend or "cpsat")
    if result is False:
        guard_excluded(supply, req)
        inner = _reason(req, "feasible", 0)
        return MaxXAnswer(None, reason=Reason("no_legal_x", "even X=0 can't be paid: "
                                              + inner.message, inner.missing))
    assert isinstance(result, Solution)
    return MaxXAnswer(result.x, payment=to_payment(problem, result), time_bound=not result.optimal)


def payments(req: PaymentRequest, limit: int = 100) -> PaymentsAnswer:
    """Every distinct payment, up to ``limit``: delegated to the enumeration backend
    (:mod:`manasolver.solver.backends.csp`)."""
    supply = _guard_doublers(req, build_supply(req.state, req.player, resources=True))
    try:
        from manasolver.solver.backends import csp
    except ImportError:
        raise Unsupported("enumerating payments needs the csp backend, which is not available",
                          "query") from None
    fn = getattr(csp, "payments", None)
    if fn is None:
        raise Unsupported("the csp backend has no payments() function", "query")
    out = fn(req, limit)
    if supply.excluded:
        # payments using an unmodelled source are missing from the list
        out = PaymentsAnswer(tuple(out[0]), False) if isinstance(out, tuple) else dataclasses.replace(
            out, complete=False)
    if isinstance(out, PaymentsAnswer):
        return out
    if isinstance(out, tuple) and len(out) == 2:
        return PaymentsAnswer(tuple(out[0]), bool(out[1]))
    return out  # type: ignore[no-any-return]
