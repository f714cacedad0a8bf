"""The CP-SAT model of a payment problem (OR-Tools, imported lazily).

The model (built once per problem; solved by :mod:`~manasolver.solver.backends.cpsat.solve`):

* one Boolean per announced :class:`~manasolver.solver.casting.announce.Form`,
  ``add_exactly_one``: the announcement (601.2b) and the modifiers' effect
  (601.2f) are chosen inside the optimisation, never fixed greedily;
* X an integer (fixed, or free for ``max_x``); the generic part of each form is
  ``max(0, base + k·X − reduction, minimum − fixed mana)``;
* for each free source class an integer per option (how many members activate it),
  at most the class's count in total over its exclusive options, an ability's options
  together within its limit (602.5b); classes with an ability that costs mana (filter
  lands, Signets) or a variable counter cost (storage lands) are expanded to one Boolean
  per member and exclusive option and one integer per member and repeatable option (how
  many times it activates it), its counters removed within those it has
  (:mod:`~manasolver.solver.backends.cpsat.repeats`);
* integer flows from units (pool mana; slots of each option) to demands (each
  mask of the total, generic, snow, and each activation's own mana cost), with a
  unit paying a demand only when its types, snow flag and restriction allow it;
* mana paying an activation's cost must come from the pool, a free source, or an
  activation *ranked earlier* (integer ranks over nodes: a member's exclusive options, or
  one batch of the activations of a repeatable ability of a member, so that its activations
  may come before and after another's): never circularly (601.2g, 605.3); within a node of
  a one-mana cost, at most n - 1 of its n activations paid by the others; in each cycle of
  nodes that may pay one another, the first node activated paid by none of them;
* life: ability life ≤ life (119.4), and a form that pays life for Phyrexian
  symbols needs its life plus ability life plus damage taken ≤ life, since damage
  and ability costs happen during 601.2g, before 601.2h;
* energy paid ≤ energy (107.14); the policy's ``spend_color`` as lower bounds on the
  mana of each color spent;
* convoke, improvise and delve, sacrifice and tapping costs
  (:mod:`~manasolver.solver.backends.cpsat.resources`);
* the policy's terms (:mod:`~manasolver.solver.backends.cpsat.terms`).

With ``slack`` every demand of the total gets a slack variable, and life and energy may be
relaxed: the model behind the ``missing`` mana of an unpayable cost.

Building reads the query's deadline (:mod:`~manasolver.solver.budget`): members whose abilities
cost mana may pay one another, a flow per pair, so a board of thousands of Signets and filter
lands builds a model quadratic in them; past the deadline the build stops with
:class:`~manasolver.solver.budget.OutOfTime`.
"""

from __future__ import annotations

from typing import Any, Literal

from manasolver.models.errors import Unsupported
from manasolver.models.symbols import C, TYPE_BITS
from manasolver.solver import budget
from manasolver.solver.backends.cpsat.repeats import (
    MAX_BATCHES,
    Node,
    batch_counts,
    merged,
    node_of,
    removal,
    self_payment,
    symmetric_classes,
)
from manasolver.solver.backends.cpsat.resources import add_assists, add_roles, add_sacrifices, add_taps
from manasolver.solver.backends.cpsat.terms import add_terms
from manasolver.solver.backends.cpsat.variables import Cut, Model, Src
from manasolver.solver.backends.problem import Problem, lowest_bit
from manasolver.solver.policy import needs_types
from manasolver.models.rules.ability_scope import ability_scope, scope_pays
from manasolver.solver.supply.model import MAX_REPEAT, Option, class_types

__all__ = ["Chains", "build_model", "x_upper"]

#: How activations with mana costs may pay one another's costs (see :func:`build_model`).
Chains = Literal["ordered", "none", "free"]


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


def _colored_only(opt: Option) -> bool:
    """Does ``opt``'s mana pay colored symbols only ("This mana can't be spent to pay generic mana
    costs": Jegantha, the Wellspring)?"""
    return opt.restriction is not None and opt.restriction.no_generic


def _tail(class_snow: bool, snow: bool) -> tuple[str, ...]:
    """The source-key suffix of a snow member's nonsnow triggered mana (Wild Growth on a snow
    land): ``("act", k, o, mask, "nonsnow")`` beside the snow ``("act", k, o, mask)``."""
    return ("nonsnow",) if class_snow and not snow else ()


def x_upper(problem: Problem) -> int:
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



def build_model(problem: Problem, slack: bool = False, relax_life: bool = False,
                relax_energy: bool = False, chains: Chains = "ordered",
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

    deadline = budget.current()
    stage = "building the CP-SAT model"
    cp = cp_model.CpModel()
    sup = problem.supply
    forms = problem.forms
    typed = needs_types(problem.policy)
    # -- announcement and X ------------------------------------------------------------
    y = [cp.new_bool_var(f"form{i}") for i in range(len(forms))]
    cp.add_exactly_one(y)
    if problem.x is None:
        x: Any = cp.new_int_var(0, x_upper(problem), "x")
    else:
        x = problem.x
    # -- activations -----------------------------------------------------------------
    uses: dict[tuple[int, int], Any] = {}
    inst: dict[tuple[int, int, int], Any] = {}
    srcs: list[Src] = []
    for bit, n in sup.pool:
        srcs.append(Src(("pool", bit), bit, False, True, True, n, n, from_activation=False))
    state = problem.req.state
    removal_memo: dict[tuple[int, int], dict[tuple[int, ...], int]] = {}
    expanded: set[int] = set()
    self_paid: set[Node] = set()
    batch: dict[tuple[int, int, int, int], Any] = {}  # (k, j, o, batch): activations in that batch
    batch_order: list[list[Node]] = []  # the batches of one member's ability, in order
    capped = False  # some repeatable ability got fewer batches than its chain may need
    others, cyclic = batch_counts(sup.classes, {k for k, cls in enumerate(sup.classes)
                                        if not (cls.free and not any(opt.removes_any for opt in cls.options))})
    for k, cls in enumerate(sup.classes):
        ok = problem.spell_ok[k]
        if cls.free and not any(opt.removes_any for opt in cls.options):
            excl = []
            by_ability: dict[int, list[Any]] = {}
            for o, opt in enumerate(cls.options):
                ub = cls.count if opt.exclusive else cls.count * opt.repeat
                v = cp.new_int_var(0, ub, f"n{k}_{o}")
                uses[(k, o)] = v
                if opt.exclusive:
                    excl.append(v)
                else:
                    by_ability.setdefault(opt.ability, []).append(v)
                pays_ability = ability_scope(opt.restriction)
                for mask, snow, mult in opt.slot_groups(cls.snow):
                    srcs.append(Src(("act", k, o, mask) + _tail(cls.snow, snow), mask, snow, ok[o],
                                     pays_ability, mult * v, mult * ub, colored_only=_colored_only(opt)))
            if excl:
                cp.add(sum(excl) <= cls.count)
            for a, vs in by_ability.items():  # 602.5b: one ability's limit, over its options
                if len(vs) > 1:
                    limit = next(opt.repeat for opt in cls.options if not opt.exclusive and opt.ability == a)
                    cp.add(sum(vs) <= cls.count * limit)
        else:
            expanded.add(k)
            for j in range(cls.count):
                deadline.check(stage)
                bs = []
                nodes: dict[int, list[tuple[Option, list[Any]]]] = {}
                removed: dict[str, tuple[list[Any], int]] = {}
                bounds: dict[int, int] = {}  # a repeatable option's activations at most
                removing: dict[int, tuple[str, int, int]] = {}
                for o, opt in enumerate(cls.options):
                    if opt.exclusive:
                        continue
                    bounds[o] = 1 if merged([o for o in cls.options if o.ability == opt.ability]) else opt.repeat
                    if opt.removes_any:
                        removing[o] = removal(state, cls, j, opt, removal_memo)
                        bounds[o] = min(bounds[o], removing[o][2] // max(1, removing[o][1]))
                spans: dict[int, int] = {}  # the batches of each repeatable ability that costs mana
                for o, ub in bounds.items():
                    opt = cls.options[o]
                    if opt.mana_cost:
                        runs = min(max(bounds[p] for p in bounds if cls.options[p].ability == opt.ability),
                                   1 + others.get((k, opt.ability), 0))
                        capped = capped or runs > MAX_BATCHES
                        spans[opt.ability] = max(1, min(runs, MAX_BATCHES))
                for o, opt in enumerate(cls.options):
                    pays_ability = ability_scope(opt.restriction)
                    if opt.exclusive:
                        b = cp.new_bool_var(f"b{k}_{j}_{o}")
                        bs.append(b)
                        inst[(k, j, o)] = b
                        for mask, snow, mult in opt.slot_groups(cls.snow):
                            srcs.append(Src(("inst", k, j, o, mask) + _tail(cls.snow, snow), mask, snow,
                                             ok[o], pays_ability, mult * b, mult, inst=node_of(k, j, opt),
                                             colored_only=_colored_only(opt)))
                        continue
                    ub = bounds[o]
                    n_batches = spans.get(opt.ability, 1)
                    parts = [cp.new_int_var(0, ub, f"c{k}_{j}_{o}" + (f"_{t}" if t else ""))
                             for t in range(n_batches)]
                    for t, b in enumerate(parts):
                        batch[(k, j, o, t)] = b
                        for mask, snow, mult in opt.slot_groups(cls.snow):
                            srcs.append(Src(("inst", k, j, o, mask) + _tail(cls.snow, snow), mask, snow,
                                             ok[o], pays_ability, mult * b, mult * ub,
                                             inst=node_of(k, j, opt, t), colored_only=_colored_only(opt)))
                    total: Any = parts[0] if n_batches == 1 else sum(parts)
                    if n_batches > 1:
                        cp.add(total <= ub)
                    inst[(k, j, o)] = total
                    nodes.setdefault(opt.ability, []).append((opt, parts))
                    if o in removing:
                        kind, each, have = removing[o]
                        removed.setdefault(kind, ([], have))[0].append(each * total)
                if bs:
                    cp.add_at_most_one(bs)
                for a, members in nodes.items():
                    opts_a = [opt for opt, _ in members]
                    count = sum(sum(parts) for _, parts in members)
                    if merged(opts_a):  # storage lands: one activation each
                        cp.add(count <= 1)
                    elif len(members) > 1:  # 602.5b: one ability's limit, over its options
                        cp.add(count <= members[0][0].repeat)
                    n_batches = len(members[0][1])
                    if n_batches > 1:
                        # batches in order: one is used only if the one before it is
                        on = [cp.new_bool_var(f"on{k}_{j}_{a}_{t}") for t in range(n_batches)]
                        for t, flag in enumerate(on):
                            used = sum(parts[t] for _, parts in members)
                            cp.add(used <= MAX_REPEAT * flag)
                            cp.add(used >= flag)
                            if t:
                                cp.add_implication(flag, on[t - 1])
                        batch_order.append([(k, j, a, t) for t in range(n_batches)])
                    if self_payment(state, cls, j, opts_a):
                        self_paid.update((k, j, a, t) for t in range(n_batches))
                for kind, (parts_removed, have) in removed.items():  # 118.3, 107.3: X counters each
                    cp.add(sum(parts_removed) <= have)
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
        gen_ub = max(f.generic(x_upper(problem)) for f in forms)
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
    cost_node: dict[tuple[Any, ...], Node] = {}  # an activation's cost: whose it is
    cost_mask: dict[tuple[Any, ...], int | None] = {}  # the types it takes (None: generic)
    payers = [((k, j, o), b, node_of(k, j, sup.classes[k].options[o]))
              for (k, j, o), b in inst.items() if sup.classes[k].options[o].exclusive]
    payers += [((k, j, o), b, node_of(k, j, sup.classes[k].options[o], t)) for (k, j, o, t), b in batch.items()]
    for (k, j, o), b, node in payers:
        opt = sup.classes[k].options[o]
        for dkey, amt in _cost_demands(opt):
            key = ("cost", k, j) + dkey if node[2] < 0 else ("cost", k, j, "ability", node[2], node[3]) + dkey
            dst_amount[key] = dst_amount.get(key, 0) + amt * b
            cost_node[key] = node
            cost_mask[key] = int(dkey[1]) if dkey[0] == "mask" else None
    # -- flows -----------------------------------------------------------------------
    flows: list[tuple[Src, tuple[Any, ...], int, Any]] = []
    into: dict[tuple[Any, ...], list[Any]] = {d: [] for d in dst_amount}
    out_of: list[list[Any]] = [[] for _ in srcs]
    prec: dict[tuple[Node, Node], Any] = {}
    pair_flows: dict[tuple[Node, Node], list[Any]] = {}
    self_flows: dict[Node, list[Any]] = {}
    fed_by: dict[Node, list[tuple[Node, Any]]] = {}  # per node: the flows from other nodes into its cost
    ranks: dict[Node, Any] = {}
    n_nodes = len({node for _, _, node in payers})
    costly_nodes = set(cost_node.values())
    ordered_members = symmetric_classes(sup.classes, expanded)

    def rank(key: Node) -> Any:
        if key not in ranks:
            name = f"rank{key[0]}_{key[1]}" if key[2] < 0 else f"rank{key[0]}_{key[1]}_{key[2]}_{key[3]}"
            ranks[key] = cp.new_int_var(0, max(0, n_nodes - 1), name)
        return ranks[key]

    def add_flow(si: int, s: Src, dst: tuple[Any, ...], dmask: int) -> None:
        inter = s.mask & dmask
        if not inter:
            return
        bits = [b for b in TYPE_BITS if inter & b] if typed and dst[0] != "cost" \
            else [lowest_bit(inter)]
        for t in bits:
            v = cp.new_int_var(0, s.ub, f"f{si}_{len(flows)}")
            flows.append((s, dst, t, v))
            into[dst].append(v)
            out_of[si].append(v)
            if dst[0] != "cost" or s.inst not in costly_nodes:
                continue  # a node whose options cost no mana is never paid: first in any order
            pair = (s.inst, cost_node[dst])
            if pair[0] == pair[1]:  # a node's earlier activations paying its later ones
                self_flows.setdefault(pair[0], []).append(v)
                continue
            fed_by.setdefault(pair[1], []).append((pair[0], v))
            if chains == "free":
                pair_flows.setdefault(pair, []).append(v)
            elif chains == "ordered":
                if pair not in prec:
                    p = cp.new_bool_var(f"prec{pair}")
                    prec[pair] = p
                    cp.add(rank(pair[0]) + 1 <= rank(pair[1])).only_enforce_if(p)
                cp.add(v == 0).only_enforce_if(prec[pair].Not())

    dst_types = [class_types(state, cls) for cls in sup.classes]  # whose abilities scoped mana pays
    for si, s in enumerate(srcs):
        deadline.check(stage)  # members that cost mana: a flow per pair, quadratic in them
        for dst in dst_amount:
            if dst[0] == "spell":
                if s.pays_spell:
                    add_flow(si, s, dst, int(dst[1]))
            elif dst[0] == "generic":
                if s.pays_spell and not s.colored_only:
                    add_flow(si, s, dst, s.mask)
            elif dst[0] == "snow":  # {S} is generic mana (CR 107.4h)
                if s.pays_spell and s.snow and not s.colored_only:
                    add_flow(si, s, dst, s.mask)
            else:  # an activation's own mana cost
                if not scope_pays(s.pays_ability, dst_types[cost_node[dst][0]]):
                    continue
                if s.colored_only and cost_mask[dst] is None:
                    continue  # its generic part
                if s.inst is not None and (chains == "none" or (s.inst == cost_node[dst]
                                                                and s.inst not in self_paid)):
                    continue
                if s.inst is not None and s.inst[:3] == cost_node[dst][:3] and s.inst[3] != cost_node[dst][3] and (
                        s.inst[3] > cost_node[dst][3] or s.inst not in self_paid):
                    continue  # batches of one ability: an earlier one pays a later one, when they self-pay
                if (s.inst in costly_nodes and s.inst[0] in ordered_members
                        and s.inst[0] == cost_node[dst][0] and s.inst[1] > cost_node[dst][1]):
                    continue  # alike members pay one another in board order (repeats.py)
                dmask = cost_mask[dst]
                add_flow(si, s, dst, s.mask if dmask is None else dmask)
    for node, vs in self_flows.items():
        # n activations of one node: at most n - 1 of them paid by the others (repeats.py)
        k, j, a, t = node
        count = sum(batch[(k, j, o, t)] for o, opt in enumerate(sup.classes[k].options)
                    if not opt.exclusive and opt.ability == a)
        active = cp.new_bool_var(f"active{node}")
        cp.add(count <= MAX_REPEAT * active)
        cp.add(sum(vs) + active <= count)
    for si, s in enumerate(srcs):
        if out_of[si]:
            cp.add(sum(out_of[si]) <= s.amount)
    for comp in cyclic:  # the first activation of a component is paid by none of its nodes (repeats.py)
        inside = set(comp)
        steps = sorted(node for node in costly_nodes if (node[0], node[2]) in inside)
        starts = []
        for node in steps:
            count = sum(b for (k, j, o), b, nd in payers if nd == node)
            live = cp.new_bool_var(f"live{node}")
            cp.add(count >= live)
            cp.add(count <= MAX_REPEAT * live)
            opens = cp.new_bool_var(f"first{node}")
            cp.add_implication(opens, live)
            inner = [v for src, v in fed_by.get(node, []) if (src[0], src[2]) in inside]
            if inner:
                cp.add(sum(inner) == 0).only_enforce_if(opens)
            starts.append((live, opens))
        for live, _ in starts:
            cp.add(sum(o for _, o in starts) >= live)
    if chains == "ordered":
        for chain in batch_order:  # batches of one ability: in order (repeats.py)
            for first, then in zip(chain, chain[1:]):
                if first in ranks or then in ranks:
                    cp.add(rank(first) + 1 <= rank(then))
    for ci, cut in enumerate(cuts):
        fed: list[Any] = []
        for node in cut:
            z = cp.new_bool_var(f"cut{ci}_{len(fed)}")
            inner = [v for other in cut if other != node for v in pair_flows.get((other, node), [])]
            if inner:
                cp.add(sum(inner) == 0).only_enforce_if(z.Not())
            fed.append(z)
        cp.add(sum(fed) <= len(cut) - 1)
    deadline.check(stage)
    model = Model(cp, y, x, uses, inst, flows)
    model.pair_flows = pair_flows
    model.expanded = expanded
    model.batch = batch
    model.capped = capped
    class_assists = add_assists(cp, problem, model, dst_amount, into)
    add_sacrifices(cp, problem, model)
    add_taps(cp, problem, model)
    consumed = dict(class_assists)  # members no longer untapped on the battlefield afterwards
    for k, expr in add_roles(cp, problem, model).items():
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
    spent_of: dict[int, list[Any]] = {b: [] for b in TYPE_BITS[:5]}
    if typed:
        for s, dst, t, v in flows:
            if dst[0] != "cost" and t in spent_of:
                spent_of[t].append(v)
        for color, n in problem.policy.spend_color:
            bit = 1 << "WUBRG".index(color)
            cp.add(sum(spent_of[bit]) >= n)
    life_term = ab_life + damage + sum(y[i] * f.life for i, f in enumerate(forms) if f.life)
    deadline.check(stage)
    add_terms(cp, problem, model, srcs, opts, life_term, form_energy + ab_energy, spent_of, consumed)
    deadline.check(stage)
    return model
