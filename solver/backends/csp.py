"""Enumeration backend: every distinct payment of a request (python-constraint2, imported lazily).

``payments(req, limit)`` answers SPEC §5 ``payments``: a list of
:class:`~manasolver.solver.payment.Payment` and whether the list is complete.

What "distinct" means: two payments differ when their activations (which
permanent, which ability, what mana it added), their announced choices (601.2b),
the pool mana they use, their total or their floating mana differ — never by
the order of the activations.  Only *irredundant* payments are listed: a
payment with an activation that could be dropped (same total, choices and pool
mana used) and still pay is not "a way to pay" but a way to pay plus floating
mana for nothing; otherwise the list would grow with every untapped land.

How: for each concrete total of the request (:mod:`~manasolver.solver.backends.csp_totals`:
every announcement times every way the modifiers apply, choices kept apart), the sources come
from the grouped supply (:func:`manasolver.solver.supply.build.build_supply`), one CSP variable per
permanent (its domain: nothing, or one concrete production of one of its
options) and one per type of floating mana (how much of it is used); each permanent a
"sacrifice a creature/artifact" option may take gets one more variable, its *fodder slot*
(nothing, or one such activation sacrificing it: CR 701.21a, once each).  A
constraint that sees partial assignments prunes, and hides the values of
unassigned sources that would break it (forward checking): activations may not
outnumber the mana they must spend, every typed and snow demand must stay
coverable by what is assigned plus the best the unassigned sources could still
add, life and energy must stay payable (119.4, 107.14).  Sources whose abilities
cost mana are decided first, "not activated" first.  Each complete assignment is checked
by an exact matching of units to demands (``{C}`` only colorless, ``{S}`` only
snow, restrictions, an activation's mana cost only from mana made before it),
then for irredundancy.

Bounds, never a hang: at most ``limit`` payments; a ``time_limit`` checked inside
the constraint, so the compiled search unwinds at once when it is reached
(timer signals do not reach it, SPEC §8); ``complete`` is false whenever the
list may miss payments — a bound hit, a permanent the supply model excluded,
a repeatable ability (except Altars and tapping costs such as Heritage Druid's, which
get one slot per activation), or convoke, delve or improvise allowed (not enumerated
here).  Cards in the hand with "Exile ~ from your hand: Add …" are sources like
permanents (the card being cast excepted, 601.2a).
"""

from __future__ import annotations

import dataclasses
import itertools
import time
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from manasolver.models.errors import BadQuery
from manasolver.models.symbols import TYPE_BITS, C
from manasolver.solver.backends.csp_totals import Total, concrete_totals, type_text
from manasolver.solver.backends.problem import activation_of, sacrifices_last
from manasolver.solver.payment import Payment
from manasolver.solver.request import PaymentRequest
from manasolver.solver.supply.build import build_supply
from manasolver.solver.supply.model import (
    Option,
    SourceClass,
    Supply,
    restriction_allows,
    restriction_pays_abilities,
)
from manasolver.solver.supply.resources import reserved_ids, without_cast_card

__all__ = ["DEFAULT_LIMIT", "DEFAULT_TIME_LIMIT", "CspBackend", "payments"]

DEFAULT_LIMIT = 100
#: Seconds the enumeration may run before it stops and says ``complete: false``.
DEFAULT_TIME_LIMIT = 2.0


def _bits(mask: int) -> list[int]:
    return [b for b in TYPE_BITS if mask & b]




# -- sources --------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Prod:
    """One concrete activation of one permanent: the option and the type of each slot."""

    k: int
    member: int
    o: int
    opt: Option
    mana: tuple[int, ...]
    snow: tuple[bool, ...]  # per unit of ``mana``: is it snow (107.4h; Wild Growth's is not)
    spell_ok: bool
    sacrificed: str = ""
    tapped: tuple[str, ...] = ()
    slot: int = 0

    @property
    def cost_units(self) -> int:
        return sum(s.generic if s.is_numeral else 1 for s in self.opt.mana_cost.symbols if not s.special)


def _concrete(k: int, j: int, o: int, opt: Option, snow: bool, ok: bool) -> list[_Prod]:
    """Every concrete production of one option of member ``j`` of class ``k`` (``snow``: the
    class's flag; a snow member's nonsnow triggered mana keeps its own flag per unit)."""
    out: list[_Prod] = []
    seen: set[tuple[tuple[int, bool], ...]] = set()
    flags = [opt.slot_snow(i, snow) for i in range(len(opt.slots))]
    for bits in itertools.product(*(_bits(s) for s in opt.slots)):
        key = tuple(sorted(zip(bits, flags), key=lambda u: (TYPE_BITS.index(u[0]), not u[1])))
        if key not in seen:
            seen.add(key)
            out.append(_Prod(k, j, o, opt, tuple(b for b, _ in key), tuple(f for _, f in key), ok))
    return out


def _productions(supply: Supply, req: PaymentRequest) -> tuple[list[tuple[str, int, list[_Prod]]], bool]:
    """Per permanent: (id, board position, concrete productions); and whether every option was taken.

    A permanent a "sacrifice a <type>" option may take (:attr:`Supply.fodder`) gets one more
    entry, its *fodder slot*: nothing, or one activation of such an option (by any member of
    any class having it) that sacrifices it — so each is sacrificed at most once and an Altar
    activates once per permanent it sacrifices (CR 701.21a)."""
    has_x = bool(req.cost.variables)
    out: list[tuple[str, int, list[_Prod]]] = []
    whole = True
    altar: dict[str, list[_Prod]] = {}  # sacrifice type -> activations without their fodder
    tappers: list[tuple[str, int, list[_Prod], list[str]]] = []  # id, position, activations, able

    def able(opt: Option) -> list[str]:
        return [m for g in supply.tappable if set(opt.tap_types) & g.matches for m in g.members]

    for k, cls in enumerate(supply.classes):
        for j, pid in enumerate(cls.members):
            prods: list[_Prod] = []
            for o, opt in enumerate(cls.options):
                ok = restriction_allows(opt.restriction, req.spell, has_x)
                if opt.tap_creatures:
                    these = _concrete(k, j, o, opt, cls.snow, ok)
                    if opt.exclusive:  # Springleaf Drum: its one activation, with what it taps
                        prods.extend(dataclasses.replace(p, tapped=group) for p in these
                                     for group in itertools.combinations(sorted(able(opt)), opt.tap_creatures))
                    else:  # Heritage Druid: one slot per activation it could make
                        tappers.append((pid, cls.positions[j], these, sorted(able(opt))))
                    continue
                if opt.sacrifice_other:
                    if opt.exclusive or len(opt.sacrifice_other) > 1:
                        whole = False  # not enumerated: {T} with a sacrifice, several sacrifices
                        continue
                    altar.setdefault(opt.sacrifice_other[0], []).extend(
                        _concrete(k, j, o, opt, cls.snow, ok))
                    continue
                if not opt.exclusive:
                    whole = False  # repeatable abilities are not enumerated
                    continue
                prods.extend(_concrete(k, j, o, opt, cls.snow, ok))
            if prods:
                out.append((pid, cls.positions[j], prods))
    for grp in supply.fodder:
        for pid, pos in zip(grp.members, grp.positions):
            slot = [dataclasses.replace(p, sacrificed=pid) for what in sorted(grp.matches)
                    for p in altar.get(what, [])]
            if slot:
                out.append((pid, pos, slot))
    for pid, pos, these, ids in tappers:
        n = these[0].opt.tap_creatures
        groups = list(itertools.combinations(ids, n))
        for a in range(len(ids) // n):
            out.append((pid, pos, [dataclasses.replace(p, tapped=g, slot=a) for p in these for g in groups]))
    out.sort(key=lambda t: (t[1], bool(t[2][0].sacrificed), t[2][0].slot))
    return out, whole


def _taps_ok(chosen: list[_Prod], ids: dict[tuple[int, int], str]) -> bool:
    """Each permanent tapped once (its own {T} or one cost), and the activations of one
    repeatable tapping ability counted once (slots filled in order, tapped groups increasing)."""
    seen: set[str] = set()
    last: dict[tuple[int, int, int], tuple[int, tuple[str, ...]]] = {}
    for p in chosen:
        own = (ids[(p.k, p.member)],) if p.opt.tap else ()
        for pid in p.tapped + own:
            if pid in seen:
                return False
            seen.add(pid)
        if p.tapped and not p.opt.exclusive:
            key = (p.k, p.member, p.o)
            prev = last.get(key, (-1, ()))
            if p.slot != prev[0] + 1 or (prev[1] and p.tapped <= prev[1]):
                return False
            last[key] = (p.slot, p.tapped)
    return True


def _sacrifices_ok(chosen: list[_Prod], ids: dict[tuple[int, int], str]) -> bool:
    """No permanent sacrificed by itself and by an Altar, and no circle of sacrifices: each
    sacrificed permanent's own activations must come before the one sacrificing it."""
    gone = {p.sacrificed for p in chosen if p.sacrificed}
    if not gone:
        return True
    if any(p.opt.sacrifice and ids[(p.k, p.member)] in gone for p in chosen):
        return False
    left = list(range(len(chosen)))
    while left:
        for i in left:
            who = chosen[i].sacrificed
            if not who or all(j == i or ids[(chosen[j].k, chosen[j].member)] != who for j in left):
                left.remove(i)
                break
        else:
            return False
    return True


# -- exact cover ------------------------------------------------------------------------------


def _pays_ability(p: _Prod) -> bool:
    return restriction_pays_abilities(p.opt.restriction)


def _cover(total: Total, chosen: list[_Prod], pool_used: Counter[int],
           floating: Counter[int] | None) -> bool:
    """Is there an exact assignment: every demand (the total, every activation's mana cost,
    and ``floating`` when given) takes a distinct unit, every pool unit is used, and every
    produced unit is used when ``floating`` is given?  Some order of the activations that
    cost mana must let each be paid by mana made before it (601.2g)."""
    units: list[tuple[int, bool, bool, bool, int]] = []  # bit, snow, pays spell, pays ability, maker
    for b, n in pool_used.items():
        units += [(b, False, True, True, -1)] * n
    for i, p in enumerate(chosen):
        units += [(b, sn, p.spell_ok, _pays_ability(p), i) for b, sn in zip(p.mana, p.snow)]
    demands: list[tuple[str, int, int]] = []
    for b, n in total.typed:
        demands += [("t", b, -1)] * n
    demands += [("s", 0, -1)] * total.snow + [("g", 0, -1)] * total.generic
    costly = [i for i, p in enumerate(chosen) if p.opt.mana_cost]
    for i in costly:
        for s in chosen[i].opt.mana_cost.symbols:
            if s.special:
                continue
            if s.is_numeral:
                demands += [("g", 0, i)] * s.generic
            else:
                demands.append(("t", s.colors | (C if s.colorless else 0), i))
    if floating is not None:
        for b, n in floating.items():
            demands += [("f", b, -2)] * n
        if len(demands) != len(units):
            return False
    elif len(demands) > len(units):
        return False
    pool_n = sum(pool_used.values())
    orders = itertools.permutations(costly) if costly else [()]
    for order in orders:
        rank = {i: r for r, i in enumerate(order)}
        if _match(units, demands, rank, pool_n):
            return True
    return False


def _match(units: list[tuple[int, bool, bool, bool, int]], demands: list[tuple[str, int, int]],
           rank: dict[int, int], pool_n: int) -> bool:
    def ok(u: tuple[int, bool, bool, bool, int], d: tuple[str, int, int]) -> bool:
        bit, snow, spell_ok, ability_ok, maker = u
        kind, mask, payer = d
        if kind == "f":
            return maker >= 0 and bit == mask
        if payer >= 0:
            if maker == payer or (maker in rank and rank[maker] > rank[payer]) or not ability_ok:
                return False
        elif not spell_ok:
            return False
        if kind == "t":
            return bool(bit & mask)
        if kind == "s":
            return snow
        return True

    adj = [[j for j, u in enumerate(units) if ok(u, d)] for d in demands]
    if not _saturates(adj, len(units)):
        return False
    if not pool_n:
        return True
    # Every pool unit said used must be spent too.  By the Mendelsohn–Dulmage theorem a
    # matching covering all demands and one covering all pool units give one covering both.
    back: list[list[int]] = [[] for _ in range(pool_n)]
    for i, js in enumerate(adj):
        for j in js:
            if j < pool_n:
                back[j].append(i)
    return _saturates(back, len(demands))


def _saturates(adj: list[list[int]], n_right: int) -> bool:
    """Kuhn's augmenting paths: does some matching cover every left vertex?"""
    owner: list[int] = [-1] * n_right

    def augment(i: int, seen: list[bool]) -> bool:
        for j in adj[i]:  # a free vertex first: most take one without a path
            if owner[j] < 0 and not seen[j]:
                seen[j] = True
                owner[j] = i
                return True
        for j in adj[i]:
            if seen[j]:
                continue
            seen[j] = True
            if augment(owner[j], seen):
                owner[j] = i
                return True
        return False

    for i in sorted(range(len(adj)), key=lambda i: len(adj[i])):
        if not augment(i, [False] * n_right):
            return False
    return True


# -- the enumeration ----------------------------------------------------------------------------


def payments(req: PaymentRequest, limit: int = DEFAULT_LIMIT, time_limit: float = DEFAULT_TIME_LIMIT,
             supply: Supply | None = None) -> tuple[list[Payment], bool]:
    """Every distinct irredundant payment of ``req`` (at most ``limit``) and whether the list
    is complete.  X is ``req.x`` (0 when unset, the smallest legal X of SPEC §5)."""
    from constraint import FunctionConstraint, OptimizedBacktrackingSolver, Problem

    if limit < 0:
        raise BadQuery(f"limit must be 0 or more, not {limit}", "limit")
    if req.x is not None and req.x < 0:
        raise BadQuery(f"x must be 0 or more, not {req.x}", "x")
    deadline = time.monotonic() + time_limit
    sup = supply if supply is not None else without_cast_card(
        build_supply(req.state, req.player, resources=True, reserved=reserved_ids(req)), req.spell)
    x = req.x or 0
    sources, whole = _productions(sup, req)
    ids = {(k, j): m for k, cls in enumerate(sup.classes) for j, m in enumerate(cls.members)}
    pos = {(k, j): p for k, cls in enumerate(sup.classes) for j, p in enumerate(cls.positions)}
    # Convoke, delve and improvise are other ways of paying that this backend does not list.
    complete = whole and not sup.excluded and not (req.convoke or req.delve or req.improvise)
    pool = dict(sup.pool)
    found: dict[Payment, tuple[object, ...]] = {}
    candidate: tuple[Total, list[_Prod], Counter[int]] | None = None
    timed_out = False
    totals = concrete_totals(req, x)
    for total in totals:
        if timed_out or len(found) > limit:
            break
        if total.life and total.life > sup.life:
            continue
        if total.energy > sup.energy:
            continue
        names = [f"src{i}" for i in range(len(sources))]
        pool_names = [f"pool{b}" for b in pool]
        problem = Problem(OptimizedBacktrackingSolver())
        costly_names = []
        for name, (_, _, prods) in zip(names, sources):
            if any(pr.opt.mana_cost for pr in prods):
                # Sources whose abilities cost mana (Signets, filter lands) are decided first and
                # "not activated" is tried first (the solver pops values from the end): while they
                # are unassigned, the bound below must allow for their costs and is weak.
                problem.addVariable(name, list(range(len(prods))) + [-1])
                costly_names.append(name)
            else:
                problem.addVariable(name, list(range(-1, len(prods))))
        for name, b in zip(pool_names, pool):
            problem.addVariable(name, list(range(pool[b] + 1)))
        tbits = [b for b, _ in total.typed]
        tneed = [n for _, n in total.typed]
        k_t = len(tbits)
        # Per source and value: (cost units, units, snow units, life, energy, damage, typed counts);
        # per source: the optimistic bound while unassigned (the most of each).
        info: list[list[tuple[int, int, int, int, int, int, tuple[int, ...]]]] = []
        opt_b: list[tuple[int, int, int, tuple[int, ...]]] = []
        for _, _, prods in sources:
            rows = []
            for p in prods:
                cnt = tuple(p.mana.count(b) for b in tbits)
                rows.append((p.cost_units, len(p.mana), sum(p.snow), p.opt.life,
                             p.opt.energy, p.opt.damage, cnt))
            info.append(rows)
            opt_b.append((max(r[0] for r in rows), max(r[1] for r in rows), max(r[2] for r in rows),
                          tuple(max(r[6][j] for r in rows) for j in range(k_t))))
        budget = _budget_class()(total, info, opt_b, tneed, names, pool, pool_names, sup.life, sup.energy,
                                 deadline)

        all_names = names + pool_names
        if all_names:
            problem.addConstraint(budget, all_names)
        if costly_names and len(all_names) > 1:
            # A second (always true) constraint raises their degree: python-constraint's solver
            # orders variables by degree first, so these are assigned before the others.  (A
            # one-variable constraint would be folded into the domain by preProcess.)
            extra = costly_names if len(costly_names) > 1 else costly_names + [
                next(n for n in all_names if n != costly_names[0])]
            problem.addConstraint(FunctionConstraint(_always), extra)
        solutions = problem.getSolutionIter() if all_names else iter([{}])
        for sol in solutions:
            chosen = [sources[i][2][sol[n]] for i, n in enumerate(names) if sol[n] >= 0]
            used = Counter({b: sol[n] for b, n in zip(pool, pool_names) if sol[n]})
            if not _sacrifices_ok(chosen, ids) or not _taps_ok(chosen, ids):
                continue
            if not found and candidate is None:
                candidate = (total, chosen, used)
            for pay in _payments_of(total, chosen, used, sup.classes, pos, x, req.ability_life):
                if pay not in found:
                    found[pay] = ()
                    if len(found) > limit:
                        break
            if len(found) > limit or time.monotonic() > deadline:
                break
        if budget.timed_out or time.monotonic() > deadline:
            timed_out = True
    if not found and timed_out and candidate is not None:
        # Cut short before a first irredundant payment: the first assignment the search
        # reached, with what it need not activate left out, is one (never an empty list for
        # a payable cost the search got to).
        total, chosen, used = candidate
        kept = _pruned(total, chosen, used, time.monotonic() + max(0.25, time_limit / 4))
        if kept is not None and _sacrifices_ok(kept, ids) and _taps_ok(kept, ids):
            for pay in _payments_of(total, kept, used, sup.classes, pos, x, req.ability_life):
                found[pay] = ()
                break
    out = list(found)[:limit]
    complete = complete and not timed_out and len(found) <= limit
    out.sort(key=_order_key)
    return out, complete


def _always(*_values: object) -> bool:
    return True


_BUDGET: list[Any] = []


def _budget_class() -> Any:
    """The pruning constraint, a subclass of python-constraint's ``Constraint`` (imported lazily)."""
    if _BUDGET:
        return _BUDGET[0]
    from constraint import Constraint

    class Budget(Constraint):  # type: ignore[misc]
        """Necessary conditions on partial assignments, with forward checking (STYLE practice:
        constraints that prune their own domains): activations may not outnumber the units they
        must spend (each activation of an irredundant payment spends at least one), every typed
        and snow demand stays coverable, life and energy stay payable (119.4, 107.14).  Values of
        unassigned sources that would break these are hidden from their domains."""

        def __init__(self, total: Total, info: list[list[tuple[int, int, int, int, int, int, tuple[int, ...]]]],
                     opt: list[tuple[int, int, int, tuple[int, ...]]], tneed: list[int], names: list[str],
                     pool: dict[int, int], pool_names: list[str], life: int, energy: int,
                     deadline: float) -> None:
            self.total, self.info, self.opt, self.tneed = total, info, opt, tneed
            self.names, self.pool, self.pool_names = names, pool, pool_names
            self.life, self.energy, self.deadline = life, energy, deadline
            self.k = len(tneed)
            self.fc = sum(o[0] for o in opt)
            self.have = sum(o[1] for o in opt)
            self.snow = sum(o[2] for o in opt)
            self.typed = [sum(o[3][j] for o in opt) for j in range(self.k)]
            bits = [b for b, _ in total.typed]
            self.pool_t = [[1 if b == tb else 0 for tb in bits] for b in pool]
            self.calls = 0
            self.timed_out = False

        def __call__(self, variables: Any, domains: Any, assignments: Any, forwardcheck: Any = False) -> bool:
            if self.timed_out:
                return False
            self.calls += 1
            if self.calls & 63 == 0 and time.monotonic() > self.deadline:
                self.timed_out = True
                return False
            k, tneed = self.k, self.tneed
            acts = life = energy = damage = 0
            need = self.total.units
            future_cost, have, snow_have = self.fc, self.have, self.snow
            optimistic = list(self.typed)
            got = [0] * k
            free: list[int] = []
            for i, name in enumerate(self.names):
                v = assignments.get(name)
                if v is None:
                    free.append(i)
                    continue
                o = self.opt[i]
                future_cost -= o[0]
                have -= o[1]
                snow_have -= o[2]
                for j in range(k):
                    optimistic[j] -= o[3][j]
                if v < 0:
                    continue
                c, u, sn, lf, en, dm, cnt = self.info[i][v]
                acts += 1
                need += c
                have += u
                snow_have += sn
                life += lf
                energy += en
                damage += dm
                for j in range(k):
                    got[j] += cnt[j]
            pool_got = [0] * k
            for kk, name in enumerate(self.pool_names):
                v = assignments.get(name)
                n = self.pool[list(self.pool)[kk]] if v is None else v
                have += n
                for j in range(k):
                    if self.pool_t[kk][j]:
                        pool_got[j] += n
            if acts > need or have < need:
                return False
            uncovered = 0
            for j in range(k):
                if tneed[j] > got[j]:
                    uncovered += tneed[j] - got[j]
                if got[j] + pool_got[j] + optimistic[j] < tneed[j]:
                    return False
            if acts + uncovered > need + future_cost or snow_have < self.total.snow:
                return False
            tl = self.total.life
            if life > self.life or energy + self.total.energy > self.energy:
                return False
            if tl and self.life - life - damage < tl:
                return False
            if forwardcheck:
                for i in free:
                    dom = domains[self.names[i]]
                    fc2 = future_cost - self.opt[i][0]
                    for v in dom[:]:
                        if v < 0:
                            continue
                        c, u, sn, lf, en, dm, cnt = self.info[i][v]
                        unc = 0
                        for j in range(k):
                            left = tneed[j] - got[j] - cnt[j]
                            if left > 0:
                                unc += left
                        if (acts + 1 + unc > need + c + fc2 or life + lf > self.life
                                or energy + en + self.total.energy > self.energy
                                or (tl and self.life - life - lf - damage - dm < tl)):
                            dom.hideValue(v)
                    if not dom:
                        return False
            return True

    _BUDGET.append(Budget)
    return Budget


def _order_key(p: Payment) -> tuple[object, ...]:
    return (len(p.activations), p.life + p.damage, len(p.floating), p.total,
            tuple((a.permanent, a.ability, a.mana) for a in p.activations),
            tuple((c.symbol, c.paid_as) for c in p.choices), p.pool_used, p.floating)


def _plain_removable(total: Total, chosen: list[_Prod], used: Counter[int]) -> int | None:
    """The index of an activation of ``chosen`` that could be left out with the total still
    covered, ``-1`` when none can (or ``chosen`` does not cover it), ``None`` when an activation
    costs mana or pool mana is used (then :func:`_cover` decides each case).

    One matching of the demands into the produced units, then per activation only the
    demands it served are matched again without its units (Kuhn's augmenting paths from a
    matching: a demand that can't be re-matched now never can be), instead of a new
    matching per activation: a 150-activation payment is checked in milliseconds."""
    if sum(used.values()) or any(p.opt.mana_cost for p in chosen):
        return None
    units: list[tuple[int, bool, int]] = []  # bit, snow, maker (spell-restricted units left out)
    for i, p in enumerate(chosen):
        if p.spell_ok:
            units += [(b, sn, i) for b, sn in zip(p.mana, p.snow)]
    demands: list[tuple[str, int]] = [("t", b) for b, n in total.typed for _ in range(n)]
    demands += [("s", 0)] * total.snow + [("g", 0)] * total.generic
    adj = [[j for j, (bit, snow, _) in enumerate(units)
            if (bit & mask if kind == "t" else snow if kind == "s" else True)] for kind, mask in demands]
    owner = [-1] * len(units)

    def augment(d: int, seen: list[bool]) -> bool:
        for j in adj[d]:  # a free unit first: most demands take one without a path
            if owner[j] < 0 and not seen[j]:
                seen[j] = True
                owner[j] = d
                return True
        for j in adj[d]:
            if seen[j]:
                continue
            seen[j] = True
            if augment(owner[j], seen):
                owner[j] = d
                return True
        return False

    for d in range(len(demands)):
        if not augment(d, [False] * len(units)):
            return -1  # chosen alone doesn't cover the total
    serving = {u[2] for j, u in enumerate(units) if owner[j] >= 0}
    for i in range(len(chosen)):
        if i not in serving:
            return i  # none of its mana is spent
    full = owner[:]
    for i in range(len(chosen)):
        mine = [j for j, u in enumerate(units) if u[2] == i]
        if len(units) - len(mine) < len(demands):
            continue
        owner[:] = full
        served = [owner[j] for j in mine if owner[j] >= 0]
        blocked = [False] * len(units)
        for j in mine:
            blocked[j] = True
            owner[j] = -1
        if all(augment(d, blocked[:]) for d in served):
            return i
    return -1


def _pruned(total: Total, chosen: list[_Prod], used: Counter[int], deadline: float) -> list[_Prod] | None:
    """``chosen`` with activations left out one at a time until none can be: an irredundant
    set paying the total, or ``None`` (not the plain shape, no cover, or past ``deadline``)."""
    while True:
        i = _plain_removable(total, chosen, used)
        if i is None or time.monotonic() > deadline:
            return None
        if i < 0:
            return chosen if _cover(total, chosen, used, None) else None
        chosen = chosen[:i] + chosen[i + 1:]


def _payments_of(total: Total, chosen: list[_Prod], used: Counter[int], classes: Sequence[SourceClass],
                 pos: dict[tuple[int, int], int], x: int, ability_life: int) -> Iterator[Payment]:
    """The payments with exactly these activations and pool mana: one per floating multiset
    (``ability_life``: the activated ability's own life cost, part of each payment's life)."""
    if not _cover(total, chosen, used, None):
        return
    removable = _plain_removable(total, chosen, used)
    if removable is None:
        redundant = any(_cover(total, chosen[:i] + chosen[i + 1:], used, None) for i in range(len(chosen)))
    else:
        redundant = removable >= 0
    if redundant:
        return  # some activation could be left out
    produced: Counter[int] = Counter(b for p in chosen for b in p.mana)
    n_float = sum(produced.values()) + sum(used.values()) - total.units - sum(p.cost_units for p in chosen)
    if n_float < 0:
        return
    types = sorted(produced)
    ranges = [range(min(produced[b], n_float) + 1) for b in types]
    for counts in itertools.product(*ranges):
        if sum(counts) != n_float:
            continue
        fl = Counter({b: n for b, n in zip(types, counts) if n})
        if not _cover(total, chosen, used, fl):
            continue
        acts = tuple(sacrifices_last([
            activation_of(classes[p.k], p.member, p.opt, type_text(p.mana),
                          (p.sacrificed,) if p.sacrificed else (), p.tapped)
            for p in sorted(chosen, key=lambda p: pos[(p.k, p.member)])]))
        yield Payment(
            total=total.text(), choices=total.choices, x=x, activations=acts,
            pool_used=type_text([b for b, n in used.items() for _ in range(n)]),
            life=ability_life + total.life + sum(p.opt.life for p in chosen),
            energy=total.energy + sum(p.opt.energy for p in chosen),
            damage=sum(p.opt.damage for p in chosen),
            floating=type_text([b for b, n in fl.items() for _ in range(n)]))


class CspBackend:
    """The enumeration backend behind the ``payments`` query (STYLE practice 8)."""

    name = "csp"

    def payments(self, req: PaymentRequest, limit: int = DEFAULT_LIMIT,
                 time_limit: float = DEFAULT_TIME_LIMIT,
                 supply: Supply | None = None) -> tuple[list[Payment], bool]:
        """See :func:`payments`."""
        return payments(req, limit, time_limit, supply)
