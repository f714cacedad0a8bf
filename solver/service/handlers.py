"""The handler of each protocol query: a checked query object in, its answer object out.

The protocol (:mod:`~manasolver.solver.service.protocol`) reads a query, checks its name and
fields, resolves a session's board, and calls the handler named for the query here (:data:`HANDLERS`).
A payment query's handler builds its request (:func:`build_request`: the fields decoded by
:mod:`~manasolver.solver.service.decode`, the spell cast or the ability activated up to its payment
by :mod:`~manasolver.solver.casting.build`), answers a spell that can't be cast, or not now, with
its reason (:func:`prepare`), refuses what the engine does not model on the board
(:mod:`~manasolver.solver.supply.unmodelled`), and asks the engine.  Each handler imports the
solvers it needs when it runs, so that a light query never loads them.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from manasolver.models.errors import BadQuery
from manasolver.models.symbols import mask_letters
from manasolver.solver.service import decode
from manasolver.solver.service.decode import load_state_field

if TYPE_CHECKING:
    from manasolver.solver import sources
    from manasolver.solver.casting import abilities, alternatives, build
    from manasolver.solver.request import PaymentRequest
    from manasolver.solver.supply import unmodelled

__all__ = ["HANDLERS", "answer_json", "build_request", "prepare", "timing_reason"]

#: The most payments or pools a query may ask for (``limit``).
_MAX_LIMIT = 100_000
#: Are the engine's modules imported here yet (:func:`_import_engine`)?
_ENGINE = False


def _import_engine() -> None:
    """Import the engine's modules that the payment queries call, as this module's globals: on the
    first payment query (a light query never loads them), once, so that no later query runs an
    import statement for them (``from package import module`` runs importlib's Python code each
    time: a microsecond or so)."""
    global _ENGINE, abilities, alternatives, build, sources, unmodelled
    from manasolver.solver import sources
    from manasolver.solver.casting import abilities, alternatives, build
    from manasolver.solver.supply import unmodelled
    _ENGINE = True


def build_request(query: dict[str, Any]) -> PaymentRequest:
    """Turn a payment query into a :class:`~manasolver.solver.request.PaymentRequest`: its
    fields decoded (:mod:`~manasolver.solver.service.decode`), then the spell cast or the ability
    activated up to the payment (:mod:`~manasolver.solver.casting.build`)."""
    if not _ENGINE:
        _import_engine()
    state, db = decode.state_and_db(query)
    player = decode.player(query, state)
    if decode.names_ability(query.get("spell")):
        ability = decode.ability_spell(query)
        convoke, delve, improvise = _assist_flags(query)
        return build.build_activation(state, player, ability,
                                      lambda name: decode.card_db(query).get(name, "spell.card"),
                                      decode.integer(query, "x", None), decode.modifiers(query),
                                      decode.policy(query), convoke=convoke, delve=delve, improvise=improvise)
    spell = decode.spell(query, db)
    cost = decode.cost(query, required=False)
    x = decode.integer(query, "x", None)
    convoke, delve, improvise = _assist_flags(query)
    req = build.build_request(state, player, spell, cost, x, decode.modifiers(query), decode.policy(query),
                              alternative=query.get("alternative"),
                              additional=query["additional"] if "additional" in query else build.NOT_GIVEN,
                              convoke=convoke, delve=delve, improvise=improvise)
    if query.get("sources") is not None:
        from manasolver.solver.sources import read_sources
        req = dataclasses.replace(req, sources=read_sources(query["sources"], state))
    return req


def _assist_flags(query: dict[str, Any]) -> tuple[bool | None, bool | None, bool | None]:
    """The ``convoke``, ``delve`` and ``improvise`` flags of a query, in that order (``None``: not
    given)."""
    if "convoke" not in query and "delve" not in query and "improvise" not in query:
        return None, None, None
    return decode.flag(query, "convoke"), decode.flag(query, "delve"), decode.flag(query, "improvise")


def prepare(query: dict[str, Any]) -> PaymentRequest | dict[str, Any]:
    """The request of a payment query, or the reason it can't be cast
    (``not_castable``: no mana cost, two alternative costs, X with an alternative cost;
    ``insufficient_life`` for an ability's life payment; ``timing``: not now)."""
    if not _ENGINE:
        _import_engine()
    try:
        req = build_request(query)
    except alternatives.NotCastable as err:
        return {"code": "not_castable", "message": str(err)}
    except abilities.NotActivatable as err:
        return {"code": err.code, "message": str(err)}
    return timing_reason(query, req) or req


def timing_reason(query: dict[str, Any], req: PaymentRequest) -> dict[str, Any] | None:
    """The ``timing`` reason when the spell or ability can't be cast or activated now
    (:func:`~manasolver.solver.casting.build.timing_refusal`), checked only when the state
    gives a ``turn`` (the board makes it optional)."""
    if not decode.turn_given(query):
        return None
    if not _ENGINE:
        _import_engine()
    message = build.timing_refusal(req)
    return None if message is None else {"code": "timing", "message": message}


# -- one handler per query ---------------------------------------------------------------------

def _q_pay(query: dict[str, Any]) -> dict[str, Any]:
    req = prepare(query)
    if isinstance(req, dict):
        return {"payable": False, "reason": req}
    _refuse_unmodelled(req)
    return _activated(req, answer_json(sources.pay(req, backend=decode.backend(query))))


def _q_can_pay(query: dict[str, Any]) -> dict[str, Any]:
    req = prepare(query)
    if isinstance(req, dict):
        return {"payable": False, "reason": req}
    _refuse_unmodelled(req, tap_triggers=False)
    return _activated(req, answer_json(sources.can_pay(req, backend=decode.backend(query))))


def _q_payments(query: dict[str, Any]) -> dict[str, Any]:
    limit = decode.integer(query, "limit", 100, 1, _MAX_LIMIT) or 100
    req = prepare(query)
    if isinstance(req, dict):
        return {"payments": [], "complete": True, "reason": req}
    _refuse_unmodelled(req)
    return _activated(req, answer_json(sources.payments(req, limit=limit)))


def _q_max_x(query: dict[str, Any]) -> dict[str, Any]:
    req = prepare(query)
    if isinstance(req, dict):
        return {"max_x": None, "reason": req}
    if not req.cost.variables:
        raise BadQuery("max_x needs a cost with {X}", "cost")
    _refuse_unmodelled(req)
    return _activated(req, answer_json(sources.max_x(req, backend=decode.backend(query))))


def _q_options(query: dict[str, Any]) -> dict[str, Any]:
    from manasolver.solver.pools import options as options_module
    state = load_state_field(query)
    player = decode.player(query, state)
    from manasolver.solver.supply.unmodelled import refuse_options
    refuse_options(state, player)
    limit = decode.integer(query, "limit", 100, 1, _MAX_LIMIT) or 100
    detail = decode.flag(query, "detail") or False
    from manasolver.solver.budget import current
    bound = current().within(options_module.DEFAULT_BUDGET)  # within the query's budget
    return answer_json(options_module.options(state, player, limit=limit, detail=detail, budget=bound))


def _q_could_produce(query: dict[str, Any]) -> dict[str, Any]:
    from manasolver.solver.graph import could_produce
    state = load_state_field(query)
    detail = decode.flag(query, "detail") or False
    masks = could_produce(state)
    out = {}
    for perm in state.battlefield:  # every permanent with a mana ability, granted ones included
        if perm.id in masks:
            out[perm.id] = list(mask_letters(masks[perm.id]))
    if not detail:
        return {"could_produce": out}
    from manasolver.solver.graph import source_graph  # networkx, only for the chains
    chains = source_graph(state, strict=True).chains()
    return {"could_produce": out, "why": {pid: chains[pid] for pid in out}}


def _q_validate(query: dict[str, Any]) -> dict[str, Any]:
    from manasolver.solver.casting.abilities import NotActivatable
    from manasolver.solver.casting.alternatives import NotCastable
    from manasolver.solver.payment import Payment
    from manasolver.solver.validate import validate
    try:
        req = build_request(query)
    except (NotCastable, NotActivatable) as err:
        return {"legal": False, "problems": [str(err)]}
    timing = timing_reason(query, req)
    if timing is not None:
        return {"legal": False, "problems": [timing["message"]]}
    if "payment" not in query:
        raise BadQuery('missing "payment" to validate', "payment")
    try:
        payment = Payment.from_json(query["payment"])
    except (KeyError, TypeError, ValueError) as err:
        raise BadQuery(f"malformed payment: {err}", "payment") from None
    from manasolver.solver.supply import unmodelled
    unmodelled.guard_payment_rules(req)  # a rule of paying not modelled could make it illegal or legal
    # The request's cost is already the alternative cost when one was named.
    return answer_json(validate(dataclasses.replace(req, alternative=None), payment))


def _q_mana_value(query: dict[str, Any]) -> dict[str, Any]:
    from manasolver.models.rules.counts import mana_value
    x = decode.integer(query, "x", None)
    if "card" in query:
        if "cost" in query:
            raise BadQuery("give either cost or card, not both", "cost")
        if not isinstance(query["card"], str):
            raise BadQuery("card must be a card name", "card")
        return mana_value(decode.card_db(query).get(query["card"], "card"), x=x, zone=query.get("zone"))
    return mana_value(decode.cost(query), x=x, zone=query.get("zone"))


def _q_counts(query: dict[str, Any]) -> dict[str, Any]:
    from manasolver.models.rules.counts import counts
    state = load_state_field(query)
    return dict(counts(state, decode.player(query, state)))


def _q_card(query: dict[str, Any]) -> dict[str, Any]:
    """``{"card": CARD}``: the card as the engine reads it (the object ``manasolver card NAME
    --json`` prints, built by :func:`~manasolver.solver.service.render.describe_card`)."""
    name = query.get("card")
    if name is None:
        raise BadQuery('missing "card": the name of a card', "card")
    if not isinstance(name, str):
        raise BadQuery("card must be a card name", "card")
    from manasolver.solver.service.render import describe_card
    return {"card": describe_card(decode.card_db(query).get(name, "card"))}


def _q_plan(query: dict[str, Any]) -> dict[str, Any]:
    """``plan``: several costs paid one after another (:mod:`~manasolver.solver.plan`), each cost
    cast as its own ``pay`` query would be."""
    from manasolver.solver.service.plan_query import plan_query
    return plan_query(query, prepare, _refuse_unmodelled)


def _q_guide(query: dict[str, Any]) -> dict[str, Any]:
    """``guide``: paying by hand (:mod:`~manasolver.solver.guide`)."""
    from manasolver.solver.guide import guide, read_partial
    steps = read_partial(query.get("partial"))
    req = prepare(query)
    if isinstance(req, dict):
        return {"completable": False, "next": [], "reason": req}
    _refuse_unmodelled(req)
    return guide(req, steps).to_json()


def _q_open(query: dict[str, Any]) -> dict[str, Any]:
    from manasolver.solver.service.sessions import open_query
    return open_query(query)


def _q_update(query: dict[str, Any]) -> dict[str, Any]:
    from manasolver.solver.service.sessions import update_query
    return update_query(query)


def _q_close(query: dict[str, Any]) -> dict[str, Any]:
    from manasolver.solver.service.sessions import close_query
    return close_query(query)


def _refuse_unmodelled(req: PaymentRequest, tap_triggers: bool = True) -> None:
    """Refuse what the payment engine does not model on this board
    (:func:`~manasolver.solver.supply.unmodelled.refuse_payment`)."""
    if not _ENGINE:
        _import_engine()
    unmodelled.refuse_payment(req, tap_triggers)


def _activated(req: PaymentRequest, out: dict[str, Any]) -> dict[str, Any]:
    """An answer about an activated ability shows the ability under ``activating`` (its life
    payment is already part of each payment's ``life``)."""
    act = req.activation
    if act is None:
        return out
    return {**out, "activating": act.describe()}


def answer_json(result: Any) -> dict[str, Any]:
    """A query's result as its protocol JSON object (answer types carry ``to_json``)."""
    if isinstance(result, dict):
        return result
    out = result.to_json()
    assert isinstance(out, dict)
    return out


#: The handler of each query, by its name (the protocol checks the name and the fields first).
HANDLERS: dict[str, Callable[[dict[str, Any]], dict[str, Any]]] = {
    "pay": _q_pay,
    "can_pay": _q_can_pay,
    "payments": _q_payments,
    "max_x": _q_max_x,
    "options": _q_options,
    "could_produce": _q_could_produce,
    "validate": _q_validate,
    "mana_value": _q_mana_value,
    "counts": _q_counts,
    "card": _q_card,
    "plan": _q_plan,
    "guide": _q_guide,
    "open": _q_open,
    "update": _q_update,
    "close": _q_close,
}
