"""Differential tests: every backend on the same random boards.

Hypothesis draws small boards (basics, Wastes, a snow basic, duals, pain lands,
Sol Ring, Birds of Paradise, Treasures, a filter land, a Signet, Ancient
Ziggurat, Reflecting Pool; some tapped or summoning sick), floating mana, a life
total, and costs with generic, colored, ``{C}``, ``{S}``, hybrid, ``{2/W}``,
Phyrexian and X symbols, sometimes under cost modifiers.  On each:

* the brute force (tests/support/brute.py), the flow fast path (when it takes the
  problem), CP-SAT, the default ``can_pay`` and the csp enumeration agree on
  payability;
* CP-SAT's optimum equals the brute force's under the same policy, with the
  criterion values recomputed from each payment by tests/support/brute.py;
* the csp enumeration lists exactly the brute force's payments;
* the fast optimiser (fastopt), where it answers, has the brute force's optimum too;
* every payment any backend returns passes the independent ``validate``;
* ``validate`` says legal exactly when the brute force lists a (mutated) payment;
* ``max_x`` equals the largest X the brute force can pay.

Budget: about 45 s on two cores (250 + 300 + 80 examples, ``deadline=None``).

A disagreement is a bug in someone's code: the assertion message carries the
board and cost so it can be replayed.
"""

from __future__ import annotations

from typing import Any

from brute import brute, canon, value, weighted
from cards import (
    ADARKAR_WASTES,
    AETHER_HUB,
    ANCIENT_ZIGGURAT,
    AZORIUS_SIGNET,
    BAYOU,
    BIRDS,
    CRADLE,
    ELVES,
    FOREST,
    ISLAND,
    LIFE_LAND,
    LLANOWAR_WASTES,
    MOUNTAIN,
    MYSTIC_GATE,
    PLAINS,
    REFLECTING_POOL,
    SNOW_FOREST,
    SOL_RING,
    SWAMP,
    TREASURE,
    TUNDRA,
    UNTAPPER,
    VIVID_CRAG,
    WASTES,
    board,
    perm,
)
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from manasolver.models.cost import ManaCost
from manasolver.models.errors import Unsupported
from manasolver.models.state import GameState
from manasolver.solver import queries
from manasolver.solver.backends import csp
from manasolver.solver.payment import Payment
from manasolver.solver.request import (
    DEFAULT_POLICY,
    Modifier,
    PaymentRequest,
    Policy,
    SpellInfo,
)
from manasolver.solver.validate import validate

PALETTE = [FOREST, PLAINS, ISLAND, SWAMP, MOUNTAIN, WASTES, SNOW_FOREST, TUNDRA, BAYOU, ADARKAR_WASTES,
           LLANOWAR_WASTES, SOL_RING, BIRDS, TREASURE, MYSTIC_GATE, AZORIUS_SIGNET, ANCIENT_ZIGGURAT,
           REFLECTING_POOL, LIFE_LAND, VIVID_CRAG, AETHER_HUB, UNTAPPER, CRADLE, ELVES]
SYMBOLS = ["{W}", "{U}", "{B}", "{R}", "{G}", "{C}", "{S}", "{W/U}", "{B/G}", "{2/W}", "{G/P}",
           "{W/U/P}", "{1}", "{2}", "{E}", "{C/G}"]
#: Policies compared with the brute force: the default one (keep_castable has nothing to keep:
#: the hands are empty) and a few reorderings of the policy's criteria.
POLICIES = [DEFAULT_POLICY, ("min_life", "min_waste", "min_sources"), ("use_pool", "min_sources"),
            ("prefer_lands", "no_sacrifice", "min_waste"), ("keep_colors", "min_sources", "min_life")]
LIMIT = 400
VALIDATE_EACH = 60
#: A caller's own weights, summed instead of compared in order.
WEIGHTS = [(("min_sources", 3), ("min_waste", 2), ("min_life", 5)), (("use_pool", 1), ("prefer_lands", 2))]
SPELLS = [SpellInfo(types=frozenset({"creature"}), colors=16), SpellInfo(types=frozenset({"instant"}), colors=8)]


@st.composite
def requests(draw: Any, max_sources: int = 5, palette: list[Any] | None = None) -> PaymentRequest:
    n = draw(st.integers(0, max_sources))
    perms = []
    for i in range(n):
        c = draw(st.sampled_from(palette or PALETTE))
        tapped = draw(st.integers(0, 9)) == 0
        sick = c.is_type("creature") and draw(st.booleans())
        controller = "opponent" if c.is_type("land") and draw(st.integers(0, 5)) == 0 else "you"
        counters = (("charge", draw(st.integers(0, 1))),) if c is VIVID_CRAG else ()
        if c is UNTAPPER:
            tapped = draw(st.booleans())
        perms.append(perm(f"p{i}", c, controller, tapped=tapped, sick=sick, counters=counters))
    pool = "".join(draw(st.lists(st.sampled_from(["{W}", "{U}", "{G}", "{C}"]), max_size=2)))
    life = draw(st.sampled_from([1, 2, 3, 20]))
    state = board(*perms, life=life, pool=pool, energy=draw(st.sampled_from([0, 0, 1, 2])))
    syms = draw(st.lists(st.sampled_from(SYMBOLS), min_size=1, max_size=4))
    x = None
    if draw(st.integers(0, 5)) == 0:
        syms.append("{X}")
        x = draw(st.integers(0, 2))
    mods: tuple[Modifier, ...] = ()
    roll = draw(st.integers(0, 7))
    if roll == 0:
        mods = (Modifier("reduce", ManaCost.parse(draw(st.sampled_from(["{1}", "{W}", "{G}", "{W/U}"])))),)
    elif roll == 1:
        mods = (Modifier("increase", ManaCost.parse("{1}")),)
    elif roll == 2:
        mods = (Modifier("minimum", amount=3),)
    if draw(st.integers(0, 5)) == 0:
        policy = Policy(weights=draw(st.sampled_from(WEIGHTS)))
    else:
        policy = Policy(criteria=draw(st.sampled_from(POLICIES)))
    return PaymentRequest(state, ManaCost.parse("".join(syms)), "you", spell=draw(st.sampled_from(SPELLS)),
                          x=x, modifiers=mods, policy=policy)


def describe(r: PaymentRequest) -> str:
    st_: GameState = r.state
    cards = [(p.id, p.card.name, "tapped" if p.tapped else "", "sick" if p.sick else "") for p in st_.battlefield]
    me = st_.players[0]
    return (f"cost={r.cost.format()} x={r.x} mods={r.modifiers} spell={sorted(r.spell.types) if r.spell else None} "
            f"pool={me.pool.format()!r} life={me.life} policy={r.policy.weights or r.policy.criteria} "
            f"board={cards}")


def check_valid(r: PaymentRequest, p: Payment, who: str) -> None:
    res = validate(r, p)
    assert res.legal, f"{who} returned an invalid payment {p.to_json()} for {describe(r)}: {res.problems}"


@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(requests())
def test_backends_agree(r: PaymentRequest) -> None:
    criteria = r.policy.criteria
    b = brute(r, criteria, weights=r.policy.weights)
    where = describe(r)
    # Payability: default can_pay (flow, else CP-SAT), CP-SAT, flow when it takes the problem.
    assert queries.can_pay(r).payable == b.payable, f"can_pay disagrees with brute force: {where}"
    assert queries.can_pay(r, backend="cpsat").payable == b.payable, f"cpsat disagrees: {where}"
    try:
        flow = queries.can_pay(r, backend="flow").payable
    except Unsupported:
        flow = None  # the fast path declined: not plain
    assert flow in (None, b.payable), f"flow disagrees with brute force: {where}"
    # The optimum: CP-SAT's payment, valued by the brute force's criteria.
    ans = queries.pay(r, backend="cpsat")
    assert ans.payable == b.payable, f"pay disagrees: {where}"
    if ans.payable:
        check_valid(r, ans.payment, "cpsat")
        got_v = weighted(ans.payment, r, r.policy.weights) if r.policy.weights else value(ans.payment, r, criteria)
        assert got_v == b.best_value, (
            f"CP-SAT's payment {ans.payment.to_json()} has value {got_v}, the brute "
            f"force's optimum is {b.best_value} ({b.best.to_json() if b.best else None}): {where}")
    if flow:
        check_valid(r, queries.pay(r, backend="flow").payment, "flow")
    # Enumeration: the same set as the brute force, every one legal.
    got, complete = csp.payments(r, limit=LIMIT, time_limit=10.0)
    if not complete:  # the limit was reached: what it listed must still be right
        assert len(got) == LIMIT and len(b.payments) > LIMIT, f"csp stopped early: {where}"
        assert {canon(p) for p in got} <= {canon(p) for p in b.payments}, f"csp listed a wrong payment: {where}"
    else:
        assert {canon(p) for p in got} == {canon(p) for p in b.payments}, (
            f"csp and brute force list different payments: {where}\n"
            f"csp only: {[p.to_json() for p in got if canon(p) not in {canon(q) for q in b.payments}][:3]}\n"
            f"brute only: {[p.to_json() for p in b.payments if canon(p) not in {canon(q) for q in got}][:3]}")
    # Every payment validated, up to VALIDATE_EACH per backend (some boards list hundreds).
    for p in got[:VALIDATE_EACH]:
        check_valid(r, p, "csp")
    for p in sorted(b.payments, key=repr)[:VALIDATE_EACH]:
        check_valid(r, p, "brute force")


@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(requests())
def test_fastopt_agrees_with_brute_force(r: PaymentRequest) -> None:
    """The plain-Python optimiser (the default for ``pay``) on the same boards: where it
    answers rather than declining to CP-SAT, payability equals the brute force's and its
    payment is legal and has the brute force's optimal criterion values (pools, Signets,
    filter lands, pain lands, Treasures, restrictions, X, modifiers)."""
    from manasolver.solver.backends.problem import to_payment
    from manasolver.solver.backends.fastopt import FastOptBackend
    problem = queries.prepare(r, "optimal", r.x or 0)
    fast = FastOptBackend().solve(problem)
    if fast is None:
        return  # declined: CP-SAT answers (checked above)
    b = brute(r, r.policy.criteria)
    where = describe(r)
    assert (fast is not False) == b.payable, f"fastopt disagrees on payability: {where}"
    if fast is False:
        return
    payment = to_payment(problem, fast)
    check_valid(r, payment, "fastopt")
    got_v = value(payment, r, r.policy.criteria)
    assert got_v == b.best_value, (
        f"fastopt's payment {payment.to_json()} has value {got_v}, the brute force's optimum is "
        f"{b.best_value} ({b.best.to_json() if b.best else None}): {where}")


# -- the validator against the brute force: mutated payments ------------------------------------

TYPE_TEXT = ["{W}", "{U}", "{B}", "{R}", "{G}", "{C}"]


def _mutate(data: Any, r: PaymentRequest, p: Payment) -> Payment:
    """One random change to a payment: sometimes still legal, mostly not."""
    from dataclasses import replace

    from manasolver.solver.payment import Activation, Choice

    acts = list(p.activations)
    kind = data.draw(st.sampled_from(["mana", "drop", "add", "floating", "choice", "life", "pool", "total"]))
    if kind == "mana" and acts:
        k = data.draw(st.integers(0, len(acts) - 1))
        n = max(1, len(acts[k].mana) // 3)
        acts[k] = replace(acts[k], mana="".join(data.draw(st.lists(st.sampled_from(TYPE_TEXT), min_size=n,
                                                                     max_size=n))))
        return replace(p, activations=tuple(acts))
    if kind == "drop" and acts:
        k = data.draw(st.integers(0, len(acts) - 1))
        return replace(p, activations=tuple(acts[:k] + acts[k + 1:]))
    if kind == "add":
        perms = [q for q in r.state.battlefield if q.card.mana_abilities]
        if perms:
            q = data.draw(st.sampled_from(perms))
            i = data.draw(st.integers(0, len(q.card.mana_abilities) - 1))
            mana = "".join(data.draw(st.lists(st.sampled_from(TYPE_TEXT), max_size=2)))
            ab = q.card.mana_abilities[i]
            acts.append(Activation(q.id, i, tuple(ab.cost.parts()), mana))
            return replace(p, activations=tuple(acts), floating=p.floating + mana,
                           damage=p.damage + ab.damage, life=p.life + ab.cost.life)
    if kind == "floating":
        return replace(p, floating="".join(data.draw(st.lists(st.sampled_from(TYPE_TEXT), max_size=2))))
    if kind == "choice" and p.choices:
        k = data.draw(st.integers(0, len(p.choices) - 1))
        sym = ManaCost.parse(p.choices[k].symbol).symbols[0]
        way = data.draw(st.sampled_from([w.text for w in sym.ways_to_pay()] + ["{B}"]))
        ch = list(p.choices)
        ch[k] = Choice(ch[k].symbol, way)
        return replace(p, choices=tuple(ch))
    if kind == "life":
        return replace(p, life=p.life + data.draw(st.sampled_from([-2, 2])))
    if kind == "pool" and p.floating:
        return replace(p, pool_used=p.pool_used + p.floating[:3], floating=p.floating[3:])
    if kind == "total":
        return replace(p, total=data.draw(st.sampled_from(["{0}", "{1}", "{G}", "{1}{W}", p.total + "{1}"])))
    return p


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(requests(max_sources=4), st.data())
def test_validate_agrees_with_brute_force(r: PaymentRequest, data: Any) -> None:
    """validate says legal exactly when the brute force lists the payment among every legal one
    (redundant activations included): checked on the brute force's own payments and on mutations."""
    every = brute(r, ("min_sources",), irredundant=False)
    legal = {canon(p) for p in every.payments}
    base = sorted(every.payments, key=repr)
    if not base:
        return
    for _ in range(3):
        p = data.draw(st.sampled_from(base))
        m = _mutate(data, r, p)
        res = validate(r, m)
        assert res.legal == (canon(m) in legal), (
            f"validate says {'legal' if res.legal else 'illegal'} ({res.problems}) but the brute force "
            f"{'lists' if canon(m) in legal else 'does not list'} {m.to_json()}: {describe(r)}")


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(requests(max_sources=4))
def test_max_x_agrees_with_brute_force(r: PaymentRequest) -> None:
    """max_x (CP-SAT, by optimisation) equals the largest X the brute force can pay."""
    from dataclasses import replace

    cost = r.cost if r.cost.variables else r.cost + ManaCost.parse("{X}")
    r = replace(r, cost=cost, x=None)
    bound = 2 * len(r.state.battlefield) + 3
    best = None
    for x in range(bound + 1):
        if brute(replace(r, x=x), ("min_sources",), enumerate_all=False).payable:
            best = x
    ans = queries.max_x(r)
    assert ans.max_x == best, f"max_x says {ans.max_x}, the brute force {best}: {describe(r)}"
    if ans.payment is not None:
        check_valid(replace(r, x=ans.max_x), ans.payment, "max_x")


REAL_NAMES = ["Forest", "Plains", "Island", "Swamp", "Wastes", "Snow-Covered Forest", "Tundra", "Bayou",
              "Adarkar Wastes", "Talisman of Progress", "Sol Ring", "Birds of Paradise", "Llanowar Elves",
              "Treasure", "Lotus Petal", "Mystic Gate", "Graven Cairns", "Azorius Signet", "Ancient Ziggurat",
              "Reflecting Pool", "Exotic Orchard", "Fellwar Stone", "Everywhere", "Gaea's Cradle",
              # board effects the models read: replacement, type-changing, granted, board-read options
              "Mana Reflection", "Contamination", "Blood Moon", "Urborg, Tomb of Yawgmoth", "Chromatic Lantern",
              "Meteor Crater", "Powerstone"]


def _real_palette() -> list[Any]:
    from manasolver.models import carddb
    db = carddb.default_db()
    return [db.get(n) for n in REAL_NAMES]


def test_real_cards_agree() -> None:
    """The same agreement on boards of real cards read by the oracle parser (the bundled card data)."""
    palette = _real_palette()

    @settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(requests(max_sources=4, palette=palette))
    def run(r: PaymentRequest) -> None:
        test_backends_agree.hypothesis.inner_test(r)  # type: ignore[attr-defined]

    run()


def test_powerstone_mana_pays_a_signet() -> None:
    """Powerstone: "This mana can't be spent to cast nonartifact spells" — it may pay activated
    abilities, a Signet's {1} included (CR 106.6, 605.1a); so {W}{U} is payable."""
    from manasolver.models import carddb
    db = carddb.default_db()
    state = board(perm("ps", db.get("Powerstone")), perm("sg", db.get("Azorius Signet")))
    r = PaymentRequest(state, ManaCost.parse("{W}{U}"), "you", spell=SPELLS[1])
    assert brute(r).payable
    assert csp.payments(r)[0]
    assert queries.can_pay(r, backend="cpsat").payable
    assert queries.can_pay(r).payable


def test_csp_orders_powerstone_before_the_signet_it_pays_cr_106_6() -> None:
    """Mystic Gate, Azorius Signet and Powerstone for a creature's {1}{W}{U}: Powerstone's {C} can't pay
    the creature's generic mana (CR 106.6), so in every payment the csp backend lists it comes before
    the Signet whose {1} it pays (CR 605.3a), and each listed order can be carried out."""
    from manasolver.models import carddb
    db = carddb.default_db()
    state = board(perm("mg", db.get("Mystic Gate")), perm("sg", db.get("Azorius Signet")),
                  perm("ps", db.get("Powerstone")))
    r = PaymentRequest(state, ManaCost.parse("{1}{W}{U}"), "you", spell=SPELLS[0])
    got, complete = csp.payments(r)
    assert complete and got
    for p in got:
        check_valid(r, p, "csp")
        order = [a.permanent for a in p.activations]
        if "ps" in order:
            assert order.index("ps") < order.index("sg"), p.to_json()
