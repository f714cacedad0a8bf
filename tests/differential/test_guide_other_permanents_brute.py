"""``guide`` on steps whose costs take other permanents, against the brute force: Ashnod's Altar
("Sacrifice a creature: Add {C}{C}", CR 701.21a) and Springleaf Drum ("{T}, Tap an untapped
creature you control: Add one mana of any color"), beside creatures that tap for mana themselves.

For a random partial payment (each step one of the activations the brute force's moves offer on
the board then: which creature the Altar sacrifices and which the Drum taps are part of the
step), ``next`` is exactly the set of activations after which the brute force still finds a
completion, each naming what it sacrifices or taps, and the completion is legal on the original
board.  The boards after each step are made here from the rules, not by the solver's carrier.
"""

from __future__ import annotations

import dataclasses
from collections import Counter

from brute import brute
from brute_moves import Move, moves
from cards import ASHNODS_ALTAR, BIRDS, ELVES, FOREST, ISLAND, PLAINS, SOL_RING, SPRINGLEAF_DRUM, TREASURE, board, perm
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from manasolver.models.cost import ManaCost
from manasolver.models.state import GameState
from manasolver.models.symbols import TYPE_BITS
from manasolver.solver.guide import Step, guide
from manasolver.solver.payment import Payment
from manasolver.solver.request import PaymentRequest
from manasolver.solver.validate import validate

PALETTE = [FOREST, PLAINS, ISLAND, SOL_RING, BIRDS, ELVES, TREASURE, ASHNODS_ALTAR, SPRINGLEAF_DRUM]
SYMBOLS = ["{W}", "{U}", "{G}", "{C}", "{1}", "{2}", "{W/U}"]
#: Each type bit's letter.
LETTER = dict(zip(TYPE_BITS, "WUBRGC"))


@st.composite
def boards(draw: st.DrawFn) -> GameState:
    cards = draw(st.lists(st.sampled_from(PALETTE), min_size=2, max_size=5))
    if not any(c in (ASHNODS_ALTAR, SPRINGLEAF_DRUM) for c in cards):
        cards.append(draw(st.sampled_from([ASHNODS_ALTAR, SPRINGLEAF_DRUM])))
    return board(*[perm(f"p{i}", c) for i, c in enumerate(cards)])


def _text(bits: tuple[int, ...]) -> str:
    """Mana as text in WUBRGC order."""
    return "".join(f"{{{LETTER[b]}}}" for b in sorted(bits, key=TYPE_BITS.index))


def _key(m: Move) -> tuple[str, int, str, tuple[str, ...], tuple[str, ...]]:
    return (m.perm.id, m.ability.index, _text(m.mana), (m.sacrificed,) if m.sacrificed else (),
            tuple(sorted(m.tapped)))


def _after(state: GameState, m: Move) -> GameState:
    """The board after ``m`` (no move here costs mana): its permanent tapped or sacrificed, the
    permanent its cost sacrifices gone, the ones it taps tapped, its mana in the pool."""
    cost = m.ability.cost
    battlefield = []
    for p in state.battlefield:
        if p.id == m.sacrificed or (p.id == m.perm.id and cost.sacrifice_self):
            continue
        if (p.id == m.perm.id and cost.tap) or p.id in m.tapped:
            p = p._replace(tapped=True)
        battlefield.append(p)
    pool: Counter[int] = Counter()
    for s in state.player("you").pool.symbols:
        pool[next(b for b, c in LETTER.items() if c == s.text[1])] += 1
    pool.update(m.mana)
    me = state.player("you")
    text = _text(tuple(pool.elements()))
    me = me._replace(pool=ManaCost.parse(text) if text else ManaCost())
    return dataclasses.replace(state, battlefield=tuple(battlefield), players=(me, *state.players[1:]))


def _next_moves(state: GameState) -> list[Move]:
    return [m for ms in moves(state, "you") for m in ms if m.hand < 0 and m.slot == 0 and not m.costs_mana
            and ":" not in m.sacrificed]


def _req(state: GameState, cost: str) -> PaymentRequest:
    return PaymentRequest(state, ManaCost.parse(cost), "you")


@settings(max_examples=40, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(boards(), st.lists(st.sampled_from(SYMBOLS), min_size=1, max_size=4).map("".join),
       st.lists(st.integers(0, 50), max_size=2))
def test_guide_next_with_altar_and_drum_is_what_the_brute_force_completes_701_21a(
        state: GameState, cost: str, picks: list[int]) -> None:
    steps: list[Step] = []
    now = state
    for pick in picks:
        options = _next_moves(now)
        if not options:
            break
        m = options[pick % len(options)]
        steps.append(Step(m.perm.id, m.ability.index, _text(m.mana), (m.sacrificed,) if m.sacrificed else (),
                          m.tapped))
        now = _after(now, m)
    got = guide(_req(state, cost), steps)
    assert got.reason is None or got.reason["code"] != "illegal_partial", (cost, steps, got.reason)
    expected = {_key(m) for m in _next_moves(now) if brute(_req(_after(now, m), cost), enumerate_all=False).payable}
    lit = {(n["permanent"], n["ability"], n["mana"], tuple(n.get("sacrificed", ())), tuple(sorted(n.get("tapped", ()))))
           for n in got.next}
    assert lit == expected, (state, cost, steps, lit ^ expected)
    assert got.completable == brute(_req(now, cost), enumerate_all=False).payable
    if got.completion is not None:
        check = validate(_req(state, cost), Payment.from_json(got.completion))
        assert check.legal, (state, cost, steps, got.completion, check.problems)


def test_guide_step_naming_no_fodder_for_ashnods_altar_is_an_illegal_partial() -> None:
    state = board(perm("altar", ASHNODS_ALTAR), perm("elf", ELVES))
    got = guide(_req(state, "{2}"), [Step("altar", 0, "{C}{C}")])
    assert got.reason is not None and got.reason["code"] == "illegal_partial"
    assert "sacrificed" in got.reason["message"] and got.reason["where"] == "partial[0]"
    ok = guide(_req(state, "{2}"), [Step("altar", 0, "{C}{C}", sacrificed=("elf",))])
    assert ok.completable and ok.completion is not None
    assert ok.completion["activations"][0].get("sacrificed") == ["elf"]




def test_guide_simian_spirit_guide_from_the_hand_by_its_original_index_602_2a() -> None:
    """A card's ability from the hand is a step ``hand:<i>``, ``i`` its index in the hand asked
    about: after the first Simian Spirit Guide (index 1) is exiled, the second is still
    ``hand:2``, and the completion names both by those indices and validates."""
    from manasolver.solver.service.protocol import answer
    state = {"players": [{"name": "you", "hand": ["Lightning Bolt", "Simian Spirit Guide", "Simian Spirit Guide"]}],
             "battlefield": [{"id": "f", "card": "Forest"}]}
    first = answer({"query": "guide", "state": state, "cost": "{R}{R}{G}", "partial": []})
    assert {n["permanent"] for n in first["next"]} == {"f", "hand:1", "hand:2"}
    step = [{"permanent": "hand:1", "ability": 0}]
    after = answer({"query": "guide", "state": state, "cost": "{R}{R}{G}", "partial": step})
    assert {n["permanent"] for n in after["next"]} == {"f", "hand:2"}
    assert sorted(a["hand"] for a in after["completion"]["activations"] if "hand" in a) == [1, 2]
    check = answer({"query": "validate", "state": state, "cost": "{R}{R}{G}", "payment": after["completion"]})
    assert check == {"legal": True, "problems": []}
    again = answer({"query": "guide", "state": state, "cost": "{R}{R}{G}", "partial": step + step})
    assert again["reason"]["code"] == "illegal_partial" and again["reason"]["where"] == "partial[1]"
