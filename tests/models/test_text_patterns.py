"""The oracle-text patterns written for speed (``models/text/oracle.py``, ``read.py``, ``granted.py``) find what
their plain forms find: a word first with a lookbehind for the ``\\b`` before it (case-insensitive ones too),
a granted mana ability looked for only in text with a quote, the self reference
read from the lower-case text of an ASCII line, the mana-effect words looked for one by one, the land-type
changes only in lines that name a land type.  Checked against the plain forms on real lines and on random
ones built from the words they look for.
"""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st
from manasolver.models.text import oracle, read

_SELF_WORDS_PLAIN = re.compile(r"\bthis (?:artifact|creature|land|permanent|enchantment|card|token|vehicle|"
                               r"equipment|aura|planeswalker|battle|saga|class|case|room|spacecraft)\b", re.IGNORECASE)
_PLAIN_WORDS = {"_TAP_WORD": re.compile(r"\btap(?:s|ped)?\b"), "_FOR_WORD": re.compile(r"\bfor\b"),
                "_MANA_WORD": re.compile(r"\bmana\b"),
                "_ADDS_MANA": re.compile(r"\badds?\b[^.]*?(?:\{[^}]+\}|\bmana\b)", re.IGNORECASE),
                "_TARGET": re.compile(r"\btargets?\b", re.IGNORECASE),
                "_WOULD_ADD": re.compile(r"\bwould (?:add|produce)\b"),
                "_ALL_ACTIVATED": re.compile(r"\b(?:has|have) all activated abilities of\b")}
_GRANTS_ADD = re.compile(r"\b(?:has|have|gains?)\b[^\"]*\"[^\"]*:[^\"]*\badd\b")
_GRANT_PLAIN = re.compile(r"\b(?:have|has) (?:haste|convoke|improvise|delve)\b")

_PIECES = st.sampled_from(["this ", "This ", "THIS ", "thIs ", "xthis ", "_this ", "this", "creature", "Creature",
                           "cards", "card", "token", "land", "lands", "tap", "taps", "tapped", "untap", "for",
                           "fore", "mana", "manas", " ", ", ", ".", "'", "\n", "~", "—", "ı", "ſ", "İ", "K", "7",
                           "Thistle ", "a ", "If a land is tapped", " for mana", "Nonbasic lands are", "have", "has",
                           "shas", "haste", "hasted", "convoke", " have haste", "Creatures you control have haste.",
                           " is ", " are ", "becomes ", "Mountain", "Islands", "land types", "basic land type",
                           "lose all ", "Nonbasic lands are Mountains.", "add", "Add", "ADD", "adds", "madd", "{G}",
                           "{T}", "target", "Targets", "retarget", "targets", "would", "swould", " would add",
                           "would produce", " all activated abilities of", "gains", "\"", ": ", "xhas"])
_LINES = st.lists(_PIECES, max_size=14).map("".join)

_REAL = [
    "When this creature enters, you may pay {2}. If you do, draw a card and this artifact deals 1 damage.",
    "Sacrifice this permanent: Add one mana of any color. THIS CARD can't be countered.",
    "Whenever you tap a land for mana, add one mana of any type that land produced.",
    "Formidable — {W}{W}, {T}: Tap target creature. Activate only if creatures you control have total power 8 "
    "or greater and this creature is untapped.",
    "Spend only mana produced by this land to cast spells. (Thıs ſpell — this card.)",
    "{T}: Add {G}. Activate only if you control a Forest.", "{1}, {T}: Target player adds {R}.",
    "If a land you control would produce mana, it produces twice that much instead.",
    "Manascape Refractor has all activated abilities of all lands on the battlefield.",
    'Creatures you control have "{T}: Add one mana of any color."', 'Each creature gains "{T}: Add {C}."',
    "Nonbasic lands are Mountains.", "Enchanted land is an Island.", "Each land is a Swamp in addition to its other "
    "land types.", "Lands you control lose all land types and are Forests.",
]


def _plain_changes_land_types(line: str) -> bool:
    """``oracle._changes_land_types`` without its test of the words first."""
    if oracle._LOSES_LAND_TYPES.search(line):
        return True
    for sentence in line.split("."):
        m = oracle._TYPE_WORDS.search(sentence)
        if m and oracle._LAND_WORD.search(sentence[:m.start()]):
            return True
    return False


def _plain_self_words(text: str) -> str:
    return _SELF_WORDS_PLAIN.sub("~", text) if "this " in text.lower() else text


def _check(text: str) -> None:
    assert oracle.self_reference(text, "") == _plain_self_words(text), text
    for name, plain in _PLAIN_WORDS.items():
        fast = getattr(oracle, name)
        assert [m.span() for m in fast.finditer(text)] == [m.span() for m in plain.finditer(text)], (name, text)
    assert oracle._changes_land_types(text) == _plain_changes_land_types(text), text
    low = text.lower()
    grants = '"' in low and oracle._GRANTS_ADD.search(low) is not None  # (the reader's test of the quote first)
    assert grants == (_GRANTS_ADD.search(low) is not None), text
    fast_spans = [m.span() for m in oracle.GRANT_WORDS.finditer(text)]
    assert fast_spans == [m.span() for m in _GRANT_PLAIN.finditer(text)], text


def test_the_fast_patterns_find_what_the_plain_ones_do_on_real_lines() -> None:
    for text in _REAL:
        _check(text)
        _check(text.lower())
        _check(text.upper())


@settings(max_examples=400, deadline=None)
@given(_LINES)
def test_the_fast_patterns_find_what_the_plain_ones_do(text: str) -> None:
    _check(text)


def test_every_mana_effect_word_holds_one_of_the_hints_read_first() -> None:
    """The card-text reader looks for a mana effect's words only in text holding one of its hints:
    each of the words holds one, so no line with an effect (CR 106.7, 106.12) is passed over."""
    assert all(oracle.holds_any(w, read._MANA_EFFECT_HINTS) for w in read._MANA_EFFECT_WORDS)
