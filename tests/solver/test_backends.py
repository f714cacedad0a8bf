"""Every backend on the same fixtures.

The flow fast path and CP-SAT must agree on payability wherever the fast path
answers; CP-SAT's optimum under simple policies must equal a brute force over
every activation and every type of every slot (written here, sharing nothing
with the backends but the supply's list of options).
"""

from __future__ import annotations

import itertools
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from manasolver.models.cost import ManaCost
from manasolver.solver import queries
from manasolver.solver.backends.problem import Mode, Problem, Solution, to_payment
from manasolver.solver.backends.cpsat import CpSatBackend, build_model
from manasolver.solver.backends.flow import FlowBackend
from manasolver.solver.reasons import reason
from manasolver.solver.request import PaymentRequest, Policy
from manasolver.models.symbols import TYPE_BITS
from cards import (
    ADARKAR_WASTES,
    BIRDS,
    CITY_OF_BRASS,
    ELVES,
    FOREST,
    ISLAND,
    MIND_STONE,
    MOUNTAIN,
    MYSTIC_GATE,
    PLAINS,
    AZORIUS_SIGNET as SIGNET_WU,
    SNOW_FOREST,
    SOL_RING,
    SWAMP,
    TREASURE,
    TUNDRA,
    WASTES,
    board,
    commander_board,
    perm,
    reduce,
    request,
)

CARDS = [FOREST, ISLAND, PLAINS, SWAMP, MOUNTAIN, WASTES, SNOW_FOREST, TUNDRA, ADARKAR_WASTES,
         CITY_OF_BRASS, SOL_RING, MIND_STONE, ELVES, BIRDS, TREASURE]
COSTS = ["{1}", "{G}", "{C}", "{W}{U}", "{2}{G}", "{W/U}{W/U}", "{2/W}", "{1}{C}", "{S}", "{1}{S}",
         "{U/P}", "{G}{G}{G}", "{W}{W}{U}", "{3}", "{2/G}{2/U}", "{B/R}{R/G}", "{C/W}{1}",
         "{G/W/P}{W}"]


def _brute(req: PaymentRequest) -> int | None:
    """Fewest activations paying ``req`` (None: unpayable), by trying every choice.

    Independent of the backends: expands every permanent's options, every type of
    every slot, and checks the resulting units against every announced form with
    its own small matcher.
    """
    problem = queries.prepare(req, "feasible", 0)
    sup = problem.supply
    perms: list[list[tuple[tuple[int, ...], bool, int, int, int]]] = []
    for k, cls in enumerate(sup.classes):
        for _ in range(cls.count):
            choices: list[tuple[tuple[int, ...], bool, int, int, int]] = [((), False, 0, 0, 0)]
            for o, opt in enumerate(cls.options):
                if not problem.spell_ok[k][o] or not opt.free:
                    continue
                per_slot = [[b for b in TYPE_BITS if s & b] for s in opt.slots]
                for types in itertools.product(*per_slot):
                    choices.append((tuple(types), cls.snow, 1, opt.damage, opt.life))
            perms.append(choices)
    pool = [(b, False) for b, n in sup.pool for _ in range(n)]
    best: int | None = None
    for combo in itertools.product(*perms):
        units = list(pool)
        used = damage = ab_life = 0
        for types, snow, u, d, lf in combo:
            units.extend((t, snow) for t in types)
            used += u
            damage += d
            ab_life += lf
        if best is not None and used >= best:
            continue
        for form in problem.forms:
            if form.life and form.life + ab_life + damage > sup.life:
                continue
            if ab_life > sup.life:
                continue
            needs: list[tuple[str, int]] = [("m", m) for m, n in form.demands for _ in range(n)]
            needs += [("s", 0)] * form.snow + [("g", 0)] * form.generic(0)
            if _match(needs, units):
                best = used
                break
    return best


def _match(needs: list[tuple[str, int]], units: list[tuple[int, bool]]) -> bool:
    if len(needs) > len(units):
        return False
    needs = sorted(needs, key=lambda n: {"m": 0, "s": 1, "g": 2}[n[0]])

    def go(i: int, free: list[bool]) -> bool:
        if i == len(needs):
            return True
        kind, mask = needs[i]
        tried: set[tuple[int, bool]] = set()
        for j, (t, snow) in enumerate(units):
            if not free[j] or (t, snow) in tried:
                continue
            if kind == "m" and not t & mask or kind == "s" and not snow:
                continue
            tried.add((t, snow))
            free[j] = False
            if go(i + 1, free):
                return True
            free[j] = True
        return False

    return go(0, [True] * len(units))


def _random_board(rng: random.Random, n: int, life: int = 20) -> object:
    return board(*(perm(f"p{i}", rng.choice(CARDS), tapped=rng.random() < 0.1)
                   for i in range(n)), life=life)


def test_flow_and_cpsat_agree_on_fixtures() -> None:
    """Payability agrees on every board/cost pair the fast path accepts."""
    rng = random.Random(7)
    compared = 0
    for _ in range(60):
        state = _random_board(rng, rng.randint(0, 5))
        for cost in rng.sample(COSTS, 6):
            req = request(state, cost)  # type: ignore[arg-type]
            problem = queries.prepare(req, "feasible", 0)
            fast = FlowBackend().solve(problem)
            exact = CpSatBackend().solve(problem)
            if fast is not None:
                compared += 1
                assert (fast is not False) == (exact is not False), (cost, state)
                if fast is not False:
                    pay = to_payment(problem, fast)
                    assert pay.total
    assert compared > 200


@settings(max_examples=150, deadline=None)
@given(st.integers(0, 10_000), st.integers(0, 4), st.sampled_from(COSTS),
       st.sampled_from([1, 2, 3, 20]))
def test_cpsat_optimum_equals_brute_force(seed: int, n: int, cost: str, life: int) -> None:
    """CP-SAT's fewest activations (policy min_sources) equals the brute force's."""
    rng = random.Random(seed)
    state = _random_board(rng, n, life=life)
    req = request(state, cost, policy=Policy(("min_sources",)))  # type: ignore[arg-type]
    expected = _brute(req)
    answer = queries.pay(req)
    assert answer.payable == (expected is not None), (cost, state)
    if expected is not None:
        assert answer.payment is not None
        assert len(answer.payment.activations) == expected


def test_mana_costing_sources_are_never_circular() -> None:
    """CR 601.2g, 605.3: two Signets alone can't pay each other's {1}."""
    state = board(perm("s1", SIGNET_WU), perm("s2", SIGNET_WU))
    assert not queries.can_pay(request(state, "{U}")).payable
    state = board(perm("s1", SIGNET_WU), perm("s2", SIGNET_WU), perm("f", FOREST))
    answer = queries.pay(request(state, "{W}{U}{U}"))
    assert answer.payable and answer.payment is not None
    assert {a.permanent for a in answer.payment.activations} == {"s1", "s2", "f"}


def test_filter_land_paid_from_another_source() -> None:
    """Mystic Gate: {W/U}, {T}: Add {W}{W} is paid by an Island's {U}."""
    state = board(perm("g", MYSTIC_GATE), perm("i", ISLAND))
    answer = queries.pay(request(state, "{W}{W}"))
    assert answer.payable and answer.payment is not None
    acts = {a.permanent: a for a in answer.payment.activations}
    assert acts["g"].mana == "{W}{W}" and acts["g"].costs == ("{W/U}", "{T}")
    assert not queries.can_pay(request(state, "{W}{W}{U}")).payable


def test_flow_declines_what_it_cannot_model() -> None:
    """The fast path says None (not a guess) for optimisation and mana-costing supplies."""
    req = request(board(perm("s1", SIGNET_WU), perm("s2", SIGNET_WU)), "{U}")
    assert FlowBackend().solve(queries.prepare(req, "feasible", 0)) is None
    assert FlowBackend().solve(queries.prepare(req, "optimal", 0)) is None


def test_emitted_model_is_small_and_grouped() -> None:
    """Grouping: 40 Forests are one integer, not 40 Booleans."""
    state = board(*(perm(f"f{i}", FOREST) for i in range(40)))
    problem = queries.prepare(request(state, "{3}{G}"), "optimal", 0)
    model = build_model(problem)
    assert len(model.uses) == 1 and len(model.y) == 1
    assert len(model.cp.proto.variables) < 30


def test_large_board_payable_and_exact() -> None:
    """1,000 basic lands: a cost needing all of them is payable; one more is not."""
    state = board(*(perm(f"f{i}", FOREST if i % 2 else ISLAND) for i in range(1000)))
    assert queries.can_pay(request(state, "{998}{G}{U}")).payable
    assert not queries.can_pay(request(state, "{999}{G}{U}")).payable
    answer = queries.pay(request(state, "{500}{G}{U}"))
    assert answer.payable and answer.payment is not None
    assert len(answer.payment.activations) == 502


def test_commander_board_all_backends() -> None:
    """The 40-permanent fixture: flow (when it answers) and CP-SAT agree on many costs."""
    state = commander_board(40)
    for cost in ["{2}{W/U}{B/P}", "{W}{W}{W}{W}{W}", "{U}{U}{U}{U}{U}{U}{U}{U}", "{30}", "{45}",
                 "{G}{G}{G}{G}{G}{G}{G}{G}{G}{G}{G}{G}{G}", "{C}{C}{C}{C}{C}"]:
        req = request(state, cost)
        problem = queries.prepare(req, "feasible", 0)
        exact = CpSatBackend().solve(problem)
        fast = FlowBackend().solve(problem)
        if fast is not None:
            assert (fast is not False) == (exact is not False), cost
        assert queries.can_pay(req).payable == (exact is not False)


@pytest.mark.parametrize("cost", ["{X}{G}", "{X}{X}{U}"])
def test_max_x_matches_probe(cost: str) -> None:
    """max_x by optimisation equals the largest X a probe finds (the probe is only the test)."""
    state = board(*(perm(f"p{i}", c) for i, c in enumerate([FOREST, ISLAND, SOL_RING, FOREST,
                                                            MOUNTAIN, ELVES])))
    got = queries.max_x(request(state, cost)).max_x
    x = 0
    while queries.can_pay(request(state, cost, x=x + 1)).payable:
        x += 1
    assert got == x


def test_missing_is_smallest() -> None:
    """REASON.missing: {1}{G}{G} from one Forest is {1}{G} short."""
    out = queries.pay(request(board(perm("f", FOREST)), "{1}{G}{G}")).to_json()
    assert out == {"payable": False, "reason": {"code": "insufficient_mana",
                                                "message": "{1}{G} more mana is needed",
                                                "missing": "{1}{G}"}}


def test_reduction_forms_agree() -> None:
    """Reaper King with {1} off from a Wastes and four basics (not white): payable as
    {2/W}→{2} reduced to {1}."""
    state = board(perm("w", WASTES), perm("u", ISLAND), perm("b", SWAMP), perm("r", MOUNTAIN),
                  perm("g", FOREST))
    req = request(state, "{2/W}{2/U}{2/B}{2/R}{2/G}", mods=(reduce("{1}"),))
    assert queries.can_pay(req).payable
    assert ManaCost.parse(queries.pay(req).to_json()["payment"]["total"]).mana_value() == 5


def _hand_board(rng: random.Random) -> object:
    from cards import card
    counter = card("Counterspell", "Instant", mana_cost="{U}{U}")
    bolt = card("Lightning Bolt", "Instant", mana_cost="{R}")
    hand = tuple(rng.sample([counter, bolt, counter], rng.randint(0, 2)))
    cards = CARDS + [SIGNET_WU, SIGNET_WU, MYSTIC_GATE, MYSTIC_GATE]
    return board(*(perm(f"p{i}", rng.choice(cards), tapped=rng.random() < 0.1)
                   for i in range(rng.randint(0, 7))),
                 life=rng.choice([1, 2, 3, 20]), pool=rng.choice(["", "{G}", "{C}{U}"]), hand=hand)


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 100_000), st.sampled_from(COSTS))
def test_fastopt_optimum_equals_cpsat(seed: int, cost: str) -> None:
    """The plain-Python optimiser and CP-SAT reach the same lexicographic optimum under
    the default policy (keep_castable from the hand, keep_colors, pool, life, damage,
    Signets and filter lands paid from other sources), and its payments pass validate."""
    from manasolver.solver.backends.fastopt import FastOptBackend, evaluate
    from manasolver.solver.request import DEFAULT_POLICY
    rng = random.Random(seed)
    req = request(_hand_board(rng), cost)  # type: ignore[arg-type]
    problem = queries.prepare(req, "optimal", 0)
    fast = FastOptBackend().solve(problem)
    if fast is None:
        return
    exact = CpSatBackend().solve(problem)
    assert (fast is False) == (exact is False)
    if fast is False or exact is False:
        return
    assert evaluate(problem, fast, DEFAULT_POLICY) == evaluate(problem, exact, DEFAULT_POLICY)
    assert fast.objective == evaluate(problem, fast, DEFAULT_POLICY)
    from manasolver.solver.validate import validate
    assert validate(req, to_payment(problem, fast)).legal


@settings(max_examples=150, deadline=None)
@given(st.integers(0, 100_000), st.sampled_from(COSTS + ["{E}{G}", "{E}{E}", "{W}{W}{W}{W}"]))
def test_flow_reason_matches_cpsat(seed: int, cost: str) -> None:
    """REASON from the flow bound and from CP-SAT slack: same code, same amount missing
    (which colors may differ between equally small answers)."""
    from manasolver.solver.backends import flow
    rng = random.Random(seed)
    state = board(*(perm(f"p{i}", rng.choice(CARDS)) for i in range(rng.randint(0, 4))),
                  life=rng.choice([1, 2, 3, 20]), energy=rng.choice([0, 1]),
                  pool=rng.choice(["", "{G}", "{C}{U}"]))
    req = request(state, cost)
    if queries.can_pay(req).payable:
        return
    problem = queries.prepare(req, "feasible", 0)
    fast = reason(problem)
    original = flow.FlowBackend.shortfall
    try:
        flow.FlowBackend.shortfall = lambda self, p: None  # type: ignore[method-assign,assignment]
        slow = reason(problem)
    finally:
        flow.FlowBackend.shortfall = original  # type: ignore[method-assign]
    assert fast.code == slow.code

    def size(missing: str | None) -> int:
        return 0 if missing is None else ManaCost.parse(missing).mana_value()

    assert size(fast.missing) == size(slow.missing)


@settings(max_examples=150, deadline=None)
@given(st.integers(0, 100_000), st.sampled_from(COSTS + ["{E}{G}", "{E}{E}", "{W}{W}{W}{W}", "{W/P}{G}"]))
def test_flow_decide_proof_carries_what_shortfall_finds(seed: int, cost: str) -> None:
    """An unpayable cost proved so by the flow's ``decide`` carries the least missing mana where it
    found it (Hall's condition over units leaving nothing out, every form within life and energy):
    exactly what the flow's ``shortfall`` finds (no life or energy lacking), so the REASON read from
    the proof is the one asked without it."""
    from manasolver.solver import backends
    rng = random.Random(seed)
    state = board(*(perm(f"p{i}", rng.choice(CARDS)) for i in range(rng.randint(0, 4))),
                  life=rng.choice([1, 2, 3, 20]), energy=rng.choice([0, 1]),
                  pool=rng.choice(["", "{G}", "{C}{U}"]))
    problem = queries.prepare(request(state, cost), "feasible", 0)
    proof = backends.decide(problem, backends.DEFAULT_CHAINS["can_pay"])
    if not isinstance(proof, backends.Infeasible):
        return
    if proof.missing:
        assert FlowBackend().shortfall(problem) == (proof.missing, 0, 0)
    assert reason(problem, proof) == reason(problem)


def test_fastopt_complement_search_on_a_tight_cost() -> None:
    """A cost needing all but two of 30 lands: the search over which lands stay untapped
    finds CP-SAT's optimum (keep the most colors, then leave the latest permanents)."""
    from manasolver.solver.backends.fastopt import FastOptBackend, evaluate
    from manasolver.solver.request import DEFAULT_POLICY
    cards = [FOREST, ISLAND, PLAINS, SWAMP, MOUNTAIN, TUNDRA, WASTES]
    state = board(*(perm(f"p{i}", cards[(i * 3) % len(cards)]) for i in range(30)))
    req = request(state, "{20}{G}{G}{U}{U}{W}{B}{R}{C}")
    problem = queries.prepare(req, "optimal", 0)
    fast = FastOptBackend().solve(problem)
    exact = CpSatBackend().solve(problem)
    assert isinstance(fast, Solution) and isinstance(exact, Solution)
    assert evaluate(problem, fast, DEFAULT_POLICY) == evaluate(problem, exact, DEFAULT_POLICY)


def test_every_named_backend_answers_or_says_why() -> None:
    """backend=None/flow/fastopt/cpsat/csp: payability agrees; a backend that can't take a
    query says so with Unsupported."""
    from manasolver.models.errors import Unsupported
    state = board(perm("f", FOREST), perm("i", ISLAND), perm("s", SOL_RING))
    for cost, expected in (("{1}{G}", True), ("{G}{G}", False), ("{2}{U}", True)):
        req = request(state, cost)
        for name in (None, "flow", "fastopt", "cpsat", "csp"):
            assert queries.can_pay(req, backend=name).payable is expected, (cost, name)
            try:
                answer = queries.pay(req, backend=name)
            except Unsupported:
                continue
            assert answer.payable is expected, (cost, name)
    with pytest.raises(Unsupported):
        queries.max_x(request(state, "{X}{G}"), backend="csp")


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 100_000), st.sampled_from(["{X}", "{X}{G}", "{X}{X}{U}", "{X}{C}", "{X}{W/U}"]))
def test_max_x_bisection_equals_cpsat(seed: int, cost: str) -> None:
    """max_x: bisection over the exact flow check (the default on plain boards) and CP-SAT
    maximising X agree, and the payment pays that X."""
    rng = random.Random(seed)
    state = board(*(perm(f"p{i}", rng.choice(CARDS)) for i in range(rng.randint(0, 6))),
                  pool=rng.choice(["", "{G}", "{C}{U}"]))
    req = request(state, cost)
    quick = queries.max_x(req)
    exact = queries.max_x(req, backend="cpsat")
    assert quick.max_x == exact.max_x
    if quick.payment is not None:
        assert quick.payment.x == quick.max_x


def test_multi_mana_source_may_leave_mana_unspent() -> None:
    """Regression (found by hypothesis): Sol Ring's {C}{C} pays {1} and one {C} floats;
    the Snow-Covered Forest still has to be tapped for {S} (CR 107.4h)."""
    state = board(perm("s", SOL_RING), perm("f", SNOW_FOREST), life=1)
    answer = queries.pay(request(state, "{1}{S}", policy=Policy(("min_sources",))))
    assert answer.payable and answer.payment is not None
    assert answer.payment.floating == "{C}"


# -- the registry and its outcomes ------------------------------------------------------------

def test_registry_names_every_backend_and_its_default_chains() -> None:
    """The documented defaults are data: can_pay flow, fastopt, then CP-SAT, pay fastopt then CP-SAT,
    max_x CP-SAT, payments the enumeration; every name in a chain is registered."""
    from manasolver.solver import backends
    assert backends.NAMES == ("flow", "fastopt", "cpsat", "csp")
    assert dict(backends.DEFAULT_CHAINS) == {"can_pay": ("flow", "fastopt", "cpsat"), "pay": ("fastopt", "cpsat"),
                                             "max_x": ("cpsat",), "payments": ("csp",)}
    assert set(backends.DESCRIPTIONS) == set(backends.NAMES)
    for name in ("flow", "fastopt", "cpsat"):
        assert backends.backend(name).name == name
    assert backends.enumerator("csp").payments(request(board(perm("f", FOREST)), "{G}"))[1]


def test_registry_refuses_unknown_names_and_missing_powers() -> None:
    """An unknown name is a bad query; a backend asked for a power it lacks says so."""
    from manasolver.models.errors import BadQuery, Unsupported
    from manasolver.solver import backends
    with pytest.raises(BadQuery, match="known: flow, fastopt, cpsat, csp"):
        backends.backend("simplex")
    with pytest.raises(Unsupported, match="the csp backend does not answer this query"):
        backends.backend("csp")
    with pytest.raises(Unsupported):
        backends.enumerator("flow")
    with pytest.raises(Unsupported):
        backends.explainer("fastopt")


def test_outcomes_payable_infeasible_declined() -> None:
    """solve/decide answer a Solution or PAYABLE, Infeasible with what was proved, or Declined
    with why; a chain moves past a decline to the next backend."""
    from manasolver.solver import backends
    state = board(perm("f", FOREST), perm("i", ISLAND))
    yes = queries.prepare(request(state, "{G}{U}"), "feasible", 0)
    no = queries.prepare(request(state, "{G}{G}"), "feasible", 0)
    assert isinstance(backends.solve(yes, ("flow",)), Solution)
    assert backends.decide(yes, ("flow",)) is backends.PAYABLE
    proved = backends.decide(no, ("flow",))
    assert isinstance(proved, backends.Infeasible) and proved.proof
    signets = queries.prepare(request(board(perm("s1", SIGNET_WU), perm("s2", SIGNET_WU)), "{U}"),
                              "feasible", 0)
    declined = backends.solve(signets, ("flow",))
    assert isinstance(declined, backends.Declined) and "flow" in declined.why
    assert isinstance(backends.solve(signets, ("flow", "cpsat")), backends.Infeasible)
    assert not backends.payable(signets, backends.DEFAULT_CHAINS["can_pay"])
    short = backends.explainer("flow").shortfall(no)
    assert isinstance(short, backends.Shortfall) and dict(short.missing) == {("spell", 16): 1}


def test_a_reason_reuses_the_query_problem(monkeypatch: pytest.MonkeyPatch) -> None:
    """A Problem is built once per request, mode and X: the REASON of an unpayable can_pay and
    max_x's bisection and fallback reuse it instead of preparing again."""
    calls: list[tuple[str, object]] = []
    original = queries.prepare

    def counting(req: PaymentRequest, mode: Mode, x: int | None = 0,
                 ignore_restrictions: bool = False) -> Problem:
        calls.append((mode, x))
        return original(req, mode, x, ignore_restrictions)

    monkeypatch.setattr(queries, "prepare", counting)
    state = board(perm("f", FOREST), perm("i", ISLAND))
    answer = queries.can_pay(request(state, "{W}{W}"))
    assert not answer.payable and answer.reason is not None and answer.reason.missing == "{W}{W}"
    assert calls == [("feasible", 0)]
    calls.clear()
    none = queries.max_x(request(state, "{X}{W}"), backend="cpsat")
    assert none.max_x is None and none.reason is not None and none.reason.code == "no_legal_x"
    assert calls == [("feasible", 0)]
    calls.clear()
    assert queries.max_x(request(state, "{X}{G}")).max_x == 1
    assert calls == [("feasible", 0), ("optimal", 1)]  # bisection on one problem, then pay at X=1


def test_max_x_with_three_signets_and_a_reduction_is_zero_not_unpayable() -> None:
    """{X}{W} reduced by {W} (CR 601.2f, 118.7c) beside three Azorius Signets and nothing to pay
    their {1}: X=0 costs nothing, so the largest X is 0.  CP-SAT's cycle-cut relaxation lets the
    Signets pay one another and reaches a large X; its later stages' optima are bounds only while
    the earlier stages match, so the exact model must not inherit them (found by hypothesis)."""
    from manasolver.solver.service.protocol import answer

    board = {"players": [{"name": "you", "life": 1}, {"name": "opponent"}],
             "battlefield": [{"id": f"s{i}", "card": "Azorius Signet"} for i in range(3)]}
    got = answer({"query": "max_x", "state": board, "cost": "{X}{W}", "modifiers": [{"reduce": "{W}"}]})
    assert got["max_x"] == 0, got
    assert got["payment"]["activations"] == []
