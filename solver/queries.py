"""The payment queries: ``pay``, ``can_pay``, ``max_x``, ``payments``.

Each takes a :class:`~manasolver.solver.request.PaymentRequest`, builds its
:class:`~manasolver.solver.backends.problem.Problem` once per mode and X, and returns a small
answer dataclass (:mod:`manasolver.solver.answers`) whose ``to_json()`` is exactly the
protocol's shape.

``backend``: ``None`` means the documented default chain of the
registry (:data:`manasolver.solver.backends.DEFAULT_CHAINS`), which may change:
``can_pay`` asks the flow fast path, then the fast optimiser, and falls back to CP-SAT when
both decline; ``pay`` asks the plain-Python exact optimiser
(:mod:`~manasolver.solver.backends.fastopt`) and falls back to CP-SAT when it
declines; ``max_x`` bisects X with the ``can_pay`` flow check on plain boards, else
uses CP-SAT (optimal under the policy).  Named backends:
``"fastopt"`` (declining is an ``Unsupported`` error), ``"flow"`` (``pay`` then
returns *a* payment, not an optimised one), ``"cpsat"``, and ``"csp"`` the
enumeration backend (``pay`` then returns the first payment it lists; ``max_x``
does not take it).

Convoke, improvise and delve (when the request allows them and the player has an
untapped creature, an untapped artifact or a graveyard card) are paid by CP-SAT inside the
same optimisation as the mana (CR 702.51, 702.66, 702.126): the fastopt fast path declines such
problems (:attr:`Problem.has_assists`), and the flow decides their payability over units
that count each assisting permanent once (:func:`~manasolver.solver.backends.flow.assisted_units`)
where it can.

Unpayable answers carry a REASON (:mod:`manasolver.solver.reasons`, from the
query's own problem): ``insufficient_mana`` with ``missing``, ``insufficient_life``,
``insufficient_energy``, ``restricted_mana``, and ``no_legal_x`` (``max_x`` when even
X=0 fails).  When the board holds permanents the supply could not model (unreadable
mana text; an Altar whose fodder has a usable mana ability that costs mana; triggered
mana from a snow source) and the cost is unpayable without them, the answer is an
``Unsupported`` error naming the permanent and clause, never a wrong "unpayable".

Each query runs within one time budget (:mod:`~manasolver.solver.budget`), shared by every
stage it runs (and by the queries it asks inside: ``max_x`` asking ``pay``).

Costs that spend other resources (sacrificing other permanents: Ashnod's Altar;
tapping other permanents: Heritage Druid, Springleaf Drum; cards in the hand: Simian
Spirit Guide) and snow lands whose triggered mana is not snow (Wild Growth) are
modelled by CP-SAT and the enumeration: the supply is built with
``build_supply(resources=True)`` and fastopt declines when
:attr:`Supply.resource_costs` is set.
"""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING

from manasolver.models.errors import BadQuery, Unsupported
from manasolver.solver import backends
from manasolver.solver.budget import OutOfTime, budgeted, current
from manasolver.solver.answers import CanPayAnswer, MaxXAnswer, PayAnswer, PaymentsAnswer, Reason
from manasolver.solver.backends import DEFAULT_CHAINS, PAYABLE, Declined, Infeasible, QueryName
from manasolver.solver.backends.problem import Mode, Problem, Solution, announced
from manasolver.solver.policy import check_policy
from manasolver.solver.reasons import reason
from manasolver.solver.request import PaymentRequest
from manasolver.solver.supply.build import build_supply
from manasolver.solver.supply.model import Supply
from manasolver.solver.supply.resources import reserved_ids, without_cast_card
from manasolver.solver.supply.unmodelled import guard_doublers, guard_excluded

if TYPE_CHECKING:  # a payment's types: the writer is imported when an answer carries one
    from collections.abc import Callable

    from manasolver.models.state import GameState
    from manasolver.solver.payment import Payment

__all__ = ["CanPayAnswer", "MaxXAnswer", "PayAnswer", "PaymentsAnswer", "Reason", "can_pay", "max_x",
           "pay", "payments", "prepare", "problem_for"]


# -- plumbing ---------------------------------------------------------------------------------

def prepare(req: PaymentRequest, mode: Mode, x: int | None = 0,
            ignore_restrictions: bool = False) -> Problem:
    """The :class:`Problem` a backend solves for ``req`` (public so that other
    backends and the tests build the same problems).  Its policy is checked here
    (:func:`~manasolver.solver.policy.check_policy`)."""
    if req.x is not None and req.x < 0:
        raise BadQuery(f"x must be 0 or more, not {req.x}", "x")
    check_policy(req.policy)
    supply = without_cast_card(build_supply(req.state, req.player, resources=True,
                                            reserved=reserved_ids(req)), req.spell, req.state)
    ann = announced(req.cost, req.modifiers)
    return Problem.build(req, supply, ann, mode, x, ignore_restrictions)


def problem_for(req: PaymentRequest, supply: Supply, mode: Mode, x: int | None) -> Problem:
    """The :class:`Problem` of ``req`` over a given ``supply`` (a manual payment's supply after a
    step: :mod:`~manasolver.solver.guide`)."""
    return Problem.build(req, supply, announced(req.cost, req.modifiers), mode, x)


def _fixed_x(req: PaymentRequest) -> int:
    """X for ``pay``/``can_pay``: the request's, else the smallest legal X, 0."""
    return req.x if req.x is not None else 0


def _chain(backend: str | None, query: QueryName) -> tuple[str, ...]:
    """The backends to ask: the query's default chain, or the one named."""
    return DEFAULT_CHAINS[query] if backend is None else (backend,)


def _solve(problem: Problem, backend: str | None, query: QueryName) -> Solution | Infeasible:
    """``problem`` solved by ``backend`` or the query's default chain; a decline is an
    ``Unsupported`` error saying why."""
    out = backends.solve(problem, _chain(backend, query))
    if isinstance(out, Declined):
        raise Unsupported(out.why, "backend")
    return out


def _payable(sub: PaymentRequest) -> bool:
    """Is ``sub``'s cost payable (at X=0)? The sub-problem :func:`guard_doublers` asks."""
    return backends.payable(prepare(sub, "feasible", 0), DEFAULT_CHAINS["can_pay"])


def _guard_doublers(req: PaymentRequest, supply: Supply) -> Supply:
    """:func:`~manasolver.solver.supply.unmodelled.guard_doublers` with this module's payability
    (on a board without a pool doubler, the supply as it is: what the guard returns there,
    without its bound on the board's mana)."""
    if not (_FIND_DOUBLERS or _find_doublers())(req.state, supply.player):
        return supply
    return guard_doublers(req, supply, _payable)


def _find_doublers() -> Callable[[GameState, str], tuple[object, ...]]:
    """:func:`~manasolver.solver.pools.doublers.find_doublers`, imported when an answer first asks
    for it (an unpayable cost: a payable one never loads the pools), then kept as this module's
    (an ``import`` statement run for every such answer is a microsecond)."""
    global _FIND_DOUBLERS
    from manasolver.solver.pools.doublers import find_doublers
    _FIND_DOUBLERS = find_doublers
    return find_doublers


_FIND_DOUBLERS: Callable[[GameState, str], tuple[object, ...]] | None = None


def _doublers_left_out(req: PaymentRequest, supply: Supply) -> tuple[Supply, Unsupported | None]:
    """:func:`_guard_doublers` for an answer that may name what it left out: the supply, and the
    refusal a pool doubler that could be activated now raised (``None``: none could).  A payment
    found without the doubler is legal and is answered, the doubler named under ``unsupported``
    (the supply keeps it in ``excluded``); no payment without it is refused with that error, as
    ``can_pay`` does, since the doubler might make the cost payable."""
    try:
        return _guard_doublers(req, supply), None
    except Unsupported as err:
        return supply, err


# -- the queries ------------------------------------------------------------------------------

def _csp_first(problem: Problem) -> Payment | None:
    """One payment from the enumeration backend (over the problem's supply), ``None`` when it
    proved there is none; an ``Unsupported`` error when its list was cut short (a bound, an
    excluded source)."""
    found, complete = backends.enumerator("csp").payments(problem.req, 1, supply=problem.supply)
    if found:
        from manasolver.solver.payment_writer import finish_payment
        return finish_payment(problem, found[0])
    if not complete:
        raise Unsupported("the csp backend could not finish the enumeration (a time bound or "
                          "a source it does not model); use the default backend", "backend")
    return None


@budgeted
def can_pay(req: PaymentRequest, backend: str | None = None) -> CanPayAnswer:
    """Can ``req``'s cost be paid now? Exact; default backend: flow, else CP-SAT.  The ``flow``
    backend named answers by Hall's condition alone (:func:`~manasolver.solver.backends.hall_check`),
    as far as it writes a payment with it (``pay``), and declines beyond."""
    problem = prepare(req, "feasible", _fixed_x(req))
    if backend == "csp":
        if _csp_first(problem) is not None:
            return _PAYABLE
        guard_excluded(_guard_doublers(req, problem.supply), req)
        return CanPayAnswer(False, reason(problem))
    if backend == "flow":
        verdict = backends.hall_check(problem)
    else:
        verdict = backends.decide(problem, _chain(backend, "can_pay"))
    if isinstance(verdict, Declined):
        raise Unsupported(verdict.why, "backend")
    if not isinstance(verdict, Infeasible):
        return _PAYABLE
    guard_excluded(_guard_doublers(req, problem.supply), req)
    return CanPayAnswer(False, reason(problem, verdict))


#: ``can_pay``'s answer for a payable cost: one frozen value, shared (it reads nothing of the query).
_PAYABLE = CanPayAnswer(True)


@budgeted
def pay(req: PaymentRequest, backend: str | None = None) -> PayAnswer:
    """The best payment of ``req``'s cost under its policy, or why there is none."""
    x = _fixed_x(req)
    mode: Mode = "feasible" if backend in ("flow", "csp") else "optimal"
    problem = prepare(req, mode, x)
    supply, doubler = _doublers_left_out(req, problem.supply)
    if backend == "csp":  # the first payment enumerated, not an optimised one
        first = _csp_first(problem)
        if first is not None:
            return PayAnswer(True, payment=first)
        if doubler is not None:
            raise doubler
        guard_excluded(supply, req)
        return PayAnswer(False, reason=reason(problem))
    feasible = problem.at("feasible", x)
    # an unpayable cost proven so by the flow goes to its reason (with what the proof found
    # missing) without an optimiser
    proof = backends.decide(feasible, ("flow",)) if backend is None else None
    result = proof if isinstance(proof, Infeasible) else _solve(problem, backend, "pay")
    if isinstance(result, Infeasible):
        if doubler is not None:
            raise doubler  # the doubler might make it payable
        guard_excluded(supply, req)
        return PayAnswer(False, reason=reason(feasible, result))
    why = "the payment is legal, its optimality is proven only without it"
    ignored = tuple((e.permanent, f"{e.name}: left out ({e.reason}: {e.clause}); {why}") for e in supply.excluded)
    from manasolver.solver.payment_writer import Written
    return PayAnswer(True, source=Written(problem, result), time_bound=not result.optimal,
                     unsupported=ignored)


#: Members of classes whose abilities cost mana (Signets, filter lands) past which CP-SAT's
#: ``max_x`` model, with a flow for each pair of them that may pay one another, is not built
#: within the query's budget: ``max_x`` then bisects X with the fast optimiser's exact
#: feasibility too (:func:`_max_x_by_bisection`).  Boards below it keep CP-SAT's answer.
PAIRWISE_MEMBERS = 64


def _costly_members(supply: Supply) -> int:
    """How many members of ``supply`` have an ability that costs mana (expanded one by one in
    CP-SAT's model)."""
    return sum(k.count for k in supply.classes if not k.free)


def _max_x_by_bisection(base: Problem, partial: list[MaxXAnswer]) -> MaxXAnswer | None:
    """On plain boards: bisect X with the exact flow check (payability only falls as X
    grows: the generic part never shrinks), then the best payment at that X; ``None``
    when the flow check declines somewhere (CP-SAT then optimises X directly).  On boards of
    more than :data:`PAIRWISE_MEMBERS` mana-costing members the fast optimiser decides where
    the flow check declines, and when both decline the largest X proven payable so far is put
    in ``partial`` with the payment found there (not optimised), flagged ``time_bound`` (not
    proven the largest): the answer should CP-SAT not finish within the budget.  ``base`` is the request's problem
    at X=0."""
    large = _costly_members(base.supply) > PAIRWISE_MEMBERS
    last: list[tuple[Problem, Solution]] = []  # on large boards: the last payment found

    def payable(x: int) -> bool | None:
        problem = base.at("feasible", x) if x else base
        if large:
            found = backends.solve(problem, ("flow", "fastopt"))
            if isinstance(found, Solution):
                last.append((problem, found))
            return None if isinstance(found, Declined) else isinstance(found, Solution)
        verdict = backends.hall_check(problem)
        return None if isinstance(verdict, Declined) else verdict is PAYABLE

    first = payable(0)
    if not first:
        return None
    sup = base.supply
    units = sup.pool_total + sum(
        k.count * max((o.produced * (1 if o.exclusive else o.repeat) for o in k.options), default=0)
        for k in sup.classes) + sum(len(g.members) for g in base.assists.groups) + len(base.assists.graveyard)
    slack = max(f.generic_reduction for f in base.forms)
    lo, hi = 0, (units + slack) // max(1, base.announcement.x_count) + 1
    while lo < hi:  # invariant: lo payable, hi + 1 not known payable
        mid = (lo + hi + 1) // 2
        verdict = payable(mid)
        if verdict is None:
            if last:  # the payment found at the largest X proven payable, not optimised
                from manasolver.solver.payment_writer import Written
                problem, sol = max(last, key=lambda found: found[0].x or 0)
                partial.append(MaxXAnswer(problem.x or 0, source=Written(problem, sol), time_bound=True))
            return None
        if verdict:
            lo = mid
        else:
            hi = mid - 1
    answer = pay(dataclasses.replace(base.req, x=lo))
    if not answer.payable or (answer.source is None and answer.payment is None):  # pragma: no cover
        return None  # the flow check said payable
    return MaxXAnswer(lo, payment=None if answer.source else answer.payment, time_bound=answer.time_bound,
                      source=answer.source)


def _no_legal_x(base: Problem, supply: Supply) -> MaxXAnswer:
    """``max_x``'s answer when even X=0 (``base``) is unpayable: ``no_legal_x`` and why."""
    guard_excluded(supply, base.req)
    inner = reason(base)
    return MaxXAnswer(None, reason=Reason("no_legal_x", "even X=0 can't be paid: "
                                          + inner.message, inner.missing, inner.proved))


@budgeted
def max_x(req: PaymentRequest, backend: str | None = None) -> MaxXAnswer:
    """The largest X payable, with its best payment: by bisection over the exact flow
    check on plain boards, else by CP-SAT maximising X (never a linear probe)."""
    if not req.cost.variables:
        raise BadQuery("max_x needs a cost with {X}", "cost")
    supply, _doubler = _doublers_left_out(req, without_cast_card(build_supply(req.state, req.player, resources=True),
                                                                 req.spell, req.state))
    guard_excluded(supply, req)  # an unmodelled source could make X larger: refuse, never understate
    base = prepare(req, "feasible", 0)
    partial: list[MaxXAnswer] = []
    if backend is None:
        quick = _max_x_by_bisection(base, partial)
        if quick is not None:
            return quick
        if isinstance(backends.backend("fastopt").decide(base), Infeasible):
            return _no_legal_x(base, supply)  # proved at X=0 by counts, no CP-SAT model built
    problem = base.at("max_x", None)
    try:
        result = _solve(problem, backend, "max_x")
    except OutOfTime:
        if partial:  # the largest X proven payable, flagged: CP-SAT did not finish in time
            current().mark()
            return partial[0]
        raise
    if isinstance(result, Infeasible):
        return _no_legal_x(base, supply)
    from manasolver.solver.payment_writer import Written
    return MaxXAnswer(result.x, source=Written(problem, result), time_bound=not result.optimal)


@budgeted
def payments(req: PaymentRequest, limit: int = 100) -> PaymentsAnswer:
    """Every distinct payment, up to ``limit``, best first under the policy: listed by the
    enumeration backend (:mod:`manasolver.solver.backends.csp`), each written as a plan, ordered
    by its ``score`` (ties in board order), with ``pay``'s payment first."""
    from manasolver.solver.payment_writer import best_first
    supply, _doubler = _doublers_left_out(req, without_cast_card(build_supply(req.state, req.player, resources=True),
                                                                 req.spell, req.state))
    listed, complete = backends.enumerator(DEFAULT_CHAINS["payments"][0]).payments(req, limit)
    deadline = current()
    best: PayAnswer | None = None
    if limit > 0 and not deadline.expired() and (listed or not complete):
        # The optimiser's payment leads the list; when the list was cut short before its first
        # payment (huge boards) it is the list: never an empty stand-in.
        try:
            best = pay(req)
        except (Unsupported, OutOfTime):  # the time bound came first, or a source pay can't model
            best = None
    first = best.payment if best is not None and best.payable else None
    if listed or first is not None:
        listed = best_first(prepare(req, "feasible", _fixed_x(req)), listed, first, limit)
    # payments using an unmodelled source are missing from the list
    return PaymentsAnswer(tuple(listed), complete and not supply.excluded, time_bound=deadline.cut)
