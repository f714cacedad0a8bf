"""The fast optimiser's floor path (fastopt/floor.py) against the brute force and CP-SAT.

Small boards of real cards with abilities that cost mana (Azorius Signet, Talisman of
Progress, Mystic Gate, Study Hall), pain lands, rocks and dorks: where the floor path answers,
its payment is legal and has the brute force's optimum (the policy's criteria) and CP-SAT's
(the tie-break too).  A 300-permanent mixed board of the client benchmark is answered by the
floor path itself, through the ``fastopt`` backend, with a payment ``validate`` accepts.
"""

from __future__ import annotations

import dataclasses

import pytest
from brute import brute, value
from cards import FOREST, ISLAND, PLAINS, SWAMP, board, perm
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from manasolver.benchmarks import boards as bd
from manasolver.models.carddb import default_db
from manasolver.models.cost import ManaCost
from manasolver.solver import queries
from manasolver.solver.service import protocol
from manasolver.solver.backends.cpsat import CpSatBackend
from manasolver.solver.backends.fastopt import evaluate
from manasolver.solver.backends.fastopt.floor import solve_at_floor
from manasolver.solver.backends.fastopt.unitflow import solve_by_flow
from manasolver.solver.backends.problem import Problem, Solution, to_payment
from manasolver.solver.request import PaymentRequest, Policy
from manasolver.solver.validate import validate

REAL = ("Azorius Signet", "Talisman of Progress", "Mystic Gate", "Study Hall", "Adarkar Wastes", "Sol Ring",
        "Command Tower", "Tundra", "Llanowar Elves", "Mind Stone")
BASICS = (PLAINS, ISLAND, SWAMP, FOREST)
SYMBOLS = ("{W}", "{U}", "{B}", "{G}", "{C}", "{1}", "{2}", "{W/U}", "{2/W}", "{U/P}")
#: The default criteria the brute force computes (keep_castable left out: no hand).
CRITERIA = ("no_sacrifice", "min_life", "keep_colors", "min_waste", "prefer_lands", "min_sources")


@st.composite
def requests(draw: st.DrawFn) -> PaymentRequest:
    """At most 6 permanents (the brute force tries every activation of each): 1-3 of
    :data:`REAL`, the rest basics, in any order, a cost of 1-4 symbols."""
    db = default_db()
    names = draw(st.lists(st.sampled_from(REAL), min_size=1, max_size=3))
    basics = draw(st.lists(st.sampled_from(BASICS), min_size=1, max_size=6 - len(names)))
    perms = [perm(f"r{i}", db.get(n)) for i, n in enumerate(names)]
    perms += [perm(f"b{i}", c) for i, c in enumerate(basics)]
    perms = draw(st.permutations(perms))
    cost = "".join(draw(st.lists(st.sampled_from(SYMBOLS), min_size=1, max_size=4)))
    return PaymentRequest(board(*perms), ManaCost.parse(cost), "you",  # type: ignore[arg-type]
                          policy=Policy(criteria=CRITERIA))


def _where(r: PaymentRequest) -> str:
    return f"cost={r.cost.format()} board={[p.card.name for p in r.state.battlefield]}"


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(requests())
def test_floor_with_signets_talismans_filter_lands_and_study_hall_agrees_with_brute_force(r: PaymentRequest) -> None:
    problem = queries.prepare(r, "optimal", 0)
    _check(r, problem, solve_at_floor(problem, CRITERIA), CRITERIA)


def _check(r: PaymentRequest, problem: Problem, found: Solution | None, criteria: tuple[str, ...]) -> None:
    """Where a path answered (``found``): a legal payment with the brute force's optimum, and
    CP-SAT's vector with the tie-break."""
    if found is None:
        return  # not proven: the branch and bound answers
    payment = to_payment(problem, found)
    checked = validate(r, payment)
    assert checked.legal, f"illegal payment {payment.to_json()}: {checked.problems}: {_where(r)}"
    b = brute(r, criteria)
    assert b.payable, f"the brute force finds no payment: {_where(r)}"
    assert value(payment, r, criteria) == b.best_value, (
        f"{payment.to_json()} has {value(payment, r, criteria)}, brute force {b.best_value}: {_where(r)}")
    exact = CpSatBackend().solve(problem)
    assert isinstance(exact, Solution)
    assert evaluate(problem, found, criteria) == evaluate(problem, exact, criteria), f"CP-SAT differs: {_where(r)}"
    assert found.objective == evaluate(problem, found, criteria)


def _problem(names: list[str], cost: str, criteria: tuple[str, ...] = CRITERIA) -> tuple[PaymentRequest, Problem]:
    db = default_db()
    r = PaymentRequest(board(*[perm(f"p{i}", db.get(n)) for i, n in enumerate(names)]), ManaCost.parse(cost),
                       "you", policy=Policy(criteria=criteria))  # type: ignore[arg-type]
    return r, queries.prepare(r, "optimal", 0)


def test_floor_leaves_azorius_signet_untapped_when_lands_pay() -> None:
    """Azorius Signet, Plains, Island and Forest paying {W}{U}: the two lands; the Signet, fed by
    the Forest, keeps white and blue (keep_colors), and prefer_lands leaves it untapped."""
    r, problem = _problem(["Azorius Signet", "Plains", "Island", "Forest"], "{W}{U}")
    found = solve_at_floor(problem, CRITERIA)
    assert found is not None
    payment = to_payment(problem, found)
    assert sorted(a.permanent for a in payment.activations) == ["p1", "p2"]
    assert validate(r, payment).legal


def test_floor_declines_when_azorius_signet_is_the_last_source_of_white_and_blue() -> None:
    """Plains and Island paying {W}{U} leave only the Signet, which nothing feeds: keep_colors
    is above its floor, so the floor path proves nothing and declines."""
    _r, problem = _problem(["Azorius Signet", "Plains", "Island"], "{W}{U}")
    assert solve_at_floor(problem, CRITERIA) is None


def test_floor_declines_when_sol_ring_ranks_before_prefer_lands() -> None:
    """Sol Ring adds two: under min_sources before prefer_lands it may beat two lands, so the
    floor path gives the question to the branch and bound."""
    _r, problem = _problem(["Sol Ring", "Plains", "Island"], "{2}", ("min_sources", "prefer_lands"))
    assert solve_at_floor(problem, ("min_sources", "prefer_lands")) is None


def test_floor_declines_when_temple_of_the_false_god_adds_two_from_a_land() -> None:
    """A land adding two ({T}: Add {C}{C}) breaks "one unit a source": declined."""
    names = ["Temple of the False God", "Plains", "Island", "Swamp", "Forest", "Plains"]
    _r, problem = _problem(names, "{2}")
    assert solve_at_floor(problem, CRITERIA) is None


def test_floor_declines_when_mystic_gate_must_convert() -> None:
    """{U}{U} from Plains and Mystic Gate needs the filter ({W/U}, {T}: Add {U}{U}): no one-unit
    land payment exists, so the converter search answers."""
    _r, problem = _problem(["Plains", "Mystic Gate"], "{U}{U}")
    assert solve_at_floor(problem, CRITERIA) is None


@pytest.mark.parametrize("seed", [0, 1])
def test_mixed_board_of_300_permanents_is_answered_by_the_floor_path(seed: int) -> None:
    """The client benchmark's 300-permanent mixed board (Signets, Talismans, filter and pain
    lands, rocks, dorks), a cost of about 60% of its mana: the fastopt backend answers (no
    CP-SAT), by the floor path, with a payment validate accepts."""
    state = bd.mixed_board(300, 7000 + seed)
    cost = bd.mana_cost_share(state, 0.6, seed)
    req = protocol.build_request({"query": "pay", "state": state, "cost": cost})
    problem = queries.prepare(req, "optimal", 0)
    assert solve_at_floor(problem, problem.policy.criteria) is not None
    got = queries.pay(req, backend="fastopt")
    assert got.payable and got.payment is not None and not got.time_bound
    assert validate(req, got.payment).legal
    checked = protocol.answer({"query": "validate", "state": state, "cost": cost,
                               "payment": protocol.answer({"query": "pay", "state": state, "cost": cost})["payment"]})
    assert checked["legal"]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(requests(), st.permutations(list(CRITERIA)))
def test_flow_with_signets_talismans_sol_ring_and_mystic_gate_agrees_with_brute_force(
        r: PaymentRequest, order: list[str]) -> None:
    """The min-cost flow (fastopt/unitflow.py) under any order of the criteria: where it
    answers, a legal payment with the brute force's optimum and CP-SAT's (tie-break too)."""
    criteria = tuple(order)
    r = dataclasses.replace(r, policy=Policy(criteria=criteria))
    problem = queries.prepare(r, "optimal", 0)
    _check(r, problem, solve_by_flow(problem, criteria), criteria)


@pytest.mark.parametrize("seed", [0, 1])
def test_mixed_board_of_300_needing_signets_and_sol_ring_is_answered_by_the_flow(seed: int) -> None:
    """The 300-permanent mixed board with a cost of 75% of its mana (more than its lands make):
    the flow answers, tapping Sol Ring, Signets and dorks, with a payment validate accepts."""
    state = bd.mixed_board(300, 7000 + seed)
    cost = bd.mana_cost_share(state, 0.75, seed)
    req = protocol.build_request({"query": "pay", "state": state, "cost": cost})
    problem = queries.prepare(req, "optimal", 0)
    assert solve_at_floor(problem, problem.policy.criteria) is None
    found = solve_by_flow(problem, problem.policy.criteria)
    assert found is not None
    payment = to_payment(problem, found)
    assert validate(req, payment).legal
    assert found.objective == evaluate(problem, found, problem.policy.criteria)


MID = ("Azorius Signet", "Dimir Signet", "Talisman of Progress", "Sol Ring", "Mind Stone", "Llanowar Elves",
       "Birds of Paradise", "Adarkar Wastes", "Underground River", "Mystic Gate", "Command Tower", "Tundra",
       "Plains", "Island", "Swamp", "Forest", "Study Hall")
MID_SYMBOLS = ("{W}", "{U}", "{B}", "{G}", "{C}", "{1}", "{3}", "{W/U}", "{U/B}", "{2/W}", "{W/P}")


@st.composite
def mid_requests(draw: st.DrawFn) -> PaymentRequest:
    """12-30 permanents of :data:`MID` (several of each: the flow's classes), a cost of 3-12 symbols."""
    db = default_db()
    names = draw(st.lists(st.sampled_from(MID), min_size=12, max_size=30))
    state = board(*[perm(f"m{i}", db.get(n)) for i, n in enumerate(names)], life=draw(st.sampled_from([1, 20])))
    cost = "".join(draw(st.lists(st.sampled_from(MID_SYMBOLS), min_size=3, max_size=12)))
    return PaymentRequest(state, ManaCost.parse(cost), "you")  # type: ignore[arg-type]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mid_requests())
def test_floor_and_flow_with_sol_ring_signets_and_phyrexian_costs_agree_with_cpsat(r: PaymentRequest) -> None:
    """Boards of 12-30 permanents (Sol Ring, Azorius and Dimir Signets, Talisman of Progress,
    pain and filter lands, Study Hall, dorks), the default policy: where the floor path or the
    flow answers, CP-SAT's vector (tie-break too) and a legal payment."""
    problem = queries.prepare(r, "optimal", 0)
    criteria = problem.policy.criteria
    for found in (solve_at_floor(problem, criteria), solve_by_flow(problem, criteria)):
        if found is None:
            continue
        exact = CpSatBackend().solve(problem)
        assert isinstance(exact, Solution), _where(r)
        if not exact.optimal:
            continue  # CP-SAT stopped at its time bound: nothing to compare
        assert evaluate(problem, found, criteria) == evaluate(problem, exact, criteria), f"CP-SAT differs: {_where(r)}"
        assert found.objective == evaluate(problem, found, criteria)
        payment = to_payment(problem, found)
        checked = validate(r, payment)
        assert checked.legal, f"illegal payment {payment.to_json()}: {checked.problems}: {_where(r)}"


def test_floor_declines_a_cost_above_the_land_members_before_reading_the_modes(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Under prefer_lands the floor's units are lands' (one a member): a cost asking more mana than
    the board has land members (Llanowar Elves, Sol Ring and two lands paying {4}) is declined
    without the floor modes being read; the flow path answers it."""
    from manasolver.solver.backends.fastopt import floor

    def unread(*_args: object) -> None:
        raise AssertionError("the floor modes were read")

    _r, problem = _problem(["Llanowar Elves", "Sol Ring", "Plains", "Island"], "{4}")
    monkeypatch.setattr(floor, "_Floor", unread)
    assert solve_at_floor(problem, CRITERIA) is None


def test_floor_answers_a_cost_of_exactly_the_land_members() -> None:
    """Three lands and Llanowar Elves paying {2}{G} (keep_colors aside: every land is tapped): the
    cost asks as much as the lands make, so the floor path still answers, with the three lands
    (prefer_lands leaves the Elves untapped)."""
    criteria = tuple(c for c in CRITERIA if c != "keep_colors")
    r, problem = _problem(["Llanowar Elves", "Plains", "Island", "Forest"], "{2}{G}", criteria)
    found = solve_at_floor(problem, criteria)
    assert found is not None
    payment = to_payment(problem, found)
    assert sorted(a.permanent for a in payment.activations) == ["p1", "p2", "p3"]
    assert validate(r, payment).legal
