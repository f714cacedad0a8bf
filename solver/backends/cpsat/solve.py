"""Solving the CP-SAT model: payments stage by stage, the cycle cuts, the slack model of REASON.

:class:`CpSatBackend` builds the model of a problem
(:func:`~manasolver.solver.backends.cpsat.model.build_model`) and minimises the policy's terms
stage by stage, fixing each optimum (one worker, always with an objective: CP-SAT stalls without
one on pigeonhole-style impossible costs).  With activations that cost mana it first
solves the relaxation where they may pay one another in any order, forbidding each cycle found;
:meth:`CpSatBackend.relaxed` minimises the slack of every demand, the ``missing`` mana of an
unpayable cost.

Solver settings (:func:`_new_solver`): one worker, linearization level 2, no presolve, a time
bound of :data:`TIME_LIMIT` seconds per stage and never past the query's deadline
(:mod:`~manasolver.solver.budget`): a later stage does not start once it has passed.  An answer
whose optimality was not proven in time says so (``Solution.optimal`` false, and
``"time_bound": true`` in the protocol answer); a first stage that finds no payment in time is
an ``Unsupported`` error (payability not decided), and a slack model cut short says so
(:meth:`CpSatBackend.relaxed`'s ``proven``).
"""

from __future__ import annotations

import sys
import time
from typing import Any

from manasolver.models.errors import Unsupported
from manasolver.solver import budget
from manasolver.solver.backends.cpsat.model import build_model
from manasolver.solver.backends.cpsat.repeats import MAX_BATCHES, Node
from manasolver.solver.backends.cpsat.variables import Cut, Model
from manasolver.solver.backends.problem import Problem, Solution
from manasolver.solver.policy import stages

__all__ = ["MAX_CUT_ROUNDS", "TIME_LIMIT", "CpSatBackend"]

#: Seconds CP-SAT may spend on one stage before the answer says it hit its bound.
TIME_LIMIT = 2.0


class CpSatBackend:
    """Exact optimal payments, max X and every case the fast path declines."""

    name = "cpsat"

    def solve(self, problem: Problem) -> Solution | bool:
        """The optimal :class:`Solution` under the problem's policy (``feasible`` mode:
        any payment, still with an objective), or ``False`` when there is none.

        With activations that cost mana, it first solves the relaxation where they may
        pay one another in any order, forbidding each cycle found and solving again
        (a cycle-free optimum of the relaxation is legal, hence optimal); after
        :data:`MAX_CUT_ROUNDS` rounds it solves the exact ordered model instead."""
        _import_cp_model()
        lower: tuple[int, ...] = ()
        if any(not k.free for k in problem.supply.classes):
            cuts: list[Cut] = []
            for _ in range(MAX_CUT_ROUNDS):
                model = build_model(problem, chains="free", cuts=tuple(cuts))
                result = self._solve_model(problem, model)
                if result is False:
                    return False
                assert not isinstance(result, bool)
                cycle = _payment_cycle(model, result[1])
                if cycle is None:
                    return result[0]
                cuts.append(cycle)
                if result[0].optimal:
                    lower = result[0].objective  # the relaxation bounds the true optimum
        model = build_model(problem)
        result = self._solve_model(problem, model, lower)
        if model.capped:
            # a chain of more runs of a repeatable ability than the model orders might pay, or
            # pay better: an answer of this model is not proven, and says so
            if isinstance(result, bool):
                raise Unsupported(f"a repeatable mana ability may need more than {MAX_BATCHES} runs between the "
                                  "other mana abilities it pays and that pay it, which this engine does not "
                                  "order yet", "cost")
            result[0].optimal = False
        return False if isinstance(result, bool) else result[0]

    def _solve_model(self, problem: Problem, model: Model,
                     lower: tuple[int, ...] = ()) -> tuple[Solution, Any] | bool:
        """Solve a built model stage by stage: the solution and the solver, or False.
        ``lower``: the first stages' optima in a relaxation, which let CP-SAT stop as soon
        as it reaches them; each bounds its stage only when the stages before it reached
        the relaxation's values (lexicographic bounds are conditional)."""
        from ortools.sat.python import cp_model

        cp = model.cp
        deadline = budget.current()
        solver = good = None
        objective_values: list[int] = []
        if problem.mode == "feasible":
            plan = [[("min_sources", 1)]]
        else:
            bounds = {name: ub for name, (_, ub) in model.terms.items()}
            plan = stages(problem.policy, bounds)
            if problem.mode == "max_x":
                plan = [[("max_x", 1)]] + plan
        status = None
        proven = True
        for stage in plan:
            if stage[0][0] == "max_x":
                expr: Any = -model.x
            else:
                expr = sum(w * model.terms[name][0] for name, w in stage)
            stage_index = len(objective_values)
            # a relaxation's optimum bounds a stage only while every earlier stage took the
            # relaxation's value: past a stage where the true optimum is worse (a smaller X,
            # more life), the later stages may be better than the relaxation's
            if stage_index < len(lower) and tuple(objective_values) == lower[:stage_index]:
                cp.add(expr >= lower[stage_index])
            if good is not None and deadline.expired():
                proven = False  # the query's budget is spent: the later stages are not proven
                deadline.mark()
                break
            cp.minimize(expr)
            # a solver per stage: the last stage that answered keeps its solution
            solver = _new_solver(deadline.within(TIME_LIMIT))
            status = solver.solve(cp)
            if status == cp_model.INFEASIBLE and good is None:
                return False
            if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
                if good is None:
                    deadline.mark()
                    raise Unsupported("the CP-SAT solver hit its time bound "
                                      f"({TIME_LIMIT} s, or the query's budget) without an answer", "cost")
                proven = False
                deadline.mark()
                break
            if status == cp_model.FEASIBLE:
                proven = False
                deadline.mark()
            good = solver
            value = round(solver.objective_value)
            objective_values.append(value)
            cp.add(expr == value)
            _hint(cp, solver, model)
        if good is None:  # pragma: no cover
            return False
        if proven and problem.mode != "feasible":
            good = _canonical(cp, model, good, deadline) or good
        sol = _extract(problem, model, good, tuple(objective_values))
        sol.optimal = proven
        return sol, good

    def relaxed(self, problem: Problem, relax_life: bool = False, relax_energy: bool = False,
                mana_first: bool = False) -> tuple[dict[tuple[Any, ...], int], int, int, bool] | bool:
        """Minimum slack per demand (the ``missing`` mana) with life/energy relaxed on
        request: ``(slack per demand, life short, energy short, proven)``; ``False`` when the
        relaxed model is infeasible, ``True`` when the time bound came first (nothing known).
        ``proven`` is false when the time bound stopped the minimisation (the slack found is
        a payable one, perhaps not the least).

        Lexicographic: the missing life and energy, then the total missing mana, then its
        colored part (``mana_first``: the missing mana before the life and energy), as one
        weighted objective; when those weights overflow CP-SAT's 64-bit objective (a model with
        more than a few slacks of up to a million each: CP-SAT answers ``MODEL_INVALID``), one
        solve per level instead, each level's optimum fixed before the next."""
        cp_model = _import_cp_model()
        deadline = budget.current()
        if deadline.expired():
            deadline.mark()
            return True
        try:
            model = build_model(problem, slack=True, relax_life=relax_life, relax_energy=relax_energy)
        except budget.OutOfTime:
            return True
        cp = model.cp
        total: Any = sum(model.slack.values()) if model.slack else 0
        colored: Any = sum(v for d, v in model.slack.items() if d[0] != "generic") if model.slack else 0
        short: Any = model.life_slack + model.energy_slack
        big = 1 << 20
        if mana_first:
            cp.minimize((total * big + colored) * big + short)
        else:
            cp.minimize(short * big * big + total * big + colored)
        solver = _new_solver(deadline.within(TIME_LIMIT))
        status = solver.solve(cp)
        good = None
        proven = True
        if status == cp_model.MODEL_INVALID:  # the weights overflow 64 bits: one solve per level
            levels = [total, colored, short] if mana_first else [short, total, colored]
            found = _lexicographic(cp, [e for e in levels if not isinstance(e, int)] or [sum(model.y)])
            if isinstance(found, bool):
                return found
            good, proven = found
        elif status == cp_model.UNKNOWN:  # the time bound came first
            deadline.mark()
            return True
        elif status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            return False  # infeasible
        else:
            good = solver
            if status == cp_model.FEASIBLE:
                proven = False
                deadline.mark()
        assert good is not None
        slack = {d: int(good.value(v)) for d, v in model.slack.items() if good.value(v)}
        life_short = int(good.value(model.life_slack)) if relax_life else 0
        energy_short = int(good.value(model.energy_slack)) if relax_energy else 0
        return slack, life_short, energy_short, proven


def _lexicographic(cp: Any, levels: list[Any]) -> tuple[Any, bool] | bool:
    """Minimise ``levels`` in order, each optimum fixed before the next: the solver of the last
    level solved and whether every level was proven least; ``False`` when the model is
    infeasible, ``True`` when the time bound came before any solution."""
    from ortools.sat.python import cp_model

    deadline = budget.current()
    good = None
    for expr in levels:
        if good is not None and deadline.expired():
            deadline.mark()
            return good, False  # a shortfall that suffices, its later levels not minimised
        cp.minimize(expr)
        solver = _new_solver(deadline.within(TIME_LIMIT))
        status = solver.solve(cp)
        if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            if good is not None:  # the bound came first at a later level
                deadline.mark()
                return good, False
            if status == cp_model.INFEASIBLE:
                return False
            deadline.mark()  # the time bound came first: nothing known
            return True
        good = solver
        if status == cp_model.FEASIBLE:  # not the least at this level: later levels not minimised
            deadline.mark()
            return good, False
        cp.add(expr == round(solver.objective_value))
    return good, True


def _decisions(model: Model) -> tuple[list[tuple[Any, bool]], list[Any]]:
    """The model's decision variables in a canonical order (the model's build order, which is a
    function of the problem alone): first the ones that say what the payment does, each with
    whether more of it is preferred (forms and X; the uses of each option and member, the
    earlier ones preferred: a dual land's first color, the first members of a class, as the
    board's order says; assists, taps, sacrifices, roles), then the flows of mana to what it pays."""
    from ortools.sat.python import cp_model

    found = [*((v, False) for v in [*model.y, model.x]),
             *((model.uses[k], True) for k in sorted(model.uses)),
             *((model.inst[k], True) for k in sorted(model.inst)),
             *((model.batch[k], True) for k in sorted(model.batch)),
             *((v, False) for v in [*(model.assist_vars[k] for k in sorted(model.assist_vars)),
                                    *(model.tap_vars[k] for k in sorted(model.tap_vars)),
                                    *(model.sac_vars[k] for k in sorted(model.sac_vars)),
                                    *(v for _, v in sorted(model.role_vars.items(), key=lambda kv: repr(kv[0])))])]
    seen: set[int] = set()
    main = []
    for v, high in found:
        if isinstance(v, cp_model.IntVar) and v.index not in seen:
            seen.add(v.index)
            main.append((v, high))
    flows = []
    for v in [*(f[3] for f in model.flows), *(f[3] for f in model.assist_flows)]:
        if isinstance(v, cp_model.IntVar) and v.index not in seen:
            seen.add(v.index)
            flows.append(v)
    return main, flows


def _canonical(cp: Any, model: Model, solver: Any, deadline: budget.Deadline) -> Any:
    """Among the payments as good as ``solver``'s under every stage (their values fixed in ``cp``),
    a canonical one, so that an answer is a function of its input alone: which of several equally
    good payments a search meets first depends on its path (the cuts of the relaxation, a bound a
    loaded machine reached or not).  One more stage minimises a sum over :func:`_decisions` with
    fixed, distinct weights, larger for the earlier variables (so the earlier options and members
    are preferred, as the board's order says) and smallest for the flows of mana; a tie in that
    sum (two payments whose weighted sums are equal, rare with distinct weights) is left to the
    solver.  The solver of that stage, or ``None`` when the time bound came first (the answer is
    then the optimum found, not the canonical one)."""
    from ortools.sat.python import cp_model

    variables = model.cp.proto.variables

    def moves(v: Any) -> bool:
        dom = variables[v.index].domain
        return bool(dom[len(dom) - 1] > dom[0])  # (this sequence type reads [-1] as 0)

    main, flows = _decisions(model)
    n = len(main)
    expr: Any = 0
    for i, (v, high) in enumerate(main):
        if moves(v):
            weight = (n - i) * 1000 + (i * 7919) % 997
            expr += -weight * v if high else weight * v
    for i, v in enumerate(flows):
        if moves(v):
            expr += (1 + (i * 7919) % 997) * v
    if isinstance(expr, int) or deadline.expired():
        return None
    _hint(cp, solver, model)
    cp.minimize(expr)
    stage = _new_solver(deadline.within(TIME_LIMIT))
    if stage.solve(cp) != cp_model.OPTIMAL:
        return None
    return stage


def _import_cp_model() -> Any:
    """ortools' ``cp_model``.  Its first import in a process (about 0.3 s, seconds on a loaded
    machine) is not counted against the query's budget: the deadline moves by that much, so
    that what a query proves does not depend on being the process's first to need CP-SAT."""
    found = sys.modules.get("ortools.sat.python.cp_model")
    if found is not None:
        return found
    start = time.monotonic()
    from ortools.sat.python import cp_model
    budget.current().extend(time.monotonic() - start)
    return cp_model


#: Rounds of "solve the relaxation, forbid the cycle found" before the ordered model.
MAX_CUT_ROUNDS = 4


def _payment_cycle(model: Model, solver: Any) -> Cut | None:
    """The activations of a cycle of payments of one another's mana costs in this
    solution, or None when the payments can be ordered."""
    graph: dict[Node, list[Node]] = {}
    for (a, b), vs in model.pair_flows.items():
        if any(solver.value(v) for v in vs):
            graph.setdefault(a, []).append(b)
    state: dict[Node, int] = {}
    stack: list[Node] = []

    def visit(node: Node) -> list[Node] | None:
        state[node] = 1
        stack.append(node)
        for nxt in graph.get(node, []):
            if state.get(nxt) == 1:
                return stack[stack.index(nxt):] + [nxt]
            if nxt not in state:
                found = visit(nxt)
                if found:
                    return found
        stack.pop()
        state[node] = 2
        return None

    for node in list(graph):
        if node not in state:
            path = visit(node)
            if path:
                return tuple(sorted(set(path)))
    return None


def _new_solver(seconds: float = TIME_LIMIT) -> Any:
    """A CP-SAT solver as this backend uses it: one worker (performance target: the default two add
    ~2 ms), a time bound, linearization level 2, whose LP relaxation of the flows turns
    multi-second proofs of optimality (Signets, filter lands) into tens of ms, and no
    presolve, which on these small models costs more than it saves (Commander boards:
    median 156 -> 101 ms on the development machine).  ``seconds``: its time bound (a
    floor of 1 ms: CP-SAT reads 0 as no time at all, and the answer then says so)."""
    from ortools.sat.python import cp_model

    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    solver.parameters.max_time_in_seconds = max(0.001, seconds)
    solver.parameters.linearization_level = 2
    solver.parameters.cp_model_presolve = False
    return budget.current().watch(solver)


def _hint(cp: Any, solver: Any, model: Model) -> None:
    """Seed the next stage with this stage's solution (it stays feasible)."""
    cp.clear_hints()
    for v in model.y:
        cp.add_hint(v, solver.value(v))
    for v in list(model.uses.values()) + list(model.assist_vars.values()):
        if hasattr(v, "index") and not isinstance(v, int):
            try:
                cp.add_hint(v, solver.value(v))
            except (TypeError, AttributeError):
                pass


def _extract(problem: Problem, model: Model, solver: Any, objective: tuple[int, ...]) -> Solution:
    sup = problem.supply
    form = next(i for i, v in enumerate(model.y) if solver.value(v))
    x = int(solver.value(model.x)) if problem.x is None else problem.x
    acts: list[tuple[int, int, int]] = []
    for k, cls in enumerate(sup.classes):
        if k not in model.expanded:
            member = 0
            for o, opt in enumerate(cls.options):
                n = int(solver.value(model.uses[(k, o)]))
                if opt.exclusive:
                    for _ in range(n):
                        acts.append((k, member, o))
                        member += 1
            for o, opt in enumerate(cls.options):
                if opt.exclusive:
                    continue
                n = int(solver.value(model.uses[(k, o)]))
                for i in range(n):
                    acts.append((k, i // opt.repeat, o))
        else:
            for (kk, j, o), b in model.inst.items():
                if kk == k:
                    acts.extend([(k, j, o)] * int(solver.value(b)))
    spend: list[tuple[tuple[object, ...], int, tuple[object, ...], int]] = []
    for s, dst, t, v in model.flows:
        n = int(solver.value(v))
        if not n:
            continue
        key = s.key if s.key[0] != "inst" else ("act", s.key[1], s.key[3], s.key[4]) + s.key[5:]
        if dst[0] == "cost" and dst[3] == "ability":  # one ability's cost, whichever batch paid it
            dst = dst[:5] + dst[6:]
        spend.append((key, t, dst, n))
    for g, dst, t, v in model.assist_flows:
        n = int(solver.value(v))
        if n and dst[0] == "spell":
            spend.append((("convoke", g), t, dst, n))
    assists = [(kind, g, int(solver.value(v))) for (kind, g), v in model.assist_vars.items()
               if solver.value(v)]
    delved = int(solver.value(model.delve)) if not isinstance(model.delve, int) else 0
    sacrifices = [(k, o, p, f, int(solver.value(v))) for (k, o, p, f), v in model.sac_vars.items()
                  if solver.value(v)]
    taps = [(k, o, f, int(solver.value(v))) for (k, o, f), v in model.tap_vars.items() if solver.value(v)]
    roles = [(u, role, int(solver.value(v))) for (u, role), v in model.role_vars.items() if solver.value(v)]
    return Solution(form, x, acts, spend, objective, assists=assists, delved=delved,
                    sacrifices=sacrifices, taps=taps, roles=roles)

