"""Cost modifiers of permanents on the battlefield that need the board or the spell to read
(CR 601.2f: increases, then reductions; 118.7: a generic reduction reduces only generic mana).

Each test names its card; ``paid`` checks that ``validate`` accepts ``pay``'s payment and that
``can_pay`` agrees.  A modifier that can't apply to the spell applies as nothing; one whose amount
is on the board is computed from it; one that needs what the board and the query don't hold is
refused naming the card and its clause."""

from __future__ import annotations

from cost_modifier_cases import board, paid, refused
from manasolver.solver.service.protocol import answer


def test_kadena_face_down_reduction_does_nothing_for_a_face_up_spell() -> None:
    """Kadena: "The first face-down creature spell you cast each turn costs {3} less": every spell
    this engine casts is face up."""
    assert paid(board({"card": "Kadena, Slinking Sorcerer"}), "Craw Wurm") == "{4}{G}{G}"


def test_obscuring_aether_and_panoptic_projektor_do_nothing_face_up() -> None:
    """Obscuring Aether, Panoptic Projektor: face-down creature spells only."""
    state = board({"card": "Obscuring Aether"}, {"card": "Panoptic Projektor"})
    assert paid(state, "Craw Wurm") == "{4}{G}{G}"


def test_artificer_class_first_artifact_spell_of_the_turn() -> None:
    """Artificer Class: "The first artifact spell you cast each turn costs {1} less", read from
    spells_cast_this_turn: no spell yet, Mind Stone costs {1}."""
    assert paid(board({"card": "Artificer Class"}), "Mind Stone") == "{1}"


def test_artificer_class_after_a_spell_is_refused_for_an_artifact_only() -> None:
    """Artificer Class after one spell this turn: whether it was an artifact is not on the board."""
    state = board({"card": "Artificer Class"}, you={"spells_cast_this_turn": 1})
    message = refused(state, "Mind Stone")
    assert "Artificer Class" in message and "The first artifact spell" in message
    assert paid(state, "Craw Wurm") == "{4}{G}{G}"


def test_artificer_class_of_an_opponent_does_nothing() -> None:
    """Artificer Class: "you cast" is its controller."""
    assert paid(board({"card": "Artificer Class", "controller": "opp"}), "Mind Stone") == "{2}"


def test_artificer_class_plan_of_two_artifacts_is_refused() -> None:
    """Artificer Class in a plan: the second artifact spell is not the first of the turn."""
    state = board({"card": "Artificer Class"})
    two = answer({"query": "plan", "state": state,
                  "costs": [{"spell": {"card": "Mind Stone"}}, {"spell": {"card": "Mind Stone"}}]})
    assert two["error"]["code"] == "unsupported" and "Artificer Class" in two["error"]["message"]
    one = answer({"query": "plan", "state": state,
                  "costs": [{"spell": {"card": "Mind Stone"}}, {"spell": {"card": "Grizzly Bears"}}]})
    assert one["payable"] is True and [p["total"] for p in one["payments"]] == ["{1}", "{1}{G}"]


def test_heralds_horn_reduces_the_chosen_creature_type() -> None:
    """Herald's Horn: "Creature spells you cast of the chosen type cost {1} less" (chosen Elf)."""
    state = board({"card": "Herald's Horn", "chosen": {"type": "Elf"}})
    assert paid(state, "Elvish Archdruid") == "{G}{G}"
    assert paid(state, "Craw Wurm") == "{4}{G}{G}"


def test_heralds_horn_without_its_chosen_type_is_refused_naming_the_field() -> None:
    out = answer({"query": "pay", "state": board({"card": "Herald's Horn"}), "spell": {"card": "Craw Wurm"}})
    assert out["error"]["code"] == "unsupported" and out["error"]["where"].endswith("chosen.type")


def test_cloud_key_reduces_the_chosen_card_type() -> None:
    """Cloud Key: "choose artifact, creature, enchantment, instant, or sorcery"."""
    state = board({"card": "Cloud Key", "chosen": {"type": "Sorcery"}})
    assert paid(state, "Divination") == "{1}{U}"
    assert paid(state, "Mind Stone") == "{2}"


def test_cloud_key_with_a_creature_type_chosen_is_refused() -> None:
    """Cloud Key can't have chosen Elf: refused, never guessed."""
    assert "Cloud Key" in refused(board({"card": "Cloud Key", "chosen": {"type": "Elf"}}), "Mind Stone")


def test_warden_of_evos_isle_reduces_creature_spells_with_flying() -> None:
    """Warden of Evos Isle: "Creature spells with flying you cast cost {1} less"."""
    state = board({"card": "Warden of Evos Isle"})
    assert paid(state, "Serra Angel") == "{2}{W}{W}"
    assert paid(state, "Craw Wurm") == "{4}{G}{G}"


def test_fist_of_suns_alternative_cost_applies_only_when_asked() -> None:
    """Fist of Suns: an alternative cost (CR 118.9) is not a modifier of the mana cost."""
    assert paid(board({"card": "Fist of Suns"}), "Craw Wurm") == "{4}{G}{G}"


def test_monastery_siege_of_an_opponent_refuses_a_targeted_spell_only() -> None:
    """Monastery Siege (Dragons): "Spells your opponents cast that target you or a permanent you
    control cost {2} more": Lightning Bolt's target is not in the query; Craw Wurm has none."""
    state = board({"card": "Monastery Siege", "controller": "opp"})
    assert "Monastery Siege" in refused(state, "Lightning Bolt")
    assert paid(state, "Craw Wurm") == "{4}{G}{G}"
    assert paid(board({"card": "Monastery Siege"}), "Lightning Bolt") == "{R}"


def test_herald_of_war_counts_its_counters_for_angels_and_humans() -> None:
    """Herald of War: "Angel spells and Human spells you cast cost {1} less to cast for each
    +1/+1 counter on it"."""
    state = board({"card": "Herald of War", "counters": {"+1/+1": 2}})
    assert paid(state, "Serra Angel") == "{1}{W}{W}"
    assert paid(state, "Craw Wurm") == "{4}{G}{G}"


def test_jubilant_skybonder_of_an_opponent_refuses_a_targeted_spell_only() -> None:
    """Jubilant Skybonder: its fliers have "Spells your opponents cast that target this creature
    cost {2} more to cast"."""
    state = board({"card": "Jubilant Skybonder", "controller": "opp"})
    assert "Jubilant Skybonder" in refused(state, "Lightning Bolt")
    assert paid(state, "Craw Wurm") == "{4}{G}{G}"
    assert paid(board({"card": "Jubilant Skybonder"}), "Lightning Bolt") == "{R}"


def test_mizzix_needs_experience_counters_for_instants_and_sorceries_only() -> None:
    """Mizzix of the Izmagnus: players' experience counters are not on the board."""
    state = board({"card": "Mizzix of the Izmagnus"})
    assert "experience" in refused(state, "Divination")
    assert paid(state, "Craw Wurm") == "{4}{G}{G}"


def test_will_kenrith_effect_is_refused_for_the_spells_it_names_only() -> None:
    """Will Kenrith's −2 effect exists only if the ability was activated, which the board doesn't say."""
    state = board({"card": "Will Kenrith", "counters": {"loyalty": 4}})
    assert "Will Kenrith" in refused(state, "Divination")
    assert paid(state, "Craw Wurm") == "{4}{G}{G}"


def test_seal_of_the_guildpact_colorless_spell_is_not_reduced() -> None:
    """Seal of the Guildpact: "for each of the chosen colors it is": a colorless spell is none;
    a colored one needs the two chosen colors, the board holds one."""
    state = board({"card": "Seal of the Guildpact", "chosen": {"color": "G"}})
    assert paid(state, "Mind Stone") == "{2}"
    assert "two colors" in refused(state, "Craw Wurm")


def test_goreclaw_reduces_creature_spells_with_power_four_or_more() -> None:
    """Goreclaw, Terror of Qal Sisma: "Creature spells you cast with power 4 or greater cost {2} less"."""
    state = board({"card": "Goreclaw, Terror of Qal Sisma"})
    assert paid(state, "Craw Wurm") == "{2}{G}{G}"
    assert paid(state, "Elvish Archdruid") == "{1}{G}{G}"


def test_sage_of_the_beyond_reads_the_zone_cast_from() -> None:
    """Sage of the Beyond: "Spells you cast from anywhere other than your hand cost {2} less":
    from hand nothing, flashback from the graveyard {2} off; not in hand, refused."""
    state = board({"card": "Sage of the Beyond"}, you={"hand": ["Craw Wurm"], "graveyard": ["Think Twice"]})
    assert paid(state, "Craw Wurm") == "{4}{G}{G}"
    assert paid(state, "Think Twice", alternative="flashback") == "{U}"
    assert "zone" in refused(state, "Serra Angel")


def test_gravebreaker_lamia_reduces_spells_cast_from_the_graveyard() -> None:
    """Gravebreaker Lamia: "Spells you cast from your graveyard cost {1} less"."""
    state = board({"card": "Gravebreaker Lamia"}, you={"hand": ["Think Twice"], "graveyard": ["Think Twice"]})
    assert paid(state, "Think Twice", alternative="flashback") == "{1}{U}"
    assert paid(state, "Think Twice") == "{1}{U}"


def test_elderwood_scion_and_pursued_whale_targets_refused_only_when_the_spell_targets() -> None:
    """Elderwood Scion ("Spells you cast that target ~ cost {2} less"), Pursued Whale (opponents'
    spells that target it cost {3} more): a spell without a target is not touched."""
    state = board({"card": "Elderwood Scion"}, {"card": "Pursued Whale", "controller": "opp"})
    assert paid(state, "Craw Wurm") == "{4}{G}{G}"
    assert paid(state, "Divination") == "{2}{U}"
    message = refused(state, "Lightning Bolt")
    assert "Elderwood Scion" in message and "targets" in message


def test_myth_unbound_refuses_the_commander_only() -> None:
    """Myth Unbound: how often the commander was cast is not on the board."""
    state = board({"card": "Myth Unbound"}, you={"commander": ["Craw Wurm"]})
    assert "Myth Unbound" in refused(state, "Craw Wurm")
    assert paid(state, "Serra Angel") == "{3}{W}{W}"


def test_the_ur_dragon_on_the_battlefield_reduces_dragon_spells() -> None:
    """The Ur-Dragon's eminence, on the battlefield: other Dragon spells you cast cost {1} less."""
    state = board({"card": "The Ur-Dragon"})
    assert paid(state, "Shivan Dragon") == "{3}{R}{R}"
    assert paid(state, "Craw Wurm") == "{4}{G}{G}"


def test_hamza_reduces_creature_spells_for_each_creature_with_a_counter() -> None:
    """Hamza, Guardian of Arashin: "Creature spells you cast cost {1} less to cast for each
    creature you control with a +1/+1 counter on it"."""
    state = board({"card": "Hamza, Guardian of Arashin"}, {"card": "Grizzly Bears", "counters": {"+1/+1": 1}},
                  {"card": "Grizzly Bears", "counters": {"+1/+1": 2}})
    assert paid(state, "Craw Wurm") == "{2}{G}{G}"
    assert paid(state, "Divination") == "{2}{U}"


def test_a_spells_own_clause_on_the_battlefield_does_nothing() -> None:
    """Embercleave on the battlefield: "This spell costs …" works only while it is cast."""
    assert paid(board({"card": "Embercleave"}, {"card": "Blaster Hulk"}), "Craw Wurm") == "{4}{G}{G}"


def test_a_permanents_static_clause_does_nothing_on_the_stack() -> None:
    """Herald's Horn being cast: its reduction works only on the battlefield (CR 113.6)."""
    assert paid(board(), "Herald's Horn") == "{3}"


def test_rooftop_storm_alternative_cost_applies_only_when_asked() -> None:
    """Rooftop Storm: "You may pay {0} rather than pay the mana cost for Zombie creature spells"."""
    assert paid(board({"card": "Rooftop Storm"}), "Craw Wurm") == "{4}{G}{G}"


def test_the_ur_dragon_in_the_command_zone_reduces_dragon_spells() -> None:
    """The Ur-Dragon's eminence works in the command zone: a commander not on the battlefield, in
    hand or in the graveyard is read as there (CR 903.9); cast itself, it is on the stack."""
    state = board(you={"commander": ["The Ur-Dragon"]})
    assert paid(state, "Shivan Dragon") == "{3}{R}{R}"
    assert paid(state, "The Ur-Dragon") == "{4}{W}{U}{B}{R}{G}"
    in_hand = board(you={"commander": ["The Ur-Dragon"], "hand": ["The Ur-Dragon"]})
    assert paid(in_hand, "Shivan Dragon") == "{4}{R}{R}"
    theirs = board(opp={"commander": ["The Ur-Dragon"]})
    assert paid(theirs, "Shivan Dragon") == "{4}{R}{R}"
    cast = board({"card": "The Ur-Dragon"}, you={"commander": ["The Ur-Dragon"]})
    assert paid(cast, "Shivan Dragon") == "{3}{R}{R}"  # on the battlefield, counted once


def test_changeling_spell_has_the_chosen_creature_type() -> None:
    """Chameleon Colossus (changeling, CR 702.73a) is an Elf for Herald's Horn and a Goblin for
    Goblin Warchief's "Goblin spells you cast cost {1} less"."""
    assert paid(board({"card": "Herald's Horn", "chosen": {"type": "Elf"}}), "Chameleon Colossus") == "{1}{G}{G}"
    assert paid(board({"card": "Goblin Warchief"}), "Chameleon Colossus") == "{1}{G}{G}"
