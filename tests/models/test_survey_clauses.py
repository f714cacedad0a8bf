"""Clauses of real cards read so that the survey board (the card beside an untapped Plains, Island
and Forest, ``pay {1}{G}``) is answered exactly instead of leaving the card out or refusing it.

Each test names its card and the rule it follows; each payment is checked by ``validate``.
"""

from __future__ import annotations

from typing import Any

from manasolver.models.carddb import default_db
from manasolver.models.text.restrictions import read_restriction
from manasolver.solver.service.protocol import answer

from cards import json_board as _board


def _survey(card: str, cost: str = "{1}{G}", **extra: Any) -> dict[str, Any]:
    state = _board(card, "Plains", "Island", "Forest")
    out = answer({"query": "pay", "state": state, "cost": cost, **extra})
    if out.get("payable"):
        check = answer({"query": "validate", "state": state, "cost": cost, "payment": out["payment"], **extra})
        assert check.get("legal") is True, check
    return out


def test_landfall_if_that_land_is_a_mountain_is_no_land_type_change() -> None:
    """Akoum Hellkite, Oran-Rief Hydra: "Landfall — Whenever a land enters …. If that land is a
    Mountain, …" tests a land's type; it changes none (CR 207.2c: the ability word is only a
    label, the line is a triggered ability), so the card has no unread mana text."""
    db = default_db()
    for name in ("Akoum Hellkite", "Oran-Rief Hydra", "Emeria Shepherd", "Guardian of Tazeem", "Guul Draz Overseer"):
        assert db.get(name).unsupported == (), name
        out = _survey(name)
        assert out["payable"] and "unsupported" not in out, name


def test_unchecked_restriction_pays_nothing_without_a_named_spell() -> None:
    """Elfhame Druid: "{T}: Add {G}{G}. Spend this mana only to cast kicked spells." (CR 106.6):
    for a cost whose spell is not named the restriction is never assumed met, so {G}{G} from the
    Druid alone is unpayable and its first ability ({T}: Add {G}) pays {G}."""
    r = read_restriction("Spend this mana only to cast kicked spells.")
    assert r.unchecked and not r.spells and not r.abilities
    state = _board("Elfhame Druid")
    assert answer({"query": "can_pay", "state": state, "cost": "{G}{G}"})["payable"] is False
    assert answer({"query": "can_pay", "state": state, "cost": "{G}"})["payable"] is True
    out = _survey("Elfhame Druid")
    assert out["payable"] and "unsupported" not in out


def test_unchecked_restriction_with_a_named_spell_is_refused() -> None:
    """Untaidake, the Cloud Keeper ("Spend this mana only to cast legendary spells."): with a spell
    named, the engine does not decide whether the restriction allows it, and says so."""
    out = _survey("Untaidake, the Cloud Keeper", spell={"card": "Grizzly Bears"})
    assert out["error"]["code"] == "unsupported" and "Untaidake" in out["error"]["message"]


def test_readable_restrictions_are_not_unchecked() -> None:
    """Ancient Ziggurat's "Spend this mana only to cast a creature spell." stays a checked one."""
    r = read_restriction("Spend this mana only to cast a creature spell.")
    assert not r.unchecked and r.spell_types == frozenset({"creature"})


def test_revoker_without_a_nonland_mana_source_does_not_matter() -> None:
    """Phyrexian Revoker: "choose a nonland card name. Activated abilities of sources with the
    chosen name can't be activated." (CR 602.5): no land can have a nonland card's name, so beside
    three basics nothing it could name has a mana ability; beside Llanowar Elves the choice is not
    on the board, and the answer says so naming ``chosen``."""
    out = _survey("Phyrexian Revoker")
    assert out["payable"] and "unsupported" not in out
    out = answer({"query": "pay", "state": _board("Phyrexian Revoker", "Llanowar Elves", "Forest"), "cost": "{G}"})
    assert out["error"]["code"] == "unsupported" and out["error"]["where"].endswith(".chosen")


def test_doubling_cube_with_nothing_left_to_double() -> None:
    """Doubling Cube ({3}, {T}: double the unspent mana; CR 106.6 example) beside three basics: all three
    mana would pay its own {3}, so there is nothing to double and {1}{G} is answered exactly."""
    out = _survey("Doubling Cube")
    assert out["payable"] and "unsupported" not in out


def test_player_of_your_choice_adds() -> None:
    """Victory Chimes "{T}: A player of your choice adds {C}.", Yurlok "Each player adds {B}{R}{G}.",
    Valleymaker "Choose a player. That player adds {G}{G}{G}.": the controller may be (is) that
    player (CR 106.3: mana added to another player's pool never pays this one's costs)."""
    db = default_db()
    assert db.get("Victory Chimes").mana_abilities[0].production.options == ((32,),)
    assert db.get("Yurlok of Scorch Thrash").unsupported == ()
    out = answer({"query": "pay", "state": _board("Yurlok of Scorch Thrash", "Wastes"), "cost": "{B}{R}"})
    assert out["payable"] and "{B}{R}{G}" in {a["mana"] for a in out["payment"]["activations"]}


def test_bloom_tender_one_mana_of_each_color_among_your_permanents() -> None:
    """Bloom Tender: "For each color among permanents you control, add one mana of that color."
    Beside Llanowar Elves and Raging Goblin it adds {R}{G} (itself green): {R}{G}{G} is paid by the
    Tender and the Elves."""
    state = _board("Bloom Tender", "Llanowar Elves", "Raging Goblin")
    out = answer({"query": "pay", "state": state, "cost": "{R}{G}{G}"})
    assert out["payable"] and {a["mana"] for a in out["payment"]["activations"]} == {"{R}{G}", "{G}"}
    assert answer({"query": "can_pay", "state": state, "cost": "{U}"})["payable"] is False
    assert _survey("Bloom Tender").get("unsupported") is None


def test_mana_abundance_the_player_still_adds_the_mana() -> None:
    """Mana Abundance ("If a player would add mana, instead all players add that mana."): the
    player adds it all the same; what the others add never pays this player's costs."""
    assert default_db().get("Mana Abundance").unsupported == ()
    assert _survey("Mana Abundance").get("unsupported") is None


def test_marwyn_adds_green_equal_to_her_power() -> None:
    """Marwyn, the Nurturer: "{T}: Add an amount of {G} equal to Marwyn's power." (short name of a
    legendary creature, CR 201.5)."""
    state = _board({"card": "Marwyn, the Nurturer", "counters": {"+1/+1": 2}})
    assert answer({"query": "can_pay", "state": state, "cost": "{G}{G}{G}"})["payable"] is True
    assert answer({"query": "can_pay", "state": state, "cost": "{G}{G}{G}{G}"})["payable"] is False


def test_granted_to_a_subtype_of_creatures_and_to_the_creatures_own_colors() -> None:
    """Manaweft Sliver ("Sliver creatures you control have "{T}: Add one mana of any color."") gives
    itself the ability; Katilda's "Human creatures you control have "{T}: Add one mana of any of
    this creature's colors."" makes Katilda (green and white) tap for {G} or {W} (CR 613.1f)."""
    assert answer({"query": "can_pay", "state": _board("Manaweft Sliver"), "cost": "{U}"})["payable"] is True
    katilda = _board("Katilda, Dawnhart Prime")
    assert answer({"query": "can_pay", "state": katilda, "cost": "{W}"})["payable"] is True
    assert answer({"query": "can_pay", "state": katilda, "cost": "{U}"})["payable"] is False


def test_grants_to_creatures_with_counters() -> None:
    """Rishkar: "Each creature you control with a counter on it has "{T}: Add {G}."": a Grizzly
    Bears with a +1/+1 counter taps for {G}, one without does not; Jiang Yanggu needs a +1/+1
    counter, not any counter."""
    state = _board("Rishkar, Peema Renegade", {"card": "Grizzly Bears", "counters": {"+1/+1": 1}}, "Grizzly Bears")
    assert answer({"query": "can_pay", "state": state, "cost": "{G}"})["payable"] is True
    assert answer({"query": "can_pay", "state": state, "cost": "{G}{G}"})["payable"] is False
    jiang = _board("Jiang Yanggu, Wildcrafter", {"card": "Grizzly Bears", "counters": {"-1/-1": 1}})
    assert answer({"query": "can_pay", "state": jiang, "cost": "{R}"})["payable"] is False


def test_grants_of_an_aura_while_the_permanent_has_a_type() -> None:
    """Nature's Embrace: "As long as enchanted permanent is a land, it has "{T}: Add two mana of any
    one color."" on a Plains pays {G}{G}; Careful Cultivation's grant needs a creature, so on the
    Plains it gives nothing; unattached they give nothing."""
    state = _board({"id": "w", "card": "Plains"}, {"card": "Nature's Embrace", "attached_to": "w"})
    assert answer({"query": "can_pay", "state": state, "cost": "{G}{G}"})["payable"] is True
    state = _board({"id": "w", "card": "Plains"}, {"card": "Careful Cultivation", "attached_to": "w"})
    assert answer({"query": "can_pay", "state": state, "cost": "{G}"})["payable"] is False
    for card in ("Nature's Embrace", "Careful Cultivation"):
        assert _survey(card).get("unsupported") is None, card


def test_world_tree_grant_needs_six_lands() -> None:
    """The World Tree: "As long as you control six or more lands, lands you control have "{T}: Add
    one mana of any color."": with five Forests (six lands) {U} is payable, with four it is not."""
    assert answer({"query": "can_pay", "state": _board("The World Tree", *["Forest"] * 5), "cost": "{U}"})["payable"]
    assert not answer({"query": "can_pay", "state": _board("The World Tree", *["Forest"] * 4),
                       "cost": "{U}"})["payable"]


def test_graveyard_mana_does_nothing_on_the_battlefield_and_is_refused_from_the_graveyard() -> None:
    """Jack-o'-Lantern ("{1}, Exile ~ from your graveyard: Add one mana of any color.") and Riftstone
    Portal ("As long as ~ is in your graveyard, lands you control have …") do nothing on the
    battlefield; in the player's graveyard they are refused, naming the graveyard position."""
    for card in ("Jack-o'-Lantern", "Riftstone Portal"):
        assert _survey(card).get("unsupported") is None, card
    state = _board("Forest")
    state["players"][0]["graveyard"] = ["Grizzly Bears", "Riftstone Portal"]
    out = answer({"query": "pay", "state": state, "cost": "{G}"})
    assert out["error"]["code"] == "unsupported" and out["error"]["where"] == "players[0].graveyard[1]"


def test_joraga_treespeaker_levels() -> None:
    """Joraga Treespeaker (CR 711.2, 711.5): "{T}: Add {G}{G}." at LEVEL 1-4; at LEVEL 5+ "Elves you
    control have "{T}: Add {G}{G}."" (itself included); with no level counter it has neither."""
    def state(level: int) -> dict[str, Any]:
        joraga: dict[str, Any] = {"card": "Joraga Treespeaker"}
        if level:
            joraga["counters"] = {"level": level}
        return _board(joraga, "Llanowar Elves")
    def most(level: int) -> int:
        return max(n for n in range(6) if answer({"query": "can_pay", "state": state(level),
                                                  "cost": "{G}" * n or "{0}"})["payable"])
    assert [most(level) for level in (0, 1, 4, 5)] == [1, 3, 3, 4]


def test_pulse_of_llanowar_basic_lands_make_any_color() -> None:
    """Pulse of Llanowar: "If a basic land you control is tapped for mana, it produces mana of a
    color of your choice instead of any other type." (CR 614, 106.12): Plains and Island pay {G}{B};
    a nonbasic Tundra still makes only {W} or {U}."""
    assert answer({"query": "can_pay", "state": _board("Pulse of Llanowar", "Plains", "Island"),
                   "cost": "{G}{B}"})["payable"] is True
    state = _board("Pulse of Llanowar", "Tundra")
    assert answer({"query": "can_pay", "state": state, "cost": "{G}"})["payable"] is False
    assert _survey("Pulse of Llanowar").get("unsupported") is None


def test_spend_as_though_applied_where_its_scope_reaches() -> None:
    """CR 609.4b: Sunglasses of Urza ("spend white mana as though it were red mana") lets a Plains
    pay {R}; Oath of Nissa (planeswalker spells) and Vizier of the Menagerie (creature spells) only
    for their spells; Chromatic Orrery ("… mana of any color") lets its own {C} pay any colored
    symbol (tests/rules/test_spend_as_609_4b.py has the cases, rule by rule)."""
    assert _survey("Sunglasses of Urza").get("unsupported") is None
    out = answer({"query": "pay", "state": _board("Sunglasses of Urza", "Plains"), "cost": "{R}"})
    assert out["payable"] is True
    assert _survey("Oath of Nissa").get("unsupported") is None
    assert _survey("Vizier of the Menagerie", spell={"types": ["Creature"]})["payable"] is True
    assert _survey("Vizier of the Menagerie", cost="{C}", spell={"types": ["Creature"]})["payable"] is True
    assert _survey("Vizier of the Menagerie", cost="{C}", spell={"types": ["Instant"]})["payable"] is False
    assert _survey("Chromatic Orrery", cost="{W}{U}{B}{R}{G}")["payable"] is True
    assert answer({"query": "pay", "state": _board("Chromatic Orrery"), "cost": "{3}"})["payable"] is True


def test_all_activated_abilities_of_given_or_refused_naming_what_is_missing() -> None:
    """Layer 6 (CR 613.1f): Necrotic Ooze has the abilities of creature cards in all graveyards:
    none there, it changes nothing; Llanowar Elves in a graveyard lets it tap for {G}.  Manascape
    Refractor (all lands' abilities) beside the basics pays.  Myr Welder's "cards exiled with it"
    without ``imprinted`` is unsupported naming the field.  The cards themselves:
    tests/rules/test_abilities_of_613_1f.py."""
    assert _survey("Necrotic Ooze").get("unsupported") is None
    state = _board("Necrotic Ooze", "Forest")
    state["players"][1]["graveyard"] = ["Llanowar Elves"]
    assert answer({"query": "pay", "state": state, "cost": "{G}{G}"})["payable"] is True
    out = _survey("Manascape Refractor")
    assert out["payable"] is True and "unsupported" not in out
    welder = _survey("Myr Welder")
    assert welder["error"]["code"] == "unsupported" and welder["error"]["where"].endswith(".imprinted"), welder


def test_overabundance_adds_mana_and_deals_damage() -> None:
    """Overabundance: "Whenever a player taps a land for mana, that player adds one mana of any type
    that land produced, and ~ deals 1 damage to the player." (CR 605.1b, 603.2): a Forest pays
    {G}{G} for 1 damage."""
    out = answer({"query": "pay", "state": _board("Overabundance", "Forest"), "cost": "{G}{G}"})
    assert out["payable"] and out["payment"]["damage"] == 1


def test_saga_chapter_grants_follow_the_lore_counters() -> None:
    """CR 714.2b: Urza's Saga's "I — ~ gains "{T}: Add {C}."" holds from one lore counter on; Song of
    Freyalise's "I, II — Until your next turn, creatures you control gain …" with one or two (the
    third chapter starts that next turn); Pygmy Hippo's attack trigger is no mana text."""
    def can(card: str, lore: int, cost: str) -> bool:
        saga: dict[str, Any] = {"card": card}
        if lore:
            saga["counters"] = {"lore": lore}
        return bool(answer({"query": "can_pay", "state": _board(saga, "Grizzly Bears"), "cost": cost})["payable"])
    assert [can("Urza's Saga", n, "{C}") for n in range(4)] == [False, True, True, True]
    assert [can("Song of Freyalise", n, "{U}") for n in range(4)] == [False, True, True, False]
    assert default_db().get("Pygmy Hippo").unsupported == ()
