"""The oracle-text parser: mana abilities (CR 605) read from real cards' text.

Each test names the card, quotes the text it reads and cites the rule.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from manasolver.models.abilities import ManaAbility
from manasolver.models.rules.amounts import (
    ability_options,
    ability_restriction,
    commander_identity,
    concrete_options,
    condition_holds,
    counters_removed,
    evaluate_amount,
)
from manasolver.models.card import Card, TypeLine
from manasolver.models.card_build import card_from_record
from manasolver.models.carddb import CardDB
from manasolver.models.errors import ManasolverError, Unsupported
from manasolver.models.text.oracle import ParsedText, parse_oracle, self_reference, strip_reminder
from manasolver.models.state import GameState, Permanent, Player, Turn
from manasolver.models.symbols import ANY_COLOR, ANY_TYPE, B, C, G, R, U, W


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
    negative, which adds nothing (CR 107.1b example)."""
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
    """Treasure: "{T}, Sacrifice this artifact: Add one mana of any color." (a predefined token)."""
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


# -- what is not a mana ability ------------------------------------------------------------------------


def test_dark_ritual_is_a_spell(db: CardDB) -> None:
    """CR 605.5b: Dark Ritual's "Add {B}{B}{B}" is a spell's effect, not a mana ability."""
    card = db.get("Dark Ritual")
    assert card.mana_abilities == () and card.unsupported == ()


def test_lotus_cobra_landfall_is_not_a_mana_ability(db: CardDB) -> None:
    """CR 605.5a, Lotus Cobra ruling: Lotus Cobra's landfall trigger uses the stack: ignored, not unsupported."""
    card = db.get("Lotus Cobra")
    assert card.mana_abilities == () and card.unsupported == ()


def test_burning_tree_emissary_etb(db: CardDB) -> None:
    """CR 605.5a: an ETB that adds mana is not a mana ability."""
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


# -- effects on mana production, recognised by the parser ----------------------------------------------


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


def test_paliano_draft_choice_is_unsupported(db: CardDB) -> None:
    """Paliano, the High City: a color "chosen as you drafted" is not on the board: never guessed."""
    assert db.get("Paliano, the High City").unsupported


def test_river_of_tears_land_played_reads_the_board_history(db: CardDB) -> None:
    """River of Tears: "If you played a land this turn" reads the player's lands_played_this_turn
    on the board: an "instead" production whose condition counts lands played."""
    card = db.get("River of Tears")
    (ability,) = card.mana_abilities
    assert card.unsupported == ()
    assert ability.production.instead is not None
    assert [a.kind for a, _ in ability.production.instead.counts] == ["lands_played"]


# -- text handling ----------------------------------------------------------------------------------


def test_reminder_text_and_self_reference() -> None:
    assert strip_reminder("Flash (You may cast it any time.)") == "Flash"
    assert self_reference("Sacrifice Lotus Petal: Add {G}.", "Lotus Petal") == "Sacrifice ~: Add {G}."
    assert self_reference("Sacrifice this artifact: Add {C}.", "Gold") == "Sacrifice ~: Add {C}."
    assert self_reference("Remove five +1/+1 counters from Ramos: Add {W}.", "Ramos, Dragon Engine") == \
        "Remove five +1/+1 counters from ~: Add {W}."


@pytest.mark.parametrize(("text", "plain"), [
    ("Ward {2} \t(reminder) and more (x)(y) end", "Ward {2} and more end"),  # each flat one, the blanks before it
    ("a (x) (y)", "a"),
    ("a ((b) c) d", "a d"),  # nested: the whole outer part
    ("a ) (b", "a )"),  # an unbalanced ")" is kept, an open "(" hides the rest
    ("((x)", ""),
    ("no reminder here ", "no reminder here"),
])
def test_strip_reminder_takes_each_reminder_and_the_blanks_before_it(text: str, plain: str) -> None:
    """CR 207.2: reminder text is left out, flat or nested, with the spaces and tabs before it."""
    assert strip_reminder(text) == plain


def test_text_without_mana_words_reads_nothing() -> None:
    """A text none of whose lines speaks of mana, adding, lands, spending, activated abilities of
    others or becoming tapped holds no mana ability or mana effect (CR 605.1a)."""
    parsed = parse_oracle("Flying\nWhenever ~ attacks, draw a card.", TypeLine.parse("Creature — Bird"), "Test Bird")
    assert parsed == ParsedText()


@pytest.mark.parametrize(("text", "kind"), [
    ("Nonbasic lands are Mountains.", "type_change"),  # "land" (CR 305.7)
    ("~ has all activated abilities of all creature cards in your graveyard.", "grant"),
    ("Players may spend mana as though it were mana of any color.", "spend_as"),  # CR 609.4b
])
def test_a_text_with_one_mana_word_is_read(text: str, kind: str) -> None:
    parsed = parse_oracle(text, TypeLine.parse("Enchantment"), "Test Effect")
    assert [e.kind for e in parsed.mana_effects] == [kind]


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
    """CR 711.2, 711.5: Joraga Treespeaker has "{T}: Add {G}{G}." only at level 1-4: the ability carries the
    condition of one to four level counters, never assumed without them."""
    card = db.get("Joraga Treespeaker")
    (ability,) = card.mana_abilities
    assert ability.condition is not None and ability.condition.text == "LEVEL 1-4"
    assert "{T}: Add {G}{G}." not in card.unsupported


def test_module_examples_run() -> None:
    """The module docstrings' examples are executable documentation."""
    import doctest

    from manasolver.models.text import oracle

    assert doctest.testmod(oracle).failed == 0


def test_star_power_is_not_guessed() -> None:
    """A power set by a characteristic-defining ability is not computed: unsupported, never 0."""
    card = card_from_record({"name": "Test Star Dork", "type_line": "Creature — Elf", "mana_cost": "{G}",
                             "power": "*", "toughness": "1",
                             "oracle_text": "{T}: Add an amount of {G} equal to Test Star Dork's power."})
    perm = Permanent("d", card, "you")
    with pytest.raises(Unsupported):
        concrete_options(only(card).production, _state(perm), perm)


# -- read from the board: choices, commander, conditions, variable costs --------------------------------


def _perm(db: CardDB, pid: str, name: str, controller: str = "you", **kw: object) -> Permanent:
    return Permanent(pid, db.get(name), controller, **kw)  # type: ignore[arg-type]


def _board(*perms: Permanent, players: tuple[Player, ...] | None = None, turn: Turn | None = None) -> GameState:
    return GameState(players or (Player("you"), Player("opp")), turn or Turn("you"), perms)


def test_storage_land_one_option_per_counter_count(db: CardDB) -> None:
    """Bottomless Vault: "{T}, Remove any number of storage counters from this land: Add {B} for each
    storage counter removed this way." — CR 107.3 / 118: the player picks k = 1..n on activation."""
    vault = _perm(db, "v", "Bottomless Vault", counters=(("storage", 3),))
    ability = only(db.get("Bottomless Vault"))
    assert ability.cost.remove_any == "storage" and ability.cost.tap
    options = ability_options(ability, _board(vault), vault)
    assert options == ((B,), (B, B), (B, B, B))
    assert [counters_removed(ability, o) for o in options] == [1, 2, 3]
    empty = _perm(db, "e", "Bottomless Vault")
    assert ability_options(ability, _board(empty), empty) == ()
    assert concrete_options(ability.production, _board(vault), vault) == ()  # needs ability_options


def test_calciform_pools_remove_x(db: CardDB) -> None:
    """Calciform Pools: "{1}, Remove X storage counters from this land: Add X mana in any combination of {W}
    and/or {U}." (CR 107.3)."""
    pools = _perm(db, "p", "Calciform Pools", counters=(("storage", 2),))
    ability = pools.card.mana_abilities[1]
    assert ability.cost.mana.format() == "{1}" and ability.cost.remove_any == "storage"
    assert ability_options(ability, _board(pools), pools) == ((W | U,), (W | U, W | U))


def test_mana_battery_adds_one_plus_removed(db: CardDB) -> None:
    """Black Mana Battery: "Add {B}, then add an additional {B} for each charge counter removed this way."
    — removing none still adds {B} (k = 0..n)."""
    battery = _perm(db, "b", "Black Mana Battery", counters=(("charge", 2),))
    ability = only(battery.card)
    options = ability_options(ability, _board(battery), battery)
    assert options == ((B,), (B, B), (B, B, B))
    assert [counters_removed(ability, o) for o in options] == [0, 1, 2]


def test_coldsteel_heart_chosen_color(db: CardDB) -> None:
    """Coldsteel Heart: "As this artifact enters, choose a color." / "{T}: Add one mana of the chosen color."
    — none chosen on the board: an undefined color adds no mana (CR 106.5)."""
    ability = only(db.get("Coldsteel Heart"))
    assert ability.production.chosen == 1 and ability.production.options == ()
    heart = _perm(db, "h", "Coldsteel Heart", chosen_color="G")
    assert ability_options(ability, _board(heart), heart) == ((G,),)
    bare = _perm(db, "h", "Coldsteel Heart")
    assert ability_options(ability, _board(bare), bare) == ()


def test_thriving_moor_fixed_or_chosen(db: CardDB) -> None:
    """Thriving Moor: "{T}: Add {B} or one mana of the chosen color." (CR 106.5 without a choice)."""
    ability = db.get("Thriving Moor").mana_abilities[0]
    moor = _perm(db, "m", "Thriving Moor", chosen_color="R")
    assert ability_options(ability, _board(moor), moor) == ((B,), (R,))
    bare = _perm(db, "m", "Thriving Moor")
    assert ability_options(ability, _board(bare), bare) == ((B,),)


def test_cavern_of_souls_chosen_type_restriction(db: CardDB) -> None:
    """Cavern of Souls: "Spend this mana only to cast a creature spell of the chosen type, and that spell
    can't be countered." (CR 106.6) — the restriction gets the permanent's chosen type; none chosen: it
    pays nothing."""
    ability = db.get("Cavern of Souls").mana_abilities[1]
    restriction = ability.production.restriction
    assert restriction is not None and restriction.chosen_type
    assert restriction.subtypes == frozenset({"chosen type"})  # matches no real subtype
    cavern = _perm(db, "c", "Cavern of Souls", chosen_type="Elf")
    got = ability_restriction(ability, cavern)
    assert got is not None and got.subtypes == frozenset({"elf"}) and got.spell_types == frozenset({"creature"})
    bare = ability_restriction(ability, _perm(db, "c", "Cavern of Souls"))
    assert bare is not None and not bare.spells and not bare.abilities


def test_secluded_courtyard_chosen_type_abilities(db: CardDB) -> None:
    """Secluded Courtyard: "... or activate an ability of a creature or creature card of the chosen type"."""
    restriction = db.get("Secluded Courtyard").mana_abilities[1].production.restriction
    assert restriction is not None and restriction.chosen_type and restriction.abilities


def test_command_tower_commander_identity(db: CardDB) -> None:
    """Command Tower: "{T}: Add one mana of any color in your commander's color identity." (CR 903.4);
    no commander: undefined, no mana (903.4f)."""
    ability = only(db.get("Command Tower"))
    tower = _perm(db, "t", "Command Tower")
    assert ability_options(ability, _board(tower), tower) == ()
    kenrith = db.get("Kenrith, the Returned King")  # {4}{W} with {R}, {1}{G}, {2}{U}, {3}{B} abilities
    players = (Player("you", commander=(kenrith,)), Player("opp"))
    state = _board(tower, players=players)
    assert commander_identity(state, "you") == W | U | B | R | G
    assert ability_options(ability, state, tower) == ((W | U | B | R | G,),)


def test_commander_identity_hybrid_and_partners(db: CardDB) -> None:
    """CR 903.4: hybrid symbols count both colors; two commanders (partner) combine identities."""
    players = (Player("you", commander=(db.get("Kitchen Finks"), db.get("Llanowar Elves"))),)
    assert commander_identity(_board(players=players), "you") == W | G
    devoid = (Player("you", commander=(db.get("Kozilek's Return"),)),)  # devoid, {2}{R}: colorless, red identity
    assert commander_identity(_board(players=devoid), "you") == R


def test_tainted_field_activation_condition(db: CardDB) -> None:
    """Tainted Field: "Activate only if you control a Swamp." (CR 602.5b) — None when it can't be activated."""
    ability = db.get("Tainted Field").mana_abilities[1]
    field = _perm(db, "f", "Tainted Field")
    assert ability.condition is not None
    assert ability_options(ability, _board(field), field) is None
    swamp = _perm(db, "s", "Watery Grave")  # Island Swamp
    assert ability_options(ability, _board(field, swamp), field) == ((W,), (B,))
    theirs = _perm(db, "s", "Swamp", "opp")
    assert ability_options(ability, _board(field, theirs), field) is None


def test_mox_opal_metalcraft(db: CardDB) -> None:
    """Mox Opal: "Metalcraft — {T}: Add one mana of any color. Activate only if you control three or more
    artifacts." — Mox Opal counts itself (CR 602.5b)."""
    ability = only(db.get("Mox Opal"))
    opal = _perm(db, "o", "Mox Opal")
    two = _board(opal, _perm(db, "a", "Sol Ring"))
    assert ability_options(ability, two, opal) is None
    three = _board(opal, _perm(db, "a", "Sol Ring"), _perm(db, "b", "Mind Stone"))
    assert ability_options(ability, three, opal) == ((ANY_COLOR,),)


def test_temple_of_the_false_god_five_lands(db: CardDB) -> None:
    """Temple of the False God: "Activate only if you control five or more lands." (CR 602.5b)."""
    ability = only(db.get("Temple of the False God"))
    temple = _perm(db, "t", "Temple of the False God")
    forests = [_perm(db, f"f{i}", "Forest") for i in range(4)]
    assert ability_options(ability, _board(temple, *forests[:3]), temple) is None
    assert ability_options(ability, _board(temple, *forests), temple) == ((C, C),)


def test_whisperer_and_circle_power_conditions(db: CardDB) -> None:
    """Whisperer of the Wilds (Ferocious: a creature with power 4 or greater) and Circle of Elders
    (Formidable: total power 8 or greater) — CR 602.5b, power with counters (CR 122.1a)."""
    whisperer = _perm(db, "w", "Whisperer of the Wilds")
    ferocious = whisperer.card.mana_abilities[1]
    assert ability_options(ferocious, _board(whisperer), whisperer) is None
    big = _perm(db, "b", "Grizzly Bears", counters=(("+1/+1", 2),))
    assert ability_options(ferocious, _board(whisperer, big), whisperer) == ((G, G),)
    circle = _perm(db, "c", "Circle of Elders")  # 2/4
    formidable = only(circle.card)
    assert ability_options(formidable, _board(circle, big), circle) is None  # 2 + 4
    assert ability_options(formidable, _board(circle, big, _perm(db, "x", "Grizzly Bears")), circle) == \
        ((C, C, C),)


def test_pyramid_of_the_pantheon_counters_condition(db: CardDB) -> None:
    """Pyramid of the Pantheon: "Activate only if there are three or more brick counters on it."."""
    ability = db.get("Pyramid of the Pantheon").mana_abilities[1]
    two = _perm(db, "p", "Pyramid of the Pantheon", counters=(("brick", 2),))
    three = _perm(db, "p", "Pyramid of the Pantheon", counters=(("brick", 3),))
    assert ability_options(ability, _board(two), two) is None
    assert len(ability_options(ability, _board(three), three) or ()) == 5


def test_urzas_tower_instead(db: CardDB) -> None:
    """Urza's Tower: "If you control an Urza's Mine and an Urza's Power-Plant, add {C}{C}{C} instead."
    — "an Urza's Mine" is a land with both subtypes Urza's and Mine (CR 205.3)."""
    ability = only(db.get("Urza's Tower"))
    tower = _perm(db, "t", "Urza's Tower")
    mine = _perm(db, "m", "Urza's Mine")
    plant = _perm(db, "p", "Urza's Power Plant")
    assert ability_options(ability, _board(tower, mine), tower) == ((C,),)
    assert ability_options(ability, _board(tower, mine, plant), tower) == ((C, C, C),)
    assert ability_options(ability, _board(tower, mine, _perm(db, "q", "Urza's Power Plant", "opp")), tower) == \
        ((C,),)


def test_gemstone_caverns_luck_counter_instead(db: CardDB) -> None:
    """Gemstone Caverns: "If this land has a luck counter on it, instead add one mana of any color."."""
    ability = only(db.get("Gemstone Caverns"))
    lucky = _perm(db, "g", "Gemstone Caverns", counters=(("luck", 1),))
    plain = _perm(db, "g", "Gemstone Caverns")
    assert ability_options(ability, _board(lucky), lucky) == ((ANY_COLOR,),)
    assert ability_options(ability, _board(plain), plain) == ((C,),)


def test_leafkin_druid_four_creatures_instead(db: CardDB) -> None:
    """Leafkin Druid: "If you control four or more creatures, add {G}{G} instead."."""
    druid = _perm(db, "d", "Leafkin Druid")
    ability = only(druid.card)
    bears = [_perm(db, f"b{i}", "Grizzly Bears") for i in range(3)]
    assert ability_options(ability, _board(druid, *bears[:2]), druid) == ((G,),)
    assert ability_options(ability, _board(druid, *bears), druid) == ((G, G),)


def test_per_turn_limits(db: CardDB) -> None:
    """Kozilek's Translator "Activate only once each turn." and Manaforge Cinder "Activate no more than three
    times each turn." (CR 602.5b): ``per_turn`` bounds the activations within one payment."""
    assert only(db.get("Kozilek's Translator")).per_turn == 1
    assert only(db.get("Manaforge Cinder")).per_turn == 3
    assert only(db.get("Llanowar Elves")).per_turn == 0
    roots = only(db.get("Wall of Roots"))
    assert roots.per_turn == 1 and roots.cost.put_counters == (("-0/-1", 1),) and not roots.cost.tap


def test_mana_cache_only_during_your_turn(db: CardDB) -> None:
    """Mana Cache: "Any player may activate this ability but only during their turn before the end step."."""
    ability = only(db.get("Mana Cache"))
    cache = _perm(db, "m", "Mana Cache", counters=(("charge", 1),))
    assert ability_options(ability, _board(cache, turn=Turn("you", "main2")), cache) == ((C,),)
    assert ability_options(ability, _board(cache, turn=Turn("you", "end")), cache) is None
    assert ability_options(ability, _board(cache, turn=Turn("opp", "main1")), cache) is None


def test_counted_with_filters(db: CardDB) -> None:
    """Overgrown Battlement ("creature with defender"), Leafkin Avenger ("creature with power 4 or
    greater"), Powerstone Shard ("artifact you control named ~") — CR 107.1b counts."""
    battlement = _perm(db, "o", "Overgrown Battlement")
    wall = _perm(db, "w", "Wall of Roots")
    assert ability_options(only(battlement.card), _board(battlement, wall, _perm(db, "b", "Grizzly Bears")),
                           battlement) == ((G, G),)
    avenger = _perm(db, "a", "Leafkin Avenger")  # 7/6
    assert ability_options(avenger.card.mana_abilities[0], _board(avenger, _perm(db, "b", "Grizzly Bears")),
                           avenger) == ((G,),)
    shard = _perm(db, "s", "Powerstone Shard")
    state = _board(shard, _perm(db, "t", "Powerstone Shard"), _perm(db, "r", "Sol Ring"))
    assert ability_options(only(shard.card), state, shard) == ((C, C),)


def test_board_amounts_life_domain_power_graveyard(db: CardDB) -> None:
    """Sanctum of the Sun (life total), Prismatic Geoscope (domain, CR 305.6), Selvala (greatest power),
    Crypt of Agadeem (black creature cards in your graveyard)."""
    sanctum = Permanent("s", db.get("Azor's Gateway").faces[1], "you")
    ability = only(sanctum.card)
    state = GameState((Player("you", life=3),), Turn("you"), (sanctum,))
    assert ability_options(ability, state, sanctum) == tuple((bit,) * 3 for bit in (W, U, B, R, G))
    geoscope = _perm(db, "g", "Prismatic Geoscope")
    lands = (_perm(db, "t", "Tundra"), _perm(db, "f", "Forest"), _perm(db, "f2", "Forest"))
    assert ability_options(only(geoscope.card), _board(geoscope, *lands), geoscope) == ((ANY_COLOR,) * 3,)
    selvala = _perm(db, "v", "Selvala, Heart of the Wilds")  # 2/3
    big = _perm(db, "b", "Grizzly Bears", counters=(("+1/+1", 3),))
    assert ability_options(selvala.card.mana_abilities[0], _board(selvala, big), selvala) == ((ANY_COLOR,) * 5,)
    crypt = _perm(db, "c", "Crypt of Agadeem")
    grave = (db.get("Gravecrawler"), db.get("Grizzly Bears"), db.get("Dark Ritual"), db.get("Vampire Nighthawk"))
    state = GameState((Player("you", graveyard=grave),), Turn("you"), (crypt,))
    assert ability_options(crypt.card.mana_abilities[1], state, crypt) == ((B, B),)


def test_colors_among(db: CardDB) -> None:
    """Meteor Crater ("a color of a permanent you control"), Mox Amber ("any color among legendary creatures
    and planeswalkers you control"; lands are colorless), Corrupted Grafstone (graveyard cards)."""
    crater = _perm(db, "m", "Meteor Crater")
    state = _board(crater, _perm(db, "e", "Llanowar Elves"), _perm(db, "k", "Kitchen Finks"))
    assert ability_options(only(crater.card), state, crater) == ((W | G,),)
    amber = _perm(db, "a", "Mox Amber")
    assert ability_options(only(amber.card), _board(amber, _perm(db, "e", "Llanowar Elves")), amber) == ()
    state = _board(amber, _perm(db, "k", "Kenrith, the Returned King"))
    assert ability_options(only(amber.card), state, amber) == ((W,),)
    graf = _perm(db, "g", "Corrupted Grafstone")
    state = GameState((Player("you", graveyard=(db.get("Lightning Bolt"),)),), Turn("you"), (graf,))
    assert ability_options(only(graf.card), state, graf) == ((R,),)


def test_metalworker_reveal_any_number(db: CardDB) -> None:
    """Metalworker: "Reveal any number of artifact cards in your hand. Add {C}{C} for each card revealed
    this way." — one option per number of cards revealed."""
    worker = _perm(db, "w", "Metalworker")
    ability = only(worker.card)
    hand = (db.get("Sol Ring"), db.get("Mind Stone"), db.get("Forest"))
    state = GameState((Player("you", hand=hand),), Turn("you"), (worker,))
    assert ability_options(ability, state, worker) == ((C, C), (C, C, C, C))


def test_empowered_autogenerator_counts_the_new_counter(db: CardDB) -> None:
    """Empowered Autogenerator: "Put a charge counter on this artifact. Add X mana of any one color, where X
    is the number of charge counters on this artifact." — the counter is put on first."""
    gen = _perm(db, "g", "Empowered Autogenerator", counters=(("charge", 1),))
    assert ability_options(only(gen.card), _board(gen), gen) == tuple((b, b) for b in (W, U, B, R, G))


def test_condition_holds_none() -> None:
    """No condition always holds."""
    assert condition_holds(None, _state(), Permanent("x", Card("X"), "you"))


def test_ability_notes_describe_board_forms(db: CardDB) -> None:
    """What the renderer can show for the forms read from the board (module doctest included)."""
    import doctest

    import manasolver.models.text.describe as notes

    assert doctest.testmod(notes).failed == 0
    tower = only(db.get("Urza's Tower"))
    assert notes.ability_notes(tower) == ["instead {C}{C}{C} if you control an Urza's Mine and an Urza's Power-Plant"]
    assert notes.ability_notes(only(db.get("Kozilek's Translator"))) == ["at most 1 activation each turn"]
    assert notes.extra_production_texts(only(db.get("Coldsteel Heart")).production) == ["1 mana of the chosen color"]
    assert notes.ability_notes(only(db.get("Bottomless Vault"))) == ["amount: counters removed"]


def test_incubation_druid_reference_count_instead(db: CardDB) -> None:
    """Incubation Druid: "{T}: Add one mana of any type that a land you control could produce. If this creature
    has a +1/+1 counter on it, add three mana of that type instead." (CR 106.7; the type is mirrored, the
    number read from the board)."""
    from manasolver.models.rules.amounts import reference_count

    druid = only(db.get("Incubation Druid"))
    assert druid.production.reference == "lands_you_control" and druid.production.instead_reference_count == 3
    plain = _perm(db, "d", "Incubation Druid")
    grown = _perm(db, "d", "Incubation Druid", counters=(("+1/+1", 1),))
    assert reference_count(druid, _board(plain), plain) == 1
    assert reference_count(druid, _board(grown), grown) == 3
    assert ability_options(druid, _board(grown), grown) == ()


def test_could_produce_ignores_the_activation_condition(db: CardDB) -> None:
    """CR 106.7: what an ability would add if it resolved now — Tainted Field without a Swamp could produce
    {W} or {B} for a Reflecting Pool, though it can't be activated."""
    ability = db.get("Tainted Field").mana_abilities[1]
    field = _perm(db, "f", "Tainted Field")
    assert ability_options(ability, _board(field), field) is None
    assert ability_options(ability, _board(field), field, ignore_condition=True) == ((W,), (B,))


def test_spend_as_though_is_reported(db: CardDB) -> None:
    """CR 609.4b: "You may spend mana as though it were mana of any color." (Chromatic Orrery, Mycosynth
    Lattice, Celestial Dawn, Sunglasses of Urza) changes what mana pays: reported, never ignored silently;
    mana spent from exile-casting riders (Gonti) is not a general rule and stays silent."""
    for name in ("Chromatic Orrery", "Mycosynth Lattice", "Celestial Dawn", "Sunglasses of Urza"):
        card = db.get(name)
        parsed = parse_oracle(card.oracle_text, card.type_line, card.name)
        assert "spend_as" in [e.kind for e in parsed.mana_effects], name
        assert card.unsupported, name
    assert db.get("Gonti, Lord of Luxury").unsupported == ()


def test_ilysian_caryatid_instead_any_one_color(db: CardDB) -> None:
    """Ilysian Caryatid: "If you control a creature with power 4 or greater, add two mana of any one color
    instead." — five options of two mana of one color."""
    caryatid = _perm(db, "c", "Ilysian Caryatid")
    ability = only(caryatid.card)
    assert ability_options(ability, _board(caryatid), caryatid) == ((ANY_COLOR,),)
    big = _perm(db, "b", "Grizzly Bears", counters=(("+1/+1", 2),))
    assert ability_options(ability, _board(caryatid, big), caryatid) == tuple((c, c) for c in (W, U, B, R, G))


def test_sacellum_godspeaker_reveals_big_creatures(db: CardDB) -> None:
    """Sacellum Godspeaker: "Reveal any number of creature cards with power 5 or greater from your hand." —
    only those count (one option per number revealed)."""
    speaker = _perm(db, "s", "Sacellum Godspeaker")
    hand = (db.get("Craw Wurm"), db.get("Grizzly Bears"), db.get("Colossal Dreadmaw"))
    state = GameState((Player("you", hand=hand),), Turn("you"), (speaker,))
    assert ability_options(only(speaker.card), state, speaker) == ((G,), (G, G))


@pytest.mark.parametrize("name, check", [
    ("Oasis Ritualist", lambda a: a.cost.exert and a.cost.tap),                      # CR 701.43: exert as a cost
    ("Lion's Eye Diamond", lambda a: a.cost.discard_hand and a.cost.sacrifice_self),  # discard your hand
    ("Opal Palace", lambda a: a.production.commander == 1 and a.cost.mana.format() == "{1}"),
    ("Path of Ancestry", lambda a: a.production.commander == 1),
    ("Spire of Industry", lambda a: a.condition is not None and a.cost.life == 1),     # CR 602.5b
    ("Shrine of the Forsaken Gods", lambda a: a.condition is not None and a.production.restriction is not None),
    ("Crucible of the Spirit Dragon", lambda a: a.cost.remove_any == "storage"
     and a.production.restriction is not None and a.production.restriction.subtypes == frozenset({"dragon"})),
    ("Mana Bloom", lambda a: a.per_turn == 1 and a.cost.remove_counters == (("charge", 1),)),
    ("Ramos, Dragon Engine", lambda a: a.per_turn == 1 and a.cost.remove_counters == (("+1/+1", 5),)),
])
def test_round_two_forms_parse(db: CardDB, name: str, check: object) -> None:
    """Each card's last mana ability reads fully, with the form named in the comment."""
    card = db.get(name)
    assert card.unsupported == (), card.unsupported
    assert check(card.mana_abilities[-1])  # type: ignore[operator]
