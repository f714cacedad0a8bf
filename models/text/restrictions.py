"""Reading spending restrictions of produced mana (CR 106.6) and the words the oracle parser shares.

:func:`read_restriction` turns "Spend this mana only to cast creature spells." into a
:class:`~manasolver.models.abilities.Restriction`; :class:`Unreadable` is raised for any
wording it does not fully understand (the caller reports the clause as unsupported).
Split from :mod:`manasolver.models.text.mana_abilities`, which reads the rest of an ability.
"""

from __future__ import annotations

import re

from manasolver.models.abilities import Restriction
from manasolver.models.card import CARD_TYPES

__all__ = ["CHOSEN_TYPE", "Unreadable", "kind_word", "read_restriction", "singular", "spell_spec"]

_PLURALS = {"elves": "elf", "dwarves": "dwarf", "wolves": "wolf", "plains": "plains", "lotuses": "lotus",
            "allies": "ally", "faeries": "faerie", "zombies": "zombie", "sorceries": "sorcery",
            "fungi": "fungus", "mice": "mouse", "myr": "myr", "sphinxes": "sphinx"}


class Unreadable(Exception):
    """Raised inside the parser for a clause it does not understand."""


def singular(word: str) -> str:
    """``"Elves"`` → ``"elf"``, ``"Swamps"`` → ``"swamp"`` (lower case)."""
    w = word.lower()
    if w in _PLURALS:
        return _PLURALS[w]
    if w.endswith("ies"):
        return w[:-3] + "y"
    if w.endswith(("ches", "shes", "sses", "xes")):
        return w[:-2]
    if w.endswith("s") and not w.endswith("ss"):
        return w[:-1]
    return w


def kind_word(word: str, plural: bool = True) -> str:
    """A type or subtype named in a cost or count: ``"Forests"`` → ``"forest"``;
    with ``plural=False`` the word is already singular (``"Locus"``)."""
    w = singular(word) if plural else word.lower()
    if not re.fullmatch(r"[a-z][a-z'\-]*", w):
        raise Unreadable(word)
    return w


#: A chosen-type restriction names this placeholder subtype (it matches no real subtype, so a reader
#: that does not know ``chosen_type`` allows nothing by it); ``amounts.ability_restriction`` fills it in.
CHOSEN_TYPE = frozenset({"chosen type"})


def read_restriction(sentence: str) -> Restriction:
    """Read a spending restriction sentence (CR 106.6).  A "Spend this mana only …" whose
    qualifier is not understood is an ``unchecked`` restriction (the mana pays nothing the
    engine can name; see :class:`~manasolver.models.abilities.Restriction`), and so is "This mana
    can't be spent to cast spells from your hand" (the zone a spell is cast from is not asked); any other
    sentence not understood raises :class:`Unreadable`."""
    try:
        return _read_restriction(sentence)
    except Unreadable:
        if not (re.fullmatch(r"Spend this mana only (?:to|on) [^.]+\.?", sentence)
                or sentence.rstrip(".") == "This mana can't be spent to cast spells from your hand"):
            raise
        return Restriction(sentence, spells=False, abilities=False, unchecked=True)


def _read_restriction(sentence: str) -> Restriction:
    s = sentence.rstrip(".")
    if s == "This mana can't be spent to pay generic mana costs":
        return Restriction(sentence, abilities=True, any_ability=True, no_generic=True)
    if s in ("This mana can't be spent to cast nonartifact spells",
             "This mana can't be spent to cast a nonartifact spell"):
        return Restriction(sentence, spell_types=frozenset({"artifact"}), any_ability=True)
    chosen = "Spend this mana only to cast a creature spell of the chosen type"
    if s in (chosen, chosen + ", and that spell can't be countered"):
        # the "can't be countered" rider changes nothing a payment decides
        return Restriction(sentence, spell_types=frozenset({"creature"}), subtypes=CHOSEN_TYPE,
                           chosen_type=True)
    if s in (chosen + " or activate an ability of a creature or creature card of the chosen type",
             chosen + " or activate an ability of a creature source of the chosen type"):
        return Restriction(sentence, spell_types=frozenset({"creature"}), subtypes=CHOSEN_TYPE, abilities=True,
                           chosen_type=True)
    m = re.fullmatch(r"Spend this mana only (to cast|to activate|on) (.+)", s)
    if not m:
        raise Unreadable(sentence)
    rest = m.group(1) + " " + m.group(2)
    if re.fullmatch(r"on costs that (?:contain|include) \{X\}", rest):
        return Restriction(sentence, abilities=True, x_only=True)
    if rest == ("to cast a colorless spell, activate an ability of a colorless permanent, "
                "or pay a cost that contains {C}"):
        # Cultivator Drone: three alternatives, the last any spell or ability whose cost has {C}
        return Restriction(sentence, spells=False, any_of=(
            Restriction("a colorless spell", colorless=True),
            Restriction("an ability of a colorless permanent", spells=False, abilities=True, colorless=True),
            Restriction("a cost that contains {C}", abilities=True, c_only=True)))
    if rest == "to cast spells":
        # any spell, no ability (Leyline Immersion's grant)
        return Restriction(sentence)
    if m := re.fullmatch(r"to cast non(artifact|creature|land|enchantment) spells", rest):
        # a spell without that card type ("noncreature spells": Nardole, Resourceful Cyborg)
        return Restriction(sentence, not_types=frozenset({m.group(1)}))
    if rest == "to activate abilities":
        return Restriction(sentence, spells=False, abilities=True)
    if m := re.fullmatch(r"to activate (?:abilities|an ability) of (.+)", rest):
        types, subs, multi, colorless = spell_spec(m.group(1), nouns=True)
        return Restriction(sentence, spell_types=types, subtypes=subs, colorless=colorless, spells=False,
                           abilities=True)
    if rest == "to activate an ability or cast an artifact spell":
        return Restriction(sentence, spell_types=frozenset({"artifact"}), any_ability=True)
    if not rest.startswith("to cast "):
        raise Unreadable(sentence)
    rest = rest[len("to cast "):]
    abilities = False
    am = re.fullmatch(r"(.+?),? or (?:to )?activate (?:abilities|an ability) of (.+)", rest)
    if am:
        rest, owners = am.group(1), am.group(2)
        abilities = True
    if not am and (alternatives := _alternatives(rest)):
        return Restriction(sentence, any_of=alternatives)
    spec = spell_spec(rest)
    if am and spell_spec(owners, nouns=True) != spec:
        raise Unreadable(sentence)
    types, subs, multi, colorless = spec
    return Restriction(sentence, spell_types=types, subtypes=subs, multicolored=multi, colorless=colorless,
                       abilities=abilities)


def _alternatives(rest: str) -> tuple[Restriction, ...]:
    """Spells of kinds that need more than one word each, as alternatives ("an Elemental spell
    or a Chandra planeswalker spell"); empty when ``rest`` is not such a list (one
    :func:`spell_spec` reads it whole) or a part is not understood."""
    try:
        spell_spec(rest)
        return ()
    except Unreadable:
        pass
    parts = re.split(r",? or ", rest)
    if len(parts) < 2 or not all(re.search(r"\bspells?$", p) for p in parts):
        return ()
    out = []
    for part in parts:
        try:
            types, subs, multi, colorless = spell_spec(part)
        except Unreadable:
            return ()
        out.append(Restriction(part, spell_types=types, subtypes=subs, multicolored=multi, colorless=colorless))
    return tuple(out)


def spell_spec(text: str, nouns: bool = False) -> tuple[frozenset[str], frozenset[str], bool, bool]:
    """``creature spells``, ``an instant or sorcery spell``, ``a Dragon creature spell``,
    ``a Cleric, Rogue, or Wizard spell``, ``colorless Eldrazi spells`` →
    (types, subtypes, multicolored, colorless); the fields hold together (AND),
    the words of an "or" list are alternatives within one field.  With ``nouns``
    the text names permanents (``artifacts``, ``Dragons``, ``an Elemental``)."""
    words = text.replace(",", " ,").split()
    if not nouns:
        if not words or singular(words[-1]) != "spell":
            raise Unreadable(text)
        words = words[:-1]
    if words and words[0] in ("a", "an"):
        words = words[1:]
    multi = colorless = False
    if words and words[0] == "multicolored":
        multi, words = True, words[1:]
    elif words and words[0] == "colorless":
        colorless, words = True, words[1:]
    items: list[list[str]] = [[]]
    for w in words:
        if w in ("or", "and/or", ","):
            if items[-1]:
                items.append([])
            continue
        items[-1].append(w)
    items = [i for i in items if i]
    types: set[str] = set()
    subs: set[str] = set()
    if len(items) == 1:
        for w in items[0]:
            kind = kind_word(w)
            if kind in CARD_TYPES and w[0].islower():
                types.add(kind)
            elif w[0].isupper() and not types:
                subs.add(kind)
            else:
                raise Unreadable(text)
        if len(types) > 1:
            raise Unreadable(text)
    else:
        for item in items:
            if len(item) != 1:
                raise Unreadable(text)
            kind = kind_word(item[0])
            if kind in CARD_TYPES and item[0][0].islower():
                types.add(kind)
            elif item[0][0].isupper():
                subs.add(kind)
            else:
                raise Unreadable(text)
        if types and subs:
            raise Unreadable(text)
    if not (types or subs or multi or colorless):
        raise Unreadable(text)
    return frozenset(types), frozenset(subs), multi, colorless
