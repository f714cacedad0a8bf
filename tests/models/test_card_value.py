"""The card value (:class:`~manasolver.models.card.Card`): its written-out constructor sets every
field as the dataclass declares it, by position and by keyword, with the declared defaults; the card
stays frozen, copies get facts of their own, and what is not compared is not compared."""

from __future__ import annotations

import dataclasses

import pytest
from manasolver.models.card import Card, CardFacts, TypeLine
from manasolver.models.carddb import CardDB
from manasolver.models.cost import ManaCost

_VALUES: dict[str, object] = {
    "name": "Test Card", "mana_cost": ManaCost.parse("{1}{G}"), "type_line": TypeLine.parse("Creature — Elf"),
    "colors": 16, "oracle_text": "{T}: Add {G}.", "layout": "normal", "power": "1", "toughness": "2",
    "keywords": frozenset({"haste"}), "mana_abilities": (), "unsupported": ("a clause",),
    "alternative_costs": (("impending", ManaCost.parse("{G}")),), "faces": (), "front_mana_cost": None,
    "text": None,
}


def test_every_init_field_is_set_by_keyword_and_by_position() -> None:
    names = [f.name for f in dataclasses.fields(Card) if f.init]
    assert names == list(_VALUES)
    by_keyword = Card(**_VALUES)  # type: ignore[arg-type]
    by_position = Card(*_VALUES.values())  # type: ignore[arg-type]
    for name, value in _VALUES.items():
        assert getattr(by_keyword, name) is value
        assert getattr(by_position, name) is value
    assert by_keyword == by_position


def test_defaults_are_the_declared_ones() -> None:
    card = Card("Bare")
    for f in dataclasses.fields(Card):
        if f.init and f.name != "name":
            assert getattr(card, f.name) == f.default, f.name
    assert isinstance(card.facts, CardFacts) and card.facts.text is None


def test_card_stays_frozen_and_copies_have_their_own_facts(db: CardDB) -> None:
    card = db.get("Llanowar Elves")
    with pytest.raises(dataclasses.FrozenInstanceError):
        card.name = "Other"  # type: ignore[misc]
    copy = dataclasses.replace(card, power="2")
    assert copy.power == "2" and copy.name == card.name and copy.text is card.text
    assert copy.facts is not card.facts
    assert dataclasses.replace(card) == card  # facts and text are not compared
    assert Card("A").facts is not Card("A").facts
