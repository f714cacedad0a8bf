"""The fast optimiser as a backend: what it answers, and its answer as a :class:`Solution`.

:class:`FastOptBackend` answers only what it models exactly: exclusive options without
energy costs; policies made of the criteria in :data:`SUPPORTED` (no caller weights, no
``spend_color``/``max_colors_spent``); fixed X; no convoke, improvise or delve; supplies
of a known shape (:func:`~manasolver.solver.backends.fastopt.shape.shape_known`).
Anything else, or a search longer than its node budget, is declined (``None``) and goes
to CP-SAT.  A board of :data:`LARGE_BOARD` members or more is first tried at the policy's
floor (:mod:`.floor`) and by the min-cost flow over one-unit sources (:mod:`.unitflow`),
each exact where it answers.  The activations the search chose are turned into a payment by the shared
transport of :mod:`~manasolver.solver.backends.matching`; a solution carries the keep terms it
was counted with (:attr:`Solution.keep`), which its payment's score reads.  :func:`evaluate` scores any
backend's solution with the same vector, for tests comparing optima.
"""

from __future__ import annotations

from manasolver.solver.backends.fastopt.filters import solve_converters
from manasolver.solver.backends.fastopt.floor import prepared, solve_at_floor
from manasolver.solver.backends.fastopt.unitflow import solve_by_flow
from manasolver.solver.backends.fastopt.keep import KeepTerms
from manasolver.solver.backends.fastopt.search import search_for
from manasolver.solver.backends.fastopt.shape import shape_known
from manasolver.solver.backends.matching import UnitKind, solution_from_units
from manasolver.solver.backends.problem import Problem, Solution
from manasolver.solver.policy import criteria_vector
from manasolver.solver.supply.model import scoped_ability_mana

__all__ = ["SUPPORTED", "FastOptBackend", "evaluate"]

#: The policy criteria the fast optimiser models exactly.
SUPPORTED = frozenset({"no_sacrifice", "min_life", "keep_castable", "keep_colors", "min_waste",
                       "prefer_lands", "min_sources", "use_pool", "min_energy"})

#: Members from which a board is first tried at the policy's floor and by the min-cost flow
#: (:mod:`.floor`, :mod:`.unitflow`) before the branch and bound: both are exact where they
#: answer, and on smaller boards the branch and bound is as fast and keeps its own ties.
LARGE_BOARD = 64


class FastOptBackend:
    """The plain-Python exact optimiser; ``None`` when it declines (see module docstring)."""

    name = "fastopt"

    def solve(self, problem: Problem) -> Solution | bool | None:
        if problem.mode not in ("optimal", "feasible") or problem.x is None or problem.has_assists:
            return None  # convoke/improvise/delve: CP-SAT decides them with the mana
        pol = problem.policy
        if pol.weights or pol.spend_color or any(c not in SUPPORTED for c in pol.criteria):
            return None
        if not shape_known(problem.supply):
            return None
        if scoped_ability_mana(problem.supply, problem.req.state):
            return None  # mana that may pay some mana abilities' costs and not others: CP-SAT
        criteria = pol.criteria if problem.mode == "optimal" else ("min_sources",)
        if _pool_may_sink(problem, criteria):
            return None
        if problem.mode == "optimal" and sum(cls.count for cls in problem.supply.classes) >= LARGE_BOARD:
            start = prepared(problem, criteria)  # both paths start from it
            if start is not None:
                floor = solve_at_floor(problem, criteria, start) or solve_by_flow(problem, criteria, start)
                if floor is not None:
                    floor.keep = start.keep
                    return floor
        search = search_for(problem, criteria)
        if search is None or not search.run() or (
                search.inc.uncertain is not None
                and (search.inc.best is None or search.inc.uncertain < search.inc.best)):
            # declined, over its node budget, or a circular-looking cover might be better:
            # the converter search decides boards of filter lands, else CP-SAT
            if any(not cls.free for cls in problem.supply.classes):
                return solve_converters(problem, criteria)
            return None
        inc = search.inc
        if inc.plan is None:
            return False
        fi, counts = inc.plan
        units: list[UnitKind] = []
        cost_ok: list[bool] = []
        extra: list[tuple[tuple[object, ...], int, int]] = []
        forced: dict[tuple[int, int], int] = {}
        for md, n in zip(search.best_modes, counts):
            if not n:
                continue
            for m in sorted(set(md.masks)):
                units.append((m, md.snow, n * md.masks.count(m), md.k, md.options))
                cost_ok.append(md.pays_ability and not md.costs)
            if md.costs:
                o = md.options[0][1]
                forced[(md.k, o)] = n
                for m, c in md.costs:
                    extra.append((("cost", md.k, o, m), m, n * c))
        sol = solution_from_units(problem, units, fi, problem.x, tuple(extra), tuple(cost_ok),
                                  forced)
        if sol is None:  # pragma: no cover - the search checked Hall's condition
            return None
        sol.objective = inc.best or ()
        if search.origin is problem:  # the terms were built for this very problem
            sol.keep = search.keep
        return sol


def evaluate(problem: Problem, sol: Solution, criteria: tuple[str, ...]) -> tuple[int, ...]:
    """The objective vector of any backend's solution, as the fast optimiser scores it
    (for tests comparing optima)."""
    keep = KeepTerms(problem, criteria)
    used = [0] * len(problem.supply.classes)
    sac = life = nonland = tb = produced = 0
    for k, _m, o in sol.acts:
        opt = problem.supply.classes[k].options[o]
        used[k] += 1
        sac += int(opt.sacrifice)
        life += opt.life + opt.damage
        nonland += problem.supply.classes[k].kind != "land"
        tb += problem.supply.classes[k].positions[0] + 1
        produced += len(opt.slots)
    form = problem.forms[sol.form]
    spent_act = sum(n for src, _b, _d, n in sol.spend if src[0] == "act")
    pool_spent = sum(n for src, _b, _d, n in sol.spend if src[0] == "pool")
    terms = {
        "no_sacrifice": sac, "min_life": life + form.life,
        "keep_castable": keep.keep_lost(used) if "keep_castable" in criteria else 0,
        "keep_colors": keep.colors_lost(used), "min_waste": produced - spent_act,
        "prefer_lands": nonland, "min_sources": len(sol.acts),
        "use_pool": problem.supply.pool_total - pool_spent, "min_energy": form.energy,
        "tiebreak": tb,
    }
    return criteria_vector(terms, criteria)


def _pool_may_sink(problem: Problem, criteria: tuple[str, ...]) -> bool:
    """Floating mana, abilities that cost mana, and ``use_pool`` ranked before ``min_waste`` or
    ``min_sources``, or without either: the best payment may spend the pool on an activation it
    does not need (a Signet's {1}, a filter land's {U/R}), which the search's bounds do not
    cover (hypothesis found {B} with pool {W}, Bayou and Azorius Signet under (use_pool,
    min_sources), and {W} with pool {W}{U} and Cascade Bluffs under (use_pool,)); CP-SAT
    decides those."""
    if problem.supply.pool_total <= 0 or "use_pool" not in criteria:
        return False
    if not any(c in criteria and criteria.index("use_pool") < criteria.index(c)
               for c in ("min_waste", "min_sources")) and any(
            c in criteria for c in ("min_waste", "min_sources")):
        return False
    return any(opt.mana_cost for cls in problem.supply.classes for opt in cls.options)
