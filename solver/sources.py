"""The player's word on particular permanents: ``sources: {require, exclude, preserve}``.

A client lets a player say "tap this one, the engine does the rest" (``require``), "never tap
that one" (``exclude``) and "keep this one if you can" (``preserve``).  :func:`read_sources`
reads the field (ids of permanents on the battlefield, each list without repeats);
:func:`excluded_board` is the board on which the excluded permanents can't be used (they are
taken as tapped: no mana ability with ``{T}``, no convoke or improvise, no cost that taps them),
and :func:`conflict` the ``conflicting_sources`` REASON of a permanent both required and
excluded.  The queries (:mod:`~manasolver.solver.queries`) honour ``require`` by
activating the required permanents first in every way they can be (the manual payment's
machinery, :mod:`~manasolver.solver.guide`) and ``preserve`` by the ``preserve`` criterion,
ranked right after ``no_sacrifice``: the fewest preserved permanents used.  The permanents a
payment may not use (excluded, or preserved beyond those it is let use) stay untapped after
it, so the request solved on that board names them ``idle``
(:class:`~manasolver.solver.request.Sources`), and ``keep_colors`` and ``keep_castable`` count
them as left.
"""

from __future__ import annotations

import dataclasses
import itertools
from collections import Counter
from typing import Any

from manasolver.models.errors import BadQuery
from manasolver.models.rules.uncertain import uncertain_sources
from manasolver.models.state import GameState
from manasolver.solver import queries
from manasolver.solver.answers import (
    CanPayAnswer,
    MaxXAnswer,
    PayAnswer,
    PaymentsAnswer,
    Reason,
)
from manasolver.solver.carry import excluded_board, pool_text
from manasolver.solver.guide import Step
from manasolver.solver.request import PaymentRequest, Sources

__all__ = ["can_pay", "can_pay_sourced", "conflict", "excluded_board", "max_x", "max_x_sourced", "pay",
           "legal", "preserve_subsets", "required_steps",
           "pay_sourced", "payments", "payments_sourced", "read_sources"]

_KINDS = ("require", "exclude", "preserve")


def read_sources(raw: object, state: GameState) -> Sources:
    """The ``sources`` field: an object of up to three lists of permanent ids."""
    if raw is None:
        return Sources()
    if not isinstance(raw, dict):
        raise BadQuery('sources must be an object {"require": [ids], "exclude": [ids], "preserve": [ids]}',
                       "sources")
    for key in raw:
        if key not in _KINDS:
            raise BadQuery(f"unknown field {key!r} of sources (require, exclude, preserve)", f"sources.{key}")
    ids = {p.id for p in state.battlefield}
    lists: dict[str, tuple[str, ...]] = {}
    for kind in _KINDS:
        value: Any = raw.get(kind, [])
        if not isinstance(value, list) or len(value) > 10_000:
            raise BadQuery(f"sources.{kind} must be a list of permanent ids", f"sources.{kind}")
        for i, pid in enumerate(value):
            if not isinstance(pid, str) or pid not in ids:
                raise BadQuery(f"{pid!r} is not the id of a permanent on the battlefield", f"sources.{kind}[{i}]")
        lists[kind] = tuple(dict.fromkeys(value))
    return Sources(lists["require"], lists["exclude"], lists["preserve"])


def conflict(sources: Sources) -> Reason | None:
    """``conflicting_sources`` when a permanent is both required and excluded."""
    for pid in sources.require:
        if pid in sources.exclude:
            return Reason("conflicting_sources", f"{pid} is both required and excluded")
    return None


# -- the queries with sources -----------------------------------------------------------------

#: Preserved permanents past which ``preserve`` tries only "none of them" and "all of them".
MAX_PRESERVE_SUBSETS = 8


def _plain(req: PaymentRequest, state: GameState) -> PaymentRequest:
    """``req`` on ``state`` (``req``'s board with the permanents the payment may not use taken as
    tapped) without the player's sources: those permanents tapped there but not on ``req``'s
    board are its ``idle`` ones, which the keep terms count as left untapped after the payment."""
    tapped = {p.id for p in state.battlefield if p.tapped}
    idle = tuple(p.id for p in req.state.battlefield if not p.tapped and p.id in tapped)
    return dataclasses.replace(req, state=state, sources=Sources(idle=idle) if idle else Sources())


def required_steps(req: PaymentRequest, state: GameState) -> list[list[Step]] | Reason:
    """Every way of activating the required permanents (one activation each, its option and
    mana), as manual payment steps; ``conflicting_sources`` naming one that can't be activated."""
    from manasolver.solver.guide import _find_all, realizations
    per: list[list[Step]] = []
    for pid in req.sources.require:
        ways = [Step(pid, opt.ability, mana) for opt in _find_all(req, state, pid)
                for mana in (pool_text(Counter(r)) for r in realizations(opt))]
        if not ways:
            return Reason("conflicting_sources", f"{pid} is required but has no mana ability it can activate now")
        per.append(ways)
    out: list[list[Step]] = []
    for combo in itertools.islice(itertools.product(*per), MAX_REQUIRE_WAYS):
        out.extend(_funded(req, state, list(combo)))
        if len(out) >= MAX_REQUIRE_WAYS:
            break
    return out[:MAX_REQUIRE_WAYS]


#: The most mana a required ability's own cost may take for its funding to be tried.
MAX_FUNDED = 2


def _funded(req: PaymentRequest, state: GameState, combo: list[Step]) -> list[list[Step]]:
    """``combo`` as it can be carried out: when the required activations' mana costs (a filter
    land's ``{1}``, a Signet's) are more than the pool holds, also every way of first activating
    free sources (no mana cost) that are not required to pay them (their mana floats like the
    rest).  Sources of a class are interchangeable, so each class is tried once per option and
    mana; costs paid by other costly sources are not tried."""
    from manasolver.solver.guide import _cost_masks, _supply, realizations
    supply = _supply(req, state)
    found = {pid: (opt, cls) for cls in supply.classes for pid in cls.members for opt in cls.options
             if any(s.permanent == pid and s.ability == opt.ability for s in combo)}
    need = sum(len(_cost_masks(opt)) for opt, _cls in found.values())
    pool = sum(n for _b, n in supply.pool)
    if not need or need <= pool:
        return [combo]
    short = need - pool
    if short > MAX_FUNDED:
        return [combo]
    required = {s.permanent for s in combo}
    funders: list[tuple[int, Step]] = []
    for k, cls in enumerate(supply.classes):
        free = [pid for pid in cls.members if pid not in required]
        if cls.hand or not free:
            continue
        for opt in cls.options:
            if opt.mana_cost.symbols or opt.sacrifice_other or opt.tap_creatures or opt.nonsnow_tail:
                continue
            for made in realizations(opt):
                funders.append((k, Step(free[0], opt.ability, pool_text(Counter(made)))))
    out = [combo]
    for picks in itertools.combinations_with_replacement(range(len(funders)), short):
        steps: list[Step] = []
        taken: Counter[int] = Counter()
        for i in picks:
            k, step = funders[i]
            members = [pid for pid in supply.classes[k].members if pid not in required]
            if taken[k] >= len(members):
                break
            steps.append(dataclasses.replace(step, permanent=members[taken[k]]))
            taken[k] += 1
        else:
            out.append(steps + combo)
    return out


#: Ways of activating the required permanents tried at most.
MAX_REQUIRE_WAYS = 512


def _best(req: PaymentRequest, state: GameState, backend: str | None) -> dict[str, Any] | Reason | None:
    """The best payment on ``state`` with the required permanents activated (as a plan written
    for ``req``, preserve counted), a REASON naming a required one that can't help, or None."""
    from manasolver.solver.guide import carry_partial, completions
    from manasolver.solver.payment_writer import Finisher
    from manasolver.solver.queries import pay as pay_plain
    from manasolver.solver.queries import prepare
    finisher = Finisher(prepare(req, "feasible", req.x or 0))
    plain = _plain(req, state)
    if not req.sources.require:
        answer = pay_plain(plain, backend)
        return finisher.plan(answer.to_json()["payment"]) if answer.payable else None
    ways = required_steps(req, state)
    if isinstance(ways, Reason):
        return ways
    best: tuple[list[int], dict[str, Any]] | None = None
    for steps in ways:
        branches = carry_partial(plain, steps)
        if isinstance(branches, dict):
            continue
        for whole in completions(plain, branches):
            whole = finisher.plan(whole)
            if not legal(plain, whole):
                continue
            key = [v for _n, v in whole["score"]]
            if best is None or key < best[0]:
                best = (key, whole)
    if best is None:
        if pay_plain(plain, backend).payable:
            return Reason("conflicting_sources", "the cost can't be paid with every required permanent "
                                                 f"activated ({', '.join(req.sources.require)})")
        return None
    return best[1]


def legal(req: PaymentRequest, out: dict[str, Any]) -> bool:
    """Is the PAYMENT ``out`` legal for ``req`` (:func:`~manasolver.solver.validate.validate`)?
    A payment completed after the required permanents were activated first reads their mana as
    plain pool mana; mana with a spending restriction (CR 106.6: Ancient Ziggurat's, for creature
    spells only) may then have paid what it can't, and such a payment is not an answer."""
    from manasolver.solver.payment import Payment
    from manasolver.solver.validate import validate
    try:
        payment = Payment.from_json(out)
    except ValueError:
        return False
    return validate(req, payment).legal


def preserve_subsets(ids: tuple[str, ...]) -> list[tuple[str, ...]]:
    """The preserved permanents a payment may use, fewest first."""
    if len(ids) > MAX_PRESERVE_SUBSETS:
        return [(), ids]
    return [c for k in range(len(ids) + 1) for c in itertools.combinations(ids, k)]


def pay_sourced(req: PaymentRequest, backend: str | None = None) -> PayAnswer:
    """``pay`` with ``sources``: the excluded never used, the required activated, the fewest
    preserved used (right after ``no_sacrifice``), the rest as the policy says."""
    from manasolver.solver.payment_writer import Planned
    from manasolver.solver.queries import pay as pay_plain
    bad = conflict(req.sources)
    if bad is not None:
        return PayAnswer(False, reason=bad)
    base = excluded_board(req.state, req.sources.exclude)
    best: tuple[list[int], dict[str, Any]] | None = None
    for allowed in preserve_subsets(req.sources.preserve):
        state = excluded_board(base, set(req.sources.preserve) - set(allowed) - set(req.sources.require))
        found = _best(req, state, backend)
        if isinstance(found, Reason):
            return PayAnswer(False, reason=found)
        if found is not None:
            key = [v for _n, v in found["score"]]
            if best is None or key < best[0]:
                best = (key, found)
    if best is None:
        return PayAnswer(False, reason=pay_plain(_plain(req, base), backend).reason)
    return PayAnswer(True, source=Planned(best[1]))


def can_pay_sourced(req: PaymentRequest, backend: str | None = None) -> CanPayAnswer:
    """``can_pay`` with ``sources`` (``preserve`` changes only which payment is best)."""
    answer = pay_sourced(dataclasses.replace(req, sources=dataclasses.replace(req.sources, preserve=())), backend)
    return CanPayAnswer(answer.payable, answer.reason)


def payments_sourced(req: PaymentRequest, limit: int) -> PaymentsAnswer:
    """``payments`` with ``sources``: those of the board without the excluded permanents that
    activate every required one, best first (``preserve`` counted), ``pay``'s first."""
    from manasolver.solver.payment_writer import best_first
    from manasolver.solver.queries import payments as listed_payments
    from manasolver.solver.queries import prepare
    listed = listed_payments(_plain(req, excluded_board(req.state, req.sources.exclude)), limit)
    need = set(req.sources.require)
    keep = [p for p in listed.payments if need <= {a.permanent for a in p.activations}]
    first = pay_sourced(req)
    head = first.payment if first.payable else None
    ordered = best_first(prepare(req, "feasible", req.x or 0), keep, head, limit) if keep or head else []
    return PaymentsAnswer(tuple(ordered), listed.complete, time_bound=listed.time_bound)


def max_x_sourced(req: PaymentRequest, backend: str | None = None) -> MaxXAnswer:
    """``max_x`` with ``sources``: the largest X of the board without the excluded permanents at
    which the required ones can be activated (payability falls as X grows), its best payment."""
    from manasolver.solver.queries import max_x as plain_max_x
    top = plain_max_x(_plain(req, excluded_board(req.state, req.sources.exclude)), backend)
    if top.max_x is None:
        return top
    lo, hi = -1, top.max_x
    while lo < hi:  # invariant: lo payable (or -1), every X above hi unpayable
        mid = (lo + hi + 1) // 2
        if pay_sourced(dataclasses.replace(req, x=mid), backend).payable:
            lo = mid
        else:
            hi = mid - 1
    if lo < 0:
        inner = pay_sourced(dataclasses.replace(req, x=0), backend).reason
        return MaxXAnswer(None, reason=inner)
    best = pay_sourced(dataclasses.replace(req, x=lo), backend)
    return MaxXAnswer(lo, source=best.source, time_bound=top.time_bound)


# -- the queries, with or without sources -----------------------------------------------------

#: The answers of the four payment queries below name the sources whose mana depends on chance or
#: another player's choice (Rhystic Cave), which every backend counts as the least they give
#: (:func:`~manasolver.models.rules.uncertain.uncertain_sources`).


def _uncertain(req: PaymentRequest) -> tuple[tuple[str, str], ...]:
    return uncertain_sources(req.state, req.player)


def pay(req: PaymentRequest, backend: str | None = None) -> PayAnswer:
    """:func:`~manasolver.solver.queries.pay`, honouring ``req.sources``."""
    got = pay_sourced(req, backend) if req.sources else queries.pay(req, backend)
    found = _uncertain(req)
    return got.naming_uncertain(found) if found else got


def can_pay(req: PaymentRequest, backend: str | None = None) -> CanPayAnswer:
    """:func:`~manasolver.solver.queries.can_pay`, honouring ``req.sources``."""
    got = can_pay_sourced(req, backend) if req.sources else queries.can_pay(req, backend)
    found = _uncertain(req)
    return dataclasses.replace(got, uncertain=found) if found else got


def payments(req: PaymentRequest, limit: int = 100) -> PaymentsAnswer:
    """:func:`~manasolver.solver.queries.payments`, honouring ``req.sources``."""
    got = payments_sourced(req, limit) if req.sources else queries.payments(req, limit)
    found = _uncertain(req)
    return dataclasses.replace(got, uncertain=found) if found else got


def max_x(req: PaymentRequest, backend: str | None = None) -> MaxXAnswer:
    """:func:`~manasolver.solver.queries.max_x`, honouring ``req.sources``."""
    got = max_x_sourced(req, backend) if req.sources and req.cost.variables else queries.max_x(req, backend)
    found = _uncertain(req)
    return got.naming_uncertain(found) if found else got
