"""One reading of a card's rules text (``models/text/read.py``): every reader runs once when the card is
built and the card keeps what they read (``Card.text``); the readers' accessors return it.

The stored reading must be what the readers themselves read: checked on real cards here, and on every
card of the bundled data in ``test_stored_reading_equals_the_readers_on_the_card_data``.
"""

from __future__ import annotations

import subprocess
import sys
from dataclasses import replace

import pytest
from manasolver.models.card import Card, TypeLine
from manasolver.models.carddb import CardDB
from manasolver.models.text import activated, cost_modifiers, hand, keyword_costs, mana_effects, prohibitions
from manasolver.models.text import tap_costs, triggers
from manasolver.models.text.read import read_card_text, unread_clauses


def _bare(card: Card) -> Card:
    """The card as if built by hand: no stored reading, so the accessors read its text."""
    return replace(card, text=None, faces=tuple(replace(f, text=None) for f in card.faces))


def _readings(card: Card) -> dict[str, object]:
    return {
        "mana_effects": mana_effects.mana_effects_of(card),
        "triggers": triggers.triggers_of(card),
        "activated": activated.activated_abilities(card),
        "hand": hand.hand_abilities(card),
        "tap_costs": tap_costs.tap_costs(card),
        "cost_effects": cost_modifiers.cost_effects_of(card),
        "keyword_costs": keyword_costs.keyword_costs(card),
        "prohibitions": prohibitions.prohibitions_of(card),
        "enters_tapped": triggers.enters_tapped(card),
        "impending": triggers.impending_counters(card),
    }


def _check(card: Card) -> None:
    assert card.text is not None, card.name
    assert _readings(card) == _readings(_bare(card)), card.name
    for face in card.faces:
        _check(face)


@pytest.mark.parametrize("name", [
    "Forest", "City of Brass", "Heritage Druid", "Simian Spirit Guide", "Mana Reflection", "Blood Moon",
    "Urborg, Tomb of Yawgmoth", "Chromatic Lantern", "Thalia, Guardian of Thraben", "Goblin Electromancer",
    "Null Rod", "Kenrith, the Returned King", "Lotus Cobra", "Bonecrusher Giant", "Fire // Ice",
    "Overlord of the Hauntwoods", "Mind Stone", "Llanowar Elves", "Burning-Tree Emissary", "Vedalken Orrery",
    "Burst Lightning", "Think Twice", "Tranquil Cove", "Glacial Fortress",
])
def test_stored_reading_is_what_the_readers_read(db: CardDB, name: str) -> None:
    """Heritage Druid's tapping cost, City of Brass's trigger, Thalia's cost increase, Null Rod's
    prohibition, Bonecrusher Giant's faces …: the stored reading equals reading the text again."""
    _check(db.get(name))


def test_the_reading_is_on_the_card(db: CardDB) -> None:
    """The accessors return the stored values themselves: nothing is read again."""
    druid = db.get("Heritage Druid")
    assert druid.text is not None
    assert tap_costs.tap_costs(druid) is druid.text.tap_costs
    assert [t.count for t in druid.text.tap_costs] == [3]          # "Tap three untapped Elves you control"
    brass = db.get("City of Brass")
    assert brass.text is not None and triggers.triggers_of(brass) is brass.text.triggers
    assert [t.event for t in brass.text.triggers] == ["becomes_tapped"]
    assert db.get("Tranquil Cove").text.enters_tapped is True          # type: ignore[union-attr]
    assert db.get("Glacial Fortress").text.enters_tapped is None        # type: ignore[union-attr]
    assert db.get("Overlord of the Hauntwoods").text.impending == 4    # type: ignore[union-attr]
    rod = db.get("Null Rod")
    assert rod.text is not None and [w for _, w in rod.text.prohibitions] == ["artifacts"]


def test_unread_keeps_what_no_reader_reads(db: CardDB) -> None:
    """``CardText.unread``: ``Card.unsupported`` without the clauses the readers of mana effects (Mana
    Reflection), hand abilities (Simian Spirit Guide) and tapping costs (Heritage Druid) read."""
    for name in ("Mana Reflection", "Simian Spirit Guide", "Heritage Druid"):
        card = db.get(name)
        assert card.unsupported, name
        assert unread_clauses(card) == (), name
    bare = _bare(db.get("Heritage Druid"))
    assert unread_clauses(bare) == ()
    made = Card("Odd Land", type_line=TypeLine.parse("Land"), unsupported=("{T}: Add {X}, where X is odd.",))
    assert unread_clauses(made) == ("{T}: Add {X}, where X is odd.",)


def test_a_card_built_by_hand_is_read_when_asked() -> None:
    """A Card made directly (tests, benchmarks) has no stored reading; its readers read its text."""
    guide = Card("Simian Spirit Guide", oracle_text="Exile Simian Spirit Guide from your hand: Add {R}.")
    assert guide.text is None
    assert [ab.production.options for ab in hand.hand_abilities(guide)] == [((8,),)]
    assert read_card_text(guide).hand_abilities == hand.hand_abilities(guide)


def test_a_basic_land_is_built_without_importing_a_reader() -> None:
    """Forest's text holds no clause any reader reads: building it imports none of their modules, so a
    cold ``manasolver card Forest`` is not slowed by the readers."""
    code = ("import sys; from manasolver.models.carddb import CardDB; CardDB().get('Forest'); "
            "print(sorted(m for m in sys.modules if m.startswith('manasolver.models.text.')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert eval(out) == ["manasolver.models.text.mana_abilities", "manasolver.models.text.mana_amounts",
                         "manasolver.models.text.oracle", "manasolver.models.text.read",
                         "manasolver.models.text.restrictions"]
