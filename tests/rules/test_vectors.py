"""The rule vectors kept as data (``tests/data/rules_*.json``), run by one runner.

Each vector is an input and its expected answer: ``id`` (the vector's number, with a suffix
where one vector is several boards), ``rule`` (the rule or ruling it checks), ``board``,
``query`` and ``expect``.  A file's ``board`` field says how its boards are built:

* ``"cards"``: from the hand-built cards of ``tests/support/cards.py`` (``battlefield`` as
  ``[id, CARD, {permanent fields}]``, or ``lands`` as letters; ``pool``, ``life``, ``energy``,
  ``turn``), asked through :mod:`manasolver.solver.queries`; ``payable`` is checked on every
  backend that accepts the problem (flow and CP-SAT must agree, and ``can_pay`` with them), and
  every payment a backend returns passes the independent ``validate``;
* ``"protocol"``: board JSON of real cards (``battlefield`` names or permanent objects with ids
  ``p0``, ``p1``, …; ``opponent``: the opponent's, ids ``o0``, …), asked through
  :func:`manasolver.solver.service.protocol.answer`; every payable ``pay`` answer, read back from its
  JSON, must pass the protocol's ``validate``.

On failure the runner prints every broken expectation and a breakdown per source: what each
backend answered, and per permanent (and the pool) what it is and what the payment took from it.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from typing import Any

import cards
from backends import backend_answers
import pytest
from manasolver.models.cost import ManaCost
from manasolver.models.state import GameState, Turn
from manasolver.solver import queries
from manasolver.solver.casting.announce import announce
from manasolver.solver.service.protocol import answer
from manasolver.solver.request import Modifier, PaymentRequest
from paths import TEST_DATA

FILES = sorted(TEST_DATA.glob("rules_*.json"))


def _vectors() -> Iterator[tuple[str, str, dict[str, Any]]]:
    for path in FILES:
        doc = json.loads(path.read_text(encoding="utf-8"))
        for vector in doc["vectors"]:
            yield path.name, doc["board"], vector


VECTORS = list(_vectors())


class Broken(list[str]):
    """The expectations a vector broke, with the answers that broke them."""

    def check(self, ok: bool, what: str, got: object, want: object) -> None:
        if not ok:
            self.append(f"{what}: got {got!r}, expected {want!r}")

    def subset(self, what: str, got: dict[str, Any] | None, want: dict[str, Any]) -> None:
        for key, value in want.items():
            have = (got or {}).get(key, "<missing>")
            self.check(have == value, f"{what}[{key!r}]", have, value)


# -- boards of hand-built cards ---------------------------------------------------------------

def _modifier(spec: dict[str, Any]) -> Modifier:
    ((kind, value),) = spec.items()
    return cards.minimum(value) if kind == "minimum" else getattr(cards, kind)(value)


def _hand_state(spec: dict[str, Any]) -> GameState:
    kw = {k: spec[k] for k in ("life", "energy", "pool") if k in spec}
    if "lands" in spec:
        state = cards.lands(spec["lands"], **kw)
    else:
        perms = [cards.perm(entry[0], getattr(cards, entry[1]), **(entry[2] if len(entry) > 2 else {}))
                 for entry in spec.get("battlefield", [])]
        state = cards.board(*perms, **kw)
    if "turn" in spec:
        state = GameState(state.players, Turn(spec["turn"]), state.battlefield)
    return state


def _hand_request(vector: dict[str, Any]) -> PaymentRequest:
    query = vector["query"]
    return cards.request(_hand_state(vector["board"]), query["cost"], x=query.get("x"),
                         mods=tuple(_modifier(m) for m in query.get("mods", ())))


def _every_backend(req: PaymentRequest) -> dict[str, bool]:
    """Payability from every backend that accepts the problem, each payment validated, and
    ``can_pay``'s answer."""
    seen = backend_answers(req)
    seen["can_pay"] = bool(queries.can_pay(req).payable)
    return seen


def _forms(vector: dict[str, Any]) -> tuple[int, tuple[Any, ...]]:
    """X and the announced forms of the vector's cost (601.2b), with its modifiers applied."""
    query = vector["query"]
    x = query.get("x") or 0
    mods = tuple(_modifier(m) for m in query.get("mods", ()))
    return x, announce(ManaCost.parse(query["cost"]), x, mods).forms


def _totals(vector: dict[str, Any]) -> set[str]:
    """The totals (601.2f) of the forms, or of those announced as ``announced`` only."""
    x, forms = _forms(vector)
    if "announced" in vector["query"]:
        forms = tuple(f for f in forms if [c.kind for c in f.choices] == vector["query"]["announced"])
    return {f.total_text(x) for f in forms}


def _run_hand(vector: dict[str, Any], broken: Broken) -> Callable[[], str]:
    expect = vector["expect"]
    if "totals" in expect or "totals_include" in expect:
        totals = _totals(vector)
        if "totals" in expect:
            broken.check(totals == set(expect["totals"]), "announced totals", sorted(totals), expect["totals"])
        if "totals_include" in expect:
            broken.check(set(expect["totals_include"]) <= totals, "announced totals include", sorted(totals),
                         expect["totals_include"])
        return lambda: _forms_breakdown(vector)
    req = _hand_request(vector)
    if "payable" in expect:
        seen = _every_backend(req)
        broken.check("cpsat" in seen, "CP-SAT answered", sorted(seen), "cpsat")
        broken.check(len(set(seen.values())) == 1, "backends agree", seen, "one verdict")
        broken.check(seen.get("cpsat") is expect["payable"], "payable", seen.get("cpsat"), expect["payable"])
    if "pay_reason" in expect:
        broken.subset("pay reason", queries.pay(req).to_json().get("reason"), expect["pay_reason"])
    if "can_pay_reason" in expect:
        broken.subset("can_pay reason", queries.can_pay(req).to_json().get("reason"), expect["can_pay_reason"])
    if any(k in expect for k in ("payment", "paid_as", "activated")):
        paid = queries.pay(req).to_json()
        broken.check(bool(paid.get("payable")), "pay payable", paid, True)
        _check_payment(paid.get("payment") or {}, expect, broken)
    return lambda: _hand_breakdown(req)


def _forms_breakdown(vector: dict[str, Any]) -> str:
    """Each announced form of the cost: the choice per symbol and the total."""
    x, forms = _forms(vector)
    return "\n".join(f"  announced {[c.kind for c in f.choices]}: total {f.total_text(x)}" for f in forms)


def _hand_breakdown(req: PaymentRequest) -> str:
    lines = []
    try:
        lines.append(f"  backends: {_every_backend(req)}")
    except AssertionError as exc:
        lines.append(f"  backends: a payment failed validate: {exc}")
    paid = queries.pay(req).to_json()
    taken = _taken(paid.get("payment") or {})
    you = req.state.players[0]
    lines.append(f"  pool {you.pool.format() if you.pool.symbols else '(empty)'}, life {you.life}, "
                 f"energy {you.energy}; paid from the pool: {(paid.get('payment') or {}).get('pool_used')!r}")
    for p in req.state.battlefield:
        flags = [f for f in ("tapped", "sick", "haste") if getattr(p, f, False)]
        abilities = "; ".join(a.text or repr(a.production) for a in p.card.mana_abilities) or "no mana ability"
        lines.append(f"  {p.id} {p.card.name} ({p.controller}{', ' + ', '.join(flags) if flags else ''}): "
                     f"{abilities} -> {taken.get(p.id, 'nothing')}")
    lines.append(f"  pay: {paid}")
    return "\n".join(lines)


# -- boards of real cards, through the protocol -----------------------------------------------

def _protocol_state(spec: dict[str, Any]) -> dict[str, Any]:
    perms: list[dict[str, Any]] = [{"id": f"p{i}", "card": c} if isinstance(c, str) else {"id": f"p{i}", **c}
                                   for i, c in enumerate(spec.get("battlefield", []))]
    perms += [{"id": f"o{i}", "card": c, "controller": "opp"} for i, c in enumerate(spec.get("opponent", []))]
    return {"players": [{"name": "you"}, {"name": "opp"}], "battlefield": perms}


def _ask(query: dict[str, Any]) -> dict[str, Any]:
    result = answer(query)
    assert "error" not in result, (query, result)
    return result


def _run_protocol(vector: dict[str, Any], broken: Broken) -> Callable[[], str]:
    state = _protocol_state(vector["board"])
    fields = {k: v for k, v in vector["query"].items() if k != "query"}
    kind = vector["query"]["query"]
    expect = vector["expect"]
    if "most" in expect:
        symbol, want = expect["most"]["symbol"], expect["most"]["count"]
        n = 0
        while n < 30 and _ask({"query": "can_pay", "state": state, **fields, "cost": symbol * (n + 1)})["payable"]:
            n += 1
        broken.check(n == want, f"most {symbol} payable", n, want)
        return lambda: _protocol_breakdown(state, {**fields, "cost": symbol * (want or 1)})
    result = _ask({"query": kind, "state": state, **fields})
    if kind == "pay" and result.get("payable"):
        payment = json.loads(json.dumps(result["payment"]))
        check = answer({"query": "validate", "state": state, "payment": payment, **fields})
        broken.check(check == {"legal": True, "problems": []}, "validate", check, {"legal": True, "problems": []})
    if "payable" in expect:
        broken.check(result.get("payable") is expect["payable"], "payable", result.get("payable"), expect["payable"])
    if "reason" in expect:
        broken.subset("reason", result.get("reason"), expect["reason"])
    if "answer" in expect:
        broken.check(result == expect["answer"], "answer", result, expect["answer"])
    if "fields" in expect:
        broken.subset("answer", result, expect["fields"])
    if any(k in expect for k in ("payment", "activated", "activation_mana", "activation_count")):
        broken.check(bool(result.get("payable")), "pay payable", result, True)
        _check_payment(result.get("payment") or {}, expect, broken)
    return lambda: _protocol_breakdown(state, fields)


def _protocol_breakdown(state: dict[str, Any], fields: dict[str, Any]) -> str:
    produce = answer({"query": "could_produce", "state": state}).get("could_produce", {})
    paid = answer({"query": "pay", "state": state, **fields}) if "cost" in fields or "spell" in fields else {}
    taken = _taken(paid.get("payment") or {})
    lines = [f"  {p['id']} {p['card']}{' (' + p['controller'] + ')' if 'controller' in p else ''}: could produce "
             f"{produce.get(p['id'], [])} -> {taken.get(p['id'], 'nothing')}" for p in state["battlefield"]]
    if paid:
        lines.append(f"  pay: {paid}")
    return "\n".join(lines)


# -- shared -------------------------------------------------------------------------------------

def _taken(payment: dict[str, Any]) -> dict[str, str]:
    """Per permanent, the mana (and costs) its activations in ``payment`` gave."""
    out: dict[str, list[str]] = {}
    for act in payment.get("activations", []):
        out.setdefault(act["permanent"], []).append(f"{act.get('mana')} (ability {act.get('ability')}, "
                                                    f"{', '.join(act.get('costs', []))})")
    return {k: "; ".join(v) for k, v in out.items()}


def _check_payment(payment: dict[str, Any], expect: dict[str, Any], broken: Broken) -> None:
    if "payment" in expect:
        broken.subset("payment", payment, expect["payment"])
    if "paid_as" in expect:
        got = sorted(c["paid_as"] for c in payment.get("choices", []))
        broken.check(got == sorted(expect["paid_as"]), "symbols paid as", got, expect["paid_as"])
    activations = payment.get("activations", [])
    if "activated" in expect:
        got = sorted(a["permanent"] for a in activations)
        broken.check(got == sorted(expect["activated"]), "permanents activated", got, expect["activated"])
    if "activation_mana" in expect:
        mana = {a["mana"] for a in activations}
        broken.check(mana == set(expect["activation_mana"]), "mana of the activations", sorted(mana),
                     expect["activation_mana"])
    if "activation_count" in expect:
        broken.check(len(activations) == expect["activation_count"], "activations", len(activations),
                     expect["activation_count"])


RUNNERS = {"cards": _run_hand, "protocol": _run_protocol}


@pytest.mark.parametrize(("source", "kind", "vector"), [pytest.param(*v, id=v[2]["id"]) for v in VECTORS])
def test_vector(source: str, kind: str, vector: dict[str, Any]) -> None:
    broken = Broken()
    breakdown = RUNNERS[kind](vector, broken)
    if broken:
        pytest.fail(f"{vector['id']} ({source}): {vector['rule']}\n" + "\n".join(f"  {b}" for b in broken)
                    + "\nper source:\n" + breakdown(), pytrace=False)


def test_vector_files_are_well_formed() -> None:
    """Every vector has a unique id, a rule, a board, a query and an expectation the runner knows."""
    known = {"payable", "payment", "paid_as", "activated", "activation_mana", "activation_count", "pay_reason",
             "can_pay_reason", "reason", "totals", "totals_include", "most", "answer", "fields"}
    ids = [v["id"] for _, _, v in VECTORS]
    assert len(ids) == len(set(ids)), sorted(i for i in ids if ids.count(i) > 1)
    assert len(FILES) >= 3 and len(VECTORS) > 100
    for source, kind, vector in VECTORS:
        assert kind in RUNNERS, source
        assert {"id", "rule", "board", "query", "expect"} <= set(vector), vector
        assert vector["expect"] and set(vector["expect"]) <= known, vector
