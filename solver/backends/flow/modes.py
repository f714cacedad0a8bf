"""What the converter search reads of one member of a class: its plain rows, free repeatable rows,
modes and repeatable converter (:data:`ClassModes`).

A mode is a way a member may activate beside its plain rows: a converter (an exclusive option whose
cost is mana and nothing else: Signets, filter lands), a free option adding more than one mana among
several (Coveted Jewel), or restricted mana (CR 106.6).  A repeatable converter is one ability whose
options each add one mana for the same mana cost (Nomadic Elf's {1}{G}).  Where no option adds
restricted mana, a card in one state has the same modes on every board, so they are kept in its
``Options`` (``modes``); ``None`` is a member whose options the search does not model.
"""

from __future__ import annotations

from manasolver.models.rules.ability_scope import ability_scope, scope_pays
from manasolver.models.symbols import TYPE_BITS
from manasolver.solver.backends.flow.units import ShapeRows, exclusive_rows
from manasolver.solver.backends.flow.wide import repeat_rows, usable_options
from manasolver.solver.supply.model import Option, Options

__all__ = ["ClassModes", "Mode", "class_modes", "cost_demands", "kept_modes", "repeatable_converter"]


#: A way a member of a converter class may activate: ``(slots, cost demand masks, whether its mana
#: may pay converters' costs)``; no cost demands for a free option adding several mana among several
#: (Coveted Jewel's colors) and for restricted mana.
Mode = tuple[tuple[int, ...], list[int], bool]
#: What :func:`class_modes` reads of one member: plain rows, free repeatable rows, modes and
#: repeatable converter; ``None`` when some option is not modelled.  Only read, never changed.
ClassModes = tuple[ShapeRows, tuple[tuple[int, int], ...], list[Mode], tuple[int, list[int], int] | None]


def kept_modes(options: Options, ok: tuple[bool, ...], life_ok: bool) -> ClassModes | None:
    """:func:`class_modes` of options none of which adds restricted mana (so the board's
    converters' types are not read), kept in the options object per restriction row and life flag
    (the options of a card in one state are shared by every board's rows)."""
    kept = options.modes
    if kept is None:
        kept = options.modes = {}
    hit: tuple[ClassModes | None] | None = kept.get((ok, life_ok))
    if hit is None:
        hit = kept[(ok, life_ok)] = (class_modes(options, ok, life_ok, frozenset()),)
    return hit[0]


def class_modes(options: Options, ok: tuple[bool, ...], life_ok: bool, costly: frozenset[str],
                fodder_ok: bool = False) -> ClassModes | None:
    """One member's plain rows, free repeatable rows, modes (converters; free options adding more
    than one mana when it has several; restricted mana, which pays this spell when its restriction
    allows it and no converter's cost, CR 106.6) and repeatable converter (``(mask, cost demands,
    times)``: one ability whose options each add one mana for the same mana cost, Nomadic Elf's
    {1}{G}, the mask the union of theirs) for :func:`~.converters.converter_shortfall`; ``None``
    when some option is not modelled there: restricted mana that may pay the cost of an ability of
    a permanent of the types ``costly`` (those of the board's converters) among them.
    ``fodder_ok``: exclusive options that take another permanent or card
    (:func:`~.rooms.fodder_room`) count as options without that cost."""
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
    split = repeatable_converter(options, ok)
    if split is None:
        return None
    ok, converting = split
    repeat, odd = repeat_rows(options, ok)
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
        demands = cost_demands(opt)
        if demands is None or not opt.slots:
            return None
        modes.append((opt.slots, demands, True))
        plain_ok[o] = False
    usable, part = usable_options(options, tuple(plain_ok), life_ok, fodder_ok=fodder_ok)
    rows, odd = exclusive_rows(usable)
    if odd:  # several free options, some adding more than one mana: each of those a mode
        modes += [(opt.slots, [], True) for _, opt in usable if len(opt.slots) > 1]
        rows, odd = exclusive_rows([(o, opt) for o, opt in usable if len(opt.slots) == 1])
    if part or odd:  # pragma: no cover - every exclusive option is a mode or a plain one here
        return None
    return rows, repeat, modes, converting


def repeatable_converter(options: Options, ok: tuple[bool, ...]
                         ) -> tuple[tuple[bool, ...], tuple[int, list[int], int] | None] | None:
    """``ok`` without a member's repeatable converter's options, and that converter (see
    :func:`class_modes`; ``None`` for none); ``None`` for one not modelled."""
    converting = [o for o, opt in enumerate(options) if ok[o] and not opt.exclusive and not opt.free]
    if not converting:
        return ok, None
    first = options[converting[0]]
    demands = cost_demands(first)
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


def cost_demands(opt: Option) -> list[int] | None:
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
