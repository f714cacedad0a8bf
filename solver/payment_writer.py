"""The PAYMENT of a backend's solution written straight to its protocol JSON.

:func:`~manasolver.solver.backends.problem.to_payment` builds the one result type,
:class:`~manasolver.solver.payment.Payment`, with a frozen :class:`~manasolver.solver.payment.Activation`
per activation, and the answer is then written from it in a second pass.  On a large board that
is most of a ``pay``: a thousand activations are a thousand objects made and read again.  This
module writes the same JSON object in one pass over the solution, for the common shape: plain
activations of permanents (tapping or not, paying life, energy or damage, costing mana) with no
assist (convoke, improvise, delve), no cost that sacrifices or taps other permanents, no card
activated from the hand and no snow member's nonsnow triggered mana.  Any other solution is
written by the general path (``to_payment(...).to_json()``), so the answer is the same object
either way, key for key and in the same order (tests compare the two on every shape).

:class:`Written` keeps a solution with its problem: :meth:`Written.to_json` is the answer's
PAYMENT, and :meth:`Written.payment` the :class:`Payment` value, built only when a caller of the
Python API asks for it.
"""

from __future__ import annotations

import dataclasses
import json
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from itertools import groupby
from operator import itemgetter
from typing import Any

from manasolver.models.state import GameState
from manasolver.models.symbols import ANY_COLOR, TYPE_BITS
from manasolver.solver.backends.problem import (Problem, Solution, lowest_bit, mana_string, order_constraints,
                                                snow_units, spend_table_of, to_payment)
from manasolver.solver.casting.announce import mask_text
from manasolver.solver.payment import WARNINGS, Activation, Allocation, Payment
from manasolver.solver.payment_order import Assist, Step, cost_masks, executable, mana_bits, total_demands, widened
from manasolver.models.rules.ability_scope import ability_scope, permanent_words
from manasolver.solver.supply.model import Option

__all__ = ["Finisher", "Planned", "Written", "best_first", "direct_json", "finish_json", "finish_payment",
           "writes_directly"]

_FIRST = itemgetter(0)
_SECOND = itemgetter(1)
_THIRD = itemgetter(2)
_FOURTH = itemgetter(3)
#: An activation's (class, option), of a solution's ``acts`` row.
_CLASS_OPTION = itemgetter(0, 2)
#: An activation's class, option and whether its mana may pay the spell: one value per class and
#: option of a payment, so that activations alike are told alike by its identity.
Found = tuple[int, Option, bool]
#: One mana of each type as text (``{W}`` … ``{C}``).
_BIT_TEXT = {bit: mask_text(bit) for bit in TYPE_BITS}
_TO_SPELL = ("spell", "generic", "snow")


@dataclass(frozen=True, slots=True)
class Written:
    """A backend's solution to ``problem``, kept to be written as a PAYMENT when asked."""

    problem: Problem
    solution: Solution

    def to_json(self) -> dict[str, Any]:
        """The protocol's PAYMENT object (written directly when :func:`writes_directly`), as an
        executable plan (:func:`finish_json`)."""
        finisher = Finisher(self.problem, self.solution.keep)
        direct = _direct(self.problem, self.solution, None)
        if direct is None:
            return finisher.plan(to_payment(self.problem, self.solution).to_json())
        out, steps, founds = direct
        return finisher.plan(out, steps=steps, founds=founds)

    def payment(self) -> Payment:
        """The :class:`Payment` value of the solution (the general path), as an executable plan."""
        return finish_payment(self.problem, to_payment(self.problem, self.solution),
                              Finisher(self.problem, self.solution.keep))


@dataclass(frozen=True, slots=True)
class Planned:
    """A payment already written as a plan (its PAYMENT object), kept as an answer's source."""

    out: dict[str, Any]

    def to_json(self) -> dict[str, Any]:
        return self.out

    def payment(self) -> Payment:
        p = Payment.from_json(self.out)
        return dataclasses.replace(p, warnings=tuple(self.out["warnings"]),
                                   score=tuple((n, v) for n, v in self.out["score"]))


def writes_directly(problem: Problem, sol: Solution) -> bool:
    """Does :func:`direct_json` write this solution (the common shape of the module docstring)?"""
    return _accepts(problem, sol, _counts(sol))


def _counts(sol: Solution) -> Counter[tuple[int, int]]:
    """How many times each (class, option) is activated."""
    return Counter([(k, o) for k, _m, o in sol.acts])


def _accepts(problem: Problem, sol: Solution, counts: Counter[tuple[int, int]]) -> bool:
    if sol.roles or sol.assists or sol.delved or sol.sacrifices or sol.taps:
        return False
    classes = problem.supply.classes
    for k, o in counts:
        cls = classes[k]
        if cls.hand:
            return False
        opt = cls.options[o]
        if opt.sacrifice_other or opt.tap_creatures or opt.nonsnow_tail:
            return False
    return True


def _executable_rows(acts: list[dict[str, Any]], steps: list[Step], founds: list[Found], total: str,
                     pool_used: list[int], floating: list[int], widen: Callable[[int], int] | None
                     ) -> tuple[list[dict[str, Any]], list[Step], list[Found]]:
    """The activations (in board order, some costing mana) in the executable order
    :func:`~manasolver.solver.backends.problem.executable_order` gives the general path, with
    their steps and kinds in that order (the same steps, made once per class, option and mana;
    no order constraints, since no activation written here sacrifices or taps another permanent
    or is a card of the hand), which the plan reads again rather than making them twice."""
    order = executable(steps, widened(total_demands(total), widen), mana_bits(mana_string(pool_used)),
                       mana_bits(mana_string(floating)), allocate=False).order
    return [acts[i] for i in order], [steps[i] for i in order], [founds[i] for i in order]


def _option_steps(state: GameState, pid: str, found: Found, scope: bool | frozenset[str],
                  widen: Callable[[int], int] | None, manas: dict[str, tuple[int, ...]]) -> dict[str, Step]:
    """The :class:`Step` of an activation of ``found``'s option making each mana string of
    ``manas`` (its type bits, as :func:`mana_bits` reads them), as :func:`_steps` makes it, one
    per string (activations alike share theirs); ``pid``: a member of its class (snow is one for
    a class's members: it is part of what groups them, and one for each unit of a member's mana,
    so that it is read once an option)."""
    _k, opt, spell_ok = found
    cost = cost_masks(opt.mana_cost, 1, widen)
    no_generic = opt.restriction is not None and opt.restriction.no_generic
    snow = snow_units(state, pid, opt, "{C}")  # one unit's: () or (True,)
    return {text: Step(bits, cost, spell_ok, scope, frozenset(), snow * len(bits), no_generic)
            for text, bits in manas.items()}


def _widen(problem: Problem) -> Callable[[int], int] | None:
    """The 609.4b table of ``problem``'s payment, a symbol's mask to the types that may pay it
    (None: by type)."""
    table = spend_table_of(problem.req)
    return None if table.identity else table.mask


def _steps(state: GameState, widen: Callable[[int], int] | None, acts: list[dict[str, Any]],
           founds: list[Found]) -> list[Step]:
    """The :class:`Step` of each activation of a PAYMENT object (``founds``: its class, option
    and spell flag), as the general path makes them
    (:func:`~manasolver.solver.backends.problem.executable_order`); activations alike (one class
    and option, as many times, the same mana) share their step."""
    steps: list[Step] = []
    made: dict[tuple[object, ...], Step] = {}
    scoped = False  # does some option's mana pay only the abilities of some card types?
    for act, found in zip(acts, founds):
        times = int(act.get("times", 1))
        mana = act["mana"]
        alike = (id(found), times, mana)
        step = made.get(alike)
        if step is None:
            _k, opt, spell_ok = found
            # snow is one for a class's members (it is part of what groups them)
            snow = snow_units(state, act["permanent"], opt, mana) if "permanent" in act else ()
            scope = ability_scope(opt.restriction)
            scoped = scoped or not isinstance(scope, bool)
            step = Step(mana_bits(mana), cost_masks(opt.mana_cost, times, widen), spell_ok, scope, frozenset(),
                        snow, opt.restriction is not None and opt.restriction.no_generic)
            made[alike] = step
        steps.append(step)
    return _typed(state, acts, steps) if scoped else steps


def _typed(state: GameState, acts: list[dict[str, Any]], steps: list[Step]) -> list[Step]:
    """``steps`` with the card types of each mana-costing activation's permanent, which mana
    restricted to the abilities of some types may pay (CR 106.6); read only when such mana is
    made, since no other step reads them."""
    out = list(steps)
    for i, (act, step) in enumerate(zip(acts, steps)):
        if step.cost and "permanent" in act:
            perm = state.permanent(act["permanent"])
            out[i] = dataclasses.replace(step, types=permanent_words(perm))
    return out


def direct_json(problem: Problem, sol: Solution, keys: dict[int, Found] | None = None
                ) -> dict[str, Any] | None:
    """The PAYMENT of ``sol`` as ``to_payment(problem, sol).to_json()`` writes it, in one pass;
    ``None`` for a solution of another shape than :func:`writes_directly` accepts.  ``keys``,
    when given, receives the class and option of each activation written (by the ``id`` of its
    object), so that :meth:`Finisher.plan` reads them without looking the board up."""
    direct = _direct(problem, sol, keys)
    return None if direct is None else direct[0]


def _direct(problem: Problem, sol: Solution, keys: dict[int, Found] | None
            ) -> tuple[dict[str, Any], list[Step], list[Found]] | None:
    """:func:`direct_json`'s PAYMENT with the steps of its activations (as :func:`_steps` makes
    them) and the class, option and spell flag of each, in their order (the executable order
    of :func:`_executable_rows` when some activation costs mana)."""
    counts = _counts(sol)
    if not _accepts(problem, sol, counts):
        return None
    classes = problem.supply.classes
    form = problem.forms[sol.form]
    spent_by_src: dict[object, list[int]] = {}
    spell_units: dict[int, list[int]] = {}
    pool_used: list[int] = []
    spent: list[int] = []
    for src, bit, dst, n in sol.spend:
        if n <= 0:
            continue
        units = [bit] * n
        got = spent_by_src.get(src)
        if got is None:
            spent_by_src[src] = units[:]
        else:
            got.extend(units)
        head = dst[0]
        kind = src[0]
        if head in _TO_SPELL and kind in ("pool", "act", "inst"):
            spent.extend(units)
        if kind == "pool":
            pool_used.extend(units)
        if head == "spell":
            mask = dst[1]
            assert isinstance(mask, int)
            spell_units.setdefault(mask, []).extend(units)
    # Units produced by each (class, option, slot mask): those spent first, then those floating.
    floating: list[int] = []
    realized: dict[tuple[int, int, int], list[int]] = {}
    life = problem.req.ability_life + form.life
    energy = form.energy
    damage = 0
    for (k, o), n in counts.items():
        opt = classes[k].options[o]
        life += n * opt.life
        energy += n * opt.energy
        damage += n * opt.damage
        slots = opt.slots
        for mask in sorted(set(slots)):
            total = n * slots.count(mask)
            used = list(spent_by_src.get(("act", k, o, mask), ()))
            rest = [lowest_bit(mask)] * (total - len(used))
            floating.extend(rest)
            realized[(k, o, mask)] = used + rest
    # Activations in board order (a stable sort: a member activated twice keeps its order),
    # each taking its slots' units in turn: per (class, option), the mana strings in order, and
    # the step of each (made once per class, option and mana).
    costly = any(classes[k].options[o].mana_cost for k, o in counts)
    widen = _widen(problem) if costly else None
    state = problem.req.state
    scoped = False  # does some option's mana pay only the abilities of some card types?
    plans: dict[tuple[int, int], tuple[tuple[int, ...], tuple[str, ...], int, list[str],
                                       Iterator[tuple[str, Step]], Found]] = {}
    for (k, o) in counts:
        cls = classes[k]
        opt = cls.options[o]
        slots = opt.slots
        manas: dict[str, tuple[int, ...]]
        if len(slots) == 1:
            units = realized[(k, o, slots[0])]
            texts = list(map(_BIT_TEXT.__getitem__, units))
            manas = {_BIT_TEXT[bit]: (bit,) for bit in set(units)}
        else:
            queues = {mask: iter(realized[(k, o, mask)]) for mask in set(slots)}
            texts = [mana_string([next(queues[mask]) for mask in slots]) for _ in range(counts[(k, o)])]
            manas = {text: mana_bits(text) for text in set(texts)}
        found = (k, opt, problem.spell_ok[k][o])
        scope = ability_scope(opt.restriction)
        scoped = scoped or not isinstance(scope, bool)
        made = _option_steps(state, cls.members[0], found, scope, widen, manas)
        plans[(k, o)] = (cls.positions, cls.members, opt.ability, list(opt.costs),
                         zip(texts, map(made.__getitem__, texts)), found)
    rows: list[tuple[int, dict[str, Any], Found, Step]] = []
    # the activations of one class and option come in runs: each run reads its plan once, and
    # takes as many of the plan's mana strings as it holds activations (zip reads the run first)
    for ko, run in groupby(sol.acts, _CLASS_OPTION):
        positions, members, ability, costs, mana, found = plans[ko]
        rows.extend([(positions[m], {"permanent": members[m], "ability": ability, "costs": costs[:], "mana": text},
                      found, step) for (_k, m, _o), (text, step) in zip(run, mana)])
    if keys is not None:
        for _p, row, found, _s in rows:
            keys[id(row)] = found
    rows.sort(key=_FIRST)
    # Choices: a merged mask is shown as the type that paid it.
    take: dict[int, int] = {}
    choices: list[dict[str, Any]] = []
    for way in form.choices:
        if way.kind == "mana":
            wmask = way.mask
            if wmask & (wmask - 1):
                got_units = spell_units.get(wmask, [])
                i = take.get(wmask, 0)
                bit = got_units[i] if i < len(got_units) else lowest_bit(wmask)
                take[wmask] = i + 1
                choices.append({"symbol": way.symbol, "paid_as": mask_text(bit)})
            else:
                choices.append({"symbol": way.symbol, "paid_as": mask_text(wmask)})
        elif way.kind == "generic":
            choices.append({"symbol": way.symbol, "paid_as": "{" + str(way.amount) + "}"})
        else:
            choices.append({"symbol": way.symbol, "paid_as": "life"})
    total_text = form.total_text(sol.x, spell_units)
    acts: list[dict[str, Any]] = list(map(_SECOND, rows))
    founds: list[Found] = list(map(_THIRD, rows))
    steps: list[Step] = list(map(_FOURTH, rows))
    if scoped:
        steps = _typed(state, acts, steps)
    if costly:
        acts, steps, founds = _executable_rows(acts, steps, founds, total_text, pool_used, floating, widen)
    out: dict[str, Any] = {
        "total": total_text,
        "choices": choices,
        "x": sol.x,
        "activations": acts,
        "pool_used": mana_string(pool_used),
        "convoked": [],
        "delved": [],
        "improvised": [],
        "life": life,
        "energy": energy,
        "damage": damage,
        "floating": mana_string(floating),
    }
    policy = problem.policy
    if "max_colors_spent" in policy.criteria or policy.spend_color:
        out["spent"] = mana_string(spent)
        out["colors_spent"] = [c for i, c in enumerate("WUBRG") if any(b == 1 << i for b in spent)]
    return out, steps, founds


# -- the payment as a plan: order, allocation, warnings, score --------------------------------

def _bits(text: str) -> list[int]:
    """The type bits of a mana string such as ``{U}{R}{C}`` (one bit per symbol)."""
    return list(mana_bits(text))


class Finisher:
    """Writes payments of one problem as plans (see :func:`finish_json`); holds what every
    payment of the problem shares: the keep terms, and the options by permanent and ability,
    built only for a payment whose activations come without their class and option (so that
    writing a payment of a few activations costs what they cost, not what the board holds).
    ``keep``: the keep terms the problem's solution was counted with (:attr:`Solution.keep`),
    read when they count what the policy names, else built when a score first needs them."""

    def __init__(self, problem: Problem, keep: Any = None) -> None:
        self.problem = problem
        self._options: dict[tuple[str, int], Found] | None = None
        self._counted = keep
        self._keep: Any = None  # the terms a score reads, once a score first needs them
        #: The class of each member of the supply, made when a payment first taps or sacrifices
        #: a permanent for a cost.
        self._class_of: dict[str, int] | None = None
        #: The 609.4b table of the payment, a symbol's mask to the types that may pay it (None: by type).
        self.widen = _widen(problem)

    def _key(self, act: dict[str, Any]) -> tuple[str, int]:
        if "hand" in act:
            return (f"hand:{act['hand']}", int(act["ability"]))
        return (str(act["permanent"]), int(act["ability"]))

    @property
    def options(self) -> dict[tuple[str, int], Found]:
        """Class, option and whether its mana may pay the spell, by (permanent, ability)."""
        if self._options is None:
            problem = self.problem
            self._options = {}
            for k, cls in enumerate(problem.supply.classes):
                for o, opt in enumerate(cls.options):
                    found = (k, opt, problem.spell_ok[k][o])
                    for pid in cls.members:
                        self._options.setdefault((pid, opt.ability), found)
        return self._options

    def _found(self, act: dict[str, Any], keys: dict[int, Found] | None) -> Found:
        """The class, option and spell flag of activation ``act`` (from ``keys`` when it is there)."""
        if keys:
            hit = keys.get(id(act))
            if hit is not None:
                return hit
        return self._option_of(act)

    def _option_of(self, act: dict[str, Any]) -> Found:
        """The class, option and spell flag of activation ``act``, by its permanent (or card of the
        hand) and ability."""
        found = self.options.get(self._key(act))
        # Every PAYMENT a finisher plans or scores names members of its problem's supply: a solution
        # of that very problem (to_payment names an activation by its class's member and its option's
        # ability, a card of the hand by its index, the member "hand:<index>"), or one of a problem on
        # the same board with some permanents taken as tapped (sources' excluded_board, guide's
        # completions, whose steps are named back by the board's own ids and hand indices), or a plan's
        # costs, paid from the board's one supply (plan/combined.py).  Counted as nothing, an
        # activation of anything else would leave the score and the order wrong without a word.
        assert found is not None, f"an activation of no source of the problem's supply: {act}"
        return found

    def plan(self, out: dict[str, Any], keys: dict[int, Found] | None = None,
             steps: list[Step] | None = None, founds: list[Found] | None = None) -> dict[str, Any]:
        """``out`` (a PAYMENT object) with its activations in an executable order and its
        ``allocation``, ``warnings`` and ``score`` (written in place and returned); ``keys``: the
        class and option of activations by the ``id`` of their objects (:func:`direct_json`);
        ``steps``: the steps of its activations when the direct writer made them; ``founds``:
        the class, option and spell flag of each activation when the direct writer wrote them all.
        Activations all written directly need no order constraints (:func:`_accepts`: none
        sacrifices or taps another permanent or is a card of the hand, so Lion's Eye Diamond's
        discard has nothing to come after)."""
        acts: list[dict[str, Any]] = out["activations"]
        kinds: dict[int, Found] | None = None  # the activations' kinds when all were written directly
        known: list[Found]
        if founds is not None:
            known = list(founds)
            kinds = dict(zip(map(id, founds), founds))
        elif keys:
            keyed = [keys.get(id(act)) for act in acts]
            known = [hit if hit is not None else self._option_of(act) for act, hit in zip(acts, keyed)]
            if None not in keyed:
                kinds = dict(zip(map(id, known), known))
        else:
            known = [self._option_of(act) for act in acts]
        state = self.problem.req.state
        if steps is None:
            steps = _steps(state, self.widen, acts, known)
        assists: list[Assist] = []
        for pid in out.get("convoked", []):
            perm = state.permanent(pid)
            assists.append(Assist("convoke", pid, perm.card.colors & ANY_COLOR if perm is not None else 0))
        assists.extend(Assist("improvise", pid) for pid in out.get("improvised", []))
        assists.extend(Assist("delve", name) for name in out.get("delved", []))
        plan = executable(steps, widened(total_demands(out["total"]), self.widen), _bits(out["pool_used"]),
                          _bits(out["floating"]),
                          assists, _after(acts) if kinds is None else None)
        out["activations"] = list(map(acts.__getitem__, plan.order))
        known = list(map(known.__getitem__, plan.order))
        allocation = [{"symbol": symbol, "paid_by": {kind: value}} for symbol, kind, value in plan.paid]
        allocation.extend({"symbol": c["symbol"], "paid_by": {"life": 2}}
                          for c in out["choices"] if c["paid_as"] == "life")
        out["allocation"] = allocation
        preserved = frozenset(self.problem.req.sources.preserve)
        if kinds is None:
            out["warnings"] = warnings_of(out, preserved)
        else:
            out["warnings"] = warnings_of(out, preserved, [f[1] for f in kinds.values()])
        out["score"] = [[name, value] for name, value in self.score(out, keys, known, kinds)]
        return out

    def _with_consumed(self, out: dict[str, Any], used: list[int],
                       founds: list[Found]) -> list[int]:
        """``used`` (members activated, per class) with the members the payment taps or sacrifices
        otherwise: tapped or sacrificed for an activation's cost (Springleaf Drum, Ashnod's Altar),
        convoked or improvised; none of them stays untapped to keep a cost or a color, as the
        backends count them.  A member counted twice (tapped for mana, then sacrificed) counts once."""
        gone = [pid for a in out["activations"] for key in ("tapped", "sacrificed") for pid in a.get(key, ())]
        gone += [pid for key in ("convoked", "improvised") for pid in out.get(key, ())]
        if not gone:
            return used
        if self._class_of is None:
            self._class_of = {pid: k for k, cls in enumerate(self.problem.supply.classes) for pid in cls.members}
        activated = {a.get("permanent") for a, f in zip(out["activations"], founds) if f[1].exclusive}
        extra = list(used)
        for pid in dict.fromkeys(p for p in gone if isinstance(p, str) and p not in activated):
            k = self._class_of.get(pid)
            if k is not None:
                extra[k] += 1
        classes = self.problem.supply.classes
        return [min(n, cls.count) for n, cls in zip(extra, classes)]

    def score(self, out: dict[str, Any], keys: dict[int, Found] | None = None,
              founds: list[Found] | None = None,
              kinds: dict[int, Found] | None = None) -> list[tuple[str, int]]:
        """The policy's criteria, in its order (a caller's weights: the weighted ones), with
        their values for the payment ``out``, counted as the backends count them; ``founds``:
        the class, option and spell flag of each of its activations when already known;
        ``kinds``: the distinct ones by identity when every activation was written directly
        (once each, nothing else sacrificed, no card of the hand: counted per kind)."""
        problem = self.problem
        policy = problem.req.policy  # the caller's, ``preserve`` where it was named
        names: list[str] = [n for n, _w in policy.weights] if policy.weights else list(policy.criteria)
        if problem.req.sources.preserve and "preserve" not in names:  # ranked right after no_sacrifice
            names.insert(names.index("no_sacrifice") + 1 if "no_sacrifice" in names else 0, "preserve")
        acts = out["activations"]
        classes = problem.supply.classes
        used = [0] * len(classes)
        seen: list[Found] = []  # each activation's class and option, in order
        nonland = 0
        sacrificed = 0
        if kinds is not None and founds is not None:
            seen = founds
            for fid, n in Counter(map(id, founds)).items():
                k, opt, _ok = kinds[fid]
                if opt.exclusive:
                    used[k] += n
                nonland += n * (classes[k].kind != "land")
                sacrificed += n * opt.sacrifice  # written directly: nothing else is taken
        for i, act in enumerate(acts if kinds is None else ()):
            times = int(act.get("times", 1))
            found = founds[i] if founds is not None else self._found(act, keys)
            seen.append(found)
            if found[1].exclusive:  # a repeatable ability that doesn't tap leaves its member untapped
                used[found[0]] += times
            nonland += times * (classes[found[0]].kind != "land")
            sacrificed += times * found[1].sacrifice  # what the costs take: see Option
            sacrificed += len(act.get("sacrificed", ()))
        assisted = len(out.get("convoked", ())) + len(out.get("improvised", ())) + len(out.get("delved", ()))
        activations = len(acts) if kinds is not None else sum(int(a.get("times", 1)) for a in acts)
        terms: dict[str, int] = {
            "no_sacrifice": sacrificed,
            "preserve": len(_used_ids(out) & set(problem.req.sources.preserve)) if problem.req.sources.preserve else 0,
            "min_life": int(out["life"]) - problem.req.ability_life + int(out["damage"]),
            "min_waste": len(_bits(out["floating"])),
            "prefer_lands": nonland + assisted,
            "min_sources": activations + assisted,
            "use_pool": problem.supply.pool_total - len(_bits(out["pool_used"])),
            "max_colors_spent": 5 - len(out.get("colors_spent", ())),
            "min_energy": int(out["energy"]),
            "min_convoke": len(out.get("convoked", ())),
            "min_improvise": len(out.get("improvised", ())),
            "min_delve": len(out.get("delved", ())),
        }
        if "keep_castable" in names or "keep_colors" in names:
            if self._keep is None:
                from manasolver.solver import backends
                self._keep = backends.keep_terms(problem, tuple(names), self._counted)
            # activations written directly tap and sacrifice nothing else, and assist nothing
            left_used = used if kinds is not None else self._with_consumed(out, used, seen)
            if "keep_castable" in names:
                terms["keep_castable"] = self._keep.keep_lost(left_used)
            if "keep_colors" in names:
                terms["keep_colors"] = self._keep.colors_lost(left_used)
        return [(name, terms.get(name, 0)) for name in names]


def _used_ids(out: dict[str, Any]) -> set[str]:
    """The permanents a payment uses: activated, sacrificed or tapped for a cost, convoked,
    improvised."""
    ids: set[str] = set()
    for act in out["activations"]:
        if "permanent" in act:
            ids.add(act["permanent"])
        ids.update(act.get("sacrificed", ()))
        ids.update(act.get("tapped", ()))
    ids.update(out.get("convoked", ()))
    ids.update(out.get("improvised", ()))
    return ids


def warnings_of(out: dict[str, Any], preserved: frozenset[str] = frozenset(),
                options: list[Option] | None = None) -> list[str]:
    """The warning codes of a PAYMENT object (``payment.WARNINGS``, in that order): what it
    sacrifices, pays in life, deals as damage, spends as energy, leaves floating, uses of the
    preserved permanents, discards and exiles.  ``options``: the options activated, when each
    activation is one of them written directly (nothing else sacrificed, no card of the hand)."""
    acts = out["activations"]
    if options is None:
        costs = {c for parts in {tuple(a["costs"]) for a in acts} for c in parts}  # each cost read once
        other = any(a.get("sacrificed") for a in acts)
        hand = any("hand" in a for a in acts)
    else:
        costs = {c for opt in options for c in opt.costs}
        other = hand = False
    found = {
        "sacrifices": any(c.startswith("sacrifice") for c in costs) or other,
        "pays_life": int(out["life"]) > 0,
        "deals_damage": int(out["damage"]) > 0,
        "spends_energy": int(out["energy"]) > 0,
        "floats_mana": bool(out["floating"]),
        "uses_preserved": bool(preserved) and bool(preserved & _used_ids(out)),
        "discards": any("discard" in c for c in costs),
        "exiles": bool(out.get("delved")) or any("exile" in c for c in costs) or hand,
    }
    return [code for code in WARNINGS if found[code]]


def _after(acts: list[dict[str, Any]]) -> list[set[int]] | None:
    """The order constraints of sacrifices (:func:`order_constraints`), ``None`` without any."""
    if not any(a.get("sacrificed") or a.get("tapped") or "discard your hand" in a["costs"] for a in acts):
        return None
    read: list[Activation] = list(Payment.from_json({"activations": acts}).activations)
    return order_constraints(read)


def finish_json(problem: Problem, out: dict[str, Any]) -> dict[str, Any]:
    """A PAYMENT object of ``problem`` written as a plan a client can carry out: activations in
    an executable order, ``allocation``, ``warnings`` and ``score`` (in place; returned)."""
    return Finisher(problem).plan(out)


def finish_payment(problem: Problem, payment: Payment, finisher: Finisher | None = None) -> Payment:
    """:func:`finish_json` for a :class:`Payment` value."""
    out = (finisher or Finisher(problem)).plan(payment.to_json())
    keyed: dict[str, list[Activation]] = {}
    for a in payment.activations:
        keyed.setdefault(json.dumps(a.to_json(), sort_keys=True), []).append(a)
    ordered = tuple(keyed[json.dumps(a, sort_keys=True)].pop(0) for a in out["activations"])
    return dataclasses.replace(
        payment, activations=ordered,
        allocation=tuple(Allocation(e["symbol"], *next(iter(e["paid_by"].items()))) for e in out["allocation"]),
        warnings=tuple(out["warnings"]), score=tuple((n, v) for n, v in out["score"]))


def _canonical(p: Payment) -> str:
    """A payment as a key that ignores the order of its activations and its reports."""
    out = p.to_json()
    for key in ("allocation", "warnings", "score", "spent", "colors_spent"):
        out.pop(key, None)
    out["activations"] = sorted(json.dumps(a, sort_keys=True) for a in out["activations"])
    return json.dumps(out, sort_keys=True)


def best_first(problem: Problem, listed: list[Payment], first: Payment | None, limit: int) -> list[Payment]:
    """``listed`` written as plans and ordered best first under the policy (by ``score``, ties by
    the board positions of the permanents used, earlier first), with ``first`` (``pay``'s
    payment, already a plan) leading and not repeated; at most ``limit``."""
    finisher = Finisher(problem)
    position: dict[str, int] = {}
    for cls in problem.supply.classes:
        for pid, pos in zip(cls.members, cls.positions):
            position[pid] = pos
    far = len(position) + 1

    def key(p: Payment) -> tuple[object, ...]:
        score = p.score or ()
        weights = problem.policy.weights
        value: tuple[int, ...] = ((sum(v * w for (_n, v), (_m, w) in zip(score, weights)),) if weights
                                  else tuple(v for _n, v in score))
        return (value, sorted(position.get(a.permanent, far) for a in p.activations), _canonical(p))

    planned = sorted((finish_payment(problem, p, finisher) for p in listed), key=key)
    if first is None:
        return planned[:limit]
    seen = _canonical(first)
    return [first, *[p for p in planned if _canonical(p) != seen]][:limit]
