"""The plan of several costs: the combined problem solved and split, or the first cost no plan reaches.

Each cost is cast up to its payment as ``pay`` would cast it; when every cost sees the same supply
the plan is one combined problem (:mod:`~manasolver.solver.plan.combined`), solved
(:mod:`~manasolver.solver.plan.solve`), split by cost (:mod:`~manasolver.solver.plan.split`) and
each payment validated on the board the earlier ones left
(:mod:`~manasolver.solver.plan.board_after`).  When the plan is unpayable, the prefixes are asked
in turn (found by bisection where life cannot decide it): the first cost whose prefix can't be
paid is ``index``, with the combined prefix's REASON.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, cast

from manasolver.models.errors import ManasolverError, Unsupported
from manasolver.models.state import GameState, Permanent
from manasolver.solver.backends.problem import Problem
from manasolver.solver.budget import budgeted
from manasolver.solver.payment import Payment
from manasolver.solver.plan.board_after import validated
from manasolver.solver.plan.combined import Combined
from manasolver.solver.plan.solve import LIFE_UNDECIDED, alive_is_best, feasible, life_critical, solve
from manasolver.solver.plan.split import split

if TYPE_CHECKING:
    from manasolver.solver.answers import Reason, ReasonCode
    from manasolver.solver.request import PaymentRequest

__all__ = ["PlanAnswer", "check_joint", "plan"]


@dataclass(frozen=True)
class PlanAnswer:
    """``{"payable": true, "payments": […]}`` or ``{"payable": false, "reason": …, "index": i}``;
    ``time_bound``: a time bound stopped the proof of optimality (or of the reason);
    ``uncertain``: ``(id, reason)`` of the sources counted as the least they can give (as ``pay``'s)."""

    payable: bool
    payments: tuple[Payment, ...] = ()
    reason: Reason | None = None
    index: int = 0
    time_bound: bool = False
    unsupported: tuple[tuple[str, str], ...] = ()
    uncertain: tuple[tuple[str, str], ...] = ()

    def to_json(self) -> dict[str, Any]:
        if self.payable:
            out: dict[str, Any] = {"payable": True, "payments": [p.to_json() for p in self.payments]}
        else:
            assert self.reason is not None
            out = {"payable": False, "reason": self.reason.to_json(), "index": self.index}
        if self.time_bound or (self.reason is not None and not self.reason.proved):
            out["time_bound"] = True
        if self.unsupported:
            out["unsupported"] = [{"permanent": p, "reason": r} for p, r in self.unsupported]
        if self.uncertain:
            out["uncertain"] = [{"permanent": p, "reason": r} for p, r in self.uncertain]
        return out



@budgeted
def _one_cost(req: PaymentRequest) -> PlanAnswer:
    """A plan of one cost: ``pay``'s own answer, so ``plan [A]`` is ``pay A`` (one search, one
    tie-break, the same refusals) and nothing is split between costs."""
    from manasolver.solver import queries
    got = queries.pay(req)
    if got.payable and got.payment is not None:
        return PlanAnswer(True, (got.payment,), time_bound=got.time_bound, unsupported=got.unsupported)
    return PlanAnswer(False, reason=got.reason, index=0, time_bound=got.time_bound)


def _guard_spells_cast(state: GameState) -> None:
    """Refuse a plan of several costs on a board whose cost modifier counts the spells cast this
    turn (Damping Sphere): each cost of the plan would change the next one's total, which a plan,
    whose costs are each announced on the same board, does not follow."""
    from manasolver.models.text.cost_modifiers import cost_effects_of
    for i, perm in enumerate(state.battlefield):
        effects, _unknown = cost_effects_of(perm.card)
        if any(e.per == "spells_cast" for e in effects):
            raise Unsupported(f"{perm.card.name} makes each spell cost more for the spells cast before it this "
                              "turn; a plan of several costs does not count its own earlier spells yet: ask "
                              "pay for each cost with spells_cast_this_turn", f"battlefield[{i}]")


def plan(steps: Sequence[PaymentRequest | dict[str, Any]]) -> PlanAnswer:
    """The best plan for ``steps`` (requests over one board, in casting order; a dict is the
    reason one can't be cast at all), or the first cost no plan reaches.  See the module
    docstring."""
    from manasolver.solver import queries
    steps = _abilities_in_turn(steps)
    if len(steps) == 1 and not isinstance(steps[0], dict):
        return _one_cost(steps[0])
    reqs = [s for s in steps if not isinstance(s, dict)]
    if len(steps) > 1 and reqs:
        _guard_spells_cast(reqs[0].state)
        from manasolver.solver.casting.modifier_clauses import plan_spells_cast_refusal
        refusal = plan_spells_cast_refusal(reqs[0].state, reqs[0].player, [r.spell for r in reqs])
        if refusal is not None:
            raise refusal
    problems: list[Problem | None] = []
    for i, step in enumerate(steps):
        if isinstance(step, dict):
            problems.append(None)
            continue
        try:
            problems.append(queries.prepare(step, "optimal", step.x if step.x is not None else 0))
        except ManasolverError as err:
            raise err.at(f"costs[{i}]") from None
    if all(p is not None for p in problems):
        whole = [p for p in problems if p is not None]
        check_joint(whole)
        combined = Combined.of(whole)
        critical = life_critical(whole)
        exact = critical and combined.exact_possible
        asked = combined.exact() if exact else combined.with_life(1) if critical else combined
        # payability first (the flow check answers in milliseconds where an optimiser may take
        # long to prove there is nothing), then the best plan
        found = solve(asked) if asked.restricted or asked.exact_life or feasible(asked) else None
        if found is not None:
            result, shares = found
            if critical and not exact:
                alive_is_best(asked, result)
            payments = split(asked, result, shares)
            validated(whole, payments)
            why = "the plan is legal, its optimality is proven only without it"
            ignored = tuple((e.permanent, f"{e.name}: left out ({e.reason}: {e.clause}); {why}")
                            for e in combined.problem.supply.excluded)
            return PlanAnswer(True, tuple(payments), time_bound=not result.optimal, unsupported=ignored)
    return _first_unpayable(steps, problems)


def _abilities_in_turn(steps: Sequence[PaymentRequest | dict[str, Any]]) -> list[PaymentRequest | dict[str, Any]]:
    """The costs with each activated ability's own cost applied for the ones after it: an ability
    whose ``{T}`` source an earlier ability tapped, or whose source an earlier one sacrificed, can't
    be activated (CR 602.2, 107.5): that cost's reason is ``not_castable``."""
    out: list[PaymentRequest | dict[str, Any]] = []
    after: dict[str, Permanent | None] = {}
    for i, step in enumerate(steps):
        act = None if isinstance(step, dict) else step.activation
        if act is None or act.permanent is None:
            out.append(step)
            continue
        pid = act.permanent.id
        cost = act.ability.cost
        if pid in after:
            now = after[pid]
            why = ("was sacrificed" if now is None
                   else "is tapped" if cost is not None and cost.tap and now.tapped
                   else "is untapped" if cost is not None and cost.untap and not now.tapped else None)
            if why is not None:
                out.append({"code": "not_castable", "message": f"{pid} {why} by an earlier cost of the plan, so "
                            f"its ability can't be activated (CR 602.2, 107.5)"})
                continue
        mine = [q for q in act.state.battlefield if q.id == pid]
        after[pid] = mine[0] if mine else None
        out.append(step)
    return out



def _first_unpayable(steps: Sequence[PaymentRequest | dict[str, Any]],
                     problems: Sequence[Problem | None]) -> PlanAnswer:
    """The first cost whose prefix of the plan can't be paid, with its reason."""
    from manasolver.solver import backends
    from manasolver.solver.answers import Reason
    from manasolver.solver.backends import DEFAULT_CHAINS
    from manasolver.solver.reasons import reason
    from manasolver.solver.supply.unmodelled import guard_excluded
    start = _payable_run(problems)
    for i, step in enumerate(steps):
        if isinstance(step, dict):
            return PlanAnswer(False, reason=Reason(cast("ReasonCode", step["code"]), str(step["message"])), index=i)
        if i < start:
            continue  # payable (found by bisection)
        prefix = [p for p in problems[:i + 1] if p is not None]
        check_joint(prefix)
        whole = Combined.of(prefix)
        combined = whole.problem.at("feasible", 0)
        if life_critical(prefix):
            if feasible(whole.with_life(1)):
                continue  # paid, and the player is still alive to cast the next cost
            # no plan pays this cost and leaves the player alive: can it be paid at all?
            if i == 0:
                paid = feasible(whole)  # one cost: pay's own rules
            elif whole.exact_possible:
                paid = feasible(whole.exact())
            elif not feasible(whole.with_life(None)):
                paid = False
            else:
                raise Unsupported(LIFE_UNDECIDED, f"costs[{i}]")
            if paid:
                if i + 1 == len(steps):  # pragma: no cover - the plan's own solve pays it
                    raise Unsupported(LIFE_UNDECIDED, f"costs[{i}]")
                return PlanAnswer(False, index=i + 1, reason=Reason(
                    "insufficient_life", f"every way to pay costs[{i}] takes the player's life to 0 or "
                    "less, and a player at 0 life loses before casting the next cost (CR 704.5a)"))
        elif feasible(whole):
            continue
        _guard(step, combined)
        guard_excluded(combined.supply, step)
        if whole.restricted and backends.payable(combined, DEFAULT_CHAINS["can_pay"]):
            return PlanAnswer(False, index=i, reason=Reason(
                "restricted_mana", "the mana left for this cost may be spent only on other spells "
                "(CR 106.6)"))
        return PlanAnswer(False, reason=reason(combined), index=i)
    raise Unsupported("the plan as a whole found no payment although each prefix of it is payable",
                      "costs")  # pragma: no cover - the last prefix is the whole plan


def _payable_run(problems: Sequence[Problem | None]) -> int:
    """How many costs from the first are known payable in turn, found by bisection over the
    prefixes that can't take the player's life to 0 (payability only falls as costs are added):
    a few checks of mid-sized prefixes instead of one per cost."""
    run: list[Problem] = []
    for p in problems:
        if p is None:
            break
        run.append(p)
    while run and life_critical(run):
        run.pop()
    lo, hi = 0, len(run)  # prefixes of lo costs are payable; of more than hi, not known
    while lo < hi:
        mid = (lo + hi + 1) // 2
        prefix = run[:mid]
        check_joint(prefix)
        if feasible(Combined.of(prefix)):
            lo = mid
        else:
            hi = mid - 1
    return lo


def _guard(req: PaymentRequest, problem: Problem) -> None:
    """Refuse an unpayable answer a pool doubler could change (as ``pay`` does)."""
    from manasolver.solver import backends, queries
    from manasolver.solver.backends import DEFAULT_CHAINS
    from manasolver.solver.supply.unmodelled import guard_doublers

    def payable(sub: PaymentRequest) -> bool:
        return backends.payable(queries.prepare(sub, "feasible", 0), DEFAULT_CHAINS["can_pay"])

    guard_doublers(req, problem.supply, payable)


def check_joint(problems: Sequence[Problem]) -> None:
    """Refuse (``unsupported``, naming the cost) a plan the combined problem does not model."""
    first = problems[0]
    for i, p in enumerate(problems):
        where = f"costs[{i}]"
        if p.assists.usable:  # (not has_assists: that also says fastopt's keep terms are by type)
            raise Unsupported("a plan whose costs may be paid by convoke, improvise or delve is not "
                              "supported yet; ask pay for that cost alone", where)
        if p.supply is not first.supply and not same_supply(p, first):
            raise Unsupported("this cost changes what the board can pay with before its mana is paid "
                              "(an ability's own cost, a card cast from the hand that is also a mana "
                              "source): a plan with it is not supported yet", where)
        if p.req.policy.spend_color or "max_colors_spent" in p.req.policy.criteria:
            raise Unsupported("spend_color and max_colors_spent count the colors spent on one cost; "
                              "a plan does not take them", "policy")


def same_supply(a: Problem, b: Problem) -> bool:
    """Do the two costs pay from the same sources (an ability whose cost taps a permanent that
    makes no mana, Prodigal Pyromancer's ``{T}``, leaves them as they were)?"""
    sa, sb = a.supply, b.supply
    return (sa.classes == sb.classes and sa.pool == sb.pool and sa.life == sb.life and sa.energy == sb.energy
            and sa.excluded == sb.excluded)

