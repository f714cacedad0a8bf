"""Effects on mana read from single cards' wordings and applied to payments (CR 106.12, 605.1b,
613.1d, 613.1f, 614.1a, 616.1, 700.9): Naked Singularity and Reality Twist (each land type's
replacement), Winter's Night (snow lands only), Elvish Guidance (an amount per Elf), Extraplanar
Lens (the imprinted land's name), Snowfall (mana only for cumulative upkeep), Lithoform Blight and
Alpine Moon (a land loses its types and abilities and gains others), Orochi Merge-Keeper (while
modified), Tomb of Urami (damage unless you control an Ogre), Star Compass and Plaza of Harmony
(what basic lands or Gates you control could produce, CR 106.7), and two whose form the board does not hold: Chaos
Moon (refused only where a Mountain
is tapped) and Glorious Sunrise (only after combat began on its controller's turn).  Every payment
is checked by ``validate``.
"""

from __future__ import annotations

from typing import Any

import pytest

from cards import json_board, pay_validated as _pay


def _payable(state: dict[str, Any], cost: str) -> bool:
    out = _pay(state, cost)
    assert "error" not in out, out
    return bool(out["payable"])


SURVEY = ("Plains", "Island", "Forest")


@pytest.mark.parametrize("name", ["Naked Singularity", "Reality Twist", "Chaos Moon", "Elvish Guidance",
                                  "Tomb of Urami", "Star Compass", "Plaza of Harmony",
                                  "Winter's Night", "Snowfall", "Orochi Merge-Keeper", "Lithoform Blight",
                                  "Alpine Moon", "Glorious Sunrise"])
def test_beside_three_basics_is_answered(name: str) -> None:
    """The survey's board, {1}{G}: answered, no source left out (under Reality Twist the Forest
    makes {B}, so nothing pays {G})."""
    out = _pay(json_board(name, *SURVEY), "{1}{G}")
    assert out.get("payable") is (name != "Reality Twist") and "unsupported" not in out, out


def test_naked_singularity_each_basic_type_makes_another_color_614_1a() -> None:
    """Naked Singularity: "If tapped for mana, Plains produce {R}, Islands produce {G}, Swamps produce
    {W}, Mountains produce {U}, and Forests produce {B} instead of any other type.\""""
    state = json_board("Naked Singularity", *SURVEY)
    assert _payable(state, "{R}{G}{B}")
    assert not _payable(state, "{W}") and not _payable(state, "{U}")
    # a land of two types meets both replacements, in the order its controller chooses (616.1)
    dual = json_board("Naked Singularity", "Tundra")
    assert _payable(dual, "{R}") and _payable(dual, "{G}") and not _payable(dual, "{W}")


def test_reality_twist_leaves_islands_alone_614_1a() -> None:
    """Reality Twist names no Islands: an Island still adds {U}; Forests make {B}."""
    state = json_board("Reality Twist", *SURVEY)
    assert _payable(state, "{U}{R}{B}")
    assert not _payable(state, "{G}")


def test_winters_night_adds_the_type_a_snow_land_produced_605_1b() -> None:
    """Winter's Night: "Whenever a player taps a snow land for mana, that player adds one mana of any
    type that land produced.": a snow Forest makes {G}{G}, a Forest {G}."""
    assert _payable(json_board("Winter's Night", "Snow-Covered Forest"), "{G}{G}")
    assert not _payable(json_board("Winter's Night", "Forest"), "{G}{G}")


def test_elvish_guidance_adds_one_green_per_elf_605_1b() -> None:
    """Elvish Guidance on a Forest with two Elves on the battlefield (one an opponent's): {G}{G}{G}
    from the Forest alone."""
    state = json_board({"card": "Elvish Guidance", "attached_to": "p1"}, "Forest",
                       {"card": "Llanowar Elves", "tapped": True},
                       {"card": "Llanowar Elves", "controller": "opp"})
    assert _payable(state, "{G}{G}{G}")
    assert not _payable(state, "{G}{G}{G}{G}")
    alone = json_board({"card": "Elvish Guidance", "attached_to": "p1"}, "Forest")
    assert not _payable(alone, "{G}{G}")  # no Elf: nothing more


def test_extraplanar_lens_reads_the_imprinted_land() -> None:
    """Extraplanar Lens: "Whenever a land with the same name as the exiled card is tapped for mana,
    its controller adds one mana of any type that land produced." (CR 607.2a)."""
    forest = json_board({"card": "Extraplanar Lens", "imprinted": ["Forest"]}, "Forest", "Island")
    assert _payable(forest, "{G}{G}{U}")
    assert not _payable(forest, "{U}{U}")
    out = _pay(json_board("Extraplanar Lens", "Forest"), "{G}")
    assert out["error"]["code"] == "unsupported" and out["error"]["where"] == "battlefield[0].imprinted"


def test_snowfall_mana_pays_only_cumulative_upkeep_106_6() -> None:
    """Snowfall's extra {U} may be spent only on cumulative upkeep costs, which no cost asked here
    is: an Island pays {U}, not {U}{U}."""
    state = json_board("Snowfall", "Snow-Covered Island")
    assert _payable(state, "{U}") and not _payable(state, "{U}{U}")


def test_lithoform_blight_replaces_the_lands_abilities_613_1d() -> None:
    """Lithoform Blight: "Enchanted land loses all land types and abilities and has "{T}: Add {C}"
    and "{T}, Pay 1 life: Add one mana of any color."": the Forest's {G} costs 1 life."""
    state = json_board({"card": "Lithoform Blight", "attached_to": "p1"}, "Forest")
    out = _pay(state, "{G}")
    assert out["payable"] and out["payment"]["life"] == 1
    assert _pay(state, "{C}")["payment"]["life"] == 0
    assert not _payable(state, "{C}{C}")


def test_alpine_moon_reaches_opponents_lands_of_the_chosen_name_613_1d() -> None:
    """Alpine Moon ("choose a nonbasic land card name"): an opponent's Tropical Island of that name
    has only "{T}: Add one mana of any color."; another name, a basic land, or the Moon's own
    controller's lands are untouched."""
    moon = {"card": "Alpine Moon", "controller": "opp", "chosen": {"name": "Tropical Island"}}
    assert _payable(json_board(moon, "Tropical Island"), "{R}")
    other = dict(moon, chosen={"name": "Tundra"})
    assert not _payable(json_board(other, "Tropical Island"), "{R}")
    assert not _payable(json_board({"card": "Alpine Moon", "chosen": {"name": "Tropical Island"}},
                                   "Tropical Island"), "{R}")


def test_alpine_moon_without_a_name_refuses_only_where_it_can_reach() -> None:
    unnamed = {"card": "Alpine Moon", "controller": "opp"}
    out = _pay(json_board(unnamed, "Tropical Island"), "{G}")
    assert out["error"]["code"] == "unsupported" and out["error"]["where"] == "battlefield[0].chosen.name"
    assert _payable(json_board(unnamed, "Forest"), "{G}")  # a basic land has no chosen name


def test_orochi_merge_keeper_while_modified_700_9() -> None:
    """Orochi Merge-Keeper: "As long as ~ is modified, it has "{T}: Add {G}{G}."": a counter, an
    Equipment, or an Aura its controller controls makes it modified; an opponent's Aura does not."""
    assert not _payable(json_board("Orochi Merge-Keeper"), "{G}{G}")
    assert _payable(json_board({"card": "Orochi Merge-Keeper", "counters": {"+1/+1": 1}}), "{G}{G}")
    assert _payable(json_board("Orochi Merge-Keeper", {"card": "Bonesplitter", "attached_to": "p0"}), "{G}{G}")
    theirs = {"card": "Pacifism", "attached_to": "p0", "controller": "opp"}
    assert not _payable(json_board("Orochi Merge-Keeper", theirs), "{G}{G}")


def test_chaos_moon_refused_only_where_a_mountain_taps() -> None:
    """Chaos Moon's effect this turn depends on the number of permanents at the beginning of the
    upkeep, which the board does not hold: refused when a Mountain can be tapped for mana."""
    out = _pay(json_board("Chaos Moon", "Mountain"), "{R}")
    assert out["error"]["code"] == "unsupported" and "upkeep" in out["error"]["message"]
    assert _payable(json_board("Chaos Moon", "Forest", {"card": "Mountain", "tapped": True}), "{G}")


@pytest.mark.parametrize("active, step, known", [
    ("you", "main1", True), ("you", "beginning_of_combat", False), ("you", "main2", False),
    ("opp", "main2", True)])
def test_glorious_sunrise_grant_exists_only_after_its_combat_trigger(active: str, step: str, known: bool) -> None:
    """Glorious Sunrise: "At the beginning of combat on your turn, choose one — … Target land gains
    "{T}: Add {G}{G}{G}" until end of turn.": before combat on its controller's turn, or on another
    player's turn, no land has it; after, which land was chosen is not on the board."""
    state = json_board("Glorious Sunrise", "Forest")
    state["turn"] = {"active": active, "step": step}
    out = _pay(state, "{G}")
    if known:
        assert out["payable"] is True
        assert not _payable(state, "{G}{G}")
    else:
        assert out["error"]["code"] == "unsupported"


def test_tomb_of_urami_hurts_only_without_an_ogre() -> None:
    """Tomb of Urami: "{T}: Add {B}. ~ deals 1 damage to you if you don't control an Ogre.": the
    damage is on the payment unless its controller controls an Ogre (an opponent's does not count)."""
    assert _pay(json_board("Tomb of Urami"), "{B}")["payment"]["damage"] == 1
    assert _pay(json_board("Tomb of Urami", "Ogre Taskmaster"), "{B}")["payment"]["damage"] == 0
    theirs = {"card": "Ogre Taskmaster", "controller": "opp"}
    assert _pay(json_board("Tomb of Urami", theirs), "{B}")["payment"]["damage"] == 1
    out = _pay(json_board("Tomb of Urami", *SURVEY), "{1}{G}")
    assert out["payable"] and out["payment"]["damage"] == 0 and "unsupported" not in out


def test_star_compass_mirrors_basic_lands_you_control_106_7() -> None:
    """Star Compass: "{T}: Add one mana of any color that a basic land you control could produce.":
    tapped basics count (could produce ignores costs), an opponent's do not, colorless never; under
    an effect that changes what lands produce (Naked Singularity) it is refused, not followed."""
    assert _payable(json_board("Star Compass", {"card": "Mountain", "tapped": True}), "{R}")
    assert not _payable(json_board("Star Compass", {"card": "Mountain", "controller": "opp"}), "{R}")
    assert not _payable(json_board("Star Compass", {"card": "Wastes", "tapped": True}), "{C}")
    assert _payable(json_board("Star Compass", *SURVEY), "{W}{W}{U}{G}")
    assert _pay(json_board("Star Compass", "Forest", "Naked Singularity"), "{B}")["error"]["code"] == "unsupported"


def test_plaza_of_harmony_mirrors_gates_after_type_changes_106_7() -> None:
    """Plaza of Harmony: "{T}: Add one mana of any type that a Gate you control could produce.": a
    tapped Azorius Guildgate gives {W} or {U}; under Spreading Seas it is an Island and no Gate."""
    gate = {"card": "Azorius Guildgate", "tapped": True}
    assert _payable(json_board("Plaza of Harmony", gate), "{W}")
    assert not _payable(json_board("Plaza of Harmony", gate), "{G}")
    seas = {"card": "Spreading Seas", "attached_to": "p1"}
    assert not _payable(json_board("Plaza of Harmony", gate, seas), "{W}")
    assert not _payable(json_board("Plaza of Harmony", *SURVEY), "{W}{U}{G}{W}")  # no Gate: only {C}
