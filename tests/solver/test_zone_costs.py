"""Mana abilities whose costs spend cards of the hand or graveyard, tokens, a blue creature, the
source itself, or the whole hand; and those whose resource the board does not hold.

Rules: a cost is paid in full or not at all (CR 118.3); "Discard a card" takes any card of the
hand (701.9a) and "Exile a card from your hand/graveyard" any card of that zone, each card once;
the card being cast is on the stack from 601.2a on, so no cost can discard it; mana abilities are
activated in 601.2g in any order (605.3a), so a card exiled by Simian Spirit Guide for its own mana
can't also be discarded; a sacrificed token is gone (701.21a); "Tap an untapped blue creature you
control" is not {T}, so summoning sickness does not matter (302.6) and Grand Architect may tap
itself; "Activate only as an instant" (602.5d) means Lion's Eye Diamond can't be activated while
a spell is being cast, so its mana is made first, and discarding the hand then discards a card to
be cast from it.  Every payment passes the independent checker (``validate``); on small random
boards CP-SAT's optimum and the csp enumeration agree with the brute force of
tests/support/brute.py (whose moves give each card of the hand and graveyard a fodder slot).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest
from brute import MAX_SOURCES, brute, canon, moves
from backends import assert_agrees_with_brute
from cards import ELVES, FOREST, SWAMP, TREASURE, board, card, json_board, perm
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from manasolver.models.card import Card
from manasolver.models.carddb import default_db
from manasolver.models.cost import ManaCost
from manasolver.models.state import GameState
from manasolver.solver import answer
from manasolver.solver.request import DEFAULT_POLICY, PaymentRequest, Policy, SpellInfo
from manasolver.solver.supply.build import build_supply
from manasolver.solver.validate import validate


def state(*cards: str | dict[str, Any], hand: list[Any] | None = None,
          graveyard: list[Any] | None = None) -> dict[str, Any]:
    """A JSON board with the player's hand and graveyard."""
    out = json_board(*cards)
    if hand is not None:
        out["players"][0]["hand"] = hand
    if graveyard is not None:
        out["players"][0]["graveyard"] = graveyard
    return out


def pay(st_: dict[str, Any], cost: str, **kw: Any) -> dict[str, Any]:
    """The ``pay`` answer; a payment it gives must pass ``validate``."""
    ans = answer({"query": "pay", "state": st_, "cost": cost, **kw})
    if ans.get("payable"):
        check = answer({"query": "validate", "state": st_, "cost": cost, "payment": ans["payment"], **kw})
        assert check == {"legal": True, "problems": []}, (ans, check)
    return ans


def spent(ans: dict[str, Any]) -> list[str]:
    """What the payment's costs discarded, exiled or sacrificed, in order."""
    return [s for a in ans["payment"]["activations"] for s in a.get("sacrificed", [])]


def check(st_: dict[str, Any], cost: str, payment: dict[str, Any], **kw: Any) -> dict[str, Any]:
    return answer({"query": "validate", "state": st_, "cost": cost, "payment": payment, **kw})


# -- cards of the hand (CR 701.9a, 118.3, 601.2a) -------------------------------------------------


def test_cr_701_9a_skirge_familiar_discards_one_card_for_each_black() -> None:
    """Skirge Familiar: "Discard a card: Add {B}."  Two cards in hand pay {B}{B} (each named by
    its place in the hand); a third {B} needs a third card (118.3)."""
    board_ = state("Skirge Familiar", "Forest", hand=["Island", "Swamp"])
    ans = pay(board_, "{B}{B}{G}")
    assert ans["payable"] and sorted(spent(ans)) == ["hand:0", "hand:1"]
    assert [a["costs"] for a in ans["payment"]["activations"] if a["permanent"] == "p0"] == [["discard a card"]] * 2
    assert not pay(board_, "{B}{B}{B}{G}")["payable"]
    assert not pay(state("Skirge Familiar", hand=[]), "{B}")["payable"]


def test_cr_601_2a_the_card_being_cast_is_not_discarded() -> None:
    """Casting Duress from a hand of Duress alone: Skirge Familiar has nothing to discard (Duress
    is on the stack); with an Island beside it, the Island is discarded."""
    duress = {"spell": {"card": "Duress"}}
    assert not pay(state("Skirge Familiar", hand=["Duress"]), "{B}", **duress)["payable"]
    ans = pay(state("Skirge Familiar", hand=["Duress", "Island"]), "{B}", **duress)
    assert spent(ans) == ["hand:1"]
    wrong = dict(ans["payment"], activations=[dict(ans["payment"]["activations"][0], sacrificed=["hand:0"])])
    verdict = check(state("Skirge Familiar", hand=["Duress", "Island"]), "{B}", wrong, **duress)
    assert not verdict["legal"] and "card being cast" in verdict["problems"][0]


def test_cadaverous_bloom_exiles_a_card_from_the_hand_for_bb_or_gg() -> None:
    """Cadaverous Bloom: "Exile a card from your hand: Add {B}{B} or {G}{G}."  One card gives one
    activation (either pair), two cards two."""
    one = state("Cadaverous Bloom", hand=["Island"])
    assert pay(one, "{G}{G}")["payable"] and pay(one, "{B}{B}")["payable"]
    assert not pay(one, "{B}{B}{G}{G}")["payable"]
    ans = pay(state("Cadaverous Bloom", hand=["Island", "Plains"]), "{B}{B}{G}{G}")
    assert sorted(spent(ans)) == ["hand:0", "hand:1"]
    assert {a["mana"] for a in ans["payment"]["activations"]} == {"{B}{B}", "{G}{G}"}


def test_cr_118_3_a_spirit_guide_is_exiled_for_mana_or_discarded_not_both() -> None:
    """Simian Spirit Guide is exiled from the hand for {R}, or discarded to Skirge Familiar for
    {B}: one card, one cost.  {R}{B} needs a second card."""
    one = state("Skirge Familiar", hand=["Simian Spirit Guide"])
    assert pay(one, "{R}")["payable"] and pay(one, "{B}")["payable"]
    assert not pay(one, "{R}{B}")["payable"]
    ans = pay(state("Skirge Familiar", hand=["Simian Spirit Guide", "Island"]), "{R}{B}")
    assert spent(ans) == ["hand:1"]
    assert [a.get("hand") for a in ans["payment"]["activations"]] == [None, 0]
    both = {"total": "{R}{B}", "choices": [], "x": 0, "activations": [
        {"permanent": "p0", "ability": 0, "costs": ["discard a card"], "mana": "{B}", "sacrificed": ["hand:0"]},
        {"hand": 0, "card": "Simian Spirit Guide", "ability": 0, "costs": ["exile this card from your hand"],
         "mana": "{R}"}], "pool_used": "", "convoked": [], "delved": [], "improvised": [], "life": 0,
        "energy": 0, "damage": 0, "floating": ""}
    verdict = check(one, "{R}{B}", both)
    assert not verdict["legal"] and "more than once" in " ".join(verdict["problems"])


def test_bog_witch_pays_b_taps_and_discards_for_bbb() -> None:
    """Bog Witch: "{B}, {T}, Discard a card: Add {B}{B}{B}."  A Swamp's {B} feeds it; without a
    card in hand, or summoning sick ({T}, 302.6), it makes nothing."""
    ans = pay(state("Bog Witch", "Swamp", hand=["Island"]), "{B}{B}{B}")
    acts = ans["payment"]["activations"]
    assert ans["payable"] and spent(ans) == ["hand:0"]
    assert [a["costs"] for a in acts if a["permanent"] == "p0"] == [["{B}", "{T}", "discard a card"]]
    assert not pay(state("Bog Witch", "Swamp", hand=[]), "{B}{B}")["payable"]
    assert not pay(state({"card": "Bog Witch", "sick": True}, "Swamp", hand=["Island"]), "{B}{B}")["payable"]


def test_overeager_apprentice_discards_and_sacrifices_itself() -> None:
    """Overeager Apprentice: "Discard a card, Sacrifice ~: Add {B}{B}{B}."  Once (it is gone,
    701.21a), and only with a card to discard."""
    ans = pay(state("Overeager Apprentice", hand=["Island", "Island"]), "{B}{B}{B}")
    assert spent(ans) == ["hand:0"] and ans["payment"]["activations"][0]["costs"] == ["discard a card",
                                                                                        "sacrifice ~"]
    assert not pay(state("Overeager Apprentice", hand=["Island", "Island"]), "{B}{B}{B}{B}")["payable"]
    assert not pay(state("Overeager Apprentice", hand=[]), "{B}")["payable"]


# -- cards of the graveyard, shared with delve (702.66a) ------------------------------------------

#: A card given by its characteristics: the graveyard cost alone, without Titans' Nest's
#: spending restriction.
GRAVE_BATTERY = {"name": "Grave Battery", "type_line": "Artifact",
                 "oracle_text": "Exile a card from your graveyard: Add {C}."}


def test_exile_a_card_from_the_graveyard_once_per_card() -> None:
    """Each activation exiles a different card of the graveyard: three cards, three {C}."""
    board_ = state(GRAVE_BATTERY, "Forest", graveyard=["Island", "Swamp", "Island"])
    ans = pay(board_, "{3}{G}")
    assert sorted(spent(ans)) == ["graveyard:0", "graveyard:1", "graveyard:2"]
    assert not pay(board_, "{4}{G}")["payable"]


def test_cr_702_66a_delve_and_a_graveyard_cost_share_the_cards() -> None:
    """Delve and "Exile a card from your graveyard" take cards of one graveyard: three cards pay
    {C} (exiled for mana) and {2} (delved), never {C}{3}."""
    board_ = state(GRAVE_BATTERY, "Forest", graveyard=["Island", "Swamp", "Mountain"])
    kw = {"spell": {"types": ["Sorcery"]}, "delve": True}
    ans = pay(board_, "{C}{2}{G}", **kw)
    assert len(spent(ans)) == 1 and len(ans["payment"]["delved"]) == 2
    assert not pay(board_, "{C}{3}{G}", **kw)["payable"]
    # The same Mountain delved and exiled for mana is refused by the checker.
    p = ans["payment"]
    index = int(spent(ans)[0].split(":")[1])
    name = ["Island", "Swamp", "Mountain"][index]
    twice = dict(p, delved=[name] + [d for d in p["delved"] if d != name][:1])
    verdict = check(board_, "{C}{2}{G}", twice, **kw)
    assert not verdict["legal"] and "delved" in " ".join(verdict["problems"])


def test_titans_nest_restriction_is_not_assumed_met() -> None:
    """Titans' Nest: "Exile a card from your graveyard: Add {C}.  Spend this mana only to cast a
    spell that's one or more colors without {X} in its mana cost."  The restriction is not read:
    with no spell named its mana pays nothing (never assumed met); with a spell named, a cost
    it might pay is refused naming the clause."""
    board_ = state("Titans' Nest", "Forest", graveyard=["Island"])
    assert pay(board_, "{1}{G}")["reason"]["code"] == "restricted_mana"
    refused = pay(board_, "{1}{G}", spell={"card": "Grizzly Bears"})
    assert refused["error"]["code"] == "unsupported" and "one or more colors" in refused["error"]["message"]
    # max_x never understates X for a named spell, and the payments list is not called complete.
    most = answer({"query": "max_x", "state": board_, "cost": "{X}{G}", "spell": {"card": "Grizzly Bears"}})
    assert most["error"]["code"] == "unsupported"
    listed = answer({"query": "payments", "state": board_, "cost": "{G}", "spell": {"card": "Giant Growth"}})
    assert listed["complete"] is False and len(listed["payments"]) == 1


# -- tokens, a blue creature, itself ---------------------------------------------------------------

PRISM = {"name": "Prism", "type_line": "Artifact Creature — Prism", "oracle_text": "", "token": True}
WOOD = {"name": "Wood", "type_line": "Creature — Wall", "oracle_text": "Defender", "token": True}


def test_cr_701_21a_diamond_kaleidoscope_sacrifices_a_prism_token_each() -> None:
    """Diamond Kaleidoscope: "Sacrifice a Prism token: Add one mana of any color."  Two Prism
    tokens, two mana; a Prism that is no token can't pay."""
    board_ = state("Diamond Kaleidoscope", PRISM, PRISM)
    ans = pay(board_, "{W}{U}")
    assert sorted(spent(ans)) == ["p1", "p2"]
    assert not pay(board_, "{W}{U}{B}")["payable"]
    assert not pay(state("Diamond Kaleidoscope", dict(PRISM, token=False)), "{W}")["payable"]


def test_jungle_patrol_sacrifices_a_token_named_wood() -> None:
    """Jungle Patrol: "Sacrifice a token named Wood: Add {R}."  A Wood token pays {R}; a token
    of another name does not."""
    assert spent(pay(state("Jungle Patrol", WOOD), "{R}")) == ["p1"]
    assert not pay(state("Jungle Patrol", dict(WOOD, name="Plank")), "{R}")["payable"]


def test_cr_302_6_grand_architect_taps_a_blue_creature_for_artifact_spells() -> None:
    """Grand Architect: "Tap an untapped blue creature you control: Add {C}{C}.  Spend this mana
    only to cast artifact spells or activate abilities of artifacts."  Summoning sick, it taps
    itself (blue; no {T} in the cost) for Sol Ring; a green creature can't be tapped; the mana
    can't pay Grizzly Bears."""
    sick = state({"card": "Grand Architect", "sick": True})
    ans = pay(sick, "{1}", spell={"card": "Sol Ring"})
    assert ans["payment"]["activations"][0]["tapped"] == ["p0"]
    assert not pay(sick, "{3}", spell={"card": "Sol Ring"})["payable"]
    two = pay(state("Grand Architect", "Llanowar Elves", {"card": "Merfolk Looter", "sick": True}), "{4}",
              spell={"card": "Mind Stone"})
    assert two["payable"] and sorted(a["tapped"][0] for a in two["payment"]["activations"]) == ["p0", "p2"]
    assert not pay(state("Grand Architect", "Forest"), "{1}{G}", spell={"card": "Grizzly Bears"})["payable"]


def test_mirrored_lotus_exiles_itself_for_three_of_one_color() -> None:
    """Mirrored Lotus: "{T}, Exile Mirrored Lotus: Add three mana of any one color."  Once."""
    ans = pay(state("Mirrored Lotus"), "{G}{G}{G}")
    assert ans["payment"]["activations"] == [{"permanent": "p0", "ability": 0, "costs": ["{T}", "exile ~"],
                                              "mana": "{G}{G}{G}"}]
    assert not pay(state("Mirrored Lotus"), "{G}{G}{U}")["payable"]


# -- discard your hand, activated only as an instant (CR 602.5d, 601.2a) ---------------------------


def test_lions_eye_diamond_pays_a_cost_with_no_card_cast_from_the_hand() -> None:
    """Lion's Eye Diamond: "Discard your hand, Sacrifice ~: Add three mana of any one color.
    Activate only as an instant."  With an empty hand the cost is payable too (discarding the hand
    needs no card, so no resource is missing, CR 118.3 [derived]), and for an ability or a bare
    cost it pays {R}{R}{R}."""
    ans = pay(state("Lion's Eye Diamond"), "{R}{R}{R}")
    assert ans["payment"]["activations"][0]["costs"] == ["sacrifice", "discard your hand"]
    assert pay(state("Lion's Eye Diamond", hand=["Island"]), "{R}{R}{R}")["payable"]


def test_cr_602_5d_lions_eye_diamond_cannot_pay_for_a_card_in_the_hand() -> None:
    """Casting Lightning Bolt from the hand: Lion's Eye Diamond must be activated before (as an
    instant, not while casting), and discarding the hand would discard the Bolt: not payable.
    With the Bolt not in the hand (cast from elsewhere) it pays; the checker refuses the payment
    for a Bolt in the hand."""
    bolt = {"spell": {"card": "Lightning Bolt"}}
    assert not pay(state("Lion's Eye Diamond", hand=["Lightning Bolt"]), "{R}", **bolt)["payable"]
    ans = pay(state("Lion's Eye Diamond", hand=[]), "{R}", **bolt)
    verdict = check(state("Lion's Eye Diamond", hand=["Lightning Bolt"]), "{R}", ans["payment"], **bolt)
    assert not verdict["legal"] and "602.5d" in verdict["problems"][0]


def test_cr_701_9a_the_hand_is_used_before_it_is_discarded() -> None:
    """Skirge Familiar's discard and Simian Spirit Guide's exile come before Lion's Eye Diamond
    discards the rest of the hand: the payment lists them first, and the checker refuses the
    other order."""
    board_ = state("Lion's Eye Diamond", "Skirge Familiar", hand=["Simian Spirit Guide", "Island"])
    ans = pay(board_, "{R}{R}{R}{R}{B}")
    acts = ans["payment"]["activations"]
    assert "discard your hand" in acts[-1]["costs"] and len(acts) == 3
    backwards = dict(ans["payment"], activations=[acts[-1]] + acts[:-1])
    verdict = check(board_, "{R}{R}{R}{R}{B}", backwards)
    assert not verdict["legal"] and "discarded" in verdict["problems"][0]


def test_cr_302_6_diamond_lion_taps_so_summoning_sickness_matters() -> None:
    """Diamond Lion: "{T}, Discard your hand, Sacrifice ~: Add three mana of any one color."  A
    summoning-sick Lion can't pay ({T}); one that can tap pays {U}{U}{U}."""
    assert pay(state("Diamond Lion", hand=["Island"]), "{U}{U}{U}")["payable"]
    assert not pay(state({"card": "Diamond Lion", "sick": True}), "{U}")["payable"]


# -- returned to the hand, activated only as a sorcery (CR 602.5d, 307.1) -------------------------


def test_cr_602_5d_grinning_ignus_returns_itself_at_sorcery_speed() -> None:
    """Grinning Ignus: "{R}, Return ~ to its owner's hand: Add {C}{C}{R}.  Activate only as a
    sorcery."  In its controller's main phase with the stack empty a Mountain's {R} becomes
    {C}{C}{R} (so Ignus can be cast again for {2}{R}); on the opponent's turn or with something
    on the stack it can't be activated, and the checker refuses the payment."""
    board_ = state("Grinning Ignus", "Mountain")
    ans = pay(board_, "{2}{R}", spell={"card": "Grinning Ignus"})
    costs = [a["costs"] for a in ans["payment"]["activations"]]
    assert costs[-1] == ["{R}", "return ~ to its owner's hand"]  # after the Mountain paying its {R} (605.3a)
    for turn in ({"active": "opp"}, {"active": "you", "step": "declare_attackers"},
                 {"active": "you", "stack_empty": False}):
        later = dict(board_, turn=turn)
        assert not pay(later, "{C}{C}")["payable"], turn
        verdict = check(later, "{2}{R}", ans["payment"])  # a bare cost: no creature spell's own timing
        assert not verdict["legal"] and "sorcery" in verdict["problems"][0], verdict


def test_grinning_ignus_beside_a_discard_cost_is_left_out() -> None:
    """The returned Ignus is a card in the hand that Skirge Familiar could then discard: not
    modelled, so a cost only that could pay is refused naming Ignus, never called unpayable."""
    board_ = state("Grinning Ignus", "Mountain", "Skirge Familiar", hand=["Island"])
    assert pay(board_, "{C}{C}{R}{B}")["payable"]
    refused = pay(board_, "{C}{C}{R}{B}{B}")
    assert refused["error"]["code"] == "unsupported" and "Grinning Ignus" in refused["error"]["message"]


# -- resources the board does not hold: named, never guessed ----------------------------------------


@pytest.mark.parametrize("name, words", [
    ("Deranged Assistant", "library"), ("Millikin", "library"), ("Charmed Pendant", "library"),
    ("Benthic Explorers", "opponent controls"),
])
def test_costs_whose_resource_is_not_on_the_board_are_refused_naming_it(name: str, words: str) -> None:
    """A cost that mills (the board has no library), or whose resource the board does not hold,
    is refused where the card might matter, naming the card, the clause and why."""
    # Benthic Explorers' cost can be paid only with a tapped land of an opponent's (CR 118.3)
    theirs = [{"card": "Island", "controller": "opp", "tapped": True}] if name == "Benthic Explorers" else []
    ans = pay(state(name, "Forest", {"card": "Sol Ring", "tapped": True}, *theirs), "{4}{G}")
    assert ans["error"]["code"] == "unsupported", ans
    assert name.split(" ")[0] in ans["error"]["message"] and words in ans["error"]["message"]
    payable = pay(state(name, "Forest", *theirs), "{G}")
    assert payable["payable"] and [u["permanent"] for u in payable.get("unsupported", [])] == ["p0"]


# -- differential: CP-SAT and the csp enumeration against the brute force -------------------------


def _db(name: str) -> Card:
    return default_db().get(name)


SKIRGE, BLOOM = _db("Skirge Familiar"), _db("Cadaverous Bloom")
SIMIAN, ISLAND_CARD, BOLT = _db("Simian Spirit Guide"), _db("Island"), _db("Lightning Bolt")
BATTERY = card("Grave Battery", "Artifact", unsupported=("Exile a card from your graveyard: Add {C}.",))
PALETTE = [FOREST, SWAMP, ELVES, TREASURE, SKIRGE, BLOOM, BATTERY]
SPENDERS = [SKIRGE, BLOOM, BATTERY]
SYMBOLS = ["{B}", "{G}", "{R}", "{C}", "{1}", "{2}", "{B/G}"]
#: The brute force does not compute keep_castable (whose default list is the hand): the default
#: policy without it, and others.
POLICIES = [tuple(c for c in DEFAULT_POLICY if c != "keep_castable"), ("min_sources", "no_sacrifice"),
            ("prefer_lands", "no_sacrifice", "min_waste"),
            ("min_waste", "min_sources")]


@st.composite
def requests(draw: Any) -> PaymentRequest:
    n = draw(st.integers(1, 3))
    perms = [perm(f"p{i}", draw(st.sampled_from(SPENDERS if i == 0 and draw(st.booleans()) else PALETTE)),
                  tapped=draw(st.integers(0, 6)) == 0, sick=draw(st.booleans())) for i in range(n)]
    hand = tuple(draw(st.lists(st.sampled_from([SIMIAN, ISLAND_CARD, BOLT]), max_size=3)))
    grave = tuple(draw(st.lists(st.sampled_from([ISLAND_CARD, BOLT]), max_size=2)))
    base = board(*perms, hand=hand)
    you = base.players[0]
    state_ = GameState((type(you)(you.name, hand=hand, graveyard=grave),) + base.players[1:], base.turn,
                       base.battlefield)
    syms = draw(st.lists(st.sampled_from(SYMBOLS), min_size=1, max_size=4))
    spell = None
    if hand and draw(st.booleans()):  # casting a card of the hand: it is on the stack (601.2a)
        cast = draw(st.sampled_from(hand))
        spell = SpellInfo(types=frozenset(cast.type_line.types), colors=cast.colors, card=cast)
    return PaymentRequest(state_, ManaCost.parse("".join(syms)), "you",
                          policy=Policy(criteria=draw(st.sampled_from(POLICIES))), spell=spell)


def _describe(r: PaymentRequest) -> str:
    me = r.state.players[0]
    return (f"cost={r.cost.format()} policy={r.policy.criteria} hand={[c.name for c in me.hand]} "
            f"graveyard={[c.name for c in me.graveyard]} "
            f"spell={r.spell.card.name if r.spell and r.spell.card else None} "
            f"{[(p.id, p.card.name, p.tapped, p.sick) for p in r.state.battlefield]}")


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(requests())
def test_zone_cost_boards_cpsat_and_csp_agree_with_brute_force(r: PaymentRequest) -> None:
    """On boards of at most three permanents with Skirge Familiar, Cadaverous Bloom and a
    graveyard-exiling artifact, a hand of up to three cards and a graveyard of up to two:
    payability, CP-SAT's optimum and the csp enumeration equal the brute force's; every payment
    passes validate."""
    assume(not build_supply(r.state, resources=True).excluded)
    assume(len(moves(r.state, "you", r.spell.card.name if r.spell and r.spell.card else "")) <= MAX_SOURCES)
    b = brute(r, r.policy.criteria)
    assert_agrees_with_brute(r, _describe(r), b, limit=300, validated=20)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(requests(), st.data())
def test_validate_agrees_with_brute_force_on_zone_costs(r: PaymentRequest, data: Any) -> None:
    """validate says legal exactly when the brute force lists the payment (redundant activations
    included), on the brute force's own payments and on ones whose discarded or exiled card was
    changed to another card of either zone, a card named twice, or a permanent."""
    me = r.state.players[0]
    cast = r.spell.card.name if r.spell is not None and r.spell.card is not None else ""
    # The brute force keeps the first copy of the card being cast (a convention); validate takes
    # any copy: with two copies in the hand the two differ only by which copy is kept.
    assume(sum(1 for c in me.hand if c.name == cast) <= 1)
    assume(not build_supply(r.state, resources=True).excluded)
    assume(len(moves(r.state, "you", cast)) <= MAX_SOURCES)
    every = brute(r, ("min_sources",), irredundant=False)
    legal = {canon(p) for p in every.payments}
    base = sorted(every.payments, key=repr)
    if not base:
        return
    ids = ([f"hand:{i}" for i in range(len(me.hand) + 1)] + [f"graveyard:{i}" for i in range(len(me.graveyard) + 1)]
           + [p.id for p in r.state.battlefield])
    for _ in range(3):
        p = data.draw(st.sampled_from(base))
        acts = list(p.activations)
        spends = [i for i, a in enumerate(acts) if a.sacrificed]
        if spends and data.draw(st.booleans()):
            i = data.draw(st.sampled_from(spends))
            acts[i] = replace(acts[i], sacrificed=(data.draw(st.sampled_from(ids)),))
            p = replace(p, activations=tuple(acts))
        res = validate(r, p)
        assert res.legal == (canon(p) in legal), (res.problems, p.to_json(), _describe(r))
