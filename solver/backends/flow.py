"""The flow fast path: exact feasibility of plain payments in pure Python.

"Plain" means: feasibility only; options that are free (no mana cost), exclusive
(one activation per permanent) and pay no life or energy; a permanent either has
only one-mana options (it supplies one unit of the union of their types: the type
is chosen as the ability resolves) or exactly one option (it supplies every slot
of it); damage (pain lands) matters only for forms that pay life.  When the
board has other options too, the plain part alone still answers "payable"
exactly (the rest only adds ways to pay); an "unpayable" is then asked again of
the wider units (:func:`wide_units`: options paying life or energy that can't
limit the payment, free repeatable options), and, when deciding payability
(:meth:`FlowBackend.decide`), of the converter search (:func:`converter_shortfall`:
Signets, filter lands, either way), else declined (``None``): the fast optimiser or
CP-SAT decides.  :meth:`FlowBackend.feasible` asks the converter search only on the
boards the fast optimiser declines, and only for an "unpayable".

Units are grouped by ``(type mask, snow)`` and demands by mask, so the check is
Hall's condition for a transportation problem: the total is payable exactly
when, for every set ``T`` of non-generic demands, the units able to pay some
demand of ``T`` are at least the demand of ``T``, and all units cover the whole
cost (every unit pays generic).  With at most a handful of demand kinds this is
a few dozen additions.  A small augmenting-path max-flow writes an actual payment
when one is asked for (pool first), and gives the least missing mana of an
unpayable cost (colored demands first, so the shortfall falls on generic).  No
networkx, no OR-Tools.
"""

from __future__ import annotations

from math import comb

from manasolver.models.symbols import TYPE_BITS
from manasolver.solver import budget
from manasolver.solver.backends.matching import (
    UnitKind,
    _Network,
    deficits,
    hall_barred,
    hall_fast,
    solution_from_units,
)
from manasolver.solver.backends.problem import Problem, Solution
from manasolver.solver.casting.announce import Form
from manasolver.models.rules.ability_scope import ability_scope, scope_pays
from manasolver.solver.supply.model import Option, Options, class_types

__all__ = ["CONVERTER_CHOICES", "FlowBackend", "assisted_units", "class_units", "converter_shortfall",
           "plain_units"]


def plain_units(problem: Problem) -> tuple[list[UnitKind], bool]:
    """The plain part of the supply as grouped units, and whether anything was left out
    (options that cost mana, life or energy, or are repeatable; classes whose options
    mix several multi-mana productions).  With nothing left out the check is exact
    both ways; otherwise a "payable" from the plain part is still exact (the rest only
    adds ways to pay) and an "unpayable" is declined.  Kept with the supply per restriction
    rows; the supply's own rows (every option allowed), the usual ones, under the key ``()``,
    which no other rows of it can be (``()`` are the rows of a supply without classes), so that
    they are not hashed on every look-up."""
    sup = problem.supply
    rows_ok = problem.spell_ok
    key = () if rows_ok is sup.all_ok else rows_ok
    kept = sup.derived.units
    hit = kept.get(key)
    if hit is not None:
        return hit
    # (a comprehension is a call of its own: most pools are empty)
    out: list[UnitKind] = [(bit, False, n, -1, ()) for bit, n in sup.pool] if sup.pool else []
    partial = False
    for k, cls in enumerate(sup.classes):
        options = cls.options
        ok = rows_ok[k]
        shapes = options.shapes
        found = None if shapes is None else shapes.get(ok)
        shape, part = _class_shape(options, ok) if found is None else found
        if part:
            partial = True
        if shape:
            n = len(cls.members)
            snow = cls.snow
            for mask, mult, pick in shape:
                out.append((mask, snow, n * mult, k, pick))
    if len(kept) >= 8:
        kept.clear()
    made = kept[key] = (out, partial)
    return made


#: A class member's supply rows: ``(mask, units per member, pick)``.
ShapeRows = tuple[tuple[int, int, tuple[tuple[int, int], ...]], ...]
def _class_shape(options: Options, ok: tuple[bool, ...]) -> tuple[ShapeRows, bool]:
    """What one member of a class supplies: ``(mask, units per member, pick)`` rows and
    whether options were left out; kept in the options object per restriction row ``ok`` (the
    options of a card in one state are shared by every board's rows)."""
    shapes = options.shapes
    if shapes is None:
        shapes = options.shapes = {}
    hit: tuple[ShapeRows, bool] | None = shapes.get(ok)
    if hit is not None:
        return hit
    usable = []
    partial = False
    for o, opt in enumerate(options):
        if not ok[o]:
            continue
        if (not (opt.free and opt.exclusive) or opt.life or opt.energy or opt.tap_creatures
                or opt.sacrifice_other or opt.nonsnow_tail):  # a snow land's nonsnow Wild Growth mana: CP-SAT counts it
            partial = True
            continue
        usable.append((o, opt))
    rows, odd = _exclusive_rows(usable)
    partial = partial or odd
    made = shapes[ok] = (tuple(rows), partial)
    return made


def _exclusive_rows(usable: list[tuple[int, Option]]) -> tuple[ShapeRows, bool]:
    """The rows one member supplies from its usable exclusive options (free, no other cost): one
    unit of the union of their types when each adds one mana, every slot of the only one, and
    otherwise nothing and ``True`` (several options, some adding more than one mana: a choice the
    flow does not model)."""
    rows: list[tuple[int, int, tuple[tuple[int, int], ...]]] = []
    if usable and all(len(opt.slots) == 1 for _, opt in usable):
        mask = 0
        pick: list[tuple[int, int]] = []
        for o, opt in usable:
            for b in TYPE_BITS:
                if opt.slots[0] & b and not mask & b:
                    pick.append((b, o))
            mask |= opt.slots[0]
        rows.append((mask, 1, tuple(pick)))
    elif len(usable) == 1:
        o, opt = usable[0]
        for mask in sorted(set(opt.slots)):
            rows.append((mask, opt.slots.count(mask), ((0, o),)))
    elif usable:
        return (), True
    return tuple(rows), False


def class_units(options: Options, ok: tuple[bool, ...], snow: bool) -> list[tuple[int, bool, int]]:
    """The plain units one member of a class adds, as ``(mask, snow, count)``: the rows of
    :func:`plain_units` for a class of one member (what the fresh-board lane sums)."""
    shape, _ = _class_shape(options, ok)
    return [(mask, snow, mult) for mask, mult, _pick in shape]


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
            if taps or _wider(problem):
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
        best = _least_deficits(problem, units)
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
        :func:`wide_units` (a payment is then not written from the plain units)."""
        if problem.mode != "feasible" or problem.x is None:
            return None
        found = _units(problem)
        if found is None:  # convoke, improvise or delve beside a board that is not plain
            return _unpayable_by_converters(problem) if wide else None
        units, partial = found
        verdict = self._hall(problem, units, partial)
        if verdict is None and wide and partial and not problem.has_assists and _wider(problem):
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
        declined.  Hall's condition over the plain units, then over :func:`wide_units`, and, when
        both leave something out, the converter search (:func:`converter_shortfall`), which decides
        both ways: nothing missing is a payment, and the least missing mana it found for an
        unpayable cost is ``missing`` (empty otherwise): what :meth:`shortfall` finds there.  Where
        Hall's condition proves the cost unpayable over units that leave nothing out, ``missing`` is
        what :meth:`shortfall` finds over the same units when every form is within the player's life
        and energy (then none lacks life or energy; otherwise empty), and ``why`` asks for it: an
        unpayable answer's reason reads it without asking again; there, with ``why``, the least
        missing mana alone decides (:func:`_ranked_deficits`: nothing missing is Hall's condition
        holding), one count per form rather than Hall's condition and then the count.  Where
        that search declines too, a cost beyond every source (:func:`_beyond_every_source`) is
        unpayable.  ``barred``: some mana pays colored symbols only (Jegantha's): Hall's condition
        with that mana paying the demands but generic (:func:`_colored_only_hall`) proves "payable",
        the search is not asked (it does not tell that mana apart).

        A policy requiring some colors to be spent (``spend_color``) limits the payments that
        count, which none of these reads: under it they prove only "unpayable", leaving
        "payable" to the optimisers, which model the requirement (as :meth:`feasible` does)."""
        if problem.mode != "feasible" or problem.x is None:
            return None
        colors = bool(problem.policy.spend_color)
        found = _units(problem, True)
        if barred:
            if not colors and found is not None and _colored_only_hall(problem, found[0]):
                return True, {}
            return (False, {}) if _beyond_every_source(problem) else None
        if found is not None:
            units, partial = found
            if why and not (partial or colors or (problem.supply.has_damage and any(f.life for f in problem.forms))):
                # units that leave nothing out: the least missing mana is nothing exactly when Hall's
                # condition holds, so one count per form decides and gives the reason's missing mana
                least, beyond = _ranked_deficits(problem, units)
                if least is not None and not least:
                    return True, {}
                return False, {} if beyond or least is None else least
            verdict = self._hall(problem, units, partial)
            if verdict is None and partial and not problem.has_assists:
                taps = tap_room(problem)
                if taps or _wider(problem):
                    units, partial = wide_units(problem, taps)
                    verdict = self._hall(problem, units, partial)
            if verdict is not None:
                if verdict[1]:
                    return True, {}
                # the units :meth:`shortfall` reads too
                return False, (_least_deficits(problem, units, True) or {}) if why else {}
        short = converter_shortfall(problem)
        if short is None:
            return (False, {}) if _beyond_every_source(problem) else None
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
        if found is None and _wider(problem):  # options paying life or energy that can't limit it
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


def _least_deficits(problem: Problem, units: list[UnitKind],
                    every: bool = False) -> dict[tuple[object, ...], int] | None:
    """The least missing mana when ``units`` pay a form of ``problem`` within the player's life and
    energy (:func:`_ranked_deficits`); ``None`` when no form is within them, or, ``every``, when
    some form is not."""
    least, beyond = _ranked_deficits(problem, units)
    return None if every and beyond else least


def _ranked_deficits(problem: Problem, units: list[UnitKind]) -> tuple[dict[tuple[object, ...], int] | None, bool]:
    """The least missing mana when ``units`` pay a form of ``problem`` within the player's life and
    energy (:func:`~manasolver.solver.backends.matching.deficits`; smallest total, then smallest
    colored part, the first form of equally small ones; ``None`` when no form is within them), and
    whether some form is beyond them.  Nothing missing (an empty shortfall) is Hall's condition
    holding for that form: the units pay it."""
    assert problem.x is not None
    sup = problem.supply
    forms = problem.forms
    if len(forms) == 1:  # most costs: no rank to compare
        form = forms[0]
        if form.life > sup.life or form.energy > sup.energy:
            return None, True
        return deficits(units, form, problem.x), False
    best: dict[tuple[object, ...], int] | None = None
    least = (0, 0)
    beyond = False
    for form in forms:
        if form.life > sup.life or form.energy > sup.energy:
            beyond = True
            continue
        short = deficits(units, form, problem.x)
        total = sum(short.values())
        rank = (total, total - short.get(("generic",), 0))
        if best is None or rank < least:
            best, least = short, rank
    return best, beyond


def _colored_only_hall(problem: Problem, units: list[UnitKind]) -> bool:
    """Do ``units`` pay some form of ``problem`` within the player's life and energy when the units
    of classes with an option whose mana can't pay generic costs (Jegantha's, CR 106.6) pay its
    other demands alone (:func:`~manasolver.solver.backends.matching.hall_barred`)?  Forms with
    snow, or paying life beside damage, are not read (CP-SAT decides them)."""
    assert problem.x is not None
    sup = problem.supply
    barred = frozenset(k for k, cls in enumerate(sup.classes)
                       if any(o.restriction is not None and o.restriction.no_generic for o in cls.options))
    return any(hall_barred(units, barred, form, form.generic(problem.x)) for form in problem.forms
               if not form.snow and not (form.life and sup.has_damage)
               and form.life <= sup.life and form.energy <= sup.energy)


def _beyond_every_source(problem: Problem) -> bool:
    """Is ``problem`` unpayable even were every option free of its costs (mana, life, other
    permanents to tap or sacrifice, cards to discard) and every member to make the most mana of
    any of its options, of any of their types?  Hall's condition over those units, a relaxation
    of every payment (costs only take mana away), proves such a cost unpayable, as does a generic
    and snow part beyond the units whose mana may pay generic costs (not Jegantha's); convoke,
    improvise and delve, which pay with more than the supply, are left to the backends that
    model them."""
    if problem.has_assists:
        return False
    assert problem.x is not None
    sup = problem.supply
    units: list[UnitKind] = [(bit, False, n, -1, ()) for bit, n in sup.pool]
    generic = sup.pool_total  # the units that may pay generic and snow: not Jegantha's
    for k, cls in enumerate(sup.classes):
        mask = most = repeated = 0
        barred = False
        for o, opt in enumerate(cls.options):
            if not problem.spell_ok[k][o]:
                continue  # its mana pays only costs, here free
            for slot in opt.slots:
                mask |= slot
            if opt.exclusive:
                most = max(most, len(opt.slots))
            else:
                repeated += len(opt.slots) * opt.repeat
            barred = barred or (opt.restriction is not None and opt.restriction.no_generic)
        if mask:
            units.append((mask, cls.snow, cls.count * (most + repeated), k, ()))
            generic += 0 if barred else units[-1][2]
    x = problem.x
    return not any(form.generic(x) + form.snow <= generic and hall_fast(units, form, form.generic(x))
                   for form in problem.forms if form.life <= sup.life and form.energy <= sup.energy)


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
    (:func:`converter_shortfall`: no mana missing, or some) decides them before CP-SAT."""
    options = [opt for cls in problem.supply.classes for opt in cls.options]
    return any(not opt.exclusive for opt in options) and any(not opt.free for opt in options)


def _units(problem: Problem, loose: bool = False) -> tuple[list[UnitKind], bool] | None:
    """The units the flow sums and whether some were left out (:func:`plain_units`), with the
    assists when the problem has them (:func:`assisted_units`; ``None``: CP-SAT weighs them, as it
    does assisted units that leave something out unless ``loose``: a payment by them is still one,
    which is all :meth:`FlowBackend.decide` reads of them)."""
    if not problem.has_assists:
        return plain_units(problem)
    assisted = assisted_units(problem)
    return None if assisted is None or (assisted[1] and not loose) else assisted


# -- wider supplies: options that pay life or energy, repeatable free options ----------------------

def life_room(problem: Problem) -> bool:
    """Can the life and energy that options of ``problem`` pay never limit a payment?  True when
    every activation of them at once pays no more life than the player has (CR 119.4) and no more
    energy than the player has beside the most a form pays (107.14), and no form pays life where an
    option does (a form's life payment counts the options' life before it, 601.2g-h).  Then such
    options are free ones: every payment and every least shortfall is the same without the life."""
    sup = problem.supply
    life = energy = 0
    for cls in sup.classes:
        for opt in cls.options:
            if opt.life or opt.energy:
                uses = cls.count * (1 if opt.exclusive else opt.repeat)
                life += opt.life * uses
                energy += opt.energy * uses
    if not life and not energy:
        return True
    if life and (life > sup.life or any(f.life for f in problem.forms)):
        return False
    return not energy or energy + max(f.energy for f in problem.forms) <= sup.energy


def tap_room(problem: Problem) -> bool:
    """Can the permanents that options' "tap an untapped <type> you control" costs tap (Jaspera
    Sentinel, Holdout Settlement; CR 118.3) never limit a payment?  True when some exclusive option
    has such a cost and the player's untapped permanents that are no supply member (no mana
    ability of their own to lose by it) and have a type every such option accepts are at least the
    permanents every member's costliest such option taps at once.  Then each activation taps
    permanents nothing else in a payment by the other options would use (convoke and improvise,
    which use them too, are not asked of units: :attr:`Problem.has_assists`), so such options are
    free ones for whether a cost is payable."""
    sup = problem.supply
    if not sup.tappable:
        return False
    need = 0
    kinds: list[tuple[str, ...]] = []
    for cls in sup.classes:
        most = 0
        for opt in cls.options:
            if opt.tap_creatures and opt.exclusive:
                most = max(most, opt.tap_creatures)
                if opt.tap_types not in kinds:
                    kinds.append(opt.tap_types)
        need += cls.count * most
    if not need:
        return False
    spare = sum(len(grp.members) for grp in sup.tappable
                if grp.cls < 0 and grp.untapped and all(grp.matches.intersection(kind) for kind in kinds))
    return need <= spare


def fodder_room(problem: Problem) -> bool:
    """Can the permanents and cards that options' costs take besides their own permanent (Bog
    Witch's "discard a card", an Altar's creature: :attr:`Option.sacrifice_other`, CR 701.21a)
    never limit a payment?  True when every such option is exclusive, the problem has no convoke,
    improvise or delve (which use permanents and graveyard cards too: :attr:`Problem.has_assists`),
    and the player's fodder that is no supply member (no mana ability of its own to lose by it) and
    is of every kind those options take is at least what every member's costliest such option
    takes at once.  Then each activation takes fodder nothing else in a payment would use, so such
    options are options without that cost for whether a cost is payable and what it lacks."""
    sup = problem.supply
    if problem.has_assists:
        return False
    need = 0
    kinds: set[str] = set()
    for cls in sup.classes:
        most = 0
        for opt in cls.options:
            if opt.sacrifice_other:
                if not opt.exclusive:
                    return False
                most = max(most, len(opt.sacrifice_other))
                kinds.update(opt.sacrifice_other)
        need += cls.count * most
    spare = sum(len(grp.members) for grp in sup.fodder if grp.cls < 0 and kinds <= grp.matches)
    return need <= spare


def _repeat_rows(options: Options, ok: tuple[bool, ...]) -> tuple[tuple[tuple[int, int], ...], bool]:
    """What one member adds by its free repeatable options (Pentad Prism's counters), beside
    whatever it taps for: ``(mask, units)`` rows, and ``True`` when some repeatable option is not
    modelled here (one that costs mana, life or energy, removes a chosen number of counters, or a
    second repeatable ability, whose counters the two might share).  One ability's options count
    within one limit (CR 602.5b): one-mana options give that many units of the union of their types,
    a single option every slot that many times."""
    repeat = [opt for o, opt in enumerate(options) if ok[o] and not opt.exclusive]
    if not repeat:
        return (), False
    first = repeat[0]
    if any(not opt.free or opt.life or opt.energy or opt.tap_creatures or opt.sacrifice_other or opt.nonsnow_tail
           or opt.ability != first.ability or opt.repeat != first.repeat or opt.removes_any for opt in repeat):
        return (), True
    if all(len(opt.slots) == 1 for opt in repeat):
        mask = 0
        for opt in repeat:
            mask |= opt.slots[0]
        return ((mask, first.repeat),), False
    if len(repeat) == 1:
        return tuple((m, first.repeat * first.slots.count(m)) for m in sorted(set(first.slots))), False
    return (), True


def _usable(options: Options, ok: tuple[bool, ...], life_ok: bool, taps_ok: bool = False,
            fodder_ok: bool = False) -> tuple[list[tuple[int, Option]], bool]:
    """The exclusive options of a member the flow may use (free; paying life or energy only when
    ``life_ok``: :func:`life_room`; tapping other permanents only when ``taps_ok``:
    :func:`tap_room`; taking another permanent or card only when ``fodder_ok``:
    :func:`fodder_room`), and whether some exclusive option was left out."""
    usable: list[tuple[int, Option]] = []
    partial = False
    for o, opt in enumerate(options):
        if not ok[o] or not opt.exclusive:
            continue
        if (not opt.free or (opt.tap_creatures and not taps_ok) or (opt.sacrifice_other and not fodder_ok)
                or opt.nonsnow_tail or ((opt.life or opt.energy) and not life_ok)):
            partial = True
            continue
        usable.append((o, opt))
    return usable, partial


def _wider(problem: Problem) -> bool:
    """Would :func:`wide_units` count more than :func:`plain_units`: an option paying life or
    energy, or a repeatable one?"""
    return any(opt.life or opt.energy or not opt.exclusive for cls in problem.supply.classes for opt in cls.options)


def wide_units(problem: Problem, taps: bool = False) -> tuple[list[UnitKind], bool]:
    """:func:`plain_units` with options paying life or energy as free ones when :func:`life_room`
    says they never limit a payment, and free repeatable options (Pentad Prism) beside what each
    member taps for (rows without a pick: :func:`~manasolver.solver.backends.matching.solution_from_units`
    writes exclusive activations alone); whether anything was still left out.  ``taps``: options
    that tap other permanents as free ones too (what :func:`tap_room` allows; a payment by them is
    not written from these units, which do not say what they tap)."""
    sup = problem.supply
    life_ok = life_room(problem)
    # (a comprehension is a call of its own: most pools are empty)
    out: list[UnitKind] = [(bit, False, n, -1, ()) for bit, n in sup.pool] if sup.pool else []
    partial = False
    for k, cls in enumerate(sup.classes):
        ok = problem.spell_ok[k]
        usable, part = _usable(cls.options, ok, life_ok, taps)
        rows, odd = _exclusive_rows(usable)
        extra, odd_repeat = _repeat_rows(cls.options, ok)
        partial = partial or part or odd or odd_repeat
        out += [(mask, cls.snow, cls.count * mult, k, pick) for mask, mult, pick in rows]
        out += [(mask, cls.snow, cls.count * n, k, ()) for mask, n in extra]
    return out, partial


# -- convoke, improvise and delve -----------------------------------------------------------------

def assisted_units(problem: Problem) -> tuple[list[UnitKind], bool] | None:
    """The grouped units of a board with the assists of convoke, improvise and delve
    (:class:`~manasolver.solver.supply.resources.Assists`) and whether options were left out (those
    :func:`plain_units` leaves out: costs that tap other permanents among them, so that no
    permanent a unit counts is tapped twice), or ``None`` to decline.

    A member taps once (CR 118.10): for its own mana, or to convoke (it pays {1} or one mana of
    its colors, 702.51a) or improvise (it pays {1}, 702.126a), so a member of a class that adds
    one mana of a mask is one unit of that mask and its colors, and one with no mana ability
    (or summoning sick: it may convoke all the same) one unit of its colors; a unit with no color
    pays only generic.  Each card delve may exile pays {1} (702.66a).  Declined when a class whose
    members assist adds more than one mana, or the board has sacrifice costs."""
    sup = problem.supply
    if sup.fodder:
        return None
    assists = problem.assists
    assisting: dict[int, list[tuple[int, int]]] = {}  # class -> [(colors, members)]
    # (a comprehension is a call of its own: most pools are empty)
    out: list[UnitKind] = [(bit, False, n, -1, ()) for bit, n in sup.pool] if sup.pool else []
    for grp in assists.groups:
        colors = grp.colors if grp.creature else 0
        if grp.cls < 0:
            out.append((colors, False, len(grp.members), -1, ()))
        else:
            assisting.setdefault(grp.cls, []).append((colors, len(grp.members)))
    partial = bool(sup.tappable)
    for k, cls in enumerate(sup.classes):
        shape, part = _class_shape(cls.options, problem.spell_ok[k])
        partial = partial or part
        helpers = assisting.get(k)
        if helpers is None:
            out += [(mask, cls.snow, cls.count * mult, k, pick) for mask, mult, pick in shape]
            continue
        if len(shape) > 1 or (shape and shape[0][1] != 1):
            return None
        mask = shape[0][0] if shape else 0
        rest = cls.count
        for colors, n in helpers:
            out.append((mask | colors, cls.snow, n, k, ()))
            rest -= n
        if rest < 0:
            return None
        if rest and shape:
            out.append((mask, cls.snow, rest, k, ()))
    if assists.graveyard:
        out.append((0, False, len(assists.graveyard), -1, ()))
    return out, partial


# -- the least missing mana with converters ------------------------------------------------------

#: Choices of how many members of each class activate which converter, tried at most.
CONVERTER_CHOICES = 256


def _cost_demands(opt: Option) -> list[int] | None:
    """A converter's own mana cost as demand masks, generic as 0 (``None``: a symbol this search
    does not pay: X, snow, Phyrexian, monocolored hybrid)."""
    out: list[int] = []
    for sym in opt.mana_cost.symbols:
        if sym.variable or sym.special or sym.snow or sym.phyrexian:
            return None
        if sym.is_numeral:
            out += [0] * sym.generic
        elif sym.generic:
            return None
        elif sym.colors:
            out.append(sym.colors)
        elif sym.colorless:
            out.append(TYPE_BITS[5])
        else:
            return None
    return out


def _compositions(n: int, parts: int) -> list[tuple[int, ...]]:
    """Every way to write ``n`` as an ordered sum of ``parts`` counts."""
    if parts == 1:
        return [(n,)]
    return [(k, *rest) for k in range(n + 1) for rest in _compositions(n - k, parts - 1)]


#: A way a member of a converter class may activate: ``(slots, cost demand masks, whether its mana
#: may pay converters' costs)``; no cost demands for a free option adding several mana among several
#: (Coveted Jewel's colors) and for restricted mana.
Mode = tuple[tuple[int, ...], list[int], bool]
#: A unit row of the converter search: ``(mask, snow, count, whether it may pay converters' costs)``
#: (convoke, improvise and delve pay the spell alone).
Unit = tuple[int, bool, int, bool]
#: One converter activation: ``(slots, snow, cost demand masks, node)``; ``node`` is the class
#: of a repeatable ability (Nomadic Elf), -1 for an exclusive one.
Act = tuple[tuple[int, ...], bool, list[int], int]
#: A source of the staged flow: ``(mask, snow, count, costs it may pay)`` (``None``: all of them).
Source = tuple[int, bool, int, "frozenset[int] | None"]
#: The key a shortfall is ranked by: (total, colored part, the shortfall per demand).
Ranked = tuple[int, int, dict[tuple[object, ...], int]]


def converter_shortfall(problem: Problem) -> dict[tuple[object, ...], int] | None:
    """The least missing mana per demand (smallest total, then most of it generic) of an unpayable
    problem whose sources are plain but for converters: exclusive abilities whose cost is mana and
    nothing else (Signets, filter lands, Crypt of the Eternals), paid from mana made before them
    (CR 601.2g, 605.3: never their own), and members choosing among several free options that add
    more than one mana (Coveted Jewel).  Options paying life or energy count as free ones when
    :func:`life_room` allows, free repeatable ones as :func:`wide_units` counts them; convoke,
    improvise and delve as :func:`assisted_units` counts them, paying the spell alone (an
    assisting member of a class with converters is one more way for it to be used).  ``None`` when
    it declines.

    Every choice of how many members of each class activate each converter or option is tried (at
    most :data:`CONVERTER_CHOICES`, and :data:`CONVERTER_FLOWS` flows), each form of the cost with
    it, by a flow that pays the converters' costs first, then the colored demands, then generic.  Two bounds per choice:
    converters' costs paid only by other sources and the pool (every such payment legal: what is
    missing at most), and by any mana, their own included (at least).  A choice activating one
    converter at most is exact by the first; a choice with more whose lower bound beats the best
    found is decided exactly, over every order of its activations (each cost paid by the pool,
    the other sources and the activations before it), at most :data:`CONVERTER_ORDERS` orders in
    all, else the search declines.  The first choice or order missing nothing ends the search: no
    other can do better, and the cost is payable (``{}``, what decides payability by it)."""
    sup = problem.supply
    x = problem.x
    if x is None or sup.tappable:
        return None
    fodder_ok = bool(sup.fodder) and fodder_room(problem)
    if sup.fodder and not fodder_ok:
        return None
    if any(f.life or f.energy for f in problem.forms):
        return None
    assisting = _assisting(problem)
    if assisting is None:
        return None
    plain, assist_of = assisting
    life_ok = life_room(problem)
    costly: frozenset[str] | None = None  # the converters' types, read when restricted mana asks
    plain += [(bit, False, n, True) for bit, n in sup.pool]
    # per converter class: (members, plain rows of a member, snow, its modes, the colors a member
    # assists with, paying the spell alone)
    flexible: list[tuple[int, ShapeRows, bool, list[Mode], int | None]] = []
    repeating: list[tuple[int, bool, int, list[int], int]] = []  # (class, snow, mask, cost, most)
    most = sup.pool_total  # all the mana the board could make, converters' own costs unpaid
    choices = 1
    for k, cls in enumerate(sup.classes):
        options = cls.options
        flags = options.flags
        if flags is not None and not flags[0] and not fodder_ok:
            found = _kept_modes(options, problem.spell_ok[k], life_ok)
        else:
            if costly is None:
                costly = frozenset().union(*(class_types(problem.req.state, c) for c in sup.classes
                                             if any(not opt.free for opt in c.options)))
            found = _class_modes(options, problem.spell_ok[k], life_ok, costly, fodder_ok)
        if found is None:
            return None
        rows, repeat, modes, converting = found
        plain += [(mask, cls.snow, cls.count * n, True) for mask, n in repeat]
        most += cls.count * (sum(n for _, n in repeat) + max(
            [sum(mult for _, mult, _ in rows)] + [len(slots) for slots, _, _ in modes]))
        if converting is not None:  # alike abilities of several classes are one node
            mask, demands, times = converting
            same = [i for i, r in enumerate(repeating) if r[1:4] == (cls.snow, mask, demands)]
            if same:
                node, snow, _, _, before = repeating[same[0]]
                repeating[same[0]] = (node, snow, mask, demands, before + cls.count * times)
            else:
                repeating.append((k, cls.snow, mask, demands, cls.count * times))
        only = assist_of.get(k)
        if not modes and only is None:
            plain += [(mask, cls.snow, cls.count * mult, True) for mask, mult, _ in rows]
            continue
        flexible.append((cls.count, rows, cls.snow, modes, only))
        parts = len(modes) + 1 + (only is not None)
        choices *= comb(cls.count + parts - 1, parts - 1)  # how many _compositions(count, parts) lists
        if choices > CONVERTER_CHOICES:
            return None
    if len(repeating) > 1 or not (flexible or repeating):
        return None
    picks = [_compositions(n, len(modes) + 1 + (only is not None)) for n, _, _, modes, only in flexible]
    for _, _, _, demands, times in repeating:
        # a repeatable converter adds one mana for a cost of one or more: each activation is paid
        # by mana from elsewhere (an activation paying another of the same ability can be left out,
        # its own payment paying that one), so at most the board's mana over the cost activate it
        picks.append([(n,) for n in range(min(times, most // len(demands)) + 1)])
        choices *= len(picks[-1])
        if choices > CONVERTER_CHOICES:
            return None
    forms = problem.forms
    if choices * len(forms) * 2 > CONVERTER_FLOWS:
        return None
    deadline = budget.current()
    best: Ranked | None = None
    open_choices: list[tuple[Ranked, list[Act], list[Unit]]] = []
    need = min(form.mana_total(x) for form in forms)
    for choice in _product(picks):
        if deadline.expired():
            return None
        units = list(plain)
        acts: list[Act] = []
        for (_, rows, snow, modes, only), counts in zip(flexible, choice):
            units += [(mask, snow, counts[0] * mult, True) for mask, mult, _ in rows if counts[0]]
            if only is not None and counts[-1]:
                units.append((only, False, counts[-1], False))
            for (slots, demands, pays), n in zip(modes, counts[1:]):
                if not n:
                    continue
                if not demands:  # a free option: its mana pays what other free sources' does
                    units += [(mask, snow, n * slots.count(mask), pays) for mask in sorted(set(slots))]
                    continue
                acts += [(slots, snow, demands, -1)] * n
        for (k, snow, mask, demands, _), (n,) in zip(repeating, choice[len(flexible):]):
            acts += [((mask,), snow, demands, k)] * n
        if best is not None and _beaten(best, need - _net(units, acts)):
            continue  # no flow of this choice, in any order, can miss less than the best found
        upper = _least(units, acts, forms, x, "others")
        if upper is not None and (best is None or upper[:2] < best[:2]):
            best = upper
            if not best[0]:
                return {}  # nothing missing: no choice can do better (the cost is payable)
        if len(acts) > 1:
            lower = _least(units, acts, forms, x, "any")
            if lower is not None and (upper is None or lower[:2] < upper[:2]):
                open_choices.append((lower, acts, units))
    orders = 0
    for lower, acts, units in sorted(open_choices, key=lambda t: t[0][:2]):
        if best is not None and lower[:2] >= best[:2]:
            break
        sequences = _orders(acts)
        orders += len(sequences)
        if orders > CONVERTER_ORDERS or orders * len(forms) > CONVERTER_FLOWS or deadline.expired():
            return None
        for seq in sequences:
            exact = _least(units, seq, forms, x, "before")
            if exact is not None and (best is None or exact[:2] < best[:2]):
                best = exact
                if not best[0]:
                    return {}
    return None if best is None else best[2]


def _assisting(problem: Problem) -> tuple[list[Unit], dict[int, int]] | None:
    """What convoke, improvise and delve add to the converter search: the units of permanents
    outside the supply and of the graveyard, which pay the spell alone, and per supply class the
    colors its members assist with (all of them untapped and in one group: otherwise ``None``, to
    decline).  As :func:`assisted_units`: a creature convokes for {1} or one mana of its colors
    (CR 702.51a), an artifact improvises for {1} (702.126a), a card delve exiles pays {1} (702.66a)."""
    assists = problem.assists
    out: list[Unit] = []
    of: dict[int, int] = {}
    for grp in assists.groups:
        colors = grp.colors if grp.creature else 0
        if grp.cls < 0:
            out.append((colors, False, len(grp.members), False))
            continue
        count = problem.supply.classes[grp.cls].count
        if grp.cls in of or len(grp.members) != count or assists.class_untapped[grp.cls] != count:
            return None
        of[grp.cls] = colors
    if assists.graveyard:
        out.append((0, False, len(assists.graveyard), False))
    return out, of


#: Orders of converter activations tried at most, over all choices, where the bounds differ.
CONVERTER_ORDERS = 120
#: Flows the converter search computes at most (choices, or orders, times forms): beyond, as past the
#: query's deadline, it declines and the CP-SAT slack model answers.
CONVERTER_FLOWS = 256


#: What :func:`_class_modes` reads of one member: plain rows, free repeatable rows, modes and
#: repeatable converter; ``None`` when some option is not modelled.  Only read, never changed.
ClassModes = tuple[ShapeRows, tuple[tuple[int, int], ...], list[Mode], tuple[int, list[int], int] | None]


def _kept_modes(options: Options, ok: tuple[bool, ...], life_ok: bool) -> ClassModes | None:
    """:func:`_class_modes` of options none of which adds restricted mana (so the board's
    converters' types are not read), kept in the options object per restriction row and life flag
    (the options of a card in one state are shared by every board's rows)."""
    kept = options.modes
    if kept is None:
        kept = options.modes = {}
    hit: tuple[ClassModes | None] | None = kept.get((ok, life_ok))
    if hit is None:
        hit = kept[(ok, life_ok)] = (_class_modes(options, ok, life_ok, frozenset()),)
    return hit[0]


def _class_modes(options: Options, ok: tuple[bool, ...], life_ok: bool, costly: frozenset[str],
                 fodder_ok: bool = False) -> ClassModes | None:
    """One member's plain rows, free repeatable rows, modes (converters; free options adding more
    than one mana when it has several; restricted mana, which pays this spell when its restriction
    allows it and no converter's cost, CR 106.6) and repeatable converter (``(mask, cost demands,
    times)``: one ability whose options each add one mana for the same mana cost, Nomadic Elf's
    {1}{G}, the mask the union of theirs) for :func:`converter_shortfall`; ``None`` when some option
    is not modelled there: restricted mana that may pay the cost of an ability of a permanent of the
    types ``costly`` (those of the board's converters) among them.  ``fodder_ok``: exclusive options
    that take another permanent or card (:func:`fodder_room`) count as options without that cost."""
    modes: list[Mode] = []
    restricted = [o for o, opt in enumerate(options) if opt.restriction is not None]
    if restricted:
        for o in restricted:
            opt = options[o]
            scope = ability_scope(opt.restriction)
            if (scope is True or (scope is not False and scope_pays(scope, costly)) or not opt.exclusive
                    or not opt.free or ((opt.life or opt.energy) and not life_ok) or opt.tap_creatures
                    or (opt.sacrifice_other and not fodder_ok) or opt.nonsnow_tail):
                return None
        mask = 0
        for o in restricted:
            if ok[o] and len(options[o].slots) == 1:
                mask |= options[o].slots[0]
        if mask:
            modes.append(((mask,), [], False))
        modes += [(options[o].slots, [], False) for o in restricted if ok[o] and len(options[o].slots) > 1]
        ok = tuple(flag and o not in restricted for o, flag in enumerate(ok))
    split = _converting(options, ok)
    if split is None:
        return None
    ok, converting = split
    repeat, odd = _repeat_rows(options, ok)
    if odd:
        return None
    plain_ok = list(ok)
    for o, opt in enumerate(options):
        if not ok[o] or not opt.exclusive:
            continue
        if ((opt.life or opt.energy) and not life_ok) or opt.tap_creatures or opt.nonsnow_tail \
                or (opt.sacrifice_other and not fodder_ok) or opt.tap_types:
            return None
        if opt.free:
            continue
        demands = _cost_demands(opt)
        if demands is None or not opt.slots:
            return None
        modes.append((opt.slots, demands, True))
        plain_ok[o] = False
    usable, part = _usable(options, tuple(plain_ok), life_ok, fodder_ok=fodder_ok)
    rows, odd = _exclusive_rows(usable)
    if odd:  # several free options, some adding more than one mana: each of those a mode
        modes += [(opt.slots, [], True) for _, opt in usable if len(opt.slots) > 1]
        rows, odd = _exclusive_rows([(o, opt) for o, opt in usable if len(opt.slots) == 1])
    if part or odd:  # pragma: no cover - every exclusive option is a mode or a plain one here
        return None
    return rows, repeat, modes, converting


def _converting(options: Options, ok: tuple[bool, ...]
                ) -> tuple[tuple[bool, ...], tuple[int, list[int], int] | None] | None:
    """``ok`` without a member's repeatable converter's options, and that converter (see
    :func:`_class_modes`; ``None`` for none); ``None`` for one not modelled."""
    converting = [o for o, opt in enumerate(options) if ok[o] and not opt.exclusive and not opt.free]
    if not converting:
        return ok, None
    first = options[converting[0]]
    demands = _cost_demands(first)
    rest = tuple(flag and o not in converting for o, flag in enumerate(ok))
    if not demands or any(flag and not options[o].exclusive for o, flag in enumerate(rest)) or any(
            len(opt.slots) != 1 or opt.ability != first.ability or opt.mana_cost != first.mana_cost
            or opt.repeat != first.repeat or opt.life or opt.energy or opt.tap_creatures or opt.sacrifice_other
            or opt.nonsnow_tail or opt.restriction is not None or opt.removes_any  # X counters for X mana
            for opt in (options[o] for o in converting)):
        return None
    mask = 0
    for o in converting:
        mask |= options[o].slots[0]
    return rest, (mask, demands, first.repeat)


def _net(units: list[Unit], acts: list[Act]) -> int:
    """The most mana ``units`` and the activations ``acts`` leave for the spell once the
    activations' own costs are paid: what they add less what they cost."""
    net = 0
    for u in units:
        net += u[2]
    for slots, _snow, demands, _node in acts:
        net += len(slots) - len(demands)
    return net


def _beaten(best: Ranked, least: int) -> bool:
    """Can no shortfall missing ``least`` mana or more rank below ``best`` (smaller total, then
    smaller colored part)?  A flow paying the converters' costs in full (:func:`_staged`) leaves
    the spell at most :func:`_net` mana, so it misses at least a form's whole cost less that."""
    return least > best[0] or (least == best[0] and not best[1])


def _orders(acts: list[Act]) -> list[list[Act]]:
    """Every distinct order of ``acts`` (alike activations are not told apart)."""
    kinds: list[Act] = []
    for a in acts:
        if a not in kinds:
            kinds.append(a)
    left = [acts.count(a) for a in kinds]
    out: list[list[Act]] = []

    def extend(prefix: list[Act]) -> None:
        if len(prefix) == len(acts):
            out.append(prefix)
            return
        for i, a in enumerate(kinds):
            if left[i]:
                left[i] -= 1
                extend(prefix + [a])
                left[i] += 1

    extend([])
    return out


def _product(picks: list[list[tuple[int, ...]]]) -> list[list[tuple[int, ...]]]:
    out: list[list[tuple[int, ...]]] = [[]]
    for options in picks:
        out = [prefix + [p] for prefix in out for p in options]
    return out


def _least(units: list[Unit], acts: list[Act], forms: tuple[Form, ...], x: int, paid: str) -> Ranked | None:
    """The least shortfall over ``forms`` when ``units`` and the converter activations ``acts``
    pay them, each activation's cost paid first: by ``units`` alone (``paid`` ``"others"``), by any
    mana, its own included (``"any"``), or by ``units`` and the activations before it in ``acts``
    but those of its own repeatable ability (``"before"``); ``None`` when the costs can't all be
    paid."""
    costs: list[tuple[int, int]] = []  # (demand mask, 0 for generic; amount)
    owner: list[int] = []
    for i, (_, _, demands, _) in enumerate(acts):
        for m in sorted(set(demands)):
            costs.append((m, demands.count(m)))
            owner.append(i)
    everything = frozenset(range(len(costs)))
    sources: list[Source] = [(mask, snow, n, everything if costs_too else frozenset())
                             for mask, snow, n, costs_too in units if n]
    for i, (slots, snow, _, node) in enumerate(acts):
        if paid == "others":
            pays: frozenset[int] = frozenset()
        elif paid == "any":
            pays = everything
        else:
            pays = frozenset(c for c in everything if owner[c] > i and (node < 0 or acts[owner[c]][3] != node))
        sources += [(mask, snow, slots.count(mask), pays) for mask in sorted(set(slots))]
    best: Ranked | None = None
    for form in forms:
        short = _staged(sources, costs, form, x)
        if short is None:
            continue
        total = sum(short.values())
        key = (total, total - short.get(("generic",), 0), short)
        if best is None or key[:2] < best[:2]:
            best = key
    return best


def _staged(sources: list[Source], costs: list[tuple[int, int]], form: Form,
            x: int) -> dict[tuple[object, ...], int] | None:
    """What ``form`` lacks when ``sources`` pay it after paying the converters' ``costs`` (demand
    mask, 0 for generic; amount) in full: a max-flow that fills the costs, then the colored
    demands, then generic (a flow never gives back what reached the sink, so the costs stay paid
    and the colored demands served as much as they can be; generic, which every source pays, is
    what the sources have left, counted as :func:`~manasolver.solver.backends.matching.deficits`
    counts it); ``None`` when the costs can't all be paid.  With one demand but generic at most
    and a few costs, counted by :func:`_staged_cuts` instead of flowed."""
    dsts: list[tuple[tuple[object, ...], int, int]] = [(("spell", m), m, c) for m, c in form.demands]
    if form.snow:
        dsts.append((("snow",), -1, form.snow))
    ns, nd, nc = len(sources), len(dsts), len(costs)
    if nd <= 1 and nc <= _CUT_COSTS:
        return _staged_cuts(sources, costs, dsts, form.generic(x))
    sink = 1 + ns + nd + nc
    net = _Network(sink + 1)
    for si, (mask, snow, count, pays) in enumerate(sources):
        node = 1 + si
        net.edge(0, node, count)
        for di, (_, m, _c) in enumerate(dsts):
            if (m == -1 and snow) or (m > 0 and mask & m):
                net.edge(node, 1 + ns + di, count)
        for ci, (m, _c) in enumerate(costs):
            if (pays is None or ci in pays) and (m == 0 or mask & m):
                net.edge(node, 1 + ns + nd + ci, count)
    paid = [net.edge(1 + ns + nd + ci, sink, c) for ci, (_, c) in enumerate(costs)]
    edges = [net.edge(1 + ns + di, sink, 0) for di in range(nd)]
    flowed = net.augment(sink)
    if any(net.cap[e] for e in paid):
        return None
    for e, (_, _, c) in zip(edges, dsts):
        net.cap[e] = c
    flowed += net.augment(sink)
    out: dict[tuple[object, ...], int] = {}
    for e, (key, _m, _c) in zip(edges, dsts):
        if net.cap[e]:
            out[key] = net.cap[e]
    generic = form.generic(x) + flowed - sum(source[2] for source in sources)
    if generic > 0:  # every source pays generic: what the two stages left, counted (see deficits)
        out[("generic",)] = generic
    return out


#: Costs past which :func:`_staged` flows rather than counts (:func:`_staged_cuts` reads every set
#: of the costs and the demand).
_CUT_COSTS = 4


def _staged_cuts(sources: list[Source], costs: list[tuple[int, int]],
                 dsts: list[tuple[tuple[object, ...], int, int]], generic: int) -> dict[tuple[object, ...], int] | None:
    """:func:`_staged` for one demand but generic at most (``dsts``), counted instead of flowed: the
    first stage pays every cost exactly when the maximum flow into the costs alone is all of them,
    and the second ends at a maximum flow of the whole network (augmenting paths reach one from any
    flow) with the costs still paid, so the demand is served that flow less the costs whichever
    paths the stages took (:func:`_most_flow` counts both)."""
    caps = [c for _, c in costs] + [c for _, _, c in dsts]
    nc = len(costs)
    paying: dict[int, int] = {}  # sources by the set of sinks they pay (bit ci: cost ci, bit nc: the demand)
    total = 0
    demand = dsts[0][1] if dsts else 0
    for mask, snow, count, pays in sources:
        total += count
        reach = 0
        for ci, (m, _c) in enumerate(costs):
            if (pays is None or ci in pays) and (m == 0 or mask & m):
                reach |= 1 << ci
        if dsts and ((demand == -1 and snow) or (demand > 0 and mask & demand)):
            reach |= 1 << nc
        if reach:
            paying[reach] = paying.get(reach, 0) + count
    paid = sum(caps[:nc])
    if nc and _most_flow(paying, caps, (1 << nc) - 1) < paid:
        return None
    flowed = _most_flow(paying, caps, (1 << len(caps)) - 1)
    out: dict[tuple[object, ...], int] = {}
    if dsts:
        served = flowed - paid
        if served < dsts[0][2]:
            out[dsts[0][0]] = dsts[0][2] - served
    generic += flowed - total
    if generic > 0:
        out[("generic",)] = generic
    return out


def _most_flow(paying: dict[int, int], caps: list[int], sinks: int) -> int:
    """The maximum flow from grouped sources (``paying``: units by the set of sinks they pay) into
    the sinks of the set ``sinks`` (bits of ``caps``' capacities), as its least cut: for every set
    ``beyond`` of those sinks cut off from the sources, the capacity of the others and the sources
    paying some sink of ``beyond``."""
    best = -1
    beyond = sinks
    while True:
        cut = 0
        for t, cap in enumerate(caps):
            if sinks >> t & 1 and not beyond >> t & 1:
                cut += cap
        for reach, count in paying.items():
            if reach & beyond:
                cut += count
        if best < 0 or cut < best:
            best = cut
        if not beyond:
            return best
        beyond = (beyond - 1) & sinks
