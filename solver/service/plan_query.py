"""The ``plan`` query's fields: the costs, each cast as its own ``pay`` query would cast it.

A plan lists at most :data:`MAX_COSTS` costs, each an object with its own cost context
(:data:`COST_FIELDS`); the board, the player, the card data and the policy are the plan's.  Each
cost's errors are named by its place (``costs[i]``), the board's by theirs.
"""

from __future__ import annotations

import dataclasses

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from manasolver.models.errors import BadQuery, ManasolverError, UnknownField
from manasolver.solver.service import decode
from manasolver.solver.plan.board_after import hand_places
from manasolver.solver.plan.joint import plan
from manasolver.solver.plan.with_sources import plan_sourced
from manasolver.solver.sources import read_sources

if TYPE_CHECKING:
    from manasolver.solver.request import PaymentRequest

__all__ = ["COST_FIELDS", "MAX_COSTS", "plan_query"]

#: The most costs one plan may list (a bound: a longer list is refused, never cut).
MAX_COSTS = 20

#: The fields of one cost of a plan: a ``pay`` query's cost context (the policy is the plan's).
COST_FIELDS = frozenset({"cost", "spell", "x", "modifiers", "alternative", "additional", "convoke", "delve",
                         "improvise"})

#: The fields of the plan query a cost's own ``pay`` query shares.
_SHARED = ("state", "player", "cards", "policy")


Prepare = Callable[[dict[str, Any]], "PaymentRequest | dict[str, Any]"]
Refuse = Callable[["PaymentRequest"], None]


def plan_query(query: dict[str, Any], prepare: Prepare, refuse: Refuse) -> dict[str, Any]:
    """Answer a ``plan`` query object.  ``prepare`` casts one cost's ``pay`` query up to its
    payment (a request, or the reason it can't be cast: ``not_castable``, ``timing``);
    ``refuse`` raises what the engine does not model for a request (the protocol's)."""
    costs = query.get("costs")
    if costs is None:
        raise BadQuery('missing "costs": a list of cost objects such as [{"cost": "{R}"}, {"cost": "{U}{U}"}]',
                       "costs")
    if not isinstance(costs, list):
        raise BadQuery('costs must be a list of cost objects such as [{"cost": "{R}"}]', "costs")
    if not costs:
        raise BadQuery("costs must list at least one cost", "costs")
    if len(costs) > MAX_COSTS:
        raise BadQuery(f"costs lists {len(costs)} costs; a plan takes at most {MAX_COSTS}", f"costs[{MAX_COSTS}]")
    state = decode.load_state_field(query)  # the board's own errors name their place in it
    player = decode.player(query, state)
    decode.policy(query)
    chosen = read_sources(query.get("sources"), state)
    steps: list[PaymentRequest | dict[str, Any]] = []
    for i, item in enumerate(costs):
        where = f"costs[{i}]"
        if not isinstance(item, dict):
            raise BadQuery('each cost of a plan is an object such as {"cost": "{R}"}', where)
        for key in item:
            if key not in COST_FIELDS:
                hint = " (the policy is the plan's)" if key == "policy" else ""
                raise UnknownField(f"unknown field {key!r} for a cost of a plan{hint}; known: "
                                   + ", ".join(sorted(COST_FIELDS)), f"{where}.{key}")
        sub = {k: query[k] for k in _SHARED if k in query}
        sub.update(item)
        sub["query"] = "pay"
        try:
            got = prepare(sub)
            if not isinstance(got, dict):
                refuse(got)
        except ManasolverError as err:
            raise (err if err.where.startswith(("battlefield", "players", "state")) else err.at(where)) from None
        steps.append(got)
    planned = plan_sourced(steps, chosen) if chosen else plan(steps)
    if planned.payable:  # each card of the hand named where the earlier payments leave it
        requests = [s for s in steps if not isinstance(s, dict)]
        planned = dataclasses.replace(planned, payments=hand_places(requests, planned.payments))
    from manasolver.models.rules.uncertain import uncertain_sources
    found = uncertain_sources(state, player)
    return (dataclasses.replace(planned, uncertain=found) if found else planned).to_json()

