"""RULES §14 payment vectors (T25–T39, T53–T64, T81–T90, T124–T127), each on every
backend that accepts it; every payment returned is re-checked for its totals and,
when D's :mod:`manasolver.solver.validate` exists, by that independent checker."""

from __future__ import annotations

import pytest
from manasolver.models.abilities import AbilityCost, ManaAbility, Production
from manasolver.models.cost import ManaCost
from manasolver.models.errors import Unsupported
from manasolver.models.state import GameState, Player, Turn
from manasolver.solver import queries
from manasolver.solver.casting.announce import announce
from manasolver.solver.backends.problem import to_payment
from manasolver.solver.backends.cpsat import CpSatBackend
from manasolver.solver.backends.flow import FlowBackend
from manasolver.solver.request import PaymentRequest
from fixtures import (
    BIRDS,
    ELVES,
    FOREST,
    ISLAND,
    MIND_STONE,
    PLAINS,
    SNOW_FOREST,
    TAP,
    WASTES,
    ability,
    board,
    card,
    increase,
    lands,
    minimum,
    perm,
    reduce,
    request,
)

REAPER_KING = "{2/W}{2/U}{2/B}{2/R}{2/G}"


def _validate(req: PaymentRequest, payment: object) -> None:
    try:
        from manasolver.solver.validate import validate
    except ImportError:
        return
    verdict = validate(req, payment)
    legal = verdict.legal if hasattr(verdict, "legal") else verdict["legal"]
    assert legal, (verdict, payment)


def payable_everywhere(req: PaymentRequest) -> bool:
    """Payability from every backend that accepts the problem; they must agree."""
    seen: dict[str, bool] = {}
    for name, backend in (("flow", FlowBackend()), ("cpsat", CpSatBackend())):
        problem = queries.prepare(req, "feasible", req.x if req.x is not None else 0)
        result = backend.solve(problem)
        if result is None:
            continue
        seen[name] = result is not False
        if result is not False:
            payment = to_payment(problem, result)
            _validate(req, payment)
    assert "cpsat" in seen
    assert len(set(seen.values())) == 1, seen
    answer = queries.can_pay(req)
    assert answer.payable == seen["cpsat"]
    return seen["cpsat"]


def best(req: PaymentRequest) -> dict[str, object]:
    answer = queries.pay(req).to_json()
    assert answer["payable"], answer
    payment = answer["payment"]
    assert isinstance(payment, dict)
    return payment


# -- 14.2 basic payment legality ----------------------------------------------------------


def test_T25_colorless_symbol_needs_colorless_mana() -> None:
    """CR 107.4c: only colorless mana pays {C}."""
    assert not payable_everywhere(request(board(pool="{G}"), "{C}"))


def test_T26_generic_takes_any_type() -> None:
    """CR 107.4b: generic mana is paid with mana of any type."""
    assert payable_everywhere(request(board(pool="{C}{G}"), "{2}"))


@pytest.mark.parametrize(("pool", "expected"), [("{G}{G}", False), ("{C}{G}", True), ("{C}{C}", True)])
def test_T27_one_and_colorless(pool: str, expected: bool) -> None:
    """CR 107.4b–c, 202.1a: {1}{C} needs at least one colorless."""
    assert payable_everywhere(request(board(pool=pool), "{1}{C}")) is expected


def test_T28_two_hybrids_announced_differently() -> None:
    """CR 107.4e, 601.2b: {W/U}{W/U} from {W}{U}."""
    req = request(board(pool="{W}{U}"), "{W/U}{W/U}")
    assert payable_everywhere(req)
    assert sorted(c["paid_as"] for c in best(req)["choices"]) == ["{U}", "{W}"]  # type: ignore[index,union-attr]


@pytest.mark.parametrize(("pool", "expected"), [("{B}{B}", True), ("{W}", True), ("{B}", False)])
def test_T29_monocolored_hybrid(pool: str, expected: bool) -> None:
    """CR 107.4e: {2/W} is one white or any two mana."""
    assert payable_everywhere(request(board(pool=pool), "{2/W}")) is expected


def test_T30_reaper_king_from_eight_colorless_and_green() -> None:
    """Reaper King ruling: four {2} halves from eight colorless, {G} for {2/G}."""
    req = request(board(pool="{C}{C}{C}{C}{C}{C}{C}{C}{G}"), REAPER_KING)
    assert payable_everywhere(req)
    payment = best(req)
    assert payment["total"] == "{8}{G}"


def test_T31_reaper_king_four_colors_and_two() -> None:
    """Reaper King ruling: {2} for {2/G}."""
    req = request(board(pool="{W}{U}{B}{R}{C}{C}"), REAPER_KING)
    assert payable_everywhere(req)
    assert best(req)["total"] == "{2}{W}{U}{B}{R}"


def test_T32_probe_with_two_life() -> None:
    """CR 119.4, 107.4f: with exactly 2 life, 2 life may be paid (life → 0)."""
    req = request(board(life=2), "{U/P}")
    assert payable_everywhere(req)
    assert best(req)["life"] == 2


def test_T33_probe_with_one_life() -> None:
    """CR 119.4: with 1 life, 2 life can't be paid."""
    req = request(board(life=1), "{U/P}")
    assert not payable_everywhere(req)
    reason = queries.pay(req).to_json()["reason"]
    assert reason["code"] == "insufficient_life" and reason["missing"] == "{U}"


def test_T34_dismember_for_one_and_four_life() -> None:
    """CR 107.4f, 601.2b: Dismember {1}{B/P}{B/P} with {C}: {1} and 4 life."""
    req = request(board(pool="{C}"), "{1}{B/P}{B/P}")
    assert payable_everywhere(req)
    payment = best(req)
    assert payment["life"] == 4 and payment["total"] == "{1}"
    assert [c["paid_as"] for c in payment["choices"]] == ["life", "life"]  # type: ignore[union-attr,index]


def test_T35_hybrid_phyrexian_black_mana_cannot_pay() -> None:
    """CR 107.4f: {W/U/P} with {B} floating: only 2 life pays it."""
    req = request(board(pool="{B}"), "{W/U/P}")
    assert payable_everywhere(req)
    payment = best(req)
    assert payment["life"] == 2 and payment["pool_used"] == ""


def test_T36_hybrid_phyrexian_with_blue() -> None:
    """CR 107.4f: {W/U/P} with {U}: the default policy (min_life) pays {U}."""
    req = request(board(pool="{U}"), "{W/U/P}")
    payment = best(req)
    assert payment["life"] == 0 and payment["choices"] == [{"symbol": "{W/U/P}", "paid_as": "{U}"}]


def test_T37_colorless_hybrid() -> None:
    """CR 107.4e [derived]: {C/W} is paid by its {C} half."""
    req = request(board(pool="{C}"), "{C/W}")
    assert payable_everywhere(req)
    assert best(req)["choices"] == [{"symbol": "{C/W}", "paid_as": "{C}"}]


def test_T38_zero_cost() -> None:
    """CR 118.5: {0} is paid by acknowledging it."""
    req = request(board(), "{0}")
    assert payable_everywhere(req)
    assert best(req)["total"] == "{0}"


def test_T39_no_mana_cost_is_unpayable() -> None:
    """CR 118.6, 202.1b: a card with no mana cost can't be cast by paying it (protocol)."""
    from manasolver.solver import protocol
    out = protocol.answer({"query": "can_pay", "state": {"players": [{"name": "you"}],
                                                          "battlefield": []},
                           "spell": {"card": "Ancestral Vision"}})
    assert "error" in out or out.get("payable") is False


# -- 14.4 increases and reductions (totals) ---------------------------------------------


def totals(cost: str, *mods: object, x: int = 0) -> set[str]:
    ann = announce(ManaCost.parse(cost), x, tuple(mods))  # type: ignore[arg-type]
    return {f.total_text(x) for f in ann.forms}


def total_for(cost: str, choice: tuple[str, ...], *mods: object) -> set[str]:
    """Totals of the forms whose choices are announced as ``choice`` (``mana``/``generic``)."""
    ann = announce(ManaCost.parse(cost), 0, tuple(mods))  # type: ignore[arg-type]
    return {f.total_text(0) for f in ann.forms if tuple(c.kind for c in f.choices) == choice}


def test_T53_reaper_king_all_colored_not_reduced() -> None:
    """CR 118.7a; Reaper King ruling: no generic part, so {1} less does nothing."""
    assert total_for(REAPER_KING, ("mana",) * 5, reduce("{1}")) == {"{W}{U}{B}{R}{G}"}


def test_T54_reaper_king_one_generic_half_reduced() -> None:
    """CR 118.7a; Reaper King ruling: {2/W} as {2} → {1}{U}{B}{R}{G}."""
    assert total_for(REAPER_KING, ("generic",) + ("mana",) * 4, reduce("{1}")) == {"{1}{U}{B}{R}{G}"}


def test_T55_reaper_king_heartless_summoning() -> None:
    """CR 118.7a: two {2} halves minus {2} → {2}{B}{R}{G}."""
    assert total_for(REAPER_KING, ("generic", "generic", "mana", "mana", "mana"),
                     reduce("{2}")) == {"{2}{B}{R}{G}"}


def test_T55_announcement_is_chosen_inside_the_optimisation() -> None:
    """Reaper King ruling: with no white source, announcing {2/W} as {2} and reducing it
    by {2} is the only way; a greedy colored announcement would fail."""
    swamp = card("Swamp", "Basic Land — Swamp", ability("B"))
    mountain = card("Mountain", "Basic Land — Mountain", ability("R"))
    state = board(perm("u", ISLAND), perm("b", swamp), perm("r", mountain), perm("g", FOREST))
    req = request(state, REAPER_KING, mods=(reduce("{2}"),))
    assert payable_everywhere(req)
    assert best(req)["total"] == "{U}{B}{R}{G}"
    assert not payable_everywhere(request(state, REAPER_KING))


def test_T56_kozilek_under_ugin() -> None:
    """CR 118.7a: {8}{C}{C} minus {2} → {6}{C}{C}."""
    assert totals("{8}{C}{C}", reduce("{2}")) == {"{6}{C}{C}"}


def test_T57_colorless_symbols_not_reduced_by_generic() -> None:
    """CR 118.7a: {C}{C} minus {2} stays {C}{C}."""
    assert totals("{C}{C}", reduce("{2}")) == {"{C}{C}"}


def test_T58_colored_reduction_falls_to_generic() -> None:
    """CR 118.7b–c: {3}{U} minus {W} → {2}{U}."""
    assert totals("{3}{U}", reduce("{W}")) == {"{2}{U}"}


def test_T59_colored_reduction_excess() -> None:
    """CR 118.7c: {1}{G} minus {G}{G} → {0}."""
    assert totals("{1}{G}", reduce("{G}{G}")) == {"{0}"}


def test_T60_thalia_and_electromancer() -> None:
    """CR 601.2f: increases first, then reductions: {R} + {1} − {1} → {R}."""
    assert totals("{R}", increase("{1}"), reduce("{1}")) == {"{R}"}


def test_T61_electromancer_alone() -> None:
    """CR 118.7a: no generic part to reduce: {R}."""
    assert totals("{R}", reduce("{1}")) == {"{R}"}


def test_T62_two_reductions_floor_at_zero() -> None:
    """CR 601.2f: {1}{U} minus {1} twice → {U}."""
    assert totals("{1}{U}", reduce("{1}"), reduce("{1}")) == {"{U}"}


def test_T63_trinisphere_after_reductions() -> None:
    """Trinisphere ruling: minimum applied last, as generic: {R} → {2}{R}."""
    assert totals("{R}", reduce("{1}"), minimum(3)) == {"{2}{R}"}


def test_T63_trinisphere_is_paid() -> None:
    """Trinisphere ruling: the raised total must be paid in full."""
    assert not payable_everywhere(request(lands("RR"), "{R}", mods=(reduce("{1}"), minimum(3))))
    assert payable_everywhere(request(lands("RRR"), "{R}", mods=(reduce("{1}"), minimum(3))))


def test_T64_altars_reap_locked_total() -> None:
    """CR 601.2f/h example: {1}{B} minus {1} → {B}, locked before the sacrifice."""
    assert totals("{1}{B}", reduce("{1}")) == {"{B}"}


def test_hybrid_reduction_reduces_the_half_chosen() -> None:
    """CR 118.7e: a {W/U} reduction on {1}{U}: the solver may pick {U}."""
    assert "{1}" in totals("{1}{U}", reduce("{W/U}"))
    assert payable_everywhere(request(lands("G"), "{1}{U}", mods=(reduce("{W/U}"),)))


# -- 14.6 tap, untap and summoning sickness ---------------------------------------------


def test_T81_summoning_sick_elves() -> None:
    """CR 302.6, 602.5a: a creature's {T} ability needs continuous control since turn start."""
    assert not payable_everywhere(request(board(perm("e", ELVES, sick=True)), "{G}"))


def test_T82_hasty_elves() -> None:
    """CR 702.10c: haste lifts the restriction."""
    assert payable_everywhere(request(board(perm("e", ELVES, sick=True, haste=True)), "{G}"))


def test_T83_new_mind_stone() -> None:
    """CR 302.6 applies to creatures only: a new Mind Stone taps for {C}."""
    assert payable_everywhere(request(board(perm("m", MIND_STONE, sick=True)), "{C}"))


def test_T84_forest_played_this_turn() -> None:
    """CR 302.6: a land that is not a creature taps the turn it arrives."""
    assert payable_everywhere(request(board(perm("f", FOREST, sick=True)), "{G}"))


def test_T85_dryad_arbor_played_this_turn() -> None:
    """CR 302.6: a land creature that arrived this turn can't tap for mana."""
    arbor = card("Dryad Arbor", "Land Creature — Forest Dryad", ability("G"))
    assert not payable_everywhere(request(board(perm("a", arbor, sick=True)), "{G}"))


def test_T86_land_animated_this_turn() -> None:
    """CR 302.6: continuous control matters, not creature-ness: a long-held animated land taps."""
    animated = card("Animated Forest", "Land Creature — Forest Elemental", ability("G"))
    assert payable_everywhere(request(board(perm("a", animated, sick=False)), "{G}"))


def test_T87_sick_until_your_next_turn() -> None:
    """CR 302.6: gained during P's turn, still sick during the opponent's turn."""
    state = board(perm("e", ELVES, sick=True))
    state = GameState(state.players, Turn("opponent"), state.battlefield)
    assert not payable_everywhere(request(state, "{G}"))


def test_T88_untap_ability_of_new_creature() -> None:
    """CR 107.6, 302.6: a {Q} ability of a creature that entered this turn can't be used;
    a tapped, long-held one can; an untapped one can't pay {Q}."""
    q_creature = card("Untapper", "Creature — Test", ManaAbility(AbilityCost(untap=True),
                      Production(((16,),)), "{Q}: Add {G}."))
    assert not payable_everywhere(request(board(perm("q", q_creature, sick=True, tapped=True)), "{G}"))
    assert payable_everywhere(request(board(perm("q", q_creature, tapped=True)), "{G}"))
    assert not payable_everywhere(request(board(perm("q", q_creature)), "{G}"))


def test_T89_springleaf_drum_taps_a_summoning_sick_creature() -> None:
    """Springleaf Drum ruling, CR 302.6: "{T}, Tap an untapped creature you control" may
    tap a creature that entered this turn; one creature pays one cost (118.10), so an
    Elves tapped for {G} can't also be tapped for the Drum."""
    drum = card("Springleaf Drum", "Artifact", ManaAbility(
        AbilityCost(tap=True, tap_creatures=1), Production(((31,),)),
        "{T}, Tap an untapped creature you control: Add one mana of any color."), mana_cost="{1}")
    req = request(board(perm("d", drum, sick=True), perm("e", ELVES, sick=True)), "{W}")
    assert payable_everywhere(req)
    paid = best(req)
    assert paid["activations"][0]["costs"] == ["{T}", "tap 1 untapped creature you control"]
    both = request(board(perm("d", drum), perm("e", ELVES)), "{W}{G}")
    assert not queries.pay(both).payable
    assert queries.pay(request(board(perm("d", drum), perm("e", ELVES), perm("b", BIRDS)),
                               "{W}{G}")).payable


def test_T90_tapped_forest() -> None:
    """CR 107.5, 118.3: a tapped permanent can't pay {T}."""
    assert not payable_everywhere(request(board(perm("f", FOREST, tapped=True)), "{G}"))


# -- 14.7 snow ----------------------------------------------------------------------------


def test_T124_snow_from_snow_forest() -> None:
    """CR 107.4h: snow {G} pays {S}, the other {G} pays {1}."""
    req = request(lands("SG"), "{1}{S}")
    assert payable_everywhere(req)
    payment = best(req)
    assert {a["permanent"] for a in payment["activations"]} == {"l0", "l1"}  # type: ignore[union-attr,index]


def test_T125_no_snow_source() -> None:
    """CR 107.4h: two Forests can't pay {S}."""
    assert not payable_everywhere(request(lands("GG"), "{S}"))
    assert queries.can_pay(request(lands("GG"), "{S}")).to_json()["reason"]["missing"] == "{S}"


def test_T126_reflecting_pool_mana_is_not_snow() -> None:
    """CR 106.3, 107.4h [derived]: Reflecting Pool beside a Snow-Covered Forest makes
    {G}, but not snow mana."""
    pool_card = card("Reflecting Pool", "Land", ManaAbility(
        TAP, Production(reference="lands_you_control"),
        "{T}: Add one mana of any type that a land you control could produce."))
    state = board(perm("s", SNOW_FOREST), perm("p", pool_card))
    assert payable_everywhere(request(state, "{S}{G}"))
    assert not payable_everywhere(request(state, "{S}{S}"))


def test_wastes_and_birds_pay_colorless_and_color() -> None:
    """CR 106.1b: Birds makes colors only; the {C} comes from Wastes."""
    state = board(perm("w", WASTES), perm("b", BIRDS), perm("p", PLAINS))
    assert payable_everywhere(request(state, "{C}{G}{W}"))
    assert not payable_everywhere(request(board(perm("b", BIRDS), perm("p", PLAINS)), "{C}{W}"))


def test_unreadable_source_is_not_called_unpayable() -> None:
    """A permanent whose mana text could not be read makes an unpayable answer Unsupported."""
    vault = card("Mystery Relic", "Artifact", unsupported=("{T}: Add a mystery.",))
    with pytest.raises(Unsupported, match="Mystery Relic"):
        queries.can_pay(request(board(perm("v", vault)), "{1}"))
    # but a payable cost is still answered
    assert queries.can_pay(request(board(perm("v", vault), perm("f", FOREST)), "{1}")).payable


def test_players_are_told_apart() -> None:
    """Only the asking player's permanents pay."""
    state = GameState((Player("you"), Player("opponent")), Turn("you"),
                      (perm("f", FOREST, controller="opponent"),))
    assert not payable_everywhere(request(state, "{G}"))


PAYMENT_KEYS = {"total", "choices", "x", "activations", "pool_used", "convoked", "delved",
                "improvised", "life", "energy", "damage", "floating"}


def test_answers_have_exactly_the_protocol_shapes() -> None:
    """SPEC §5: pay, can_pay and max_x answers and PAYMENT carry exactly these fields."""
    state = board(perm("f", FOREST), perm("i", ISLAND), pool="{C}")
    paid = queries.pay(request(state, "{2}{U}{B/P}", mods=(reduce("{W/U}"),))).to_json()
    assert set(paid) == {"payable", "payment"} and set(paid["payment"]) == PAYMENT_KEYS
    act = paid["payment"]["activations"][0]
    assert set(act) == {"permanent", "ability", "costs", "mana"}
    assert queries.can_pay(request(state, "{1}")).to_json() == {"payable": True}
    no = queries.can_pay(request(state, "{W}{W}")).to_json()
    assert set(no) == {"payable", "reason"} and set(no["reason"]) == {"code", "message", "missing"}
    mx = queries.max_x(request(state, "{X}{U}")).to_json()
    assert set(mx) == {"max_x", "payment"} and mx["max_x"] == 2
    assert set(mx["payment"]) == PAYMENT_KEYS
    none = queries.max_x(request(state, "{X}{W}")).to_json()
    assert none["max_x"] is None and none["reason"]["code"] == "no_legal_x"


def test_T41_x_is_chosen_before_reductions() -> None:
    """CR 107.3b, 601.2f; Herald of Kozilek ruling: {X} with X=5 under {1} less → {4}."""
    assert totals("{X}", reduce("{1}"), x=5) == {"{4}"}
    req = request(lands("CCCC"), "{X}", x=5, mods=(reduce("{1}"),))
    assert payable_everywhere(req)
    assert best(req)["total"] == "{4}" and best(req)["x"] == 5


def test_T45_mana_never_pays_energy() -> None:
    """CR 107.14; energy rulings: {E}{E}{E}{E} with 3 energy and {R}{R}{R} floating."""
    req = request(board(energy=3, pool="{R}{R}{R}"), "{E}{E}{E}{E}")
    assert not payable_everywhere(req)
    assert queries.pay(req).to_json()["reason"]["code"] == "insufficient_energy"
    paid = best(request(board(energy=4), "{E}{E}{E}{E}"))
    assert paid["energy"] == 4
