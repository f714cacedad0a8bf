"""The PAYMENT of a backend's solution written straight to its protocol JSON (SPEC §5).

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

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from operator import itemgetter
from typing import Any

from manasolver.models.symbols import TYPE_BITS
from manasolver.solver.backends.problem import Problem, Solution, lowest_bit, mana_string, to_payment
from manasolver.solver.casting.announce import mask_text
from manasolver.solver.payment import Payment

__all__ = ["Written", "direct_json", "writes_directly"]

_FIRST = itemgetter(0)
#: One mana of each type as text (``{W}`` … ``{C}``).
_BIT_TEXT = {bit: mask_text(bit) for bit in TYPE_BITS}
_TO_SPELL = ("spell", "generic", "snow")


@dataclass(frozen=True, slots=True)
class Written:
    """A backend's solution to ``problem``, kept to be written as a PAYMENT when asked."""

    problem: Problem
    solution: Solution

    def to_json(self) -> dict[str, Any]:
        """The protocol's PAYMENT object (written directly when :func:`writes_directly`)."""
        out = direct_json(self.problem, self.solution)
        return out if out is not None else to_payment(self.problem, self.solution).to_json()

    def payment(self) -> Payment:
        """The :class:`Payment` value of the solution (the general path)."""
        return to_payment(self.problem, self.solution)


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


def direct_json(problem: Problem, sol: Solution) -> dict[str, Any] | None:
    """The PAYMENT of ``sol`` as ``to_payment(problem, sol).to_json()`` writes it, in one pass;
    ``None`` for a solution of another shape than :func:`writes_directly` accepts."""
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
    # each taking its slots' units in turn: per (class, option), the mana strings in order.
    plans: dict[tuple[int, int], tuple[tuple[int, ...], tuple[str, ...], int, list[str],
                                       Callable[[], str]]] = {}
    for (k, o) in counts:
        cls = classes[k]
        opt = cls.options[o]
        slots = opt.slots
        if len(slots) == 1:
            texts = list(map(_BIT_TEXT.__getitem__, realized[(k, o, slots[0])]))
        else:
            queues = {mask: iter(realized[(k, o, mask)]) for mask in set(slots)}
            texts = [mana_string([next(queues[mask]) for mask in slots]) for _ in range(counts[(k, o)])]
        plans[(k, o)] = (cls.positions, cls.members, opt.ability, list(opt.costs), iter(texts).__next__)
    rows: list[tuple[int, dict[str, Any]]] = []
    append = rows.append
    for k, m, o in sol.acts:
        positions, members, ability, costs, mana = plans[(k, o)]
        append((positions[m], {"permanent": members[m], "ability": ability, "costs": costs[:],
                               "mana": mana()}))
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
    out: dict[str, Any] = {
        "total": form.total_text(sol.x, spell_units),
        "choices": choices,
        "x": sol.x,
        "activations": [row for _, row in rows],
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
    return out
