"""The fast optimiser's seed and its min_waste bound (solver/backends/fastopt/seed.py, forward.py).

* The seed: a short search in another order finds a first payment; the real search prunes
  only what is strictly worse than it, and when the short search met every payment of the
  least vector (no activation costs mana) it answers the one the real search reaches first
  (:func:`first_in_order`).  Checked against the search without a seed (``SEED_NODES`` 0):
  the same payment and the same vector on random boards, under policies that leave many
  ties (no ``min_life``: a pain land's colorless and colored mana score alike).
* The min_waste bound (units beyond the cost wasted for sure; the criteria after min_waste
  bounded over completions that waste nothing), in the forward search and in the bound
  that skips a cost's forms (``Relaxation.floor``: {2/W} paid as {2} or {W}): the optimum
  equals the brute force's on boards of Gaea's Cradle-like lands, Sol Rings and creatures,
  min_waste anywhere in the policy.
* The bound over every activation with a mana cost at once (``Relaxation.any_may_win``):
  never above the bound of any one of them (so it rules out only what each would).
* The varied Commander board's pay lines that went over the node budget (and to CP-SAT)
  are answered by the optimiser itself, with CP-SAT's optimum.
"""

from __future__ import annotations

import contextlib
import itertools
import json
from collections.abc import Iterator
from typing import Any

import pytest
from brute import brute, value
from cards import (
    ADARKAR_WASTES,
    BIRDS,
    CRADLE,
    ELVES,
    FOREST,
    ISLAND,
    MYSTIC_GATE,
    PLAINS,
    AZORIUS_SIGNET as SIGNET_WU,
    SOL_RING,
    SWAMP,
    TUNDRA,
    board,
    card,
    perm,
    request,
)
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from manasolver.benchmarks import client
from manasolver.solver import queries
from manasolver.solver.service import protocol
from manasolver.solver.backends.cpsat import CpSatBackend
from manasolver.solver.backends.fastopt import FastOptBackend, evaluate
from manasolver.solver.backends.fastopt import seed as seed_mod
from manasolver.solver.backends.fastopt.modes import GENERIC_COST, Mode
from manasolver.solver.backends.fastopt.search import clear_searches
from manasolver.solver.backends.problem import Solution, to_payment
from manasolver.solver.request import DEFAULT_POLICY, PaymentRequest, Policy
from manasolver.solver.validate import validate

COUNTERSPELL = card("Counterspell", "Instant", mana_cost="{U}{U}")
SWORDS = card("Swords to Plowshares", "Instant", mana_cost="{W}")
PALETTE = [FOREST, FOREST, ISLAND, PLAINS, SWAMP, TUNDRA, ADARKAR_WASTES, ADARKAR_WASTES, SOL_RING, BIRDS,
           ELVES, ELVES, CRADLE, SIGNET_WU, MYSTIC_GATE]
COSTS = ["{1}", "{2}", "{G}", "{1}{G}", "{2}{G}", "{W}{U}", "{U}{U}", "{2}{W}", "{3}", "{W/U}{W/U}", "{G}{G}{G}",
         "{4}", "{1}{U/P}", "{2/W}{U}", "{W}{U}{G}", "{2/W}{2/U}", "{2/G}{G}", "{2/G}{2/U}{W}"]
#: Policies that leave ties (no min_life), and ones with min_waste at each place.
POLICIES = [DEFAULT_POLICY, ("min_sources",), ("prefer_lands", "min_sources"), ("min_waste",),
            ("min_waste", "min_sources"), ("min_sources", "min_waste"), ("keep_colors", "min_waste"),
            ("min_life", "min_waste", "min_sources"), ("prefer_lands", "min_waste", "min_life")]


@st.composite
def requests(draw: Any, most: int = 9, hands: bool = True) -> PaymentRequest:
    """Up to ``most`` permanents of :data:`PALETTE` (Cradle-like lands, Sol Rings, dorks, pain
    lands, a Signet and a filter land), a hand for keep_castable (with ``hands``), a policy
    of :data:`POLICIES`."""
    n = draw(st.integers(1, most))
    perms = []
    for i in range(n):
        c = draw(st.sampled_from(PALETTE))
        perms.append(perm(f"p{i}", c, tapped=draw(st.integers(0, 9)) == 0,
                          sick=c.is_type("creature") and draw(st.integers(0, 3)) == 0))
    hand = tuple(draw(st.lists(st.sampled_from([COUNTERSPELL, SWORDS]), max_size=2))) if hands else ()
    state = board(*perms, life=draw(st.sampled_from([1, 20])), hand=hand)
    return request(state, draw(st.sampled_from(COSTS)), policy=Policy(criteria=draw(st.sampled_from(POLICIES))))


@contextlib.contextmanager
def seed_nodes(n: int) -> Iterator[None]:
    """The short search's node allowance set to ``n`` (0: no seed, the search alone)."""
    before = seed_mod.SEED_NODES
    seed_mod.SEED_NODES = n
    try:
        yield
    finally:
        seed_mod.SEED_NODES = before


def _solve(req: PaymentRequest) -> Solution | bool | None:
    clear_searches()  # each answer from a search built afresh
    return FastOptBackend().solve(queries.prepare(req, "optimal", 0))


def _same(a: Solution | bool | None, b: Solution | bool | None) -> bool:
    if isinstance(a, Solution) and isinstance(b, Solution):
        return (a.form, sorted(a.acts), a.objective) == (b.form, sorted(b.acts), b.objective)
    return a == b


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(requests())
def test_the_seed_keeps_the_search_answer_ties_included(req: PaymentRequest) -> None:
    """With the seed (and the short search answering for the real one) the optimiser gives
    exactly the payment it gives without: the same activations, form and vector."""
    with seed_nodes(0):
        alone = _solve(req)
    seeded = _solve(req)
    where = f"{req.cost.format()} {[p.card.name for p in req.state.battlefield]} {req.policy.criteria}"
    if alone is None:  # over the budget alone: with the seed it may answer, never differently
        if isinstance(seeded, Solution):
            problem = queries.prepare(req, "optimal", 0)
            exact = CpSatBackend().solve(problem)
            assert isinstance(exact, Solution), where
            criteria = req.policy.criteria
            assert evaluate(problem, seeded, criteria) == evaluate(problem, exact, criteria), where
        return
    assert _same(alone, seeded), f"seeded {seeded} != alone {alone}: {where}"


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(requests(most=6, hands=False))  # the brute force does not count keep_castable
def test_min_waste_bound_keeps_the_brute_force_optimum(req: PaymentRequest) -> None:
    """Where the optimiser answers, its payment is legal and has the brute force's optimal
    value, min_waste anywhere in the policy (a Cradle's many {G} wasted for a small cost)."""
    problem = queries.prepare(req, "optimal", 0)
    clear_searches()
    fast = FastOptBackend().solve(problem)
    if fast is None:
        return
    b = brute(req, req.policy.criteria)
    where = f"{req.cost.format()} {[p.card.name for p in req.state.battlefield]} {req.policy.criteria}"
    assert (fast is not False) == b.payable, where
    if fast is False:
        return
    assert isinstance(fast, Solution)
    payment = to_payment(problem, fast)
    assert validate(req, payment).legal, where
    assert value(payment, req, req.policy.criteria) == b.best_value, where


@pytest.mark.parametrize(("cost", "names", "criteria"), [
    ("{1}", [SOL_RING, ADARKAR_WASTES, SOL_RING], ("min_waste", "min_sources")),
    ("{3}", [ADARKAR_WASTES, ADARKAR_WASTES, SOL_RING, ELVES, FOREST, SOL_RING], ("min_sources", "min_waste")),
])
def test_the_short_search_answers_the_tie_the_search_reaches_first(cost: str, names: list[Any],
                                                                     criteria: tuple[str, ...]) -> None:
    """Boards where several payments share the least vector (a pain land's {C} and its
    colored mana score alike without min_life) and the short search meets another one
    first: the answer is still the one the search alone reaches first."""
    req = request(board(*(perm(f"p{i}", c) for i, c in enumerate(names))), cost,
                  policy=Policy(criteria=criteria))
    with seed_nodes(0):
        alone = _solve(req)
    found: list[int] = []
    first = seed_mod.first_in_order

    def spy(plans: list[list[int]], modes: list[Mode], plan: list[int]) -> list[int]:
        got = first(plans, modes, plan)
        found.append(int(got is not plans[0]))
        return got

    seed_mod.first_in_order = spy
    try:
        seeded = _solve(req)
    finally:
        seed_mod.first_in_order = first
    assert found == [1]  # the short search answered, and not with the first payment it met
    assert _same(alone, seeded)


def test_the_short_search_never_uses_up_the_search_budget() -> None:
    """Mystic Gates, a Signet, pain lands, Birds, {G}{G}{G} under (keep_colors, min_waste): the
    search alone needs most of its budget with activations that cost mana; the short search
    before it must not spend that budget (it did: the seeded search declined)."""
    names = [ADARKAR_WASTES, MYSTIC_GATE, FOREST, FOREST, ADARKAR_WASTES, SIGNET_WU, BIRDS, MYSTIC_GATE,
             ADARKAR_WASTES]
    req = request(board(*(perm(f"p{i}", c) for i, c in enumerate(names)), life=1), "{G}{G}{G}",
                  policy=Policy(criteria=("keep_colors", "min_waste")))
    with seed_nodes(0):
        alone = _solve(req)
    assert isinstance(alone, Solution)
    assert _same(alone, _solve(req))


def test_a_cradle_is_not_tapped_for_three_mana() -> None:
    """Gaea's Cradle-like land with four creatures, three Forests: {2}{G} from the Forests
    (nothing wasted) under the default policy, and the same vector as CP-SAT's."""
    state = board(perm("c", CRADLE), perm("f1", FOREST), perm("f2", FOREST), perm("f3", FOREST),
                  *(perm(f"e{i}", ELVES, sick=True) for i in range(4)))
    req = request(state, "{2}{G}")
    problem = queries.prepare(req, "optimal", 0)
    fast = _solve(req)
    assert isinstance(fast, Solution)
    assert sorted(p["permanent"] for p in to_payment(problem, fast).to_json()["activations"]) == ["f1", "f2", "f3"]
    exact = CpSatBackend().solve(problem)
    assert isinstance(exact, Solution)
    assert evaluate(problem, fast, DEFAULT_POLICY) == evaluate(problem, exact, DEFAULT_POLICY)


def _mode(k: int, costs: tuple[tuple[int, int], ...] = ()) -> Mode:
    return Mode(k, ((0, 0),), (1,), False, 0, 0, 0, 0, k + 1, costs)


def test_first_in_order_follows_the_forward_search_order() -> None:
    """The forward search tries the first-dive plan's count first, then from most to fewest
    (fewest first for a mode whose activation costs mana): the first level that differs
    decides which plan it reaches first."""
    free = [_mode(0), _mode(1), _mode(2)]
    plans = [[0, 3, 0], [1, 1, 0], [1, 0, 2]]
    assert seed_mod.first_in_order(plans, free, [1, 0, 0]) == [1, 0, 2]  # plan's 1, then plan's 0
    assert seed_mod.first_in_order(plans, free, [0, 0, 0]) == [0, 3, 0]
    assert seed_mod.first_in_order(plans, free, [2, 2, 2]) == [1, 1, 0]  # most first
    costly = [_mode(0, ((GENERIC_COST, 1),)), _mode(1), _mode(2)]
    assert seed_mod.first_in_order([[2, 0, 0], [1, 0, 1]], costly, [0, 0, 0]) == [1, 0, 1]  # fewest first


#: Varied Commander boards of the client benchmark (benchmarks/client.py, its pay lines'
#: seeds) and costs that went over the node budget before the seed and the min_waste bound.
VARIED = [(3, "{W}{W}{U}{U}{B}{B}{R}{R}{G}{G}"), (21, "{7}"), (36, "{2/W}{2/W}{2/W}"), (87, "{5}{G}{U}{R}")]


@pytest.mark.parametrize(("line", "cost"), VARIED)
def test_varied_board_pay_lines_are_answered_by_the_optimiser(line: int, cost: str) -> None:
    """Utility lands, Elf-counting dorks, Signets, Talismans: answered by the fast optimiser
    (not declined to CP-SAT) with CP-SAT's optimum."""
    query = {"query": "pay", "state": client.varied_board(212 * 100_000 + line), "cost": cost}
    req = protocol.build_request(json.loads(json.dumps(query)))
    problem = queries.prepare(req, "optimal", 0)
    clear_searches()
    fast = FastOptBackend().solve(problem)
    assert isinstance(fast, Solution), f"declined {cost} on varied line {line}"
    exact = CpSatBackend().solve(problem)
    assert isinstance(exact, Solution)
    assert evaluate(problem, fast, DEFAULT_POLICY) == evaluate(problem, exact, DEFAULT_POLICY)
    assert validate(req, to_payment(problem, fast)).legal


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(requests(), st.sampled_from([None, "best"]))
def test_the_bound_over_every_costly_activation_is_below_each(req: PaymentRequest, bar: str | None) -> None:
    """``_any_lower`` is at most ``lower_vector`` of each activation with a mana cost (a
    Signet, a filter land), and of each pair of them, form by form; ``any_may_win`` False
    implies ``costly_may_win`` False for each, against the search's own answer."""
    from manasolver.solver.backends.fastopt.search import search_for
    problem = queries.prepare(req, "optimal", 0)
    clear_searches()
    if FastOptBackend().solve(problem) is None:
        return
    search = search_for(problem, req.policy.criteria)
    if search is None:
        return
    if bar:
        search.run()
    costly = [md for md in search.modes_all if md.costs]
    if not costly:
        return
    relax = search.relax
    forms = list(enumerate(problem.forms))
    for _, form in forms:
        group = relax._any_lower(form, 0, costly)
        for md in costly:
            one = relax.lower_vector(form, 0, (md,))
            if one is not None:
                assert group is not None and group <= one, (md, group, one)
        if not relax.any_may_win([(0, form)], 0, costly, search.inc):
            assert not any(relax.costly_may_win(form, 0, md, search.inc) for md in costly)
        pair = relax._any_lower(form, 0, costly, 2)
        for a, b in itertools.combinations_with_replacement(costly, 2):
            both = relax.lower_vector(form, 0, (a, b))
            if both is not None:
                assert pair is not None and pair <= both, (a, b, pair, both)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(requests())
def test_the_floor_of_a_form_is_below_its_best_payment(req: PaymentRequest) -> None:
    """``Relaxation.floor`` (the form's bound with min_waste, which skips forms) is at most
    the best payment of that form alone, found by the search of that form alone."""
    from manasolver.solver.backends.fastopt.search import search_for
    problem = queries.prepare(req, "optimal", 0)
    clear_searches()
    search = search_for(problem, req.policy.criteria)
    if search is None:
        return
    for fi, form in enumerate(problem.forms):
        search.reset(problem)
        search.modes = [md for md in search.modes_all if not md.costs]
        if not search._pass([(fi, form)], 0) or search.inc.best is None:
            continue
        floor = search.relax.floor(form, 0)
        assert floor is not None and floor <= search.inc.best, (form, floor, search.inc.best)
