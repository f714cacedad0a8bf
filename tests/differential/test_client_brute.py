"""What a client drives a payment with, checked against the brute force on random boards.

* ``guide``: for a random partial payment (activations made one after another, a filter land's
  or Signet's cost paid from the pool in a random way), ``next`` is exactly the set of
  activations after which the brute force still finds a completion, and ``completable`` is
  whether it finds one now; the completion passes ``validate`` on the original board;
* ``payments[0]`` is ``pay``'s payment;
* ``sources``: ``exclude`` — payable exactly when the brute force pays without those
  permanents, and the payment never uses them; ``require`` — payable exactly when some legal
  payment (floating mana allowed) activates every required permanent, and the payment does;
  ``preserve`` — the payment uses as few preserved permanents as any brute-force payment with as
  few sacrifices (``preserve`` ranks right after ``no_sacrifice``); with all three, the payment's
  whole score is the least of the brute force's payments that honour them (a required
  permanent's mana left floating is waste, CR 106.4).

The brute force (tests/support/brute.py) shares no code with the solver; the boards after each
activation are made here from the rules (tap, sacrifice, pool), not by the solver's carrier.
"""

from __future__ import annotations

import dataclasses
import itertools
from collections import Counter
from typing import Any

from brute import brute, value
from brute_moves import Move, moves
from cards import (
    ADARKAR_WASTES,
    AZORIUS_SIGNET,
    BAYOU,
    BIRDS,
    CITY_OF_BRASS,
    FOREST,
    ISLAND,
    MOUNTAIN,
    MYSTIC_GATE,
    PLAINS,
    SOL_RING,
    SWAMP,
    TREASURE,
    TUNDRA,
    WASTES,
    board,
    perm,
)
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from manasolver.models.cost import ManaCost
from manasolver.models.state import GameState
from manasolver.models.symbols import TYPE_BITS
from manasolver.solver import queries, sources
from manasolver.solver.guide import Step, guide
from manasolver.solver.request import PaymentRequest, Sources
from manasolver.solver.validate import validate

PALETTE = [FOREST, PLAINS, ISLAND, SWAMP, MOUNTAIN, WASTES, TUNDRA, BAYOU, ADARKAR_WASTES, CITY_OF_BRASS,
           SOL_RING, BIRDS, MYSTIC_GATE, AZORIUS_SIGNET, TREASURE]
SYMBOLS = ["{W}", "{U}", "{B}", "{R}", "{G}", "{C}", "{1}", "{2}", "{W/U}", "{B/G}", "{G/P}"]
LETTERS = "WUBRGC"
SETTINGS = settings(max_examples=60, deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


@st.composite
def boards(draw: st.DrawFn) -> GameState:
    cards = draw(st.lists(st.sampled_from(PALETTE), min_size=1, max_size=6))
    pool = draw(st.sampled_from(["", "", "{R}", "{U}{C}"]))
    return board(*[perm(f"p{i}", c) for i, c in enumerate(cards)], pool=pool, life=draw(st.sampled_from([20, 1])))


@st.composite
def costs(draw: st.DrawFn) -> str:
    return "".join(draw(st.lists(st.sampled_from(SYMBOLS), min_size=1, max_size=4)))


def _text(bits: tuple[int, ...]) -> str:
    return "".join("{" + LETTERS[TYPE_BITS.index(b)] + "}" for b in sorted(bits, key=TYPE_BITS.index))


def _pool(state: GameState) -> Counter[int]:
    out: Counter[int] = Counter()
    for s in state.player("you").pool.symbols:
        out[TYPE_BITS[LETTERS.index(s.text[1])]] += 1
    return out


def _cost_ways(pool: Counter[int], cost: ManaCost) -> list[Counter[int]]:
    """Every distinct multiset of pool mana that pays ``cost`` (a mana ability's own cost)."""
    symbols: list[int] = []
    for s in cost.symbols:
        if s.is_numeral:
            symbols += [sum(TYPE_BITS)] * s.generic
        elif not s.special:
            symbols.append(s.colors | (TYPE_BITS[5] if s.colorless else 0))
    found: set[tuple[int, ...]] = set()
    for combo in itertools.product(*[[b for b in TYPE_BITS if b & m] for m in symbols]):
        need = Counter(combo)
        if all(pool[b] >= n for b, n in need.items()):
            found.add(tuple(sorted(combo)))
    return [Counter(c) for c in found]


def _after(state: GameState, m: Move, paid: Counter[int]) -> GameState:
    """The board after ``m`` (CR 605.3a): tapped or sacrificed, its cost paid from the pool and
    its mana added, life paid."""
    cost = m.ability.cost
    battlefield = []
    for p in state.battlefield:
        if p.id == m.perm.id:
            if cost.sacrifice_self:
                continue
            p = p._replace(tapped=True) if cost.tap else p
        battlefield.append(p)
    pool = _pool(state)
    pool.subtract(paid)
    pool.update(m.mana)
    me = state.player("you")
    text = _text(tuple((+pool).elements()))
    me = me._replace(pool=ManaCost.parse(text) if text else ManaCost(), life=me.life - cost.life)
    return dataclasses.replace(state, battlefield=tuple(battlefield), players=(me, *state.players[1:]))


def _next_moves(state: GameState) -> list[tuple[Move, Counter[int]]]:
    out = []
    for ms in moves(state, "you"):
        for m in ms:
            if m.sacrificed or m.tapped or m.hand >= 0:
                continue
            for paid in _cost_ways(_pool(state), m.ability.cost.mana):
                out.append((m, paid))
    return out


def _req(state: GameState, cost: str, **kw: Any) -> PaymentRequest:
    return PaymentRequest(state, ManaCost.parse(cost), "you", **kw)


@SETTINGS
@given(boards(), costs(), st.lists(st.integers(0, 50), max_size=2))
def test_guide_next_is_exactly_what_the_brute_force_can_still_complete_605_3a(
        state: GameState, cost: str, picks: list[int]) -> None:
    req = _req(state, cost)
    steps: list[Step] = []
    now = state
    for pick in picks:
        options = _next_moves(now)
        if not options:
            break
        m, paid = options[pick % len(options)]
        steps.append(Step(m.perm.id, m.ability.index, _text(m.mana)))
        now = _after(now, m, paid)
    # A partial payment whose filter land paid its cost one way of several: the guide keeps
    # every way, so compare against the union over the ways the steps could have been paid.
    got = guide(req, steps)
    assert got.reason is None or got.reason["code"] != "illegal_partial", (cost, steps, got.reason)
    boards_now = _boards_after(state, steps)
    expected: set[tuple[str, int, str]] = set()
    for b in boards_now:
        for m, paid in _next_moves(b):
            if brute(_req(_after(b, m, paid), cost), enumerate_all=False).payable:
                expected.add((m.perm.id, m.ability.index, _text(m.mana)))
    assert {(n["permanent"], n["ability"], n["mana"]) for n in got.next} == expected, (state, cost, steps)
    assert got.completable == any(brute(_req(b, cost), enumerate_all=False).payable for b in boards_now)
    if got.completion is not None:
        from manasolver.solver.payment import Payment
        check = validate(req, Payment.from_json(got.completion))
        assert check.legal, (state, cost, steps, got.completion, check.problems)


def _boards_after(state: GameState, steps: list[Step]) -> list[GameState]:
    """Every board the steps can lead to (each way of paying a step's mana cost)."""
    now = [state]
    for step in steps:
        nxt = []
        for b in now:
            for m, paid in _next_moves(b):
                if (m.perm.id, m.ability.index, _text(m.mana)) == (step.permanent, step.ability, step.mana):
                    nxt.append(_after(b, m, paid))
        now = nxt
    return now


@SETTINGS
@given(boards(), costs())
def test_payments_first_entry_is_pays_payment(state: GameState, cost: str) -> None:
    req = _req(state, cost)
    best = queries.pay(req)
    listed = queries.payments(req, limit=20)
    if best.payable and listed.payments:
        assert listed.payments[0] == best.payment
        assert best.payment is not None and listed.payments[0].to_json() == best.payment.to_json()


def _used(p: Any) -> set[str]:
    return {a.permanent for a in p.activations}


@SETTINGS
@given(boards(), costs(), st.data())
def test_sources_exclude_require_preserve_against_the_brute_force(state: GameState, cost: str,
                                                                  data: st.DataObject) -> None:
    ids = [p.id for p in state.battlefield]
    exclude = tuple(data.draw(st.lists(st.sampled_from(ids), max_size=2, unique=True)))
    require = tuple(data.draw(st.lists(st.sampled_from([i for i in ids if i not in exclude] or ids),
                                       max_size=1, unique=True)))
    preserve = tuple(data.draw(st.lists(st.sampled_from(ids), max_size=2, unique=True)))
    require = tuple(r for r in require if r not in exclude)
    every = brute(_req(state, cost), irredundant=False).payments
    allowed = [p for p in every if not (_used(p) & set(exclude)) and set(require) <= _used(p)]
    got = sources.pay(_req(state, cost, sources=Sources(require, exclude, preserve)))
    assert got.payable == bool(allowed), (state, cost, exclude, require, got.reason)
    if not got.payable:
        return
    pay = got.payment
    assert pay is not None
    assert not (_used(pay) & set(exclude)) and set(require) <= _used(pay)
    assert validate(_req(state, cost), pay).legal
    plain = _req(state, cost)
    rest = [c for c in plain.policy.criteria if c != "no_sacrifice"]

    def score(p: Any) -> tuple[int, ...]:
        return (*value(p, plain, ["no_sacrifice"]), len(_used(p) & set(preserve)), *value(p, plain, rest))
    assert score(pay) == min(score(p) for p in allowed), (state, cost, exclude, require, preserve, pay)


@SETTINGS
@given(boards(), costs(), st.data())
def test_guide_plan_and_pay_with_sources_exclude_and_preserve_agree(state: GameState, cost: str,
                                                                    data: st.DataObject) -> None:
    """One cost with permanents excluded (and, for ``plan`` and ``pay``, preserved): ``guide``'s
    completion, a one-cost ``plan`` and ``pay`` are answers to one question, so they agree on
    whether it is payable and on the payment's score (the excluded and unused preserved
    permanents stay untapped, and ``keep_colors`` / ``keep_castable`` count them in each)."""
    from manasolver.solver.plan.with_sources import plan_sourced
    ids = [p.id for p in state.battlefield]
    exclude = tuple(data.draw(st.lists(st.sampled_from(ids), max_size=2, unique=True)))
    preserve = tuple(data.draw(st.lists(st.sampled_from([i for i in ids if i not in exclude] or ids),
                                        max_size=1, unique=True)))
    preserve = tuple(p for p in preserve if p not in exclude)
    excluded = _req(state, cost, sources=Sources((), exclude, ()))
    paid = sources.pay(excluded)
    guided = guide(excluded, [])
    assert guided.completable == paid.payable, (state, cost, exclude)
    if paid.payable:
        assert paid.payment is not None and guided.completion is not None
        assert [list(s) for s in paid.payment.score or ()] == guided.completion["score"], (state, cost, exclude)
    chosen = Sources((), exclude, preserve)
    both = sources.pay(_req(state, cost, sources=chosen))
    planned = plan_sourced([_req(state, cost, sources=chosen)], chosen)
    assert planned.payable == both.payable, (state, cost, exclude, preserve)
    if both.payable:
        assert both.payment is not None
        assert planned.payments[0].score == both.payment.score, (state, cost, exclude, preserve)
