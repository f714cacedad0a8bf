"""Policies: what "best" means, as integer terms compared lexicographically.

Every criterion is a *term to minimise* with a known upper bound; the backend
builds the term's expression (:data:`CRITERIA` says what each one counts) and
this module decides how the terms are combined:

* the criteria of a policy are compared lexicographically, in order;
* adjacent criteria are merged into one objective with exact integer weights
  (``weight_i = Π_{j>i} (bound_j + 1)``) as long as the weights stay below
  :data:`WEIGHT_LIMIT`, so a lexicographic policy is usually one solve; beyond it
  a new *stage* starts (solve, fix the optimum, go on) — exact either way;
* a caller's ``weights`` replace the order by one weighted sum;
* ``min_convoke``, ``min_improvise``, ``min_delve`` (when convoke, improvise or delve
  can be used) refine ties after the named criteria unless the policy names them
  earlier (:data:`ASSIST_CRITERIA`); under the default policy a convoked creature, an
  improvised artifact or a delved card also counts as a non-land source for
  ``prefer_lands`` and ``min_sources``, so lands pay first and assists are used when
  mana falls short or when they save what comes earlier (life, kept spells, colors);
* the last stage is always the tie-break by permanent order (earlier permanents
  first), so equal payments come out the same every time.

>>> first = [name for name, _ in stages(Policy(), {c: 10 for c in CRITERIA})[0]]
>>> first[:6]
['no_sacrifice', 'min_life', 'keep_castable', 'keep_colors', 'min_waste', 'prefer_lands']
>>> first[6:]
['min_sources', 'use_pool', 'min_convoke', 'min_improvise', 'min_delve']
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import Literal

from manasolver.models.cost import ManaCost
from manasolver.models.errors import BadQuery
from manasolver.models.state import GameState
from manasolver.solver.request import DEFAULT_POLICY, PLAIN_POLICY, Criterion, Policy

__all__ = ["ASSIST_CRITERIA", "CRITERIA", "KEEP_LIMIT", "WEIGHT_LIMIT", "check_policy", "criteria_vector",
           "for_backends", "keep_costs", "keep_counts", "needs_types", "stages"]

#: Every criterion a policy may name, and what its term counts (all minimised), and
#: ``tiebreak``, the term every policy ends with.
CRITERIA: dict[Criterion | Literal["tiebreak"], str] = {
    "no_sacrifice": ("permanents and cards a cost takes for good (a Treasure or Lotus Petal sacrificed, an Altar's "
                     "fodder, Mirrored Lotus exiled, a Spirit Guide exiled from the hand)"),
    "preserve": "permanents of sources.preserve used (ranked right after no_sacrifice when not named)",
    "min_life": "life paid (Phyrexian symbols, life costs) plus damage taken (pain lands)",
    "keep_castable": "listed costs (default: the cards in hand) no longer payable from what stays untapped",
    "keep_colors": "colors (of W U B R G) no longer producible by what stays untapped",
    "min_waste": "mana produced and not spent",
    "prefer_lands": "non-land permanents activated",
    "min_sources": "activations",
    "use_pool": "floating mana left unspent",
    "max_colors_spent": "colors (of W U B R G) not among the mana spent on the cost (converge, sunburst)",
    "min_energy": "energy paid",
    "min_convoke": "creatures tapped for convoke (CR 702.51)",
    "min_improvise": "artifacts tapped for improvise (CR 702.126)",
    "min_delve": "cards exiled from the graveyard for delve (CR 702.66)",
    "tiebreak": "board positions of the permanents used (earlier first)",
}

#: Criteria appended after a policy's own (before the tie-break) when not named in it.
ASSIST_CRITERIA: tuple[Criterion, ...] = ("min_convoke", "min_improvise", "min_delve")

#: The largest merged weight: beyond it the policy is solved in sequential stages.
WEIGHT_LIMIT = 1 << 40


def check_policy(policy: Policy) -> None:
    """Refuse unknown criteria and spend_color entries with a :class:`BadQuery`.
    :data:`PLAIN_POLICY`, the policy of every query that names none, holds the default criteria:
    it passes at once (every payment query is checked)."""
    if policy is PLAIN_POLICY:
        return
    named: Sequence[str] = policy.criteria  # a caller may build a Policy of any strings
    for i, name in enumerate(named):
        if name not in CRITERIA or name == "tiebreak":
            raise BadQuery(f"unknown policy criterion {name!r}; known: "
                           + ", ".join(c for c in CRITERIA if c != "tiebreak"), f"policy[{i}]")
    for name, w in policy.weights:
        if name not in CRITERIA:
            raise BadQuery(f"unknown policy criterion {name!r} in weights", "policy.weights")
        if w < 0:
            raise BadQuery(f"weights must be 0 or more, not {w}", "policy.weights")
    for color, n in policy.spend_color:
        if color not in "WUBRG" or len(color) != 1 or n < 0:
            raise BadQuery(f"bad spend_color entry {color}: {n}", "policy.spend_color")


def for_backends(policy: Policy) -> Policy:
    """The policy a backend optimises: without ``preserve``.  Which preserved permanents a
    payment may use is decided outside the backends (each allowed set solved on a board where the
    others are unusable, the payments compared by their scores, where ``preserve`` stands at its
    place in the policy), so a backend never counts it."""
    if "preserve" not in policy.criteria:
        return policy
    return dataclasses.replace(policy, criteria=tuple(c for c in policy.criteria if c != "preserve"))


def needs_types(policy: Policy) -> bool:
    """True when the model must say which type each spent mana was (converge, adamant)."""
    return bool(policy.spend_color) or "max_colors_spent" in policy.criteria or any(
        n == "max_colors_spent" for n, _ in policy.weights)


#: The most distinct costs a policy's ``keep_castable`` list may name: each is one flow (CP-SAT)
#: or one Hall check per candidate (fastopt), so a longer list is refused, never cut silently.
#: Repeats of one cost are not distinct: they count once each in the term, checked once.
KEEP_LIMIT = 64


def keep_counts(policy: Policy, state: GameState, player: str) -> tuple[tuple[ManaCost, int], ...]:
    """The costs ``keep_castable`` tries to keep payable, each with how many of the listed
    costs it stands for: the policy's list with repeats merged (first occurrence order, at
    most :data:`KEEP_LIMIT` distinct, else a :class:`BadQuery` naming the first one beyond),
    else the mana costs of the cards in the player's hand, repeats merged the same way (cards
    without one are skipped).  Losing a cost listed n times counts n, as the listed costs (and
    the cards in hand) are counted."""
    if policy.keep_castable is not None:
        merged: dict[str, int] = {}
        first: dict[str, ManaCost] = {}
        for i, cost in enumerate(policy.keep_castable):
            text = cost.format()
            if text not in merged:
                if len(merged) == KEEP_LIMIT:
                    raise BadQuery(f"keep_castable names more than {KEEP_LIMIT} distinct costs",
                                   f"policy.keep_castable[{i}]")
                merged[text] = 0
                first[text] = cost
            merged[text] += 1
        return tuple((first[t], n) for t, n in merged.items())
    counted: dict[str, tuple[ManaCost, int]] = {}  # a hand's repeats merged too, each card counted
    for c in state.player(player).hand:
        if c.mana_cost is not None and c.mana_cost.symbols:
            text = c.mana_cost.format()
            seen = counted.get(text)
            counted[text] = (c.mana_cost, 1) if seen is None else (seen[0], seen[1] + 1)
    return tuple(counted.values())


def keep_costs(policy: Policy, state: GameState, player: str) -> tuple[ManaCost, ...]:
    """The distinct costs of :func:`keep_counts`, in its order."""
    return tuple(c for c, _ in keep_counts(policy, state, player))


def criteria_vector(terms: Mapping[str, int], criteria: Sequence[str]) -> tuple[int, ...]:
    """The lexicographic vector of a payment under a policy: the value of each criterion of
    ``criteria`` in order, then the tie-break, read from ``terms`` (each criterion's term as
    :data:`CRITERIA` describes it, and ``"tiebreak"``).  Comparing two such vectors with ``<``
    compares the payments as the policy does; every criterion named must be in ``terms``.

    >>> criteria_vector({"min_life": 2, "min_sources": 3, "tiebreak": 7}, ("min_sources", "min_life"))
    (3, 2, 7)
    """
    return (*[terms[name] for name in criteria], terms["tiebreak"])


def stages(policy: Policy, bounds: dict[str, int]) -> list[list[tuple[str, int]]]:
    """The objective stages: each a list of ``(criterion, integer weight)`` to minimise
    together; criteria absent from ``bounds`` (nothing to count) are skipped."""
    check_policy(policy)
    if policy.weights:
        weighted = [(n, w) for n, w in policy.weights if w and n in bounds]
        out = [weighted] if weighted else []
        return out + [[("tiebreak", 1)]]
    names: list[str] = [n for n in policy.criteria if n in bounds]
    names += [n for n in ASSIST_CRITERIA if n in bounds and n not in names] + ["tiebreak"]
    if "tiebreak" not in bounds:
        names.pop()
    result: list[list[str]] = []
    group: list[str] = []
    span = 1
    for name in names:
        size = bounds[name] + 1
        if group and span * size > WEIGHT_LIMIT:
            result.append(group)
            group, span = [], 1
        group.append(name)
        span *= size
    if group:
        result.append(group)
    out2: list[list[tuple[str, int]]] = []
    for grp in result:
        weights: list[tuple[str, int]] = []
        w = 1
        for name in reversed(grp):
            weights.append((name, w))
            w *= bounds[name] + 1
        out2.append(list(reversed(weights)))
    return out2


_ = DEFAULT_POLICY
