"""Mana text of cards printed to mid-2026, read exactly: each card's ability adds what it says and
is paid as it says, and every payment is checked by ``validate``."""

from __future__ import annotations

from typing import Any

from cards import pay_validated as _pay

from manasolver.models.carddb import default_db
from manasolver.solver.service.protocol import answer


def _board(*perms: dict[str, Any] | str, **player: Any) -> dict[str, Any]:
    field = [{"id": f"p{i}", **({"card": p} if isinstance(p, str) else p)} for i, p in enumerate(perms)]
    return {"players": [{"name": "you", **player}, {"name": "opp"}], "battlefield": field}


def _mana(out: dict[str, Any], pid: str = "p0") -> str:
    return "".join(a["mana"] for a in out["payment"]["activations"] if a["permanent"] == pid)


def _read(name: str) -> tuple[str, ...]:
    """The card's clauses the parser leaves unread (none for the cards here)."""
    return default_db().get(name).unsupported


def test_yuna_grand_summoner_flavor_word_any_color() -> None:
    """Yuna, Grand Summoner: "Grand Summon — {T}: Add one mana of any color. When you next cast a
    creature spell this turn, …": the flavor word has no rules meaning (CR 207.2c), the delayed
    trigger changes no payment."""
    assert not _read("Yuna, Grand Summoner")
    assert _mana(_pay(_board("Yuna, Grand Summoner"), "{U}")) == "{U}"


def test_hydraulic_helper_cant_pay_a_nonartifact_spell_106_6() -> None:
    """Hydraulic Helper: "{T}: Add {U}. This mana can't be spent to cast a nonartifact spell"
    (CR 106.6): it pays an artifact spell, not a creature spell."""
    board = _board("Hydraulic Helper")
    art = answer({"query": "pay", "cost": "{U}", "spell": {"card": "Ornithopter"}, "state": board})
    assert art["payable"] is True and _mana(art) == "{U}"
    bears = answer({"query": "pay", "cost": "{U}", "spell": {"card": "Grizzly Bears"}, "state": board})
    assert bears["payable"] is False


def test_famous_museum_adds_one_plus_one_per_art_counter() -> None:
    """Famous Museum: "{T}: Add {C}, plus an additional {C} for each art counter on ~"."""
    assert _mana(_pay(_board({"card": "Famous Museum", "counters": {"art": 2}}), "{3}")) == "{C}{C}{C}"
    assert _pay(_board({"card": "Famous Museum", "counters": {"art": 1}}), "{3}")["payable"] is False
    assert _mana(_pay(_board("Famous Museum"), "{1}")) == "{C}"


def test_lys_alana_dignitary_needs_an_elf_card_in_the_graveyard_602_5b() -> None:
    """Lys Alana Dignitary: "{T}: Add {G}{G}. Activate only if there is an Elf card in your
    graveyard" (CR 602.5b)."""
    with_elf = _pay(_board("Lys Alana Dignitary", graveyard=["Llanowar Elves"]), "{G}{G}")
    assert _mana(with_elf) == "{G}{G}"
    assert _pay(_board("Lys Alana Dignitary", graveyard=["Grizzly Bears"]), "{G}{G}")["payable"] is False
    assert _pay(_board("Lys Alana Dignitary"), "{G}")["payable"] is False


def test_swampbenders_lands_you_control_are_swamps_305_7() -> None:
    """Swampbenders: "Lands you control are Swamps in addition to their other types" (CR 305.7):
    a Forest taps for {B} or {G}."""
    out = _pay(_board({"card": "Swampbenders", "sick": True}, "Forest"), "{B}")
    assert _mana(out, "p1") == "{B}"
    assert _pay(_board("Grizzly Bears", "Forest"), "{B}")["payable"] is False


def test_the_cabbage_merchant_taps_two_foods() -> None:
    """The Cabbage Merchant: "Tap two untapped Foods you control: Add one mana of any color"."""
    food = {"name": "Food", "type_line": "Artifact — Food", "token": True,
            "oracle_text": "{2}, {T}, Sacrifice this token: You gain 3 life."}
    out = _pay(_board("The Cabbage Merchant", food, food), "{W}")
    assert _mana(out) == "{W}"
    assert _pay(_board("The Cabbage Merchant", food), "{W}")["payable"] is False


def test_rubble_rouser_exiles_a_graveyard_card_for_r() -> None:
    """Rubble Rouser: "{T}, Exile a card from your graveyard: Add {R}. When you do, this creature
    deals 1 damage to each opponent": the reflexive trigger hurts only opponents."""
    assert _mana(_pay(_board("Rubble Rouser", graveyard=["Shock"]), "{R}")) == "{R}"
    assert _pay(_board("Rubble Rouser"), "{R}")["payable"] is False


def test_tower_worker_instead_with_both_named_workers() -> None:
    """Tower Worker: "{T}: Add {C}. If you control creatures named Mine Worker and Power Plant
    Worker, add {C}{C}{C} instead"."""
    assert _mana(_pay(_board("Tower Worker", "Mine Worker", "Power Plant Worker"), "{3}")) == "{C}{C}{C}"
    assert _pay(_board("Tower Worker", "Mine Worker"), "{2}")["payable"] is False


def test_uthros_titanic_godcore_station_ability_needs_charge_counters() -> None:
    """Uthros, Titanic Godcore: "12+ | {U}, {T}: Add {U} for each artifact you control": only with
    twelve charge counters."""
    arts = ["Ornithopter", "Ornithopter", "Ornithopter"]
    charged = _board({"card": "Uthros, Titanic Godcore", "counters": {"charge": 12}}, "Island", *arts)
    assert _pay(charged, "{U}{U}")["payable"] is True
    flat = _board({"card": "Uthros, Titanic Godcore", "counters": {"charge": 11}}, "Island", *arts)
    assert _pay(flat, "{U}{U}{U}")["payable"] is False


def test_a_vivi_ornitier_names_itself_without_the_alchemy_prefix() -> None:
    """A-Vivi Ornitier: "{T}: Add X mana in any combination of {U} and/or {R}, where X is Vivi
    Ornitier's power": the rebalanced card's text names it without "A-"."""
    vivi = _board({"card": "A-Vivi Ornitier", "counters": {"+1/+1": 2}})  # power 0 + 2
    out = _pay(vivi, "{U}{R}")
    assert out["payable"] is True and "unsupported" not in out and _mana(out) in ("{U}{R}", "{R}{U}")
    assert _pay(vivi, "{U}{R}{R}")["payable"] is False


def test_riders_that_change_no_payment_are_read() -> None:
    """Riders after the mana that change no payment (a flavor word, charge counters put on it, a
    delayed trigger on the next {X} spell, a rider on the spell the mana pays): these cards' mana
    abilities are read whole."""
    for name in ("Brass Infiniscope", "Biophagus", "The Golden Throne", "Runecarved Obelisk", "Haruspex",
                 "Andrios, Roaming Explorer", "Animal Attendant", "Black Tom Cassidy", "Shaun & Rebecca, Agents",
                 "The Goblin Sparring Grounds", "The Magical City, New", "Under-Construction Skyscraper"):
        assert not [c for c in _read(name) if "Add" in c], name


def test_tablet_of_compleation_needs_two_oil_counters_602_5b() -> None:
    """Tablet of Compleation: "{T}: Add {C}. Activate only if this artifact has two or more oil
    counters on it"."""
    assert _mana(_pay(_board({"card": "Tablet of Compleation", "counters": {"oil": 2}}), "{1}")) == "{C}"
    assert _pay(_board({"card": "Tablet of Compleation", "counters": {"oil": 1}}), "{1}")["payable"] is False


def test_battery_bearer_grants_c_for_artifact_spells() -> None:
    """Battery Bearer: creatures you control have "{T}: Add {C}. This mana can't be spent to cast a
    nonartifact spell": a Grizzly Bears pays an artifact spell's {1}, not a creature spell's."""
    board = _board({"card": "Battery Bearer", "sick": True}, "Grizzly Bears")
    art = answer({"query": "pay", "cost": "{1}", "spell": {"card": "Ornithopter"}, "state": board})
    assert art["payable"] is True and _mana(art, "p1") == "{C}"
    bears = answer({"query": "pay", "cost": "{1}", "spell": {"card": "Grizzly Bears"}, "state": board})
    assert bears["payable"] is False


def test_a_realm_reborn_grants_any_color_to_other_permanents_613_1f() -> None:
    """A Realm Reborn: "Other permanents you control have "{T}: Add one mana of any color."" (layer
    6): an artifact without abilities taps for {G}; the enchantment itself does not."""
    out = _pay(_board("A Realm Reborn", "Darksteel Relic"), "{G}")
    assert _mana(out, "p1") == "{G}"
    assert _pay(_board("A Realm Reborn", "Darksteel Relic"), "{G}{G}")["payable"] is False


def test_brightcap_badger_grants_g_to_fungi_and_saprolings() -> None:
    """Brightcap Badger: "Each Fungus and Saproling you control has "{T}: Add {G}."": a Saproling
    token and a Fungus do, a Grizzly Bears does not."""
    saproling = {"name": "Saproling", "type_line": "Creature — Saproling", "token": True, "oracle_text": ""}
    out = _pay(_board({"card": "Brightcap Badger", "sick": True}, saproling, "Deathspore Thallid"), "{G}{G}")
    assert _mana(out, "p1") == "{G}" and _mana(out, "p2") == "{G}"
    assert _pay(_board({"card": "Brightcap Badger", "sick": True}, "Grizzly Bears"), "{G}")["payable"] is False


def test_urzas_workshop_metalcraft_counts_urzas_lands() -> None:
    """Urza's Workshop: "Metalcraft — {T}: Add {C} for each Urza's land you control. Activate only if
    you control three or more artifacts": itself and an Urza's Mine with three artifacts; none
    without them."""
    arts = ("Darksteel Relic", "Darksteel Relic", "Darksteel Relic")
    out = _pay(_board("Urza's Workshop", {"card": "Urza's Mine", "tapped": True}, *arts), "{2}")
    assert _mana(out) == "{C}{C}"
    two = _board("Urza's Workshop", {"card": "Urza's Mine", "tapped": True}, *arts[:2])
    assert _pay(two, "{2}")["payable"] is False


def _attached(equipment: str) -> dict[str, Any]:
    return _board("Grizzly Bears", {"card": equipment, "attached_to": "p0"})


def test_summoning_materia_equipped_creature_taps_for_g() -> None:
    """Summoning Materia: "Equipped creature gets +2/+2 and has vigilance and "{T}: Add {G}."": the
    equipped Grizzly Bears taps for {G}; an unequipped one does not."""
    assert _mana(_pay(_attached("Summoning Materia"), "{G}")) == "{G}"
    assert _pay(_board("Grizzly Bears", "Summoning Materia"), "{G}")["payable"] is False


def test_lotus_ring_equipped_creature_sacrificed_for_three() -> None:
    """Lotus Ring: the equipped creature has "{T}, Sacrifice this creature: Add three mana of any one
    color": it pays {R}{R}{R} by sacrificing itself."""
    out = _pay(_attached("Lotus Ring"), "{R}{R}{R}")
    (act,) = out["payment"]["activations"]
    assert act["permanent"] == "p0" and act["mana"] == "{R}{R}{R}" and "sacrifice" in act["costs"]


def test_leyline_immersion_five_mana_only_for_spells_106_6() -> None:
    """Leyline Immersion: enchanted creature has ward {2} and "{T}: Add five mana in any combination
    of colors. Spend this mana only to cast spells": it pays a spell, not a cost with no spell."""
    board = _attached("Leyline Immersion")
    spell = answer({"query": "pay", "cost": "{1}{G}", "spell": {"card": "Grizzly Bears"}, "state": board})
    assert spell["payable"] is True and len(_mana(spell)) == 15  # five mana symbols, three wasted
    assert _pay(board, "{1}{G}")["payable"] is False


def test_vivi_ornitier_only_during_your_turn_once_602_5b() -> None:
    """Vivi Ornitier: "{0}: Add X mana in any combination of {U} and/or {R}, where X is ~'s power.
    Activate only during your turn and only once each turn"."""
    def board(active: str) -> dict[str, Any]:
        out = _board({"card": "Vivi Ornitier", "counters": {"+1/+1": 2}})
        out["turn"] = {"active": active, "step": "main1", "stack_empty": True}
        return out
    assert _pay(board("you"), "{U}{R}")["payable"] is True
    assert _pay(board("opp"), "{U}")["payable"] is False


def test_nexos_flavor_word_grant_cc_only_for_x_costs() -> None:
    """Nexos: "Strategic Coordinator — Basic lands you control have "{T}: Add {C}{C}. Spend this mana
    only on costs that contain {X}."": two Mountains pay Blaze with X = 2, not Shock's {2}."""
    board = _board({"card": "Nexos", "sick": True}, "Mountain", "Mountain")
    blaze = answer({"query": "pay", "spell": {"card": "Blaze"}, "x": 2, "state": board})
    assert blaze["payable"] is True and sorted(_mana(blaze, p) for p in ("p1", "p2")) == ["{C}{C}", "{R}"]
    assert answer({"query": "pay", "spell": {"card": "Blaze"}, "x": 2,
                   "state": _board("Grizzly Bears", "Mountain", "Mountain")})["payable"] is False


def test_the_food_court_wording_sacrifices_three_foods() -> None:
    """The Food Court's "Sacrifice three Foods: Add {W}{U}{B}{R}{G}. Activate only once each turn and
    only during your turn" (on an artifact given by its text, the plane being no permanent): three
    Foods pay it, two do not."""
    food = {"name": "Food", "type_line": "Artifact — Food", "token": True,
            "oracle_text": "{2}, {T}, Sacrifice this token: You gain 3 life."}
    court = {"name": "Court", "type_line": "Artifact", "oracle_text":
             "Sacrifice three Foods: Add {W}{U}{B}{R}{G}. Activate only once each turn and only during your turn."}
    out = _pay(_board(court, food, food, food), "{W}{U}")
    assert _mana(out) == "{W}{U}{B}{R}{G}" and out["payment"]["activations"][0]["costs"].count("sacrifice a food") == 3
    assert _pay(_board(court, food, food), "{W}")["payable"] is False


def test_the_core_counts_permanent_cards_in_the_graveyard_110_4a() -> None:
    """The Core (Matzalantli's back face): "Fathomless descent — {T}: Add X mana of any one color,
    where X is the number of permanent cards in your graveyard": a creature and a land card count,
    an instant does not."""
    core = {"name": "Core", "type_line": "Land", "oracle_text": "Fathomless descent — {T}: Add X mana of any one "
            "color, where X is the number of permanent cards in your graveyard."}
    board = _board(core, graveyard=["Grizzly Bears", "Forest", "Shock"])
    assert _mana(_pay(board, "{B}{B}")) == "{B}{B}"
    assert _pay(board, "{B}{B}{B}")["payable"] is False


def test_second_city_restriction_not_checked_is_never_assumed_met_106_6() -> None:
    """Second City: "{T}: Add one mana of any color. Spend this mana only to cast your second spell in
    a turn. When that mana is spent, create a Deep Dish Pizza token": the restriction is one the
    engine does not check against a spell, so the mana pays no cost without a spell and a named
    spell is refused naming the clause; its {C} ability still pays."""
    board = _board("Second City")
    assert _pay(board, "{W}")["payable"] is False
    assert _mana(_pay(board, "{1}")) == "{C}"
    out = answer({"query": "pay", "cost": "{W}", "spell": {"card": "Savannah Lions"}, "state": board})
    assert out["error"]["code"] == "unsupported" and "second spell" in out["error"]["message"]


def test_pit_of_offerings_adds_the_exiled_cards_colors_607_2() -> None:
    """Pit of Offerings: "{T}: Add one mana of any of the exiled cards' colors" (the cards its
    enters trigger exiled, the board's ``imprinted``, CR 607.2): {R} or {G} with a Shock and a Giant
    Growth exiled, never {U}."""
    board = _board({"card": "Pit of Offerings", "imprinted": ["Shock", "Giant Growth"]})
    assert _mana(_pay(board, "{G}")) == "{G}" and _mana(_pay(board, "{R}")) == "{R}"
    assert _pay(board, "{U}")["payable"] is False
    assert _pay(_board({"card": "Pit of Offerings", "imprinted": []}), "{R}")["payable"] is False


def test_petrified_hamlet_lands_with_the_chosen_name_tap_for_c_613_1f() -> None:
    """Petrified Hamlet: "Lands with the chosen name have "{T}: Add {C}."" (the board's
    ``chosen.name``): with Forest chosen a Forest taps for {C}; with Island chosen, or none given, it
    does not."""
    def board(chosen: str | None) -> dict[str, Any]:
        hamlet: dict[str, Any] = {"card": "Petrified Hamlet"}
        if chosen:
            hamlet["chosen"] = {"name": chosen}
        return _board(hamlet, "Forest")
    out = _pay(board("Forest"), "{C}{C}")
    assert _mana(out) == "{C}" and _mana(out, "p1") == "{C}"
    assert _pay(board("Island"), "{C}{C}")["payable"] is False
    assert _pay(board(None), "{C}{C}")["payable"] is False
