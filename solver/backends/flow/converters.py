"""The converter search: the least missing mana of a cost when converters (abilities whose cost is
mana and nothing else: Signets, filter lands) are activated, each paid from mana made before it
(CR 601.2g, 605.3: never its own).

Every choice of how many members of each class take each mode is tried, bounded above and below by
staged flows (:mod:`~manasolver.solver.backends.flow.staged`), and a choice whose bounds differ is
decided over the orders of its activations; past :data:`CONVERTER_CHOICES`, :data:`CONVERTER_ORDERS`
or :data:`CONVERTER_FLOWS`, or the query's deadline, it declines and the CP-SAT slack model answers.
It decides payability both ways on boards the flow's units leave converters out of.
"""

from __future__ import annotations

from math import comb

from manasolver.solver import budget
from manasolver.solver.backends.flow.modes import Mode, class_modes, kept_modes
from manasolver.solver.backends.flow.rooms import fodder_room, life_room
from manasolver.solver.backends.flow.staged import Source, staged
from manasolver.solver.backends.flow.units import ShapeRows
from manasolver.solver.backends.problem import Problem
from manasolver.solver.casting.announce import Form
from manasolver.solver.supply.model import class_types

__all__ = ["CONVERTER_CHOICES", "CONVERTER_FLOWS", "CONVERTER_ORDERS", "converter_shortfall"]


#: Choices of how many members of each class activate which converter, tried at most.
CONVERTER_CHOICES = 256
#: Orders of converter activations tried at most, over all choices, where the bounds differ.
CONVERTER_ORDERS = 120
#: Flows the converter search computes at most (choices, or orders, times forms): beyond, as past the
#: query's deadline, it declines and the CP-SAT slack model answers.
CONVERTER_FLOWS = 256


#: A unit row of the converter search: ``(mask, snow, count, whether it may pay converters' costs)``
#: (convoke, improvise and delve pay the spell alone).
Unit = tuple[int, bool, int, bool]
#: One converter activation: ``(slots, snow, cost demand masks, node)``; ``node`` is the class
#: of a repeatable ability (Nomadic Elf), -1 for an exclusive one.
Act = tuple[tuple[int, ...], bool, list[int], int]
#: The key a shortfall is ranked by: (total, colored part, the shortfall per demand).
Ranked = tuple[int, int, dict[tuple[object, ...], int]]


def converter_shortfall(problem: Problem) -> dict[tuple[object, ...], int] | None:
    """The least missing mana per demand (smallest total, then most of it generic) of an unpayable
    problem whose sources are plain but for converters: exclusive abilities whose cost is mana and
    nothing else (Signets, filter lands, Crypt of the Eternals), paid from mana made before them
    (CR 601.2g, 605.3: never their own), and members choosing among several free options that add
    more than one mana (Coveted Jewel).  Options paying life or energy count as free ones when
    :func:`~.rooms.life_room` allows, free repeatable ones as :func:`~.wide.wide_units` counts
    them; convoke, improvise and delve as :func:`~.assisted.assisted_units` counts them, paying the
    spell alone (an assisting member of a class with converters is one more way for it to be used).
    ``None`` when it declines.

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
            found = kept_modes(options, problem.spell_ok[k], life_ok)
        else:
            if costly is None:
                costly = frozenset().union(*(class_types(problem.req.state, c) for c in sup.classes
                                             if any(not opt.free for opt in c.options)))
            found = class_modes(options, problem.spell_ok[k], life_ok, costly, fodder_ok)
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
    decline).  As :func:`~.assisted.assisted_units`: a creature convokes for {1} or one mana of its
    colors (CR 702.51a), an artifact improvises for {1} (702.126a), a card delve exiles pays {1}
    (702.66a)."""
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


def _compositions(n: int, parts: int) -> list[tuple[int, ...]]:
    """Every way to write ``n`` as an ordered sum of ``parts`` counts."""
    if parts == 1:
        return [(n,)]
    return [(k, *rest) for k in range(n + 1) for rest in _compositions(n - k, parts - 1)]


def _product(picks: list[list[tuple[int, ...]]]) -> list[list[tuple[int, ...]]]:
    """Every choice of one pick from each list of ``picks``, in order (their product)."""
    out: list[list[tuple[int, ...]]] = [[]]
    for options in picks:
        out = [prefix + [p] for prefix in out for p in options]
    return out


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
    smaller colored part)?  A flow paying the converters' costs in full (:func:`~.staged.staged`) leaves
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
        short = staged(sources, costs, form, x)
        if short is None:
            continue
        total = sum(short.values())
        key = (total, total - short.get(("generic",), 0), short)
        if best is None or key[:2] < best[:2]:
            best = key
    return best
