"""Mana abilities whose costs spend other resources: sacrificing other permanents.

Ashnod's Altar ("Sacrifice a creature: Add {C}{C}."), Phyrexian Altar ("Sacrifice a
creature: Add one mana of any color."), Krark-Clan Ironworks ("Sacrifice an artifact: Add
{C}{C}.").  Rules: mana abilities are activated during 601.2g, before costs are paid
(601.2h), in any order (605.3a); a creature may be tapped for mana and then sacrificed; a
sacrificed permanent is gone (701.21a): it can't be sacrificed again, nor convoke or
improvise (601.2h comes after).  Each scenario's payment passes the independent checker
(solver/validate/resources.py); on small random boards CP-SAT's optimum and the csp enumeration
agree with the brute force of tests/support/brute.py.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest
from brute import MAX_SOURCES, brute, canon, moves, value
from backends import assert_agrees_with_brute
from cards import (
    ASHNODS_ALTAR,
    BIRDS,
    ELVES,
    FOREST,
    PLAINS,
    SNOW_FOREST,
    SOL_RING,
    TREASURE,
    ab,
    board,
    card,
    perm,
)
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from manasolver.models.abilities import AbilityCost
from manasolver.models.card import Card, TypeLine
from manasolver.models.cost import ManaCost
from manasolver.models.errors import Unsupported
from manasolver.models.state import GameState
from manasolver.models.symbols import ANY_COLOR, C
from manasolver.solver import queries
from manasolver.solver.backends import csp
from manasolver.solver.payment import Activation, Payment
from manasolver.solver.request import DEFAULT_POLICY, PaymentRequest, Policy, SpellInfo
from manasolver.solver.supply.build import build_supply
from manasolver.solver.validate import validate

# "Sacrifice a creature: Add one mana of any color." (Phyrexian Altar)
PHYREXIAN_ALTAR = card("Phyrexian Altar", "Artifact",
                       ab(((ANY_COLOR,),), cost=AbilityCost(sacrifice=("creature",))), mana_cost="{3}")
# "Sacrifice an artifact: Add {C}{C}." (Krark-Clan Ironworks)
KCI = card("Krark-Clan Ironworks", "Artifact", ab(((C, C),), cost=AbilityCost(sacrifice=("artifact",))),
           mana_cost="{4}")
#: The protocol's cost parts of Ironworks' ability, as :meth:`AbilityCost.parts` writes them.
KCI_COSTS = tuple(KCI.mana_abilities[0].cost.parts())
BEAR = card("Grizzly Bears", "Creature — Bear", mana_cost="{1}{G}", power="2")
ORNITHOPTER = card("Ornithopter", "Artifact Creature — Thopter", mana_cost="{0}", power="0")


def req(state: GameState, cost: str, **kw: Any) -> PaymentRequest:
    return PaymentRequest(state, ManaCost.parse(cost), "you", **kw)


def paid(r: PaymentRequest, backend: str | None = None) -> Payment:
    """The payment ``pay`` answers, checked by the independent validator."""
    ans = queries.pay(r, backend=backend)
    assert ans.payable, ans.to_json()
    assert ans.payment is not None
    verdict = validate(r, ans.payment)
    assert verdict.legal, (ans.payment.to_json(), verdict.problems)
    return ans.payment


def sacrificed(p: Payment) -> list[str]:
    return sorted(s for a in p.activations for s in a.sacrificed)


# -- scenarios ---------------------------------------------------------------------------------


def test_cr_605_3a_ashnods_altar_pays_with_a_sacrificed_creature() -> None:
    """Ashnod's Altar and a Grizzly Bears pay {2}: the Bears is sacrificed (named in the
    activation, the protocol's shape plus ``sacrificed``)."""
    r = req(board(perm("alt", ASHNODS_ALTAR), perm("bear", BEAR)), "{2}")
    p = paid(r)
    assert [a.to_json() for a in p.activations] == [
        {"permanent": "alt", "ability": 0, "costs": ["sacrifice a creature"], "mana": "{C}{C}",
         "sacrificed": ["bear"]}]


def test_cr_605_3a_tap_a_creature_for_mana_then_sacrifice_it() -> None:
    """Llanowar Elves taps for {G}, then is sacrificed to Ashnod's Altar for {C}{C}: one
    permanent pays {2}{G} (605.3a: mana abilities in any order during 601.2g)."""
    r = req(board(perm("alt", ASHNODS_ALTAR), perm("elf", ELVES)), "{2}{G}")
    p = paid(r)
    assert sacrificed(p) == ["elf"]
    order = [(a.permanent, a.sacrificed) for a in p.activations]
    assert order == [("elf", ()), ("alt", ("elf",))]  # the tap is listed before the sacrifice


def test_cr_701_21a_each_activation_sacrifices_a_different_creature() -> None:
    """Two creatures give two activations of the Altar, never three: {4} is payable, {6} is not."""
    state = board(perm("alt", ASHNODS_ALTAR), perm("b1", BEAR), perm("b2", BEAR, sick=True))
    assert sacrificed(paid(req(state, "{4}"))) == ["b1", "b2"]
    ans = queries.pay(req(state, "{6}"))
    assert not ans.payable and ans.reason is not None and ans.reason.code == "insufficient_mana"


def test_cr_302_6_summoning_sick_creatures_can_be_sacrificed() -> None:
    """Summoning sickness limits only {T}/{Q} abilities of the creature itself (302.6)."""
    r = req(board(perm("alt", PHYREXIAN_ALTAR), perm("bear", BEAR, sick=True)), "{R}")
    assert sacrificed(paid(r)) == ["bear"]


def test_cr_118_3_an_opponents_creature_is_not_fodder() -> None:
    """Only permanents the player controls can be sacrificed for its costs."""
    r = req(board(perm("alt", ASHNODS_ALTAR), perm("bear", BEAR, "opponent")), "{1}")
    assert not queries.can_pay(r).payable


def test_cr_701_21a_ironworks_may_sacrifice_itself_last() -> None:
    """Krark-Clan Ironworks is an artifact: it may sacrifice Sol Ring (tapped first) and then
    itself, {C}{C} each: with Sol Ring's {C}{C} that is six mana."""
    state = board(perm("kci", KCI), perm("ring", SOL_RING))
    p = paid(req(state, "{6}"))
    assert sacrificed(p) == ["kci", "ring"]
    assert p.activations[-1].sacrificed == ("kci",)  # sacrificing itself comes last
    assert not queries.can_pay(req(state, "{7}")).payable


def test_ashnods_altar_is_not_an_artifact_sacrifice() -> None:
    """"Sacrifice a creature" takes creatures only: Ashnod's Altar can't sacrifice Sol Ring."""
    r = req(board(perm("alt", ASHNODS_ALTAR), perm("ring", SOL_RING)), "{3}")
    assert not queries.can_pay(r).payable


def test_no_sacrifice_policy_counts_every_sacrificed_permanent() -> None:
    """Policy no_sacrifice: with a Forest available, {1} is paid by the Forest, not the Altar;
    {3} needs exactly one creature."""
    state = board(perm("alt", ASHNODS_ALTAR), perm("b1", BEAR), perm("b2", BEAR), perm("f", FOREST))
    assert sacrificed(paid(req(state, "{1}"))) == []
    assert len(sacrificed(paid(req(state, "{3}")))) == 1


def test_tiebreak_sacrifices_the_earlier_permanent() -> None:
    """Ties are broken by board order: of two equal Bears, the first is sacrificed."""
    state = board(perm("alt", ASHNODS_ALTAR), perm("b1", BEAR), perm("b2", BEAR))
    assert sacrificed(paid(req(state, "{2}"))) == ["b1"]
    assert paid(req(state, "{2}")) == paid(req(state, "{2}"))


def test_keep_colors_sacrifices_the_creature_already_tapped() -> None:
    """keep_colors: Birds of Paradise tapped for {W} and then sacrificed keeps Llanowar
    Elves untapped (green stays available); the Altar's mana pays the rest."""
    state = board(perm("alt", ASHNODS_ALTAR), perm("birds", BIRDS), perm("elf", ELVES))
    p = paid(req(state, "{2}{W}", policy=Policy(criteria=("keep_colors", "min_sources"))))
    assert sacrificed(p) == ["birds"]
    assert {a.permanent for a in p.activations} == {"alt", "birds"}


def test_cr_601_2h_a_sacrificed_creature_can_not_convoke() -> None:
    """Convoke comes after the mana abilities (601.2h): one Bears can't both be sacrificed
    for {C}{C} and convoke.  {3}: Altar ({C}{C}) + convoke the other Bears."""
    state = board(perm("alt", ASHNODS_ALTAR), perm("b1", BEAR), perm("b2", BEAR))
    r = req(state, "{3}", convoke=True)
    p = paid(r)
    assert len(sacrificed(p)) == 1 and len(p.convoked) == 1 and set(sacrificed(p)) != set(p.convoked)
    assert not queries.can_pay(req(state, "{5}", convoke=True)).payable


def test_treasure_sacrificed_by_itself_is_not_fodder_too() -> None:
    """A Treasure sacrificed for its own mana can't also be sacrificed to Ironworks (701.21a):
    Ironworks sacrificing the Treasure and then itself makes {C}{C}{C}{C}; five mana would need
    the Treasure's own mana too, so {5} is not payable."""
    state = board(perm("kci", KCI), perm("t", TREASURE))
    assert sacrificed(paid(req(state, "{4}"))) == ["kci", "t"]
    assert not queries.can_pay(req(state, "{5}")).payable


def test_t113_nyxbloom_does_not_triple_the_altar() -> None:
    """CR 106.12, Nyxbloom Ancient ruling: Nyxbloom Ancient triples mana from tapping a permanent; the Altar's
    ability has no {T}, so each activation still adds {C}{C}: the Bears and the (creature)
    Nyxbloom itself give four mana, not twelve."""
    from manasolver.models.carddb import default_db
    db = default_db()
    state = board(perm("nyx", db.get("Nyxbloom Ancient")), perm("alt", db.get("Ashnod's Altar")),
                  perm("bear", BEAR))
    assert not queries.can_pay(req(state, "{5}")).payable
    p = paid(req(state, "{2}"))
    assert [a.mana for a in p.activations] == ["{C}{C}"]
    assert [a.mana for a in paid(req(state, "{4}")).activations] == ["{C}{C}", "{C}{C}"]


def test_real_cards_from_the_database() -> None:
    """The parsed real cards: Phyrexian Altar and Krark-Clan Ironworks pay, by their oracle text."""
    from manasolver.models.carddb import default_db
    db = default_db()
    state = board(perm("pa", db.get("Phyrexian Altar")), perm("kci", db.get("Krark-Clan Ironworks")),
                  perm("orn", db.get("Ornithopter")), perm("elf", db.get("Llanowar Elves")))
    p = paid(req(state, "{G}{G}{B}"))
    assert sacrificed(p) == ["elf", "orn"] or sacrificed(p) == ["elf", "orn"][::-1]


# -- cards in the hand: Simian and Elvish Spirit Guide -----------------------------------------


def _guide(name: str, letter: str) -> Card:
    # "Exile <name> from your hand: Add {R}." (the clause the oracle parser leaves unread)
    return Card(name, ManaCost.parse(f"{{2}}{{{letter}}}"), TypeLine.parse("Creature — Ape Spirit"),
                oracle_text=f"Exile {name} from your hand: Add {{{letter}}}.")


SIMIAN = _guide("Simian Spirit Guide", "R")
ELVISH = _guide("Elvish Spirit Guide", "G")


def with_hand(state: GameState, *cards: Card) -> GameState:
    me = state.players[0]._replace(hand=tuple(cards))
    return replace(state, players=(me, *state.players[1:]))


def test_parser_leaves_the_spirit_guide_clause_unread() -> None:
    """models/text/oracle.py reports the clause as unsupported (it reads permanents' abilities);
    models/text/hand.py reads it instead."""
    from manasolver.models.carddb import default_db
    from manasolver.models.text.hand import hand_abilities
    card_ = default_db().get("Simian Spirit Guide")
    assert card_.unsupported == ("Exile this card from your hand: Add {R}.",)
    assert [a.production.options for a in hand_abilities(card_)] == [((8,),)]


def test_cr_602_2a_simian_spirit_guide_pays_from_the_hand() -> None:
    """A Forest and a Simian Spirit Guide in hand pay {R}{G}: the activation names the card by
    its index in the hand (the board's ``hand``) instead of a permanent."""
    state = with_hand(board(perm("f", FOREST)), BEAR, SIMIAN)
    p = paid(req(state, "{R}{G}", policy=Policy(criteria=("no_sacrifice", "min_sources"))))
    assert [a.to_json() for a in p.activations] == [
        {"permanent": "f", "ability": 0, "costs": ["{T}"], "mana": "{G}"},
        {"hand": 1, "card": "Simian Spirit Guide", "ability": 0,
         "costs": ["exile this card from your hand"], "mana": "{R}"}]
    assert Payment.from_json(p.to_json()) == p


def test_no_sacrifice_counts_a_card_exiled_from_the_hand() -> None:
    """Policy no_sacrifice: with a Forest untapped, {G} is paid by the Forest, not the Guide."""
    state = with_hand(board(perm("f", FOREST)), ELVISH)
    p = paid(req(state, "{G}"))
    assert [a.permanent for a in p.activations] == ["f"]
    assert len(paid(req(state, "{G}{G}")).activations) == 2


def test_two_guides_exile_two_cards_never_one_twice() -> None:
    state = with_hand(board(), SIMIAN, SIMIAN)
    assert sorted(a.hand for a in paid(req(state, "{R}{R}")).activations) == [0, 1]
    assert not queries.can_pay(req(state, "{R}{R}{R}")).payable


def test_keep_castable_does_not_count_the_exiled_guide() -> None:
    """keep_castable's default list is the cards in hand: a Guide exiled for mana is
    no longer in hand, so its own {2}{R} is not counted as a spell lost.

    Hand: Simian Spirit Guide, Lightning Bolt ({R}); board: a Mountain; paying {R}.  With the
    Mountain, Bolt stays castable (by the Guide) but the Guide's {2}{R} is not: one lost.  With
    the Guide, Bolt stays castable (by the Mountain) and the Guide is gone: none lost.  The
    default policy puts no_sacrifice first, so the Mountain pays; keep_castable first exiles
    the Guide."""
    from cards import MOUNTAIN
    bolt = Card("Lightning Bolt", ManaCost.parse("{R}"), TypeLine.parse("Instant"))
    state = with_hand(board(perm("m", MOUNTAIN)), SIMIAN, bolt)
    assert [a.permanent for a in paid(req(state, "{R}")).activations] == ["m"]
    p = paid(req(state, "{R}", policy=Policy(criteria=("keep_castable", "no_sacrifice"))))
    assert [a.hand for a in p.activations] == [0]
    ans = queries.pay(req(state, "{R}", policy=Policy(criteria=("keep_castable", "no_sacrifice"))),
                      backend="cpsat")
    assert ans.payment == p


def test_cr_601_2a_a_spirit_guide_being_cast_can_not_exile_itself() -> None:
    """Casting Elvish Spirit Guide moves it to the stack first (601.2a): it can't be exiled from
    the hand for {G} (601.2g) — but a second copy in the hand can."""
    from cards import MOUNTAIN
    spell = SpellInfo(types=frozenset({"creature"}), colors=16, card=ELVISH)
    one = with_hand(board(perm("m1", MOUNTAIN), perm("m2", MOUNTAIN)), ELVISH)
    assert not queries.can_pay(req(one, "{2}{G}", spell=spell)).payable
    assert not csp.payments(req(one, "{2}{G}", spell=spell))[0]
    two = with_hand(board(perm("m1", MOUNTAIN), perm("m2", MOUNTAIN)), ELVISH, ELVISH)
    p = paid(req(two, "{2}{G}", spell=spell))
    assert [a.hand for a in p.activations if a.hand is not None] == [1]
    cheat = Payment(total="{2}{G}", activations=(
        Activation("m1", 0, ("{T}",), "{R}"), Activation("m2", 0, ("{T}",), "{R}"),
        Activation("", 0, ("exile this card from your hand",), "{G}", hand=0, card="Elvish Spirit Guide")))
    res = validate(req(one, "{2}{G}", spell=spell), cheat)
    assert not res.legal and any("being cast" in q for q in res.problems)
    assert validate(req(two, "{2}{G}", spell=spell), cheat).legal  # either copy may be the one cast


def test_a_spirit_guide_on_the_battlefield_is_not_a_source_nor_unsupported() -> None:
    """On the battlefield the hand ability does nothing: the permanent is not excluded, so an
    unpayable cost is answered as such (not Unsupported)."""
    from manasolver.models.carddb import default_db
    state = board(perm("g", default_db().get("Simian Spirit Guide")))
    assert not build_supply(state, resources=True).excluded
    assert not queries.can_pay(req(state, "{R}")).payable


def test_validate_checks_hand_activations() -> None:
    state = with_hand(board(), SIMIAN, BEAR)
    r = req(state, "{R}")
    ok = Payment(total="{R}", activations=(
        Activation("", 0, ("exile this card from your hand",), "{R}", hand=0, card="Simian Spirit Guide"),))
    assert validate(r, ok).legal
    for bad, why in [
        (replace(ok.activations[0], hand=1, card="Grizzly Bears"), "no mana ability"),
        (replace(ok.activations[0], hand=5), "has no card 5"),
        (replace(ok.activations[0], card="Elvish Spirit Guide"), "not Elvish Spirit Guide"),
        (replace(ok.activations[0], mana="{G}"), "cannot add {G}"),
    ]:
        res = validate(r, replace(ok, activations=(bad,)))
        assert not res.legal and any(why in q for q in res.problems), (why, res.problems)
    twice = Payment(total="{R}{R}", activations=(ok.activations[0], ok.activations[0]))
    res = validate(req(state, "{R}{R}"), twice)
    assert not res.legal and any("more than once" in q for q in res.problems)


# -- costs that tap other permanents: Springleaf Drum, Heritage Druid, Urza ------------------------


def _tapper(name: str, type_line: str, clause: str, mana_cost: str) -> Card:
    # A card whose tap-others clause the parser leaves unread (models/text/tap_costs.py reads it).
    return replace(card(name, type_line, mana_cost=mana_cost, power="1"), unsupported=(clause,))


HERITAGE_DRUID = _tapper("Heritage Druid", "Creature — Elf Druid",
                         "Tap three untapped Elves you control: Add {G}{G}{G}.", "{G}")
BIRCHLORE = _tapper("Birchlore Rangers", "Creature — Elf Druid Ranger",
                    "Tap two untapped Elves you control: Add one mana of any color.", "{G}")
URZA = _tapper("Urza, Lord High Artificer", "Legendary Creature — Human Artificer",
               "Tap an untapped artifact you control: Add {U}.", "{2}{U}{U}")
# "{T}, Tap an untapped creature you control: Add one mana of any color." (parsed: tap_creatures)
DRUM = card("Springleaf Drum", "Artifact",
            ab(((ANY_COLOR,),), cost=AbilityCost(tap=True, tap_creatures=1)), mana_cost="{1}")
ELF = card("Elvish Visionary", "Creature — Elf Shaman", mana_cost="{1}{G}", power="1")


def tapped_ids(p: Payment) -> list[str]:
    return sorted(t for a in p.activations for t in a.tapped)


def test_cr_302_6_heritage_druid_taps_summoning_sick_elves() -> None:
    """Heritage Druid and two Elves, all summoning sick, make {G}{G}{G}: tapping them is a cost
    of the Druid's ability, not their own {T} (302.6; Heritage Druid rulings), and the Druid
    may tap itself."""
    state = board(perm("hd", HERITAGE_DRUID, sick=True), perm("e1", ELF, sick=True),
                  perm("e2", ELVES, sick=True))
    p = paid(req(state, "{G}{G}{G}"))
    assert [a.to_json() for a in p.activations] == [
        {"permanent": "hd", "ability": 0, "costs": ["tap three untapped Elves you control"],
         "mana": "{G}{G}{G}", "tapped": ["hd", "e1", "e2"]}]


def test_cr_118_3_an_elf_tapped_for_its_own_mana_can_not_pay_the_druid() -> None:
    """Each permanent taps once: Llanowar Elves tapped for {G} can't be one of the Druid's three,
    so with three Elves the board makes {G}{G}{G} (Druid) or {G} (Elves), never four."""
    state = board(perm("hd", HERITAGE_DRUID), perm("e1", ELF), perm("e2", ELVES))
    assert queries.can_pay(req(state, "{G}{G}{G}")).payable
    assert not queries.can_pay(req(state, "{G}{G}{G}{G}")).payable
    state4 = board(perm("hd", HERITAGE_DRUID), perm("e1", ELF), perm("e2", ELVES), perm("e3", ELF))
    p = paid(req(state4, "{G}{G}{G}{G}"))
    assert tapped_ids(p) == ["e1", "e3", "hd"] and {a.permanent for a in p.activations} == {"hd", "e2"}


def test_two_druid_activations_tap_six_different_elves() -> None:
    state = board(perm("hd", HERITAGE_DRUID), *(perm(f"e{i}", ELF) for i in range(5)))
    p = paid(req(state, "{6}"))
    assert len(tapped_ids(p)) == 6 == len(set(tapped_ids(p)))
    assert not queries.can_pay(req(state, "{7}")).payable


def test_urza_taps_an_artifact_not_one_tapped_for_mana() -> None:
    """Urza: "Tap an untapped artifact you control: Add {U}."  Sol Ring tapped for {C}{C} can't
    also be tapped for Urza: {U}{C}{C} needs a second artifact."""
    state = board(perm("u", URZA, sick=True), perm("ring", SOL_RING))
    assert queries.can_pay(req(state, "{U}")).payable
    assert queries.can_pay(req(state, "{2}")).payable
    assert not queries.can_pay(req(state, "{U}{2}")).payable
    state2 = board(perm("u", URZA), perm("ring", SOL_RING), perm("t", TREASURE))
    p = paid(req(state2, "{U}{2}", policy=Policy(criteria=("no_sacrifice", "min_sources"))))
    assert tapped_ids(p) == ["t"]


def test_springleaf_drum_names_the_creature_it_taps() -> None:
    """Springleaf Drum taps itself and a (summoning-sick) creature; the payment names it."""
    state = board(perm("drum", DRUM), perm("bear", BEAR, sick=True))
    p = paid(req(state, "{B}"))
    assert [(a.permanent, a.tapped) for a in p.activations] == [("drum", ("bear",))]


def test_real_tapping_cards_from_the_database() -> None:
    from manasolver.models.carddb import default_db
    db = default_db()
    state = board(perm("hd", db.get("Heritage Druid"), sick=True), perm("br", db.get("Birchlore Rangers")),
                  perm("e", db.get("Llanowar Elves"), sick=True), perm("s", db.get("Seton, Krosan Protector")),
                  perm("u", db.get("Urza, Lord High Artificer")), perm("d", db.get("Springleaf Drum")))
    p = paid(req(state, "{G}{G}{G}{G}{U}"))
    assert {a.permanent for a in p.activations} >= {"hd", "s"}
    sup = build_supply(state, resources=True)
    assert not sup.excluded
    assert build_supply(state).excluded  # without resources: unread, as before


def test_cr_605_3a_elves_tapped_for_the_druid_then_sacrificed_to_the_altar() -> None:
    """Tapping a permanent for a cost and then sacrificing it are both legal (605.3a, 118.3):
    Heritage Druid taps itself and two Elves for {G}{G}{G}, then Ashnod's Altar sacrifices all
    three for {C}{C} each: nine mana, never ten."""
    state = board(perm("alt", ASHNODS_ALTAR), perm("hd", HERITAGE_DRUID, sick=True), perm("e1", ELF),
                  perm("e2", ELF, sick=True))
    p = paid(req(state, "{G}{G}{G}{6}"))
    assert tapped_ids(p) == ["e1", "e2", "hd"] and sacrificed(p) == ["e1", "e2", "hd"]
    assert p.activations[0].permanent == "hd"  # the taps come before the sacrifices
    assert not queries.can_pay(req(state, "{10}")).payable


def test_a_creature_tapped_for_springleaf_drum_may_be_sacrificed_but_not_convoke() -> None:
    """Springleaf Drum taps the Bears, the Altar then sacrifices it; convoking it as well would
    tap it twice (CR 702.51a: convoke taps an untapped creature)."""
    state = board(perm("drum", DRUM), perm("alt", ASHNODS_ALTAR), perm("bear", BEAR))
    p = paid(req(state, "{R}{2}"))
    assert tapped_ids(p) == ["bear"] and sacrificed(p) == ["bear"]
    assert not queries.can_pay(req(state, "{R}{3}", convoke=True)).payable


@pytest.mark.parametrize(("tapped", "problem"), [
    (("e1", "e2", "e3"), None),
    (("e1", "e2", "bear"), "is not elf"),
    (("e1", "e2", "opp_elf"), "is not a permanent you controls"),
    (("e1", "e2", "tapped_elf"), "is tapped"),
    (("e1", "e1", "e2"), "would be tapped 2 times"),
    (("e1", "e2"), "names 2 tapped permanents"),
])
def test_cr_118_3_validate_checks_the_tapped_permanents(tapped: tuple[str, ...], problem: str | None) -> None:
    state = board(perm("hd", HERITAGE_DRUID), perm("e1", ELF), perm("e2", ELF), perm("e3", ELF),
                  perm("bear", BEAR), perm("opp_elf", ELF, "opponent"), perm("tapped_elf", ELF, tapped=True))
    p = Payment(total="{G}{G}{G}", activations=(
        Activation("hd", 0, ("tap three untapped Elves you control",), "{G}{G}{G}", tapped=tapped),))
    res = validate(req(state, "{G}{G}{G}"), p)
    if problem is None:
        assert res.legal, res.problems
    else:
        assert not res.legal and any(problem in q for q in res.problems), res.problems


def test_validate_refuses_tapping_an_elf_that_tapped_for_mana() -> None:
    state = board(perm("hd", HERITAGE_DRUID), perm("e1", ELVES), perm("e2", ELF))
    p = Payment(total="{G}{G}{G}{G}", activations=(
        Activation("e1", 0, ("{T}",), "{G}"),
        Activation("hd", 0, ("tap three untapped Elves you control",), "{G}{G}{G}", tapped=("hd", "e1", "e2"))))
    res = validate(req(state, "{G}{G}{G}{G}"), p)
    assert not res.legal and any("tapped 2 times" in q for q in res.problems), res.problems


# -- validate: the sacrificed permanents named ------------------------------------------------


def _altar_payment(sac: tuple[str, ...], costs: tuple[str, ...] = ("sacrifice a creature",)) -> Payment:
    return Payment(total="{2}", activations=(Activation("alt", 0, costs, "{C}{C}", sacrificed=sac),))


@pytest.mark.parametrize(("sac", "problem"), [
    (("bear",), None),
    (("ring",), "is not a creature"),
    (("opp_bear",), "is not a permanent you controls"),
    (("nobody",), "is not a permanent"),
    (("bear", "bear"), "names 2 sacrificed permanents"),
])
def test_cr_701_21a_validate_checks_the_sacrificed_permanent(sac: tuple[str, ...], problem: str | None) -> None:
    """validate checks each named sacrifice: type, controller, count."""
    state = board(perm("alt", ASHNODS_ALTAR), perm("bear", BEAR), perm("ring", SOL_RING),
                  perm("opp_bear", BEAR, "opponent"))
    res = validate(req(state, "{2}"), _altar_payment(sac))
    if problem is None:
        assert res.legal, res.problems
    else:
        assert not res.legal and any(problem in p for p in res.problems), res.problems


def test_cr_701_21a_validate_refuses_a_permanent_sacrificed_twice() -> None:
    state = board(perm("alt", ASHNODS_ALTAR), perm("bear", BEAR))
    two = Payment(total="{4}", activations=(
        Activation("alt", 0, ("sacrifice a creature",), "{C}{C}", sacrificed=("bear",)),
        Activation("alt", 0, ("sacrifice a creature",), "{C}{C}", sacrificed=("bear",))))
    res = validate(req(state, "{4}"), two)
    assert not res.legal and any("more than once" in p for p in res.problems)


def test_cr_601_2h_validate_refuses_convoking_a_sacrificed_creature() -> None:
    state = board(perm("alt", ASHNODS_ALTAR), perm("bear", BEAR))
    p = Payment(total="{3}", convoked=("bear",), activations=(
        Activation("alt", 0, ("sacrifice a creature",), "{C}{C}", sacrificed=("bear",)),))
    res = validate(req(state, "{3}", convoke=True), p)
    assert not res.legal and any("cannot convoke" in q for q in res.problems)


def test_validate_refuses_circular_sacrifices() -> None:
    """Two Ironworks each sacrificing the other: whichever goes first, the other is gone."""
    state = board(perm("k1", KCI), perm("k2", KCI))
    p = Payment(total="{4}", activations=(
        Activation("k1", 0, KCI_COSTS, "{C}{C}", sacrificed=("k2",)),
        Activation("k2", 0, KCI_COSTS, "{C}{C}", sacrificed=("k1",))))
    res = validate(req(state, "{4}"), p)
    assert not res.legal and any("circular" in q for q in res.problems)
    ok = Payment(total="{4}", activations=(
        Activation("k1", 0, KCI_COSTS, "{C}{C}", sacrificed=("k2",)),
        Activation("k1", 0, KCI_COSTS, "{C}{C}", sacrificed=("k1",))))
    assert validate(req(state, "{4}"), ok).legal


def test_cr_601_2g_validate_orders_a_sacrifice_after_the_victims_mana_costing_ability() -> None:
    """A Signet (artifact) pays {1}, taps for {W}{U}, then Ironworks sacrifices it for {C}{C}:
    that {C}{C} can't have paid the Signet's own {1} (it comes after), but may pay the spell."""
    from cards import AZORIUS_SIGNET
    state = board(perm("kci", KCI), perm("sg", AZORIUS_SIGNET), perm("f", FOREST))
    legal = Payment(total="{2}{W}{U}", activations=(
        Activation("f", 0, ("{T}",), "{G}"),
        Activation("sg", 0, ("{1}", "{T}"), "{W}{U}"),
        Activation("kci", 0, KCI_COSTS, "{C}{C}", sacrificed=("sg",))))
    assert validate(req(state, "{2}{W}{U}"), legal).legal
    # Here the Forest's {G} floats, so only Ironworks' {C} could pay the Signet's {1}: illegal.
    circular = Payment(total="{2}{W}{U}", floating="{G}", activations=(
        Activation("f", 0, ("{T}",), "{G}"),
        Activation("sg", 0, ("{1}", "{T}"), "{W}{U}"),
        Activation("kci", 0, KCI_COSTS, "{C}{C}", sacrificed=("sg",))))
    res = validate(req(state, "{1}{W}{U}"), circular)
    assert not res.legal


def test_sacrificing_a_signet_is_refused_as_unsupported_not_guessed() -> None:
    """The solvers do not order an Altar after a mana-costing ability of its victim: Ironworks
    with a Signet is left out of the supply and an unpayable answer says so (Unsupported)."""
    from cards import AZORIUS_SIGNET
    state = board(perm("kci", KCI), perm("sg", AZORIUS_SIGNET))
    sup = build_supply(state, resources=True)
    assert [e.permanent for e in sup.excluded] == ["kci"]
    with pytest.raises(Unsupported):
        queries.can_pay(req(state, "{5}"))


def test_fastopt_is_never_asked_about_sacrifice_costs(monkeypatch: pytest.MonkeyPatch) -> None:
    """The default ``pay`` goes straight to CP-SAT when a cost sacrifices other permanents."""
    from manasolver.solver.backends import fastopt

    def refuse(self: object, problem: object) -> None:
        raise AssertionError("fastopt was asked")

    monkeypatch.setattr(fastopt.FastOptBackend, "solve", refuse)
    state = board(perm("alt", ASHNODS_ALTAR), perm("bear", BEAR), perm("f", FOREST))
    assert sacrificed(paid(req(state, "{3}"))) == ["bear"]
    with pytest.raises(Unsupported):  # named explicitly, it declines before being asked
        queries.pay(req(state, "{3}"), backend="fastopt")
    druid = board(perm("hd", HERITAGE_DRUID), perm("e1", ELF), perm("e2", ELF))
    assert tapped_ids(paid(req(druid, "{G}{G}{G}"))) == ["e1", "e2", "hd"]
    guide = with_hand(board(perm("f", FOREST)), SIMIAN)
    assert len(paid(req(guide, "{R}{G}")).activations) == 2
    snow = board(perm("sf", _db_card("Snow-Covered Forest")), perm("wg", _db_card("Wild Growth"), attached_to="sf"))
    assert len(paid(req(snow, "{S}{G}")).activations) == 1


# -- differential: CP-SAT and the csp enumeration against the brute force ------------------------

PALETTE = [FOREST, PLAINS, SNOW_FOREST, ELVES, BIRDS, TREASURE, SOL_RING, ASHNODS_ALTAR, PHYREXIAN_ALTAR,
           KCI, BEAR, ORNITHOPTER]
ALTARS = [ASHNODS_ALTAR, PHYREXIAN_ALTAR, KCI]
SYMBOLS = ["{W}", "{G}", "{R}", "{C}", "{S}", "{1}", "{2}", "{G/W}", "{W/P}"]
POLICIES = [DEFAULT_POLICY, ("min_life", "min_waste", "min_sources"), ("keep_colors", "min_sources"),
            ("prefer_lands", "no_sacrifice", "min_waste"), ("min_sources", "no_sacrifice")]


@st.composite
def requests(draw: Any, max_sources: int = 4, palette: list[Card] | None = None,
             first: list[Card] | None = None) -> PaymentRequest:
    n = draw(st.integers(1, max_sources))
    perms = []
    for i in range(n):
        c = draw(st.sampled_from((first or ALTARS) if i == 0 and draw(st.booleans()) else (palette or PALETTE)))
        tapped = draw(st.integers(0, 6)) == 0
        sick = c.type_line.has("creature") and draw(st.booleans())
        controller = "opponent" if draw(st.integers(0, 7)) == 0 else "you"
        perms.append(perm(f"p{i}", c, controller, tapped=tapped, sick=sick))
    pool = "".join(draw(st.lists(st.sampled_from(["{W}", "{G}", "{C}"]), max_size=1)))
    state = board(*perms, life=draw(st.sampled_from([1, 20])), pool=pool)
    hand = draw(st.lists(st.sampled_from([SIMIAN, ELVISH, BEAR]), max_size=2))
    state = with_hand(state, *hand)
    syms = draw(st.lists(st.sampled_from(SYMBOLS), min_size=1, max_size=4))
    # The brute force does not compute keep_castable, whose default list is the hand.
    policies = [p for p in POLICIES if not hand or "keep_castable" not in p]
    policy = Policy(criteria=draw(st.sampled_from(policies)))
    spell = None
    if hand and draw(st.booleans()):  # casting a card of the hand: it is on the stack (601.2a)
        cast = draw(st.sampled_from(hand))
        spell = SpellInfo(types=frozenset(cast.type_line.types), colors=cast.colors, card=cast)
    return PaymentRequest(state, ManaCost.parse("".join(syms)), "you", policy=policy, spell=spell)


def describe(r: PaymentRequest) -> str:
    cards = [(p.id, p.card.name, p.controller, "tapped" if p.tapped else "", "sick" if p.sick else "")
             for p in r.state.battlefield]
    me = r.state.players[0]
    return (f"cost={r.cost.format()} policy={r.policy.criteria} pool={me.pool.format()} "
            f"hand={[c.name for c in me.hand]} {cards}")


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(requests())
def test_sacrifice_boards_cpsat_and_csp_agree_with_brute_force(r: PaymentRequest) -> None:
    """CP-SAT's payability and optimum (criteria recomputed from its payment by the brute
    force), the default queries, and the csp enumeration's list equal the brute force's; every
    payment passes validate."""
    assume(not build_supply(r.state, resources=True).excluded)
    assume(len(moves(r.state, "you")) <= MAX_SOURCES)  # the brute force's size limit
    b = brute(r, r.policy.criteria)
    # an enumeration cut short is cut by its limit (Phyrexian Altar: five colors per creature)
    assert_agrees_with_brute(r, describe(r), b, limit=500, validated=40, check_default=True, cut_by_limit=True)


TAP_PALETTE = [FOREST, SNOW_FOREST, ELVES, ELF, BEAR, SOL_RING, TREASURE, DRUM, HERITAGE_DRUID, BIRCHLORE,
               URZA, KCI, ORNITHOPTER]
TAPPERS = [HERITAGE_DRUID, BIRCHLORE, DRUM, URZA]


def test_tapping_boards_cpsat_and_csp_agree_with_brute_force() -> None:
    """The same agreement on boards with Springleaf Drum, Heritage Druid, Birchlore Rangers and
    Urza (costs that tap other permanents), Elves and artifacts to tap."""
    @settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(requests(palette=TAP_PALETTE, first=TAPPERS))
    def run(r: PaymentRequest) -> None:
        test_sacrifice_boards_cpsat_and_csp_agree_with_brute_force.hypothesis.inner_test(r)  # type: ignore[attr-defined]

    run()


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(requests(), requests(palette=TAP_PALETTE, first=TAPPERS)), st.data())
def test_validate_agrees_with_brute_force_on_sacrifices(r: PaymentRequest, data: Any) -> None:
    """validate says legal exactly when the brute force lists the payment (redundant activations
    included), on the brute force's own payments and on ones whose sacrificed or tapped
    permanent changed."""
    assume(not build_supply(r.state, resources=True).excluded)
    assume(len(moves(r.state, "you")) <= MAX_SOURCES)
    every = brute(r, ("min_sources",), irredundant=False)
    legal = {canon(p) for p in every.payments}
    base = sorted(every.payments, key=repr)
    if not base:
        return
    ids = [p.id for p in r.state.battlefield]
    for _ in range(3):
        p = data.draw(st.sampled_from(base))
        acts = list(p.activations)
        sac = [i for i, a in enumerate(acts) if a.sacrificed]
        taps = [i for i, a in enumerate(acts) if a.tapped]
        if sac and data.draw(st.booleans()):
            i = data.draw(st.sampled_from(sac))
            acts[i] = replace(acts[i], sacrificed=(data.draw(st.sampled_from(ids)),))
            p = replace(p, activations=tuple(acts))
        elif taps and data.draw(st.booleans()):
            i = data.draw(st.sampled_from(taps))
            swap = data.draw(st.integers(0, len(acts[i].tapped) - 1))
            changed = list(acts[i].tapped)
            changed[swap] = data.draw(st.sampled_from(ids))
            acts[i] = replace(acts[i], tapped=tuple(changed))
            p = replace(p, activations=tuple(acts))
        res = validate(r, p)
        assert res.legal == (canon(p) in legal), (res.problems, p.to_json(), describe(r))


def test_options_still_refuses_the_altar_rather_than_guess() -> None:
    """``options`` (another reader of the supply) does not model sacrifice costs: it lists the
    Altar as unsupported instead of counting it as repeatable {C}{C} without fodder limits."""
    from manasolver.solver.pools.options import options
    state = board(perm("alt", ASHNODS_ALTAR), perm("bear", BEAR), perm("f", FOREST))
    ans = options(state)
    assert [pid for pid, _ in ans.unsupported] == ["alt"]
    assert build_supply(state).excluded and not build_supply(state, resources=True).excluded


# -- snow per unit of mana (CR 107.4h): triggered mana from a nonsnow Aura is not snow ----------


def _db_card(name: str) -> Card:
    from manasolver.models.carddb import default_db
    return default_db().get(name)


def test_cr_107_4h_wild_growth_on_a_snow_forest_pays_g_not_s() -> None:
    """Snow-Covered Forest enchanted with Wild Growth taps for {G} (snow) + {G} (Wild Growth's,
    not snow): {S}{G} is payable by the one tap, {S}{S} is not."""
    state = board(perm("sf", _db_card("Snow-Covered Forest")),
                  perm("wg", _db_card("Wild Growth"), attached_to="sf"))
    p = paid(req(state, "{S}{G}"))
    assert [(a.permanent, a.mana) for a in p.activations] == [("sf", "{G}{G}")]
    assert not queries.can_pay(req(state, "{S}{S}")).payable
    assert not queries.can_pay(req(state, "{S}{S}"), backend="cpsat").payable
    listed, complete = csp.payments(req(state, "{S}{S}"))
    assert listed == [] and complete
    lie = Payment(total="{S}{S}", activations=(Activation("sf", 0, ("{T}",), "{G}{G}"),))
    res = validate(req(state, "{S}{S}"), lie)
    assert not res.legal


def test_cr_107_4h_mana_flare_on_a_snow_land_is_not_snow() -> None:
    """Mana Flare's extra mana has Mana Flare as its source (a nonsnow enchantment)."""
    state = board(perm("si", _db_card("Snow-Covered Island")), perm("mf", _db_card("Mana Flare")))
    assert queries.can_pay(req(state, "{S}{U}")).payable
    assert not queries.can_pay(req(state, "{S}{S}")).payable


def test_cr_107_4h_validate_tries_each_split_of_own_and_triggered_mana() -> None:
    """Arctic Treeline (snow, {G} or {W}) with Fertile Ground (one more mana of any color): a tap
    claiming {G}{W} is legal for {S}{W} (own {G} is the snow one) and for {S}{G} (own {W})."""
    state = board(perm("at", _db_card("Arctic Treeline")), perm("fg", _db_card("Fertile Ground"),
                                                                 attached_to="at"))
    for total in ("{S}{W}", "{S}{G}"):
        for ability in (0, 1):
            own = "{G}" if ability == 0 else "{W}"
            if (own == "{G}") != (total == "{S}{W}"):
                continue
            p = Payment(total=total, activations=(Activation("at", ability, ("{T}",), "{W}{G}"),))
            res = validate(req(state, total), p)
            assert res.legal, (total, ability, res.problems)
    assert not queries.can_pay(req(state, "{S}{S}")).payable
    assert queries.can_pay(req(state, "{S}{R}")).payable


SNOW_LANDS = ["Snow-Covered Forest", "Snow-Covered Island", "Arctic Treeline", "Forest", "Plains"]
AURAS = ["Wild Growth", "Fertile Ground"]


@st.composite
def snow_requests(draw: Any) -> PaymentRequest:
    lands = draw(st.lists(st.sampled_from(SNOW_LANDS), min_size=1, max_size=3))
    perms = [perm(f"l{i}", _db_card(n), tapped=draw(st.integers(0, 6)) == 0) for i, n in enumerate(lands)]
    for j, aura in enumerate(draw(st.lists(st.sampled_from(AURAS), max_size=2))):
        perms.append(perm(f"a{j}", _db_card(aura), attached_to=f"l{draw(st.integers(0, len(lands) - 1))}"))
    if draw(st.integers(0, 3)) == 0:
        perms.append(perm("mf", _db_card("Mana Flare")))
    syms = draw(st.lists(st.sampled_from(["{S}", "{S}", "{G}", "{W}", "{U}", "{1}", "{G/W}"]), min_size=1,
                         max_size=4))
    policy = Policy(criteria=draw(st.sampled_from(POLICIES)))
    return PaymentRequest(board(*perms), ManaCost.parse("".join(syms)), "you", policy=policy)


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(snow_requests())
def test_snow_per_unit_boards_agree_with_brute_force(r: PaymentRequest) -> None:
    """Snow lands with Wild Growth, Fertile Ground and Mana Flare: CP-SAT, the default queries and
    the csp enumeration agree with the brute force, and every payment passes validate (CR 107.4h)."""
    test_sacrifice_boards_cpsat_and_csp_agree_with_brute_force.hypothesis.inner_test(r)  # type: ignore[attr-defined]


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(snow_requests(), st.data())
def test_validate_agrees_with_brute_force_on_snow_per_unit(r: PaymentRequest, data: Any) -> None:
    """validate (which splits a snow land's own mana from Wild Growth's) says legal exactly when
    the brute force lists the payment, redundant activations included."""
    test_validate_agrees_with_brute_force_on_sacrifices.hypothesis.inner_test(r, data)  # type: ignore[attr-defined]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(requests(max_sources=3), requests(max_sources=3, palette=TAP_PALETTE, first=TAPPERS)))
def test_max_x_with_resource_costs_agrees_with_brute_force(r: PaymentRequest) -> None:
    """max_x (CP-SAT maximising X) equals the largest X the brute force can pay, with Altars,
    tapping costs and Spirit Guides on the board."""
    assume(not build_supply(r.state, resources=True).excluded)
    assume(len(moves(r.state, "you")) <= MAX_SOURCES)
    r = replace(r, cost=r.cost + ManaCost.parse("{X}"), x=None, policy=Policy(criteria=("min_sources",)))
    best = None
    for x in range(12):
        if brute(replace(r, x=x), ("min_sources",), enumerate_all=False).payable:
            best = x
    ans = queries.max_x(r)
    assert ans.max_x == best, (ans.to_json(), best, describe(r))
    if ans.payment is not None:
        res = validate(replace(r, x=ans.max_x), ans.payment)
        assert res.legal, res.problems


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(requests(), requests(palette=TAP_PALETTE, first=TAPPERS)))
def test_convoke_and_improvise_with_resource_costs_give_legal_payments(r: PaymentRequest) -> None:
    """With convoke and improvise allowed too (CR 702.51, 702.126; after the mana abilities,
    601.2h), every payment CP-SAT finds passes validate (no permanent tapped twice, none
    convoked after being sacrificed), and allowing them never makes a payable cost unpayable."""
    assume(not build_supply(r.state, resources=True).excluded)
    r2 = replace(r, convoke=True, improvise=True)
    ans = queries.pay(r2, backend="cpsat")
    if ans.payable:
        assert ans.payment is not None
        res = validate(r2, ans.payment)
        assert res.legal, (ans.payment.to_json(), res.problems, describe(r2))
    if queries.can_pay(r, backend="cpsat").payable:
        assert ans.payable, describe(r2)


def test_cr_602_2b_the_source_an_ability_sacrifices_is_not_altar_fodder() -> None:
    """Mind Stone's "{1}, {T}, Sacrifice Mind Stone: Draw a card.": its costs are paid in 601.2h,
    after the mana abilities, so Krark-Clan Ironworks can't sacrifice Mind Stone for the {1}
    (it would be gone); Ironworks may sacrifice itself instead."""
    from manasolver.solver.service.protocol import answer
    board_ = {"players": [{"name": "you"}], "battlefield": [{"id": "ms", "card": "Mind Stone"},
                                                           {"id": "k", "card": "Krark-Clan Ironworks"}]}
    query = {"state": board_, "spell": {"permanent": "ms", "ability": 0}}
    out = answer({"query": "pay", **query})
    assert out["payable"] is True, out
    assert [a["sacrificed"] for a in out["payment"]["activations"]] == [["k"]]
    cheat = {"total": "{1}", "activations": [{"permanent": "k", "ability": 0, "costs": list(KCI_COSTS),
                                              "mana": "{C}{C}", "sacrificed": ["ms"]}], "floating": "{C}"}
    out = answer({"query": "validate", **query, "payment": cheat})
    assert out["legal"] is False and any("ability being paid for" in p for p in out["problems"]), out
    alone = {"players": [{"name": "you"}], "battlefield": [{"id": "ms", "card": "Mind Stone"},
                                                          {"id": "a", "card": "Ashnod's Altar"}]}
    out = answer({"query": "can_pay", "state": alone, "spell": {"permanent": "ms", "ability": 0}})
    assert out["payable"] is False, out


def test_601_2a_keep_colors_counts_no_color_of_the_spirit_guide_being_cast() -> None:
    """CR 601.2a: casting one of two Simian Spirit Guides, the copy cast is on the stack, so it keeps
    no red. Exiling the other Guide for {1} loses red; tapping the Forest loses green (the pool's
    {G} pays the {G}): a tie on keep_colors that the brute force scores like the engine, and the
    engine's payment is as good as the brute force's best."""
    state = with_hand(board(perm("p0", FOREST), life=1, pool="{G}"), SIMIAN, SIMIAN)
    spell = SpellInfo(types=frozenset(SIMIAN.type_line.types), colors=SIMIAN.colors, card=SIMIAN)
    r = PaymentRequest(state, ManaCost.parse("{1}{G}"), "you", spell=spell,
                       policy=Policy(criteria=("keep_colors", "min_sources")))
    b = brute(r, r.policy.criteria)
    assert b.best_value == (1, 1)
    for backend in ("cpsat", None):
        ans = queries.pay(r, backend=backend)
        assert ans.payment is not None and value(ans.payment, r, r.policy.criteria) == (1, 1)
