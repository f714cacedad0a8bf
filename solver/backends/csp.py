"""Enumeration backend: every distinct payment of a request (python-constraint2, imported lazily).

``payments(req, limit)`` answers the protocol's ``payments``: a list of
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

Bounds, never a hang: at most ``limit`` payments; a ``time_limit`` (and never past the query's
deadline, :mod:`~manasolver.solver.budget`) checked inside
the constraint, so the compiled search unwinds at once when it is reached
(timer signals do not reach it); ``complete`` is false whenever the
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
from typing import Any

from manasolver.models.effects import SpendTable
from manasolver.models.errors import BadQuery
from manasolver.models.state import GameState
from manasolver.solver.budget import current as query_deadline
from manasolver.solver.backends.csp_cover import (
    Prod,
    concrete,
    cover,
    plain_removable,
    pruned,
    sacrifices_ok,
    taps_ok,
)
from manasolver.solver.backends.csp_totals import Total, concrete_totals, type_text
from manasolver.solver.backends.problem import (activation_of, executable_order, sacrifices_last, spend_table_of,
                                                spending_supply)
from manasolver.solver.payment import Payment
from manasolver.solver.request import PaymentRequest, restriction_allows
from manasolver.solver.supply.build import build_supply
from manasolver.solver.supply.model import (
    Option,
    SourceClass,
    Supply,
    class_types,
)
from manasolver.solver.supply.resources import reserved_ids, without_cast_card
from manasolver.solver.supply.unmodelled import guard_spent_on_costs

__all__ = ["DEFAULT_LIMIT", "DEFAULT_TIME_LIMIT", "CspBackend", "payments"]

DEFAULT_LIMIT = 100
#: Seconds the enumeration may run before it stops and says ``complete: false``.
DEFAULT_TIME_LIMIT = 2.0


# -- sources --------------------------------------------------------------------------------


def _productions(supply: Supply, req: PaymentRequest) -> tuple[list[tuple[str, int, list[Prod]]], bool]:
    """Per permanent: (id, board position, concrete productions); and whether every option was taken.

    A permanent a "sacrifice a <type>" option may take (:attr:`Supply.fodder`) gets one more
    entry, its *fodder slot*: nothing, or one activation of such an option (by any member of
    any class having it) that sacrifices it — so each is sacrificed at most once and an Altar
    activates once per permanent it sacrifices (CR 701.21a)."""
    has_x = bool(req.cost.variables)
    out: list[tuple[str, int, list[Prod]]] = []
    whole = True
    altar: dict[str, list[Prod]] = {}  # sacrifice type -> activations without their fodder
    tappers: list[tuple[str, int, list[Prod], list[str]]] = []  # id, position, activations, able

    def able(opt: Option) -> list[str]:
        return [m for g in supply.tappable if set(opt.tap_types) & g.matches for m in g.members]

    for k, cls in enumerate(supply.classes):
        types = class_types(req.state, cls)
        for j, pid in enumerate(cls.members):
            prods: list[Prod] = []
            for o, opt in enumerate(cls.options):
                ok = restriction_allows(opt.restriction, req.spell, has_x, req.cost.has_colorless)
                if opt.tap_creatures:
                    these = concrete(k, j, o, opt, cls.snow, ok, types)
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
                        concrete(k, j, o, opt, cls.snow, ok, types))
                    continue
                if not opt.exclusive:
                    whole = False  # repeatable abilities are not enumerated
                    continue
                prods.extend(concrete(k, j, o, opt, cls.snow, ok, types))
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


# -- exact cover ------------------------------------------------------------------------------


# -- the enumeration ----------------------------------------------------------------------------


def payments(req: PaymentRequest, limit: int = DEFAULT_LIMIT, time_limit: float = DEFAULT_TIME_LIMIT,
             supply: Supply | None = None) -> tuple[list[Payment], bool]:
    """Every distinct irredundant payment of ``req`` (at most ``limit``) and whether the list
    is complete.  X is ``req.x`` (0 when unset, the smallest legal X)."""
    from constraint import FunctionConstraint, OptimizedBacktrackingSolver, Problem

    if limit < 0:
        raise BadQuery(f"limit must be 0 or more, not {limit}", "limit")
    if req.x is not None and req.x < 0:
        raise BadQuery(f"x must be 0 or more, not {req.x}", "x")
    query = query_deadline()
    time_limit = query.within(time_limit)  # never past the query's own deadline
    deadline = time.monotonic() + time_limit
    sup = supply if supply is not None else without_cast_card(
        build_supply(req.state, req.player, resources=True, reserved=reserved_ids(req)), req.spell, req.state)
    x = req.x or 0
    guard_spent_on_costs(req)
    sup = spending_supply(req.state, sup)  # activation costs paid as the 609.4b rules allow
    sources, whole = _productions(sup, req)
    ids = {(k, j): m for k, cls in enumerate(sup.classes) for j, m in enumerate(cls.members)}
    pos = {(k, j): p for k, cls in enumerate(sup.classes) for j, p in enumerate(cls.positions)}
    # Convoke, delve and improvise are other ways of paying that this backend does not list.
    complete = whole and not sup.excluded and not (req.convoke or req.delve or req.improvise)
    pool = dict(sup.pool)
    found: dict[Payment, tuple[object, ...]] = {}
    candidate: tuple[Total, list[Prod], Counter[int]] | None = None
    timed_out = False
    table = spend_table_of(req)
    totals = concrete_totals(req, x, table)
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
        tbits = [b for b, _ in total.demands]  # masks of the mana that may pay (CR 609.4b)
        tneed = [n for _, n in total.demands]
        k_t = len(tbits)
        # Per source and value: (cost units, units, snow units, life, energy, damage, typed counts);
        # per source: the optimistic bound while unassigned (the most of each).
        info: list[list[tuple[int, int, int, int, int, int, tuple[int, ...]]]] = []
        opt_b: list[tuple[int, int, int, tuple[int, ...]]] = []
        for _, _, prods in sources:
            rows = []
            for p in prods:
                cnt = tuple(sum(1 for b in p.mana if b & m) for m in tbits)
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
            if not sacrifices_ok(chosen, ids) or not taps_ok(chosen, ids):
                continue
            if not found and candidate is None:
                candidate = (total, chosen, used)
            for pay in _payments_of(total, chosen, used, sup.classes, pos, x, req.ability_life, table, req.state):
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
        kept = pruned(total, chosen, used, time.monotonic() + max(0.25, time_limit / 4))
        if kept is not None and sacrifices_ok(kept, ids) and taps_ok(kept, ids):
            for pay in _payments_of(total, kept, used, sup.classes, pos, x, req.ability_life, table, req.state):
                found[pay] = ()
                break
    out = list(found)[:limit]
    if timed_out:
        query.mark()
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
        """Necessary conditions on partial assignments, with forward checking (that is:
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
            masks = [m for m, _ in total.demands]
            self.pool_t = [[1 if b & m else 0 for m in masks] for b in pool]
            self.calls = 0
            self.timed_out = False

        def __call__(self, variables: Any, domains: Any, assignments: Any, forwardcheck: Any = False) -> bool:
            if self.timed_out:
                return False
            self.calls += 1
            if time.monotonic() > self.deadline:  # each call is linear in the sources: read it every call
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


def _payments_of(total: Total, chosen: list[Prod], used: Counter[int], classes: Sequence[SourceClass],
                 pos: dict[tuple[int, int], int], x: int, ability_life: int,
                 table: SpendTable | None = None, state: GameState | None = None) -> Iterator[Payment]:
    """The payments with exactly these activations and pool mana: one per floating multiset
    (``ability_life``: the activated ability's own life cost, part of each payment's life;
    ``table``: the payment's 609.4b table, for the order of activations that cost mana;
    ``state``: the board, whose permanents' types scoped mana reads)."""
    if not cover(total, chosen, used, None):
        return
    removable = plain_removable(total, chosen, used)
    if removable is None:
        redundant = any(cover(total, chosen[:i] + chosen[i + 1:], used, None) for i in range(len(chosen)))
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
        if not cover(total, chosen, used, fl):
            continue
        made = [(activation_of(classes[p.k], p.member, p.opt, type_text(p.mana),
                               (p.sacrificed,) if p.sacrificed else (), p.tapped), p)
                for p in sorted(chosen, key=lambda p: pos[(p.k, p.member)])]
        # each activation's option and whether its mana may pay the spell (CR 106.6: Powerstone's
        # pays a Signet's cost, not a creature spell's generic mana)
        option_of = {id(a): (p.opt, p.spell_ok) for a, p in made}
        acts = sacrifices_last([a for a, _p in made])
        pool_text = type_text([b for b, n in used.items() for _ in range(n)])
        acts = executable_order(acts, [option_of[id(a)] for a in acts], total.text(), pool_text,
                                type_text([b for b, n in fl.items() for _ in range(n)]), table=table, state=state)
        yield Payment(
            total=total.text(), choices=total.choices, x=x, activations=tuple(acts),
            pool_used=pool_text,
            life=ability_life + total.life + sum(p.opt.life for p in chosen),
            energy=total.energy + sum(p.opt.energy for p in chosen),
            damage=sum(p.opt.damage for p in chosen),
            floating=type_text([b for b, n in fl.items() for _ in range(n)]))


class CspBackend:
    """The enumeration backend behind the ``payments`` query."""

    name = "csp"

    def payments(self, req: PaymentRequest, limit: int = DEFAULT_LIMIT,
                 time_limit: float = DEFAULT_TIME_LIMIT,
                 supply: Supply | None = None) -> tuple[list[Payment], bool]:
        """See :func:`payments`."""
        return payments(req, limit, time_limit, supply)
