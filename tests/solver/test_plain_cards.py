"""Which cards are plain (solver/supply/plain.py): what a permanent of the card adds depends on
its own fields alone, and nothing on it reaches another permanent or a payment."""

from __future__ import annotations

import pytest

from manasolver.models.carddb import default_db
from manasolver.solver.supply.plain import quiet

PLAIN = ("Forest", "Snow-Covered Forest", "Underground Sea", "Llanowar Wastes", "Command Tower",
         "Arcane Signet", "Sol Ring", "Dimir Signet", "Llanowar Elves", "Birds of Paradise", "Treasure",
         "Mana Confluence", "Grizzly Bears", "Ancient Tomb", "City of Brass")
NOT_PLAIN = ("Null Rod", "Manabarbs", "Fervor", "Urborg, Tomb of Yawgmoth", "Blood Moon", "Chromatic Lantern",
             "Heritage Druid", "Mana Reflection", "Gaea's Cradle", "Exotic Orchard", "Elvish Archdruid")


@pytest.mark.parametrize("name", PLAIN)
def test_cards_whose_mana_reads_only_their_own_fields_are_plain_106_1(name: str) -> None:
    assert quiet(default_db().get(name))


@pytest.mark.parametrize("name", NOT_PLAIN)
def test_cards_reaching_the_board_or_reading_it_are_not_plain_602_5_107_1b(name: str) -> None:
    assert not quiet(default_db().get(name))

