"""Filter lands (converters): keep_colors counts what a filter land can still make, and the
converter search answers the ten-filter board exactly.

Sunken Ruins ``{U/B}, {T}: Add {U}{U}, {U}{B}, or {B}{B}`` with an untapped Island can still
make blue and black, so paying ``{1}`` under ``keep_colors`` taps an Island, not the Ruins
(which would lose black) nor the Forest (green); both optimisers agree, and so does the
brute force's own count of the colors kept.
"""

from __future__ import annotations

from brute import brute
from cards import FOREST, ISLAND, board, perm
from manasolver.models.carddb import default_db
from manasolver.models.cost import ManaCost
from manasolver.solver import queries
from manasolver.solver.backends.fastopt.filters import solve_converters
from manasolver.solver.service.protocol import answer, build_request
from manasolver.solver.service.demo import example_state
from manasolver.solver.request import PaymentRequest, Policy


def _ruins_request(policy: tuple[str, ...] = ("keep_colors",)) -> PaymentRequest:
    ruins = default_db().get("Sunken Ruins")
    state = board(perm("ruins", ruins), perm("i1", ISLAND), perm("i2", ISLAND), perm("f", FOREST))
    return PaymentRequest(state, ManaCost.parse("{1}"), "you", policy=Policy(criteria=policy))  # type: ignore[arg-type]


def _tapped(ans: queries.PayAnswer) -> list[str]:
    assert ans.payable and ans.payment is not None
    return [a.permanent for a in ans.payment.activations]


def test_keep_colors_sunken_ruins_filter() -> None:
    r = _ruins_request()
    for backend in ("fastopt", "cpsat"):
        assert _tapped(queries.pay(r, backend=backend)) == ["i1"], backend
    b = brute(r, ("keep_colors",))
    assert b.best is not None and [a.permanent for a in b.best.activations] == ["i1"]
    assert b.best_value == (0,)


def test_keep_colors_sunken_ruins_one_island() -> None:
    """With one Island, tapping it loses blue and black (the Forest's {G} pays no {U/B}); the
    Ruins or the Forest lose one color each, and the board's first permanent wins the tie."""
    ruins = default_db().get("Sunken Ruins")
    state = board(perm("ruins", ruins), perm("i1", ISLAND), perm("f", FOREST))
    r = PaymentRequest(state, ManaCost.parse("{1}"), "you", policy=Policy(criteria=("keep_colors", "min_sources")))  # type: ignore[arg-type]
    for backend in ("fastopt", "cpsat"):
        assert _tapped(queries.pay(r, backend=backend)) == ["ruins"], backend
    assert brute(r, ("keep_colors", "min_sources")).best_value == (1, 1)


FILTER_COSTS = ["{W}", "{U}{U}", "{B}{B}{B}", "{W}{U}", "{U}{B}{R}", "{W/U}{B/R}", "{2/W}{2/U}",
                "{R/G}{R/G}{G/W}", "{C}{C}{C}", "{1}", "{5}"]


def test_filter_board_answered_by_the_converter_search() -> None:
    """The ten-filter example board: the converter search answers (no decline, no time bound)
    and every payment is legal."""
    state = example_state("filters")
    for cost in FILTER_COSTS:
        q = {"query": "pay", "state": state, "cost": cost}
        req = queries.prepare(build_request(q), "optimal", 0)
        assert solve_converters(req, req.policy.criteria) is not None, cost
        ans = answer(q)
        assert ans.get("payable") is True and not ans.get("time_bound"), (cost, ans)
        checked = answer({"query": "validate", "state": state, "cost": cost, "payment": ans["payment"]})
        assert checked["legal"], (cost, checked)


def test_nine_white_through_four_white_filters_is_unpayable_exactly() -> None:
    ans = answer({"query": "pay", "state": example_state("filters"), "cost": "{W}" * 9})
    assert ans.get("payable") is False and not ans.get("time_bound"), ans


def test_spec_8_filter_board_options_exact_complete() -> None:
    """The filter benchmark: ``options`` on the ten-filter board (``example:filters``: ten different
    Shadowmoor/Eventide filter lands, an Island and a Mountain) is exact and complete, never at
    its time bound.  Every land adds one mana net (a filter's {C}, or two mana for one: CR
    605.3), so every pool has 12 mana and all are maximal; 5,914 of them, the count a plain
    search over every activation order on concrete pools also finds (3.4 s; not run here),
    and the answer's order starts with the most white: eight, two from each of the four
    filters that can make white (Mystic Gate, Rugged Prairie, Wooded Bastion, Fetid Heath)."""
    out = answer({"query": "options", "state": example_state("filters"), "limit": 100_000})
    assert out["complete"] is True and not out.get("bounded")
    pools = out["options"]
    assert len(pools) == 5914 == len(set(pools))
    assert {p.count("{") for p in pools} == {12}
    assert max(p.count("{W}") for p in pools) == 8 == pools[0].count("{W}")
