"""The policy's terms in the CP-SAT model: one integer expression and an upper bound per criterion.

:func:`add_terms` fills :attr:`Model.terms` with an expression per criterion of
:mod:`manasolver.solver.policy` (``no_sacrifice``, ``min_life``, ``min_energy``, ``min_waste``,
``prefer_lands``, ``min_sources``, ``min_convoke``/``min_improvise``/``min_delve``, ``use_pool``,
``tiebreak``, and when the policy names them ``keep_colors``, ``max_colors_spent`` and
``keep_castable``) and its upper bound; the solve loop minimises them stage by stage
(:func:`~manasolver.solver.policy.stages`).  ``keep_colors`` counts the colors some unused member
could still make, filter lands fed by other unused members included; ``keep_castable`` is one Boolean per kept
cost, tied by Hall's condition to the
members left untapped (no flow variables of its own) when every class has a simple shape, else by
a small flow over those members.
"""

from __future__ import annotations

from typing import Any

from manasolver.models.errors import Unsupported
from manasolver.models.symbols import TYPE_BITS
from manasolver.solver.backends.cpsat.variables import Model, Src
from manasolver.solver.backends.problem import Problem, idle_classes, kept_spend_table
from manasolver.solver.policy import keep_counts
from manasolver.solver.keepable import keepable
from manasolver.solver.supply.model import Option, SourceClass

__all__ = ["add_terms"]


def add_terms(cp: Any, problem: Problem, model: Model, srcs: list[Src],
              opts: dict[tuple[int, int], Option], life_term: Any, energy_term: Any,
              spent_of: dict[int, list[Any]], consumed: dict[int, Any]) -> None:
    """Add the policy's terms to ``model.terms`` (see the module docstring): ``opts`` are the
    options behind ``model.uses``, ``life_term`` and ``energy_term`` the life and energy paid,
    ``spent_of`` the flows spending each color, ``consumed`` per class the members no longer
    untapped besides their own activations."""
    sup = problem.supply
    forms = problem.forms
    uses, inst, flows = model.uses, model.inst, model.flows
    terms = model.terms
    sac = [v for ko, v in uses.items() if opts[ko].sacrifice]
    sac_ub = sum(sup.classes[k].count for (k, o) in uses if opts[(k, o)].sacrifice)
    sac += list(model.sac_vars.values())  # other permanents sacrificed (Ashnod's Altar)
    sac_ub += sum(sup.fodder[f].count for (_, _, _, f) in model.sac_vars)
    if sac:
        terms["no_sacrifice"] = (sum(sac), sac_ub)
    life_ub = sup.life + max((f.life for f in forms), default=0) + sum(
        (o.damage + o.life) * sup.classes[k].count * (1 if o.exclusive else o.repeat)
        for (k, _), o in opts.items())
    terms["min_life"] = (life_term, life_ub)
    energy_ub = sup.energy
    terms["min_energy"] = (energy_term, energy_ub)
    produced = sum(s.amount for s in srcs if s.from_activation)
    spent_act = sum(v for s, _, _, v in flows if s.from_activation)
    prod_ub = sum(s.ub for s in srcs if s.from_activation)
    terms["min_waste"] = (produced - spent_act, prod_ub)
    nonland = [v for (k, o), v in uses.items() if sup.classes[k].kind != "land"]
    all_uses = list(uses.values())
    use_ub = sum(k.count * max((1 if o.exclusive else o.repeat) for o in k.options)
                 for k in sup.classes) if sup.classes else 0
    # A convoked creature, an improvised artifact and a delved card count as non-land
    # sources used (see add_assists): the default policy pays with lands first.
    assist_all = list(model.assist_vars.values()) + [model.delve]
    assist_ub = sum(problem.assists.groups[g].count for (_, g) in model.assist_vars) + len(
        problem.assists.graveyard)
    terms["prefer_lands"] = (sum(nonland) + sum(assist_all), use_ub + assist_ub)
    terms["min_sources"] = (sum(all_uses) + sum(assist_all), use_ub + assist_ub)
    for kind in ("convoke", "improvise"):
        vs = [(v, problem.assists.groups[g].count) for (kd, g), v in model.assist_vars.items()
              if kd == kind]
        if vs:
            terms["min_" + kind] = (sum(v for v, _ in vs), sum(n for _, n in vs))
    if problem.assists.graveyard and not isinstance(model.delve, int):
        terms["min_delve"] = (model.delve, len(problem.assists.graveyard))
    pool_flows = [v for s, _, _, v in flows if not s.from_activation]
    terms["use_pool"] = (sup.pool_total - sum(pool_flows), sup.pool_total)
    tb = []
    tb_ub = 0
    for (k, o), v in uses.items():
        w = sup.classes[k].positions[0] + 1
        tb.append(w * v)
        tb_ub += w * sup.classes[k].count * (1 if opts[(k, o)].exclusive else opts[(k, o)].repeat)
    for akey, av in model.assist_vars.items():
        grp = problem.assists.groups[akey[1]]
        tb.append((grp.positions[0] + 1) * av)
        tb_ub += (grp.positions[0] + 1) * grp.count
    for skey, sv in model.sac_vars.items():
        fod = sup.fodder[skey[3]]
        tb.append((fod.positions[0] + 1) * sv)
        tb_ub += (fod.positions[0] + 1) * fod.count
    for tkey, tv in model.tap_vars.items():
        tgrp = sup.tappable[tkey[2]]
        tb.append((tgrp.positions[0] + 1) * tv)
        tb_ub += (tgrp.positions[0] + 1) * tgrp.count
    terms["tiebreak"] = (sum(tb), tb_ub)
    names = set(problem.policy.criteria) | {n for n, _ in problem.policy.weights}
    if "keep_colors" in names:
        _keep_colors(cp, problem, uses, inst, terms, consumed)
    if "max_colors_spent" in names:
        cs = []
        for bit in TYPE_BITS[:5]:
            b = cp.new_bool_var(f"spent{bit}")
            cp.add(sum(spent_of[bit]) >= 1).only_enforce_if(b)
            cs.append(b)
        terms["max_colors_spent"] = (5 - sum(cs), 5)
    if "keep_castable" in names:
        _keep_castable(cp, problem, uses, inst, terms, consumed)


def _remaining(cp: Any, problem: Problem, uses: dict[tuple[int, int], Any],
               inst: dict[tuple[int, int, int], Any], idle: tuple[tuple[SourceClass, int], ...],
               class_assists: dict[int, Any] | None = None) -> list[tuple[int, Any, int]]:
    """For each class: ``(k, members left untapped, count)`` after this payment (members
    that convoked or improvised are tapped too), then for each ``idle`` class (the payment
    can't use its members, which stay untapped: :func:`idle_classes`) its members, a number."""
    out = []
    for k, cls in enumerate(problem.supply.classes):
        used = [uses[(k, o)] for o, opt in enumerate(cls.options) if opt.exclusive]
        if class_assists and k in class_assists:
            used.append(class_assists[k])  # convoked, improvised, or sacrificed untapped
        out.append((k, cls.count - sum(used), cls.count))
    n = len(out)
    out += [(n + i, count, count) for i, (_cls, count) in enumerate(idle)]
    return out


def _keep_colors(cp: Any, problem: Problem, uses: dict[tuple[int, int], Any],
                 inst: dict[tuple[int, int, int], Any], terms: dict[str, tuple[Any, int]],
                 class_assists: dict[int, Any] | None = None) -> None:
    """keep_colors: colors the unused members could still make
    (:mod:`manasolver.solver.keepable`): with a free option (not one that sacrifices or
    taps other permanents), or with a converter (a filter land) that fires: its class has an
    unused member and its symbol is paid by an unused starter class or by a converter that
    fires before it (an integer level per converter orders the chain, so no converter pays
    for itself); the colors counted are those the whole board keeps unused, idle members
    (:func:`idle_classes`) included."""
    idle = idle_classes(problem)
    rem = _remaining(cp, problem, uses, inst, idle, class_assists)
    kp = keepable(problem.supply, idle)
    able = kp.kept([cls.count for cls in problem.supply.classes])
    convs = kp.converters
    fire: dict[int, Any] = {}
    if convs and able:
        n = len(convs)
        level = {k: cp.new_int_var(0, n, f"keep_level{k}") for k in convs}
        fire = {k: cp.new_bool_var(f"keep_fire{k}") for k in convs}
        for k in convs:
            left = rem[k][1]
            cp.add(left >= 1).only_enforce_if(fire[k])
            ways = []
            for j, (_, jleft, _) in enumerate(rem):
                if kp.feed[j] & kp.needs[k]:
                    b = cp.new_bool_var(f"keep_feed{k}_{j}")
                    cp.add(jleft >= 1).only_enforce_if(b)
                    ways.append(b)
            for j in convs:
                if j != k and kp.gives[j] & kp.needs[k]:
                    b = cp.new_bool_var(f"keep_chain{k}_{j}")
                    cp.add_implication(b, fire[j])
                    cp.add(level[j] < level[k]).only_enforce_if(b)
                    ways.append(b)
            if ways:
                cp.add_bool_or(ways).only_enforce_if(fire[k])
            else:
                cp.add(fire[k] == 0)
    kept = []
    for bit in TYPE_BITS[:5]:
        if not able & bit:
            continue
        free = [left for (k, left, _) in rem if kp.free[k] & bit]
        made = [fire[k] for k in convs if k in fire and kp.makes[k] & bit]
        b = cp.new_bool_var(f"keep{bit}")
        ways = []
        if free:
            fb = cp.new_bool_var(f"keep_free{bit}")
            cp.add(sum(free) >= 1).only_enforce_if(fb)
            ways.append(fb)
        ways += made
        cp.add_bool_or(ways).only_enforce_if(b)
        kept.append(b)
    if kept:
        terms["keep_colors"] = (len(kept) - sum(kept), len(kept))


def _keep_castable(cp: Any, problem: Problem, uses: dict[tuple[int, int], Any],
                   inst: dict[tuple[int, int, int], Any], terms: dict[str, tuple[Any, int]],
                   class_assists: dict[int, Any] | None = None) -> None:
    """keep_castable: for each listed cost a Boolean "still payable" with its own flow
    over the members left untapped, idle ones (:func:`idle_classes`) included (their free
    options; the pool empties, 106.4)."""
    from manasolver.solver.casting.announce import announce

    sup = problem.supply
    counted = keep_counts(problem.policy, problem.req.state, sup.player)
    costs = [c for c, _ in counted]
    if not costs:
        return
    idle = idle_classes(problem)
    rem = _remaining(cp, problem, uses, inst, idle, class_assists)
    classes = (*sup.classes, *(cls for cls, _n in idle))
    shapes = _keep_shapes(classes)
    kept = []
    kept_ci: list[int] = []
    spend = kept_spend_table(problem)  # the kept costs paid as the 609.4b rules allow
    for ci, cost in enumerate(costs):
        try:
            forms = [f for f in announce(cost, 0, (), spend).forms if f.life <= sup.life and not f.energy]
        except Unsupported:
            continue
        if not forms:
            continue
        kept_ci.append(ci)
        if shapes is not None:
            kept.append(_keep_by_hall(cp, ci, forms, rem, shapes))
            continue
        keep = cp.new_bool_var(f"keep_cost{ci}")
        kept.append(keep)
        ys = [cp.new_bool_var(f"kc{ci}_{i}") for i in range(len(forms))]
        cp.add(sum(ys) == keep)
        units: list[tuple[int, bool, Any, int]] = []  # mask, snow, amount, ub
        for (k, left, count), cls in zip(rem, classes):
            rs = []
            for o, opt in enumerate(cls.options):
                if not (opt.free and opt.exclusive) or opt.restriction is not None:
                    continue
                r = cp.new_int_var(0, count, f"kc{ci}_r{k}_{o}")
                rs.append(r)
                for mask, snow, mult in opt.slot_groups(cls.snow):
                    units.append((mask, snow, mult * r, mult * count))
            if rs:
                cp.add(sum(rs) <= left)
        masks = sorted({m for f in forms for m, _ in f.demands})
        dsts: dict[tuple[Any, ...], Any] = {("spell", m): sum(
            ys[i] * dict(f.demands).get(m, 0) for i, f in enumerate(forms)) for m in masks}
        dsts[("generic",)] = sum(ys[i] * f.generic(0) for i, f in enumerate(forms))
        if any(f.snow for f in forms):
            dsts[("snow",)] = sum(ys[i] * f.snow for i, f in enumerate(forms))
        into: dict[tuple[Any, ...], list[Any]] = {d: [] for d in dsts}
        outs: list[list[Any]] = [[] for _ in units]
        for ui, (mask, snow, _, ub) in enumerate(units):
            for d in dsts:
                if d[0] == "spell" and not mask & int(d[1]):
                    continue
                if d[0] == "snow" and not snow:
                    continue
                v = cp.new_int_var(0, ub, f"kc{ci}_f{ui}")
                into[d].append(v)
                outs[ui].append(v)
        for ui, (_, _, amount, _) in enumerate(units):
            if outs[ui]:
                cp.add(sum(outs[ui]) <= amount)
        for d, amount in dsts.items():
            cp.add(sum(into[d]) == amount)
    if kept:
        kept = _excuse_exiled(cp, problem, uses, kept, kept_ci)
        weight = [counted[ci][1] for ci in kept_ci]
        terms["keep_castable"] = (sum(weight) - sum(w * k for w, k in zip(weight, kept)), sum(weight))


def _excuse_exiled(cp: Any, problem: Problem, uses: dict[tuple[int, int], Any], kept: list[Any],
                   kept_ci: list[int]) -> list[Any]:
    """keep_castable's default list is the cards in hand: a card exiled from the hand for mana
    (Simian Spirit Guide) is no longer there, so its own cost is not counted as lost."""
    sup = problem.supply
    if problem.policy.keep_castable is not None or not any(k.hand for k in sup.classes):
        return kept
    hand = problem.req.state.player(sup.player).hand
    cost_card = [i for i, c in enumerate(hand) if c.mana_cost is not None and c.mana_cost.symbols]
    out = list(kept)
    for k, cls in enumerate(sup.classes):
        if not cls.hand:
            continue
        mine = [n for n, ci in enumerate(kept_ci) if cost_card[ci] in cls.hand]
        if not mine:
            continue
        exiled = sum(uses[(k, o)] for o in range(len(cls.options)))
        gone = [cp.new_bool_var(f"exiled_cost{k}_{n}") for n in mine]
        cp.add(sum(gone) <= exiled)
        for n, g in zip(mine, gone):
            counted = cp.new_bool_var(f"kept_or_exiled{n}")
            cp.add(counted <= kept[n] + g)
            out[n] = counted
    return out


def _keep_shapes(classes: tuple[SourceClass, ...]) -> list[list[tuple[int, bool, int]]] | None:
    """What one untapped member of each of ``classes`` could add toward a kept cost — its free,
    exclusive, unrestricted options as ``(mask, snow, units)`` rows (one-mana options merge
    into their union; a single option gives its slots) — or ``None`` when some class has
    several multi-mana options (then the flow model is used)."""
    out: list[list[tuple[int, bool, int]]] = []
    for cls in classes:
        opts = [o for o in cls.options if o.free and o.exclusive and o.restriction is None]
        if cls.snow and any(o.nonsnow_tail for o in opts):
            return None  # snow and nonsnow mana from one member: the flow model counts them apart
        if not opts:
            out.append([])
        elif all(len(o.slots) == 1 for o in opts):
            m = 0
            for o in opts:
                m |= o.slots[0]
            out.append([(m, cls.snow, 1)])
        elif len(opts) == 1:
            out.append([(m, cls.snow, opts[0].slots.count(m)) for m in sorted(set(opts[0].slots))])
        else:
            return None
    return out


def _keep_by_hall(cp: Any, ci: int, forms: list[Any], rem: list[tuple[int, Any, int]],
                  shapes: list[list[tuple[int, bool, int]]]) -> Any:
    """A Boolean "this cost stays payable" by Hall's condition on the members left
    untapped: for every set of the form's non-generic demands, the units able to pay
    one of them are enough, and all units cover the total (exact for grouped units,
    and no flow variables)."""
    keep = cp.new_bool_var(f"keep_cost{ci}")
    ys = [cp.new_bool_var(f"kc{ci}_{i}") for i in range(len(forms))]
    cp.add(sum(ys) == keep)
    for i, f in enumerate(forms):
        kinds: list[tuple[int, int]] = list(f.demands)
        if f.snow:
            kinds.append((-1, f.snow))
        total = f.mana_total(0)
        everything = [left * n for (_, left, _), rows in zip(rem, shapes) for (_, _, n) in rows]
        cp.add(sum(everything) >= total).only_enforce_if(ys[i])
        for t in range(1, 1 << len(kinds)):
            mask = 0
            snow = False
            need = 0
            for j, (m, c) in enumerate(kinds):
                if t >> j & 1:
                    need += c
                    if m == -1:
                        snow = True
                    else:
                        mask |= m
            able = [left * n for (_, left, _), rows in zip(rem, shapes)
                    for (m, sn, n) in rows if m & mask or (snow and sn)]
            if not able:
                cp.add_bool_or([ys[i].Not()])
                break
            cp.add(sum(able) >= need).only_enforce_if(ys[i])
    return keep
