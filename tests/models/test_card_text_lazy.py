"""A card's reading (``Card.text``, :class:`~manasolver.models.card.CardText`) reads the fields of
``READ_WHEN_ASKED`` when each is first asked (``models/text/read.py``): a card built has read none of them,
a field asked is read once and kept, and what is read is what reading every field at once gives, in
whatever order they are asked.
"""

from __future__ import annotations

import inspect
from dataclasses import fields, replace

import pytest
from manasolver.models.card import _OF_FIELDS, READ_WHEN_ASKED, Card, CardText, TypeLine
from manasolver.models.carddb import CardDB
from manasolver.models.text import read
from manasolver.models.text.read import card_text, read_card_text

_FIELDS = tuple(f.name for f in fields(CardText) if not f.name.startswith("_"))


def _read_yet(text: CardText, name: str) -> bool:
    """Whether the field ``name`` of ``text`` has been read (its slot holds a value; the property of a
    field read when asked sets that slot)."""
    attr = CardText.__dict__[name]
    slot = attr.fset.__self__ if isinstance(attr, property) else attr
    try:
        slot.__get__(text, CardText)
    except AttributeError:
        return False
    return True


def test_a_card_built_reads_none_of_the_fields_read_when_asked(db: CardDB) -> None:
    """Building Heritage Druid from the card data reads its mana reading (tapping costs) and none of
    the fields read when asked."""
    druid = CardDB(db.path).get("Heritage Druid")
    assert druid.text is not None
    assert not any(_read_yet(druid.text, name) for name in READ_WHEN_ASKED)
    assert all(_read_yet(druid.text, name) for name in _FIELDS if name not in READ_WHEN_ASKED)


def test_a_field_is_read_when_asked_and_kept(db: CardDB) -> None:
    """Asking a field read when asked reads it and keeps it: the next ask returns the very value,
    and nothing else is read."""
    cube = CardDB(db.path).get("Mind Stone")
    text = cube.text
    assert text is not None
    abilities = text.activated
    assert [a.text for a in abilities] == ["{1}, {T}, Sacrifice this artifact: Draw a card."]
    assert text.activated is abilities
    assert not any(_read_yet(text, n) for n in READ_WHEN_ASKED if n != "activated")


@pytest.mark.parametrize("name", [
    "Forest", "City of Brass", "Heritage Druid", "Simian Spirit Guide", "Mana Reflection", "Null Rod",
    "Bonecrusher Giant", "Fire // Ice", "Overlord of the Hauntwoods", "Glacial Fortress", "Goblin Electromancer",
])
@pytest.mark.parametrize("backwards", [False, True])
def test_the_reading_is_the_same_in_any_order(db: CardDB, name: str, backwards: bool) -> None:
    """Each field read alone, first to last or last to first (``unread`` before the mana effects it
    leaves out), gives what a reading built with every value holds."""
    card = CardDB(db.path).get(name)
    for c in (card, *card.faces):
        text = c.text
        assert text is not None
        order = _FIELDS[::-1] if backwards else _FIELDS
        got = {n: getattr(text, n) for n in order}
        whole = CardText(**got)
        again = CardDB(db.path).get(name)
        fresh = again if c is card else again.faces[card.faces.index(c)]
        assert fresh.text == whole, (name, c.name)


def test_a_copy_of_a_reading_is_whole(db: CardDB) -> None:
    """``dataclasses.replace`` of a reading (as castability's units do) gives one built with its
    values, equal to the reading but for the field changed."""
    brass = CardDB(db.path).get("City of Brass")
    assert brass.text is not None
    copy = replace(brass.text, mana_effects=())
    assert all(_read_yet(copy, n) for n in _FIELDS)
    assert copy.triggers == brass.text.triggers and copy.mana_effects == ()


def test_a_card_built_by_hand_is_read_when_asked() -> None:
    """A card built by hand has no stored reading: :func:`card_text` gives it one, kept in its facts,
    whose fields read when asked are read then."""
    guide = Card("Test Guide", type_line=TypeLine.parse("Creature — Ape"),
                 oracle_text="Exile this card from your hand: Add {R}.\nThis creature enters tapped.")
    text = card_text(guide)
    assert card_text(guide) is text and not _read_yet(text, "enters_tapped")
    assert [a.text for a in text.hand_abilities] == ["Exile this card from your hand: Add {R}."]
    assert text.enters_tapped is True
    assert read_card_text(guide) == text


def test_a_reading_needs_every_field_not_read_when_asked() -> None:
    """``CardText.of`` takes the value of every field read when the card is built, and only those,
    and sets each in its own slot."""
    every = {name: getattr(CardText(), name) for name in CardText.__dataclass_fields__
             if not name.startswith("_") and name not in READ_WHEN_ASKED}
    parameters = inspect.signature(CardText.of).parameters
    assert [p for p, v in parameters.items() if v.kind is v.KEYWORD_ONLY] == list(_OF_FIELDS[:-1])
    assert set(_OF_FIELDS[:-1]) == set(every) and _OF_FIELDS[-1] == "_reader"
    with pytest.raises(TypeError):
        CardText.of(read._Reader(Card("X"), "", ""), mana_effects=())  # type: ignore[call-arg]
    assert CardText.of(read._Reader(Card("X"), "", ""), **every) == CardText()  # type: ignore[arg-type]
    misnamed = dict(every)
    misnamed["mana_effect"] = misnamed.pop("mana_effects")
    for wrong in (misnamed, {**every, "activated": ()}):  # one misnamed; one more, read when asked
        with pytest.raises(TypeError):
            CardText.of(read._Reader(Card("X"), "", ""), **wrong)  # type: ignore[arg-type]
    distinct = {name: (name,) for name in every}  # each field's value its own: set in its own slot
    text = CardText.of(read._Reader(Card("X"), "", ""), **distinct)  # type: ignore[arg-type]
    assert all(getattr(text, name) == (name,) for name in every)
