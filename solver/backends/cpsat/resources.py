"""What a payment uses besides mana in the CP-SAT model: assists, sacrifices, tapped permanents.

* convoke, improvise and delve (when the request allows them) as integers per assist group
  paying the locked total's generic and (convoke) colored demands, sharing each permanent's one
  tap with its mana abilities and Springleaf Drum (:func:`add_assists`; 702.51, 702.126, 702.66);
* "sacrifice a creature/artifact" costs as integers per sacrifice part and fodder group
  (:func:`add_sacrifices`; Ashnod's Altar, CR 701.21a), and likewise the cards of the hand or
  graveyard a cost discards or exiles (Skirge Familiar, Cadaverous Bloom; the supply's zone
  fodder), the graveyard's shared with delve;
* "tap an untapped <type> you control" costs as integers per option and tappable group
  (:func:`add_taps`; Springleaf Drum, Heritage Druid);
* which member of each member group plays which roles (:func:`member_roles`, :func:`add_roles`),
  so that the sacrificed, tapped, activating and assisting permanents all fit the same members.
"""

from __future__ import annotations

from typing import Any

from manasolver.models.abilities import GRAVEYARD_CARD
from manasolver.models.symbols import C
from manasolver.solver.backends.cpsat.variables import Model, Role
from manasolver.solver.backends.problem import Problem, lowest_bit
from manasolver.solver.supply.model import Option
from manasolver.solver.supply.resources import member_groups

__all__ = ["add_assists", "add_roles", "add_sacrifices", "add_taps", "member_roles"]


def add_taps(cp: Any, problem: Problem, model: Model) -> None:
    """"Tap an untapped <type> you control" costs (Springleaf Drum, Heritage Druid, Urza; CR
    118.3, 302.6): per option and tappable group an integer (members it taps), each
    activation tapping ``tap_creatures`` permanents with one of the option's ``tap_types``.
    Which members may be tapped is decided with their other roles (:func:`add_roles`)."""
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


def add_sacrifices(cp: Any, problem: Problem, model: Model) -> None:
    """"Sacrifice a creature/artifact" costs (Ashnod's Altar, Krark-Clan Ironworks; CR 118.3,
    701.21a): per sacrifice part of an option and fodder group an integer (members it takes),
    each activation sacrificing one permanent per part.  Which members may be sacrificed is
    decided with their other roles (:func:`add_roles`)."""
    sup = problem.supply
    grave: list[Any] = []
    for (k, o), v in model.uses.items():
        opt = sup.classes[k].options[o]
        for p, what in enumerate(opt.sacrifice_other):
            takes = []
            for f, fod in enumerate(sup.fodder):
                if what in fod.matches:
                    z = cp.new_int_var(0, fod.count, f"sac{k}_{o}_{p}_{f}")
                    model.sac_vars[(k, o, p, f)] = z
                    takes.append(z)
                    if what == GRAVEYARD_CARD:
                        grave.append(z)
            cp.add(sum(takes) == v)
    if grave and not isinstance(model.delve, int):
        # Delve and "exile a card from your graveyard" share the graveyard's cards (702.66a, 118.3).
        cp.add(model.delve + sum(grave) <= len(problem.assists.graveyard))


def member_roles(opts: tuple[Option, ...], untapped: bool, tappable: bool, fodder: bool,
                 assists: bool) -> list[Role]:
    """Every role combination one member of a :class:`~manasolver.solver.supply.model.Group` may play in one payment,
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


def add_roles(cp: Any, problem: Problem, model: Model) -> dict[int, Any]:
    """Which member of each :class:`~manasolver.solver.supply.model.Group` plays which roles (:func:`member_roles`): one
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


def add_assists(cp: Any, problem: Problem, model: Model, dst_amount: dict[tuple[Any, ...], Any],
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
