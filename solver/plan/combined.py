"""The plan as one problem: the sums of one form per cost, over the board's one supply.

Every cost of a plan pays from the same sources and the pool does not empty between casts in one
step (CR 106.4), so the plan's costs can be paid by one payment of their summed totals: each
combined form is one form per cost added up (each cost's 601.2f total locked in), and one
optimisation chooses every announcement and every activation of the whole plan under the policy.
Announcements with equal sums pay alike, so the sums are merged as they are built.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from manasolver.models.cost import ManaCost
from manasolver.models.errors import Unsupported
from manasolver.solver.backends.problem import Problem
from manasolver.solver.casting.announce import MAX_FORMS, Announcement, Form
from manasolver.solver.policy import for_backends

__all__ = ["Combined", "needs", "plan_policy", "sum_form"]


@dataclass(frozen=True)
class Combined:
    """The plan as one problem: ``problem``'s form ``i`` is the sum of the costs' forms
    ``parts[i]`` (one index per cost), ``costs`` the costs' own problems."""

    problem: Problem
    parts: tuple[tuple[int, ...], ...]
    costs: tuple[Problem, ...]
    restricted: bool = False
    exact_life: bool = False

    @staticmethod
    def of(problems: Sequence[Problem]) -> Combined:
        first = problems[0]
        restricted = any(p.spell_ok != first.spell_ok for p in problems)
        # the sums of one form per cost, built cost by cost and merged as they go where two ways
        # to announce pay alike: costs that restricted mana treats alike (CR 106.6) summed apart
        # from the others, and the last cost apart (its life is paid after the others':
        # exact_life), so that a plan of twenty {B/P} has 40 sums, not 2**20, and {U/P} for a
        # spell beside {U/P} for a creature spell that Ancient Ziggurat's mana may pay keeps
        # both ways to split them
        group: dict[object, int] = {}
        groups = [group.setdefault(p.spell_ok if restricted else None, len(group)) for p in problems[:-1]]
        groups.append(len(group))
        empty = sum_form([], [])
        seen: dict[tuple[Form, ...], tuple[int, ...]] = {(empty,) * (len(group) + 1): ()}
        for p, g in zip(problems, groups):
            x = p.x if p.x is not None else 0
            grown: dict[tuple[Form, ...], tuple[int, ...]] = {}
            for acc, parts in seen.items():
                for f, form in enumerate(p.forms):
                    key = acc[:g] + (sum_form([acc[g], form], [0, x]),) + acc[g + 1:]
                    grown.setdefault(key, parts + (f,))
                    if len(grown) > MAX_FORMS:
                        raise Unsupported(f"the plan's costs have more than {MAX_FORMS} distinct totals "
                                          "of their announcements together, more than this engine "
                                          "enumerates", "costs")
            seen = grown
        symbols = [s for p in problems for s in p.req.cost.symbols if not s.variable]
        cost = ManaCost.of(symbols)
        # the costs' demands are each paid as the 609.4b rules reaching it allow (their forms'
        # masks); the plan's kept costs are read as a payment under those rules reads them
        spend = next((p.announcement.spend for p in problems if not p.announcement.spend.identity),
                     first.announcement.spend)
        ann = Announcement(tuple(sum_form(sums, [0] * len(sums)) for sums in seen), 0, cost, spend)
        policy = plan_policy(problems)
        req = dataclasses.replace(first.req, cost=cost, x=0, modifiers=(), alternative=None, policy=policy)
        # restricted mana may pay the plan where it may pay any of its costs; each cost's own
        # restrictions are then the per-cost flows' (solve_restricted)
        ok = first.spell_ok if not restricted else tuple(
            tuple(any(p.spell_ok[k][o] for p in problems) for o in range(len(row)))
            for k, row in enumerate(first.spell_ok))
        problem = dataclasses.replace(first, req=req, announcement=ann, x=0, policy=for_backends(policy), spell_ok=ok)
        return Combined(problem, tuple(seen.values()), tuple(problems), restricted)

    def exact(self) -> Combined:
        """The plan with life followed cost by cost (:func:`exact_life`), when every source of
        the board costs no mana; ``None`` otherwise."""
        return dataclasses.replace(self, exact_life=True)

    @property
    def exact_possible(self) -> bool:
        return all(cls.free for cls in self.problem.supply.classes)

    def with_life(self, extra: int | None) -> Combined:
        """The plan with each combined form paying ``extra`` more life (1: every plan found keeps
        the player above 0 life to its end, as the forms' life bounds the whole plan's loss), or
        with ``None`` the player given as much more life as the damage the plan could take (a
        relaxation: the life paid, Phyrexian and abilities', stays within the life total, damage
        is not counted; payable if any order is)."""
        problem = self.problem
        if extra is None:
            damage = sum(max(((o.damage * (1 if o.exclusive else o.repeat)) for o in cls.options), default=0)
                         * cls.count for cls in problem.supply.classes)
            supply = dataclasses.replace(problem.supply, life=problem.supply.life + damage)
            return dataclasses.replace(self, problem=dataclasses.replace(problem, supply=supply))
        forms = tuple(dataclasses.replace(f, life=f.life + extra) for f in problem.forms)
        ann = dataclasses.replace(problem.announcement, forms=forms)
        return dataclasses.replace(self, problem=dataclasses.replace(problem, announcement=ann))


def sum_form(forms: Sequence[Form], xs: Sequence[int]) -> Form:
    """One form paying every form of ``forms`` (each at its own X, its 601.2f total locked)."""
    demand: dict[int, int] = {}
    for f in forms:
        for mask, n in f.demands:
            demand[mask] = demand.get(mask, 0) + n
    return Form(tuple(sorted(demand.items())), sum(f.snow for f in forms),
                sum(f.generic(x) for f, x in zip(forms, xs)), 0, 0, 0,
                sum(f.life for f in forms), sum(f.energy for f in forms), (), ())


def plan_policy(problems: Sequence[Problem]) -> Any:
    """The plan's policy: the costs' (one policy), with ``keep_castable``'s default, the cards in
    hand, read without the cards the plan casts from there (they are on the stack)."""
    policy = problems[0].req.policy
    if policy.keep_castable is not None or any(k.hand for k in problems[0].supply.classes):
        return policy
    state, player = problems[0].req.state, problems[0].req.player
    hand = list(state.player(player).hand)
    cast_any = False
    for p in problems:
        spell = p.req.spell
        if spell is None or spell.ability or spell.card is None:
            continue
        for j, card in enumerate(hand):
            if card.name.lower() == spell.card.name.lower():
                del hand[j]
                cast_any = True
                break
    if not cast_any:
        return policy
    keep = tuple(c.mana_cost for c in hand if c.mana_cost is not None and c.mana_cost.symbols)
    return dataclasses.replace(policy, keep_castable=keep)



def needs(p: Problem, f: int) -> dict[tuple[object, ...], int]:
    """The demands of form ``f`` of ``p``: its masks, generic and snow."""
    form = p.forms[f]
    d: dict[tuple[object, ...], int] = {("spell", m): n for m, n in form.demands}
    g = form.generic(p.x if p.x is not None else 0)
    if g:
        d[("generic",)] = g
    if form.snow:
        d[("snow",)] = form.snow
    return d

