"""Toxicrene's "All lands have "{T}: Add one mana of any color" and lose all other abilities."
(layer 6, CR 613.1f): every land's printed abilities and the intrinsic ones of its land types
(CR 305.6, given in layer 4) are gone, so each land taps for one mana of any color and nothing
else (a pain land's damage went with its ability).  Another layer-6 change on a land (a grant,
which applies last by timestamps the board does not give) or a land's own effects are refused
naming both.  Every payment is given back to ``validate``."""

from __future__ import annotations

from typing import Any

from cards import pay_validated as _pay
from manasolver.solver.service.protocol import answer

TOXICRENE = "Toxicrene"


def _board(*cards: str | dict[str, Any]) -> dict[str, Any]:
    field = [{"id": f"p{i}", **({"card": c} if isinstance(c, str) else c)} for i, c in enumerate(cards)]
    return {"players": [{"name": "you"}, {"name": "opp"}], "battlefield": field}


def test_toxicrene_every_land_taps_for_any_color() -> None:
    """A Plains and an Island pay {B}{R} under Toxicrene, not without it; the survey board is answered."""
    out = _pay(_board(TOXICRENE, "Plains", "Island"), "{B}{R}")
    assert out["payable"] is True and not out.get("unsupported")
    assert sorted(a["mana"] for a in out["payment"]["activations"]) == ["{B}", "{R}"]
    assert all(a["ability"] == 0 for a in out["payment"]["activations"])
    assert _pay(_board("Plains", "Island"), "{B}{R}")["payable"] is False
    survey = _pay(_board(TOXICRENE, "Plains", "Island", "Forest"), "{1}{G}")
    assert survey["payable"] is True and not survey.get("unsupported")


def test_toxicrene_pain_land_loses_its_damage() -> None:
    """Karplusan Forest's "{T}: Add {R} or {G}. This land deals 1 damage to you." is lost: its {G}
    now comes from the granted ability, with no damage; it has one mana ability only."""
    out = _pay(_board(TOXICRENE, "Karplusan Forest"), "{G}")
    assert out["payment"]["damage"] == 0
    assert [(a["ability"], a["mana"]) for a in out["payment"]["activations"]] == [(0, "{G}")]
    produce = answer({"query": "could_produce", "state": _board(TOXICRENE, "Karplusan Forest")})
    assert sorted(produce["could_produce"]["p1"]) == ["B", "G", "R", "U", "W"]


def test_toxicrene_after_blood_moon_lands_still_tap_for_any_color() -> None:
    """Blood Moon makes Karplusan Forest a Mountain (layer 4); Toxicrene then takes the Mountain's
    {R} away and gives any color (layer 6): {U} is payable."""
    out = _pay(_board(TOXICRENE, "Blood Moon", "Karplusan Forest"), "{U}")
    assert out["payable"] is True and out["payment"]["damage"] == 0


def test_toxicrene_with_another_grant_to_lands_is_refused() -> None:
    """Chromatic Lantern's grant to lands and Toxicrene's loss apply in timestamp order: refused
    naming both."""
    out = answer({"query": "pay", "state": _board(TOXICRENE, "Chromatic Lantern", "Forest"), "cost": "{U}"})
    assert out["error"]["code"] == "unsupported"
    assert "Toxicrene" in out["error"]["message"] and "Chromatic Lantern" in out["error"]["message"]


def test_toxicrene_with_a_land_of_its_own_effects_is_refused() -> None:
    """Urborg, Tomb of Yawgmoth's "Each land is a Swamp in addition to its other types." is a land's
    own effect, which Toxicrene takes away in a later layer: refused naming both."""
    out = answer({"query": "pay", "state": _board(TOXICRENE, "Urborg, Tomb of Yawgmoth", "Forest"), "cost": "{U}"})
    assert out["error"]["code"] == "unsupported" and "Urborg" in out["error"]["message"]
