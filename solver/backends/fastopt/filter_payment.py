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

Floating mana enters as units of its type (:data:`POOL` marks the firing order's units taken
from it).  What the cost takes of it is what the search counted: the least (``min_waste``
first: pool units are left out while the rest still pays, so each one kept is needed), or
the most (``use_pool`` first: the activations' units are left out likewise); every unit
kept is then spent by the transport, or the set kept was not the least that pays.
"""

from __future__ import annotations

from dataclasses import dataclass

from manasolver.solver.backends.matching import UnitKind, hall_ok, transport
from manasolver.solver.backends.problem import Problem, Solution, lowest_bit
from manasolver.solver.casting.announce import Form

__all__ = ["POOL", "ConverterMode", "converter_solution", "pool_direction"]

#: The flag of a unit of floating mana in the converter search's keys (above every type bit).
POOL = 1 << 8


def pool_direction(criteria: tuple[str, ...]) -> int:
    """Which way a payment's floating mana counts once its activations are fixed (its waste
    is ``net - total + spent``, its pool left ``pool - spent``): 1 when ``min_waste`` comes
    first (the least spent), -1 when ``use_pool`` does (the most), 0 when neither is asked."""
    waste = criteria.index("min_waste") if "min_waste" in criteria else len(criteria)
    left = criteria.index("use_pool") if "use_pool" in criteria else len(criteria)
    if waste == left:
        return 0
    return 1 if waste < left else -1


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
                       order: list[tuple[int, int]], direction: int = 0) -> Solution | None:
    """The payment of a count vector along the firing order found, the floating mana spent
    the least (``direction`` 1), the most (-1) or as it comes (0)."""
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
    pool_left: dict[int, int] = dict(sup.pool)
    pool_spend: list[tuple[int, tuple[object, ...], int]] = []  # (bit, destination, count)
    for i, m in order:
        if m & POOL:
            pool_left[m & ~POOL] -= 1
            pool_spend.append((m & ~POOL, ("cost", activate(i)), 1))
            continue
        u = by_mask[m].pop()
        a = activate(i)
        units[u].bit = lowest_bit(m & modes[i].need)
        units[u].dst = ("cost", a)
    kinds = [mask for mask, left in by_mask.items() if left]
    have = [len(by_mask[mask]) for mask in kinds]
    bits = [bit for bit, left in pool_left.items() if left]
    floating = [pool_left[bit] for bit in bits]
    if direction > 0:
        _least(floating, bits, have, kinds, form, x)
    elif direction < 0:
        _least(have, kinds, floating, bits, form, x)
    rows = transport([(mask, False, n) for mask, n in zip(kinds, have)]
                     + [(bit, False, n) for bit, n in zip(bits, floating)], form, x)
    if rows is None:
        return None
    for ui, dkey, bit, n in rows:
        if ui >= len(kinds):
            pool_spend.append((bits[ui - len(kinds)], dkey, n))
            continue
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
    for bit, dst, n in pool_spend:
        if dst[0] == "cost":
            ca = int(str(dst[1]))
            ci, _cm = acts[ca]
            dst = ("cost", modes[ci].k, option[ca], modes[ci].need)
        spend.append((("pool", bit), bit, dst, n))
    sol_acts = [(modes[i].k, m, option[a]) for a, (i, m) in enumerate(acts)]
    return Solution(fi, x, sol_acts, spend)


def _least(counts: list[int], masks: list[int], other: list[int], other_masks: list[int], form: Form,
           x: int) -> None:
    """Lower ``counts`` (units of ``masks``) one unit at a time while they and ``other`` still
    pay ``form`` (Hall's condition): what is left is a least set of them that pays, and all
    such sets are equally large (the bases of a contraction of the transversal matroid)."""
    fixed: list[UnitKind] = [(m, False, n, 0, ()) for m, n in zip(other_masks, other) if n]
    generic = form.generic(x)
    for i in range(len(counts)):
        while counts[i]:
            counts[i] -= 1
            rest: list[UnitKind] = [(m, False, n, 0, ()) for m, n in zip(masks, counts) if n]
            if not hall_ok(fixed + rest, form, generic):
                counts[i] += 1
                break
