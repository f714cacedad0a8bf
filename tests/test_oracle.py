"""The oracle-text parser: mana abilities (CR 605) read from real cards' text.

Each test names the card, quotes the text it reads and cites the rule.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from manasolver.models.abilities import ManaAbility
from manasolver.models.amounts import concrete_options, evaluate_amount
from manasolver.models.card import Card, TypeLine
from manasolver.models.carddb import CardDB, card_from_record
from manasolver.models.errors import ManasolverError, Unsupported
from manasolver.models.oracle import parse_oracle, self_reference, strip_reminder
from manasolver.models.state import GameState, Permanent, Player, Turn
from manasolver.models.symbols import ANY_COLOR, ANY_TYPE, B, C, G, R, U, W


@pytest.fixture(scope="module")
def db() -> CardDB:
    return CardDB()


def only(card: Card) -> ManaAbility:
    assert len(card.mana_abilities) == 1, card.mana_abilities
    assert card.unsupported == ()
    return card.mana_abilities[0]


# -- intrinsic abilities (CR 305.6) -----------------------------------------------------------------


def test_forest_intrinsic(db: CardDB) -> None:
    """CR 305.6: a Forest has "{T}: Add {G}." although its text is only reminder text."""
    ability = only(db.get("Forest"))
    assert ability.intrinsic and ability.cost.tap and ability.production.options == ((G,),)


def test_tundra_two_intrinsic_abilities_in_wubrg_order(db: CardDB) -> None:
    """CR 305.6: Tundra (Plains Island) has two abilities, {W} first, indexed 0 and 1."""
    card = db.get("Tundra")
    assert [a.production.options for a in card.mana_abilities] == [((W,),), ((U,),)]
    assert [a.index for a in card.mana_abilities] == [0, 1]


def test_dryad_arbor_creature_forest(db: CardDB) -> None:
    """CR 305.6: a land creature with the Forest type taps for {G}."""
    assert only(db.get("Dryad Arbor")).production.options == ((G,),)


# -- fixed mana and alternatives ------------------------------------------------------------------


def test_llanowar_elves(db: CardDB) -> None:
    """Llanowar Elves: "{T}: Add {G}." (CR 605.1a)."""
    ability = only(db.get("Llanowar Elves"))
    assert ability.cost.tap and not ability.cost.mana
    assert ability.production.options == ((G,),)


def test_sol_ring_two_colorless(db: CardDB) -> None:
    """Sol Ring: "{T}: Add {C}{C}." — one option of two colorless slots (CR 106.1b)."""
    assert only(db.get("Sol Ring")).production.options == ((C, C),)


def test_one_of_two(db: CardDB) -> None:
    """Karplusan Forest: "{T}: Add {R} or {G}. Karplusan Forest deals 1 damage to you." (pain land)."""
    card = db.get("Karplusan Forest")
    colorless, colored = card.mana_abilities
    assert colorless.production.options == ((C,),) and colorless.damage == 0
    assert colored.production.options == ((R,), (G,)) and colored.damage == 1
    assert card.unsupported == ()


def test_one_of_three(db: CardDB) -> None:
    """Shard lands: "{T}: Add {W}, {U}, or {B}." (Arcane Sanctum's last ability)."""
    card = db.get("Arcane Sanctum")
    assert card.mana_abilities[-1].production.options == ((W,), (U,), (B,))


def test_cascade_bluffs_filter(db: CardDB) -> None:
    """Cascade Bluffs: "{T}: Add {C}." and "{U/R}, {T}: Add {U}{U}, {U}{R}, or {R}{R}." (CR 602.1)."""
    card = db.get("Cascade Bluffs")
    plain, filt = card.mana_abilities
    assert plain.cost.parts() == ["{T}"] and plain.production.options == ((C,),)
    assert filt.cost.parts() == ["{U/R}", "{T}"]
    assert filt.production.options == ((U, U), (U, R), (R, R))


def test_signet_mana_cost(db: CardDB) -> None:
    """Azorius Signet: "{1}, {T}: Add {W}{U}." — a mana cost in the activation cost."""
    ability = only(db.get("Azorius Signet"))
    assert ability.cost.mana.format() == "{1}" and ability.cost.tap
    assert ability.production.options == ((W, U),)


# -- any color, any type, could produce (CR 106.7) -----------------------------------------------------


def test_birds_of_paradise_any_color(db: CardDB) -> None:
    """Birds of Paradise: "{T}: Add one mana of any color." — never {C} (CR 105.1, 106.1a)."""
    assert only(db.get("Birds of Paradise")).production.options == ((ANY_COLOR,),)


def test_reflecting_pool_any_type_of_your_lands(db: CardDB) -> None:
    """Reflecting Pool: "any type that a land you control could produce" (CR 106.7): colorless included."""
    production = only(db.get("Reflecting Pool")).production
    assert production.reference == "lands_you_control" and not production.colors_only
    assert production.options == ()


def test_exotic_orchard_and_fellwar_stone_opponents_colors(db: CardDB) -> None:
    """Exotic Orchard / Fellwar Stone: "any color that a land an opponent controls could produce"."""
    for name in ("Exotic Orchard", "Fellwar Stone"):
        production = only(db.get(name)).production
        assert production.reference == "lands_opponents_control" and production.colors_only


def test_three_mana_of_any_one_color(db: CardDB) -> None:
    """Gilded Lotus: "{T}: Add three mana of any one color." — five options of three slots."""
    assert only(db.get("Gilded Lotus")).production.options == tuple((c, c, c) for c in (W, U, B, R, G))


def test_any_combination(db: CardDB) -> None:
    """Pillar of the Paruns-style "two mana in any combination of colors"; and "{R} and/or {G}"."""
    card = card_from_record({"name": "Test Spring", "type_line": "Land", "mana_cost": "",
                             "oracle_text": "{T}: Add two mana in any combination of colors."})
    assert only(card).production.options == ((ANY_COLOR, ANY_COLOR),)
    card = card_from_record({"name": "Test Grove", "type_line": "Land", "mana_cost": "",
                             "oracle_text": "{T}, Sacrifice a Forest: Add three mana in any combination of "
                                            "{R} and/or {G}."})
    ability = only(card)
    assert ability.cost.sacrifice == ("forest",)
    assert ability.production.options == ((R | G,) * 3,)


def test_any_type(db: CardDB) -> None:
    """"one mana of any type" includes colorless (CR 106.1b)."""
    card = card_from_record({"name": "Test Prism", "type_line": "Artifact", "mana_cost": "{2}",
                             "oracle_text": "{T}: Add one mana of any type."})
    assert only(card).production.options == ((ANY_TYPE,),)


# -- amounts (CR 107.1b, 107.2) ---------------------------------------------------------------------


def _state(*perms: Permanent) -> GameState:
    return GameState((Player("you"), Player("opp")), Turn("you"), perms)


def test_gaeas_cradle_counts_creatures(db: CardDB) -> None:
    """Gaea's Cradle: "Add {G} for each creature you control." — none: no mana (CR 106.5)."""
    cradle = Permanent("c", db.get("Gaea's Cradle"), "you")
    ability = only(cradle.card)
    amount = ability.production.amount
    assert amount is not None and amount.kind == "count" and amount.types == frozenset({"creature"})
    assert concrete_options(ability.production, _state(cradle), cradle) == ()
    elves = [Permanent(f"e{i}", db.get("Llanowar Elves"), "you") for i in range(3)]
    theirs = Permanent("o", db.get("Llanowar Elves"), "opp")
    state = _state(cradle, *elves, theirs)
    assert concrete_options(ability.production, state, cradle) == ((G, G, G),)


def test_cabal_coffers_counts_swamps(db: CardDB) -> None:
    """Cabal Coffers: "{2}, {T}: Add {B} for each Swamp you control." — counts the subtype."""
    coffers = Permanent("c", db.get("Cabal Coffers"), "you")
    swamps = [Permanent("s1", db.get("Swamp"), "you"), Permanent("s2", db.get("Watery Grave"), "you")]
    ability = only(coffers.card)
    assert ability.cost.mana.format() == "{2}"
    assert concrete_options(ability.production, _state(coffers, *swamps), coffers) == ((B, B),)


def test_elvish_archdruid_counts_elves(db: CardDB) -> None:
    """Elvish Archdruid: "Add {G} for each Elf you control." — itself included."""
    druid = Permanent("d", db.get("Elvish Archdruid"), "you")
    other = Permanent("e", db.get("Llanowar Elves"), "you")
    assert evaluate_amount(only(druid.card).production.amount, _state(druid, other), druid) == 2


def test_viridian_joiner_power_with_counters(db: CardDB) -> None:
    """Viridian Joiner: "Add an amount of {G} equal to its power"; −1/−1 counters can make it
    negative, which adds nothing (CR 107.1b, RULES T92)."""
    card = db.get("Viridian Joiner")
    ability = only(card)
    assert ability.production.amount is not None and ability.production.amount.kind == "power"
    grown = Permanent("j", card, "you", counters=(("+1/+1", 2),))
    assert concrete_options(ability.production, _state(grown), grown) == ((G, G, G),)
    shrunk = Permanent("j", card, "you", counters=(("-1/-1", 3),))
    assert concrete_options(ability.production, _state(shrunk), shrunk) == ()


def test_nykthos_devotion_per_chosen_color(db: CardDB) -> None:
    """Nykthos: "Choose a color. Add an amount of mana of that color equal to your devotion to that
    color." Hybrid symbols count for each of their colors (Nykthos ruling 2013-09-15)."""
    nykthos = Permanent("n", db.get("Nykthos, Shrine to Nyx"), "you")
    ability = nykthos.card.mana_abilities[1]
    assert ability.cost.mana.format() == "{2}"
    finks = Permanent("k", db.get("Kitchen Finks"), "you")  # {1}{G/W}{G/W}
    elves = Permanent("e", db.get("Llanowar Elves"), "you")  # {G}
    options = concrete_options(ability.production, _state(nykthos, finks, elves), nykthos)
    assert set(options) == {(W, W), (G, G, G)}


# -- costs ----------------------------------------------------------------------------------------


def test_treasure_sacrifice(db: CardDB) -> None:
    """Treasure: "{T}, Sacrifice this artifact: Add one mana of any color." (SPEC §4)."""
    ability = only(db.get("Treasure"))
    assert ability.cost.tap and ability.cost.sacrifice_self


def test_lotus_petal(db: CardDB) -> None:
    """Lotus Petal: "{T}, Sacrifice Lotus Petal: Add one mana of any color." — the name is a self reference."""
    ability = only(db.get("Lotus Petal"))
    assert ability.cost.sacrifice_self and ability.production.options == ((ANY_COLOR,),)


def test_ashnods_altar_sacrifice_another(db: CardDB) -> None:
    """Ashnod's Altar: "Sacrifice a creature: Add {C}{C}." — no {T} (CR 106.12: not tapped for mana)."""
    ability = only(db.get("Ashnod's Altar"))
    assert not ability.cost.tap and ability.cost.sacrifice == ("creature",)
    assert ability.production.options == ((C, C),)


def test_springleaf_drum_taps_a_creature(db: CardDB) -> None:
    """Springleaf Drum: "{T}, Tap an untapped creature you control: Add one mana of any color."."""
    ability = only(db.get("Springleaf Drum"))
    assert ability.cost.tap and ability.cost.tap_creatures == 1


def test_aether_hub_energy(db: CardDB) -> None:
    """Aether Hub: "{T}, Pay {E}: Add one mana of any color." (CR 107.14)."""
    ability = db.get("Aether Hub").mana_abilities[1]
    assert ability.cost.energy == 1 and ability.cost.tap
    assert ability.production.options == ((ANY_COLOR,),)


def test_pay_life(db: CardDB) -> None:
    """Horizon lands: "{T}, Pay 1 life: Add {G} or {W}." (Horizon Canopy)."""
    ability = db.get("Horizon Canopy").mana_abilities[0]
    assert ability.cost.life == 1 and ability.production.options == ((G,), (W,))


def test_remove_counter(db: CardDB) -> None:
    """Gemstone Mine: "{T}, Remove a mining counter from Gemstone Mine: Add one mana of any color.
    If there are no mining counters on Gemstone Mine, sacrifice it." — the rider is kept as extra."""
    ability = only(db.get("Gemstone Mine"))
    assert ability.cost.remove_counters == (("mining", 1),)
    assert ability.extra


def test_untap_symbol_and_damage(db: CardDB) -> None:
    """Ancient Tomb: "{T}: Add {C}{C}. Ancient Tomb deals 2 damage to you." (damage to you)."""
    ability = only(db.get("Ancient Tomb"))
    assert ability.damage == 2 and ability.production.options == ((C, C),)


# -- restrictions (CR 106.6) -----------------------------------------------------------------------


def test_ancient_ziggurat_restriction(db: CardDB) -> None:
    """Ancient Ziggurat: "Spend this mana only to cast a creature spell." (CR 106.6; ruling 2009-02-01)."""
    restriction = only(db.get("Ancient Ziggurat")).production.restriction
    assert restriction is not None
    assert restriction.spell_types == frozenset({"creature"}) and not restriction.abilities


def test_mishras_workshop_restriction(db: CardDB) -> None:
    """Mishra's Workshop: "Spend this mana only to cast artifact spells."."""
    restriction = only(db.get("Mishra's Workshop")).production.restriction
    assert restriction is not None and restriction.spell_types == frozenset({"artifact"})


def test_restriction_with_abilities(db: CardDB) -> None:
    """Eldrazi Temple: "Spend this mana only to cast colorless Eldrazi spells or activate abilities of
    colorless Eldrazi."."""
    restriction = db.get("Eldrazi Temple").mana_abilities[1].production.restriction
    assert restriction is not None
    assert restriction.subtypes == frozenset({"eldrazi"}) and restriction.colorless and restriction.abilities


def test_chosen_type_restriction_is_unsupported(db: CardDB) -> None:
    """Cavern of Souls: the chosen creature type is not on the board: reported, never guessed."""
    card = db.get("Cavern of Souls")
    assert any("chosen type" in u for u in card.unsupported)


# -- what is not a mana ability ------------------------------------------------------------------------


def test_dark_ritual_is_a_spell(db: CardDB) -> None:
    """CR 605.5b: Dark Ritual's "Add {B}{B}{B}" is a spell's effect, not a mana ability."""
    card = db.get("Dark Ritual")
    assert card.mana_abilities == () and card.unsupported == ()


def test_lotus_cobra_landfall_is_not_a_mana_ability(db: CardDB) -> None:
    """CR 605.5a / RULES T120: Lotus Cobra's landfall trigger uses the stack: ignored, not unsupported."""
    card = db.get("Lotus Cobra")
    assert card.mana_abilities == () and card.unsupported == ()


def test_burning_tree_emissary_etb(db: CardDB) -> None:
    """RULES T121: an ETB that adds mana is not a mana ability."""
    card = db.get("Burning-Tree Emissary")
    assert card.mana_abilities == () and card.unsupported == ()


def test_loyalty_ability_is_not_a_mana_ability() -> None:
    """CR 605.1a: loyalty abilities are never mana abilities."""
    parsed = parse_oracle("+1: Add {R}{R}.", TypeLine.parse("Legendary Planeswalker — Chandra"), "Test Chandra")
    assert parsed.mana_abilities == () and parsed.unsupported == ()


def test_targeted_ability_is_not_a_mana_ability() -> None:
    """CR 605.1a: an ability with a target is not a mana ability."""
    parsed = parse_oracle("{T}: Add {R}. Test Imp deals 1 damage to target player.",
                          TypeLine.parse("Creature — Imp"), "Test Imp")
    assert parsed.mana_abilities == () and parsed.unsupported == ()


# -- effects on mana that a later issue implements -------------------------------------------------


def test_mana_reflection_is_a_replacement(db: CardDB) -> None:
    """Mana Reflection (CR 106.12b, 614): reported as a replacement effect, and unsupported for now."""
    parsed = parse_oracle(db.get("Mana Reflection").oracle_text, db.get("Mana Reflection").type_line,
                          "Mana Reflection")
    assert [e.kind for e in parsed.mana_effects] == ["replacement"]
    assert parsed.unsupported


def test_wild_growth_is_a_triggered_mana_ability(db: CardDB) -> None:
    """Wild Growth (CR 605.1b): "Whenever enchanted land is tapped for mana, its controller adds an
    additional {G}." — a triggered mana ability: reported, unsupported for now."""
    card = db.get("Wild Growth")
    parsed = parse_oracle(card.oracle_text, card.type_line, card.name)
    assert [e.kind for e in parsed.mana_effects] == ["triggered"]
    assert card.unsupported


def test_blood_moon_and_urborg_change_land_types(db: CardDB) -> None:
    """CR 305.7: Blood Moon and Urborg change land types, and so intrinsic abilities."""
    for name in ("Blood Moon", "Urborg, Tomb of Yawgmoth", "Spreading Seas"):
        card = db.get(name)
        parsed = parse_oracle(card.oracle_text, card.type_line, card.name)
        assert [e.kind for e in parsed.mana_effects] == ["type_change"], name


def test_contamination_and_nyxbloom(db: CardDB) -> None:
    for name in ("Contamination", "Nyxbloom Ancient", "Damping Sphere"):
        card = db.get(name)
        parsed = parse_oracle(card.oracle_text, card.type_line, card.name)
        assert "replacement" in [e.kind for e in parsed.mana_effects], name


def test_cryptolith_rite_grant(db: CardDB) -> None:
    card = db.get("Cryptolith Rite")
    parsed = parse_oracle(card.oracle_text, card.type_line, card.name)
    assert [e.kind for e in parsed.mana_effects] == ["grant"]


def test_token_makers_are_not_grants(db: CardDB) -> None:
    """A card that creates Eldrazi Scions with a mana ability has none itself."""
    card = db.get("Blisterpod")
    assert card.mana_abilities == () and card.unsupported == ()


# -- never guessed -------------------------------------------------------------------------------------


def test_tron_conditional_amount_is_unsupported(db: CardDB) -> None:
    """Urza's Tower: "If you control an Urza's Mine and an Urza's Power-Plant, add {C}{C}{C} instead." (CR 106.5: never guessed)."""
    card = db.get("Urza's Tower")
    assert card.mana_abilities == ()
    assert card.unsupported and "Urza's Mine" in card.unsupported[0]


def test_chosen_color_is_unsupported(db: CardDB) -> None:
    """Coldsteel Heart: "Add one mana of the chosen color." — the choice is not on the board."""
    assert db.get("Coldsteel Heart").unsupported


def test_storage_land_is_unsupported(db: CardDB) -> None:
    assert db.get("Bottomless Vault").unsupported


# -- text handling ----------------------------------------------------------------------------------


def test_reminder_text_and_self_reference() -> None:
    assert strip_reminder("Flash (You may cast it any time.)") == "Flash"
    assert self_reference("Sacrifice Lotus Petal: Add {G}.", "Lotus Petal") == "Sacrifice ~: Add {G}."
    assert self_reference("Sacrifice this artifact: Add {C}.", "Gold") == "Sacrifice ~: Add {C}."
    assert self_reference("Remove five +1/+1 counters from Ramos: Add {W}.", "Ramos, Dragon Engine") == \
        "Remove five +1/+1 counters from ~: Add {W}."


def test_unknown_symbol_in_text_is_unsupported_not_an_error() -> None:
    parsed = parse_oracle("{T}: Add {Q/Z}.", TypeLine.parse("Artifact"), "Odd Thing")
    assert parsed.mana_abilities == () and parsed.unsupported == ("{T}: Add {Q/Z}.",)


# -- robustness: board text is user input ------------------------------------------------------------

_VOCAB = ["{T}", "{Q}", "{G}", "{U/R}", "{2}", "{E}", "{X}", "{½}", ":", ",", ".", "Add", "add", "one", "mana",
          "of any", "color", "type", "or", "and/or", "for each", "creature", "you control", "Sacrifice", "~",
          "Remove", "counter", "from", "Pay", "life", "Spend this mana only to cast", "spells", "\"", "(", ")",
          "—", "Whenever", "tapped for mana", "instead", "lands", "are", "Mountains", "\n", "target", "X",
          "equal to", "Choose a color.", "deals 1 damage to you", "+1:", "Activate only"]


@given(st.lists(st.sampled_from(_VOCAB), max_size=40))
@settings(max_examples=300, deadline=None)
def test_parser_never_crashes_on_word_salad(words: list[str]) -> None:
    """Inline oracle text is user input: the parser answers or reports, never raises."""
    text = " ".join(words)
    parsed = parse_oracle(text, TypeLine.parse("Artifact Creature — Golem"), "Test Golem")
    for ability in parsed.mana_abilities:
        assert ability.production.options or ability.production.reference


@given(st.text(max_size=300))
@settings(max_examples=200, deadline=None)
def test_parser_never_crashes_on_random_text(text: str) -> None:
    parse_oracle(text, TypeLine.parse("Land"), "Test Land")


@given(st.dictionaries(st.sampled_from(["name", "type_line", "mana_cost", "oracle_text", "colors", "power"]),
                       st.one_of(st.text(max_size=30), st.integers(), st.none(), st.lists(st.text(max_size=2))),
                       max_size=6))
@settings(max_examples=300, deadline=None)
def test_card_from_record_errors_are_manasolver_errors(record: dict[str, object]) -> None:
    try:
        card_from_record(record, "battlefield[0]")
    except ManasolverError as exc:
        assert exc.where.startswith("battlefield[0]")


def test_adversarial_lines_are_linear() -> None:
    """Long or deeply nested text returns quickly (no regex backtracking blow-up)."""
    tl = TypeLine.parse("Land")
    for text in ("land " * 20000, "(" * 50000 + ")" * 50000, "Whenever " + "tap for " * 200,
                 "{T}: Add " + "{G} or " * 280, "Lands are " * 150, "\"" * 1999):
        parse_oracle(text, tl, "Test")
    long_line = "{T}: Add {G}. " + "x" * 5000
    assert parse_oracle(long_line, tl, "Test").unsupported  # too long to be oracle text: reported


def test_leveler_abilities_are_not_always_there(db: CardDB) -> None:
    """CR 711.2: Joraga Treespeaker has "{T}: Add {G}{G}." only at level 1-4: reported, not assumed."""
    card = db.get("Joraga Treespeaker")
    assert card.mana_abilities == ()
    assert "{T}: Add {G}{G}." in card.unsupported


def test_module_examples_run() -> None:
    """The module docstrings' examples are executable documentation (STYLE practice 13)."""
    import doctest

    from manasolver.models import oracle

    assert doctest.testmod(oracle).failed == 0


def test_star_power_is_not_guessed() -> None:
    """A power set by a characteristic-defining ability is not computed: unsupported, never 0."""
    card = card_from_record({"name": "Test Star Dork", "type_line": "Creature — Elf", "mana_cost": "{G}",
                             "power": "*", "toughness": "1",
                             "oracle_text": "{T}: Add an amount of {G} equal to Test Star Dork's power."})
    perm = Permanent("d", card, "you")
    with pytest.raises(Unsupported):
        concrete_options(only(card).production, _state(perm), perm)
