"""The converter search (fastopt/filters.py) against the brute force on random small filter
boards: 2-3 filter lands, 2-4 basics (at most 6 permanents: the brute force tries every
activation of every permanent), random costs, the default criteria the brute force
computes (keep_castable left out: no hand).  Where the search answers it has the brute
force's payability and optimum, and its payment passes validate; CP-SAT's optimum matches too.
"""

from __future__ import annotations

from brute import brute, value
from cards import FOREST, ISLAND, MOUNTAIN, PLAINS, SWAMP, board, perm
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from manasolver.models.carddb import default_db
from manasolver.models.cost import ManaCost
from manasolver.solver import queries
from manasolver.solver.backends.fastopt.filters import solve_converters
from manasolver.solver.backends.problem import to_payment
from manasolver.solver.request import PaymentRequest, Policy
from manasolver.solver.validate import validate

FILTERS = ("Cascade Bluffs", "Fire-Lit Thicket", "Flooded Grove", "Graven Cairns", "Mystic Gate",
           "Rugged Prairie", "Sunken Ruins", "Twilight Mire", "Wooded Bastion", "Fetid Heath")
BASICS = (PLAINS, ISLAND, SWAMP, MOUNTAIN, FOREST)
SYMBOLS = ("{W}", "{U}", "{B}", "{R}", "{G}", "{C}", "{1}", "{2}", "{W/U}", "{B/R}", "{G/W}", "{2/U}")
CRITERIA = ("no_sacrifice", "min_life", "keep_colors", "min_waste", "prefer_lands", "min_sources")


@st.composite
def requests(draw: st.DrawFn) -> PaymentRequest:
    db = default_db()
    names = draw(st.lists(st.sampled_from(FILTERS), min_size=2, max_size=3))
    basics = draw(st.lists(st.sampled_from(BASICS), min_size=2, max_size=6 - len(names)))
    perms = [perm(f"f{i}", db.get(n)) for i, n in enumerate(names)]
    perms += [perm(f"b{i}", c) for i, c in enumerate(basics)]
    perms = draw(st.permutations(perms))
    cost = "".join(draw(st.lists(st.sampled_from(SYMBOLS), min_size=1, max_size=5)))
    return PaymentRequest(board(*perms), ManaCost.parse(cost), "you", policy=Policy(criteria=CRITERIA))  # type: ignore[arg-type]


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(requests())
def test_converter_search_agrees_with_brute_force(r: PaymentRequest) -> None:
    problem = queries.prepare(r, "optimal", 0)
    found = solve_converters(problem, CRITERIA)
    b = brute(r, CRITERIA)
    where = f"cost={r.cost.format()} board={[(p.id, p.card.name) for p in r.state.battlefield]}"
    if found is None:
        return  # declined (node budget): the general search and CP-SAT answer
    assert (found is not False) == b.payable, f"payability differs: {where}"
    if found is False:
        return
    payment = to_payment(problem, found)
    checked = validate(r, payment)
    assert checked.legal, f"illegal payment {payment.to_json()}: {checked.problems}: {where}"
    assert value(payment, r, CRITERIA) == b.best_value, (
        f"converter search {payment.to_json()} has {value(payment, r, CRITERIA)}, brute force "
        f"{b.best_value} ({b.best.to_json() if b.best else None}): {where}")
    cp = queries.pay(r, backend="cpsat")
    if cp.payable and cp.payment is not None and not cp.time_bound:
        assert value(cp.payment, r, CRITERIA) == b.best_value, f"CP-SAT differs: {where}"
