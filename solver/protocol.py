"""The JSON protocol (SPEC §5): one query object in, one answer object out.

:func:`answer` never raises: errors of input come back as
``{"error": {"code", "message", "where"}}`` answers, and so does anything the
engine does not support.  The CLI, ``batch`` and the Python API all go through
it.  Heavy modules (the solvers) are imported only by the queries that need them.

>>> answer({"query": "mana_value", "cost": "{2/W}{2/U}{2/B}{2/R}{2/G}"})
{'mana_value': 10, 'colors': ['W', 'U', 'B', 'R', 'G']}
"""

from __future__ import annotations

import dataclasses
import difflib
import json
from collections.abc import Callable
from typing import Any

from manasolver.models.cost import ManaCost
from manasolver.models.errors import (
    BadCost,
    BadQuery,
    ManasolverError,
    UnknownField,
    Unsupported,
)
from manasolver.models.symbols import mask_from_letters, mask_letters

__all__ = ["QUERIES", "answer", "answer_line", "build_request", "load_state_field"]

#: Every query of SPEC §5 and the fields each accepts besides the common ones.
QUERIES: dict[str, frozenset[str]] = {
    "pay": frozenset({"cost", "state", "spell", "x", "modifiers", "alternative", "convoke", "delve",
                      "improvise", "policy", "backend", "additional"}),
    "can_pay": frozenset({"cost", "state", "spell", "x", "modifiers", "alternative", "convoke", "delve",
                          "improvise", "policy", "backend", "additional"}),
    "payments": frozenset({"cost", "state", "spell", "x", "modifiers", "alternative", "convoke", "delve",
                           "improvise", "policy", "limit", "backend", "additional"}),
    "max_x": frozenset({"cost", "state", "spell", "modifiers", "alternative", "convoke", "delve",
                        "improvise", "policy", "backend", "additional"}),
    "options": frozenset({"state", "limit", "detail"}),
    "could_produce": frozenset({"state"}),
    "validate": frozenset({"cost", "state", "spell", "x", "modifiers", "alternative", "convoke", "delve",
                           "improvise", "payment", "additional"}),
    "mana_value": frozenset({"cost", "card", "zone", "x"}),
    "counts": frozenset({"state"}),
}
_COMMON = frozenset({"query", "id", "player", "cards"})
_MAX_LIMIT = 100_000


def answer(query: Any) -> dict[str, Any]:
    """Answer one protocol query (a decoded JSON object); never raises."""
    qid = query.get("id") if isinstance(query, dict) else None
    try:
        result = _dispatch(query)
    except ManasolverError as err:
        result = err.to_json()
    except RecursionError:
        result = BadQuery("input is nested too deeply").to_json()
    except MemoryError:
        result = BadQuery("input is too large for memory").to_json()
    except Exception as err:  # noqa: BLE001 - a bug must still be an answer, never a crash
        result = Unsupported(f"internal error while answering: {type(err).__name__}: {err}").to_json()
    if qid is not None:
        result = {"id": qid, **result}
    return result


def answer_line(line: str, number: int | None = None) -> dict[str, Any]:
    """Answer one line of ``batch`` input: JSON errors become ``bad_query`` answers."""
    where = f"line {number}" if number is not None else ""
    if not line.strip():
        return BadQuery("empty line: one JSON query per line", where).to_json()
    try:
        obj = json.loads(line, parse_constant=_no_constant, parse_float=_finite_float)
    except (ValueError, RecursionError) as err:
        return BadQuery(f"not valid JSON: {err}", where).to_json()
    if not isinstance(obj, dict):
        return BadQuery("a query must be a JSON object", where).to_json()
    return answer(obj)


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not valid JSON")


def _finite_float(text: str) -> float:
    value = float(text)
    if value in (float("inf"), float("-inf")):
        raise ValueError(f"number {text} is too large")
    return value


# -- dispatch ---------------------------------------------------------------------------------

def _dispatch(query: Any) -> dict[str, Any]:
    if not isinstance(query, dict):
        raise BadQuery("a query must be a JSON object")
    name = query.get("query")
    if not isinstance(name, str):
        raise BadQuery('missing "query" field naming one of: ' + ", ".join(QUERIES), "query")
    if name not in QUERIES:
        close = difflib.get_close_matches(name, list(QUERIES), n=1)
        hint = f" (did you mean {close[0]!r}?)" if close else ""
        raise BadQuery(f"unknown query {name!r}{hint}; known: {', '.join(QUERIES)}", "query")
    allowed = QUERIES[name] | _COMMON
    for key in query:
        if key not in allowed:
            close = difflib.get_close_matches(str(key), sorted(allowed), n=1)
            hint = f" (did you mean {close[0]!r}?)" if close else ""
            raise UnknownField(f"unknown field {key!r} for query {name!r}{hint}", str(key))
    return _HANDLERS[name](query)


def _db(query: dict[str, Any]) -> Any:
    from manasolver.models.carddb import default_db
    cards = query.get("cards")
    if cards is not None and not isinstance(cards, str):
        raise BadQuery('"cards" must be the path of a card file', "cards")
    return default_db(cards)


def load_state_field(query: dict[str, Any]) -> Any:
    """The ``state`` of a query, loaded; errors name the path inside the board."""
    from manasolver.models.board.load import load_state
    if "state" not in query:
        raise BadQuery('missing "state" (the board)', "state")
    try:
        return load_state(query["state"], _db(query))
    except ManasolverError as err:
        # paths inside the board are written as SPEC §5 does: battlefield[3].card
        raise (err if err.where else err.at("state")) from None


def _player(query: dict[str, Any], state: Any) -> str:
    name = query.get("player")
    if name is None:
        return str(state.players[0].name)
    if not isinstance(name, str) or name not in {p.name for p in state.players}:
        raise BadQuery(f"player {name!r} is not a player of the state", "player")
    return name


def _cost(query: dict[str, Any], required: bool = True) -> ManaCost | None:
    raw = query.get("cost")
    if raw is None:
        if required:
            raise BadQuery('missing "cost"', "cost")
        return None
    if not isinstance(raw, str):
        raise BadCost("cost must be a string such as \"{2}{W/U}\"", "cost")
    return ManaCost.parse(raw, "cost")


def _int(query: dict[str, Any], key: str, default: int | None, lo: int = 0, hi: int = 10**6) -> int | None:
    raw = query.get(key, default)
    if raw is None:
        return None
    if isinstance(raw, bool) or not isinstance(raw, int):
        raise BadQuery(f"{key} must be an integer", key)
    if not lo <= raw <= hi:
        raise BadQuery(f"{key} must be between {lo} and {hi}", key)
    return raw


def _bool(query: dict[str, Any], key: str) -> bool | None:
    raw = query.get(key)
    if raw is None:
        return None
    if not isinstance(raw, bool):
        raise BadQuery(f"{key} must be true or false", key)
    return raw


def _spell(query: dict[str, Any]) -> Any:
    from manasolver.solver.request import SpellInfo
    raw = query.get("spell")
    if raw is None:
        return None
    if not isinstance(raw, dict):
        raise BadQuery('spell must be an object such as {"card": "Reaper King"}', "spell")
    allowed = {"card", "types", "subtypes", "supertypes", "colors", "ability"}
    for key in raw:
        if key not in allowed:
            raise UnknownField(f"unknown field {key!r} of spell", f"spell.{key}")
    card = None
    if "card" in raw:
        if not isinstance(raw["card"], str):
            raise BadQuery("spell.card must be a card name", "spell.card")
        try:
            card = _db(query).get(raw["card"], "card")
        except ManasolverError as err:
            raise err.at("spell") from None
    types = _words(raw, "types", card.type_line.types if card else ())
    subtypes = _words(raw, "subtypes", card.type_line.subtypes if card else ())
    supertypes = _words(raw, "supertypes", card.type_line.supertypes if card else ())
    colors = card.colors if card else 0
    if "colors" in raw:
        letters = raw["colors"]
        if not isinstance(letters, list) or not all(isinstance(c, str) and c.upper() in "WUBRG"
                                                     and len(c) == 1 for c in letters):
            raise BadQuery('spell.colors must be a list of color letters such as ["R"]', "spell.colors")
        colors = mask_from_letters("".join(letters).upper())
    ability = raw.get("ability", False)
    if not isinstance(ability, bool):
        raise BadQuery("spell.ability must be true or false", "spell.ability")
    return SpellInfo(types=frozenset(types), subtypes=frozenset(subtypes), supertypes=frozenset(supertypes),
                     colors=colors, card=card, ability=ability)


def _words(raw: dict[str, Any], key: str, default: tuple[str, ...]) -> tuple[str, ...]:
    if key not in raw:
        return default
    value = raw[key]
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise BadQuery(f"spell.{key} must be a list of strings", f"spell.{key}")
    return tuple(v.lower() for v in value)


def _modifiers(query: dict[str, Any]) -> tuple[Any, ...]:
    from manasolver.solver.request import Modifier
    raw = query.get("modifiers", [])
    if not isinstance(raw, list):
        raise BadQuery("modifiers must be a list", "modifiers")
    if len(raw) > 1000:
        raise BadQuery("too many modifiers (at most 1000)", "modifiers")
    out = []
    for i, item in enumerate(raw):
        where = f"modifiers[{i}]"
        if not isinstance(item, dict) or len(item) != 1:
            raise BadQuery('each modifier is one of {"increase": COST}, {"reduce": COST}, {"minimum": N}',
                           where)
        (kind, value), = item.items()
        if kind in ("increase", "reduce"):
            if not isinstance(value, str):
                raise BadCost(f"{kind} must be a cost string", f"{where}.{kind}")
            out.append(Modifier(kind, cost=ManaCost.parse(value, f"{where}.{kind}")))
        elif kind == "minimum":
            if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 1000:
                raise BadQuery("minimum must be an integer from 0 to 1000", f"{where}.minimum")
            out.append(Modifier("minimum", amount=value))
        else:
            raise UnknownField(f"unknown modifier {kind!r}: use increase, reduce or minimum", where)
    return tuple(out)


def _policy(query: dict[str, Any]) -> Any:
    from manasolver.solver.request import DEFAULT_POLICY, Policy
    raw = query.get("policy")
    if raw is None:
        return Policy()
    known = set(DEFAULT_POLICY) | {"max_colors_spent", "min_energy", "spend_color", "min_convoke",
                                    "min_delve", "min_improvise"}
    keep: tuple[ManaCost, ...] | None = None
    spend: list[tuple[str, int]] = []
    weights: list[tuple[str, int]] = []
    items: list[Any]
    if isinstance(raw, str):
        items = [s.strip() for s in raw.split(",") if s.strip()]
    elif isinstance(raw, list):
        items = raw
    elif isinstance(raw, dict):
        for key in raw:
            if key not in ("criteria", "keep_castable", "spend_color", "weights"):
                raise UnknownField(f"unknown policy field {key!r}", f"policy.{key}")
        items = raw.get("criteria", list(DEFAULT_POLICY))
        if not isinstance(items, list):
            raise BadQuery("policy.criteria must be a list of criterion names", "policy.criteria")
        if "keep_castable" in raw:
            kc = raw["keep_castable"]
            if not isinstance(kc, list):
                raise BadQuery("policy.keep_castable must be a list of costs", "policy.keep_castable")
            keep = tuple(_cost_string(c, f"policy.keep_castable[{i}]") for i, c in enumerate(kc))
        if "spend_color" in raw:
            spend.extend(_spend_color(raw["spend_color"], "policy.spend_color"))
        if "weights" in raw:
            w = raw["weights"]
            if not isinstance(w, dict):
                raise BadQuery("policy.weights must map criteria to integers", "policy.weights")
            for key, value in w.items():
                if key not in known or isinstance(value, bool) or not isinstance(value, int):
                    raise BadQuery(f"bad weight {key!r}: {value!r}", f"policy.weights.{key}")
                weights.append((key, value))
    else:
        raise BadQuery("policy must be a list of criteria, a comma-separated string or an object", "policy")
    criteria: list[str] = []
    for i, item in enumerate(items):
        where = f"policy[{i}]"
        if isinstance(item, dict) and set(item) == {"spend_color"}:
            spend.extend(_spend_color(item["spend_color"], where))
            continue
        if isinstance(item, str) and item.startswith("spend_color:"):
            try:
                spend.extend(_spend_color(json.loads(item.split(":", 1)[1]), where))
            except ValueError:
                raise BadQuery('write spend_color as spend_color:{"G":3}', where) from None
            continue
        if not isinstance(item, str) or item not in known:
            close = difflib.get_close_matches(str(item), sorted(known), n=1)
            hint = f" (did you mean {close[0]!r}?)" if close else ""
            raise BadQuery(f"unknown policy criterion {item!r}{hint}", where)
        criteria.append(item)
    return Policy(criteria=tuple(criteria), keep_castable=keep, spend_color=tuple(spend),
                  weights=tuple(weights))


def _cost_string(value: Any, where: str) -> ManaCost:
    if not isinstance(value, str):
        raise BadCost("expected a cost string such as \"{1}{U}\"", where)
    return ManaCost.parse(value, where)


def _spend_color(value: Any, where: str) -> list[tuple[str, int]]:
    if not isinstance(value, dict):
        raise BadQuery('spend_color maps colors to counts, e.g. {"G": 3}', where)
    out = []
    for color, n in value.items():
        if color not in ("W", "U", "B", "R", "G") or isinstance(n, bool) or not isinstance(n, int) or n < 0:
            raise BadQuery(f"bad spend_color entry {color!r}: {n!r}", f"{where}.{color}")
        out.append((color, n))
    return out


def build_request(query: dict[str, Any], cost_required: bool = True) -> Any:
    """Turn a payment query into a :class:`~manasolver.solver.request.PaymentRequest`.

    When ``cost`` is missing but ``spell`` names a card, the card's mana cost is the
    cost (or the named ``alternative`` cost printed on it).
    """
    from manasolver.solver.request import PaymentRequest
    state = load_state_field(query)
    player = _player(query, state)
    from manasolver.solver.casting.abilities import names_ability
    if names_ability(query.get("spell")):
        return _ability_request(query, state, player)
    spell = _spell(query)
    cost = _cost(query, required=False)
    x = _int(query, "x", None)
    alternative = query.get("alternative")
    alt_name: str | None = None
    if alternative is not None:
        if cost is not None:
            raise BadQuery("give either a cost or an alternative cost of the spell's card, not both",
                           "alternative")
        from manasolver.solver.casting.alternatives import alternative_cost, cast_as
        alt = alternative_cost(state, player, spell, alternative, x)
        cost, alt_name = alt.cost, alt.name
        spell = cast_as(spell, alt_name)
    elif cost is None:
        card = spell.card if spell is not None else None
        if card is None:
            if cost_required:
                raise BadQuery('missing "cost" (or a "spell" naming a card)', "cost")
            cost = ManaCost.parse("{0}")
        elif card.mana_cost is None:
            from manasolver.solver.casting.alternatives import NotCastable
            raise NotCastable(f"{card.name} has no mana cost, so it can't be cast by paying one "
                              f"(CR 118.6, 202.1b); an alternative cost such as "
                              f"without_paying_mana_cost can (118.6a)")
        else:
            cost = card.mana_cost
    if "additional" in query:
        from manasolver.solver.casting.alternatives import additional_costs
        cost = cost + additional_costs(spell, query["additional"])
    modifiers = list(_modifiers(query))
    if spell is not None and spell.card is not None:
        from manasolver.solver.casting.modifiers import board_modifiers
        modifiers = [m.modifier for m in board_modifiers(state, player, spell)] + modifiers
    from manasolver.solver.casting.modifiers import order_modifiers
    flags = {k: _bool(query, k) for k in ("convoke", "delve", "improvise")}
    keywords = spell.card.keywords if spell is not None and spell.card is not None else frozenset()
    return PaymentRequest(
        state=state, cost=cost, player=player, spell=spell,
        x=x,
        modifiers=order_modifiers(modifiers),
        alternative=alt_name,
        convoke=flags["convoke"] if flags["convoke"] is not None else "convoke" in keywords,
        delve=flags["delve"] if flags["delve"] is not None else "delve" in keywords,
        improvise=flags["improvise"] if flags["improvise"] is not None else "improvise" in keywords,
        policy=_policy(query),
    )


def _ability_request(query: dict[str, Any], state: Any, player: str) -> Any:
    """The request for activating the ability that ``spell`` names (solver/casting/abilities.py)."""
    from manasolver.solver.casting.abilities import activation
    from manasolver.solver.request import PaymentRequest
    for key in ("cost", "alternative", "additional"):
        if key in query:
            raise BadQuery(f"an activated ability's cost is read from the card: drop {key!r}", key)
    if any(key not in ("permanent", "card", "ability") for key in query["spell"]):
        bad = next(k for k in query["spell"] if k not in ("permanent", "card", "ability"))
        raise UnknownField(f"unknown field {bad!r} of spell naming an ability", f"spell.{bad}")
    act = activation(query["spell"], state, player, lambda name: _db(query).get(name, "spell.card"))
    flags = {k: _bool(query, k) for k in ("convoke", "delve", "improvise")}
    if any(flags.values()):
        raise BadQuery("convoke, delve and improvise pay for spells, not abilities (CR 702.51a, "
                       "702.66a, 702.126a)", next(k for k, v in flags.items() if v))
    from manasolver.solver.casting.modifiers import order_modifiers
    return PaymentRequest(state=act.state, cost=act.cost, player=player, spell=act.spell,
                          x=_int(query, "x", None), modifiers=order_modifiers(list(_modifiers(query))),
                          policy=_policy(query), activation=act)


def _backend(query: dict[str, Any]) -> str | None:
    raw = query.get("backend")
    if raw is not None and raw not in ("flow", "fastopt", "cpsat", "csp"):
        raise BadQuery("backend must be one of flow, fastopt, cpsat, csp", "backend")
    return raw


def prepare(query: dict[str, Any]) -> tuple[Any, dict[str, Any] | None]:
    """The request of a payment query, and the reason it can't be cast at all, if any
    (``not_castable``: no mana cost, two alternative costs, X with an alternative cost;
    ``timing``: not now)."""
    from manasolver.solver.casting.abilities import NotActivatable
    from manasolver.solver.casting.alternatives import NotCastable
    try:
        req = build_request(query)
    except NotCastable as err:
        return None, {"code": "not_castable", "message": str(err)}
    except NotActivatable as err:
        return None, {"code": err.code, "message": str(err)}
    return req, timing_reason(query, req)


def timing_reason(query: dict[str, Any], req: Any) -> dict[str, Any] | None:
    """The ``timing`` reason when the spell is a known card that can't be cast now.

    Checked only when the state gives a ``turn`` (SPEC §4 makes it optional), for a known
    card cast as a spell or for an ability named by ``spell`` (solver/casting/abilities.py).
    """
    spell = req.spell
    state_json = query.get("state")
    if not isinstance(state_json, dict) or "turn" not in state_json:
        return None
    if req.activation is not None:
        from manasolver.solver.casting.abilities import activation_timing
        message = activation_timing(req.activation, req.state.turn, req.player)
        return None if message is None else {"code": "timing", "message": message}
    if spell is None or spell.card is None or spell.ability:
        return None
    if req.alternative in ("madness", "miracle"):
        return None  # cast while its trigger resolves, ignoring timing permissions (CR 702.35a, 702.94a)
    from manasolver.solver.casting.timing import check_timing
    verdict = check_timing(spell.card, req.state.turn, req.player, req.alternative)
    if verdict.allowed:
        return None
    return {"code": "timing", "message": verdict.message}


# -- handlers -----------------------------------------------------------------------------------

def _q_pay(query: dict[str, Any]) -> dict[str, Any]:
    req, reason = prepare(query)
    if reason is not None:
        return {"payable": False, "reason": reason}
    from manasolver.solver.supply import unmodelled
    unmodelled.guard_prohibitions(req.state, req.player)
    unmodelled.guard_tap_triggers(req)
    from manasolver.solver import queries
    return _activated(req, _json(queries.pay(req, backend=_backend(query))))


def _q_can_pay(query: dict[str, Any]) -> dict[str, Any]:
    req, reason = prepare(query)
    if reason is not None:
        return {"payable": False, "reason": reason}
    from manasolver.solver.supply import unmodelled
    unmodelled.guard_prohibitions(req.state, req.player)
    from manasolver.solver import queries
    return _activated(req, _json(queries.can_pay(req, backend=_backend(query))))


def _q_payments(query: dict[str, Any]) -> dict[str, Any]:
    limit = _int(query, "limit", 100, 1, _MAX_LIMIT) or 100
    req, reason = prepare(query)
    if reason is not None:
        return {"payments": [], "complete": True, "reason": reason}
    from manasolver.solver.supply import unmodelled
    unmodelled.guard_prohibitions(req.state, req.player)
    unmodelled.guard_tap_triggers(req)
    from manasolver.solver import queries
    return _activated(req, _json(queries.payments(req, limit=limit)))


def _q_max_x(query: dict[str, Any]) -> dict[str, Any]:
    req, reason = prepare(query)
    if reason is not None:
        return {"max_x": None, "reason": reason}
    if not req.cost.variables:
        raise BadQuery("max_x needs a cost with {X}", "cost")
    from manasolver.solver.supply import unmodelled
    unmodelled.guard_prohibitions(req.state, req.player)
    unmodelled.guard_tap_triggers(req)
    from manasolver.solver import queries
    return _activated(req, _json(queries.max_x(req, backend=_backend(query))))


def _q_options(query: dict[str, Any]) -> dict[str, Any]:
    try:
        from manasolver.solver.pools import options as options_module
    except ImportError:
        raise Unsupported("the options query is not implemented yet (issue 4)", "query") from None
    state = load_state_field(query)
    player = _player(query, state)
    from manasolver.solver.supply import unmodelled
    unmodelled.guard_prohibitions(state, player)
    limit = _int(query, "limit", 100, 1, _MAX_LIMIT) or 100
    detail = _bool(query, "detail") or False
    return _json(options_module.options(state, player, limit=limit, detail=detail))


def _q_could_produce(query: dict[str, Any]) -> dict[str, Any]:
    from manasolver.solver.graph import could_produce
    state = load_state_field(query)
    masks = could_produce(state)
    out = {}
    for perm in state.battlefield:  # every permanent with a mana ability, granted ones included
        if perm.id in masks:
            out[perm.id] = list(mask_letters(masks[perm.id]))
    return {"could_produce": out}


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
    act = req.activation
    if act is not None and act.life:
        if payment.life < act.life:
            problem = f"the ability's cost includes paying {act.life} life; the payment's life is {payment.life}"
            return {"legal": False, "problems": [problem]}
        payment = dataclasses.replace(payment, life=payment.life - act.life)  # the ability's own life
    # The request's cost is already the alternative cost when one was named.
    return _json(validate(dataclasses.replace(req, alternative=None), payment))


def _q_mana_value(query: dict[str, Any]) -> dict[str, Any]:
    from manasolver.models.rules.counts import mana_value
    x = _int(query, "x", None)
    if "card" in query:
        if "cost" in query:
            raise BadQuery("give either cost or card, not both", "cost")
        if not isinstance(query["card"], str):
            raise BadQuery("card must be a card name", "card")
        return mana_value(_db(query).get(query["card"], "card"), x=x, zone=query.get("zone"))
    return mana_value(_cost(query), x=x, zone=query.get("zone"))


def _q_counts(query: dict[str, Any]) -> dict[str, Any]:
    from manasolver.models.rules.counts import counts
    state = load_state_field(query)
    return dict(counts(state, _player(query, state)))


def _activated(req: Any, out: dict[str, Any]) -> dict[str, Any]:
    """An answer about an activated ability: the ability is shown under ``activating``
    and its life payment added to each payment's ``life``."""
    act = req.activation
    if act is None:
        return out
    for payment in ([out["payment"]] if isinstance(out.get("payment"), dict) else []) + out.get("payments", []):
        payment["life"] = payment.get("life", 0) + act.life
    return {**out, "activating": act.describe()}


def _json(result: Any) -> dict[str, Any]:
    if isinstance(result, dict):
        return result
    out = result.to_json()
    assert isinstance(out, dict)
    return out


_HANDLERS: dict[str, Callable[[dict[str, Any]], dict[str, Any]]] = {
    "pay": _q_pay,
    "can_pay": _q_can_pay,
    "payments": _q_payments,
    "max_x": _q_max_x,
    "options": _q_options,
    "could_produce": _q_could_produce,
    "validate": _q_validate,
    "mana_value": _q_mana_value,
    "counts": _q_counts,
}
