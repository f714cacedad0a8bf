"""Payments at the policy's floor: large boards answered by a greedy over a matroid, with a proof.

On a board of hundreds of permanents a cost rarely needs more than its lands: a payment can
then sacrifice nothing, pay no life, keep what the hand needs, waste nothing and tap lands
only.  Such a payment is at the *floor* of every criterion but ``min_sources`` and the
tie-break: nothing scores less there.  This module finds the best payment among those, and
answers only when it can prove that no payment outside them is better:

* the *floor modes* are the modes (:mod:`~manasolver.solver.backends.fastopt.modes`) whose
  activation raises no criterion of the policy: no sacrifice under ``no_sacrifice``, no life
  or damage under ``min_life``, a land under ``prefer_lands``;
* every floor mode adds one unit net (a land's ``{T}: Add {C}``, a filter land's converter:
  one in, two out); one adding more (Temple of the False God) declines; one adding none
  (Study Hall's converter) can't be in a best payment when ``min_sources`` ranks it (a
  payment at the floor wastes nothing, so each mode adding nothing is one source more);
* a payment of the floor modes that wastes nothing activates exactly the mana the cost asks
  for, ``T``, one unit each: its ``min_sources`` is ``T`` and it differs from another such
  payment only in the tie-break (the board positions it uses).  Which sets of one-unit
  activations can pay the cost is a transversal matroid (each unit matched to a demand it
  may pay), so the greedy taking the earliest classes first, as many members as Hall's
  condition over the 63 sets of mana types allows, finds the least tie-break exactly;
* converters among the floor modes (filter lands) are not taken by the greedy: it answers
  only when its tie-break equals the least any ``T`` floor activations could have (the ``T``
  earliest members, colors aside), which no payment with converters beats;
* a mode outside the floor raises some criterion of the policy; a payment using it is worse
  unless it is better first on ``min_sources`` (a mode adding two units net: Sol Ring, a
  Signet counted net of its ``{1}`` adds one), so each mode adding more than one unit must
  have a criterion it raises ranked before ``min_sources``;
* the keep terms of the payment found must equal those of the untouched board (their floor).

Anything else, and a board where the greedy can't pay the cost from the floor modes, is
declined (``None``) and goes to the branch and bound.
"""

from __future__ import annotations

from operator import sub
from typing import NamedTuple

from manasolver.models.symbols import ANY_TYPE
from manasolver.solver.backends.fastopt.keep import KeepTerms
from manasolver.solver.backends.fastopt.modes import Mode, build_modes
from manasolver.solver.backends.problem import Problem, Solution, lowest_bit
from manasolver.solver.casting.announce import Form
from manasolver.solver.policy import criteria_vector

__all__ = ["Start", "prepared", "solve_at_floor"]

#: Every nonempty set of mana types (W U B R G C) as a bit mask: the sets Hall's condition reads.
_SETS = range(1, ANY_TYPE + 1)
#: For each mask of types, the sets of types containing it (where a unit of that mask counts).
_SUPERSETS = tuple(tuple(s for s in _SETS if s & m == m) for m in range(ANY_TYPE + 1))


def _penalties(md: Mode, criteria: tuple[str, ...]) -> list[int]:
    """The ranks of the criteria an activation of ``md`` raises above their floor."""
    raised = []
    if md.sac and "no_sacrifice" in criteria:
        raised.append(criteria.index("no_sacrifice"))
    if md.life and "min_life" in criteria:
        raised.append(criteria.index("min_life"))
    if md.nonland and "prefer_lands" in criteria:
        raised.append(criteria.index("prefer_lands"))
    return raised


def _net(md: Mode) -> int:
    """Units one activation of ``md`` adds net of its own mana cost."""
    return len(md.masks) - sum(n for _, n in md.costs)


class _Floor:
    """The floor modes of one problem: per class its one-unit cost-free modes merged (mask, the
    option making each type), and the converter classes; ``ok`` False when the proof fails."""

    def __init__(self, problem: Problem, criteria: tuple[str, ...], modes: list[Mode]) -> None:
        sup = problem.supply
        self.ok = True
        sources = criteria.index("min_sources") if "min_sources" in criteria else None
        #: Per class index with floor units: (weight, mask, options picking each type, pays abilities).
        units: dict[int, tuple[int, int, list[tuple[int, int]], bool]] = {}
        #: Classes whose only floor modes are converters adding one net (their members, weight).
        self.converters: dict[int, int] = {}
        #: Per class read so far: are all its options exclusive and activated once?
        once: dict[int, bool] = {}
        for md in modes:
            if md.k < 0:
                self.ok = False  # floating mana: use_pool (CP-SAT or the search decides)
                return
            raised = _penalties(md, criteria) if md.sac or md.life or md.nonland else None
            net = _net(md) if md.costs else len(md.masks)
            if raised:
                if net > 1 and (sources is None or min(raised) > sources):
                    self.ok = False  # fewer sources may outrank what it raises
                    return
                continue
            if net > 1 or (net < 1 and sources is None):
                self.ok = False
                return
            if net < 1:
                continue  # one more source than a payment without it
            plain = once.get(md.k)
            if plain is None:
                plain = once[md.k] = all(opt.exclusive and opt.repeat == 1 for opt in sup.classes[md.k].options)
            if not plain:
                self.ok = False
                return
            if md.costs or len(md.masks) != 1:
                self.converters[md.k] = md.weight
                continue
            prev = units.get(md.k)
            if prev is None:
                units[md.k] = (md.weight, md.masks[0], list(md.options), md.pays_ability)
            else:
                picks = prev[2] + [(b, o) for b, o in md.options if not prev[1] & b]
                units[md.k] = (md.weight, prev[1] | md.masks[0], picks, prev[3] and md.pays_ability)
        self.units = sorted(units.items(), key=lambda kv: kv[1][0])
        self.counts = [sup.classes[k].count for k in range(len(sup.classes))]
        #: The most mana the floor units make (one a member): a cost above it is not paid at the floor.
        self.capacity = sum(self.counts[k] for k in units)

    def least_weight(self, total: int) -> int:
        """The least tie-break of ``total`` floor activations, their types aside."""
        weights = sorted([(w, self.counts[k]) for k, (w, _m, _p, _a) in self.units]
                         + [(w, self.counts[k]) for k, w in self.converters.items() if k not in dict(self.units)])
        out = 0
        for w, n in weights:
            take = min(n, total)
            out += take * w
            total -= take
            if not total:
                return out
        return out

    def greedy(self, form: Form, x: int) -> tuple[list[tuple[int, int]], int] | None:
        """The earliest classes' units paying ``form`` exactly (a basis of the transversal
        matroid of least weight): ``[(class, count)]`` and their tie-break, or None."""
        total = form.mana_total(x)
        if total > self.capacity:
            return None  # more than every floor unit: the greedy could take them all and still fall short
        # demand side: for each set of types, the demands a unit of those types may pay
        meets = [form.generic(x)] * (ANY_TYPE + 1)
        for mask, n in form.demands:
            for s in _SETS:
                if s & mask:
                    meets[s] += n
        # units side: for each set of types, the units taken whose mask lies inside it
        inside = [0] * (ANY_TYPE + 1)
        taken: list[tuple[int, int]] = []
        weight = 0
        left = total
        for k, (w, mask, _picks, _pays) in self.units:
            sets = _SUPERSETS[mask]
            room = min(map(sub, map(meets.__getitem__, sets), map(inside.__getitem__, sets)))
            n = min(room, self.counts[k], left)
            if n <= 0:
                continue
            for s in sets:
                inside[s] += n
            taken.append((k, n))
            weight += n * w
            left -= n
            if not left:
                return taken, weight
        return None

    def solution(self, problem: Problem, fi: int, x: int, taken: list[tuple[int, int]]) -> Solution | None:
        """The activations ``taken`` as a :class:`Solution`: the colored, colorless and hybrid
        demands placed by augmenting paths over the taken units grouped by mask (a few groups,
        a few demands), every unit left paying generic mana."""
        form = problem.forms[fi]
        by_class = dict(self.units)
        groups: dict[int, int] = {}
        for k, n in taken:
            mask = by_class[k][1]
            groups[mask] = groups.get(mask, 0) + n
        placed = _place(groups, list(form.demands))
        if placed is None:  # pragma: no cover - the greedy checked Hall's condition
            return None
        rows: list[tuple[int, tuple[object, ...], int, int]] = [
            (m, ("spell", dm), dm, n) for (m, dm), n in placed.items() if n]
        rows += [(m, ("generic",), ANY_TYPE, n) for m, n in groups.items() if n]
        left = {k: n for k, n in taken}
        classes = problem.supply.classes
        acts: list[tuple[int, int, int]] = []
        spend: list[tuple[tuple[object, ...], int, tuple[object, ...], int]] = []
        member = dict.fromkeys(left, 0)
        of_mask: dict[int, list[int]] = {}  # the classes taken, by their units' mask, in the order taken
        for k, _n in taken:
            of_mask.setdefault(by_class[k][1], []).append(k)
        for m, key, dm, n in rows:
            bit = lowest_bit(m & dm)
            for k in of_mask[m]:
                if not n:
                    break
                if not left[k]:
                    continue
                use = min(n, left[k])
                picks = by_class[k][2]
                o = next(oo for b, oo in picks if b == bit)
                spend.append((("act", k, o, classes[k].options[o].slots[0]), bit, key, use))
                first = member[k]
                acts.extend([(k, j, o) for j in range(first, first + use)])
                member[k] = first + use
                left[k] -= use
                n -= use
        return Solution(fi, x, acts, spend)


def _place(groups: dict[int, int], demands: list[tuple[int, int]]) -> dict[tuple[int, int], int] | None:
    """Units by mask (``groups``, taken from as they are placed) to the non-generic ``demands``
    (``(mask, count)``): how many of each mask pay each demand, by augmenting paths (a demand
    takes a unit a mask still has, or one a mask gives another demand that takes another
    unit in turn), or None when the demands can't all be paid."""
    flow: dict[tuple[int, int], int] = {}
    need = {dm: c for dm, c in demands}
    for target in list(need):
        while need[target]:
            prev: dict[tuple[str, int], tuple[str, int]] = {}
            queue = [target]
            seen = {target}
            found = -1
            while queue and found < 0:
                d = queue.pop(0)
                for m in groups:
                    if not m & d or ("m", m) in prev:
                        continue
                    prev[("m", m)] = ("d", d)
                    if groups[m] > 0:
                        found = m
                        break
                    for (mm, d2), f in flow.items():
                        if mm == m and f > 0 and d2 not in seen:
                            seen.add(d2)
                            prev[("d", d2)] = ("m", m)
                            queue.append(d2)
            if found < 0:
                return None
            path: list[tuple[int, int, int]] = []  # (mask, demand, +1 gives / -1 takes back)
            m = found
            while True:
                d = prev[("m", m)][1]
                path.append((m, d, 1))
                if d == target:
                    break
                m = prev[("d", d)][1]
                path.append((m, d, -1))
            push = min([need[target], groups[found]] + [flow[(mm, dd)] for mm, dd, sign in path if sign < 0])
            for mm, dd, sign in path:
                flow[(mm, dd)] = flow.get((mm, dd), 0) + sign * push
            groups[found] -= push
            need[target] -= push
    return flow


def _land_members(problem: Problem) -> int:
    """The members of the supply's land classes: under ``prefer_lands`` a mode of any other
    class raises a criterion, so the floor's units (one a member of a class with a one-unit
    floor mode) are at most these, and a cost above them is not paid at the floor (its
    greedy would decline after every mode is read)."""
    return sum([cls.count for cls in problem.supply.classes if cls.kind == "land"])


def _ranked_first(name: str, criteria: tuple[str, ...]) -> bool:
    """Is criterion ``name`` in the policy, before ``min_sources`` when that is too?"""
    if name not in criteria:
        return False
    return "min_sources" not in criteria or criteria.index(name) < criteria.index("min_sources")


class Start(NamedTuple):
    """What both large-board paths start from: the forms the player can afford, X, the modes,
    the keep terms and their value on the untouched board (their floor)."""

    forms: list[tuple[int, Form]]
    x: int
    modes: list[Mode]
    keep: KeepTerms
    root: tuple[int, int]


def prepared(problem: Problem, criteria: tuple[str, ...]) -> Start | None:
    """The :class:`Start` of ``problem``; None outside the shape both paths model (floating
    mana, assists, X not fixed, snow, a form with no affordable payment, unmodelled modes)."""
    sup = problem.supply
    x = problem.x
    if x is None or sup.pool_total or problem.has_assists:
        return None
    forms = [(fi, f) for fi, f in enumerate(problem.forms) if f.life <= sup.life and f.energy <= sup.energy]
    if not forms or any(f.snow for _, f in forms):
        return None
    built = build_modes(problem)
    if built is None:
        return None
    keep = KeepTerms(problem, criteria)
    if not keep.shape_ok:
        return None
    return Start(forms, x, built[0], keep, keep.policy_terms([0] * len(sup.classes), criteria))


def solve_at_floor(problem: Problem, criteria: tuple[str, ...], start: Start | None = None) -> Solution | None:
    """The best payment of ``problem`` when it is at the policy's floor (module docstring);
    ``None`` when that is not proven (the branch and bound decides).  ``start``: its
    :func:`prepared` start when already made (the flow reads the same one)."""
    start = start or prepared(problem, criteria)
    if start is None:
        return None
    forms, x, modes, keep, root = start
    floor_forms = [(fi, f) for fi, f in forms if not f.life and not f.energy]
    if not floor_forms or any(f.life and not _ranked_first("min_life", criteria)
                              or f.energy and not _ranked_first("min_energy", criteria) for _, f in forms):
        return None  # a form paying life or energy could still be better on another criterion
    if "prefer_lands" in criteria and floor_forms[0][1].mana_total(x) > _land_members(problem):
        return None  # the floor's units are lands', one a member: the greedy falls short on the first form
    floor = _Floor(problem, criteria, modes)
    if not floor.ok:
        return None
    nothing = [0] * len(problem.supply.classes)
    best: tuple[tuple[int, ...], Solution] | None = None
    for fi, form in floor_forms:
        found = floor.greedy(form, x)
        if found is None:
            return None  # the floor modes can't pay this form: a better payment may lie elsewhere
        taken, weight = found
        if floor.converters and weight > floor.least_weight(form.mana_total(x)):
            return None  # converters might reach earlier members: the converter search decides
        used = list(nothing)
        for k, n in taken:
            used[k] = n
        if keep.policy_terms(used, criteria) != root:
            return None  # the payment loses what the hand needs or a color: not at the floor
        terms = {"no_sacrifice": 0, "min_life": 0, "keep_castable": root[0], "keep_colors": root[1],
                 "min_waste": 0, "prefer_lands": 0, "min_sources": sum(n for _, n in taken), "use_pool": 0,
                 "min_energy": 0, "tiebreak": weight}
        vector = criteria_vector(terms, criteria)
        if best is None or vector < best[0]:
            sol = floor.solution(problem, fi, x, taken)
            if sol is None:  # pragma: no cover - the greedy checked Hall's condition
                return None
            sol.objective = vector
            best = (vector, sol)
    return None if best is None else best[1]

