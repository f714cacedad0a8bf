"""Power and toughness changed by a static effect (CR 613.4: an anthem, an Equipment, an Aura, a
lord) are not applied by the engine, which reads printed power and toughness with counters: where
a mana ability reads power or toughness on such a board, every payment query, ``validate`` and
``options`` refuse naming the effect's card and clause, instead of a wrong answer (Selvala, Heart of
the Wilds beside Glorious Anthem was answered unpayable for {G}{G}{G})."""

from __future__ import annotations

from typing import Any

import pytest

from manasolver.solver.service.protocol import answer
from manasolver.models.rules.marks import power_change


def _board(*cards: str) -> dict[str, Any]:
    return {"players": [{"name": "you"}], "battlefield": [{"id": f"p{i}", "card": c} for i, c in enumerate(cards)]}


@pytest.mark.parametrize("query", ["can_pay", "pay", "payments", "options"])
def test_glorious_anthem_beside_selvala_heart_of_the_wilds_is_refused(query: str) -> None:
    q: dict[str, Any] = {"query": query, "state": _board("Selvala, Heart of the Wilds", "Forest", "Glorious Anthem")}
    if query != "options":
        q["cost"] = "{G}{G}{G}"
    out = answer(q)
    assert out["error"]["code"] == "unsupported", out
    assert "Glorious Anthem" in out["error"]["message"] and out["error"]["where"] == "battlefield[2]"
    assert "613.4" in out["error"]["message"]


def test_bonesplitter_beside_furgul_is_refused() -> None:
    """Furgul adds {G} by the sacrificed creature's power: an Equipment's +2/+0 changes it."""
    out = answer({"query": "pay", "state": _board("Furgul, Quag Nurturer", "Grizzly Bears", "Bonesplitter"),
                  "cost": "{G}"})
    assert out["error"]["code"] == "unsupported" and "Bonesplitter" in out["error"]["message"]


def test_anthem_without_a_power_reader_changes_nothing() -> None:
    """Llanowar Elves reads no power: Glorious Anthem beside it is no reason to refuse."""
    out = answer({"query": "pay", "state": _board("Llanowar Elves", "Forest", "Glorious Anthem"), "cost": "{G}{G}"})
    assert out["payable"] is True


def test_selvala_without_an_anthem_is_answered() -> None:
    out = answer({"query": "can_pay", "state": _board("Selvala, Heart of the Wilds", "Forest"), "cost": "{G}{G}"})
    assert out["payable"] is True


@pytest.mark.parametrize("text, changes", [
    ("Creatures you control get +1/+1.", True),
    ("Equipped creature gets +2/+0.\nEquip {1}", True),
    ("Other Elf creatures you control get +1/+1.", True),
    ("{R}: This creature gets +1/+0 until end of turn.", False),
    ("Whenever this creature attacks, it gets +2/+2 until end of turn.", False),
    ("{T}: Add {G}.", False),
    ("Switch this creature's power and toughness.", True),  # no "/": found by "power"
    ("Base power matters.\nEnchanted creature has base power and toughness 0/1.", True),
    ("Creatures you control get +1 counters.", False),  # "get +" without "/" or "power"
])
def test_power_change_reads_static_effects_only(text: str, changes: bool) -> None:
    assert (power_change(text) is not None) is changes


def test_necrotic_ooze_holding_selvala_beside_glorious_anthem_is_refused() -> None:
    """Necrotic Ooze has Selvala's mana ability from the graveyard (CR 613.1f), which reads power: the
    anthem is refused naming the Ooze, the one permanent the board's effects reach."""
    state = {"players": [{"name": "you", "graveyard": ["Selvala, Heart of the Wilds"]}],
             "battlefield": [{"id": "ooze", "card": "Necrotic Ooze"}, {"id": "f", "card": "Forest"},
                             {"id": "a", "card": "Glorious Anthem"}]}
    out = answer({"query": "can_pay", "state": state, "cost": "{G}"})
    assert out["error"]["code"] == "unsupported" and out["error"]["where"] == "battlefield[2]"
    assert "Necrotic Ooze (ooze) reads" in out["error"]["message"]


def test_glorious_anthem_beside_cryptolith_rite_without_a_power_reader_is_answered() -> None:
    """Cryptolith Rite's granted "{T}: Add one mana of any color." reads no power: Glorious Anthem
    beside it changes nothing, and the creature it reaches pays with it."""
    out = answer({"query": "can_pay", "state": _board("Cryptolith Rite", "Grizzly Bears", "Forest", "Glorious Anthem"),
                  "cost": "{G}{G}"})
    assert out["payable"] is True
