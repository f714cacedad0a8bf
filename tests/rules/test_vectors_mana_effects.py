"""RULES §14.7 vectors about produced mana, through pay/can_pay (CR 106.6a, 106.12, 305.7, 605.1b, 616.1).

The parser's reading of each effect is tested in test_mana_effects.py; here the payment engine
has to use it: every payment is checked by ``validate``.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from manasolver.solver.protocol import answer


def board(*cards: str | dict[str, Any], opp: tuple[str, ...] = ()) -> dict[str, Any]:
    perms: list[dict[str, Any]] = []
    for i, c in enumerate(cards):
        perms.append({"id": f"p{i}", "card": c} if isinstance(c, str) else {"id": f"p{i}", **c})
    perms += [{"id": f"o{i}", "card": c, "controller": "opp"} for i, c in enumerate(opp)]
    return {"players": [{"name": "you"}, {"name": "opp"}], "battlefield": perms}


def can_pay(state: dict[str, Any], cost: str, **fields: Any) -> bool:
    result = answer({"query": "can_pay", "state": state, "cost": cost, **fields})
    assert "error" not in result, result
    return bool(result["payable"])


def pay(state: dict[str, Any], cost: str, **fields: Any) -> dict[str, Any]:
    result = answer({"query": "pay", "state": state, "cost": cost, **fields})
    assert "error" not in result, result
    assert result["payable"], result
    payment = result["payment"]
    check = answer({"query": "validate", "state": state, "cost": cost, "payment": payment, **fields})
    assert check.get("legal") is True, (payment, check)
    return dict(payment)


def most(state: dict[str, Any], symbol: str, limit: int = 30) -> int:
    """The largest n such that n copies of ``symbol`` can be paid."""
    n = 0
    while n < limit and can_pay(state, symbol * (n + 1)):
        n += 1
    return n


@pytest.mark.parametrize("cards,count", [
    (("Mana Reflection", "Forest"), 2),                                   # T106
    (("Mana Reflection", "Mana Reflection", "Mana Reflection", "Forest"), 8),  # T108
    (("Mana Reflection", "Nyxbloom Ancient", "Forest"), 6),               # T109
    (("Nyxbloom Ancient", "Nyxbloom Ancient", "Forest"), 9),              # T110
])
def test_t106_t110_replacement_multipliers(cards: tuple[str, ...], count: int) -> None:
    """T106-T110 (Mana Reflection and Nyxbloom Ancient rulings; 616.1): cumulative multipliers."""
    assert most(board(*cards), "{G}") == count


def test_t111_nyxbloom_does_not_triple_wild_growth() -> None:
    """T111 (Nyxbloom ruling; 605.1b): {G}{G}{G} from the Forest plus Wild Growth's single {G}."""
    state = board("Nyxbloom Ancient", "Forest", {"card": "Wild Growth", "attached_to": "p1"})
    assert most(state, "{G}") == 4


def test_t113_nyxbloom_does_not_triple_ashnods_altar() -> None:
    """T113 (106.12): the Altar is not tapped for mana, so each activation adds {C}{C}, not
    tripled: the Bears and Nyxbloom itself (a creature) are four mana, never five."""
    state = board("Nyxbloom Ancient", "Ashnod's Altar", "Grizzly Bears")
    assert can_pay(state, "{C}{C}{C}{C}")
    assert not can_pay(state, "{5}")


def test_t114_nyxbloom_treasure_gives_three_of_one_color() -> None:
    """T114 (Nyxbloom ruling): the color is chosen once, then tripled."""
    state = board("Nyxbloom Ancient", "Treasure")
    assert can_pay(state, "{U}{U}{U}")
    assert not can_pay(state, "{U}{U}{R}")


def test_t115_nyxbloom_applies_to_creatures() -> None:
    """T115: Llanowar Elves (not summoning sick) tapped under Nyxbloom Ancient gives {G}{G}{G}."""
    assert most(board("Nyxbloom Ancient", "Llanowar Elves"), "{G}") == 3


def test_t116_mana_reflection_keeps_ziggurats_restriction() -> None:
    """T116 (106.6a): {R}{R}, both only for creature spells."""
    state = board("Mana Reflection", "Ancient Ziggurat")
    creature = {"types": ["creature"], "colors": ["R"]}
    assert can_pay(state, "{R}{R}", spell=creature)
    assert not can_pay(state, "{R}", spell={"types": ["instant"], "colors": ["R"]})


def test_t118_mana_flare_pays_the_same_spell() -> None:
    """T118 (605.4a): the triggered mana is there for the spell being paid: {G}{G} from one Forest."""
    assert can_pay(board("Mana Flare", "Forest"), "{G}{G}")
    assert not can_pay(board("Forest"), "{G}{G}")


def test_t112_reflection_and_contamination_player_chooses_the_order() -> None:
    """T112 (616.1; Mana Reflection ruling): a Forest makes {B} or {B}{B}, never {G}."""
    state = board("Mana Reflection", "Forest", opp=("Contamination",))
    assert can_pay(state, "{B}{B}")
    assert not can_pay(state, "{G}")


def test_t100_blood_moon_everywhere_makes_only_red() -> None:
    """T100 (305.7; Blood Moon ruling): the Everywhere token is only a Mountain."""
    state = board("Everywhere", opp=("Blood Moon",))
    assert can_pay(state, "{R}")
    assert not can_pay(state, "{G}")


def test_blood_moon_tundra_and_basic_island() -> None:
    """305.7: a nonbasic Tundra becomes a Mountain; a basic Island is unaffected."""
    state = board("Tundra", "Island", opp=("Blood Moon",))
    payment = pay(state, "{R}{U}")
    assert {a["mana"] for a in payment["activations"]} == {"{R}", "{U}"}
    assert not can_pay(state, "{W}{U}")


def test_t127_mana_reflection_snow_forest_both_snow() -> None:
    """T127 (106.3, 106.6a): both {G} from a Snow-Covered Forest under Mana Reflection are snow."""
    assert can_pay(board("Mana Reflection", "Snow-Covered Forest"), "{S}{S}")
    assert not can_pay(board("Snow-Covered Forest"), "{S}{S}")


def test_issue_4_board_reflection_nyxbloom_wild_growth_and_pool() -> None:
    """Issue 4 done-criterion: Forest gives 6 {G} + Wild Growth's {G}; the Pool mirrors {G}, ×6."""
    state = board("Mana Reflection", "Nyxbloom Ancient", "Forest", {"card": "Wild Growth", "attached_to": "p2"},
                  "Reflecting Pool")
    payment = pay(state, "{G}" * 13)
    assert sorted(a["permanent"] for a in payment["activations"]) == ["p2", "p4"]
    assert not can_pay(state, "{G}" * 14)
    options = answer({"query": "options", "state": state})
    assert options == {"options": ["{G}" * 13], "complete": True}


@pytest.mark.parametrize("cards,domain", [
    (("Tropical Island", "Blood Moon"), 1),                 # 305.7: only a Mountain
    (("Tropical Island", "Urborg, Tomb of Yawgmoth"), 3),   # each land is also a Swamp
    (("Forest", "Prismatic Omen"), 5),                      # every basic land type
])
def test_domain_counts_land_types_after_type_changes(cards: tuple[str, ...], domain: int) -> None:
    """Domain reads the land types the lands have now (CR 305.7, 613.1d), not the printed ones."""
    assert answer({"query": "counts", "state": board(*cards)})["domain"] == domain


def test_cavern_of_souls_choice_is_per_permanent() -> None:
    """CR 106.6: Cavern's mana pays only spells of its chosen type, whatever an earlier board chose."""
    elf = {"types": ["creature"], "subtypes": ["elf"], "colors": ["G"]}
    chose_elf = board({"card": "Cavern of Souls", "chosen": {"type": "Elf"}})
    chose_goblin = board({"card": "Cavern of Souls", "chosen": {"type": "Goblin"}})
    assert can_pay(chose_elf, "{G}", spell=elf)
    result = answer({"query": "can_pay", "state": chose_goblin, "cost": "{G}", "spell": elf})
    assert result["payable"] is False and result["reason"]["code"] == "restricted_mana"


def test_wild_growth_mana_on_a_snow_forest_is_not_snow() -> None:
    """CR 106.3, 107.4h: Wild Growth's extra {G} has Wild Growth as its source, which is not snow:
    the Forest's own {G} pays {S}, Wild Growth's pays {G}, and {S}{S} can't be paid."""
    state = board("Snow-Covered Forest", {"card": "Wild Growth", "attached_to": "p0"})
    result = answer({"query": "can_pay", "state": state, "cost": "{S}{S}"})
    assert result["payable"] is False
    assert len(pay(state, "{S}{G}")["activations"]) == 1


def test_validate_finds_the_order_of_a_long_filter_land_chain() -> None:
    """601.2g: an Island feeding eight filter lands in a chain is legal, listed in board order."""
    lands = ["Graven Cairns", "Sunken Ruins", "Fetid Heath", "Wooded Bastion", "Flooded Grove",
             "Cascade Bluffs", "Rugged Prairie", "Mystic Gate"]
    state = board("Island", *lands)
    cost = "{W}{W}{U}{U}{B}{R}{R}{R}{G}"
    payment = json.loads(json.dumps(answer({"query": "pay", "state": state, "cost": cost})["payment"]))
    assert len(payment["activations"]) == 9
    assert answer({"query": "validate", "state": state, "cost": cost, "payment": payment}) == {
        "legal": True, "problems": []}


def test_t119_mana_flare_does_not_trigger_when_nothing_was_produced() -> None:
    """T119 (106.12a): two Reflecting Pools make nothing, so Mana Flare adds nothing either."""
    state = board("Mana Flare", "Reflecting Pool", "Reflecting Pool")
    result = answer({"query": "can_pay", "state": state, "cost": "{1}"})
    assert result["payable"] is False and result["reason"]["missing"] == "{1}"
