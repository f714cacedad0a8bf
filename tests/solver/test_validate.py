"""The independent checker: legal and illegal payments of every kind.

Each test names the rule it pins.  Payments are written by hand, as a player
clicking lands would propose them.
"""

from __future__ import annotations

import itertools
import random
from typing import Any

import pytest
from cards import (
    AETHER_HUB,
    ANCIENT_ZIGGURAT,
    ASHNODS_ALTAR,
    BIRDS,
    CRADLE,
    ELVES,
    FOREST,
    ISLAND,
    LIFE_LAND,
    LLANOWAR_WASTES,
    MIND_STONE,
    MYSTIC_GATE,
    PLAINS,
    REFLECTING_POOL,
    SNOW_FOREST,
    SOL_RING,
    SWAMP,
    TREASURE,
    UNTAPPER,
    VIVID_CRAG,
    WASTES,
    board,
    card,
    perm,
)
from cards import ab as mk_ab
from manasolver.models.cost import ManaCost
from manasolver.models.state import GameState
from manasolver.solver.payment import Activation, Choice, Payment
from manasolver.solver.request import Modifier, PaymentRequest, SpellInfo
from manasolver.solver.validate import validate
from manasolver.solver.validate.matching import unplaced

CREATURE = SpellInfo(types=frozenset({"creature"}), colors=16)
INSTANT = SpellInfo(types=frozenset({"instant"}), colors=8)


def req(state: GameState, cost: str, **kw: Any) -> PaymentRequest:
    return PaymentRequest(state, ManaCost.parse(cost), "you", **kw)


def act(pid: str, mana: str, ability: int = 0, costs: tuple[str, ...] = ("{T}",), times: int = 1) -> Activation:
    return Activation(pid, ability, costs, mana, times)


def pay(total: str, *acts: Activation, **kw: Any) -> Payment:
    return Payment(total=total, activations=acts, **kw)


def problems(r: PaymentRequest, p: Payment) -> list[str]:
    res = validate(r, p)
    assert res.legal == (not res.problems)
    return res.problems


def legal(r: PaymentRequest, p: Payment) -> None:
    assert problems(r, p) == []


def illegal(r: PaymentRequest, p: Payment, *fragments: str) -> None:
    got = problems(r, p)
    assert got, "expected the payment to be illegal"
    text = " | ".join(got)
    for f in fragments:
        assert f in text, f"{f!r} not in {text!r}"


# -- activations ---------------------------------------------------------------------------


def test_two_lands_pay_generic_and_color() -> None:
    state = board(perm("f1", FOREST), perm("p1", PLAINS))
    legal(req(state, "{1}{W}"), pay("{1}{W}", act("f1", "{G}"), act("p1", "{W}")))


def test_tapped_forest_cannot_pay_t() -> None:
    # T90, CR 107.5: a tapped permanent can't pay {T}.
    state = board(perm("f1", FOREST, tapped=True))
    illegal(req(state, "{G}"), pay("{G}", act("f1", "{G}")), "activations[0]: Forest f1 is tapped")


def test_tapped_twice() -> None:
    # CR 107.5: one permanent, one {T}.
    state = board(perm("f1", FOREST))
    illegal(req(state, "{G}{G}"), pay("{G}{G}", act("f1", "{G}"), act("f1", "{G}")), "tapped 2 times")


def test_summoning_sick_creature_cannot_tap_for_mana() -> None:
    # T81, CR 302.6: Llanowar Elves that entered this turn.
    state = board(perm("elf", ELVES, sick=True))
    illegal(req(state, "{G}"), pay("{G}", act("elf", "{G}")), "CR 302.6")
    # T82, CR 702.10c: with haste it can.
    legal(req(board(perm("elf", ELVES, sick=True, haste=True)), "{G}"), pay("{G}", act("elf", "{G}")))


def test_sick_noncreature_artifact_and_land_can_tap() -> None:
    # T83, T84, CR 302.6 (creatures only).
    state = board(perm("ms", MIND_STONE, sick=True), perm("f", FOREST, sick=True))
    legal(req(state, "{1}{G}"), pay("{1}{G}", act("ms", "{C}"), act("f", "{G}")))


def test_sick_land_creature_cannot_tap() -> None:
    # T85, CR 302.6: Dryad Arbor played this turn.
    arbor = card("Dryad Arbor", "Land Creature — Forest Dryad", mk_ab(((16,),), intrinsic=True))
    illegal(req(board(perm("da", arbor, sick=True)), "{G}"), pay("{G}", act("da", "{G}")), "CR 302.6")


def test_untap_ability_needs_a_tapped_permanent() -> None:
    # CR 107.6: {Q} needs the permanent tapped; T88: and not summoning sick.
    state = board(perm("u", UNTAPPER))
    illegal(req(state, "{G}"), pay("{G}", act("u", "{G}", costs=("{Q}",))), "cannot pay {Q}")
    legal(req(board(perm("u", UNTAPPER, tapped=True)), "{G}"), pay("{G}", act("u", "{G}", costs=("{Q}",))))
    illegal(req(board(perm("u", UNTAPPER, tapped=True, sick=True)), "{G}"),
            pay("{G}", act("u", "{G}", costs=("{Q}",))), "CR 302.6")


def test_unknown_permanent_opponents_permanent_and_bad_ability() -> None:
    state = board(perm("f1", FOREST), perm("of", FOREST, controller="opponent"))
    illegal(req(state, "{G}"), pay("{G}", act("zz", "{G}")), "activations[0]: there is no permanent 'zz'")
    illegal(req(state, "{G}"), pay("{G}", act("of", "{G}")), "controlled by opponent, not you")
    illegal(req(state, "{G}"), pay("{G}", act("f1", "{G}", ability=3)), "has no mana ability 3")


def test_costs_must_be_the_abilitys() -> None:
    state = board(perm("t", TREASURE))
    illegal(req(state, "{R}"), pay("{R}", act("t", "{R}")), "are not the ability's costs")
    legal(req(state, "{R}"), pay("{R}", act("t", "{R}", costs=("{T}", "sacrifice"))))


def test_claimed_mana_must_be_a_production() -> None:
    # CR 106.1, 605: a Forest adds {G}; Birds any color, never {C}; Sol Ring {C}{C}.
    state = board(perm("f", FOREST), perm("b", BIRDS), perm("s", SOL_RING))
    illegal(req(state, "{U}"), pay("{U}", act("f", "{U}")), "Forest f cannot add {U}")
    illegal(req(state, "{C}"), pay("{C}", act("b", "{C}")), "Birds of Paradise b cannot add {C}")
    illegal(req(state, "{1}"), pay("{1}", act("s", "{C}")), "Sol Ring s cannot add {C}")
    legal(req(state, "{1}"), pay("{1}", act("s", "{C}{C}"), floating="{C}"))
    legal(req(state, "{U}"), pay("{U}", act("b", "{U}")))


def test_reflecting_pool_claims_only_could_produce() -> None:
    # CR 106.7; T93: two Pools alone add nothing, and activating them is legal.
    state = board(perm("rp", REFLECTING_POOL), perm("f", FOREST))
    legal(req(state, "{G}"), pay("{G}", act("rp", "{G}")))
    illegal(req(state, "{C}"), pay("{C}", act("rp", "{C}")), "could produce only {G}")
    two = board(perm("p1", REFLECTING_POOL), perm("p2", REFLECTING_POOL))
    legal(req(two, "{0}"), pay("{0}", act("p1", "")))
    illegal(req(two, "{1}"), pay("{1}", act("p1", "{G}")), "could produce no mana")


def test_amount_from_board() -> None:
    # CR 107.1b / 106.7: "{G} for each creature you control".
    state = board(perm("cr", CRADLE), perm("e1", ELVES), perm("e2", ELVES))
    legal(req(state, "{G}{G}"), pay("{G}{G}", act("cr", "{G}{G}")))
    illegal(req(state, "{G}"), pay("{G}", act("cr", "{G}")), "cannot add {G}")


def test_counters_removed_must_be_there() -> None:
    # CR 118.3: Vivid Crag without charge counters.
    state = board(perm("vc", VIVID_CRAG))
    cost = ("{T}", "remove 1 charge counter")
    illegal(req(state, "{U}"), pay("{U}", act("vc", "{U}", ability=1, costs=cost)), "0 charge counters")
    state = board(perm("vc", VIVID_CRAG, counters=(("charge", 2),)))
    legal(req(state, "{U}"), pay("{U}", act("vc", "{U}", ability=1, costs=cost)))


def test_sacrificed_at_most_once() -> None:
    state = board(perm("t", TREASURE))
    c = ("{T}", "sacrifice")
    illegal(req(state, "{R}{R}"), pay("{R}{R}", act("t", "{R}", costs=c), act("t", "{R}", costs=c)),
            "sacrificed 2 times")


def test_sacrifice_another_permanent_needs_one() -> None:
    # CR 118.10: "Sacrifice a creature" needs a distinct creature for each payment.
    c = ("sacrifice a creature",)
    state = board(perm("al", ASHNODS_ALTAR), perm("e", ELVES))
    legal(req(state, "{2}"), pay("{2}", act("al", "{C}{C}", costs=c)))
    illegal(req(state, "{4}"), pay("{4}", act("al", "{C}{C}{C}{C}", costs=c, times=2)),
            "no (other) creature to sacrifice")
    # Tapping the Elves for mana, then sacrificing them, is legal.
    legal(req(state, "{2}{G}"), pay("{2}{G}", act("e", "{G}"), act("al", "{C}{C}", costs=c)))


# -- announcement and total --------------------------------------------------------------------


def test_choices_must_match_the_symbols() -> None:
    # CR 601.2b, 107.4e-f.
    state = board(perm("p", PLAINS), perm("i", ISLAND))
    r = req(state, "{W/U}{W/U}")
    ok = pay("{W}{U}", act("p", "{W}"), act("i", "{U}"),
             choices=(Choice("{W/U}", "{W}"), Choice("{U/W}", "{U}")))
    legal(r, ok)
    illegal(r, pay("{W}{U}", act("p", "{W}"), act("i", "{U}"), choices=(Choice("{W/U}", "{W}"),)),
            "no announced way to pay")
    illegal(r, pay("{W}{B}", act("p", "{W}"), act("i", "{U}"),
                   choices=(Choice("{W/U}", "{W}"), Choice("{W/U}", "{B}"))), "cannot be paid as '{B}'")
    illegal(r, pay("{W}{U}", act("p", "{W}"), act("i", "{U}"),
                   choices=(Choice("{W/U}", "{W}"), Choice("{W/U}", "{U}"), Choice("{G/P}", "life"))),
            "no (other) {G/P}")


def test_phyrexian_life_needs_that_much_life() -> None:
    # T32/T33, CR 119.4: {U/P} with 2 life is payable (life → 0); with 1 life it is not.
    for life, ok in ((2, True), (1, False)):
        r = req(board(life=life), "{U/P}")
        p = pay("{0}", choices=(Choice("{U/P}", "life"),), life=2)
        (legal if ok else illegal)(r, p)


def test_pain_damage_comes_before_the_phyrexian_life() -> None:
    # CR 119.4, 120.3 [derived]: a pain land's damage lands during 601.2g, before the life is paid.
    state = board(perm("lw", LLANOWAR_WASTES), life=2)
    r = req(state, "{B}{G/P}")
    p = pay("{B}", act("lw", "{B}", ability=1), choices=(Choice("{G/P}", "life"),), life=2, damage=1)
    illegal(r, p, "has 1 after the activations' costs and damage")
    r3 = req(board(perm("lw", LLANOWAR_WASTES), life=3), "{B}{G/P}")
    legal(r3, p)


def test_life_energy_damage_totals_stated() -> None:
    state = board(perm("lw", LLANOWAR_WASTES), perm("bl", LIFE_LAND))
    r = req(state, "{G}{B}{B}")
    good = pay("{G}{B}{B}", act("lw", "{G}", ability=1),
               act("bl", "{B}{B}", ability=1, costs=("{T}", "pay 1 life")), life=1, damage=1)
    legal(r, good)
    illegal(r, pay("{G}{B}{B}", act("lw", "{G}", ability=1),
                   act("bl", "{B}{B}", ability=1, costs=("{T}", "pay 1 life")), life=0, damage=0),
            "the payment says 0 life", "the payment says 0 damage")


def test_energy_cost_needs_energy() -> None:
    # CR 107.14, 118.3: Aether Hub's second ability with 0 energy.
    c = ("{T}", "{E}")
    illegal(req(board(perm("h", AETHER_HUB)), "{R}"), pay("{R}", act("h", "{R}", ability=1, costs=c), energy=1),
            "has 0 (CR 107.14)")
    legal(req(board(perm("h", AETHER_HUB), energy=1), "{R}"),
          pay("{R}", act("h", "{R}", ability=1, costs=c), energy=1))
    # T45: mana never pays {E}.
    illegal(req(board(energy=3, pool="{R}{R}{R}"), "{E}{E}{E}{E}"), pay("{0}", energy=4), "energy")


def test_total_after_modifiers() -> None:
    # T58, CR 118.7b: "{W} less" on {3}{U} gives {2}{U}.
    state = board(pool="{U}{C}{C}")
    r = req(state, "{3}{U}", modifiers=(Modifier("reduce", ManaCost.parse("{W}")),))
    legal(r, pay("{2}{U}", pool_used="{U}{C}{C}"))
    illegal(r, pay("{3}{U}", pool_used="{U}{C}{C}"), "expected {2}{U}")
    # T59, 118.7c: "{G}{G} less" on {1}{G} → {0}.
    r = req(board(), "{1}{G}", modifiers=(Modifier("reduce", ManaCost.parse("{G}{G}")),))
    legal(r, pay("{0}"))
    # T63: Electromancer then Trinisphere on Bolt → {2}{R}.
    r = req(board(pool="{R}{C}{C}"), "{R}", modifiers=(Modifier("reduce", ManaCost.parse("{1}")),
                                                        Modifier("minimum", amount=3)))
    legal(r, pay("{2}{R}", pool_used="{R}{C}{C}"))
    # T54, Reaper King ruling: {1} less applies only when {2/W} was announced as {2}.
    r = req(board(pool="{C}{U}{B}{R}{G}"), "{2/W}{2/U}{2/B}{2/R}{2/G}",
            modifiers=(Modifier("reduce", ManaCost.parse("{1}")),))
    ch = (Choice("{2/W}", "{2}"), Choice("{2/U}", "{U}"), Choice("{2/B}", "{B}"), Choice("{2/R}", "{R}"),
          Choice("{2/G}", "{G}"))
    legal(r, pay("{1}{U}{B}{R}{G}", choices=ch, pool_used="{C}{U}{B}{R}{G}"))
    # A hybrid reduction (118.7e) may take either half.
    r = req(board(pool="{U}"), "{W}{U}", modifiers=(Modifier("reduce", ManaCost.parse("{W/U}")),))
    legal(r, pay("{U}", pool_used="{U}"))


def test_x_is_fixed_by_the_request() -> None:
    state = board(pool="{G}{C}{C}")
    legal(req(state, "{X}{G}", x=2), pay("{2}{G}", x=2, pool_used="{G}{C}{C}"))
    illegal(req(state, "{X}{G}", x=1), pay("{2}{G}", x=2, pool_used="{G}{C}{C}"), "fixes X at 1")
    illegal(req(state, "{G}"), pay("{G}", x=2, pool_used="{G}"), "has no X")


# -- the matching ----------------------------------------------------------------------------


def test_colorless_symbol_needs_colorless_mana() -> None:
    # T25-T27, CR 107.4c: only colorless pays {C}.
    illegal(req(board(pool="{G}"), "{C}"), pay("{C}", pool_used="{G}"), "cannot pay")
    legal(req(board(pool="{C}{G}"), "{1}{C}"), pay("{1}{C}", pool_used="{C}{G}"))
    illegal(req(board(pool="{G}{G}"), "{1}{C}"), pay("{1}{C}", pool_used="{G}{G}"), "cannot pay")
    state = board(perm("w", WASTES), perm("f", FOREST))
    legal(req(state, "{1}{C}"), pay("{1}{C}", act("w", "{C}"), act("f", "{G}")))


def test_snow_symbol_needs_snow_source() -> None:
    # T124/T125, CR 107.4h.
    state = board(perm("sf", SNOW_FOREST), perm("f", FOREST))
    legal(req(state, "{1}{S}"), pay("{1}{S}", act("sf", "{G}"), act("f", "{G}")))
    both = board(perm("f1", FOREST), perm("f2", FOREST))
    illegal(req(both, "{S}"), pay("{S}", act("f1", "{G}")), "cannot pay")


def test_reflecting_pool_mana_is_not_snow() -> None:
    # T126, CR 106.3, 107.4h [derived]: the Pool's mana comes from the Pool.
    state = board(perm("sf", SNOW_FOREST, tapped=True), perm("rp", REFLECTING_POOL))
    illegal(req(state, "{S}"), pay("{S}", act("rp", "{G}")), "cannot pay")


def test_restricted_mana_only_for_what_it_allows() -> None:
    # T123, CR 106.6: Ancient Ziggurat mana pays a creature spell, not an instant.
    state = board(perm("z", ANCIENT_ZIGGURAT))
    legal(req(state, "{G}", spell=CREATURE), pay("{G}", act("z", "{G}")))
    illegal(req(state, "{R}", spell=INSTANT), pay("{R}", act("z", "{R}")), "restricted mana")
    # T101: the Pool's mana is not restricted even though it mirrors the Ziggurat.
    state = board(perm("z", ANCIENT_ZIGGURAT, tapped=True), perm("rp", REFLECTING_POOL))
    legal(req(state, "{R}", spell=INSTANT), pay("{R}", act("rp", "{R}")))


def test_pool_used_must_be_in_the_pool() -> None:
    illegal(req(board(pool="{G}"), "{U}"), pay("{U}", pool_used="{U}"), "pool has 0 {U}")


def test_mana_accounting_must_be_exact() -> None:
    state = board(perm("f1", FOREST), perm("f2", FOREST))
    illegal(req(state, "{G}"), pay("{G}", act("f1", "{G}"), act("f2", "{G}")), "account for")
    legal(req(state, "{G}"), pay("{G}", act("f1", "{G}"), act("f2", "{G}"), floating="{G}"))
    illegal(req(state, "{G}"), pay("{G}", act("f1", "{G}"), act("f2", "{G}"), floating="{U}"), "cannot pay")


def test_filter_land_paid_by_mana_made_before_it() -> None:
    # CR 601.2g, 605.3: Mystic Gate's {W/U} is paid by another source, never by its own output.
    gate_cost = ("{W/U}", "{T}")
    state = board(perm("p", PLAINS), perm("g", MYSTIC_GATE))
    legal(req(state, "{U}{U}"), pay("{U}{U}", act("p", "{W}"), act("g", "{U}{U}", ability=1, costs=gate_cost)))
    alone = board(perm("g", MYSTIC_GATE))
    illegal(req(alone, "{U}"), pay("{U}", act("g", "{U}{U}", ability=1, costs=gate_cost)), "cannot pay")
    # Two Gates cannot pay each other's cost: some Gate must come first.
    two = board(perm("g1", MYSTIC_GATE), perm("g2", MYSTIC_GATE))
    illegal(req(two, "{U}{U}"), pay("{U}{U}", act("g1", "{W}{W}", ability=1, costs=gate_cost),
                                    act("g2", "{U}{U}", ability=1, costs=gate_cost)), "before it")
    # But a Gate tapped for {C}... cannot pay {W/U}; a Plains then chains both.
    three = board(perm("p", PLAINS), perm("g1", MYSTIC_GATE), perm("g2", MYSTIC_GATE))
    legal(req(three, "{W}{U}{U}"), pay("{W}{U}{U}", act("p", "{W}"),
                                       act("g1", "{W}{W}", ability=1, costs=gate_cost),
                                       act("g2", "{U}{U}", ability=1, costs=gate_cost)))


def test_convoke() -> None:
    # T72, T73, T74: sick creatures may convoke; convoke can't pay {C}; tapped-for-mana can't convoke.
    state = board(perm("e", ELVES, sick=True), pool="{C}")
    legal(req(state, "{C}{G}", convoke=True), pay("{C}{G}", pool_used="{C}", convoked=("e",)))
    illegal(req(board(perm("e", ELVES)), "{C}", convoke=True), pay("{C}", convoked=("e",)), "cannot pay")
    illegal(req(board(perm("e", ELVES)), "{G}{G}", convoke=True),
            pay("{G}{G}", act("e", "{G}"), convoked=("e",)), "tapped 2 times")
    illegal(req(state, "{C}{G}"), pay("{C}{G}", pool_used="{C}", convoked=("e",)), "does not allow convoke")


def test_validate_never_raises_on_bad_text() -> None:
    state = board(perm("f", FOREST))
    res = validate(req(state, "{G}"), pay("{Q/Z}", act("f", "{G}{")))
    assert not res.legal and res.problems


@pytest.mark.parametrize("cost,acts", [("{B}{B}", ("s1", "s2")), ("{2}", ("s1", "s2"))])
def test_swamps(cost: str, acts: tuple[str, ...]) -> None:
    state = board(perm("s1", SWAMP), perm("s2", SWAMP))
    legal(req(state, cost), pay(cost, *(act(a, "{B}") for a in acts)))


def test_improvise_and_delve() -> None:
    # CR 702.126a (improvise: untapped artifacts pay generic only) and 702.66a (delve: graveyard cards).
    from dataclasses import replace as dc_replace

    state = board(perm("ms", MIND_STONE), perm("sr", SOL_RING), pool="{U}")
    legal(req(state, "{1}{U}", improvise=True), pay("{1}{U}", pool_used="{U}", improvised=("ms",)))
    illegal(req(state, "{U}", improvise=True), pay("{U}", improvised=("ms",)), "cannot pay")
    illegal(req(state, "{1}", improvise=True), pay("{1}", act("ms", "{C}"), improvised=("ms",), floating="{C}"),
            "tapped 2 times")
    from manasolver.models.card import Card

    grave = (Card("Opt"), Card("Opt"), Card("Shock"))
    st2 = board(pool="{U}")
    st2 = dc_replace(st2, players=(st2.players[0]._replace(graveyard=grave),) + st2.players[1:])
    legal(req(st2, "{2}{U}", delve=True), pay("{2}{U}", pool_used="{U}", delved=("Opt", "Shock")))
    illegal(req(st2, "{2}{U}", delve=True), pay("{2}{U}", pool_used="{U}", delved=("Shock", "Shock")),
            "no (other) card named 'Shock'")
    illegal(req(st2, "{U}{U}", delve=True), pay("{U}{U}", pool_used="{U}", delved=("Opt",)), "cannot pay")


def test_springleaf_drum_taps_a_sick_creature() -> None:
    # T89, Springleaf Drum ruling: tapping a creature as a cost ignores summoning sickness; one is needed.
    from manasolver.models.abilities import AbilityCost

    drum = card("Springleaf Drum", "Artifact", mk_ab(((31,),), cost=AbilityCost(tap=True, tap_creatures=1)),
                mana_cost="{1}")
    costs = ("{T}", "tap 1 untapped creature you control")
    legal(req(board(perm("d", drum, sick=True), perm("e", ELVES, sick=True)), "{U}"),
          pay("{U}", act("d", "{U}", costs=costs)))
    illegal(req(board(perm("d", drum)), "{U}"), pay("{U}", act("d", "{U}", costs=costs)),
            "untapped creature to tap for its cost")
    # The Elves tapped for their own mana can't also be tapped for the Drum.
    illegal(req(board(perm("d", drum), perm("e", ELVES)), "{U}{G}"),
            pay("{U}{G}", act("d", "{U}", costs=costs), act("e", "{G}")), "untapped creature to tap for its cost")


def test_validate_never_raises_on_arbitrary_payments() -> None:
    # the protocol: no input may crash the process; a payment written by a caller is input.
    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st

    texts = st.sampled_from(["", "{G}", "{G}{G}", "{C}", "{W/U}", "{2/W}", "{B/P}", "life", "{X}", "{S}",
                             "{0}", "{E}", "{T}", "{", "G", "{Q/Z}", "{1000001}", "{W}{U}{B}{R}{G}"])
    state = board(perm("f", FOREST), perm("t", TREASURE), perm("g", MYSTIC_GATE), perm("rp", REFLECTING_POOL),
                  perm("of", FOREST, controller="opponent"), pool="{G}{C}")
    acts = st.builds(Activation, st.sampled_from(["f", "t", "g", "rp", "of", "zz", ""]), st.integers(-2, 4),
                     st.lists(st.sampled_from(["{T}", "sacrifice", "{W/U}", "x"]), max_size=3).map(tuple), texts,
                     st.integers(-1, 3))
    payments = st.builds(Payment, texts, st.lists(st.builds(Choice, texts, texts), max_size=3).map(tuple),
                         st.integers(-1, 3), st.lists(acts, max_size=4).map(tuple), texts,
                         st.lists(st.sampled_from(["f", "t", "x"]), max_size=2).map(tuple),
                         st.lists(st.sampled_from(["Opt", "f"]), max_size=2).map(tuple),
                         st.lists(st.sampled_from(["t", "g"]), max_size=2).map(tuple),
                         st.integers(-3, 30), st.integers(-1, 3), st.integers(-1, 3), texts)
    costs = st.sampled_from(["{G}", "{1}{W/U}", "{X}{G}", "{2/W}{B/P}", "{S}{C}", "{E}{0}"])

    @settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(costs, payments, st.booleans())
    def run(cost: str, p: Payment, flags: bool) -> None:
        r = req(state, cost, convoke=flags, delve=flags, improvise=flags, x=None if flags else 1)
        res = validate(r, p)
        assert res.legal == (not res.problems)

    run()


# -- the checker's one matching -----------------------------------------------------------------


def _max_transport(supply: list[int], capacity: list[int], edges: list[list[int]]) -> int:
    """Max-flow min-cut on the bipartite graph, by brute force over the cuts: the least, over
    the sets S of left classes, of the supply outside S plus the capacity next to S."""
    best = sum(supply)
    for r in range(1, len(supply) + 1):
        for side in itertools.combinations(range(len(supply)), r):
            near = {j for i in side for j in edges[i]}
            best = min(best, sum(n for i, n in enumerate(supply) if i not in side)
                       + sum(capacity[j] for j in near))
    return best


def test_matching_is_a_maximum_transport_placing_classes_in_order() -> None:
    # The transport is maximum, and a class is left short exactly by what the classes before it
    # leave no room for (a greedy placement in order: which cost lacks a permanent, CR 118.10).
    rnd = random.Random(20)
    for _ in range(400):
        supply = [rnd.randint(0, 3) for _ in range(rnd.randint(0, 5))]
        capacity = [rnd.randint(0, 3) for _ in range(rnd.randint(0, 5))]
        edges = [rnd.sample(range(len(capacity)), rnd.randint(0, len(capacity))) for _ in supply]
        left = unplaced(supply, capacity, edges)
        assert sum(supply) - sum(left) == _max_transport(supply, capacity, edges)
        for i, n in enumerate(supply):
            room = (_max_transport(supply[:i + 1], capacity, edges[:i + 1])
                    - _max_transport(supply[:i], capacity, edges[:i]))
            assert n - left[i] == room


def test_matching_moves_an_earlier_unit_to_make_room() -> None:
    # Two costs, "sacrifice an artifact" (a1 or a2) then "sacrifice an artifact creature" (a1 only):
    # the first moves to a2 so that both are paid; a third cost for a1 alone is the one left short.
    assert unplaced([1, 1], [1, 1], [[0, 1], [0]]) == [0, 0]
    assert unplaced([1, 1, 1], [1, 1], [[0, 1], [0], [0]]) == [0, 0, 1]
    # Counted classes: three {G} units and two {W} units into slots {G/W} x3 and {G} x2.
    assert unplaced([3, 2], [3, 2], [[0, 1], [0]]) == [0, 0]
    assert unplaced([3, 2], [2, 2], [[0, 1], [0]]) == [0, 1]
