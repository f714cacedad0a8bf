"""A spell's own cost clauses whose amount is on the board (CR 601.2f, 118.7; affinity 702.41):
counted from the permanents, the graveyards, the life gained and the step, or refused naming the
card and the clause when neither the board nor the query holds it.  ``paid`` checks that
``validate`` accepts ``pay``'s payment and that ``can_pay`` agrees."""

from __future__ import annotations

from cost_modifier_cases import board, paid, refused
from manasolver.solver.service.protocol import answer

BEARS = {"card": "Grizzly Bears"}


def test_embercleave_outside_combat_costs_its_mana_cost() -> None:
    """Embercleave: "{1} less for each attacking creature you control": no creature attacks in a
    main phase (CR 506.4)."""
    assert paid(board(BEARS, BEARS), "Embercleave") == "{4}{R}{R}"


def test_embercleave_during_combat_is_refused_naming_the_clause() -> None:
    """Embercleave in the declare blockers step: which creatures attack is not on the board."""
    message = refused(board(BEARS, step="declare_blockers"), "Embercleave")
    assert "Embercleave" in message and "attacking creature" in message


def test_primeval_protector_counts_the_opponents_creatures() -> None:
    """Primeval Protector: "{1} less for each creature your opponents control"."""
    theirs = {"card": "Grizzly Bears", "controller": "opp"}
    assert paid(board(theirs, theirs, theirs, BEARS), "Primeval Protector") == "{7}{G}"


def test_walking_skyscraper_counts_modified_creatures() -> None:
    """Walking Skyscraper (CR 700.9): a creature with a counter, one equipped, one enchanted by an
    Aura its controller controls are modified; one with an opponent's Aura is not."""
    state = board({"id": "a", **BEARS, "counters": {"+1/+1": 1}}, {"id": "b", **BEARS}, {"id": "c", **BEARS},
                  {"id": "d", **BEARS},
                  {"card": "Bonesplitter", "attached_to": "b"}, {"card": "Rancor", "attached_to": "c"},
                  {"card": "Pacifism", "attached_to": "d", "controller": "opp"})
    assert paid(state, "Walking Skyscraper") == "{5}"


def test_hamza_counts_creatures_with_counters_for_itself() -> None:
    """Hamza, Guardian of Arashin: "This spell costs {1} less … for each creature you control with
    a +1/+1 counter on it"."""
    state = board({**BEARS, "counters": {"+1/+1": 1}}, {**BEARS, "counters": {"+1/+1": 1}}, BEARS)
    assert paid(state, "Hamza, Guardian of Arashin") == "{2}{W}{G}"


def test_yuma_and_rumbleweed_count_land_cards_in_the_graveyard() -> None:
    """Yuma, Proud Protector and Rumbleweed: "{1} less for each land card in your graveyard"."""
    state = board(you={"graveyard": ["Forest", "Island", "Lightning Bolt", "Evolving Wilds"]})
    assert paid(state, "Yuma, Proud Protector") == "{2}{W}{R}{G}"
    assert paid(state, "Rumbleweed") == "{7}{G}"


def test_karador_counts_creature_cards_in_the_graveyard() -> None:
    """Karador, Ghost Chieftain: "{1} less for each creature card in your graveyard"."""
    state = board(you={"graveyard": ["Grizzly Bears", "Craw Wurm", "Forest"]})
    assert paid(state, "Karador, Ghost Chieftain") == "{3}{W}{B}{G}"


def test_bedlam_reveler_counts_instants_and_sorceries_in_the_graveyard() -> None:
    """Bedlam Reveler: "{1} less for each instant and sorcery card in your graveyard"."""
    state = board(you={"graveyard": ["Lightning Bolt", "Divination", "Grizzly Bears"]})
    assert paid(state, "Bedlam Reveler") == "{4}{R}{R}"


def test_oskar_counts_different_mana_values_in_the_graveyard() -> None:
    """Oskar, Rubbish Reclaimer: mana values 1, 3, 3 and 0 are three different ones."""
    state = board(you={"graveyard": ["Lightning Bolt", "Divination", "Serra Angel", "Forest"]})
    assert paid(state, "Oskar, Rubbish Reclaimer") == "{U}{B}"


def test_avatar_of_woe_counts_creature_cards_in_all_graveyards() -> None:
    """Avatar of Woe: ten or more creature cards in all graveyards, {6} less; nine, none."""
    state = board(you={"graveyard": ["Grizzly Bears"] * 5}, opp={"graveyard": ["Craw Wurm"] * 5})
    assert paid(state, "Avatar of Woe") == "{B}{B}"
    state = board(you={"graveyard": ["Grizzly Bears"] * 5}, opp={"graveyard": ["Craw Wurm"] * 4})
    assert paid(state, "Avatar of Woe") == "{6}{B}{B}"


def test_octavia_counts_eight_instants_and_sorceries() -> None:
    """Octavia, Living Thesis: "{8} less … if you have eight or more instant and/or sorcery cards"."""
    state = board(you={"graveyard": ["Lightning Bolt"] * 4 + ["Divination"] * 4})
    assert paid(state, "Octavia, Living Thesis") == "{U}{U}"


def test_licia_reads_the_life_gained_this_turn() -> None:
    """Licia, Sanguine Tribune: "{1} less for each 1 life you gained this turn"; not given, refused."""
    assert paid(board(you={"life_gained_this_turn": 3}), "Licia, Sanguine Tribune") == "{2}{W}{B}{R}"
    out = answer({"query": "pay", "state": board(), "spell": {"card": "Licia, Sanguine Tribune"}})
    assert out["error"]["code"] == "unsupported" and "life_gained_this_turn" in out["error"]["message"]


def test_hagra_mauling_reads_the_opponents_basic_lands() -> None:
    """Hagra Mauling: "{1} less … if an opponent controls no basic lands"."""
    assert paid(board(), "Hagra Mauling") == "{1}{B}{B}"
    assert paid(board({"card": "Forest", "controller": "opp"}), "Hagra Mauling") == "{2}{B}{B}"


def test_winged_words_reads_a_creature_with_flying() -> None:
    """Winged Words: "{1} less … if you control a creature with flying"."""
    assert paid(board({"card": "Serra Angel"}), "Winged Words") == "{1}{U}"
    assert paid(board(BEARS), "Winged Words") == "{2}{U}"


def test_millicent_affinity_for_spirits() -> None:
    """Millicent, Restless Revenant: "Affinity for Spirits" (702.41a) counts the Spirits you control."""
    spirit = {"card": "Spectral Sailor"}
    assert paid(board(spirit, spirit, {**spirit, "controller": "opp"}), "Millicent, Restless Revenant") == \
        "{3}{W}{U}"


def test_banish_to_another_universe_affinity_for_historic_permanents() -> None:
    """Banish to Another Universe: artifacts, legendaries and Sagas are historic (CR 700.6)."""
    state = board({"card": "Mind Stone"}, {"card": "Kadena, Slinking Sorcerer"}, BEARS)
    assert paid(state, "Banish to Another Universe") == "{2}{W}"


def test_fireball_is_read_for_one_target() -> None:
    """Fireball: "{1} more for each target beyond the first": the query gives no targets; one
    adds nothing."""
    assert paid(board(), "Fireball", x=2) == "{2}{R}"


def test_blaster_hulk_chandras_incinerator_and_gorex_are_refused_naming_what_is_missing() -> None:
    """Blaster Hulk (energy paid this turn), Chandra's Incinerator (noncombat damage this turn),
    Gorex, the Tombshell (cards exiled as its additional cost): not on the board or the query."""
    assert "energy paid" in refused(board(), "Blaster Hulk")
    assert "damage dealt" in refused(board(), "Chandra's Incinerator")
    assert "exiled" in refused(board(), "Gorex, the Tombshell")


def test_strive_is_read_for_one_target() -> None:
    """Call the Coppercoats, Consign to Dust: "Strive — This spell costs {1}{W} more to cast for
    each target beyond the first": one target adds nothing."""
    assert paid(board(), "Call the Coppercoats") == "{2}{W}"
    assert paid(board(), "Consign to Dust") == "{2}{G}"


def test_hour_of_revelation_counts_nonland_permanents_on_the_battlefield() -> None:
    """Hour of Revelation: "{3} less … if there are ten or more nonland permanents on the
    battlefield" (both players'); the lands don't count."""
    many = [BEARS] * 6 + [{**BEARS, "controller": "opp"}] * 4
    assert paid(board(*many), "Hour of Revelation") == "{W}{W}{W}"
    assert paid(board(*many[:9]), "Hour of Revelation") == "{3}{W}{W}{W}"


def test_junk_winder_affinity_for_tokens() -> None:
    """Junk Winder: "Affinity for tokens" counts the tokens you control, not a subtype."""
    treasure = {"card": "Treasure", "token": True}
    assert paid(board(treasure, treasure, BEARS), "Junk Winder") == "{3}{U}{U}"


def test_hellspur_brute_affinity_for_outlaws() -> None:
    """Hellspur Brute: outlaws are Assassins, Mercenaries, Pirates, Rogues and Warlocks (CR 700.15)."""
    state = board({"card": "Hired Hexblade"}, {"card": "Dire Fleet Hoarder"}, BEARS)
    assert paid(state, "Hellspur Brute") == "{2}{R}"


def test_allies_at_last_affinity_for_allies() -> None:
    """Allies at Last: "Affinity for Allies" counts Allies (a subtype written in the plural "-ies")."""
    assert paid(board({"card": "Ondu Cleric"}, BEARS), "Allies at Last") == "{1}{G}"


def test_icebreaker_kraken_affinity_for_snow_lands() -> None:
    """Icebreaker Kraken: "Affinity for snow lands": snow and land both."""
    state = board({"card": "Snow-Covered Island"}, {"card": "Snow-Covered Forest"}, {"card": "Snow-Covered Forest",
                                                                                       "controller": "opp"})
    assert paid(state, "Icebreaker Kraken") == "{8}{U}{U}"


def test_diamond_weapon_counts_permanent_cards_in_the_graveyard() -> None:
    """Diamond Weapon: "{1} less for each permanent card in your graveyard": Lightning Bolt is not one."""
    state = board(you={"graveyard": ["Grizzly Bears", "Forest", "Mind Stone", "Lightning Bolt"]})
    assert paid(state, "Diamond Weapon") == "{4}{G}{G}"


def test_vine_gecko_kicked_spells_are_refused_not_read_as_a_subtype() -> None:
    """Vine Gecko: "The first kicked spell you cast each turn": "kicked" is not a subtype."""
    assert "Vine Gecko" in refused(board({"card": "Vine Gecko"}), "Grizzly Bears")
