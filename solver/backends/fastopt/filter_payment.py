"""The payment the converter search writes: a count vector along the firing order it found.

The converter search (:mod:`~manasolver.solver.backends.fastopt.filters`) decides how many
members of each class are activated, in which of their modes, and the order in which the
converters take their input from the pool; this module turns that into a backend
:class:`~manasolver.solver.backends.problem.Solution`: every unit of mana with its mask,
each converter's input taken from a unit of the mask the order names, the units left
assigned to the cost by the shared transport
(:func:`~manasolver.solver.backends.matching.transport`), and each activation's option read
back from the types its units took.  :class:`ConverterMode` is the search's reading of one
way to use a class, shared by both modules.
"""

from __future__ import annotations

from dataclasses import dataclass

from manasolver.solver.backends.matching import transport
from manasolver.solver.backends.problem import Problem, Solution, lowest_bit

__all__ = ["ConverterMode", "converter_solution"]


@dataclass(frozen=True, slots=True)
class ConverterMode:
    """One way to use members of class ``k``: ``slots`` (unit masks one activation adds),
    ``need`` (the converter's input mask; 0 for a cost-free mode), the option per type for a
    merged one-mana mode (``pick``), or the options of a converter (``opts``, by their slot
    multisets), and its terms per activation."""

    k: int
    slots: tuple[int, ...]
    need: int
    pick: tuple[tuple[int, int], ...]
    opts: tuple[tuple[tuple[int, ...], int], ...]
    sac: int
    life: int
    ab_life: int
    nonland: int
    weight: int


@dataclass(slots=True)
class _Unit:
    """One unit of mana of a payment being written: its mask, the activation and slot it
    comes from, the type it takes and where it goes (None: it floats)."""

    mask: int
    act: int
    slot: int
    bit: int = 0
    dst: tuple[object, ...] | None = None


def converter_solution(problem: Problem, modes: list[ConverterMode], fi: int, counts: list[int],
                       order: list[tuple[int, int]]) -> Solution | None:
    """The payment of a count vector along the firing order found."""
    sup = problem.supply
    form = problem.forms[fi]
    x = problem.x
    assert x is not None
    units: list[_Unit] = []
    acts: list[tuple[int, int]] = []  # (mode, member) per activation
    member: dict[int, int] = {}
    by_mask: dict[int, list[int]] = {}

    def activate(i: int) -> int:
        md = modes[i]
        a = len(acts)
        m = member.get(md.k, 0)
        member[md.k] = m + 1
        acts.append((i, m))
        for si, sl in enumerate(md.slots):
            by_mask.setdefault(sl, []).append(len(units))
            units.append(_Unit(sl, a, si))
        return a

    for i, (md, n) in enumerate(zip(modes, counts)):
        if not md.need:
            for _ in range(n):
                activate(i)
    for i, m in order:
        u = by_mask[m].pop()
        a = activate(i)
        units[u].bit = lowest_bit(m & modes[i].need)
        units[u].dst = ("cost", a)
    kinds = [mask for mask, left in by_mask.items() if left]
    rows = transport([(mask, False, len(by_mask[mask])) for mask in kinds], form, x)
    if rows is None:
        return None
    for ui, dkey, bit, n in rows:
        for _ in range(n):
            u = by_mask[kinds[ui]].pop()
            units[u].bit = bit
            units[u].dst = dkey
    for unit in units:
        if not unit.bit:
            unit.bit = lowest_bit(unit.mask)
    # Each activation's option, from the types its units took.
    per_act: dict[int, list[_Unit]] = {}
    for unit in units:
        per_act.setdefault(unit.act, []).append(unit)
    option: list[int] = []
    for a, (i, _m) in enumerate(acts):
        md = modes[i]
        mine = sorted(per_act[a], key=lambda u: u.slot)
        if md.opts:
            types = tuple(sorted(u.bit for u in mine))
            o = next((o for sl, o in md.opts if sl == types), md.opts[0][1])
        elif md.pick[0][0] == 0:
            o = md.pick[0][1]
        else:
            o = next((o for b, o in md.pick if b == mine[0].bit), md.pick[0][1])
        option.append(o)
    spend: list[tuple[tuple[object, ...], int, tuple[object, ...], int]] = []
    for unit in units:
        i, _m = acts[unit.act]
        k = modes[i].k
        o = option[unit.act]
        opt = sup.classes[k].options[o]
        dst = unit.dst
        if dst is None:
            continue
        if dst[0] == "cost":
            ca = int(str(dst[1]))
            ci, _cm = acts[ca]
            dst = ("cost", modes[ci].k, option[ca], modes[ci].need)
        if modes[i].opts:
            slot_mask = unit.bit
        elif modes[i].pick[0][0] == 0:
            slot_mask = opt.slots[unit.slot]
        else:
            slot_mask = opt.slots[0]
        spend.append((("act", k, o, slot_mask), unit.bit, dst, 1))
    sol_acts = [(modes[i].k, m, option[a]) for a, (i, m) in enumerate(acts)]
    return Solution(fi, x, sol_acts, spend)
