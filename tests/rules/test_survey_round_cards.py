"""Mana text the survey left refused or left out, read exactly: each card's ability adds what it
says and is paid as it says, every payment checked by ``validate`` (tap-cost filters, grants,
activation conditions, amounts, the worst-case reading of chance and other players' choices)."""

from __future__ import annotations

from typing import Any

from cards import json_board as _board
from cards import pay_validated as _pay



def _mana(out: dict[str, Any], pid: str = "p0") -> str:
    """The mana the activations of permanent ``pid`` added in a payable answer."""
    return "".join(a["mana"] for a in out["payment"]["activations"] if a["permanent"] == pid)


_BEAR_TOKEN = {"card": "Grizzly Bears", "token": True}


def test_baylen_the_haymaker_taps_two_tokens_111_1() -> None:
    """Baylen, the Haymaker: "Tap two untapped tokens you control: Add one mana of any color"."""
    out = _pay(_board("Baylen, the Haymaker", _BEAR_TOKEN, _BEAR_TOKEN), "{U}")
    assert _mana(out) == "{U}"
    assert _pay(_board("Baylen, the Haymaker", _BEAR_TOKEN, "Grizzly Bears"), "{U}")["payable"] is False


def test_meria_taps_a_nontoken_artifact() -> None:
    """Meria, Scholar of Antiquity: "Tap an untapped nontoken artifact you control: Add {G}"."""
    assert _mana(_pay(_board("Meria, Scholar of Antiquity", "Ornithopter"), "{G}")) == "{G}"
    token = {"card": "Ornithopter", "token": True}
    assert _pay(_board("Meria, Scholar of Antiquity", token), "{G}")["payable"] is False


def test_relic_of_legends_taps_a_legendary_creature_205_4d() -> None:
    """Relic of Legends: "Tap an untapped legendary creature you control: Add one mana of any
    color" beside its own "{T}: Add one mana of any color"."""
    assert _mana(_pay(_board("Relic of Legends", "Isamaru, Hound of Konda"), "{W}{W}")) == "{W}{W}"
    assert _pay(_board("Relic of Legends", "Grizzly Bears"), "{W}{W}")["payable"] is False


def test_gene_pollinator_taps_another_permanent_110_1() -> None:
    """Gene Pollinator: "{T}, Tap an untapped permanent you control: Add one mana of any color":
    a land may be tapped for the cost, the Pollinator itself can't be tapped twice."""
    assert _mana(_pay(_board("Gene Pollinator", "Plains"), "{G}")) == "{G}"
    assert _pay(_board("Gene Pollinator"), "{G}")["payable"] is False


def test_insidious_roots_and_springleaf_parade_grant_to_creature_tokens_613_1f() -> None:
    """Insidious Roots, Springleaf Parade: "Creature tokens you control have "{T}: Add one mana of
    any color."" (layer 6, CR 613.1f): a creature token taps for it, a nontoken creature does not,
    nor a summoning-sick token (CR 302.6)."""
    for name in ("Insidious Roots", "Springleaf Parade"):
        assert _mana(_pay(_board(name, _BEAR_TOKEN), "{U}"), "p1") == "{U}"
        assert _pay(_board(name, "Grizzly Bears"), "{U}")["payable"] is False
        assert _pay(_board(name, {**_BEAR_TOKEN, "sick": True}), "{U}")["payable"] is False


def test_lavinia_only_during_an_opponents_turn_602_5b() -> None:
    """Lavinia, Foil to Conspiracy: "{T}: Add {C}{C}. Activate only during an opponent's turn"."""
    board = _board("Lavinia, Foil to Conspiracy")
    assert _pay(board, "{2}")["payable"] is False
    theirs = {**board, "turn": {"active": "opp"}}
    assert _mana(_pay(theirs, "{2}")) == "{C}{C}"


def test_sceptre_of_eternal_glory_three_lands_with_the_same_name_201_2() -> None:
    """Sceptre of Eternal Glory: "{T}: Add three mana of any one color. Activate only if you
    control three or more lands with the same name"; its "{T}: Add one mana of any color" always."""
    three = _board("Sceptre of Eternal Glory", {"card": "Plains", "tapped": True},
                   {"card": "Plains", "tapped": True}, {"card": "Plains", "tapped": True})
    assert _mana(_pay(three, "{R}{R}{R}")) == "{R}{R}{R}"
    mixed = _board("Sceptre of Eternal Glory", {"card": "Plains", "tapped": True},
                   {"card": "Plains", "tapped": True}, {"card": "Island", "tapped": True})
    assert _pay(mixed, "{R}{R}{R}")["payable"] is False
    assert _mana(_pay(mixed, "{R}")) == "{R}"


def test_flywheel_racer_only_while_a_creature_301_7b() -> None:
    """Flywheel Racer: "{T}: Add one mana of any color. Activate only if this permanent is a
    creature": a Vehicle is a creature only while crewed (CR 301.7b), as its type line on the
    board says."""
    assert _pay(_board("Flywheel Racer"), "{G}")["payable"] is False
    crewed = {"card": "Flywheel Racer", "type_line": "Artifact Creature — Vehicle"}
    assert _mana(_pay(_board(crewed), "{G}")) == "{G}"


def _schema_valid(out: dict[str, Any], query: str = "pay") -> bool:
    from jsonschema import Draft202012Validator

    from manasolver.solver.service.schema.jsonschema import json_schema

    schema = json_schema()
    return Draft202012Validator({"$ref": f"#/$defs/answer.{query}", "$defs": schema["$defs"]}).is_valid(out)


def test_rhystic_cave_counted_as_nothing_and_named_uncertain_118_12() -> None:
    """Rhystic Cave: "{T}: Choose a color. Add one mana of that color unless any player pays {1}":
    any player may pay so that it adds nothing (CR 118.12), so it is counted as adding nothing and
    the answer names it under ``uncertain``, payable or not, in every payment query; could-produce
    still sees its colors (CR 106.7)."""
    from manasolver.solver.service.protocol import answer

    alone = _pay(_board("Rhystic Cave"), "{G}")
    assert alone["payable"] is False
    assert [u["permanent"] for u in alone["uncertain"]] == ["p0"] and "{1}" in alone["uncertain"][0]["reason"]
    assert _schema_valid(alone)
    beside = _pay(_board("Rhystic Cave", "Forest"), "{G}")
    assert _mana(beside, "p1") == "{G}" and not _mana(beside)
    assert [u["permanent"] for u in beside["uncertain"]] == ["p0"] and _schema_valid(beside)
    tapped = _pay(_board({"card": "Rhystic Cave", "tapped": True}, "Forest"), "{G}")
    assert "uncertain" not in tapped and _schema_valid(tapped)
    for query, cost in (("can_pay", "{G}"), ("payments", "{G}"), ("max_x", "{X}{G}")):
        out = answer({"query": query, "state": _board("Rhystic Cave", "Forest"), "cost": cost})
        assert [u["permanent"] for u in out["uncertain"]] == ["p0"] and _schema_valid(out, query), out
    could = answer({"query": "could_produce", "state": _board("Rhystic Cave", "Reflecting Pool")})
    assert could["could_produce"] == {"p0": list("WUBRG"), "p1": list("WUBRG")}


def test_gem_bazaar_adds_the_color_last_chosen_else_uncertain() -> None:
    """Gem Bazaar: "{T}: Add to your mana pool one mana of the color last chosen. Then choose a
    random color": the board's chosen color is the one last chosen, the next random choice comes
    after the mana is added; with none given, the color was chance: counted as nothing, named
    under ``uncertain``."""
    chosen = _pay(_board({"card": "Gem Bazaar", "chosen": {"color": "G"}}), "{G}")
    assert _mana(chosen) == "{G}" and "uncertain" not in chosen
    assert _pay(_board({"card": "Gem Bazaar", "chosen": {"color": "G"}}), "{U}")["payable"] is False
    unknown = _pay(_board("Gem Bazaar", "Forest"), "{1}")
    assert _mana(unknown, "p1") == "{G}" and [u["permanent"] for u in unknown["uncertain"]] == ["p0"]
    assert _schema_valid(unknown)


def test_rasputin_removes_one_or_more_counters_for_that_much_c_107_3() -> None:
    """Rasputin, the Oneiromancer: "{T}, Remove one or more dream counters from ~: Add that much
    {C}": as many {C} as counters removed, at least one."""
    three = _board({"card": "Rasputin, the Oneiromancer", "counters": {"dream": 3}})
    assert _mana(_pay(three, "{3}")) == "{C}{C}{C}"
    assert _pay(three, "{4}")["payable"] is False
    assert _pay(_board("Rasputin, the Oneiromancer"), "{1}")["payable"] is False


def test_nardole_adds_u_for_each_counter_of_any_kind_106_6() -> None:
    """Nardole, Resourceful Cyborg: "{T}: Add {U} for each counter on ~. Spend this mana only to
    cast noncreature spells": counters of every kind count; a creature spell can't use it."""
    from manasolver.solver.service.protocol import answer

    board = _board({"card": "Nardole, Resourceful Cyborg", "counters": {"+1/+1": 1, "time": 2}})
    spell = {"query": "pay", "cost": "{U}{U}{U}", "spell": {"card": "Opt"}, "state": board}
    out = answer(spell)
    assert _mana(out) == "{U}{U}{U}"
    assert answer({**spell, "query": "validate", "payment": out["payment"]})["legal"] is True
    assert answer({**spell, "spell": {"card": "Grizzly Bears"}})["payable"] is False


def test_arbor_adherent_greatest_toughness_among_other_creatures() -> None:
    """Arbor Adherent: "{T}: Add X mana of any one color, where X is the greatest toughness among
    other creatures you control" (a 0/3 wall: three), beside its "{T}: Add one mana of any color"."""
    board = _board("Arbor Adherent", "Wall of Wood", "Grizzly Bears")
    assert _mana(_pay(board, "{R}{R}{R}")) == "{R}{R}{R}"
    assert _pay(_board("Arbor Adherent", "Grizzly Bears"), "{R}{R}{R}")["payable"] is False
    assert _mana(_pay(_board("Arbor Adherent"), "{R}")) == "{R}"


def test_selvala_eager_trailblazer_each_different_power() -> None:
    """Selvala, Eager Trailblazer: "{T}: Choose a color. Add one mana of that color for each
    different power among creatures you control": 4 (itself), 2 and 1 are three powers; two 2s
    one."""
    board = _board("Selvala, Eager Trailblazer", "Grizzly Bears", "Llanowar Elves", "Grizzly Bears")
    assert _mana(_pay(board, "{W}{W}{W}")) == "{W}{W}{W}"
    assert _pay(_board("Selvala, Eager Trailblazer", "Grizzly Bears", "Grizzly Bears"), "{W}{W}{W}")[
        "payable"] is False


def test_white_lotus_tile_most_creatures_sharing_a_type_702_73a() -> None:
    """White Lotus Tile: "{T}: Add X mana of any one color, where X is the greatest number of
    creatures you control that have a creature type in common": two Elves and a Bear give two; a
    changeling has every creature type (CR 702.73a)."""
    board = _board("White Lotus Tile", "Llanowar Elves", "Elvish Mystic", "Grizzly Bears")
    assert _mana(_pay({**board, "battlefield": board["battlefield"]}, "{B}{B}")) == "{B}{B}"
    assert _pay(board, "{B}{B}{B}")["payable"] is False
    shifter = {"card": "Grizzly Bears", "name": "Shifter", "type_line": "Creature — Shapeshifter",
               "oracle_text": "Changeling"}
    assert _mana(_pay(_board("White Lotus Tile", "Llanowar Elves", "Elvish Mystic", shifter), "{B}{B}{B}")) \
        == "{B}{B}{B}"


def test_plaza_of_heroes_colors_among_legendary_permanents_105_2() -> None:
    """Plaza of Heroes: "{T}: Add one mana of any color among legendary permanents you control"
    (its other colored ability pays only a legendary spell, none named here)."""
    assert _mana(_pay(_board("Plaza of Heroes", "Isamaru, Hound of Konda"), "{W}")) == "{W}"
    assert _pay(_board("Plaza of Heroes", "Savannah Lions"), "{W}")["payable"] is False


def test_the_grey_havens_colors_among_legendary_creature_cards_in_the_graveyard() -> None:
    """The Grey Havens: "{T}: Add one mana of any color among legendary creature cards in your
    graveyard"."""
    board = _board("The Grey Havens")
    board["players"][0]["graveyard"] = ["Isamaru, Hound of Konda"]
    assert _mana(_pay(board, "{W}")) == "{W}"
    board["players"][0]["graveyard"] = ["Savannah Lions"]
    assert _pay(board, "{W}")["payable"] is False


def test_gond_gate_colors_a_gate_could_produce_106_7() -> None:
    """Gond Gate: "{T}: Add one mana of any color that a Gate you control could produce" (CR 106.7:
    a tapped Gate still could)."""
    gate = {"card": "Azorius Guildgate", "tapped": True}
    assert _mana(_pay(_board("Gond Gate", gate), "{U}")) == "{U}"
    assert _pay(_board("Gond Gate", gate), "{G}")["payable"] is False
    assert _pay(_board("Gond Gate"), "{U}")["payable"] is False


def test_tarnation_vista_each_color_among_monocolored_permanents() -> None:
    """Tarnation Vista: "{1}, {T}: For each color among monocolored permanents you control, add
    one mana of that color": a green and a white creature give {G}{W}; a green-white one nothing."""
    sick_elves = {"card": "Llanowar Elves", "sick": True}
    board = _board("Tarnation Vista", sick_elves, "Isamaru, Hound of Konda", "Plains")
    assert _mana(_pay(board, "{G}{W}")) == "{W}{G}"
    assert _pay(_board("Tarnation Vista", "Watchwolf", "Plains"), "{G}")["payable"] is False


def test_virtue_of_strength_triples_basic_lands_only_106_12b() -> None:
    """Virtue of Strength: "If you tap a basic land for mana, it produces three times as much of that
    mana instead" (CR 106.12b, 614.1a): a Forest adds {G}{G}{G}, a nonbasic land or an Elf one."""
    assert _mana(_pay(_board("Virtue of Strength", "Forest"), "{G}{G}{G}"), "p1") == "{G}{G}{G}"
    assert _pay(_board("Virtue of Strength", "Tropical Island"), "{G}{G}")["payable"] is False
    assert _pay(_board("Virtue of Strength", "Llanowar Elves"), "{G}{G}")["payable"] is False


def test_lavaleaper_basic_lands_add_one_more_605_1b() -> None:
    """Lavaleaper: "Whenever a player taps a basic land for mana, that player adds one mana of any
    type that land produced" (a triggered mana ability, CR 605.1b): a Forest adds {G}{G}, a
    nonbasic land one."""
    assert _mana(_pay(_board("Lavaleaper", "Forest"), "{G}{G}"), "p1") == "{G}{G}"
    assert _pay(_board("Lavaleaper", "Tropical Island"), "{G}{G}")["payable"] is False


def test_zhao_the_moon_slayer_nonbasic_lands_are_mountains_with_a_counter_613_1d() -> None:
    """Zhao, the Moon Slayer: "As long as ~ has a conqueror counter on him, nonbasic lands are
    Mountains" (CR 305.7, 613.1d): with the counter a Tropical Island taps for {R} only, without
    it for {G} or {U}."""
    moon = _board({"card": "Zhao, the Moon Slayer", "counters": {"conqueror": 1}}, "Tropical Island")
    assert _mana(_pay(moon, "{R}"), "p1") == "{R}"
    assert _pay(moon, "{G}")["payable"] is False
    plain = _board("Zhao, the Moon Slayer", "Tropical Island")
    assert _pay(plain, "{R}")["payable"] is False
    assert _mana(_pay(plain, "{G}"), "p1") == "{G}"


def test_mox_poison_any_color_the_poison_counters_change_no_payment() -> None:
    """Mox Poison: "{T}: Add one mana of any color. You get two poison counters": the counters come
    after the mana is added and pay no cost, so the ability adds one mana of any color."""
    assert _mana(_pay(_board("Mox Poison"), "{B}")) == "{B}"


def test_territory_forge_has_the_exiled_cards_abilities_607_2() -> None:
    """Territory Forge: "This artifact has all activated abilities of the exiled card" (the card
    exiled with it, the board's ``imprinted``, CR 607.2): a Forest's {T}: Add {G} (CR 305.6)."""
    from manasolver.solver.service.protocol import answer

    assert _mana(_pay(_board({"card": "Territory Forge", "imprinted": ["Forest"]}), "{G}")) == "{G}"
    assert _pay(_board({"card": "Territory Forge", "imprinted": []}), "{G}")["payable"] is False
    missing = answer({"query": "pay", "state": _board("Territory Forge"), "cost": "{G}"})
    assert missing["error"]["code"] == "unsupported" and "imprinted" in missing["error"]["where"]


def test_mirran_safehouse_has_the_abilities_of_land_cards_in_graveyards_613_1f() -> None:
    """Mirran Safehouse: "As long as this artifact is on the battlefield, it has all activated
    abilities of all land cards in all graveyards" (layer 6, CR 613.1f)."""
    board = _board("Mirran Safehouse")
    board["players"][1]["graveyard"] = ["Forest"]
    assert _mana(_pay(board, "{G}")) == "{G}"
    board["players"][1]["graveyard"] = ["Grizzly Bears"]
    assert _pay(board, "{G}")["payable"] is False


_LEGEND_DORK = {"name": "Legend Dork", "type_line": "Legendary Creature — Elf", "mana_cost": "{G}",
                "oracle_text": "{T}: Add {G}.", "sick": True}


def test_robaran_mercenaries_has_the_abilities_of_legendary_creatures_you_control() -> None:
    """Robaran Mercenaries: "This creature has all activated abilities of all legendary creatures
    you control": a summoning-sick legend's {T}: Add {G} is tapped on the Mercenaries."""
    assert _mana(_pay(_board("Robaran Mercenaries", _LEGEND_DORK), "{G}")) == "{G}"
    plain = {**_LEGEND_DORK, "type_line": "Creature — Elf"}
    assert _pay(_board("Robaran Mercenaries", plain), "{G}")["payable"] is False


def test_marvin_has_the_abilities_of_differently_named_creatures() -> None:
    """Marvin, Murderous Mimic: "~ has all activated abilities of creatures you control that don't
    have the same name as this creature"."""
    assert _mana(_pay(_board("Marvin, Murderous Mimic", {"card": "Llanowar Elves", "sick": True}), "{G}")) == "{G}"
    twin = {**_LEGEND_DORK, "name": "Marvin, Murderous Mimic"}
    assert _pay(_board("Marvin, Murderous Mimic", twin), "{G}")["payable"] is False


def test_sharkey_has_no_mana_abilities_of_opponents_lands() -> None:
    """Sharkey, Tyrant of the Shire: "~ has all activated abilities of lands your opponents control
    except mana abilities": none of them adds mana."""
    board = _board("Sharkey, Tyrant of the Shire", {"card": "Forest", "controller": "opp"})
    assert _pay(board, "{G}")["payable"] is False


def test_great_divide_guide_grants_to_each_land_and_ally_613_1f() -> None:
    """Great Divide Guide: "Each land and Ally you control has "{T}: Add one mana of any color.""
    (layer 6): a Forest taps for {U}, so does the Guide itself (an Ally), not a sick one nor a
    creature of another type."""
    assert _mana(_pay(_board({"card": "Great Divide Guide", "sick": True}, "Forest"), "{U}"), "p1") == "{U}"
    assert _mana(_pay(_board("Great Divide Guide"), "{U}")) == "{U}"
    assert _pay(_board({"card": "Great Divide Guide", "sick": True}, "Grizzly Bears"), "{U}")["payable"] is False


def test_three_tree_city_counts_creatures_of_the_chosen_type() -> None:
    """Three Tree City: "{2}, {T}: Choose a color. Add an amount of mana of that color equal to the
    number of creatures you control of the chosen type" (the board's ``chosen.type``; none chosen:
    no creature has it)."""
    elves = ({"card": "Llanowar Elves", "sick": True}, {"card": "Llanowar Elves", "sick": True}, "Plains", "Island")
    out = _pay(_board({"card": "Three Tree City", "chosen": {"type": "Elf"}}, *elves), "{B}{B}")
    assert _mana(out) == "{B}{B}"
    assert _pay(_board({"card": "Three Tree City", "chosen": {"type": "Goblin"}}, *elves), "{B}{B}")["payable"] is False
    assert _pay(_board("Three Tree City", *elves), "{B}{B}")["payable"] is False


def test_trazyn_the_infinite_has_the_abilities_of_artifact_cards_in_your_graveyard_207_2c() -> None:
    """Trazyn the Infinite: "Prismatic Gallery — As long as Trazyn is on the battlefield, it has all
    activated abilities of all artifact cards in your graveyard" (the flavor word has no rules
    meaning, CR 207.2c): a Sol Ring in its controller's graveyard, not in an opponent's."""
    board = _board("Trazyn the Infinite")
    board["players"][0]["graveyard"] = ["Sol Ring"]
    assert _mana(_pay(board, "{2}")) == "{C}{C}"
    board["players"][0]["graveyard"], board["players"][1]["graveyard"] = [], ["Sol Ring"]
    assert _pay(board, "{2}")["payable"] is False


def test_hawkeyes_bow_tap_trigger_hurts_only_opponents_603_2() -> None:
    """Hawkeye's Bow: "Whenever equipped creature becomes tapped, it deals 1 damage to each
    opponent": the trigger goes on the stack after the mana (CR 603.2) and costs the payer nothing,
    so the equipped Llanowar Elves pays {G} with no damage to its controller."""
    board = _board({"card": "Llanowar Elves", "id": "elf"}, {"card": "Hawkeye's Bow", "attached_to": "elf"})
    out = _pay(board, "{G}")
    assert _mana(out, "elf") == "{G}" and out["payment"]["damage"] == 0


def test_spade_and_vhal_mana_cant_cast_spells_from_your_hand_106_6() -> None:
    """Archaeomancer's Spade ("{T}: Add {R}{W}") and Vhal, Candlekeep Researcher ("{T}: Add an
    amount of {C} equal to Vhal's toughness"): "This mana can't be spent to cast spells from your
    hand" (CR 106.6): the zone a spell is cast from is not asked, so the mana pays nothing for a
    cost of no named spell (never assumed allowed), and a named spell is refused naming the clause.
    Vhal's amount is its toughness with counters."""
    from manasolver.models.carddb import default_db
    from manasolver.solver.service.protocol import answer

    for name, cost in (("Archaeomancer's Spade", "{R}"), ("Vhal, Candlekeep Researcher", "{1}")):
        assert _pay(_board(name), cost)["payable"] is False
        named = answer({"query": "pay", "state": _board(name), "cost": cost, "spell": {"card": "Lightning Bolt"}})
        assert named["error"]["code"] == "unsupported" and "from your hand" in named["error"]["message"]
    vhal = default_db().get("Vhal, Candlekeep Researcher").mana_abilities[0]
    assert vhal.production.amount is not None and vhal.production.amount.kind == "toughness"


def test_command_mine_two_mana_beside_tower_and_power_plant_903_4() -> None:
    """Command Mine: "{T}: Add one mana of any color in your commander's color identity. If you
    control a Command Tower and a Command Power Plant, add two mana of any color in your
    commander's color identity instead" (CR 903.4; the cards by name, CR 201.2)."""
    tower = {"card": "Command Tower", "tapped": True}
    plant = {"card": "Command Power Plant", "tapped": True}
    both = _board("Command Mine", tower, plant)
    both["players"][0]["commander"] = ["Niv-Mizzet, Parun"]
    assert _mana(_pay(both, "{U}{U}")) == "{U}{U}"
    one = _board("Command Mine", tower)
    one["players"][0]["commander"] = ["Niv-Mizzet, Parun"]
    assert _pay(one, "{U}{U}")["payable"] is False
    assert _mana(_pay(one, "{R}")) == "{R}"


def test_roxanne_artifact_tokens_add_one_more_605_1b() -> None:
    """Roxanne, Starfall Savant: "Whenever you tap an artifact token for mana, add one mana of any
    type that artifact token produced" (CR 605.1b): a Mind Stone token adds {C}{C}, a nontoken one
    {C}."""
    roxanne = {"card": "Roxanne, Starfall Savant", "sick": True}
    assert _mana(_pay(_board(roxanne, {"card": "Mind Stone", "token": True}), "{2}"), "p1") == "{C}{C}"
    assert _pay(_board(roxanne, "Mind Stone"), "{2}")["payable"] is False


def test_brood_astronomer_three_beside_a_planet_with_twelve_charge_counters() -> None:
    """Brood Astronomer: "{T}: Add one mana of any color. If you control a Planet with twelve or
    more charge counters on it, add three mana of any one color instead"."""
    planet = {"name": "Test Planet", "type_line": "Artifact — Planet", "oracle_text": "", "counters": {"charge": 12}}
    assert _mana(_pay(_board("Brood Astronomer", planet), "{U}{U}{U}")) == "{U}{U}{U}"
    short = {**planet, "counters": {"charge": 11}}
    assert _pay(_board("Brood Astronomer", short), "{U}{U}")["payable"] is False
    assert _mana(_pay(_board("Brood Astronomer", short), "{U}")) == "{U}"


def test_cryptolith_fragment_each_player_loses_life_is_left_out_naming_it() -> None:
    """Cryptolith Fragment: "{T}: Add one mana of any color. Each player loses 1 life": the payer
    loses 1 life too, which no payment field says, so the ability is not read as a harmless rider:
    the answer leaves the Fragment out naming the clause (the payment found without it is legal)."""
    out = _pay(_board("Cryptolith Fragment", "Forest"), "{G}")
    assert _mana(out, "p1") == "{G}"
    assert [u["permanent"] for u in out["unsupported"]] == ["p0"] and "loses 1 life" in out["unsupported"][0]["reason"]


def test_drana_and_linvala_has_opponents_creatures_abilities_paid_with_any_color_609_4b() -> None:
    """Drana and Linvala: "~ has all activated abilities of all creatures your opponents control. You
    may spend mana as though it were mana of any color to activate those abilities" (layer 6, CR
    613.1f; 609.4b): an opponent's Llanowar Elves gives it {T}: Add {G} (its own prohibition stops
    only the opponent's creature); an opponent's "{G}, {T}: Add {U}{U}" is paid with a Plains' {W};
    its controller's own creatures give it nothing."""
    assert _mana(_pay(_board("Drana and Linvala", {"card": "Llanowar Elves", "controller": "opp"}), "{G}")) == "{G}"
    filter_dude = {"name": "Filter Dude", "type_line": "Creature — Elf", "oracle_text": "{G}, {T}: Add {U}{U}.",
                   "controller": "opp"}
    assert _mana(_pay(_board("Drana and Linvala", filter_dude, "Plains"), "{U}{U}")) == "{U}{U}"
    assert _pay(_board("Drana and Linvala", {"card": "Llanowar Elves", "sick": True}), "{G}")["payable"] is False


_FOOD = {"name": "Food", "type_line": "Artifact — Food", "token": True,
         "oracle_text": "{2}, {T}, Sacrifice this token: You gain 3 life."}


def test_steward_and_brewmaster_give_the_exiled_cards_abilities_613_1f() -> None:
    """Steward of the Harvest ("Creatures you control have all activated abilities of all land cards
    exiled with this creature") and Hazel's Brewmaster ("Foods you control have … all creature cards
    exiled with this creature"): layer 6, the cards exiled with the source from its ``imprinted``
    (CR 607.2); a card of the other kind gives nothing; without ``imprinted`` the answer is refused
    naming the field."""
    from manasolver.solver.service.protocol import answer

    steward = {"card": "Steward of the Harvest", "imprinted": ["Forest"], "sick": True}
    assert _mana(_pay(_board(steward, "Grizzly Bears"), "{G}"), "p1") == "{G}"
    assert _pay(_board({**steward, "imprinted": ["Grizzly Bears"]}, "Grizzly Bears"), "{G}")["payable"] is False
    missing = answer({"query": "pay", "state": _board("Steward of the Harvest", "Grizzly Bears"), "cost": "{G}"})
    assert missing["error"]["where"].endswith("imprinted")
    brewmaster = {"card": "Hazel's Brewmaster", "imprinted": ["Llanowar Elves"]}
    assert _mana(_pay(_board(brewmaster, _FOOD), "{G}"), "p1") == "{G}"
    assert _pay(_board({**brewmaster, "imprinted": ["Forest"]}, _FOOD), "{G}")["payable"] is False


def test_case_file_auditor_any_color_for_case_spells_609_4b() -> None:
    """Case File Auditor: "You may spend mana as though it were mana of any color to cast Case
    spells" (CR 609.4b): three Islands pay Case of the Burning Masks' {1}{R}{R}, not Lightning
    Bolt's {R} nor a cost of no named spell."""
    from manasolver.solver.service.protocol import answer

    board = _board({"card": "Case File Auditor", "sick": True}, "Island", "Island", "Island")
    case = {"query": "pay", "state": board, "cost": "{1}{R}{R}", "spell": {"card": "Case of the Burning Masks"}}
    out = answer(case)
    assert out["payable"] is True and len(out["payment"]["activations"]) == 3
    assert answer({**case, "query": "validate", "payment": out["payment"]})["legal"] is True
    assert answer({**case, "cost": "{R}", "spell": {"card": "Lightning Bolt"}})["payable"] is False
    assert _pay(board, "{R}")["payable"] is False
