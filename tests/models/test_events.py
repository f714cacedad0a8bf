"""Events that change a board: entering with its triggers, steps, intervening "if" (CR 603).

Vectors T23, T24 (603.4), T46 (106.4, 500.4), T47 and T51 (702.176a; landfall on a token),
T120 and T121 (605.5a) with the engine's inputs: board JSON through
:func:`manasolver.models.board.load.load_state` and real card data.  Nissa, Worldsoul Speaker is
newer than the bundled data and is given inline with the oracle text quoted here.
"""

from __future__ import annotations

from typing import Any

import pytest
from manasolver.models.board.load import load_state
from manasolver.models.errors import (
    BadCost,
    BadQuery,
    BadState,
    UnknownCard,
    Unsupported,
)
from manasolver.models.rules.events import (
    advance_step,
    enter,
    intervening_if,
    wins_at_upkeep,
)
from manasolver.models.state import Permanent

NISSA = {"name": "Nissa, Worldsoul Speaker", "type_line": "Legendary Creature — Elf Druid",
         "mana_cost": "{3}{G}",
         "oracle_text": "Landfall — Whenever a land you control enters, you get {E}{E}.\n"
                        "You may pay eight {E} rather than pay the mana cost for permanent spells you cast."}


def board(*perms: Any, **you: Any) -> Any:
    """A two-player board; ``perms`` are card names or permanent objects (ids p0, p1, …)."""
    field = []
    for i, p in enumerate(perms):
        obj = {"card": p} if isinstance(p, str) else dict(p)
        obj.setdefault("id", f"p{i}")
        field.append(obj)
    return load_state({"players": [{"name": "you", **you}, {"name": "opp"}], "battlefield": field})


# -- T51, T47: Overlord of the Hauntwoods for impending, Nissa's landfall ---------------------------


def test_t51_nissa_gains_two_energy_when_impending_overlord_makes_everywhere() -> None:
    """T51 (Lotus Cobra landfall ruling 2009-10-01; 702.176a): Nissa, Worldsoul Speaker on the
    battlefield; Overlord of the Hauntwoods enters cast for impending: its ETB creates a tapped
    Everywhere token, a land entering under P's control, so Nissa gives {E}{E}."""
    result = enter(board(NISSA), "Overlord of the Hauntwoods", cast_for="impending")
    state = result.state
    assert state.player("you").energy == 2 and result.energy_gained() == 2
    assert result.energy_by_source() == {"p0": 2}
    overlord, everywhere = result.entered()
    # T47: four time counters, a noncreature enchantment while impending (702.176a)
    assert overlord.counter("time") == 4 and not overlord.is_creature and "enchantment" in overlord.types
    assert everywhere.card.name == "Everywhere" and everywhere.token and everywhere.tapped
    assert everywhere.is_land and everywhere.controller == "you"
    kinds = [(h.kind, h.source) for h in result.happened]
    assert kinds == [("enters", ""), ("enters", overlord.id), ("energy", "p0")]
    assert result.complete


def test_t51_landfall_only_for_lands_you_control() -> None:
    """Landfall ("a land you control enters"): the opponent's Forest gives Nissa nothing; P's
    Forest gives {E}{E}; Nissa entering herself is no land."""
    state = board(NISSA)
    assert enter(state, "Forest", player="opp").state.player("you").energy == 0
    assert enter(state, "Forest").state.player("you").energy == 2
    alone = board()
    nissa = load_state({"players": [{"name": "you"}], "battlefield": [{"id": "n", **NISSA}]}).battlefield[0]
    assert enter(alone, nissa).state.player("you").energy == 0


def test_overlord_cast_normally_is_a_creature_and_still_makes_everywhere() -> None:
    """CR 702.176a: without impending it has no time counters and is a creature; its ETB still
    creates the tapped Everywhere; two Nissas give four energy."""
    result = enter(board(NISSA, dict(NISSA, name="Nissa Copy")), "Overlord of the Hauntwoods")
    overlord = result.entered()[0]
    assert overlord.is_creature and overlord.counter("time") == 0 and overlord.summoning_sick
    assert result.state.player("you").energy == 4


def test_given_permanent_keeps_its_id_and_gets_its_time_counters() -> None:
    """A Permanent given with cast_for "impending" enters with its N time counters (702.176a)."""
    from manasolver.models.carddb import default_db
    card = default_db().get("Overlord of the Hauntwoods")
    result = enter(board(NISSA), Permanent("ov", card, "you", cast_for="impending"))
    assert result.state.permanent("ov").counter("time") == 4
    assert result.state.player("you").energy == 2


# -- T120, T121: mana from triggers uses the stack --------------------------------------------------


def test_t120_lotus_cobra_mana_is_a_choice_reported_not_made() -> None:
    """T120 (605.5a; ruling 2017-11-17): Lotus Cobra's landfall goes on the stack when a land
    enters; "one mana of any color" is the player's choice, so it is reported, the pool unchanged."""
    result = enter(board("Lotus Cobra"), "Forest")
    assert result.state.player("you").pool.format() == ""
    (unresolved,) = result.unresolved
    assert unresolved.source == "p0" and "any color" in unresolved.text and "chooses" in unresolved.reason


def test_t120_lotus_cobra_with_the_players_choice() -> None:
    """T120: with the color chosen (``choices``), the trigger's mana goes to the pool as it
    resolves; a choice the trigger can't make is an error, not a guess."""
    result = enter(board("Lotus Cobra"), "Forest", choices={"p0": "{G}"})
    assert result.state.player("you").pool.format() == "{G}" and result.complete
    for bad in ("{C}", "{G}{G}", "{2}", "{W/U}", "G"):
        with pytest.raises((BadQuery, BadCost)):
            enter(board("Lotus Cobra"), "Forest", choices={"p0": bad})


def test_t121_burning_tree_emissary_adds_rg_when_its_trigger_resolves() -> None:
    """T121 (605.5a; ruling 2017-03-14): Burning-Tree Emissary's ETB is a trigger: its {R}{G}
    goes to the pool when it resolves, after the Emissary entered."""
    result = enter(board(), "Burning-Tree Emissary")
    assert result.state.player("you").pool.format() == "{R}{G}"
    assert [h.kind for h in result.happened] == ["enters", "mana"] and result.complete


# -- more effects ---------------------------------------------------------------------------------


def test_enters_tapped_and_gains_life() -> None:
    """Wind-Scarred Crag: "enters the battlefield tapped" (614.1c) and "When ~ enters the
    battlefield, you gain 1 life."; it is a land, so Nissa's landfall gives {E}{E} too."""
    result = enter(board(NISSA), "Wind-Scarred Crag")
    crag = result.entered()[0]
    assert crag.tapped and result.state.player("you").life == 21 and result.state.player("you").energy == 2


def test_conditional_enters_tapped_is_reported() -> None:
    """"Woodland Cemetery enters the battlefield tapped unless you control a Swamp or a Forest."
    is not guessed: the tapped state is as given and the clause is reported."""
    result = enter(board(), "Woodland Cemetery")
    assert not result.entered()[0].tapped and len(result.unresolved) == 1


def test_treasure_token_from_wily_goblin() -> None:
    """"When Wily Goblin enters the battlefield, create a Treasure token.": an untapped Treasure
    artifact token; a Treasure is no land, so no landfall."""
    result = enter(board(NISSA), "Wily Goblin")
    _, treasure = result.entered()
    assert treasure.card.name == "Treasure" and treasure.token and not treasure.tapped
    assert treasure.is_artifact and result.state.player("you").energy == 0


def test_energy_etb_of_real_card() -> None:
    """Voltaic Brawler: "When Voltaic Brawler enters the battlefield, you get {E}{E}."; its attack
    trigger does not trigger on entering, so nothing is unresolved."""
    result = enter(board(), "Voltaic Brawler")
    assert result.state.player("you").energy == 2 and result.complete


def test_a_trigger_loop_is_refused_not_run_forever() -> None:
    """A land whose landfall makes a land token triggers itself without end: refused."""
    looping = {"name": "Test Loop", "type_line": "Land",
               "oracle_text": "Whenever a land you control enters, create a tapped colorless land token "
                              "named Everywhere that is every basic land type."}
    with pytest.raises(Unsupported):
        enter(board(), load_state({"players": [{"name": "you"}],
                                   "battlefield": [{"id": "loop", **looping}]}).battlefield[0])


def test_bad_input_is_an_error_not_a_traceback() -> None:
    state = board("Forest")
    with pytest.raises(UnknownCard):
        enter(state, "Forrest of Doom")
    with pytest.raises(BadState):
        enter(state, state.battlefield[0])  # already there
    with pytest.raises(BadState):
        enter(state, "Forest", cast_for="impending")
    with pytest.raises(BadQuery):
        enter(state, "Forest", player="nobody")
    with pytest.raises(BadQuery):
        enter(state, "Overlord of the Hauntwoods", cast_for="kicker")


# -- T46: steps empty mana pools and keep energy -----------------------------------------------------


def test_t46_energy_survives_to_the_end_step_and_mana_does_not() -> None:
    """T46 (CR 106.4, 500.4; energy ruling 2017-02-09): P gets {E}{E} in the precombat main phase
    (Nissa's landfall), with {R}{G} floating (Burning-Tree Emissary); at the end step the energy
    is still 2 and the pools are empty."""
    state = board(NISSA, pool="{C}")
    state = enter(state, "Forest").state
    state = enter(state, "Burning-Tree Emissary").state
    assert state.player("you").pool.format() == "{C}{R}{G}" and state.player("you").energy == 2
    for step in ("beginning_of_combat", "main2", "end"):
        state = advance_step(state, step)
    assert state.turn.step == "end"
    assert state.player("you").energy == 2 and state.player("you").pool.format() == ""
    assert all(not p.pool for p in state.players)


def test_advance_step_checks_its_input() -> None:
    state = board(pool="{R}")
    assert advance_step(state, "main1") is state  # the same step: nothing ends
    with pytest.raises(BadQuery):
        advance_step(state, "second main")
    with pytest.raises(Unsupported):  # Upwelling keeps unspent mana: not modelled, refused
        advance_step(board("Upwelling", pool="{R}"), "end")
    assert advance_step(board("Upwelling"), "end").turn.step == "end"  # nothing to lose


# -- T23, T24: Happily Ever After's intervening "if" ------------------------------------------------

# Happily Ever After (enchantment) + Reaper King (artifact creature, five colors) + Forest (land),
# graveyard Lightning Bolt (instant) and Divination (sorcery): six card types, five colors.
def _hea(life: int = 20, graveyard: tuple[str, ...] = ("Lightning Bolt", "Divination")) -> Any:
    return board("Happily Ever After", "Reaper King", "Forest", life=life, graveyard=list(graveyard))


def test_t23_happily_ever_after_life_drops_before_resolution_no_win() -> None:
    """T23 (CR 603.4; ruling 2019-10-04): every condition holds as P's upkeep begins, so it
    triggers; P's life drops below the starting life before it resolves: it does nothing."""
    begin, later = _hea(), _hea(life=19)
    outcome = intervening_if(begin, later, "p0")
    assert outcome.triggers is True and outcome.resolves is False and outcome.failed == ("life",)
    assert wins_at_upkeep(begin, later) is False
    assert wins_at_upkeep(begin, begin) is True


def test_t24_happily_ever_after_sixth_type_in_response_does_not_trigger() -> None:
    """T24 (CR 603.4; ruling): only five card types as the upkeep begins (no sorcery in the
    graveyard); a sixth appearing in response changes nothing: it never triggered."""
    begin, later = _hea(graveyard=("Lightning Bolt",)), _hea()
    outcome = intervening_if(begin, later, "p0")
    assert outcome.triggers is False and outcome.resolves is False and outcome.failed == ("six_card_types",)
    assert wins_at_upkeep(begin, later) is False


def test_happily_ever_after_only_in_its_controllers_upkeep() -> None:
    """"At the beginning of your upkeep": in the opponent's turn it does not trigger."""
    raw = {"players": [{"name": "you", "graveyard": ["Lightning Bolt", "Divination"]}, {"name": "opp"}],
           "turn": {"active": "opp", "step": "upkeep"},
           "battlefield": [{"id": "h", "card": "Happily Ever After"}, {"id": "r", "card": "Reaper King"},
                           {"id": "f", "card": "Forest"}]}
    state = load_state(raw)
    assert intervening_if(state, state, "h").triggers is False
    with pytest.raises(BadQuery):
        intervening_if(state, state, "f")  # a Forest has no upkeep trigger


def test_module_examples_run() -> None:
    """The examples in events.py and triggers.py run."""
    import doctest

    from manasolver.models.rules import events
    from manasolver.models.text import triggers

    for module in (events, triggers):
        result = doctest.testmod(module)
        assert result.failed == 0 and result.attempted > 0, module.__name__


# -- Auras that punish tapping (CR 603.2) --------------------------------------------------------


def test_auras_on_a_land_cost_life_when_it_becomes_tapped() -> None:
    """Contaminated Ground ("Whenever enchanted land becomes tapped, its controller loses 2 life.")
    and Psychic Venom ("… deals 2 damage to that land's controller.") on one Forest: tapping it
    costs 4; an unenchanted Forest costs nothing; City of Brass's own 1 is already on its {T}
    ability and counts here only with include_self."""
    raw = {"players": [{"name": "you"}, {"name": "opp"}],
           "battlefield": [{"id": "f", "card": "Forest"}, {"id": "g", "card": "Forest"},
                           {"id": "cg", "card": "Contaminated Ground", "controller": "opp", "attached_to": "f"},
                           {"id": "pv", "card": "Psychic Venom", "controller": "opp", "attached_to": "f"},
                           {"id": "cb", "card": "City of Brass"}]}
    from manasolver.models.rules.events import damage_when_tapped
    state = load_state(raw)
    hurt = damage_when_tapped(state, "f")
    assert (hurt.amount, hurt.sources, hurt.unresolved) == (4, ("cg", "pv"), ())
    assert damage_when_tapped(state, "g").amount == 0
    assert damage_when_tapped(state, "cb").amount == 0
    assert damage_when_tapped(state, "cb", include_self=True).amount == 1
    with pytest.raises(BadQuery):
        damage_when_tapped(state, "nothing")


def test_unread_tap_triggers_are_reported() -> None:
    """Seizures ("… unless that player pays {3}") and Royal Decree (a Mountain becoming tapped)
    are not guessed: reported with their text."""
    raw = {"players": [{"name": "you"}, {"name": "opp"}],
           "battlefield": [{"id": "m", "card": "Mountain"}, {"id": "rd", "card": "Royal Decree",
                                                            "controller": "opp"}]}
    from manasolver.models.rules.events import damage_when_tapped
    hurt = damage_when_tapped(load_state(raw), "m")
    assert hurt.amount == 0 and [u.source for u in hurt.unresolved] == ["rd"]
    raw["battlefield"] = [{"id": "e", "card": "Llanowar Elves"},
                          {"id": "sz", "card": "Seizures", "controller": "opp", "attached_to": "e"}]
    hurt = damage_when_tapped(load_state(raw), "e")
    assert hurt.amount == 0 and [u.source for u in hurt.unresolved] == ["sz"]
    assert "unless that player pays" in hurt.unresolved[0].reason
