"""Modes: the ways a class of identical permanents (or the pool) can be used.

A *mode* is one way to activate a member of a source class: one option, or several
one-mana options of the class with identical costs merged into one unit of their union
type mask (a dual land's two abilities are one mode making ``{W}`` or ``{U}``).  Each
floating mana type of the pool is a mode of its own (class ``-1``).  The search decides
how many members activate each mode; a class's modes share its members.

:func:`build_modes` turns a supply into modes in search order: the pool first, then the
modes whose activation costs mana (so that every activation cost is known before the free
sources are counted), then the rest in board order.  It declines (``None``) what the
search does not model exactly: non-exclusive options, energy or creature-tapping costs,
activation costs with Phyrexian, snow, variable or hybrid-generic symbols, and restricted
mana that could still pay activation costs.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from manasolver.models.symbols import C, TYPE_BITS
from manasolver.solver.backends.problem import Problem, merged_pick
from manasolver.models.rules.ability_scope import restriction_pays_abilities
from manasolver.models.slots import slot_setters
from manasolver.solver.supply.model import Option, Options, Supply

__all__ = ["GENERIC_COST", "Mode", "build_modes", "cost_kinds", "mode_cap", "pays_ability"]

#: The mask standing for the generic part of an activation's mana cost in :attr:`Mode.costs`.
GENERIC_COST = -2


@dataclass(frozen=True, slots=True, init=False)
class Mode:
    """One way to activate members of class ``k`` (``-1``: a floating mana type)."""

    k: int                 # class index (-1: the pool)
    options: tuple[tuple[int, int], ...]   # (type bit or 0, option index): which option makes a type
    masks: tuple[int, ...]  # unit masks one activation adds
    snow: bool
    sac: int
    life: int               # life paid plus damage taken per activation
    ab_life: int            # life paid per activation (119.4 check)
    nonland: int
    weight: int             # tie-break weight (board position + 1)
    costs: tuple[tuple[int, int], ...] = ()  # its activation's mana cost: (mask, n); mask -2 generic
    pays_ability: bool = True  # its mana may pay an activation's mana cost
    #: (units an activation adds, units its mana cost asks, the unit counts the relaxation's rows
    #: divide by for it: in all, net of its cost, and of each demand kind): filled when the
    #: branch and bound first reads it (:meth:`counts`), never by the large-board paths.
    unit_counts: tuple[int, int, frozenset[int]] | None = field(init=False, repr=False, compare=False,
                                                                default=None)

    def __init__(self, k: int, options: tuple[tuple[int, int], ...], masks: tuple[int, ...], snow: bool, sac: int,
                 life: int, ab_life: int, nonland: int, weight: int, costs: tuple[tuple[int, int], ...] = (),
                 pays_ability: bool = True) -> None:
        # Each field set through its slot (see slot_setters): every class's modes, per query.
        s0, s1, s2, s3, s4, s5, s6, s7, s8, s9, s10, s11 = _MODE_SLOTS
        s0(self, k)
        s1(self, options)
        s2(self, masks)
        s3(self, snow)
        s4(self, sac)
        s5(self, life)
        s6(self, ab_life)
        s7(self, nonland)
        s8(self, weight)
        s9(self, costs)
        s10(self, pays_ability)
        s11(self, None)

    def counts(self) -> tuple[int, int, frozenset[int]]:
        """:attr:`unit_counts`, computed on first reading (a field of this frozen object: two
        threads reading it at once compute the same value, and either write stands)."""
        got = self.unit_counts
        if got is None:
            size = len(self.masks)
            asked = sum(n for _, n in self.costs)
            got = (size, asked, frozenset({size, size - asked}) | kind_counts(self.masks))
            object.__setattr__(self, "unit_counts", got)
        return got


_MODE_SLOTS = slot_setters(Mode)


def kind_counts(masks: tuple[int, ...]) -> frozenset[int]:
    """The units ``masks`` give of each demand kind (every nonempty mask of types): a kind hits
    the units whose masks meet it, so the sums are those of the unions of the types' signatures
    (which units each type is in), a few at most, not 63 masks."""
    seen = Counter(masks)
    units = list(seen.items())
    sigs = set()
    for b in TYPE_BITS:
        sigs.add(sum(1 << i for i, (u, _c) in enumerate(units) if u & b))
    out = set()
    sig_list = sorted(sigs)
    for pick in range(1, 1 << len(sig_list)):
        hit = 0
        for j, sig in enumerate(sig_list):
            if pick >> j & 1:
                hit |= sig
        out.add(sum(c for i, (_u, c) in enumerate(units) if hit >> i & 1))
    return frozenset(out)


def pays_ability(opt: Option) -> bool:
    """May this option's mana pay a mana ability's activation cost (as CP-SAT reads it)?"""
    return restriction_pays_abilities(opt.restriction)


def cost_kinds(opt: Option) -> tuple[tuple[int, int], ...] | None:
    """An option's mana cost as ``(mask, n)`` pairs (:data:`GENERIC_COST`: generic), or
    None if unmodelled."""
    out: dict[int, int] = {}
    for sym in opt.mana_cost.symbols:
        if sym.special:
            continue
        if sym.is_numeral:
            if sym.generic:
                out[GENERIC_COST] = out.get(GENERIC_COST, 0) + sym.generic
            continue
        if sym.phyrexian or sym.snow or sym.variable or sym.generic:
            return None
        mask = sym.colors | (C if sym.colorless else 0)
        out[mask] = out.get(mask, 0) + 1
    return tuple(sorted(out.items()))


def mode_cap(md: Mode, sup: Supply) -> int:
    """How many times ``md`` can be activated at most: its class's members, or the
    floating mana of its type."""
    if md.k < 0:
        return dict(sup.pool)[md.masks[0]]
    return sup.classes[md.k].count


#: A template is a :class:`Mode` without its class, snow, kind and weight.
_Template = tuple[tuple[tuple[int, int], ...], tuple[int, ...], int, int, int, tuple[tuple[int, int], ...], bool]


def _class_templates(options: Options, ok: tuple[bool, ...]) -> tuple[list[_Template], bool, bool] | None:
    """The modes one class's ``options`` make under the spell's restriction row ``ok``:
    templates, whether any activation costs mana, whether restricted mana could pay an
    activation; ``None`` when an option is outside the modelled shape.  Kept in the options
    object per restriction row (the options of a card in one state are shared by every board)."""
    templates = options.templates
    if templates is None:
        templates = options.templates = {}
    hit: tuple[tuple[list[_Template], bool, bool] | None] | None = templates.get(ok)
    if hit is not None:
        return hit[0]
    out = _class_templates_of(options, ok)
    templates[ok] = (out,)
    return out


def _class_templates_of(options: tuple[Option, ...], ok: tuple[bool, ...]) -> tuple[list[_Template], bool, bool] | None:
    """:func:`_class_templates`, computed."""
    usable = [(o, opt) for o, opt in enumerate(options) if ok[o]]
    restricted = False
    for o, opt in enumerate(options):
        if not opt.exclusive or opt.energy or opt.tap_creatures:
            return None
        if not ok[o] and pays_ability(opt):
            restricted = True
    costly = False
    out: list[_Template] = []
    groups: dict[tuple[int, int, int, bool], list[tuple[int, Option]]] = {}
    for o, opt in usable:
        if len(opt.slots) == 1 and opt.free:
            key = (int(opt.sacrifice), opt.life + opt.damage, opt.life, pays_ability(opt))
            groups.setdefault(key, []).append((o, opt))
            continue
        costs = cost_kinds(opt)
        if costs is None:
            return None
        if costs:
            costly = True
        out.append((((0, o),), opt.slots, int(opt.sacrifice), opt.life + opt.damage, opt.life, costs,
                    pays_ability(opt)))
    for (sac, life, ab_life, pays), members in sorted(groups.items()):
        mask, pick = merged_pick(members)
        out.append((tuple(pick), (mask,), sac, life, ab_life, (), pays))
    return out, costly, restricted


def build_modes(problem: Problem) -> tuple[list[Mode], bool] | None:
    """The supply's modes in search order and whether any activation costs mana; ``None``
    when a class is outside the modelled shape (see the module docstring).

    One-mana options with identical costs merge into one mode of their union mask;
    every other option is a mode of its own."""
    sup = problem.supply
    modes: list[Mode] = []
    for bit, _n in sup.pool:
        modes.append(Mode(-1, ((bit, -1),), (bit,), False, 0, 0, 0, 0, 0))
    costly = False
    restricted_ability_mana = False
    for k, cls in enumerate(sup.classes):
        made = _class_templates(cls.options, tuple(problem.spell_ok[k]))
        if made is None:
            return None
        templates, class_costly, restricted = made
        costly = costly or class_costly
        restricted_ability_mana = restricted_ability_mana or restricted
        if not templates:
            continue
        nonland = 0 if cls.kind == "land" else 1
        weight = cls.positions[0] + 1
        made_here = [Mode(k, pick, masks, cls.snow, sac, life, ab_life, nonland, weight, costs, pays)
                     for pick, masks, sac, life, ab_life, costs, pays in templates]
        modes.extend(made_here)
    if costly and restricted_ability_mana:
        return None  # restricted mana that could still pay activations: CP-SAT decides
    modes.sort(key=lambda md: (md.k >= 0, not md.costs, md.weight, len(md.masks)))
    return modes, costly

