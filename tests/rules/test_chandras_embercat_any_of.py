"""Chandra's Embercat: "Spend this mana only to cast an Elemental spell or a Chandra planeswalker
spell." (CR 106.6): a restriction of two alternatives, each of several words, read alike by
``pay``, ``can_pay``, ``payments`` and ``validate``."""

from __future__ import annotations

from typing import Any

import pytest
from manasolver.models.text.restrictions import read_restriction
from manasolver.solver.service.protocol import answer

BOARD = {"players": [{"name": "you"}], "battlefield": [{"id": "e", "card": "Chandra's Embercat"},
                                                       {"id": "m", "card": "Mountain"}]}


def _ask(kind: str, spell: str, **extra: Any) -> dict[str, Any]:
    return answer({"query": kind, "state": BOARD, "spell": {"card": spell}, "cost": "{R}{R}", **extra})


def test_chandras_embercat_restriction_reads_two_alternatives() -> None:
    r = read_restriction("Spend this mana only to cast an Elemental spell or a Chandra planeswalker spell.")
    assert [(a.spell_types, a.subtypes) for a in r.any_of] == [
        (frozenset(), frozenset({"elemental"})), (frozenset({"planeswalker"}), frozenset({"chandra"}))]


@pytest.mark.parametrize("spell", ["Omnath, Locus of Rage", "Chandra, Torch of Defiance"])
def test_chandras_embercat_mana_pays_an_elemental_or_a_chandra(spell: str) -> None:
    out = _ask("pay", spell)
    assert out["payable"] is True
    assert _ask("validate", spell, payment=out["payment"])["legal"] is True
    assert _ask("can_pay", spell)["payable"] is True


def test_chandras_embercat_mana_cant_pay_shock() -> None:
    out = _ask("can_pay", "Shock")
    assert out["payable"] is False and out["reason"]["code"] == "restricted_mana"
    assert _ask("payments", "Shock") == {"payments": [], "complete": True}
    paid = {"total": "{R}{R}", "choices": [], "x": 0, "pool_used": "", "convoked": [], "delved": [],
            "improvised": [], "life": 0, "energy": 0, "damage": 0, "floating": "",
            "activations": [{"permanent": "e", "ability": 0, "costs": ["{T}"], "mana": "{R}"},
                            {"permanent": "m", "ability": 0, "costs": ["{T}"], "mana": "{R}"}]}
    assert _ask("validate", "Shock", payment=paid)["legal"] is False
