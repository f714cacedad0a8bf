"""CP-SAT backend: exact optimal payments over the grouped supply (OR-Tools, imported lazily).

The model (one worker, always with an objective: CP-SAT stalls without one on
pigeonhole-style impossible costs, SPEC §8):

* one Boolean per announced :class:`~manasolver.solver.casting.announce.Form`,
  ``add_exactly_one``: the announcement (601.2b) and the modifiers' effect
  (601.2f) are chosen inside the optimisation, never fixed greedily;
* X an integer (fixed, or free for ``max_x``); the generic part of each form is
  ``max(0, base + k·X − reduction, minimum − fixed mana)``;
* for each free source class an integer per option (how many members activate it),
  at most the class's count in total over its exclusive options; classes with an
  ability that costs mana (filter lands, Signets) are expanded to one Boolean per
  member and option;
* integer flows from units (pool mana; slots of each option) to demands (each
  mask of the total, generic, snow, and each activation's own mana cost), with a
  unit paying a demand only when its types, snow flag and restriction allow it;
* mana paying an activation's cost must come from the pool, a free source, or an
  activation *ranked earlier* (integer ranks): never circularly (601.2g, 605.3);
* life: ability life ≤ life (119.4), and a form that pays life for Phyrexian
  symbols needs its life plus ability life plus damage taken ≤ life, since damage
  and ability costs happen during 601.2g, before 601.2h;
* energy paid ≤ energy (107.14);
* convoke, improvise and delve (when the request allows them) as integers per assist
  group paying the locked total's generic and (convoke) colored demands, sharing each
  permanent's one tap with its mana abilities and Springleaf Drum (:func:`_assists`);
* the policy's terms (:mod:`manasolver.solver.policy`) minimised stage by stage,
  fixing each optimum; ``keep_castable`` as one Boolean per kept cost, tied by
  Hall's condition to the members left untapped (no flow variables of its own).

Solver settings (:func:`_new_solver`): one worker, linearization level 2, no
presolve, a time bound of :data:`TIME_LIMIT` seconds per stage; an answer whose
optimality was not proven in time says so (``Solution.optimal`` false, and
``"time_bound": true`` in the protocol answer).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from manasolver.models.errors import Unsupported
from manasolver.models.symbols import ANY_COLOR, C
from manasolver.solver.backends.problem import Problem, Solution, lowest_bit
from manasolver.solver.policy import keep_costs, needs_types, stages
from manasolver.solver.supply.build import (
    Option,
    member_groups,
    restriction_allows,
    restriction_pays_abilities,
)

__all__ = ["MAX_CUT_ROUNDS", "TIME_LIMIT", "CpSatBackend", "build_model"]

#: Seconds CP-SAT may spend on one stage before the answer says it hit its bound.
TIME_LIMIT = 2.0
COLOR_BITS = (1, 2, 4, 8, 16)


@dataclass
class _Src:
    key: tuple[Any, ...]        # ("pool", bit) | ("act", k, o, mask) | ("inst", k, j, o, mask)
    mask: int
    snow: bool
    pays_spell: bool
    pays_ability: bool
    amount: Any                 # int or linear expression
    ub: int
    inst: tuple[int, int] | None = None
    from_activation: bool = True


@dataclass
class Model:
    """The built CP-SAT model and handles to its variables (also used by tests)."""

    cp: Any
    y: list[Any]
    x: Any
    uses: dict[tuple[int, int], Any]
    inst: dict[tuple[int, int, int], Any]
    flows: list[tuple[_Src, tuple[Any, ...], int, Any]]
    terms: dict[str, tuple[Any, int]] = field(default_factory=dict)
    slack: dict[tuple[Any, ...], Any] = field(default_factory=dict)
    life_slack: Any = 0
    energy_slack: Any = 0
    pair_flows: dict[tuple[tuple[int, int], tuple[int, int]], list[Any]] = field(
        default_factory=dict)
    assist_vars: dict[tuple[str, int], Any] = field(default_factory=dict)
    assist_flows: list[tuple[int, tuple[Any, ...], int, Any]] = field(default_factory=list)
    delve: Any = 0
    sac_vars: dict[tuple[int, int, int, int], Any] = field(default_factory=dict)
    tap_vars: dict[tuple[int, int, int], Any] = field(default_factory=dict)
    role_vars: dict[tuple[int, Role], Any] = field(default_factory=dict)


def _cost_demands(opt: Option) -> list[tuple[tuple[Any, ...], int]]:
    """An activation's mana cost as demands: ``(("mask", m) | ("generic",), amount)``."""
    out: dict[tuple[Any, ...], int] = {}
    for s in opt.mana_cost.symbols:
        if s.special:
            continue
        if s.is_numeral:
            if s.generic:
                out[("generic",)] = out.get(("generic",), 0) + s.generic
            continue
        if s.phyrexian or s.snow or s.variable or (s.generic and not s.is_numeral):
            raise Unsupported(f"an activation cost of {s.text} is not modelled", "supply")
        mask = s.colors | (C if s.colorless else 0)
        out[("mask", mask)] = out.get(("mask", mask), 0) + 1
    return sorted(out.items())


def _tail(class_snow: bool, snow: bool) -> tuple[str, ...]:
    """The source-key suffix of a snow member's nonsnow triggered mana (Wild Growth on a snow
    land): ``("act", k, o, mask, "nonsnow")`` beside the snow ``("act", k, o, mask)``."""
    return ("nonsnow",) if class_snow and not snow else ()


def _x_upper(problem: Problem) -> int:
    """A bound on X: every unit the board could make or assist with (convoke, improvise,
    delve), plus reductions, per X symbol."""
    sup = problem.supply
    total = sup.pool_total
    for k in sup.classes:
        best = max((o.produced * (o.repeat if not o.exclusive else 1) for o in k.options), default=0)
        total += best * k.count
    total += sum(g.count for g in problem.assists.groups) + len(problem.assists.graveyard)
    red = max((f.generic_reduction for f in problem.forms), default=0)
    k_x = max(1, problem.announcement.x_count)
    return (total + red) // k_x + 1


Cut = tuple[tuple[int, int], ...]


def build_model(problem: Problem, slack: bool = False, relax_life: bool = False,
                relax_energy: bool = False, chains: str = "ordered",
                cuts: tuple[Cut, ...] = ()) -> Model:
    """Build the CP-SAT model of ``problem`` (see the module docstring).

    ``chains`` says how activations with mana costs may pay one another's costs:
    ``"ordered"`` (exact: ranks make the payments acyclic), ``"none"`` (only free
    sources and the pool pay them: a restriction, every answer legal) or ``"free"``
    (any other activation pays them, order ignored: a relaxation, a lower bound).
    ``cuts`` (with ``"free"``): sets of activations (class, member) of which at least
    one must get no mana from the others of the set (in a legal payment the first of
    them activated is paid from elsewhere)."""
    from ortools.sat.python import cp_model

    cp = cp_model.CpModel()
    sup = problem.supply
    forms = problem.forms
    typed = needs_types(problem.policy)
    # -- announcement and X ------------------------------------------------------------
    y = [cp.new_bool_var(f"form{i}") for i in range(len(forms))]
    cp.add_exactly_one(y)
    if problem.x is None:
        x: Any = cp.new_int_var(0, _x_upper(problem), "x")
    else:
        x = problem.x
    # -- activations -----------------------------------------------------------------
    uses: dict[tuple[int, int], Any] = {}
    inst: dict[tuple[int, int, int], Any] = {}
    srcs: list[_Src] = []
    for bit, n in sup.pool:
        srcs.append(_Src(("pool", bit), bit, False, True, True, n, n, from_activation=False))
    for k, cls in enumerate(sup.classes):
        ok = problem.spell_ok[k]
        if cls.free:
            excl = []
            for o, opt in enumerate(cls.options):
                ub = cls.count if opt.exclusive else cls.count * opt.repeat
                v = cp.new_int_var(0, ub, f"n{k}_{o}")
                uses[(k, o)] = v
                if opt.exclusive:
                    excl.append(v)
                pays_ability = restriction_pays_abilities(opt.restriction)
                for mask, snow, mult in opt.slot_groups(cls.snow):
                    srcs.append(_Src(("act", k, o, mask) + _tail(cls.snow, snow), mask, snow, ok[o],
                                     pays_ability, mult * v, mult * ub))
            if excl:
                cp.add(sum(excl) <= cls.count)
        else:
            for j in range(cls.count):
                bs = []
                for o, opt in enumerate(cls.options):
                    if not opt.exclusive:  # pragma: no cover - supply refuses these
                        raise Unsupported("repeatable ability with a mana cost", cls.members[j])
                    b = cp.new_bool_var(f"b{k}_{j}_{o}")
                    inst[(k, j, o)] = b
                    bs.append(b)
                    pays_ability = restriction_pays_abilities(opt.restriction)
                    for mask, snow, mult in opt.slot_groups(cls.snow):
                        srcs.append(_Src(("inst", k, j, o, mask) + _tail(cls.snow, snow), mask, snow,
                                         ok[o], pays_ability, mult * b, mult, inst=(k, j)))
                cp.add_at_most_one(bs)
            for o in range(len(cls.options)):
                uses[(k, o)] = sum(inst[(k, j, o)] for j in range(cls.count))
    # -- demands ---------------------------------------------------------------------
    masks = sorted({m for f in forms for m, _ in f.demands})
    dst_amount: dict[tuple[Any, ...], Any] = {}
    for m in masks:
        dst_amount[("spell", m)] = sum(y[i] * dict(f.demands).get(m, 0) for i, f in enumerate(forms))
    if any(f.snow for f in forms):
        dst_amount[("snow",)] = sum(y[i] * f.snow for i, f in enumerate(forms))
    if problem.x is None:
        gen_ub = max(f.generic(_x_upper(problem)) for f in forms)
        g = cp.new_int_var(0, gen_ub, "generic")
        for i, f in enumerate(forms):
            gi = cp.new_int_var(0, gen_ub, f"generic{i}")
            cp.add_max_equality(gi, [0, f.generic_base - f.generic_reduction + f.x_count * x,
                                     f.minimum - f.fixed_mana])
            cp.add(g == gi).only_enforce_if(y[i])
        dst_amount[("generic",)] = g
    else:
        gens = [f.generic(problem.x) for f in forms]
        if any(gens):
            dst_amount[("generic",)] = sum(y[i] * gens[i] for i in range(len(forms)))
    cost_dsts: list[tuple[tuple[Any, ...], int, int]] = []  # (dst key, k, j)
    for (k, j, o), b in inst.items():
        opt = sup.classes[k].options[o]
        for dkey, amt in _cost_demands(opt):
            key = ("cost", k, j) + dkey
            dst_amount[key] = dst_amount.get(key, 0) + amt * b
            if (key, k, j) not in cost_dsts:
                cost_dsts.append((key, k, j))
    # -- flows -----------------------------------------------------------------------
    flows: list[tuple[_Src, tuple[Any, ...], int, Any]] = []
    into: dict[tuple[Any, ...], list[Any]] = {d: [] for d in dst_amount}
    out_of: list[list[Any]] = [[] for _ in srcs]
    prec: dict[tuple[tuple[int, int], tuple[int, int]], Any] = {}
    pair_flows: dict[tuple[tuple[int, int], tuple[int, int]], list[Any]] = {}
    ranks: dict[tuple[int, int], Any] = {}
    n_inst = len({(k, j) for k, j, _ in inst})

    def rank(key: tuple[int, int]) -> Any:
        if key not in ranks:
            ranks[key] = cp.new_int_var(0, max(0, n_inst - 1), f"rank{key[0]}_{key[1]}")
        return ranks[key]

    def add_flow(si: int, s: _Src, dst: tuple[Any, ...], dmask: int) -> None:
        inter = s.mask & dmask
        if not inter:
            return
        bits = [b for b in (1, 2, 4, 8, 16, 32) if inter & b] if typed and dst[0] != "cost" \
            else [lowest_bit(inter)]
        for t in bits:
            v = cp.new_int_var(0, s.ub, f"f{si}_{len(flows)}")
            flows.append((s, dst, t, v))
            into[dst].append(v)
            out_of[si].append(v)
            if dst[0] == "cost" and s.inst is not None and chains == "free":
                pair_flows.setdefault((s.inst, (int(dst[1]), int(dst[2]))), []).append(v)
            if dst[0] == "cost" and s.inst is not None and chains == "ordered":
                pair = (s.inst, (int(dst[1]), int(dst[2])))
                if pair not in prec:
                    p = cp.new_bool_var(f"prec{pair}")
                    prec[pair] = p
                    cp.add(rank(pair[0]) + 1 <= rank(pair[1])).only_enforce_if(p)
                cp.add(v == 0).only_enforce_if(prec[pair].Not())

    for si, s in enumerate(srcs):
        for dst in dst_amount:
            if dst[0] == "spell":
                if s.pays_spell:
                    add_flow(si, s, dst, int(dst[1]))
            elif dst[0] == "generic":
                if s.pays_spell:
                    add_flow(si, s, dst, s.mask)
            elif dst[0] == "snow":
                if s.pays_spell and s.snow:
                    add_flow(si, s, dst, s.mask)
            else:  # ("cost", k, j, kind...)
                if not s.pays_ability or (s.inst is not None and s.inst == (dst[1], dst[2])):
                    continue
                if s.inst is not None and chains == "none":
                    continue
                dmask = int(dst[4]) if dst[3] == "mask" else s.mask
                add_flow(si, s, dst, dmask)
    for si, s in enumerate(srcs):
        if out_of[si]:
            cp.add(sum(out_of[si]) <= s.amount)
    for ci, cut in enumerate(cuts):
        fed: list[Any] = []
        for node in cut:
            z = cp.new_bool_var(f"cut{ci}_{len(fed)}")
            inner = [v for other in cut if other != node for v in pair_flows.get((other, node), [])]
            if inner:
                cp.add(sum(inner) == 0).only_enforce_if(z.Not())
            fed.append(z)
        cp.add(sum(fed) <= len(cut) - 1)
    model = Model(cp, y, x, uses, inst, flows)
    model.pair_flows = pair_flows
    class_assists = _assists(cp, problem, model, dst_amount, into)
    _sacrifices(cp, problem, model)
    _taps(cp, problem, model)
    consumed = dict(class_assists)  # members no longer untapped on the battlefield afterwards
    for k, expr in _roles(cp, problem, model).items():
        consumed[k] = consumed.get(k, 0) + expr
    for dst, amount in dst_amount.items():
        if slack and dst[0] != "cost":
            sv = cp.new_int_var(0, 10**6, f"slack{dst}")
            model.slack[dst] = sv
            cp.add(sum(into[dst]) + sv == amount)
        else:
            cp.add(sum(into[dst]) == amount)
    # -- life, damage, energy --------------------------------------------------------
    opts = {(k, o): sup.classes[k].options[o] for (k, o) in uses}
    ab_life = sum(opts[ko].life * v for ko, v in uses.items() if opts[ko].life)
    damage = sum(opts[ko].damage * v for ko, v in uses.items() if opts[ko].damage)
    ab_energy = sum(opts[ko].energy * v for ko, v in uses.items() if opts[ko].energy)
    life_slack: Any = 0
    if relax_life:
        life_slack = cp.new_int_var(0, 10**6, "life_slack")
        model.life_slack = life_slack
    cp.add(ab_life <= sup.life + life_slack)
    for i, f in enumerate(forms):
        if f.life:
            cp.add(f.life + ab_life + damage <= sup.life + life_slack).only_enforce_if(y[i])
    energy_slack: Any = 0
    if relax_energy:
        energy_slack = cp.new_int_var(0, 10**6, "energy_slack")
        model.energy_slack = energy_slack
    form_energy = sum(y[i] * f.energy for i, f in enumerate(forms) if f.energy)
    cp.add(form_energy + ab_energy <= sup.energy + energy_slack)
    # -- spend_color constraints (adamant) ------------------------------------------
    spent_of: dict[int, list[Any]] = {b: [] for b in COLOR_BITS}
    if typed:
        for s, dst, t, v in flows:
            if dst[0] != "cost" and t in spent_of:
                spent_of[t].append(v)
        for color, n in problem.policy.spend_color:
            bit = 1 << "WUBRG".index(color)
            cp.add(sum(spent_of[bit]) >= n)
    # -- policy terms ------------------------------------------------------------------
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
    life_term = ab_life + damage + sum(y[i] * f.life for i, f in enumerate(forms) if f.life)
    terms["min_life"] = (life_term, life_ub)
    energy_ub = sup.energy
    terms["min_energy"] = (form_energy + ab_energy, energy_ub)
    produced = sum(s.amount for s in srcs if s.from_activation)
    spent_act = sum(v for s, _, _, v in flows if s.from_activation)
    prod_ub = sum(s.ub for s in srcs if s.from_activation)
    terms["min_waste"] = (produced - spent_act, prod_ub)
    nonland = [v for (k, o), v in uses.items() if sup.classes[k].kind != "land"]
    all_uses = list(uses.values())
    use_ub = sum(k.count * max((1 if o.exclusive else o.repeat) for o in k.options)
                 for k in sup.classes) if sup.classes else 0
    # A convoked creature, an improvised artifact and a delved card count as non-land
    # sources used (see _assists): the default policy pays with lands first.
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
        for bit in COLOR_BITS:
            b = cp.new_bool_var(f"spent{bit}")
            cp.add(sum(spent_of[bit]) >= 1).only_enforce_if(b)
            cs.append(b)
        terms["max_colors_spent"] = (5 - sum(cs), 5)
    if "keep_castable" in names:
        _keep_castable(cp, problem, uses, inst, terms, consumed)
    return model


def _remaining(cp: Any, problem: Problem, uses: dict[tuple[int, int], Any],
               inst: dict[tuple[int, int, int], Any],
               class_assists: dict[int, Any] | None = None) -> list[tuple[int, Any, int]]:
    """For each class: ``(k, members left untapped, count)`` after this payment (members
    that convoked or improvised are tapped too)."""
    out = []
    for k, cls in enumerate(problem.supply.classes):
        used = [uses[(k, o)] for o, opt in enumerate(cls.options) if opt.exclusive]
        if class_assists and k in class_assists:
            used.append(class_assists[k])  # convoked, improvised, or sacrificed untapped
        out.append((k, cls.count - sum(used), cls.count))
    return out


def _taps(cp: Any, problem: Problem, model: Model) -> None:
    """"Tap an untapped <type> you control" costs (Springleaf Drum, Heritage Druid, Urza; CR
    118.3, 302.6): per option and tappable group an integer (members it taps), each
    activation tapping ``tap_creatures`` permanents with one of the option's ``tap_types``.
    Which members may be tapped is decided with their other roles (:func:`_roles`)."""
    sup = problem.supply
    for (k, o), v in model.uses.items():
        opt = sup.classes[k].options[o]
        if not opt.tap_creatures:
            continue
        takes = []
        for f, grp in enumerate(sup.tappable):
            if set(opt.tap_types) & grp.matches:
                w = cp.new_int_var(0, grp.count, f"tap{k}_{o}_{f}")
                model.tap_vars[(k, o, f)] = w
                takes.append(w)
        cp.add(sum(takes) == opt.tap_creatures * v)


def _sacrifices(cp: Any, problem: Problem, model: Model) -> None:
    """"Sacrifice a creature/artifact" costs (Ashnod's Altar, Krark-Clan Ironworks; CR 118.3,
    701.21a): per sacrifice part of an option and fodder group an integer (members it takes),
    each activation sacrificing one permanent per part.  Which members may be sacrificed is
    decided with their other roles (:func:`_roles`)."""
    sup = problem.supply
    for (k, o), v in model.uses.items():
        opt = sup.classes[k].options[o]
        for p, what in enumerate(opt.sacrifice_other):
            takes = []
            for f, fod in enumerate(sup.fodder):
                if what in fod.matches:
                    z = cp.new_int_var(0, fod.count, f"sac{k}_{o}_{p}_{f}")
                    model.sac_vars[(k, o, p, f)] = z
                    takes.append(z)
            cp.add(sum(takes) == v)


#: A member's roles in one payment: ("A",) assists (convoke/improvise), else any of "T"
#: (tapped for another's cost), "S" (sacrificed to another's cost) and ("E", option) (an
#: exclusive activation of its own).
Role = tuple[object, ...]


def member_roles(opts: tuple[Option, ...], untapped: bool, tappable: bool, fodder: bool,
                 assists: bool) -> list[Role]:
    """Every role combination one member of a :class:`MemberGroup` may play in one payment,
    by the rules (CR 601.2g-h, 605.3a, 118.3): an assisting member does nothing else (601.2h
    comes after the mana abilities, and it must still be there, untapped); a member taps once
    (its own {T} or another's cost, and only while untapped); it is sacrificed once (by itself
    or by another's cost); tapping and then sacrificing it is legal in either role order."""
    out: list[Role] = []
    if assists and untapped:
        out.append(("A",))
    for e in [None, *[o for o, opt in enumerate(opts) if opt.exclusive]]:
        opt = opts[e] if e is not None else None
        for t in (False, True):
            if t and not (tappable and untapped and not (opt is not None and opt.tap)):
                continue
            for sac in (False, True):
                if sac and not (fodder and not (opt is not None and opt.sacrifice)):
                    continue
                role: Role = (("E", e),) if e is not None else ()
                role += ("T",) if t else ()
                role += ("S",) if sac else ()
                if role:
                    out.append(role)
    return out


def _roles(cp: Any, problem: Problem, model: Model) -> dict[int, Any]:
    """Which member of each :class:`MemberGroup` plays which roles (:func:`member_roles`): one
    integer per group and role combination, so that the members sacrificed and tapped for
    costs, the class's exclusive activations and the assists all fit the same permanents
    exactly.  Returns per class the members consumed besides their exclusive activations and
    assists (tapped or sacrificed for a cost only), for what stays untapped (keep_*)."""
    sup = problem.supply
    groups = member_groups(sup)
    if not groups or not (model.sac_vars or model.tap_vars):
        return {}
    assist_of = {m: g for g, grp in enumerate(problem.assists.groups) for m in grp.members}
    s_by: dict[int, list[Any]] = {}
    t_by: dict[int, list[Any]] = {}
    for (_, _, _, f), z in model.sac_vars.items():
        s_by.setdefault(f, []).append(z)
    for (_, _, f), w in model.tap_vars.items():
        t_by.setdefault(f, []).append(w)
    e_by: dict[tuple[int, int], list[Any]] = {}
    a_by: dict[int, list[Any]] = {}
    grouped: set[str] = set()
    consumed: dict[int, list[Any]] = {}
    for u, grp in enumerate(groups):
        grouped.update(grp.members)
        opts = sup.classes[grp.cls].options if grp.cls >= 0 else ()
        g = assist_of.get(grp.members[0], -1)
        n: dict[Role, Any] = {}
        for role in member_roles(opts, grp.untapped, grp.tappable >= 0, grp.fodder >= 0, g >= 0):
            n[role] = cp.new_int_var(0, grp.count, f"role{u}_{len(n)}")
            model.role_vars[(u, role)] = n[role]
        cp.add(sum(n.values()) <= grp.count)
        taps = t_by.get(grp.tappable, []) if grp.tappable >= 0 else []
        sacs = s_by.get(grp.fodder, []) if grp.fodder >= 0 else []
        cp.add(sum(v for r, v in n.items() if "T" in r) == sum(taps))
        cp.add(sum(v for r, v in n.items() if "S" in r) == sum(sacs))
        if g >= 0:
            a_by.setdefault(g, []).extend(v for r, v in n.items() if r == ("A",))
        for r, v in n.items():
            if r and isinstance(r[0], tuple):
                e_by.setdefault((grp.cls, int(r[0][1])), []).append(v)
            elif r != ("A",) and grp.cls >= 0:
                consumed.setdefault(grp.cls, []).append(v)
    for k in {grp.cls for grp in groups if grp.cls >= 0}:
        for o, opt in enumerate(sup.classes[k].options):
            if opt.exclusive:  # every member of the class is in its member groups
                cp.add(sum(e_by.get((k, o), [])) == model.uses[(k, o)])
    for g, agrp in enumerate(problem.assists.groups):
        assisting = [v for (_, gg), v in model.assist_vars.items() if gg == g]
        inside = a_by.get(g, [])
        if not inside and not any(m in grouped for m in agrp.members):
            continue
        rest = sum(1 for m in agrp.members if m not in grouped)
        cp.add(sum(assisting) - sum(inside) >= 0)
        cp.add(sum(assisting) - sum(inside) <= rest)
    return {k: sum(vs) for k, vs in consumed.items()}


def _assists(cp: Any, problem: Problem, model: Model, dst_amount: dict[tuple[Any, ...], Any],
             into: dict[tuple[Any, ...], list[Any]]) -> dict[int, Any]:
    """Convoke, improvise and delve inside the model (702.51, 702.126, 702.66), after the
    total is locked (the demands are the form's, so modifiers already applied).

    Per assist group and kind an integer (members used); each member pays one generic or,
    convoking, one colored symbol of a color it has (never ``{C}``, snow, life, energy);
    a group's convokes plus improvises fit its members (an artifact creature does one);
    per supply class, its ``{T}`` activations plus its members' assists fit its untapped
    members and all its exclusive activations plus assists fit its count (118.10); delve
    exiles at most the graveyard and pays generic only, so never more than the generic
    amount.  Returns the assists per supply class (for what stays untapped)."""
    assists = problem.assists
    sup = problem.supply
    per_class: dict[int, list[Any]] = {}
    if not assists.usable:
        return {}
    generic = ("generic",) in dst_amount
    for g, grp in enumerate(assists.groups):
        kinds = (["convoke"] if grp.creature else []) + (["improvise"] if grp.artifact else [])
        vs = []
        for kind in kinds:
            v = cp.new_int_var(0, grp.count, f"{kind}{g}")
            model.assist_vars[(kind, g)] = v
            vs.append(v)
            outs = []
            if generic:
                f = cp.new_int_var(0, grp.count, f"{kind}{g}_generic")
                into[("generic",)].append(f)
                outs.append(f)
                if kind == "convoke":
                    model.assist_flows.append((g, ("generic",), 0, f))
            if kind == "convoke" and grp.colors:
                for dst in dst_amount:
                    if dst[0] != "spell":
                        continue
                    inter = int(dst[1]) & grp.colors
                    if not inter or int(dst[1]) == C:
                        continue
                    f = cp.new_int_var(0, grp.count, f"{kind}{g}_{dst[1]}")
                    into[dst].append(f)
                    outs.append(f)
                    model.assist_flows.append((g, dst, lowest_bit(inter), f))
            if outs:
                cp.add(sum(outs) == v)
            else:
                cp.add(v == 0)
        cp.add(sum(vs) <= grp.count)
        if grp.cls >= 0:
            per_class.setdefault(grp.cls, []).extend(vs)
    for k, vs in per_class.items():
        cls = sup.classes[k]
        taps = [model.uses[(k, o)] for o, opt in enumerate(cls.options) if opt.exclusive and opt.tap]
        excl = [model.uses[(k, o)] for o, opt in enumerate(cls.options) if opt.exclusive]
        cp.add(sum(taps) + sum(vs) <= assists.class_untapped[k])
        cp.add(sum(excl) + sum(vs) <= cls.count)
    if assists.graveyard and generic:
        d = cp.new_int_var(0, len(assists.graveyard), "delve")
        into[("generic",)].append(d)
        model.delve = d
    return {k: sum(vs) for k, vs in per_class.items()}


def _keep_colors(cp: Any, problem: Problem, uses: dict[tuple[int, int], Any],
                 inst: dict[tuple[int, int, int], Any], terms: dict[str, tuple[Any, int]],
                 class_assists: dict[int, Any] | None = None) -> None:
    """keep_colors: colors some free option of an unused member could still make (options
    that sacrifice or tap other permanents do not count: they make mana only by using another)."""
    rem = _remaining(cp, problem, uses, inst, class_assists)
    kept = []
    for bit in COLOR_BITS:
        able = [left for (k, left, _), cls in zip(rem, problem.supply.classes)
                if any(o.free and not (o.sacrifice_other or o.tap_creatures) and o.union & bit
                       for o in cls.options)]
        if not able:
            continue
        b = cp.new_bool_var(f"keep{bit}")
        cp.add(sum(able) >= 1).only_enforce_if(b)
        kept.append(b)
    if kept:
        terms["keep_colors"] = (len(kept) - sum(kept), len(kept))


def _keep_castable(cp: Any, problem: Problem, uses: dict[tuple[int, int], Any],
                   inst: dict[tuple[int, int, int], Any], terms: dict[str, tuple[Any, int]],
                   class_assists: dict[int, Any] | None = None) -> None:
    """keep_castable: for each listed cost a Boolean "still payable" with its own flow
    over the members left untapped (their free options; the pool empties, 106.4)."""
    from manasolver.solver.casting.announce import announce

    sup = problem.supply
    costs = keep_costs(problem.policy, problem.req.state, sup.player)
    if not costs:
        return
    rem = _remaining(cp, problem, uses, inst, class_assists)
    shapes = _keep_shapes(problem)
    kept = []
    kept_ci: list[int] = []
    for ci, cost in enumerate(costs):
        try:
            forms = [f for f in announce(cost, 0).forms if f.life <= sup.life and not f.energy]
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
        for (k, left, count), cls in zip(rem, sup.classes):
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
        terms["keep_castable"] = (len(kept) - sum(kept), len(kept))


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


def _keep_shapes(problem: Problem) -> list[list[tuple[int, bool, int]]] | None:
    """What one untapped member of each class could add toward a kept cost — its free,
    exclusive, unrestricted options as ``(mask, snow, units)`` rows (one-mana options merge
    into their union; a single option gives its slots) — or ``None`` when some class has
    several multi-mana options (then the flow model is used)."""
    out: list[list[tuple[int, bool, int]]] = []
    for cls in problem.supply.classes:
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


class CpSatBackend:
    """Exact optimal payments, max X and every case the fast path declines."""

    name = "cpsat"

    def solve(self, problem: Problem) -> Solution | bool:
        """The optimal :class:`Solution` under the problem's policy (``feasible`` mode:
        any payment, still with an objective), or ``False`` when there is none.

        With activations that cost mana, it first solves the relaxation where they may
        pay one another in any order, forbidding each cycle found and solving again
        (a cycle-free optimum of the relaxation is legal, hence optimal); after
        :data:`MAX_CUT_ROUNDS` rounds it solves the exact ordered model instead."""
        lower: tuple[int, ...] = ()
        if any(not k.free for k in problem.supply.classes):
            cuts: list[Cut] = []
            for _ in range(MAX_CUT_ROUNDS):
                model = build_model(problem, chains="free", cuts=tuple(cuts))
                result = self._solve_model(problem, model)
                if result is False:
                    return False
                assert not isinstance(result, bool)
                cycle = _payment_cycle(model, result[1])
                if cycle is None:
                    return result[0]
                cuts.append(cycle)
                if result[0].optimal:
                    lower = result[0].objective  # the relaxation bounds the true optimum
        result = self._solve_model(problem, build_model(problem), lower)
        return False if isinstance(result, bool) else result[0]

    def _solve_model(self, problem: Problem, model: Model,
                     lower: tuple[int, ...] = ()) -> tuple[Solution, Any] | bool:
        """Solve a built model stage by stage: the solution and the solver, or False.
        ``lower``: proven lower bounds of the first stages' objectives (from a
        relaxation), which let CP-SAT stop as soon as it reaches them."""
        from ortools.sat.python import cp_model

        cp = model.cp
        solver = _new_solver()
        objective_values: list[int] = []
        if problem.mode == "feasible":
            plan = [[("min_sources", 1)]]
        else:
            bounds = {name: ub for name, (_, ub) in model.terms.items()}
            plan = stages(problem.policy, bounds)
            if problem.mode == "max_x":
                plan = [[("max_x", 1)]] + plan
        status = None
        proven = True
        for stage in plan:
            if stage[0][0] == "max_x":
                expr: Any = -model.x
            else:
                expr = sum(w * model.terms[name][0] for name, w in stage)
            stage_index = len(objective_values)
            if stage_index < len(lower):
                cp.add(expr >= lower[stage_index])
            cp.minimize(expr)
            status = solver.solve(cp)
            if status == cp_model.INFEASIBLE:
                return False
            if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
                raise Unsupported("the CP-SAT solver hit its time bound "
                                  f"({TIME_LIMIT} s) without an answer", "cost")
            if status == cp_model.FEASIBLE:
                proven = False
            value = round(solver.objective_value)
            objective_values.append(value)
            cp.add(expr == value)
            _hint(cp, solver, model)
        if status is None:  # pragma: no cover
            return False
        sol = _extract(problem, model, solver, tuple(objective_values))
        sol.optimal = proven
        return sol, solver

    def relaxed(self, problem: Problem, relax_life: bool = False, relax_energy: bool = False,
                mana_first: bool = False) -> tuple[dict[tuple[Any, ...], int], int, int] | None:
        """Minimum slack per demand (the ``missing`` mana) with life/energy relaxed on
        request: ``(slack per demand, life short, energy short)``, or ``None``.
        ``mana_first`` minimises the missing mana before the missing life/energy."""
        from ortools.sat.python import cp_model

        model = build_model(problem, slack=True, relax_life=relax_life, relax_energy=relax_energy)
        cp = model.cp
        solver = _new_solver()
        total = sum(model.slack.values()) if model.slack else 0
        colored = sum(v for d, v in model.slack.items() if d[0] != "generic") if model.slack else 0
        short: Any = model.life_slack + model.energy_slack
        big = 1 << 20
        if mana_first:
            cp.minimize((total * big + colored) * big + short)
        else:
            cp.minimize(short * big * big + total * big + colored)
        status = solver.solve(cp)
        if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            return None
        slack = {d: int(solver.value(v)) for d, v in model.slack.items() if solver.value(v)}
        life_short = int(solver.value(model.life_slack)) if relax_life else 0
        energy_short = int(solver.value(model.energy_slack)) if relax_energy else 0
        return slack, life_short, energy_short


#: Rounds of "solve the relaxation, forbid the cycle found" before the ordered model.
MAX_CUT_ROUNDS = 4


def _payment_cycle(model: Model, solver: Any) -> Cut | None:
    """The activations of a cycle of payments of one another's mana costs in this
    solution, or None when the payments can be ordered."""
    graph: dict[tuple[int, int], list[tuple[int, int]]] = {}
    for (a, b), vs in model.pair_flows.items():
        if any(solver.value(v) for v in vs):
            graph.setdefault(a, []).append(b)
    state: dict[tuple[int, int], int] = {}
    stack: list[tuple[int, int]] = []

    def visit(node: tuple[int, int]) -> list[tuple[int, int]] | None:
        state[node] = 1
        stack.append(node)
        for nxt in graph.get(node, []):
            if state.get(nxt) == 1:
                return stack[stack.index(nxt):] + [nxt]
            if nxt not in state:
                found = visit(nxt)
                if found:
                    return found
        stack.pop()
        state[node] = 2
        return None

    for node in list(graph):
        if node not in state:
            path = visit(node)
            if path:
                return tuple(sorted(set(path)))
    return None


def _new_solver() -> Any:
    """A CP-SAT solver as this backend uses it: one worker (SPEC §8: the default two add
    ~2 ms), a time bound, linearization level 2, whose LP relaxation of the flows turns
    multi-second proofs of optimality (Signets, filter lands) into tens of ms, and no
    presolve, which on these small models costs more than it saves (Commander boards:
    median 156 -> 101 ms on the development machine)."""
    from ortools.sat.python import cp_model

    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    solver.parameters.max_time_in_seconds = TIME_LIMIT
    solver.parameters.linearization_level = 2
    solver.parameters.cp_model_presolve = False
    return solver


def _hint(cp: Any, solver: Any, model: Model) -> None:
    """Seed the next stage with this stage's solution (it stays feasible)."""
    cp.clear_hints()
    for v in model.y:
        cp.add_hint(v, solver.value(v))
    for v in list(model.uses.values()) + list(model.assist_vars.values()):
        if hasattr(v, "index") and not isinstance(v, int):
            try:
                cp.add_hint(v, solver.value(v))
            except (TypeError, AttributeError):
                pass


def _extract(problem: Problem, model: Model, solver: Any, objective: tuple[int, ...]) -> Solution:
    sup = problem.supply
    form = next(i for i, v in enumerate(model.y) if solver.value(v))
    x = int(solver.value(model.x)) if problem.x is None else problem.x
    acts: list[tuple[int, int, int]] = []
    for k, cls in enumerate(sup.classes):
        if cls.free:
            member = 0
            for o, opt in enumerate(cls.options):
                n = int(solver.value(model.uses[(k, o)]))
                if opt.exclusive:
                    for _ in range(n):
                        acts.append((k, member, o))
                        member += 1
            for o, opt in enumerate(cls.options):
                if opt.exclusive:
                    continue
                n = int(solver.value(model.uses[(k, o)]))
                for i in range(n):
                    acts.append((k, i // opt.repeat, o))
        else:
            for (kk, j, o), b in model.inst.items():
                if kk == k and solver.value(b):
                    acts.append((k, j, o))
    spend: list[tuple[tuple[object, ...], int, tuple[object, ...], int]] = []
    for s, dst, t, v in model.flows:
        n = int(solver.value(v))
        if not n:
            continue
        key = s.key if s.key[0] != "inst" else ("act", s.key[1], s.key[3], s.key[4]) + s.key[5:]
        spend.append((key, t, dst, n))
    for g, dst, t, v in model.assist_flows:
        n = int(solver.value(v))
        if n and dst[0] == "spell":
            spend.append((("convoke", g), t, dst, n))
    assists = [(kind, g, int(solver.value(v))) for (kind, g), v in model.assist_vars.items()
               if solver.value(v)]
    delved = int(solver.value(model.delve)) if not isinstance(model.delve, int) else 0
    sacrifices = [(k, o, p, f, int(solver.value(v))) for (k, o, p, f), v in model.sac_vars.items()
                  if solver.value(v)]
    taps = [(k, o, f, int(solver.value(v))) for (k, o, f), v in model.tap_vars.items() if solver.value(v)]
    roles = [(u, role, int(solver.value(v))) for (u, role), v in model.role_vars.items() if solver.value(v)]
    return Solution(form, x, acts, spend, objective, assists=assists, delved=delved,
                    sacrifices=sacrifices, taps=taps, roles=roles)


_ = ANY_COLOR, restriction_allows
