"""Why a cost can't be paid: the REASON of an unpayable answer.

Codes: ``insufficient_mana`` with ``missing`` (the smallest cost added sources would have to
cover), ``insufficient_life`` (CR 119.4), ``insufficient_energy`` (107.14), ``restricted_mana``
(payable if the restricted mana could be spent, CR 106.6); ``max_x`` wraps one of these in
``no_legal_x``.

How, for a problem already known to be unpayable (the query's own :class:`Problem`, never
prepared again):

1. a policy that requires spending some colors (``spend_color``, adamant) is checked first: when
   the cost is payable without the requirement, the requirement is the reason;
2. the flow bound (:class:`~manasolver.solver.backends.Explains`: a max-flow that serves the
   colored demands first, so the shortfall falls on generic; on boards with converters, repeatable
   options, convoke, improvise or delve, the flow's exact search over how many of them are used,
   :func:`~manasolver.solver.backends.flow.converter_shortfall`; both taken from the query's proof
   when the flow proved the cost unpayable and found them) gives the missing mana and the life
   and energy a form with mana enough would still lack; mana whose restriction does not allow the
   spell counts for nothing there, and when the cost is payable with every restriction lifted (the
   ``can_pay`` chain decides) the reason is ``restricted_mana``;
3. otherwise (the flow declines) the CP-SAT slack model (:class:`~manasolver.solver.backends.Relaxes`: one slack per
   demand, minimised, total first, then colored), solved again with life and energy relaxed to
   tell ``insufficient_life``/``insufficient_energy`` apart, and the problem with its spending
   restrictions lifted to tell ``restricted_mana`` apart.

Within the query's time budget (:mod:`~manasolver.solver.budget`): a REASON whose search was
cut short says so, never stating as fact what was not proven.  Its ``"proved": false`` means
that the code and ``missing`` are what the search reached (a shortfall that would suffice,
perhaps not the least; or, when no slack model answered in time, ``insufficient_mana`` without
``missing``) and the message says the search was cut short; the answer carries
``time_bound: true``.  That the cost is unpayable is proven either way: the REASON is asked only
for a problem a backend proved unpayable.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping

from manasolver.models.errors import Unsupported
from manasolver.models.symbols import ANY_TYPE
from manasolver.solver.answers import Reason
from manasolver.solver.backends import (
    DEFAULT_CHAINS,
    Declined,
    Infeasible,
    Shortfall,
    TimeBound,
    explainer,
    payable,
    relaxer,
)
from manasolver.solver.backends.problem import Problem
from manasolver.solver.casting.announce import mask_text

__all__ = ["CUT_SHORT", "missing_text", "reason"]

#: The words a REASON whose search was cut short by the time bound ends with.
CUT_SHORT = "(the search was cut short by the time bound: not proven the least)"


def missing_text(slack: Mapping[tuple[object, ...], int]) -> str:
    """Slack per demand as a cost: ``{1}{G}``.  A demand any type of mana pays (``{U}`` under
    Chromatic Orrery, CR 609.4b) is written as generic mana, which is what added sources cover."""
    generic = snow = 0
    singles: list[str] = []
    for d, n in slack.items():
        kind = d[0]
        if kind == "spell":
            mask = int(d[1])  # type: ignore[call-overload]
            if mask == ANY_TYPE:
                generic += n
            else:
                singles += [mask_text(mask)] * n
        elif kind == "generic":
            generic += n
        elif kind == "snow":
            snow += n
    if len(singles) > 1:
        singles.sort(key=_symbol_order)
    text = "".join(singles) + "{S}" * snow
    if generic:
        return "{" + str(generic) + "}" + text
    return text or "{0}"


def _symbol_order(symbol: str) -> tuple[int, int, str]:
    """Where a missing symbol stands in :func:`missing_text`: single types first, in W U B R G C
    order, then hybrids."""
    return len(symbol), "WUBRGC".index(symbol[1]) if symbol[1] in "WUBRGC" else 9, symbol


def reason(problem: Problem, proof: Infeasible | None = None) -> Reason:
    """The REASON of ``problem`` (``feasible`` mode, at its X), which is unpayable (see the
    module docstring); ``proof``: the backend's proof of it, when the query has it (what it
    found missing is not searched again)."""
    req = problem.req
    if req.policy.spend_color:
        policy = dataclasses.replace(req.policy, spend_color=())
        free = dataclasses.replace(problem, req=dataclasses.replace(req, policy=policy), policy=policy)
        if payable(free, DEFAULT_CHAINS["can_pay"]):
            need = " and ".join(f"{n} {{{c}}}" for c, n in req.policy.spend_color)
            return Reason("insufficient_mana", f"payable, but not while spending at least {need} "
                          f"(the policy's spend_color requirement)")
    if proof is not None and proof.missing:  # the flow found it proving the cost unpayable
        missing, life, energy = proof.missing, 0, 0
    else:
        quick = explainer("flow").shortfall(problem)
        if isinstance(quick, Declined):
            return _from_slack(problem)
        missing, life, energy = quick.missing, quick.life, quick.energy
    if missing and problem.supply.restricted and payable(problem.without_restrictions(), DEFAULT_CHAINS["can_pay"]):
        return _restricted_reason(missing_text(missing))
    return _from_flow(problem, missing, life, energy)


def _restricted_reason(missing: str) -> Reason:
    """The ``restricted_mana`` REASON, ``missing`` the least missing mana with the restrictions kept."""
    return Reason("restricted_mana", "payable only with mana whose spending restriction does not allow "
                  "this (CR 106.6)", missing)


def _from_flow(problem: Problem, short: Mapping[tuple[object, ...], int], life_short: int,
               energy_short: int) -> Reason:
    """The REASON from the flow bound's shortfall."""
    if not short:
        if energy_short:
            return Reason("insufficient_energy", f"needs {energy_short} more energy than "
                          f"the player has ({problem.supply.energy})")
        return Reason("insufficient_life", f"needs {life_short} more life than the player "
                      f"has ({problem.supply.life}) to pay life (CR 119.4)")
    missing = missing_text(short)
    if energy_short:
        return Reason("insufficient_energy", f"needs {energy_short} more energy, or {missing} "
                      "more mana", missing)
    if life_short:
        return Reason("insufficient_life", f"needs {life_short} more life (CR 119.4), or "
                      f"{missing} more mana", missing)
    return Reason("insufficient_mana", f"{missing} more mana is needed", missing)


def _unproved(why: Reason) -> Reason:
    """``why`` as reached by a search the time bound cut short (see the module docstring)."""
    return dataclasses.replace(why, message=f"{why.message} {CUT_SHORT}", proved=False)


class _Slack:
    """The CP-SAT slack models of one REASON, noting whether the time bound cut one short."""

    def __init__(self) -> None:
        self.cut = False

    def relaxed(self, problem: Problem, **kw: bool) -> Shortfall | Infeasible:
        found = relaxer("cpsat").relaxed(problem, **kw)
        if isinstance(found, TimeBound):
            self.cut = True
            return Infeasible(found.what)
        if isinstance(found, Shortfall) and not found.proven:
            self.cut = True
        return found

    def lifted_payable(self, problem: Problem) -> bool:
        """Is ``problem`` payable with its spending restrictions lifted (CR 106.6)?  Asked of the
        ``can_pay`` chain (each backend exact where it answers).  False when the time bound came
        first (then not known, and noted)."""
        try:
            return payable(problem.without_restrictions(), DEFAULT_CHAINS["can_pay"])
        except Unsupported:  # CP-SAT's time bound without an answer
            self.cut = True
            return False


def _from_slack(problem: Problem) -> Reason:
    """The REASON from the CP-SAT slack models; not proved when one of them was cut short."""
    slack = _Slack()
    why = _slack_reason(problem, slack)
    if not slack.cut:
        return why
    if why.missing is None and why.code == "insufficient_mana":
        return Reason("insufficient_mana", "the cost can't be paid; what is missing was not found "
                      "within the time bound", proved=False)
    return _unproved(why)


def _pays_life_or_energy(problem: Problem) -> bool:
    """Can life or energy limit a payment of ``problem``: a form that pays life or energy, or an
    option whose cost does?  (Damage from a source counts only against a form's life payment,
    CR 601.2g-h.)  When neither can, relaxing life and energy changes no payment, so the
    least missing mana is the whole reason."""
    return any(f.life or f.energy for f in problem.forms) or any(
        o.life or o.energy for cls in problem.supply.classes for o in cls.options)


def _slack_reason(problem: Problem, slack: _Slack) -> Reason:
    """The REASON from the CP-SAT slack models."""
    first = slack.relaxed(problem)
    if isinstance(first, Infeasible):
        loose = slack.relaxed(problem, relax_life=True, relax_energy=True)
        if not isinstance(loose, Infeasible) and loose.energy > 0:
            return Reason("insufficient_energy", f"needs {loose.energy} more energy than the player "
                          f"has ({problem.supply.energy})")
        if not isinstance(loose, Infeasible) and loose.life > 0:
            return Reason("insufficient_life", f"needs {loose.life} more life than the player has "
                          f"({problem.supply.life}) to pay life (CR 119.4)")
        return Reason("insufficient_mana", "no way to pay this cost")
    missing = missing_text(first.missing)
    if problem.supply.restricted and slack.lifted_payable(problem):
        return _restricted_reason(missing)
    if not _pays_life_or_energy(problem):
        return Reason("insufficient_mana", f"{missing} more mana is needed", missing)
    loose = slack.relaxed(problem, relax_life=True, relax_energy=True, mana_first=True)
    if not isinstance(loose, Infeasible) and not loose.missing:
        if loose.energy > 0:
            return Reason("insufficient_energy", f"needs {loose.energy} more energy, or {missing} "
                          "more mana", missing)
        if loose.life > 0:
            return Reason("insufficient_life", f"needs {loose.life} more life (CR 119.4), or "
                          f"{missing} more mana", missing)
    return Reason("insufficient_mana", f"{missing} more mana is needed", missing)
