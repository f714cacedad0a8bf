"""The converter program of ``options`` (solver/pools/converters.py) against the brute force.

CR 605.3, 601.2g: a mana ability that costs mana (a filter land's ``{U/R}``, a Signet's or an
Odyssey filter's ``{1}``) is paid from the pool as it is when it is activated, so which pools
can be had depends on the order; the program answers without trying orders (a pool is
reachable when it ends nonnegative and every type paid is reachable from the mana there at
the start).  Here it meets ``brute_options`` (tests/support/brute_options.py), which plays
every order of activations on concrete pools, on random boards of at most 6 permanents
(filter lands, Signets, Odyssey filters, basics, pain lands, converters defined by their text,
floating mana): the same maximal pools, in the answer's order, the answer complete, and the
program answering wherever the board is one it models.
"""

from __future__ import annotations

import time
from typing import Any

from brute_options import breakdown, brute_options, make_board, maximal_totals
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from manasolver.models.state import GameState
from manasolver.solver.pools.context import Search
from manasolver.solver.pools.converters import converter_pools
from manasolver.solver.pools.options import options
from manasolver.solver.supply.build import build_supply

SHADOWMOOR = ("Cascade Bluffs", "Fire-Lit Thicket", "Flooded Grove", "Graven Cairns", "Mystic Gate",
              "Rugged Prairie", "Sunken Ruins", "Twilight Mire", "Wooded Bastion", "Fetid Heath")
OTHERS = ("Darkwater Catacombs", "Azorius Signet", "Golgari Signet", "Adarkar Wastes", "Sol Ring",
          "Plains", "Island", "Swamp", "Mountain", "Forest")
#: Converters no printed card has: a {C} filter whose paid ability also makes {C}, a filter
#: whose free ability is colored, and a filter with no free ability at all.
CUSTOM: dict[str, dict[str, Any]] = {
    "Test Colorless Converter": {"name": "Test Colorless Converter", "type_line": "Land",
                                 "oracle_text": "{T}: Add {C}.\n{1}, {T}: Add {C}{C}."},
    "Test Green Filter": {"name": "Test Green Filter", "type_line": "Land",
                          "oracle_text": "{T}: Add {G}.\n{1}, {T}: Add {W}{U}."},
    "Test Blue Filter": {"name": "Test Blue Filter", "type_line": "Land",
                         "oracle_text": "{U}, {T}: Add {W}{W}."},
}


def _entry(name: str) -> dict[str, Any]:
    return dict(CUSTOM[name]) if name in CUSTOM else {"card": name}


@st.composite
def boards(draw: st.DrawFn) -> GameState:
    converters = draw(st.lists(st.sampled_from(SHADOWMOOR + tuple(CUSTOM) + OTHERS[:3]),
                               min_size=1, max_size=4))
    rest = draw(st.lists(st.sampled_from(OTHERS), min_size=0, max_size=6 - len(converters)))
    cards = draw(st.permutations(converters + rest))
    pool = draw(st.sampled_from(["", "", "{R}", "{C}", "{W}{U}", "{G}{G}"]))
    return make_board({"players": [{"name": "you", "pool": pool}, {"name": "opponent"}],
                       "battlefield": [_entry(c) for c in cards]})


def _program(state: GameState) -> list[tuple[int, ...]] | None:
    supply = build_supply(state)
    search = Search(state, supply.player, time.perf_counter() + 30, life_binding=False,
                    energy_binding=False)
    return converter_pools(search, supply)


def _models(state: GameState) -> bool:
    """The board is one the program must answer: every mana-costing ability takes one mana."""
    for p in state.battlefield:
        for ab in p.card.mana_abilities:
            if len(ab.cost.mana.symbols) > 1 or any(s.generic > 1 for s in ab.cost.mana.symbols):
                return False
    return any(ab.cost.mana for p in state.battlefield for ab in p.card.mana_abilities)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(boards())
def test_cr_605_3_converter_program_matches_brute_force(state: GameState) -> None:
    want = maximal_totals(brute_options(state))
    answer = options(state, limit=100_000, budget=30)
    assert answer.complete, breakdown(state, answer)
    got = [o.mana for o in answer.options]
    assert set(got) == want, breakdown(state, answer, ["".join(
        "{" + t + "}" for t, n in zip("WUBRGC", v) for _ in range(n)) for v in want])
    assert got == sorted(got, key=lambda v: (sum(v), v), reverse=True)
    points = _program(state)
    if _models(state):
        assert points is not None, [p.card.name for p in state.battlefield]
    if points is not None:
        assert points == got


def test_cr_605_3_filters_fed_only_through_each_other() -> None:
    """One Island feeds Sunken Ruins ({U/B}), whose {B} feeds Graven Cairns ({B/R}), whose {R}
    feeds Fire-Lit Thicket ({R/G}): the green at the end of the chain is reachable only in that
    order; Twilight Mire ({B/G}) beside them without its chain makes only {C}."""
    state = make_board({"battlefield": [_entry(c) for c in (
        "Fire-Lit Thicket", "Graven Cairns", "Sunken Ruins", "Island")]})
    got = {o.mana for o in options(state, limit=100_000).options}
    assert got == maximal_totals(brute_options(state))
    assert (0, 0, 1, 1, 2, 0) in got  # {B}{R}{G}{G}: Ruins makes {B}{B}, Cairns {R}{R}, Thicket {G}{G}
    alone = make_board({"battlefield": [_entry("Twilight Mire"), _entry("Island")]})
    assert [o.text for o in options(alone).options] == ["{U}{C}"]
