"""The ``plan`` query (SPEC §5): several costs cast one after another this step, paid jointly.

"Can I cast Lightning Bolt and Counterspell from these lands?" needs a joint search: paying the
first cost its own best way can leave the second unpayable (Plains, Island, Tundra: ``{W}`` paid
by the Tundra leaves ``{U}{U}`` one Island short).  The mana pool does not empty between casts
in one step (CR 106.4), so mana an earlier activation made and the earlier cost did not spend (a
filter land's second mana, Sol Ring's second ``{C}``) pays a later cost.

The algorithm, exact on what it accepts:

1. Each cost object is cast up to its payment as a ``pay`` query would cast it (its own spell,
   X, alternative, additional costs, modifiers: CR 601.2a-f), giving one
   :class:`~manasolver.solver.backends.problem.Problem` per cost over the same board.
2. When every cost sees the same supply and none can convoke, improvise or delve, the plan is one
   *combined* problem: its forms
   are the sums of one form per cost (the product of the costs' forms, each locked in by its own
   601.2f total), so one optimisation (the ``pay`` chain: fastopt, then CP-SAT) chooses every
   announcement and every activation of the whole plan under the policy.  The plan's criteria
   are those of the combined payment: sacrifices, life, damage, activations and non-land sources
   summed over the plan, mana produced and never spent counted once at the end, and
   ``keep_castable``/``keep_colors`` read on what the whole plan leaves untapped.
3. The combined solution is split by cost: each unit of mana that paid a part of the total goes
   to one cost (in order), each activation to the first cost that uses its mana (directly or
   through the activations it pays for); mana an activation makes for a later cost floats and is
   that cost's ``pool_used``.  Each cost's payment is written by the backends' writer against its
   own problem, and validated (:mod:`~manasolver.solver.validate`) against the board the earlier
   payments left (tapped and sacrificed permanents, counters, life, energy, the pool): a payment
   that fails is an ``unsupported`` answer, never a wrong one.
4. When the plan is unpayable, the prefixes are asked in turn: the first cost whose prefix can't
   be paid is ``index``, and its REASON is the combined prefix's (``missing``: what added
   sources would have to cover for the plan to reach it).

When the costs' spells differ in what the board's restricted mana may pay (CR 106.6: Ancient
Ziggurat's mana only for creature spells), the combined problem lets restricted mana pay where it
may pay any cost, and CP-SAT's model of it gets each flow into the total split by cost, restricted
mana flowing only to the costs it may pay (:func:`_solve_restricted`).

Life (CR 119.4, 704.5a): a player at 0 life or less loses before casting the next cost.  When the
plan can't take the player's life to 0 (:func:`_life_critical`) the combined life constraints are
exact in every order.  Otherwise, on a board whose sources cost no mana, CP-SAT's model with per-cost
flows follows life cost by cost (:func:`_exact_life`); with filter lands and the like, the combined
forms pay one life more than they ask, so that every plan found keeps the player alive to its end,
and a plan payable only by dying on its last cost is refused.

Plans outside this (convoke, improvise or delve; a best plan whose mana abilities tap or sacrifice
other permanents as their costs; an ability whose own cost changes what pays) are refused as
``unsupported`` naming the cost, never answered by a guess.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, cast

from manasolver.models.cost import ManaCost
from manasolver.models.errors import BadQuery, ManasolverError, UnknownField, Unsupported
from manasolver.models.state import GameState, Permanent
from manasolver.models.symbols import TYPE_BITS
from manasolver.solver.service import decode
from manasolver.solver.budget import budgeted
from manasolver.solver.backends.problem import Problem, Solution, mana_string, to_payment
from manasolver.solver.casting.announce import MAX_FORMS, Announcement, Form
from manasolver.solver.payment import Payment
from manasolver.solver.payment_writer import finish_payment

if TYPE_CHECKING:
    from manasolver.solver.answers import Reason, ReasonCode
    from manasolver.solver.request import PaymentRequest

__all__ = ["COST_FIELDS", "MAX_COSTS", "PlanAnswer", "left_by", "plan", "plan_query"]

#: The most costs one plan may list (SPEC §4's style: a bound, refused beyond it, never cut).
MAX_COSTS = 20

#: The fields of one cost of a plan: the cost context of SPEC §5 (the policy is the plan's).
COST_FIELDS = frozenset({"cost", "spell", "x", "modifiers", "alternative", "additional", "convoke", "delve",
                         "improvise"})

#: The fields of the plan query a cost's own ``pay`` query shares.
_SHARED = ("state", "player", "cards", "policy")


@dataclass(frozen=True)
class PlanAnswer:
    """``{"payable": true, "payments": […]}`` or ``{"payable": false, "reason": …, "index": i}``;
    ``time_bound``: a time bound stopped the proof of optimality (or of the reason)."""

    payable: bool
    payments: tuple[Payment, ...] = ()
    reason: Reason | None = None
    index: int = 0
    time_bound: bool = False
    unsupported: tuple[tuple[str, str], ...] = ()

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
        return out


# -- the query's fields -------------------------------------------------------------------------

Prepare = Callable[[dict[str, Any]], "PaymentRequest | dict[str, Any]"]
Refuse = Callable[["PaymentRequest"], None]


def plan_query(query: dict[str, Any], prepare: Prepare, refuse: Refuse) -> dict[str, Any]:
    """Answer a ``plan`` query object.  ``prepare`` casts one cost's ``pay`` query up to its
    payment (a request, or the reason it can't be cast: ``not_castable``, ``timing``);
    ``refuse`` raises what the engine does not model for a request (the protocol's)."""
    costs = query.get("costs")
    if costs is None:
        raise BadQuery('missing "costs": a list of cost objects such as [{"cost": "{R}"}, {"cost": "{U}{U}"}]',
                       "costs")
    if not isinstance(costs, list):
        raise BadQuery('costs must be a list of cost objects such as [{"cost": "{R}"}]', "costs")
    if not costs:
        raise BadQuery("costs must list at least one cost", "costs")
    if len(costs) > MAX_COSTS:
        raise BadQuery(f"costs lists {len(costs)} costs; a plan takes at most {MAX_COSTS}", f"costs[{MAX_COSTS}]")
    state = decode.load_state_field(query)  # the board's own errors name their place in it
    decode.player(query, state)
    decode.policy(query)
    if query.get("sources") is not None:
        query = _without_excluded(query, state)
    steps: list[PaymentRequest | dict[str, Any]] = []
    for i, item in enumerate(costs):
        where = f"costs[{i}]"
        if not isinstance(item, dict):
            raise BadQuery('each cost of a plan is an object such as {"cost": "{R}"}', where)
        for key in item:
            if key not in COST_FIELDS:
                hint = " (the policy is the plan's)" if key == "policy" else ""
                raise UnknownField(f"unknown field {key!r} for a cost of a plan{hint}; known: "
                                   + ", ".join(sorted(COST_FIELDS)), f"{where}.{key}")
        sub = {k: query[k] for k in _SHARED if k in query}
        sub.update(item)
        sub["query"] = "pay"
        try:
            got = prepare(sub)
            if not isinstance(got, dict):
                refuse(got)
        except ManasolverError as err:
            raise (err if err.where.startswith(("battlefield", "players", "state")) else err.at(where)) from None
        steps.append(got)
    if len(steps) > 1:
        _guard_spells_cast(state)
    return plan(steps).to_json()


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


def _without_excluded(query: dict[str, Any], state: GameState) -> dict[str, Any]:
    """The plan query on its board with ``sources.exclude`` taken as tapped (never used); a plan
    takes no ``require`` or ``preserve`` (they are an ``Unsupported`` error naming the field)."""
    from manasolver.solver.sources import read_sources
    chosen = read_sources(query["sources"], state)
    for kind in ("require", "preserve"):
        if getattr(chosen, kind):
            raise Unsupported(f"a plan takes sources.exclude only; ask pay for each cost to {kind} "
                              f"permanents", f"sources.{kind}")
    board = query["state"]
    if isinstance(board, dict) and isinstance(board.get("battlefield"), list):
        board = {**board, "battlefield": [{**p, "tapped": True} if isinstance(p, dict) and p.get("id") in chosen.exclude
                                          else p for p in board["battlefield"]]}
    return {k: v for k, v in query.items() if k != "sources"} | {"state": board}


# -- the plan -------------------------------------------------------------------------------

@budgeted
def plan(steps: Sequence[PaymentRequest | dict[str, Any]]) -> PlanAnswer:
    """The best plan for ``steps`` (requests over one board, in casting order; a dict is the
    reason one can't be cast at all), or the first cost no plan reaches.  See the module
    docstring."""
    from manasolver.solver import queries
    steps = _abilities_in_turn(steps)
    if len(steps) == 1 and not isinstance(steps[0], dict):
        return _one_cost(steps[0])
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
        _check_joint(whole)
        combined = _Combined.of(whole)
        critical = _life_critical(whole)
        exact = critical and combined.exact_possible
        asked = combined.exact() if exact else combined.with_life(1) if critical else combined
        # payability first (the flow check answers in milliseconds where an optimiser may take
        # long to prove there is nothing), then the best plan
        found = _solve(asked) if asked.restricted or asked.exact_life or _feasible(asked) else None
        if found is not None:
            result, shares = found
            if critical and not exact:
                _alive_is_best(asked, result)
            payments = _split(asked, result, shares)
            _validated(whole, payments)
            why = "the plan is legal, its optimality is proven only without it"
            ignored = tuple((e.permanent, f"{e.name}: left out ({e.reason}: {e.clause}); {why}")
                            for e in combined.problem.supply.excluded)
            return PlanAnswer(True, tuple(payments), time_bound=not result.optimal, unsupported=ignored)
    return _first_unpayable(steps, problems)


def _one_cost(req: PaymentRequest) -> PlanAnswer:
    """A plan of one cost: ``pay``'s own answer, so ``plan [A]`` is ``pay A`` (one search, one
    tie-break, the same refusals) and nothing is split between costs."""
    from manasolver.solver import queries
    got = queries.pay(req)
    if got.payable and got.payment is not None:
        return PlanAnswer(True, (got.payment,), time_bound=got.time_bound, unsupported=got.unsupported)
    return PlanAnswer(False, reason=got.reason, index=0, time_bound=got.time_bound)


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


#: Why a plan whose life total decides it is refused (see :func:`_life_critical`).
_LIFE_UNDECIDED = ("whether this plan can be paid depends on the order its life is paid and lost in "
                   "(CR 119.4; CR 704.5a: a player at 0 life loses before casting the next cost), and "
                   "the only plans left take the player's life to 0 or less; this engine does not "
                   "search those yet")


def _life_critical(problems: Sequence[Problem]) -> bool:
    """Could the plan take the player's life to 0?  Only then does the order of life payments
    and damage matter (a player at 0 or less life loses before the next cost is cast, CR 704.5a;
    life is paid only from what is left, 119.4): otherwise the combined problem's life
    constraints hold, and are exact, for every order."""
    sup = problems[0].supply
    loss = sum(max(f.life for f in p.forms) for p in problems)
    for cls in sup.classes:
        worst = max(((o.life + o.damage) * (1 if o.exclusive else o.repeat) for o in cls.options), default=0)
        loss += worst * cls.count
    return loss >= sup.life


def _alive_is_best(asked: _Combined, sol: Solution) -> None:
    """The plan found keeps the player alive to its end (the combined forms pay one life more
    than they ask: every plan found loses at most life - 1).  A plan that ends at 0 or less
    life loses more life, so it can only be better under criteria ranked before ``min_life``:
    ``no_sacrifice`` when the plan found sacrifices something, or any other.  Those cases are
    refused, never answered as optimal."""
    policy = asked.problem.policy
    before = list(policy.criteria[:policy.criteria.index("min_life")]) if "min_life" in policy.criteria \
        else list(policy.criteria)
    sacrifices = any(asked.problem.supply.classes[k].options[o].sacrifice for k, _m, o in sol.acts)
    if policy.weights or any(c != "no_sacrifice" for c in before) or (before and sacrifices):
        raise Unsupported("the plan's best payment may end at 0 life or less under this policy (its "
                          "criteria before min_life could prefer it), which this engine does not "
                          "search yet: put min_life first", "policy")


def _feasible(combined: _Combined) -> bool:
    from manasolver.solver import backends
    from manasolver.solver.backends import DEFAULT_CHAINS
    if combined.restricted or combined.exact_life:
        return _solve(combined, "feasible") is not None
    return backends.payable(combined.problem.at("feasible", 0), DEFAULT_CHAINS["can_pay"])


#: Per (source key, type bit, demand of the total): how many units each cost takes.
Shares = dict[tuple[tuple[object, ...], int, tuple[object, ...]], list[int]]


def _solve(combined: _Combined, mode: str = "optimal") -> tuple[Solution, Shares | None] | None:
    """The best plan of ``combined`` (in ``mode``), or ``None`` when there is none: the ``pay``
    chain, or for costs that restricted mana treats differently the CP-SAT model with per-cost
    flows (:func:`_solve_restricted`)."""
    from manasolver.solver import backends
    from manasolver.solver.backends import DEFAULT_CHAINS, Declined
    problem = combined.problem if mode == "optimal" else combined.problem.at("feasible", 0)
    if combined.restricted or combined.exact_life:
        return _solve_restricted(combined, problem)
    out = backends.solve(problem, DEFAULT_CHAINS["pay"] if mode == "optimal" else ("flow", "cpsat"))
    if isinstance(out, Declined):
        raise Unsupported(out.why, "costs")
    return (out, None) if isinstance(out, Solution) else None


def _solve_restricted(combined: _Combined, problem: Problem) -> tuple[Solution, Shares] | None:
    """CP-SAT's model of the combined problem (:func:`~manasolver.solver.backends.cpsat.build_model`,
    its spending restrictions those of any cost), with each flow into the total split by cost:
    each cost's share of every demand is its own form's, and restricted mana flows only to the
    costs whose spell it may pay (CR 106.6).  Solved stage by stage under the policy as CP-SAT
    solves a payment."""
    from manasolver.solver.backends.cpsat import CpSatBackend, build_model
    from manasolver.solver.backends.cpsat.solve import _import_cp_model
    _import_cp_model()
    if combined.exact_life:  # the forms' life is the per-cost constraints' (_exact_life)
        forms = tuple(dataclasses.replace(f, life=0) for f in problem.forms)
        problem = dataclasses.replace(problem, announcement=dataclasses.replace(problem.announcement, forms=forms))
    model = build_model(problem)
    cp = model.cp
    n = len(combined.costs)
    split: list[tuple[tuple[object, ...], int, tuple[object, ...], list[Any]]] = []
    for si, (src, dst, bit, var) in enumerate(model.flows):
        if dst[0] not in ("spell", "generic", "snow"):
            continue
        key = src.key
        if key[0] == "inst":
            key = ("act", key[1], key[3], key[4]) + tuple(key[5:])
        parts: list[Any] = []
        for i, p in enumerate(combined.costs):
            ok = key[0] == "pool" or p.spell_ok[int(str(key[1]))][int(str(key[2]))]
            parts.append(cp.new_int_var(0, src.ub, f"plan{si}_{i}") if ok else 0)
        cp.add(sum(parts) == var)
        split.append((key, bit, dst, parts))
    keys = {dst for _k, _b, dst, _p in split}
    for i, p in enumerate(combined.costs):
        for dst in keys:
            amount = sum(model.y[c] * _needs(p, combo[i]).get(dst, 0)
                         for c, combo in enumerate(combined.parts))
            flowing = sum(row[3][i] for row in split if row[2] == dst)
            if not (isinstance(flowing, int) and isinstance(amount, int)):
                cp.add(flowing == amount)
            elif flowing != amount:  # pragma: no cover - a demand of every form, no flow to it
                return None
        for c, combo in enumerate(combined.parts):  # a demand no flow can reach: that form is out
            if any(d not in keys for d in _needs(p, combo[i])):
                cp.add(model.y[c] == 0)
    if combined.exact_life:
        _exact_life(combined, problem, model, split)
    result = CpSatBackend()._solve_model(problem, model)
    if isinstance(result, bool):
        return None
    sol, solver = result
    shares: Shares = {}
    for key, bit, dst, parts in split:
        got = [int(solver.value(v)) if not isinstance(v, int) else 0 for v in parts]
        if any(got):
            row = shares.setdefault((key, bit, dst), [0] * n)
            shares[(key, bit, dst)] = [a + b for a, b in zip(row, got)]
    return sol, shares


def _exact_life(combined: _Combined, problem: Problem, model: Any,
                split: list[tuple[tuple[object, ...], int, tuple[object, ...], list[Any]]]) -> None:
    """Life in the order the plan pays it (every source costs no mana, so every activation
    serves the costs its mana pays).  ``early[k, o]``: the activations of option ``o`` of class
    ``k`` made before the last cost, enough for the mana the earlier costs take from it; their
    life and damage and the earlier costs' Phyrexian life are the loss before the last cost, which
    must leave the player alive (CR 704.5a: at most life - 1); the last cost's ability life is
    paid from what is left (119.4), and when its form pays Phyrexian life, its life, ability life
    and damage (taken in 601.2g, before 601.2h) come from what is left too.  The forms' own life
    (set to 0 in the model) returns in the ``min_life`` term."""
    cp = model.cp
    sup = problem.supply
    n = len(combined.costs)
    life = sup.life
    early: dict[tuple[int, int], Any] = {}
    mult: dict[tuple[object, ...], int] = {}
    for k, cls in enumerate(sup.classes):
        for o, opt in enumerate(cls.options):
            for mask, snow, m in opt.slot_groups(cls.snow):
                mult[("act", k, o, mask) + (("nonsnow",) if cls.snow and not snow else ())] = m
    taken: dict[tuple[object, ...], list[Any]] = {}
    for key, _bit, _dst, flows in split:
        if key[0] == "act":
            taken.setdefault(key, []).extend(v for v in flows[:n - 1] if not isinstance(v, int))
    loss_early: Any = 0
    ab_late: Any = 0
    loss_all: Any = 0
    for (k, o), uses in model.uses.items():
        opt = sup.classes[k].options[o]
        ub = sup.classes[k].count * (1 if opt.exclusive else opt.repeat)
        e = cp.new_int_var(0, ub, f"early{k}_{o}")
        cp.add(e <= uses)
        early[(k, o)] = e
        for key, vs in taken.items():
            if key[1] == k and key[2] == o and vs:
                cp.add(sum(vs) <= mult[key] * e)
        loss_early += (opt.life + opt.damage) * e
        ab_late += opt.life * (uses - e)
        loss_all += (opt.life + opt.damage) * uses
    phyrexian_early = sum(model.y[c] * sum(p.forms[f].life for p, f in zip(combined.costs[:-1], parts[:-1]))
                          for c, parts in enumerate(combined.parts))
    phyrexian_all = sum(model.y[c] * sum(p.forms[f].life for p, f in zip(combined.costs, parts))
                        for c, parts in enumerate(combined.parts))
    if n > 1:
        cp.add(loss_early + phyrexian_early <= life - 1)
    cp.add(loss_early + phyrexian_early + ab_late <= life)
    last = combined.costs[-1]
    for c, parts in enumerate(combined.parts):
        if last.forms[parts[-1]].life:
            cp.add(loss_all + phyrexian_all <= life).only_enforce_if(model.y[c])
    if "min_life" in model.terms:
        expr, ub = model.terms["min_life"]
        top = max(sum(p.forms[f].life for p, f in zip(combined.costs, parts)) for parts in combined.parts)
        model.terms["min_life"] = (expr + phyrexian_all, ub + top)


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
        _check_joint(prefix)
        whole = _Combined.of(prefix)
        combined = whole.problem.at("feasible", 0)
        if _life_critical(prefix):
            if _feasible(whole.with_life(1)):
                continue  # paid, and the player is still alive to cast the next cost
            # no plan pays this cost and leaves the player alive: can it be paid at all?
            if i == 0:
                paid = _feasible(whole)  # one cost: pay's own rules
            elif whole.exact_possible:
                paid = _feasible(whole.exact())
            elif not _feasible(whole.with_life(None)):
                paid = False
            else:
                raise Unsupported(_LIFE_UNDECIDED, f"costs[{i}]")
            if paid:
                if i + 1 == len(steps):  # pragma: no cover - the plan's own solve pays it
                    raise Unsupported(_LIFE_UNDECIDED, f"costs[{i}]")
                return PlanAnswer(False, index=i + 1, reason=Reason(
                    "insufficient_life", f"every way to pay costs[{i}] takes the player's life to 0 or "
                    "less, and a player at 0 life loses before casting the next cost (CR 704.5a)"))
        elif _feasible(whole):
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
    while run and _life_critical(run):
        run.pop()
    lo, hi = 0, len(run)  # prefixes of lo costs are payable; of more than hi, not known
    while lo < hi:
        mid = (lo + hi + 1) // 2
        prefix = run[:mid]
        _check_joint(prefix)
        if _feasible(_Combined.of(prefix)):
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


def _check_joint(problems: Sequence[Problem]) -> None:
    """Refuse (``unsupported``, naming the cost) a plan the combined problem does not model."""
    first = problems[0]
    for i, p in enumerate(problems):
        where = f"costs[{i}]"
        if p.assists.usable:  # (not has_assists: that also says fastopt's keep terms are by type)
            raise Unsupported("a plan whose costs may be paid by convoke, improvise or delve is not "
                              "supported yet; ask pay for that cost alone", where)
        if p.supply is not first.supply and not _same_supply(p, first):
            raise Unsupported("this cost changes what the board can pay with before its mana is paid "
                              "(an ability's own cost, a card cast from the hand that is also a mana "
                              "source): a plan with it is not supported yet", where)
        if p.req.policy.spend_color or "max_colors_spent" in p.req.policy.criteria:
            raise Unsupported("spend_color and max_colors_spent count the colors spent on one cost; "
                              "a plan does not take them", "policy")


def _same_supply(a: Problem, b: Problem) -> bool:
    """Do the two costs pay from the same sources (an ability whose cost taps a permanent that
    makes no mana, Prodigal Pyromancer's ``{T}``, leaves them as they were)?"""
    sa, sb = a.supply, b.supply
    return (sa.classes == sb.classes and sa.pool == sb.pool and sa.life == sb.life and sa.energy == sb.energy
            and sa.excluded == sb.excluded)


# -- the combined problem -------------------------------------------------------------------

@dataclass(frozen=True)
class _Combined:
    """The plan as one problem: ``problem``'s form ``i`` is the sum of the costs' forms
    ``parts[i]`` (one index per cost), ``costs`` the costs' own problems."""

    problem: Problem
    parts: tuple[tuple[int, ...], ...]
    costs: tuple[Problem, ...]
    restricted: bool = False
    exact_life: bool = False

    @staticmethod
    def of(problems: Sequence[Problem]) -> _Combined:
        # the sums of one form per cost, built cost by cost and merged as they go (two ways to
        # announce with equal sums pay alike): a plan of twenty {B/P} has 21 sums, not 2**20
        seen: dict[Form, tuple[int, ...]] = {_sum_form([], []): ()}
        for p in problems:
            x = p.x if p.x is not None else 0
            grown: dict[Form, tuple[int, ...]] = {}
            for acc, parts in seen.items():
                for f, form in enumerate(p.forms):
                    grown.setdefault(_sum_form([acc, form], [0, x]), parts + (f,))
                    if len(grown) > MAX_FORMS:
                        raise Unsupported(f"the plan's costs have more than {MAX_FORMS} distinct totals "
                                          "of their announcements together, more than this engine "
                                          "enumerates", "costs")
            seen = grown
        first = problems[0]
        symbols = [s for p in problems for s in p.req.cost.symbols if not s.variable]
        cost = ManaCost.of(symbols)
        # the costs' demands are each paid as the 609.4b rules reaching it allow (their forms'
        # masks); the plan's kept costs are read as a payment under those rules reads them
        spend = next((p.announcement.spend for p in problems if not p.announcement.spend.identity),
                     first.announcement.spend)
        ann = Announcement(tuple(seen), 0, cost, spend)
        policy = _plan_policy(problems)
        req = dataclasses.replace(first.req, cost=cost, x=0, modifiers=(), alternative=None, policy=policy)
        # restricted mana may pay the plan where it may pay any of its costs; each cost's own
        # restrictions are then the per-cost flows' (_solve_restricted)
        restricted = any(p.spell_ok != first.spell_ok for p in problems)
        ok = first.spell_ok if not restricted else tuple(
            tuple(any(p.spell_ok[k][o] for p in problems) for o in range(len(row)))
            for k, row in enumerate(first.spell_ok))
        problem = dataclasses.replace(first, req=req, announcement=ann, x=0, policy=policy, spell_ok=ok)
        return _Combined(problem, tuple(seen.values()), tuple(problems), restricted)

    def exact(self) -> _Combined:
        """The plan with life followed cost by cost (:func:`_exact_life`), when every source of
        the board costs no mana; ``None`` otherwise."""
        return dataclasses.replace(self, exact_life=True)

    @property
    def exact_possible(self) -> bool:
        return all(cls.free for cls in self.problem.supply.classes)

    def with_life(self, extra: int | None) -> _Combined:
        """The plan with each combined form paying ``extra`` more life (1: every plan found keeps
        the player above 0 life to its end, as the forms' life bounds the whole plan's loss), or
        with ``None`` the player given as much more life as the damage the plan could take (a
        relaxation: the life paid, Phyrexian and abilities', stays within the life total, damage
        is not counted; payable if any order is)."""
        problem = self.problem
        if extra is None:
            damage = sum(max(((o.damage * (1 if o.exclusive else o.repeat)) for o in cls.options), default=0)
                         * cls.count for cls in problem.supply.classes)
            supply = dataclasses.replace(problem.supply, life=problem.supply.life + damage)
            return dataclasses.replace(self, problem=dataclasses.replace(problem, supply=supply))
        forms = tuple(dataclasses.replace(f, life=f.life + extra) for f in problem.forms)
        ann = dataclasses.replace(problem.announcement, forms=forms)
        return dataclasses.replace(self, problem=dataclasses.replace(problem, announcement=ann))


def _sum_form(forms: Sequence[Form], xs: Sequence[int]) -> Form:
    """One form paying every form of ``forms`` (each at its own X, its 601.2f total locked)."""
    demand: dict[int, int] = {}
    for f in forms:
        for mask, n in f.demands:
            demand[mask] = demand.get(mask, 0) + n
    return Form(tuple(sorted(demand.items())), sum(f.snow for f in forms),
                sum(f.generic(x) for f, x in zip(forms, xs)), 0, 0, 0,
                sum(f.life for f in forms), sum(f.energy for f in forms), (), ())


def _plan_policy(problems: Sequence[Problem]) -> Any:
    """The plan's policy: the costs' (one policy), with ``keep_castable``'s default, the cards in
    hand, read without the cards the plan casts from there (they are on the stack)."""
    policy = problems[0].req.policy
    if policy.keep_castable is not None or any(k.hand for k in problems[0].supply.classes):
        return policy
    state, player = problems[0].req.state, problems[0].req.player
    hand = list(state.player(player).hand)
    cast_any = False
    for p in problems:
        spell = p.req.spell
        if spell is None or spell.ability or spell.card is None:
            continue
        for j, card in enumerate(hand):
            if card.name.lower() == spell.card.name.lower():
                del hand[j]
                cast_any = True
                break
    if not cast_any:
        return policy
    keep = tuple(c.mana_cost for c in hand if c.mana_cost is not None and c.mana_cost.symbols)
    return dataclasses.replace(policy, keep_castable=keep)


# -- splitting the combined solution by cost -------------------------------------------------

class _Stuck(Exception):
    """No order of the activations found for the split (the answer is then refused)."""


def _split(combined: _Combined, sol: Solution, shares: Shares | None = None) -> list[Payment]:
    """Each cost's payment: its share of the total, the activations it uses first, the mana
    earlier activations left floating (see the module docstring, step 3)."""
    if sol.assists or sol.delved or sol.sacrifices or sol.taps or sol.roles:
        raise Unsupported("the plan's best payment taps or sacrifices other permanents for the costs of "
                          "its mana abilities (Springleaf Drum, Ashnod's Altar), which a plan does not "
                          "split between its costs yet", "costs")
    try:
        return _Splitter(combined, sol, shares).payments()
    except _Stuck:
        raise Unsupported("the plan's activations could not be ordered between its costs", "costs") from None


class _Splitter:
    """The split of one combined solution (records: one per activation of ``sol.acts``)."""

    def __init__(self, combined: _Combined, sol: Solution, shares: Shares | None) -> None:
        self.combined = combined
        self.sol = sol
        self.shares = shares
        sup = combined.problem.supply
        self.n = len(combined.costs)
        self.produces: list[dict[tuple[object, ...], int]] = []
        self.by_key: dict[tuple[object, ...], list[int]] = {}
        for r, (k, _m, o) in enumerate(sol.acts):
            cls = sup.classes[k]
            made: dict[tuple[object, ...], int] = {}
            for mask, snow, mult in cls.options[o].slot_groups(cls.snow):
                key: tuple[object, ...] = ("act", k, o, mask) + (("nonsnow",) if cls.snow and not snow else ())
                made[key] = made.get(key, 0) + mult
                self.by_key.setdefault(key, []).append(r)
            self.produces.append(made)
        # the mana costs of activations, by record: (source key, type bit, destination, count)
        self.cost_flows: dict[int, list[tuple[tuple[object, ...], int, tuple[object, ...], int]]] = {}
        # CP-SAT names the member paid for (("cost", k, j, "mask", m), ("cost", k, j, "generic"),
        # ("cost", k, j, "ability", a, ...)); the fast optimiser the option (("cost", k, o, mask), mask an
        # int), whose activations share its units equally
        member = {(k, m): r for r, (k, m, _o) in enumerate(sol.acts)}
        shared: dict[tuple[int, int], dict[object, list[tuple[tuple[object, ...], int, tuple[object, ...]]]]] = {}
        for src, bit, dst, n in sol.spend:
            if n <= 0 or dst[0] != "cost":
                continue
            k, j = int(dst[1]), int(dst[2])  # type: ignore[call-overload]
            if isinstance(dst[3], str):  # CP-SAT's member: ("cost", k, j, "mask", m), ("cost", k, j, "generic")
                self.cost_flows.setdefault(member[(k, j)], []).append((src, bit, dst, n))
            else:
                shared.setdefault((k, j), {}).setdefault(dst[3], []).extend([(src, bit, dst)] * n)
        for (k, o), by_mask in shared.items():
            records = [r for r, (kk, _m, oo) in enumerate(sol.acts) if kk == k and oo == o]
            for rows in by_mask.values():
                each, rest = divmod(len(rows), len(records))
                if rest:  # pragma: no cover - every activation of an option pays the same cost
                    raise _Stuck()
                for i, r in enumerate(records):
                    for src, bit, dst in rows[i * each:(i + 1) * each]:
                        self.cost_flows.setdefault(r, []).append((src, bit, dst, 1))
        self.stage: dict[int, int] = {}
        self.cost_dst: dict[tuple[int, tuple[object, ...], int], tuple[object, ...]] = {}
        # per stage: (source key as written, bit, destination, count), and floated units per record
        self.spend: list[list[tuple[tuple[object, ...], int, tuple[object, ...], int]]] = [[] for _ in range(self.n)]
        self.floated: dict[int, list[tuple[tuple[object, ...], int, int]]] = {}

    def payments(self) -> list[Payment]:
        sol, combined = self.sol, self.combined
        parts = combined.parts[sol.form]
        # 1. an order of the activations, each paid (601.2g) from the pool or from those before it
        left: dict[int, dict[tuple[object, ...], int]] = {}
        order: list[int] = []
        paid_by: dict[int, list[tuple[int, tuple[object, ...], int, int]]] = {}  # r: (payer or -1, key, bit, n)
        todo = list(range(len(sol.acts)))
        while todo:
            for r in todo:
                taken = self._pay_cost(r, left)
                if taken is not None:
                    break
            else:
                raise _Stuck()
            todo.remove(r)
            paid_by[r] = taken
            left[r] = dict(self.produces[r])
            order.append(r)
        # 2. each cost's share of the total, in casting order, from the activations in that order
        use: list[list[tuple[int, tuple[object, ...], int, tuple[object, ...]]]] = [[] for _ in range(self.n)]
        units: dict[tuple[object, ...], list[tuple[tuple[object, ...], int]]] = {}
        for src, bit, dst, n in sol.spend:
            if n > 0 and dst[0] in ("spell", "generic", "snow"):
                units.setdefault(dst, []).extend([(src, bit)] * n)
        for dst in units:  # the pool first, then each source's units together
            units[dst].sort(key=lambda u: (u[0][0] != "pool", repr(u[0]), u[1]))
        if self.shares is not None:  # restricted mana: each cost's share as the model chose it
            for s in range(self.n):
                for (src, bit, dst), counts in sorted(self.shares.items(), key=repr):
                    for _ in range(counts[s]):
                        use[s].append((self._unit(src, left, order), src, bit, dst))
            units = {}
        for s, (p, f) in enumerate(zip(combined.costs, parts)):
            if self.shares is not None:
                continue
            for dst, count in _needs(p, f).items():
                taken_units, units[dst] = units.get(dst, [])[:count], units.get(dst, [])[count:]
                if len(taken_units) < count:  # pragma: no cover - the combined total is the sum
                    raise _Stuck()
                for src, bit in taken_units:
                    use[s].append((self._unit(src, left, order), src, bit, dst))
        # 3. each activation with the first cost that uses its mana, directly or through the
        # activations it pays for (those come after it); mana nothing spends floats to the end
        first: dict[int, int] = {}
        for s, rows in enumerate(use):
            for r, _src, _bit, _dst in rows:
                if r >= 0:
                    first[r] = min(first.get(r, s), s)
        for r in reversed(order):
            self.stage[r] = first.get(r, self.n - 1)
            for payer, _key, _bit, _n in paid_by[r]:
                if payer >= 0:
                    first[payer] = min(first.get(payer, self.stage[r]), self.stage[r])
        # 4. what each cost spends: its own activations' mana, else the pool (mana floating since)
        for s, rows in enumerate(use):
            for r, src, bit, dst in rows:
                self._spent(r, src, bit, dst, 1, s)
        for r in order:
            for payer, key, bit, n in paid_by[r]:
                dst = self.cost_dst[(r, key, bit)]
                self._spent(payer, key, bit, dst, n, self.stage[r])
        out = []
        for s, (p, f) in enumerate(zip(combined.costs, parts)):
            acts = [a for r, a in enumerate(sol.acts) if self.stage[r] == s]
            spend = list(self.spend[s])
            extra: list[int] = []
            for r, rows2 in self.floated.items():
                if self.stage[r] == s:
                    for key, bit, n in rows2:
                        spend.append((key, bit, ("float",), n))
                        extra.extend([bit] * n)
            sub = Solution(f, p.x if p.x is not None else 0, acts, spend, optimal=sol.optimal)
            pay = to_payment(p, sub)
            if extra:
                pay = dataclasses.replace(pay, floating=mana_string(_bits(pay.floating) + extra))
            out.append(finish_payment(p, pay))
        return out

    def _pay_cost(self, r: int, left: dict[int, dict[tuple[object, ...], int]]
                  ) -> list[tuple[int, tuple[object, ...], int, int]] | None:
        """The units that pay record ``r``'s mana cost from the pool and the activations already
        made (``left``: their unspent units, taken), or ``None`` when they can't yet."""
        need: dict[tuple[tuple[object, ...], int], int] = {}
        for src, bit, dst, n in self.cost_flows.get(r, []):
            need[(src, bit)] = need.get((src, bit), 0) + n
            self.cost_dst[(r, src, bit)] = dst
        plan: list[tuple[int, tuple[object, ...], int, int]] = []
        for (src, bit), n in need.items():
            if src[0] == "pool":
                plan.append((-1, src, bit, n))
                continue
            have = sum(left[q].get(src, 0) for q in left)
            if have < n:
                return None
        for (src, bit), n in need.items():
            if src[0] == "pool":
                continue
            for q in list(left):
                t = min(n, left[q].get(src, 0))
                if t:
                    left[q][src] -= t
                    n -= t
                    plan.append((q, src, bit, t))
                if not n:
                    break
        return plan

    def _unit(self, src: tuple[object, ...], left: dict[int, dict[tuple[object, ...], int]], order: list[int]) -> int:
        """The activation a unit of ``src`` paying the total comes from (-1: the pool), taken."""
        if src[0] == "pool":
            return -1
        for r in order:
            if left[r].get(src, 0) > 0:
                left[r][src] -= 1
                return r
        raise _Stuck()  # pragma: no cover - the solution's flows balance

    def _spent(self, r: int, src: tuple[object, ...], bit: int, dst: tuple[object, ...], n: int, stage: int) -> None:
        """``n`` units from activation ``r`` (-1: the pool) paying ``dst`` during cost ``stage``."""
        if r >= 0 and self.stage[r] == stage:
            self.spend[stage].append((src, bit, dst, n))
            return
        self.spend[stage].append((("pool", bit), bit, dst, n))
        if r >= 0:  # made during an earlier cost's casting: floating in the pool since
            self.floated.setdefault(r, []).append((src, bit, n))


def _needs(p: Problem, f: int) -> dict[tuple[object, ...], int]:
    """The demands of form ``f`` of ``p``: its masks, generic and snow."""
    form = p.forms[f]
    d: dict[tuple[object, ...], int] = {("spell", m): n for m, n in form.demands}
    g = form.generic(p.x if p.x is not None else 0)
    if g:
        d[("generic",)] = g
    if form.snow:
        d[("snow",)] = form.snow
    return d


def _bits(text: str) -> list[int]:
    """``{W}{C}`` as type bits."""
    letters = "WUBRGC"
    return [TYPE_BITS[letters.index(ch)] for ch in text if ch in letters]


# -- each payment against the board the earlier ones left ------------------------------------

def _validated(problems: Sequence[Problem], payments: Sequence[Payment]) -> None:
    """Validate each payment in turn against the board the ones before it left; a failure is an
    ``unsupported`` answer naming the cost (the split is then not one a player can follow)."""
    from manasolver.solver.validate import validate
    state = problems[0].req.state
    for i, (p, pay) in enumerate(zip(problems, payments)):
        req = dataclasses.replace(p.req, state=state, alternative=None)
        verdict = validate(req, pay)
        if not verdict.legal:
            raise Unsupported("the plan's payment of this cost does not check on the board the earlier "
                              "ones leave: " + "; ".join(verdict.problems), f"costs[{i}]")
        state = left_by(state, p.req.player, pay, cast_card=p.req.spell.card.name
                        if p.req.spell is not None and p.req.spell.card is not None and not p.req.spell.ability
                        else None)
        act = p.req.activation
        if act is not None and act.permanent is not None:  # its own cost: tapped, sacrificed (602.2)
            pid = act.permanent.id
            mine = [q for q in act.state.battlefield if q.id == pid]
            state = dataclasses.replace(state, battlefield=tuple(
                mine[0] if q.id == pid else q for q in state.battlefield if q.id != pid or mine))
        if i + 1 < len(payments) and state.player(p.req.player).life <= 0:
            raise Unsupported("the plan's payments take the player's life to 0 before the next cost, "
                              "and a player at 0 life has lost (CR 704.5a)", f"costs[{i}]")


def left_by(state: GameState, player: str, pay: Payment, cast_card: str | None = None) -> GameState:
    """The board after ``pay``: permanents tapped, untapped ({Q}) and sacrificed, counters
    removed and put, convoking and improvising permanents tapped, delved cards exiled, cards
    exiled from the hand, life, energy and the pool (less what was spent, plus what floats:
    CR 106.4, the pool empties only between steps); ``cast_card``: the card cast from the hand, which
    leaves it (CR 601.2a)."""
    tap: set[str] = set(pay.convoked) | set(pay.improvised)
    untap: set[str] = set()
    gone: set[str] = set()
    counters: dict[str, dict[str, int]] = {}
    hand_out: set[int] = set()
    for i, act in enumerate(pay.activations):
        if act.hand is not None:
            hand_out.add(act.hand)
            continue
        pid = act.permanent
        for part in act.costs:
            if part == "{T}":
                tap.add(pid)
            elif part == "{Q}":
                untap.add(pid)
            elif part == "sacrifice":
                gone.add(pid)
            elif part.startswith(("remove ", "put ")) and part.split()[1].isdigit() and "counter" in part:
                words = part.split()
                sign = -1 if words[0] == "remove" else 1
                kind = words[2]
                mine = counters.setdefault(pid, {})
                mine[kind] = mine.get(kind, 0) + sign * int(words[1]) * act.times
            elif not (part.startswith("{") or part.startswith("pay ") or part.startswith("sacrifice ")
                      or part.startswith("tap ")):
                raise Unsupported(f"a plan does not follow the cost part {part!r} of an activation "
                                  "between its costs", f"payments[{i}]")
        tap.update(act.tapped)
        gone.update(act.sacrificed)
    battlefield: list[Permanent] = []
    for perm in state.battlefield:
        if perm.id in gone:
            continue
        changes: dict[str, Any] = {}
        if perm.id in tap:
            changes["tapped"] = True
        if perm.id in untap:
            changes["tapped"] = False
        if perm.id in counters:
            have = dict(perm.counters)
            for kind, delta in counters[perm.id].items():
                have[kind] = max(0, have.get(kind, 0) + delta)
            changes["counters"] = tuple(sorted((k, n) for k, n in have.items() if n))
        battlefield.append(dataclasses.replace(perm, **changes) if changes else perm)
    players = []
    for pl in state.players:
        if pl.name != player:
            players.append(pl)
            continue
        hand = [c for j, c in enumerate(pl.hand) if j not in hand_out]
        if cast_card is not None:
            j = next((j for j, c in enumerate(hand) if c.name.lower() == cast_card.lower()), None)
            if j is not None:
                del hand[j]
        graveyard = list(pl.graveyard)
        for name in pay.delved:
            j = next((j for j, c in enumerate(graveyard) if c.name == name), None)
            if j is not None:
                del graveyard[j]
        pool = _bits(pl.pool.format()) if pl.pool else []
        for bit in _bits(pay.pool_used):
            if bit in pool:
                pool.remove(bit)
        pool += _bits(pay.floating)
        players.append(dataclasses.replace(
            pl, life=pl.life - pay.life - pay.damage, energy=pl.energy - pay.energy,
            pool=ManaCost.parse(mana_string(pool), "pool", allow_empty=True) if pool else ManaCost(),
            hand=tuple(hand), graveyard=tuple(graveyard)))
    return dataclasses.replace(state, players=tuple(players), battlefield=tuple(battlefield))

