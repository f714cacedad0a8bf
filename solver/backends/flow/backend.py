""":class:`FlowBackend`: the flow fast path's answers, exact where given and ``None`` (declined)
elsewhere.

Each answer reads the plain units first (:mod:`~manasolver.solver.backends.flow.units`), then, where
they leave something out, the wider or assisted units (:mod:`~manasolver.solver.backends.flow.wide`,
:mod:`~manasolver.solver.backends.flow.assisted`), then the converter search
(:mod:`~manasolver.solver.backends.flow.converters`); what each method proves, and when it declines
for the fast optimiser or CP-SAT, is said on the method.
"""

from __future__ import annotations

from manasolver.solver.backends.flow.assisted import assisted_units
from manasolver.solver.backends.flow.converters import converter_shortfall
from manasolver.solver.backends.flow.hall import (beyond_every_source, colored_only_hall, least_deficits,
                                                  ranked_deficits)
from manasolver.solver.backends.flow.rooms import tap_room
from manasolver.solver.backends.flow.units import plain_units
from manasolver.solver.backends.flow.wide import wide_units, wider
from manasolver.solver.backends.matching import UnitKind, deficits, hall_fast, solution_from_units
from manasolver.solver.backends.problem import Problem, Solution

__all__ = ["FlowBackend"]


class FlowBackend:
    """Exact feasibility for plain problems; declines (``None``) everything else."""

    name = "flow"

    def shortfall(self, problem: Problem) -> tuple[dict[tuple[object, ...], int], int, int] | None:
        """For an unpayable plain problem: the least missing mana per demand over the forms the
        player's life and energy allow (smallest total, then most of it generic), and the life
        and energy a form with no missing mana would still lack; ``None`` when it declines (same
        shapes as CP-SAT's answer).  Mana whose spending restriction does not allow this spell
        counts for nothing here (CR 106.6), as in the slack model; whether the restriction is the
        reason is the caller's to ask."""
        if problem.x is None:
            return None
        sup = problem.supply
        found = _units(problem)
        if found is None:  # convoke, improvise or delve beside a board that is not plain
            short = converter_shortfall(problem)
            return None if short is None else (short, 0, 0)
        units, partial = found
        if sup.has_damage and any(form.life for form in problem.forms):
            return None  # damage is taken before a form's life payment (CR 601.2g-h): CP-SAT weighs it
        if partial and not problem.has_assists:
            taps = tap_room(problem)
            if taps or wider(problem):
                units, partial = wide_units(problem, taps)
        if partial:
            short = converter_shortfall(problem)
            return None if short is None else (short, 0, 0)
        lacking: list[tuple[int, int]] = []  # (energy, life) short of forms with mana enough
        beyond: list[tuple[int, int]] = []   # the same for every form beyond life or energy
        for form in problem.forms:
            if form.life > sup.life or form.energy > sup.energy:
                gap = (max(0, form.energy - sup.energy), max(0, form.life - sup.life))
                beyond.append(gap)
                if not deficits(units, form, problem.x):
                    lacking.append(gap)
        best = least_deficits(problem, units)
        if best is None:
            energy_short, life_short = min(beyond)
            return {}, life_short, energy_short
        if lacking:
            energy_short, life_short = min(lacking)
            return best, life_short, energy_short
        return best, 0, 0

    def feasible(self, problem: Problem, wide: bool = True) -> tuple[int, bool] | None:
        """``(form index, payable)`` for the first payable form, or ``None`` if declined;
        ``wide``: when the plain part leaves something out, decided again over
        :func:`~.wide.wide_units` (a payment is then not written from the plain units)."""
        if problem.mode != "feasible" or problem.x is None:
            return None
        found = _units(problem)
        if found is None:  # convoke, improvise or delve beside a board that is not plain
            return _unpayable_by_converters(problem) if wide else None
        units, partial = found
        verdict = self._hall(problem, units, partial)
        if verdict is None and wide and partial and not problem.has_assists and wider(problem):
            units, partial = wide_units(problem)
            verdict = self._hall(problem, units, partial)
            if verdict is not None and verdict[1] and not _writable(units):
                verdict = None  # payable by repeatable options, a payment this backend can't write
            if verdict is None and _repeats_beside_converters(problem):
                verdict = _unpayable_by_converters(problem)
        return verdict

    def decide(self, problem: Problem, barred: bool = False,
               why: bool = True) -> tuple[bool, dict[tuple[object, ...], int]] | None:
        """Is ``problem`` (``feasible`` mode) payable: ``(payable, missing)``, ``None`` when
        declined.  Hall's condition over the plain units, then over :func:`~.wide.wide_units`,
        and, when both leave something out, the converter search
        (:func:`~.converters.converter_shortfall`), which decides both ways: nothing missing is a
        payment, and the least missing mana it found for an unpayable cost is ``missing`` (empty
        otherwise): what :meth:`shortfall` finds there.  Where Hall's condition proves the cost
        unpayable over units that leave nothing out, ``missing`` is what :meth:`shortfall` finds
        over the same units when every form is within the player's life and energy (then none
        lacks life or energy; otherwise empty), and ``why`` asks for it: an unpayable answer's
        reason reads it without asking again; there, with ``why``, the least missing mana alone
        decides (:func:`~.hall.ranked_deficits`: nothing missing is Hall's condition holding), one
        count per form rather than Hall's condition and then the count.  Where that search
        declines too, a cost beyond every source (:func:`~.hall.beyond_every_source`) is
        unpayable.  ``barred``: some mana pays colored symbols only (Jegantha's): Hall's condition
        with that mana paying the demands but generic (:func:`~.hall.colored_only_hall`) proves
        "payable", the search is not asked (it does not tell that mana apart).

        A policy requiring some colors to be spent (``spend_color``) limits the payments that
        count, which none of these reads: under it they prove only "unpayable", leaving
        "payable" to the optimisers, which model the requirement (as :meth:`feasible` does)."""
        if problem.mode != "feasible" or problem.x is None:
            return None
        colors = bool(problem.policy.spend_color)
        found = _units(problem, True)
        if barred:
            if not colors and found is not None and colored_only_hall(problem, found[0]):
                return True, {}
            return (False, {}) if beyond_every_source(problem) else None
        if found is not None:
            units, partial = found
            if why and not (partial or colors or (problem.supply.has_damage and any(f.life for f in problem.forms))):
                # units that leave nothing out: the least missing mana is nothing exactly when Hall's
                # condition holds, so one count per form decides and gives the reason's missing mana
                least, beyond = ranked_deficits(problem, units)
                if least is not None and not least:
                    return True, {}
                return False, {} if beyond or least is None else least
            verdict = self._hall(problem, units, partial)
            if verdict is None and partial and not problem.has_assists:
                taps = tap_room(problem)
                if taps or wider(problem):
                    units, partial = wide_units(problem, taps)
                    verdict = self._hall(problem, units, partial)
            if verdict is not None:
                if verdict[1]:
                    return True, {}
                # the units :meth:`shortfall` reads too
                return False, (least_deficits(problem, units, True) or {}) if why else {}
        short = converter_shortfall(problem)
        if short is None:
            return (False, {}) if beyond_every_source(problem) else None
        if colors and not short:
            return None  # a payment, perhaps not spending the colors required
        return not short, short

    @staticmethod
    def _hall(problem: Problem, units: list[UnitKind], partial: bool) -> tuple[int, bool] | None:
        """:meth:`feasible` over ``units``.  Hall's condition does not read a policy's colors
        required spent (``spend_color``): under one, a form it finds payable is declined (two
        Islands pay {2}, but not spending a {W})."""
        assert problem.x is not None
        sup = problem.supply
        required = bool(problem.policy.spend_color)
        skipped = False
        for i, form in enumerate(problem.forms):
            if form.life and sup.has_damage:
                skipped = True  # damage taken before the life payment matters: CP-SAT decides
                continue
            if form.life > sup.life or form.energy > sup.energy:
                continue
            if hall_fast(units, form, form.generic(problem.x)):
                return None if required else (i, True)
        if partial or skipped:
            return None
        return 0, False

    def solve(self, problem: Problem) -> Solution | bool | None:
        """A payment (any one, not optimised) or ``False``; ``None`` when declined (convoke,
        improvise and delve among them: this writes no assisted payment)."""
        if problem.has_assists:
            return None
        found = self.feasible(problem, wide=False)
        units, _ = plain_units(problem)
        if found is None and wider(problem):  # options paying life or energy that can't limit it
            units, partial = wide_units(problem)
            found = self._hall(problem, units, partial) if _writable(units) else None
        if found is None:
            return None
        i, ok = found
        if not ok:
            return False
        assert problem.x is not None
        sol = solution_from_units(problem, units, i, problem.x)
        assert sol is not None  # Hall's condition held
        return sol


def _writable(units: list[UnitKind]) -> bool:
    """Can :func:`~manasolver.solver.backends.matching.solution_from_units` write a payment from
    ``units``: no row of a repeatable option (no pick)?"""
    return all(u[3] < 0 or u[4] for u in units)


def _unpayable_by_converters(problem: Problem) -> tuple[int, bool] | None:
    """The flow's verdict from the converter search: unpayable when mana is missing; ``None`` (the
    fast optimiser or CP-SAT decides, and writes the payment) when none is, or it declines."""
    short = converter_shortfall(problem)
    return (0, False) if short else None


def _repeats_beside_converters(problem: Problem) -> bool:
    """Does the board have a repeatable option (Pentad Prism's counters, Nomadic Elf's {1}{G}) and
    an option that costs mana?  The fast optimiser declines those boards; the converter search
    (:func:`~.converters.converter_shortfall`: no mana missing, or some) decides them before CP-SAT."""
    options = [opt for cls in problem.supply.classes for opt in cls.options]
    return any(not opt.exclusive for opt in options) and any(not opt.free for opt in options)


def _units(problem: Problem, loose: bool = False) -> tuple[list[UnitKind], bool] | None:
    """The units the flow sums and whether some were left out (:func:`~.units.plain_units`), with
    the assists when the problem has them (:func:`~.assisted.assisted_units`; ``None``: CP-SAT
    weighs them, as it does assisted units that leave something out unless ``loose``: a payment by
    them is still one, which is all :meth:`FlowBackend.decide` reads of them)."""
    if not problem.has_assists:
        return plain_units(problem)
    assisted = assisted_units(problem)
    return None if assisted is None or (assisted[1] and not loose) else assisted
