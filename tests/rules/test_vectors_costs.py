"""RULES §14.3–14.4 vectors through the protocol: X, alternative costs, board cost modifiers.

Every payment returned is checked by ``validate`` (STYLE practice 5).
"""

from __future__ import annotations

from typing import Any

import pytest
from manasolver.solver.protocol import answer


def board(*cards: str, energy: int = 0, graveyard: list[str] | None = None,
          opp: tuple[str, ...] = ()) -> dict[str, Any]:
    perms: list[dict[str, Any]] = [{"id": f"p{i}", "card": c} for i, c in enumerate(cards)]
    perms += [{"id": f"o{i}", "card": c, "controller": "opp"} for i, c in enumerate(opp)]
    return {"players": [{"name": "you", "energy": energy, "graveyard": graveyard or []}, {"name": "opp"}],
            "battlefield": perms}


def pay(state: dict[str, Any], **fields: Any) -> dict[str, Any]:
    result = answer({"query": "pay", "state": state, **fields})
    assert "error" not in result, result
    if result["payable"]:
        check = answer({"query": "validate", "state": state, "payment": result["payment"], **fields})
        assert check == {"legal": True, "problems": []}, (result, check)
    return result


def total(state: dict[str, Any], **fields: Any) -> str:
    result = pay(state, **fields)
    assert result["payable"], result
    return str(result["payment"]["total"])


def test_t40_without_paying_its_mana_cost_forces_x_0() -> None:
    """T40 (107.3b): Chord of Calling cast without paying its mana cost has X = 0."""
    chord = {"card": "Chord of Calling"}
    result = pay(board(), spell=chord, alternative="without_paying_mana_cost")
    assert result["payable"] and result["payment"]["total"] == "{0}" and result["payment"]["x"] == 0
    refused = pay(board(), spell=chord, alternative="without_paying_mana_cost", x=3)
    assert refused["payable"] is False and refused["reason"]["code"] == "not_castable"


def test_t41_herald_of_kozilek_reduces_after_x_is_chosen() -> None:
    """T41 (107.3b, 601.2f; Herald ruling): a colorless {X} spell with X=5 costs {4}; X stays 5."""
    state = board("Herald of Kozilek", "Wastes", "Wastes", "Wastes", "Wastes")
    result = pay(state, spell={"card": "Endless One"}, x=5)
    assert result["payment"]["total"] == "{4}" and result["payment"]["x"] == 5


def test_t56_ugin_on_kozilek() -> None:
    """T56 (118.7a): Ugin, the Ineffable makes Kozilek, the Great Distortion cost {6}{C}{C}."""
    state = board("Ugin, the Ineffable", *["Sol Ring"] * 4)
    assert total(state, spell={"card": "Kozilek, the Great Distortion"}) == "{6}{C}{C}"


def test_t57_ugin_does_not_reduce_colorless_mana_symbols() -> None:
    """T57 (118.7a): a colorless spell costing {C}{C} is not reduced."""
    state = board("Ugin, the Ineffable", "Wastes", "Wastes")
    assert total(state, cost="{C}{C}", spell={"types": ["artifact"], "colors": []}) == "{C}{C}"


@pytest.mark.parametrize("cards,expected", [
    (("Thalia, Guardian of Thraben", "Goblin Electromancer"), "{R}"),   # T60
    (("Goblin Electromancer",), "{R}"),                                 # T61
    (("Trinisphere", "Goblin Electromancer"), "{2}{R}"),                # T63
    (("Sphere of Resistance",), "{1}{R}"),
])
def test_t60_t63_modifiers_on_lightning_bolt(cards: tuple[str, ...], expected: str) -> None:
    """T60-T63 (601.2f, 118.7a; Thalia, Electromancer and Trinisphere rulings)."""
    state = board(*cards, "Mountain", "Mountain", "Mountain")
    assert total(state, spell={"card": "Lightning Bolt"}) == expected


@pytest.mark.parametrize("mods,cost,expected", [
    ([{"reduce": "{W}"}], "{3}{U}", "{2}{U}"),                # T58 (118.7b)
    ([{"reduce": "{G}{G}"}], "{1}{G}", "{0}"),                # T59 (118.7c)
    ([{"reduce": "{1}"}, {"reduce": "{1}"}], "{1}{U}", "{U}"),  # T62
    ([{"reduce": "{1}"}], "{1}{S}", "{S}"),                   # T68 (107.4h)
    ([{"reduce": "{S}"}], "{2}{S}", "{1}{S}"),                # T69 (118.7g)
])
def test_t58_t69_query_modifiers(mods: list[dict[str, str]], cost: str, expected: str) -> None:
    """T58, T59, T62, T68, T69: reductions by CR 118.7 on the total."""
    state = board("Snow-Covered Island", "Snow-Covered Island", "Snow-Covered Forest", "Snow-Covered Plains")
    assert total(state, cost=cost, modifiers=mods) == expected


def test_t64_thunderscape_familiar_altars_reap() -> None:
    """T64 (601.2f/h): Altar's Reap with Thunderscape Familiar on the battlefield costs {B}."""
    state = board("Thunderscape Familiar", "Swamp")
    assert total(state, spell={"card": "Altar's Reap"}) == "{B}"


def test_t65_frogmite_costs_0_with_four_artifacts() -> None:
    """T65 (702.41a, 118.5a): {0}, and it must still be cast (an empty payment)."""
    state = board(*["Ornithopter"] * 4)
    result = pay(state, spell={"card": "Frogmite"})
    assert result["payable"] and result["payment"]["total"] == "{0}"
    assert result["payment"]["activations"] == []


def test_t66_myr_enforcer_with_three_artifacts() -> None:
    """T66 (702.41a): Myr Enforcer {7} with three artifacts costs {4}."""
    state = board("Ornithopter", "Ornithopter", "Mind Stone", "Wastes", "Wastes", "Wastes")
    result = pay(state, spell={"card": "Myr Enforcer"})
    assert result["payment"]["total"] == "{4}"


def test_t67_stoic_rebuttal_total_unchanged_when_the_artifact_taps() -> None:
    """T67 (601.2f; Stoic Rebuttal ruling): metalcraft counts the Mind Stone, which then taps for mana."""
    state = board("Ornithopter", "Ornithopter", "Mind Stone", "Island", "Island")
    result = pay(state, spell={"card": "Stoic Rebuttal"})
    assert result["payment"]["total"] == "{U}{U}"
    two = pay(board("Ornithopter", "Ornithopter", "Island", "Island"), spell={"card": "Stoic Rebuttal"})
    assert two["payable"] is False


def test_t70_ghalta_with_fifteen_power() -> None:
    """T70 (118.7a; Ghalta ruling): Ghalta costs {G}{G} with total power 15."""
    state = board("Colossal Dreadmaw", "Colossal Dreadmaw", "Grizzly Bears", "Forest", "Forest")
    state["battlefield"][2]["counters"] = {"+1/+1": 1}
    assert total(state, spell={"card": "Ghalta, Primal Hunger"}) == "{G}{G}"
