"""Cost clauses read from the board's counts and the game's history this turn (CR 601.2f, 118.7):
the party (700.8), devotion (700.5), card types in a graveyard (delirium), the spells cast and
cards drawn this turn, the turn and step, the power of creatures; and the clauses that need what the
board does not hold, refused naming the card.  ``paid`` checks that ``validate`` accepts ``pay``'s
payment and that ``can_pay`` agrees."""

from __future__ import annotations

from cost_modifier_cases import board, paid, refused
from manasolver.solver.service.protocol import answer

BEARS = {"card": "Grizzly Bears"}
WURM = {"card": "Craw Wurm"}


def test_geyser_drake_reduces_only_during_other_players_turns() -> None:
    """Geyser Drake: "During turns other than yours, spells you cast cost {1} less to cast" (the
    card-text reader took "turns other than yours" for subtypes; it is read here)."""
    drake = {"card": "Geyser Drake"}
    assert paid(board(drake, active="opp"), "Think Twice") == "{U}"
    assert paid(board(drake), "Think Twice") == "{1}{U}"


def test_five_stages_of_grief_chapter_effect_refused_for_noncreature_spells_only() -> None:
    """The Five Stages of Grief: "Until your next turn, noncreature spells cost {2} more": whether
    the chapter resolved is not on the board."""
    state = board({"card": "The Five Stages of Grief", "controller": "opp"})
    assert "The Five Stages of Grief" in refused(state, "Divination")
    assert paid(state, "Craw Wurm") == "{4}{G}{G}"


def test_tazri_counts_the_party() -> None:
    """Tazri, Beacon of Unity (CR 700.8): a Cleric, a Rogue and a Wizard make a party of three;
    a second Cleric adds nothing."""
    state = board({"card": "Ondu Cleric"}, {"card": "Ondu Cleric"}, {"card": "Merfolk Looter"},
                  {"card": "Vadrik, Astral Archmage"})
    assert paid(state, "Tazri, Beacon of Unity") == "{1}{W}"


def test_molten_monstrosity_and_bolt_bend_read_power() -> None:
    """Molten Monstrosity ("{X} less, where X is the greatest power among creatures you control")
    and Bolt Bend ("{3} less if you control a creature with power 4 or greater")."""
    state = board(WURM, BEARS)
    assert paid(state, "Molten Monstrosity") == "{1}{R}"
    assert paid(state, "Bolt Bend") == "{R}"
    assert paid(board(BEARS), "Bolt Bend") == "{3}{R}"


def test_focus_the_mind_reads_spells_cast_this_turn() -> None:
    """Focus the Mind: "{2} less if you've cast another spell this turn"."""
    assert paid(board(you={"spells_cast_this_turn": 1}), "Focus the Mind") == "{2}{U}"
    assert paid(board(), "Focus the Mind") == "{4}{U}"


def test_demilich_needs_which_spells_were_cast() -> None:
    """Demilich: "{U} less for each instant and sorcery spell you've cast this turn": none cast,
    none; after one spell of an unknown kind, refused."""
    islands = [{"card": "Island"}] * 2
    assert paid(board(*islands), "Demilich") == "{U}{U}{U}{U}"
    assert "Demilich" in refused(board(you={"spells_cast_this_turn": 1}), "Demilich")


def test_deem_inferior_reads_cards_drawn_this_turn() -> None:
    """Deem Inferior: "{1} less for each card you've drawn this turn"."""
    assert paid(board(you={"cards_drawn_this_turn": 2}), "Deem Inferior") == "{1}{U}"


def test_marshmist_titan_reads_devotion_to_black() -> None:
    """Marshmist Titan: "{X} less, where X is your devotion to black" (CR 700.5): Dusk Feaster's {B}{B}."""
    assert paid(board({"card": "Dusk Feaster"}), "Marshmist Titan") == "{4}{B}"


def test_dusk_feaster_and_emrakul_read_card_types_in_the_graveyard() -> None:
    """Dusk Feaster (delirium: four or more card types) and Emrakul, the Promised End ("{1} less
    for each card type among cards in your graveyard")."""
    state = board(you={"graveyard": ["Grizzly Bears", "Forest", "Lightning Bolt", "Divination"]})
    assert paid(state, "Dusk Feaster") == "{3}{B}{B}"
    assert paid(state, "Emrakul, the Promised End") == "{9}"
    assert paid(board(you={"graveyard": ["Grizzly Bears", "Forest", "Lightning Bolt"]}), "Dusk Feaster") == \
        "{5}{B}{B}"


def test_rime_chill_counts_colors_among_your_permanents() -> None:
    """Rime Chill (vivid): Grizzly Bears and Serra Angel are two colors; lands none."""
    assert paid(board(BEARS, {"card": "Serra Angel"}), "Rime Chill") == "{4}{U}"


def test_arwens_gift_and_wizards_lightning_read_what_you_control() -> None:
    """Arwen's Gift (two or more legendary creatures), Wizard's Lightning ("if you control a Wizard")."""
    state = board({"card": "Tazri, Beacon of Unity"}, {"card": "Kadena, Slinking Sorcerer"})
    assert paid(state, "Arwen's Gift") == "{2}{U}"
    assert paid(state, "Wizard's Lightning") == "{R}"
    assert paid(board(BEARS), "Wizard's Lightning") == "{2}{R}"


def test_avatar_of_growth_and_capricious_hellraiser() -> None:
    """Avatar of Growth ("for each opponent you have"), Capricious Hellraiser (nine or more cards
    in your graveyard)."""
    assert paid(board(), "Avatar of Growth") == "{3}{G}{G}"
    assert paid(board(you={"graveyard": ["Forest"] * 9}), "Capricious Hellraiser") == "{R}{R}{R}"


def test_delightful_discovery_and_ertais_scorn_read_opponents_spells() -> None:
    """Delightful Discovery ("for each spell your opponents have cast this turn"), Ertai's Scorn
    ("{U} less if an opponent cast two or more spells this turn")."""
    state = board(opp={"spells_cast_this_turn": 2})
    assert paid(state, "Delightful Discovery") == "{2}{U}"
    assert paid(state, "Ertai's Scorn") == "{1}{U}"
    assert paid(board(opp={"spells_cast_this_turn": 1}), "Ertai's Scorn") == "{1}{U}{U}"


def test_closing_statement_during_your_end_step() -> None:
    """Closing Statement: "{2} less during your end step"."""
    assert paid(board(step="end"), "Closing Statement") == "{1}{W}{B}"
    assert paid(board(step="end", active="opp"), "Closing Statement") == "{3}{W}{B}"


def test_highspire_bell_ringer_second_spell_of_the_turn() -> None:
    """Highspire Bell-Ringer: "The second spell you cast each turn costs {1} less"; a plan of two
    spells is refused (its second cost would be read on the same board)."""
    ringer = {"card": "Highspire Bell-Ringer"}
    assert paid(board(ringer, you={"spells_cast_this_turn": 1}), "Craw Wurm") == "{3}{G}{G}"
    assert paid(board(ringer), "Craw Wurm") == "{4}{G}{G}"
    two = answer({"query": "plan", "state": board(ringer), "costs": [{"spell": WURM}, {"spell": BEARS}]})
    assert two["error"]["code"] == "unsupported" and "Highspire Bell-Ringer" in two["error"]["message"]


def test_magnus_the_red_counts_creature_tokens() -> None:
    """Magnus the Red: instants and sorceries cost {1} less for each creature token you control."""
    spawn = {"card": "Eldrazi Spawn", "token": True}
    assert paid(board({"card": "Magnus the Red"}, spawn, spawn), "Divination") == "{U}"


def test_vadrik_reads_its_power() -> None:
    """Vadrik, Astral Archmage: "{X} less, where X is ~'s power": 1 and two +1/+1 counters."""
    assert paid(board({"card": "Vadrik, Astral Archmage", "counters": {"+1/+1": 2}}), "Divination") == "{U}"


def test_ezzaroot_channeler_reads_life_gained() -> None:
    """Ezzaroot Channeler: creature spells cost {X} less, X the life you gained this turn."""
    state = board({"card": "Ezzaroot Channeler"}, you={"life_gained_this_turn": 3})
    assert paid(state, "Craw Wurm") == "{1}{G}{G}"


def test_gran_gran_counts_lesson_cards_in_the_graveyard() -> None:
    """Gran-Gran: noncreature spells cost {1} less with three or more Lesson cards in your graveyard."""
    lessons = ["Environmental Sciences", "Introduction to Prophecy", "Expanded Anatomy"]
    assert paid(board({"card": "Gran-Gran"}, you={"graveyard": lessons}), "Divination") == "{1}{U}"
    assert paid(board({"card": "Gran-Gran"}, you={"graveyard": lessons[:2]}), "Divination") == "{2}{U}"


def test_sokka_counts_allies_for_equipment_spells() -> None:
    """Sokka, Swordmaster: "Equipment spells you cast cost {1} less to cast for each Ally you control"."""
    state = board({"card": "Sokka, Swordmaster"}, {"card": "Ondu Cleric"})
    assert paid(state, "Loxodon Warhammer") == "{1}"
    assert paid(state, "Mind Stone") == "{2}"


def test_static_snare_and_swat_away_outside_combat() -> None:
    """Static Snare ("for each attacking creature") and Swat Away ("if a creature is attacking
    you"): no creature attacks in a main phase; during combat, refused."""
    assert paid(board(), "Static Snare") == "{4}{W}"
    assert paid(board(), "Swat Away") == "{2}{U}{U}"
    assert "attacking" in refused(board(step="declare_blockers"), "Static Snare")


def test_chitin_gravestalker_counts_artifact_and_creature_cards() -> None:
    """Chitin Gravestalker: "for each artifact and/or creature card in your graveyard"."""
    state = board(you={"graveyard": ["Mind Stone", "Grizzly Bears", "Forest"]})
    assert paid(state, "Chitin Gravestalker") == "{3}{B}"


def test_rakdos_and_temur_battlecrier_refused_only_where_they_apply() -> None:
    """Rakdos, Lord of Riots (life opponents lost this turn is not on the board) touches creature
    spells only; Temur Battlecrier ("During your turn, …") does nothing on another player's turn."""
    rakdos = board({"card": "Rakdos, Lord of Riots"})
    assert paid(rakdos, "Divination") == "{2}{U}"
    assert "Rakdos, Lord of Riots" in refused(rakdos, "Craw Wurm")
    assert paid(board({"card": "Temur Battlecrier"}, active="opp"), "Think Twice") == "{1}{U}"
    assert "Temur Battlecrier" in refused(board({"card": "Temur Battlecrier"}), "Think Twice")
