"""The seed cards' rulings, end to end through the protocol.

Each test is named after the card and states the behaviour; the docstring cites
the rule or ruling.  Boards are real cards from the bundled database unless a
card is newer than the data (Nissa, Worldsoul Speaker), which is given inline.
"""

from __future__ import annotations

from typing import Any

from manasolver.solver.service.protocol import answer


def board(*cards: str | dict[str, Any], life: int = 20, energy: int = 0, **player: Any) -> dict[str, Any]:
    perms = []
    for i, c in enumerate(cards):
        perms.append({"id": f"p{i}", "card": c} if isinstance(c, str) else {"id": f"p{i}", **c})
    return {"players": [{"name": "you", "life": life, "energy": energy, **player}, {"name": "opp"}],
            "battlefield": perms}


def ask(query: str, state: dict[str, Any], **fields: Any) -> dict[str, Any]:
    result = answer({"query": query, "state": state, **fields})
    assert "error" not in result, result
    return result


def pay(state: dict[str, Any], **fields: Any) -> dict[str, Any]:
    result = ask("pay", state, **fields)
    if result["payable"]:
        check = answer({"query": "validate", "state": state, "payment": result["payment"],
                        **{k: v for k, v in fields.items() if k != "policy"}})
        assert check.get("legal") is True, (result, check)
    return result


WUBR_WASTES = ("Plains", "Island", "Swamp", "Mountain", "Wastes")
REAPER = {"card": "Reaper King"}


# --- Reaper King -------------------------------------------------------------------------------

def test_reaper_king_has_mana_value_10_and_all_five_colors() -> None:
    """T01/T02 (202.3f, 202.2d): MV 10 in every zone, all five colors however paid."""
    assert answer({"query": "mana_value", "card": "Reaper King"}) == {
        "mana_value": 10, "colors": ["W", "U", "B", "R", "G"]}


def test_reaper_king_reduction_needs_a_generic_choice() -> None:
    """T54 (118.7a; Reaper King ruling 2008-05-01): {1} off applies only to a {2/x} announced as {2}.

    Plains, Island, Swamp, Mountain and Wastes: {2/G} must be announced as {2}, reduced to {1}, paid
    by the Wastes.  Without the reduction the same board can't pay it."""
    state = board(*WUBR_WASTES)
    result = pay(state, spell=REAPER, modifiers=[{"reduce": "{1}"}])
    assert result["payable"] is True
    assert result["payment"]["total"] == "{1}{W}{U}{B}{R}"
    assert {"symbol": "{2/G}", "paid_as": "{2}"} in result["payment"]["choices"]
    assert ask("can_pay", state, spell=REAPER)["payable"] is False


def test_reaper_king_total_follows_the_announced_halves() -> None:
    """T53/T54 (118.7a): the total is the announced halves minus the reduction on generic only.

    With five basics either announcement works; whichever the solver picks, the total must be
    the colored halves plus the {2} halves less {1} (never a reduced colored symbol)."""
    state = board("Plains", "Island", "Swamp", "Mountain", "Forest")
    payment = pay(state, spell=REAPER, modifiers=[{"reduce": "{1}"}])["payment"]
    generic = sum(2 for c in payment["choices"] if c["paid_as"] == "{2}")
    colored = "".join(c["paid_as"] for c in payment["choices"] if c["paid_as"] != "{2}")
    expected = ("{%d}" % (generic - 1) if generic > 1 else "") + colored
    assert payment["total"] == expected
    assert len(payment["activations"]) == 5


def test_reaper_king_paid_with_ten_colorless() -> None:
    """T30 (107.4e): eight colorless and a {G} pay all five halves."""
    state = board(*["Sol Ring"] * 4, "Forest")
    result = pay(state, spell=REAPER)
    assert result["payable"] is True
    assert result["payment"]["total"] == "{8}{G}"


def test_reaper_king_heartless_summoning_on_two_generic_halves() -> None:
    """T55 (118.7a): Heartless Summoning takes {2} off the halves announced as {2}."""
    state = board("Heartless Summoning", "Swamp", "Mountain", "Forest", "Wastes", "Wastes")
    result = pay(state, spell=REAPER)
    assert result["payable"] is True
    assert result["payment"]["total"] == "{2}{B}{R}{G}"


# --- Overlord of the Hauntwoods ----------------------------------------------------------------

OVERLORD = {"card": "Overlord of the Hauntwoods"}


def test_overlord_of_the_hauntwoods_impending_cost() -> None:
    """T47 (702.176a, 118.9): impending {1}{G}{G} instead of {3}{G}{G}."""
    state = board("Forest", "Forest", "Forest")
    result = pay(state, spell=OVERLORD, alternative="impending")
    assert result["payable"] is True and result["payment"]["total"] == "{1}{G}{G}"
    assert ask("can_pay", state, spell=OVERLORD)["payable"] is False


def test_overlord_of_the_hauntwoods_mana_value_stays_5() -> None:
    """T15 (118.9c): an alternative cost never changes mana value."""
    assert answer({"query": "mana_value", "card": "Overlord of the Hauntwoods"})["mana_value"] == 5


def test_overlord_of_the_hauntwoods_increase_applies_to_impending() -> None:
    """T48 (118.9d): Sphere of Resistance makes impending {2}{G}{G}."""
    state = board("Sphere of Resistance", "Forest", "Forest", "Forest", "Forest")
    result = pay(state, spell=OVERLORD, alternative="impending")
    assert result["payment"]["total"] == "{2}{G}{G}"


def test_overlord_of_the_hauntwoods_is_still_a_creature_spell() -> None:
    """T49 (DSK ruling): creature-spell reductions apply to the impending cost: {G}{G}."""
    state = board("Forest", "Forest", {"card": "Heartless Summoning"})
    result = pay(state, spell=OVERLORD, alternative="impending", modifiers=[])
    assert result["payment"]["total"] == "{G}{G}"


def test_overlord_of_the_hauntwoods_only_one_alternative_cost() -> None:
    """T50 (118.9a): at most one alternative cost."""
    result = ask("pay", board("Forest"), spell=OVERLORD, alternative=["impending", "without_paying_mana_cost"])
    assert result == {"payable": False, "reason": {
        "code": "not_castable", "message": result["reason"]["message"]}}
    assert "118.9a" in result["reason"]["message"]


def test_overlord_of_the_hauntwoods_impending_at_sorcery_speed() -> None:
    """CR 307.1: cast for impending during the opponent's turn is a timing failure."""
    state = board("Forest", "Forest", "Forest")
    state["turn"] = {"active": "opp", "step": "end", "stack_empty": True}
    result = ask("pay", state, spell=OVERLORD, alternative="impending")
    assert result["payable"] is False and result["reason"]["code"] == "timing"


def test_overlord_of_the_hauntwoods_with_time_counters_is_not_a_creature() -> None:
    """702.176a, CR 110.4b: impending with time counters is not a creature; a copy is."""
    impending = board({"card": "Overlord of the Hauntwoods", "cast_for": "impending", "counters": {"time": 4}})
    assert ask("counts", impending)["card_types"] == ["enchantment"]
    copy = board({"card": "Overlord of the Hauntwoods"})
    assert ask("counts", copy)["card_types"] == ["creature", "enchantment"]


# --- Happily Ever After ------------------------------------------------------------------------

def test_happily_ever_after_lands_are_colorless_and_supertypes_do_not_count() -> None:
    """T17, T20 (202.2b, 205.4a; Happily Ever After ruling 2019-10-04)."""
    result = ask("counts", board("Plains", "Island", "Swamp", "Mountain", "Snow-Covered Forest", "Everywhere"))
    assert result["colors_among_permanents"] == []
    assert result["card_types"] == ["land"]
    assert result["domain"] == 5


def test_happily_ever_after_reaper_king_alone_gives_five_colors() -> None:
    """T18 (202.2d): one five-color permanent is enough."""
    assert ask("counts", board("Reaper King"))["colors_among_permanents"] == ["W", "U", "B", "R", "G"]


def test_happily_ever_after_adventurer_counts_only_creature() -> None:
    """T21 (715.4): Bonecrusher Giant in the graveyard is a creature card only."""
    result = ask("counts", board(graveyard=["Bonecrusher Giant"]))
    assert result["card_types"] == ["creature"]


# --- Gitaxian Probe and Dismember --------------------------------------------------------------

def test_gitaxian_probe_for_2_life_at_2_life() -> None:
    """T32 (119.4, 107.4f): life may go to 0."""
    result = pay(board(life=2), cost="{U/P}")
    assert result["payable"] is True
    assert result["payment"]["life"] == 2
    assert result["payment"]["choices"] == [{"symbol": "{U/P}", "paid_as": "life"}]


def test_gitaxian_probe_not_at_1_life() -> None:
    """T33 (119.4; Phyrexian ruling 2011-06-01): can't pay 2 life with 1."""
    result = ask("pay", board(life=1), cost="{U/P}")
    assert result["payable"] is False
    assert result["reason"]["code"] in ("insufficient_life", "insufficient_mana")


def test_dismember_with_one_colorless_and_four_life() -> None:
    """T34 (107.4f, 601.2b): {C} pays {1}, both {B/P} as life: 4 life."""
    result = pay(board("Wastes"), cost="{1}{B/P}{B/P}")
    assert result["payable"] is True and result["payment"]["life"] == 4


def test_dismember_prefers_mana_over_life_by_default() -> None:
    """Policy min_life: with three Swamps, no life is paid."""
    result = pay(board("Swamp", "Swamp", "Swamp"), cost="{1}{B/P}{B/P}")
    assert result["payment"]["life"] == 0 and result["payment"]["total"] == "{1}{B}{B}"


# --- Nissa, Worldsoul Speaker (newer than the bundled data: inline) ----------------------------

NISSA = {"name": "Nissa, Worldsoul Speaker", "type_line": "Legendary Creature — Elf Druid",
         "mana_cost": "{3}{G}",
         "oracle_text": "Landfall — Whenever a land you control enters, you get {E}{E}.\n"
                        "You may pay eight {E} rather than pay the mana cost for permanent spells you cast."}


def test_nissa_worldsoul_speaker_eight_energy_casts_walking_ballista_with_x_0() -> None:
    """T42 (107.3b, 118.9): legal for eight {E}; X is 0."""
    result = pay(board(NISSA, energy=8), spell={"card": "Walking Ballista"}, alternative="energy")
    assert result["payable"] is True
    assert result["payment"]["energy"] == 8 and result["payment"]["x"] == 0


def test_nissa_worldsoul_speaker_seven_energy_is_not_enough() -> None:
    """T43 (118.3, 107.14)."""
    result = ask("pay", board(NISSA, energy=7), spell={"card": "Walking Ballista"}, alternative="energy")
    assert result["payable"] is False and result["reason"]["code"] == "insufficient_energy"


def test_nissa_worldsoul_speaker_x_must_be_0() -> None:
    """107.3b: X can't be chosen above 0 with an alternative cost without X."""
    result = ask("pay", board(NISSA, energy=8), spell={"card": "Walking Ballista"}, alternative="energy", x=2)
    assert result["payable"] is False and result["reason"]["code"] == "not_castable"


def test_nissa_worldsoul_speaker_thalia_adds_one_to_the_energy_cost() -> None:
    """T44 (118.9d): a noncreature artifact costs {1} plus eight {E} under Thalia."""
    state = board(NISSA, "Thalia, Guardian of Thraben", "Mind Stone", energy=8)
    result = pay(state, spell={"card": "Sol Ring"}, alternative="energy")
    assert result["payable"] is True
    assert result["payment"]["total"] == "{1}" and result["payment"]["energy"] == 8


def test_energy_never_paid_with_mana() -> None:
    """T45 (107.14): three energy and {R}{R}{R} floating can't pay four {E}."""
    result = ask("pay", board(energy=3, pool="{R}{R}{R}"), cost="{E}{E}{E}{E}")
    assert result["payable"] is False and result["reason"]["code"] == "insufficient_energy"


# --- Chord of Calling and Treasure Cruise: convoke and delve are refused until modelled -------

def test_chord_of_calling_convoke_is_decided_with_the_mana() -> None:
    """CR 702.51a (Chord of Calling ruling): convoke is decided inside the payment.

    Llanowar Elves and one Forest can't pay {G}{G}{G} with mana; a summoning-sick Grizzly
    Bears convokes for the third {G} (the Elves either taps for {G} or convokes: one tap)."""
    state = board("Llanowar Elves", "Forest", {"card": "Grizzly Bears", "sick": True})
    result = pay(state, spell={"card": "Chord of Calling"})
    assert result["payable"] is True
    payment = result["payment"]
    used = sorted(payment["convoked"] + [a["permanent"] for a in payment["activations"]])
    assert "p2" in payment["convoked"] and used == ["p0", "p1", "p2"]
    assert pay(state, spell={"card": "Chord of Calling"}, convoke=False)["payable"] is False
    # With enough lands the default policy pays with lands and convokes nothing.
    lands = board("Llanowar Elves", "Forest", "Forest", "Forest")
    mana_first = pay(lands, spell={"card": "Chord of Calling"})
    assert mana_first["payable"] is True and mana_first["payment"]["convoked"] == []


def test_treasure_cruise_delve_exiles_seven_and_pays_u() -> None:
    """CR 702.66a (Treasure Cruise ruling): exile 7 and pay {U}; delve can't pay {U}."""
    state = board("Island", graveyard=["Forest"] * 7)
    result = pay(state, spell={"card": "Treasure Cruise"})
    assert result["payable"] is True
    assert result["payment"]["delved"] == ["Forest"] * 7
    assert pay(board(graveyard=["Forest"] * 10), spell={"card": "Treasure Cruise"})["payable"] is False
    empty = board(*["Island"] * 8)
    assert pay(empty, spell={"card": "Treasure Cruise"})["payable"] is True


def test_converge_colors_spent_are_reported_and_maximised() -> None:
    """Converge and sunburst (CR 702.44a) count the colors spent: max_colors_spent picks three
    colors for {3} and the payment reports them (only when the policy asks about colors spent)."""
    state = board("Plains", "Island", "Forest", "Wastes")
    payment = pay(state, cost="{3}", policy=["max_colors_spent"])["payment"]
    assert payment["colors_spent"] == ["W", "U", "G"] and payment["spent"] == "{W}{U}{G}"
    assert "colors_spent" not in pay(state, cost="{3}")["payment"]


def test_adamant_requirement_that_cannot_be_met_is_a_mana_reason() -> None:
    """spend_color (adamant): one Forest pays {1} but can't spend three {G}; the reason says so."""
    result = ask("pay", board("Forest"), cost="{1}", policy={"criteria": ["min_sources"], "spend_color": {"G": 3}})
    assert result["payable"] is False
    assert result["reason"]["code"] == "insufficient_mana" and "spend_color" in result["reason"]["message"]
