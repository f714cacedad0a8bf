"""Solving the combined plan: payability, the best plan, and life followed cost by cost.

The ``pay`` chain (fastopt, then CP-SAT) solves the combined problem when every cost may spend
the same mana; when restricted mana may pay some costs and not others (CR 106.6), or when the
player's life could reach 0 between costs (CR 119.4, 704.5a), CP-SAT's model is extended with
each flow into the total split by cost, so that each cost's share and the life paid before each
cost are exact.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any

from manasolver.models.errors import Unsupported
from manasolver.solver.backends.problem import Problem, Solution
from manasolver.solver.plan.combined import Combined, needs

__all__ = ["LIFE_UNDECIDED", "Shares", "alive_is_best", "feasible", "life_critical", "solve"]

#: Why a plan whose life total decides it is refused (see :func:`life_critical`).
LIFE_UNDECIDED = ("whether this plan can be paid depends on the order its life is paid and lost in "
                   "(CR 119.4; CR 704.5a: a player at 0 life loses before casting the next cost), and "
                   "the only plans left take the player's life to 0 or less; this engine does not "
                   "search those yet")



def life_critical(problems: Sequence[Problem]) -> bool:
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


def alive_is_best(asked: Combined, sol: Solution) -> None:
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


def feasible(combined: Combined) -> bool:
    from manasolver.solver import backends
    from manasolver.solver.backends import DEFAULT_CHAINS
    if combined.restricted or combined.exact_life:
        return solve(combined, "feasible") is not None
    return backends.payable(combined.problem.at("feasible", 0), DEFAULT_CHAINS["can_pay"])



#: Per (source key, type bit, demand of the total): how many units each cost takes.
Shares = dict[tuple[tuple[object, ...], int, tuple[object, ...]], list[int]]


def solve(combined: Combined, mode: str = "optimal") -> tuple[Solution, Shares | None] | None:
    """The best plan of ``combined`` (in ``mode``), or ``None`` when there is none: the ``pay``
    chain, or for costs that restricted mana treats differently the CP-SAT model with per-cost
    flows (:func:`solve_restricted`)."""
    from manasolver.solver import backends
    from manasolver.solver.backends import DEFAULT_CHAINS, Declined
    problem = combined.problem if mode == "optimal" else combined.problem.at("feasible", 0)
    if combined.restricted or combined.exact_life:
        return solve_restricted(combined, problem)
    out = backends.solve(problem, DEFAULT_CHAINS["pay"] if mode == "optimal" else ("flow", "cpsat"))
    if isinstance(out, Declined):
        raise Unsupported(out.why, "costs")
    return (out, None) if isinstance(out, Solution) else None


def solve_restricted(combined: Combined, problem: Problem) -> tuple[Solution, Shares] | None:
    """CP-SAT's model of the combined problem (:func:`~manasolver.solver.backends.cpsat_model`,
    its spending restrictions those of any cost), with each flow into the total split by cost:
    each cost's share of every demand is its own form's, and restricted mana flows only to the
    costs whose spell it may pay (CR 106.6).  Solved stage by stage under the policy as CP-SAT
    solves a payment."""
    from manasolver.solver import backends
    if combined.exact_life:  # the forms' life is the per-cost constraints' (exact_life)
        forms = tuple(dataclasses.replace(f, life=0) for f in problem.forms)
        problem = dataclasses.replace(problem, announcement=dataclasses.replace(problem.announcement, forms=forms))
    model = backends.cpsat_model(problem)
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
            amount = sum(model.y[c] * needs(p, combo[i]).get(dst, 0)
                         for c, combo in enumerate(combined.parts))
            flowing = sum(row[3][i] for row in split if row[2] == dst)
            if not (isinstance(flowing, int) and isinstance(amount, int)):
                cp.add(flowing == amount)
            elif flowing != amount:  # pragma: no cover - a demand of every form, no flow to it
                return None
        for c, combo in enumerate(combined.parts):  # a demand no flow can reach: that form is out
            if any(d not in keys for d in needs(p, combo[i])):
                cp.add(model.y[c] == 0)
    if combined.exact_life:
        exact_life(combined, problem, model, split)
    result = backends.solve_cpsat_model(problem, model)
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


def exact_life(combined: Combined, problem: Problem, model: Any,
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

