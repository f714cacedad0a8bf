""""~ has all activated abilities of …" (layer 6, CR 613.1f): the holder has the mana abilities of
those objects as its own, costs, conditions and amounts read on the holder (the rulings: an ability
naming its card names the holder).  Necrotic Ooze (creature cards in all graveyards), Experiment
Kraj (each other creature with a +1/+1 counter), Manascape Refractor (all lands on the battlefield,
its costs payable with mana of any color, CR 609.4b), Myr Welder, Dark Impostor and Mairsil (cards
exiled with them: ``imprinted``, a board field).  Every payment is checked by ``validate`` and, on the
request itself, against the brute force; what the engine does not apply is ``unsupported`` naming
the card, the clause or the missing field.
"""

from __future__ import annotations

from typing import Any

import pytest
from backends import assert_agrees_with_brute
from brute import brute
from cards import pay_validated
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from manasolver.models.board.load import load_state
from manasolver.models.cost import ManaCost
from manasolver.solver.service.protocol import answer
from manasolver.solver.request import PaymentRequest


def _board(*battlefield: str | dict[str, Any], graveyard: tuple[str, ...] = (),
           their_graveyard: tuple[str, ...] = ()) -> dict[str, Any]:
    """A board of players ``you`` and ``opp`` (ids ``p0``, ``p1``, … where none is given)."""
    entries = []
    for i, c in enumerate(battlefield):
        entry = dict(c) if isinstance(c, dict) else {"card": c}
        entry.setdefault("id", f"p{i}")
        entries.append(entry)
    return {"players": [{"name": "you", "graveyard": list(graveyard)},
                        {"name": "opp", "graveyard": list(their_graveyard)}],
            "battlefield": entries}


def _pay(state: dict[str, Any], cost: str) -> dict[str, Any]:
    """The protocol's ``pay`` (its payment given back to ``validate``), held against the brute force
    on the same request: payability, CP-SAT's and the default optimum, every payment listed."""
    out = pay_validated(state, cost)
    assert "error" not in out, out
    req = PaymentRequest(load_state(state), ManaCost.parse(cost), "you")
    b = brute(req, req.policy.criteria)
    assert b.payable is out["payable"], (out, b)
    assert_agrees_with_brute(req, f"{cost} on {state['battlefield']}", b, limit=200, validated=20, check_default=True)
    return out


def _taps(out: dict[str, Any]) -> list[tuple[str, int, str]]:
    return [(a["permanent"], a["ability"], a["mana"]) for a in out["payment"]["activations"]]


def _refused(state: dict[str, Any], cost: str, where: str, *words: str) -> None:
    out = answer({"query": "pay", "state": state, "cost": cost})
    assert out["error"]["code"] == "unsupported", out
    assert out["error"]["where"] == where, out
    for word in words:
        assert word in out["error"]["message"], (word, out)


# -- Necrotic Ooze: "As long as ~ is on the battlefield, it has all activated abilities of all
#    creature cards in all graveyards."


def test_necrotic_ooze_taps_for_llanowar_elves_in_a_graveyard() -> None:
    """Llanowar Elves ("{T}: Add {G}.") in either player's graveyard: the Ooze taps for {G}."""
    for mine, theirs in ((("Llanowar Elves",), ()), ((), ("Llanowar Elves",))):
        out = _pay(_board("Necrotic Ooze", graveyard=mine, their_graveyard=theirs), "{G}")
        assert out["payable"] and _taps(out) == [("p0", 0, "{G}")]
    assert _pay(_board("Necrotic Ooze"), "{G}")["payable"] is False


def test_necrotic_ooze_summoning_sick_cant_tap_for_it_without_haste() -> None:
    """CR 302.6: the {T} ability is the Ooze's own, so a summoning-sick Ooze can't use it; with haste
    it can."""
    sick = _board({"card": "Necrotic Ooze", "sick": True}, graveyard=("Llanowar Elves",))
    assert _pay(sick, "{G}")["payable"] is False
    hasty = _board({"card": "Necrotic Ooze", "sick": True, "haste": True}, graveyard=("Llanowar Elves",))
    assert _pay(hasty, "{G}")["payable"] is True


def test_necrotic_ooze_counts_elves_for_its_controller() -> None:
    """Elvish Archdruid's "{T}: Add {G} for each Elf you control." on the Ooze counts the Elves the
    Ooze's controller controls (two summoning-sick Elves: {G}{G}), not the opponent's."""
    state = _board("Necrotic Ooze", {"card": "Llanowar Elves", "sick": True},
                   {"card": "Llanowar Elves", "sick": True}, {"card": "Llanowar Elves", "controller": "opp"},
                   their_graveyard=("Elvish Archdruid",))
    out = _pay(state, "{G}{G}")
    assert out["payable"] and _taps(out) == [("p0", 0, "{G}{G}")]
    assert _pay(state, "{G}{G}{G}")["payable"] is False


def test_necrotic_ooze_removes_the_counters_from_itself() -> None:
    """Channeler Initiate's "{T}, Remove a -1/-1 counter from ~: Add one mana of any color." on the
    Ooze removes the Ooze's counters: none on it, no mana; two, {R}."""
    assert _pay(_board("Necrotic Ooze", graveyard=("Channeler Initiate",)), "{R}")["payable"] is False
    out = _pay(_board({"card": "Necrotic Ooze", "counters": {"-1/-1": 2}}, graveyard=("Channeler Initiate",)), "{R}")
    assert out["payable"] and out["payment"]["activations"][0]["costs"] == ["{T}", "remove 1 -1/-1 counter"]


def test_necrotic_ooze_refuses_heritage_druid_in_a_graveyard() -> None:
    """Heritage Druid's "Tap three untapped Elves you control: Add {G}{G}{G}." is read apart from
    the card's abilities, for the permanent that prints it: refused, naming the card in the
    graveyard."""
    _refused(_board("Necrotic Ooze", graveyard=("Heritage Druid",)), "{G}", "players[0].graveyard[0]",
             "Heritage Druid", "Tap three untapped Elves")


# -- Experiment Kraj: "~ has all activated abilities of each other creature with a +1/+1 counter
#    on it."


def test_experiment_kraj_has_the_abilities_of_creatures_with_a_counter() -> None:
    """An opponent's Llanowar Elves with a +1/+1 counter: Kraj taps for {G}; without the counter,
    nothing."""
    with_counter = _board("Experiment Kraj", {"card": "Llanowar Elves", "controller": "opp",
                                              "counters": {"+1/+1": 1}})
    out = _pay(with_counter, "{G}")
    assert out["payable"] and _taps(out) == [("p0", 0, "{G}")]
    assert _pay(_board("Experiment Kraj", {"card": "Llanowar Elves", "controller": "opp"}), "{G}")["payable"] is False
    # its own Elf with a counter: {G}{G} from the Elf and Kraj
    mine = _board("Experiment Kraj", {"card": "Llanowar Elves", "counters": {"+1/+1": 1}})
    assert _pay(mine, "{G}{G}")["payable"] is True


def test_experiment_kraj_beside_another_kraj_with_a_counter_is_refused() -> None:
    """Two Krajs with counters each have the other's abilities (a dependency loop, CR 613.8b): not
    followed, refused naming the other Kraj."""
    state = _board({"card": "Experiment Kraj", "counters": {"+1/+1": 1}},
                   {"card": "Experiment Kraj", "counters": {"+1/+1": 1}}, "Forest")
    _refused(state, "{G}", "battlefield[1]", "613.8")


# -- Manascape Refractor: "~ has all activated abilities of all lands on the battlefield." and
#    "You may spend mana as though it were mana of any color to pay the activation costs of ~'s
#    abilities."


def test_manascape_refractor_taps_as_any_land_on_the_battlefield() -> None:
    """Beside a tapped Forest and an opponent's Island, the Refractor taps for {G} or {U} (one of
    them: both cost {T}); tapped, for nothing."""
    state = _board("Manascape Refractor", {"card": "Forest", "tapped": True}, {"card": "Island", "controller": "opp"})
    for cost, mana in (("{G}", "{G}"), ("{U}", "{U}")):
        out = _pay(state, cost)
        assert out["payable"] and [(p, m) for p, _, m in _taps(out)] == [("p0", mana)], out
    assert _pay(state, "{G}{U}")["payable"] is False
    tapped = _board({"card": "Manascape Refractor", "tapped": True}, "Island")
    out = _pay(tapped, "{U}{U}")
    assert out["payable"] is False


def test_manascape_refractor_pays_a_filter_lands_cost_with_any_mana() -> None:
    """Mystic Gate's "{W/U}, {T}: Add {W}{W}, {W}{U}, or {U}{U}." on the Refractor: its {W/U} may
    be paid with a Swamp's {B} (CR 609.4b, mana spent as though it were white), so a tapped Gate
    and a Swamp pay {W}{W}; Mystic Gate's own cost can't take {B}."""
    state = _board("Manascape Refractor", {"card": "Mystic Gate", "tapped": True}, "Swamp")
    out = _pay(state, "{W}{W}")
    assert out["payable"], out
    assert sorted(p for p, _, _ in _taps(out)) == ["p0", "p2"]
    gate = _board("Mystic Gate", "Swamp")
    assert _pay(gate, "{W}{W}")["payable"] is False


def test_manascape_refractor_beside_city_of_brass_takes_no_damage() -> None:
    """City of Brass's damage is a trigger on its becoming tapped, not part of its ability: the
    Refractor's "{T}: Add one mana of any color." deals none."""
    out = _pay(_board("Manascape Refractor", {"card": "City of Brass", "tapped": True}), "{R}")
    assert out["payable"] and out["payment"]["damage"] == 0 and _taps(out)[0][0] == "p0"


def test_manascape_refractor_pays_its_controllers_life_and_takes_tomb_of_uramis_damage() -> None:
    """An opponent's Horizon Canopy ("{T}, Pay 1 life: Add {G} or {W}."): the Refractor's
    controller pays the life.  Tomb of Urami ("{T}: Add {B}. ~ deals 1 damage to you if you don't
    control an Ogre."): the Ogre is looked for among the Refractor's controller's permanents."""
    canopy = _board("Manascape Refractor", {"card": "Horizon Canopy", "tapped": True, "controller": "opp"})
    out = _pay(canopy, "{W}")
    assert out["payable"] and out["payment"]["life"] == 1
    tomb = {"card": "Tomb of Urami", "tapped": True, "controller": "opp"}
    assert _pay(_board("Manascape Refractor", tomb), "{B}")["payment"]["damage"] == 1
    theirs = _board("Manascape Refractor", tomb, {"card": "Gray Ogre", "controller": "opp"})
    assert _pay(theirs, "{B}")["payment"]["damage"] == 1
    mine = _board("Manascape Refractor", tomb, {"card": "Gray Ogre", "tapped": True})
    assert _pay(mine, "{B}")["payment"]["damage"] == 0


def test_manascape_refractor_has_what_chromatic_lantern_gives_lands() -> None:
    """CR 613.8a: the Refractor's effect depends on Chromatic Lantern's "Lands you control have
    "{T}: Add one mana of any color."" (applying it changes what the Refractor has), so the
    Refractor beside a Forest and a tapped Lantern taps for {U}."""
    state = _board("Manascape Refractor", {"card": "Forest", "tapped": True},
                   {"card": "Chromatic Lantern", "tapped": True})
    out = _pay(state, "{U}")
    assert out["payable"] and _taps(out)[0][0] == "p0"
    assert _pay(_board("Manascape Refractor", {"card": "Forest", "tapped": True}), "{U}")["payable"] is False


def test_manascape_refractor_refuses_reflecting_pool() -> None:
    """Reflecting Pool's "{T}: Add one mana of any type that a land you control could produce." on
    the Refractor would read what lands could produce for it (CR 106.7): refused, naming the Pool's
    clause."""
    _refused(_board("Manascape Refractor", "Reflecting Pool", "Forest"), "{G}", "battlefield[1]",
             "Reflecting Pool", "could produce")


# -- cards exiled with it: Myr Welder, Dark Impostor, Mairsil, the Pretender


def test_myr_welder_has_the_imprinted_sol_rings_ability() -> None:
    """Myr Welder with Sol Ring exiled with it ("{T}: Add {C}{C}."): {2} paid by tapping the Welder."""
    out = _pay(_board({"card": "Myr Welder", "imprinted": ["Sol Ring"]}), "{2}")
    assert out["payable"] and _taps(out) == [("p0", 0, "{C}{C}")]
    assert _pay(_board({"card": "Myr Welder", "imprinted": []}), "{2}")["payable"] is False


def test_myr_welder_without_imprinted_is_unsupported_naming_the_field() -> None:
    """The board field ``imprinted``: what it has depends on the cards exiled with it; without ``imprinted`` the answer
    says so, naming the field."""
    _refused(_board({"card": "Myr Welder"}, "Forest"), "{G}", "battlefield[0].imprinted", "imprinted")


@pytest.mark.parametrize("card", ["Dark Impostor", "Patchwork Crawler"])
def test_dark_impostor_has_only_the_creature_cards_abilities(card: str) -> None:
    """Dark Impostor, Patchwork Crawler: "all creature cards exiled with it": Llanowar Elves's {G},
    not Sol Ring's."""
    state = _board({"card": card, "imprinted": ["Llanowar Elves", "Sol Ring"]})
    out = _pay(state, "{G}")
    assert out["payable"] and _taps(out) == [("p0", 0, "{G}")]
    assert _pay(state, "{2}")["payable"] is False
    assert _pay(_board({"card": card, "imprinted": ["Sol Ring"]}), "{1}")["payable"] is False


def test_mairsil_activates_each_caged_ability_only_once_each_turn() -> None:
    """Mairsil, the Pretender with Pentad Prism caged ("Remove a charge counter from ~: Add one mana
    of any color.") and three charge counters: once each turn, so {1} but not {2}; the Prism itself
    with three counters pays {2}."""
    state = _board({"card": "Mairsil, the Pretender", "imprinted": ["Pentad Prism"], "counters": {"charge": 3}})
    out = _pay(state, "{1}")
    assert out["payable"] and [(p, a) for p, a, _ in _taps(out)] == [("p0", 0)]
    assert _pay(state, "{2}")["payable"] is False
    prism = answer({"query": "can_pay", "state": _board({"card": "Pentad Prism", "counters": {"charge": 3}}),
                    "cost": "{2}"})
    assert prism["payable"] is True


@pytest.mark.parametrize("card", ["Conspicuous Snoop", "Skill Borrower"])
def test_top_of_library_holders_without_a_library_are_unsupported(card: str) -> None:
    """Without the board's library the top card is unknown: refused, naming the field."""
    _refused(_board(card, "Forest"), "{G}", "players[0].library", "library")


def test_validate_accepts_an_activation_of_a_held_ability() -> None:
    """``validate`` reads the holder's abilities as the supply does: the Ooze's ability 0 is the
    Elf's; an ability index past them is refused."""
    state = _board("Necrotic Ooze", graveyard=("Llanowar Elves",))
    good = {"total": "{G}", "activations": [{"permanent": "p0", "ability": 0, "costs": ["{T}"], "mana": "{G}"}]}
    assert answer({"query": "validate", "state": state, "cost": "{G}", "payment": good})["legal"] is True
    bad = {"total": "{G}", "activations": [{"permanent": "p0", "ability": 1, "costs": ["{T}"], "mana": "{G}"}]}
    assert answer({"query": "validate", "state": state, "cost": "{G}", "payment": bad})["legal"] is False


# -- generated boards: the holders beside lands, creatures with counters and graveyard creatures

_HOLDERS = ("Necrotic Ooze", "Experiment Kraj", "Manascape Refractor")
_OTHERS = ("Forest", "Island", "Swamp", "Mystic Gate", "City of Brass", "Llanowar Elves", "Birds of Paradise",
           "Sol Ring")
_DEAD = ("Llanowar Elves", "Birds of Paradise", "Elvish Archdruid", "Grizzly Bears", "Sol Ring")


@st.composite
def _holder_boards(draw: st.DrawFn) -> tuple[dict[str, Any], str]:
    """A holder (sick, tapped or not) beside up to two other permanents of either player (a
    creature maybe with a +1/+1 counter), a graveyard of up to two cards, and a small cost."""
    holder: dict[str, Any] = {"card": draw(st.sampled_from(_HOLDERS)), "sick": draw(st.booleans()),
                              "tapped": draw(st.booleans())}
    others: list[dict[str, Any]] = []
    for _ in range(draw(st.integers(0, 2))):
        other: dict[str, Any] = {"card": draw(st.sampled_from(_OTHERS)), "tapped": draw(st.booleans()),
                                 "controller": draw(st.sampled_from(("you", "opp")))}
        if draw(st.booleans()):
            other["counters"] = {"+1/+1": 1}
        others.append(other)
    dead = tuple(draw(st.lists(st.sampled_from(_DEAD), max_size=2)))
    cost = draw(st.sampled_from(("{G}", "{U}", "{1}", "{W}{W}", "{2}", "{G}{G}", "{1}{R}")))
    return _board(holder, *others, graveyard=dead), cost


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_holder_boards())
def test_holder_boards_agree_with_brute_force(drawn: tuple[dict[str, Any], str]) -> None:
    """On generated boards with Necrotic Ooze, Experiment Kraj or Manascape Refractor, the pay
    answer, its validation, CP-SAT's and the default optimum and the listed payments equal the brute
    force's."""
    state, cost = drawn
    _pay(state, cost)
