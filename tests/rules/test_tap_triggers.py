"""Triggers on becoming tapped or on tapping for mana, applied to payments (CR 603.2, 605.5a, 106.12).

A trigger that hurts the payer when a permanent is tapped (Manabarbs, Scald, Burning Earth, Royal
Decree, Haunting Wind, Sorrow's Path) puts its damage on the payment, as a pain land's does (the
policy's ``min_life`` then avoids it where it can); one that costs the payer nothing (Emmara's
token, Lifetap's life gain, Goblin Medics' damage to a target of its controller's choice) changes
nothing; one that may hurt in a way not read (Seizures' "unless that player pays {3}") is refused
where it can fire.  Every payment is checked by ``validate``.
"""

from __future__ import annotations

from typing import Any

import pytest
from manasolver.models.text.tap_triggers import read_tap_trigger
from manasolver.solver.service.protocol import answer

from cards import json_board as _board, pay_validated as _pay


def _tapped(out: dict[str, Any]) -> set[str]:
    return {a["permanent"] for a in out["payment"]["activations"]}


def test_manabarbs_each_land_tapped_for_mana_deals_1() -> None:
    """Manabarbs: "Whenever a player taps a land for mana, ~ deals 1 damage to that player.":
    {1}{G} from two lands costs 2 damage."""
    out = _pay(_board("Manabarbs", "Plains", "Island", "Forest"), "{1}{G}")
    assert out["payable"] and out["payment"]["damage"] == 2 and "unsupported" not in out


def test_manabarbs_of_an_opponent_hurts_the_payer_too() -> None:
    """"that player" is whoever taps the land: the payer, whoever controls Manabarbs."""
    out = _pay(_board({"card": "Manabarbs", "controller": "opp"}, "Forest"), "{G}")
    assert out["payment"]["damage"] == 1


def test_scald_hurts_only_islands_and_min_life_avoids_them() -> None:
    """Scald: "Whenever a player taps an Island for mana …": {1}{G} is paid with the Plains, not
    the Island, for no damage; {2}{G} needs the Island and costs 1."""
    state = _board("Scald", "Plains", "Island", "Forest")
    out = _pay(state, "{1}{G}")
    assert out["payment"]["damage"] == 0 and "p2" not in _tapped(out)
    assert _pay(state, "{2}{G}")["payment"]["damage"] == 1


def test_burning_earth_hurts_nonbasic_lands_only() -> None:
    """Burning Earth: a nonbasic land tapped for mana deals 1; basics don't."""
    assert _pay(_board("Burning Earth", "Forest", "Island"), "{1}{G}")["payment"]["damage"] == 0
    assert _pay(_board("Burning Earth", "Tropical Island"), "{G}")["payment"]["damage"] == 1


def test_royal_decree_swamps_mountains_black_and_red_permanents() -> None:
    """Royal Decree: "Whenever a Swamp, Mountain, black permanent, or red permanent becomes
    tapped, ~ deals 1 damage to that permanent's controller.": the Swamp is avoided while the
    Island can pay; Sol Ring (colorless) is not watched."""
    state = _board("Royal Decree", "Swamp", "Island", "Forest")
    out = _pay(state, "{1}{G}")
    assert out["payment"]["damage"] == 0 and "p1" not in _tapped(out)
    assert _pay(state, "{2}{G}")["payment"]["damage"] == 1
    assert _pay(_board("Royal Decree", "Sol Ring"), "{2}")["payment"]["damage"] == 0


def test_haunting_wind_artifact_abilities_with_and_without_tap() -> None:
    """Haunting Wind: "Whenever an artifact becomes tapped or a player activates an artifact's
    ability without {T} in its activation cost, ~ deals 1 damage to that artifact's controller."
    Sol Ring's {T} ability and Ashnod's Altar's sacrifice ability each deal 1."""
    assert _pay(_board("Haunting Wind", "Sol Ring"), "{2}")["payment"]["damage"] == 1
    out = _pay(_board("Haunting Wind", "Ashnod's Altar", "Grizzly Bears"), "{2}")
    assert out["payable"] and out["payment"]["damage"] == 1


def test_harmless_tap_triggers_change_nothing() -> None:
    """Emmara (a token), Lifetap (you gain life), Goblin Medics (damage to a target its controller
    picks), Night Market Lookout (each opponent loses life), Judge of Currents: answered exactly,
    without damage, on the survey's board."""
    for card in ("Emmara, Soul of the Accord", "Lifetap", "Goblin Medics", "Night Market Lookout",
                 "Judge of Currents", "Soldevi Steam Beast", "Spireside Infiltrator", "Roots of Life"):
        out = _pay(_board(card, "Plains", "Island", "Forest"), "{1}{G}")
        assert out["payable"] and out["payment"]["damage"] == 0 and "unsupported" not in out, card


def test_sorrows_path_own_damage_on_a_granted_mana_ability() -> None:
    """Sorrow's Path: "Whenever ~ becomes tapped, it deals 2 damage to you and each creature you
    control." Under Urborg it is a Swamp with {T}: Add {B}, which costs 2 damage."""
    out = _pay(_board("Sorrow's Path", "Urborg, Tomb of Yawgmoth"), "{B}{B}")
    assert out["payable"] and out["payment"]["damage"] == 2


def test_unattached_aura_tap_triggers_do_not_matter() -> None:
    """Seizures, Steam Vines, Psychic Venom attached to nothing: nothing they watch can tap."""
    for card in ("Seizures", "Steam Vines", "Psychic Venom", "Artifact Possession"):
        out = _pay(_board(card, "Plains", "Island", "Forest"), "{1}{G}")
        assert out["payable"] and "error" not in out, card


def test_seizures_on_a_mana_creature_is_refused() -> None:
    """Seizures' "… unless that player pays {3}" is not read: on Llanowar Elves it is refused."""
    out = _pay(_board({"id": "e", "card": "Llanowar Elves"},
                      {"card": "Seizures", "attached_to": "e", "controller": "opp"}), "{G}")
    assert out["error"]["code"] == "unsupported" and "Seizures" in out["error"]["message"]


def test_steam_vines_attached_hurts_its_land() -> None:
    """Steam Vines on the Forest: "destroy it and ~ deals 1 damage to that land's controller"."""
    out = _pay(_board({"id": "f", "card": "Forest"}, {"card": "Steam Vines", "attached_to": "f"}, "Island"), "{G}")
    assert out["payment"]["damage"] == 1


@pytest.mark.parametrize(("text", "hurt", "for_mana"), [
    ("Whenever a player taps a land for mana, ~ deals 1 damage to that player.", 1, True),
    ("Whenever enchanted land becomes tapped, its controller loses 2 life.", 2, False),
    ("Whenever ~ becomes tapped, create a 1/1 white Soldier creature token with lifelink.", 0, False),
])
def test_reader(text: str, hurt: int, for_mana: bool) -> None:
    t = read_tap_trigger(text)
    assert t is not None and t.hurt == hurt and (t.harmless or t.for_mana == for_mana)


def test_reader_refuses_unless_and_conditions() -> None:
    """"unless that player pays {3}" (Seizures) may hurt in a way not read."""
    assert read_tap_trigger("Whenever enchanted creature becomes tapped, ~ deals 3 damage to that "
                            "creature's controller unless that player pays {3}.") is None
    assert read_tap_trigger("Whenever a player taps a land for mana, if it's not your turn, ~ deals 1 damage "
                            "to that player.") is None


def test_cr_602_5_prohibitions_are_applied() -> None:
    """CR 602.5, 605.3: Collector Ouphe ("Activated abilities of artifacts can't be activated.")
    stops Sol Ring, so {3} from Sol Ring and a Forest is unpayable and {1}{G} needs the Plains;
    Linvala's "… creatures your opponents control …" stops the opponent's Llanowar Elves, not her
    controller's."""
    state = _board("Collector Ouphe", "Sol Ring", "Forest", "Plains")
    assert answer({"query": "can_pay", "state": state, "cost": "{3}"})["payable"] is False
    out = _pay(state, "{1}{G}")
    assert "p1" not in _tapped(out)
    linvala = _board({"card": "Linvala, Keeper of Silence", "controller": "opp"}, "Llanowar Elves")
    assert answer({"query": "can_pay", "state": linvala, "cost": "{G}"})["payable"] is False
    mine = _board("Linvala, Keeper of Silence", "Llanowar Elves")
    assert answer({"query": "can_pay", "state": mine, "cost": "{G}"})["payable"] is True
