"""A plan with the player's word on particular permanents: ``sources`` across every cost.

``exclude``: no cost of the plan uses the permanent (it is taken as tapped on the plan's board).
``preserve``: the plan uses as few preserved permanents as it can, counted over the whole plan at
the ``preserve`` criterion's place in the policy (right after ``no_sacrifice`` when not named).
Every set of preserved permanents the plan may use is solved on a board where the others are
unusable (fewest first; past :data:`~manasolver.solver.sources.MAX_PRESERVE_SUBSETS` only none
and all), and the plans are compared by the plan's score: the optimum over the allowed sets is
the optimum under the policy, since the best plan using a set is among those solved for it.
``require``: every required permanent is activated by the plan.  The required permanents are
activated first, before the first cost, in every way they can be (their mana floats, CR 106.4,
and pays whichever cost needs it), the plan is solved on each board that leaves (once per part of
the pool it may leave unspent, :func:`_spending`: that mana is wasted), and the required
activations are written into the first cost's payment.  A required permanent that can't be
activated first (its mana cost not in the pool) is a ``conflicting_sources`` REASON, as for
``pay``.

The plan's score (:func:`plan_score`) is the policy's criteria of the plan as one payment: every
activation of every cost, life, damage and energy summed, the mana made and never spent counted
at the end, ``keep_castable`` and ``keep_colors`` read on what the whole plan leaves untapped.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from manasolver.models.errors import ManasolverError, Unsupported
from manasolver.solver.answers import Reason
from manasolver.solver.carry import excluded_board, pool_text
from manasolver.solver.payment import Payment
from manasolver.solver.plan.combined import Combined
from manasolver.solver.plan.joint import PlanAnswer, check_joint, plan
from manasolver.solver.request import Sources
from manasolver.solver.unspent import in_order, spend, spends_pool, unspent_boards

if TYPE_CHECKING:
    from manasolver.models.state import GameState
    from manasolver.solver.guide import _Branch
    from manasolver.solver.payment_writer import Finisher
    from manasolver.solver.request import PaymentRequest

__all__ = ["plan_score", "plan_sourced"]

Steps = Sequence["PaymentRequest | dict[str, Any]"]


def _on(steps: Steps, state: GameState, chosen: Sources,
        idle: tuple[str, ...] | None = None) -> list[PaymentRequest | dict[str, Any]]:
    """The costs on ``state``, each knowing the preserved permanents (its warnings say when it
    uses one) and the ``idle`` ones: taken as tapped on ``state`` for ``exclude`` or ``preserve``,
    untapped on the player's board, which the keep terms count as left (None: each cost's own)."""
    return [s if isinstance(s, dict) else dataclasses.replace(s, state=state, sources=Sources(
        preserve=chosen.preserve, idle=s.sources.idle if idle is None else idle)) for s in steps]


def _idle(original: GameState, taken: set[str]) -> tuple[str, ...]:
    """The permanents of ``taken`` (those a board for ``exclude`` or ``preserve`` takes as tapped)
    that are untapped on the player's board ``original``."""
    return tuple(p.id for p in original.battlefield if not p.tapped and p.id in taken)


def _spending(steps: Steps, state: GameState, player: str) -> list[Steps]:
    """The costs to solve on ``state``, the board the required activations left, so that the best
    plan on the whole board is among their answers: ``steps`` first, then (when the policy counts
    waste) one variant per part of the pool the plan may leave unspent
    (:func:`~manasolver.solver.unspent.unspent_boards`), each on its board (:func:`_pool_state`)."""
    reqs = [s for s in steps if not isinstance(s, dict)]
    if not reqs:
        return [steps]
    out: list[Steps] = [steps]
    for board, order in unspent_boards(state, player, reqs[0].policy):
        out.append([s if isinstance(s, dict) else dataclasses.replace(
            s, state=board, policy=dataclasses.replace(s.policy, criteria=order)) for s in steps])
    return out


def _pool_state(steps: Steps) -> GameState:
    """The board :func:`_spending` solved ``steps`` on."""
    return next(s.state for s in steps if not isinstance(s, dict))


def _units(text: str) -> Counter[int]:
    from manasolver.solver.carry import _units as units
    return units(text)


def plan_score(steps: Sequence[PaymentRequest], payments: Sequence[Payment]) -> list[tuple[str, int]]:
    """The policy's criteria with their values for the plan ``payments`` of ``steps`` (see the
    module docstring), as the plan's own optimisation counts them."""
    from manasolver.solver import queries
    from manasolver.solver.payment_writer import Finisher
    problems = [queries.prepare(s, "feasible", s.x if s.x is not None else 0) for s in steps]
    check_joint(problems)
    whole = Combined.of(problems).problem
    me = steps[0].state.player(steps[0].player)
    start = _units(me.pool.format()) if me.pool.symbols else Counter()
    own: Counter[int] = +start
    made: Counter[int] = Counter()
    for p in payments:  # each payment's pool mana there before it, read as the policy ranks
        own, made = spend(own, made, _units(p.pool_used), steps[0].policy)
        made.update(_units(p.floating))
    merged = {"activations": [a.to_json() for p in payments for a in p.activations],
              "convoked": [c for p in payments for c in p.convoked],
              "improvised": [c for p in payments for c in p.improvised],
              "delved": [c for p in payments for c in p.delved],
              "life": sum(p.life for p in payments) - sum(s.ability_life for s in steps[1:]),
              "damage": sum(p.damage for p in payments), "energy": sum(p.energy for p in payments),
              "floating": pool_text(made), "pool_used": pool_text(+(start - own))}
    return Finisher(whole).score(merged)


def _legal_in_turn(steps: Sequence[PaymentRequest], payments: Sequence[Payment]) -> bool:
    """Is each payment legal on the board the ones before it left, the board being the plan's
    own (the required activations' mana read there with its spending restrictions, CR 106.6)?"""
    from manasolver.solver import queries
    from manasolver.solver.plan.board_after import validated
    try:
        validated([queries.prepare(s, "feasible", s.x if s.x is not None else 0) for s in steps], payments)
    except ManasolverError:
        return False
    return True


def _key(score: Sequence[tuple[str, int]]) -> list[int]:
    return [v for _n, v in score]


def plan_sourced(steps: Steps, chosen: Sources) -> PlanAnswer:
    """The best plan of ``steps`` honouring ``chosen`` (see the module docstring)."""
    from manasolver.solver.sources import conflict, preserve_subsets
    bad = conflict(chosen)
    if bad is not None:
        return PlanAnswer(False, reason=bad, index=0)
    reqs = [s for s in steps if not isinstance(s, dict)]
    if not reqs:
        return plan(steps)
    base = excluded_board(reqs[0].state, chosen.exclude)
    if chosen.require:
        _guard_required(reqs, base, chosen)
    best: tuple[list[int], PlanAnswer] | None = None
    for allowed in preserve_subsets(chosen.preserve):
        unused = set(chosen.preserve) - set(allowed) - set(chosen.require)
        state = excluded_board(base, unused)
        found = _best(steps, state, chosen, _idle(reqs[0].state, unused | set(chosen.exclude)))
        if isinstance(found, Reason):
            return PlanAnswer(False, reason=found, index=0)
        if found is not None and (best is None or found[0] < best[0]):
            best = found
    if best is not None:
        return best[1]
    plain = plan(_on(steps, base, chosen, _idle(reqs[0].state, set(chosen.exclude))))
    if plain.payable:  # payable, but not with every required permanent activated
        return PlanAnswer(False, index=0, reason=Reason(
            "conflicting_sources", "no plan pays these costs with every required permanent activated "
                                   f"({', '.join(chosen.require)})"))
    return plain


def _guard_required(reqs: Sequence[PaymentRequest], state: GameState, chosen: Sources) -> None:
    """Refuse (``Unsupported``) a plan whose required permanent costs life or deals damage when
    the plan could take the player's life to 0: the required permanents are activated before the
    first cost, where their damage may kill the player (or make the plan take another way) while
    activated for the last cost it would not (CR 704.5a)."""
    from manasolver.solver import queries
    from manasolver.solver.plan.solve import life_critical
    problems = [queries.prepare(dataclasses.replace(s, state=state), "feasible", s.x if s.x is not None else 0)
                for s in reqs]
    for cls in problems[0].supply.classes:
        if set(cls.members) & set(chosen.require) and any(o.life or o.damage for o in cls.options) \
                and life_critical(problems):
            raise Unsupported(f"{cls.name} is required and costs life or deals damage, and the plan could "
                              "take the player's life to 0: when in the plan it is activated decides "
                              "whether the player survives (CR 704.5a), which this engine does not search "
                              "with required permanents", "sources.require")


def _refuse_restricted(reqs: Sequence[PaymentRequest], state: GameState, chosen: Sources) -> None:
    """Refuse (``Unsupported``) a required permanent whose mana has a spending restriction (CR
    106.6: Ancient Ziggurat's): activated first, its mana would float to the plan's costs as plain
    mana, and which cost it may pay is then not followed."""
    from manasolver.solver import queries
    supply = queries.prepare(dataclasses.replace(reqs[0], state=state), "feasible", reqs[0].x or 0).supply
    for cls in supply.classes:
        if set(cls.members) & set(chosen.require) and any(o.restriction is not None for o in cls.options):
            raise Unsupported(f"{cls.name} is required and its mana may be spent only on some spells (CR "
                              "106.6); a plan with it required is not supported yet (ask pay for one cost)",
                              "sources.require")


def _best(steps: Steps, state: GameState, chosen: Sources,
          idle: tuple[str, ...]) -> tuple[list[int], PlanAnswer] | Reason | None:
    """The best plan on ``state`` activating every required permanent, keyed by its score; a
    REASON naming a required permanent that can't be activated; None when no plan pays.
    ``idle``: see :func:`_on`."""
    on = _on(steps, state, chosen, idle)
    reqs = [s for s in on if not isinstance(s, dict)]
    if not chosen.require:
        got = plan(on)
        return (_key(plan_score(reqs, got.payments)), got) if got.payable else None
    from manasolver.solver.guide import carry_partial
    from manasolver.solver.payment_writer import Finisher
    from manasolver.solver.queries import prepare
    from manasolver.solver.sources import required_steps
    _refuse_restricted(reqs, state, chosen)
    first = reqs[0]
    ways = required_steps(dataclasses.replace(first, sources=chosen), state)
    if isinstance(ways, Reason):
        return ways
    best: tuple[list[int], PlanAnswer] | None = None
    refused: ManasolverError | None = None
    finisher = Finisher(prepare(first, "feasible", first.x or 0))
    for way in ways:
        branches = carry_partial(first, way)
        if isinstance(branches, dict):
            continue
        for branch in branches:
            for rest in _spending(on, branch.state, first.player):
                found = _candidate(rest, on, branch, chosen, finisher)
                if isinstance(found, ManasolverError):  # refused on this board; another way may not be
                    refused = refused or found
                    continue
                if found is not None and (best is None or found[0] < best[0]):
                    best = found
                if found is not None and rest is on and spends_pool(
                        state, first.player, ((p.floating, p.pool_used) for p in found[1].payments)):
                    break  # the plan leaves none of the pool: no part of it left unspent does better
    if best is None and refused is not None:
        raise refused
    return best


def _candidate(rest: Steps, on: Steps, branch: _Branch, chosen: Sources,
               finisher: Finisher) -> tuple[list[int], PlanAnswer] | ManasolverError | None:
    """The best plan of ``rest`` (one of :func:`_spending`'s) on the board ``branch`` (the
    required activations made) with those activations written into the first payment, keyed by
    the plan's score; None when there is none or it is not legal; the refusal when refused."""
    from manasolver.solver.guide import combined
    reqs = [s for s in on if not isinstance(s, dict)]
    first = reqs[0]
    try:
        got = plan(_on(rest, branch.state if rest is on else _pool_state(rest), chosen))
    except ManasolverError as err:
        return err
    if not got.payable:
        return None
    head = finisher.plan(combined(first, branch, got.payments[0].to_json()))
    try:
        payment = dataclasses.replace(Payment.from_json(head), warnings=tuple(head["warnings"]),
                                      score=tuple((n, v) for n, v in head["score"]))
    except ValueError:  # mana read as plain pool mana paid what it can't (see _legal_in_turn)
        return None
    later = got.payments[1:] if rest is on else tuple(
        p if p.score is None else dataclasses.replace(p, score=in_order(p.score, first.policy.criteria))
        for p in got.payments[1:])
    payments = (payment, *later)
    if not _legal_in_turn(reqs, payments):
        return None
    return _key(plan_score(reqs, payments)), dataclasses.replace(got, payments=payments)

