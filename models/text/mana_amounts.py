"""The numbers of mana abilities: "for each …", "equal to …" and "where X is …" read into an
:class:`~manasolver.models.abilities.Amount`: counts of permanents (with their filters), counters,
devotion, life, the graveyard, and the amounts and conditions the board's history fields answer
(CR 107.1b, 700.5).  A phrase not understood raises :class:`Unreadable`, so the clause is reported,
never guessed.
"""

from __future__ import annotations

import re
from dataclasses import replace

from manasolver.models.abilities import Amount
from manasolver.models.card import CARD_TYPES, SUPERTYPES
from manasolver.models.symbols import type_bit
from manasolver.models.text.restrictions import Unreadable, kind_word, singular

__all__ = ["CHOSEN_SUBTYPE", "HISTORY_CONDITIONS", "count_amount", "read_amount"]

#: The subtype of a count that stands for the creature type chosen as the source entered.
CHOSEN_SUBTYPE = "chosen type"

_COLOR_WORDS = {"white": "W", "blue": "U", "black": "B", "red": "R", "green": "G"}
_PERMANENT_TYPES = frozenset({"artifact", "battle", "creature", "enchantment", "land", "planeswalker"})


_QUALIFIERS = (
    (re.compile(r" with power (\d+) or greater"), "min_power"),
    (re.compile(r" with (defender|flying|reach|haste|vigilance|trample|flash)"), "keywords"),
    (re.compile(r" named ~"), "name"),
)


def _qualified(text: str) -> tuple[str, dict[str, object]]:
    """Take "with power 4 or greater", "with defender" and "named ~" out of a counted
    phrase: (the rest, the Amount fields they set)."""
    fields: dict[str, object] = {}
    for pattern, key in _QUALIFIERS:
        m = pattern.search(text)
        if m is None:
            continue
        text = text[:m.start()] + text[m.end():]
        if key == "min_power":
            fields[key] = int(m.group(1))
        elif key == "keywords":
            fields[key] = frozenset({m.group(1)})
        else:
            fields[key] = "~"
    return text, fields


def count_amount(text: str, plural: bool = False) -> Amount:
    """``creature you control``, ``other Elf you control``, ``basic Swamp you control``,
    ``Locus on the battlefield``, ``artifacts you control`` → a ``count`` Amount;
    ``creature with defender you control``, ``creature with power 4 or greater you
    control``, ``artifact you control named ~``, ``creature tokens you control`` and ``nontoken
    creatures you control`` add filters."""
    text, extra = _qualified(text)
    if m := re.fullmatch(r"(.*?\w) tokens? (you control|on the battlefield|your opponents control)", text):
        # "creature tokens you control": tokens of that kind (CR 111.1)
        text, extra["token"] = f"{m.group(1)}{'s' if plural else ''} {m.group(2)}", "token"
    elif m := re.fullmatch(r"(other )?nontoken (.+)", text):
        text, extra["token"] = f"{m.group(1) or ''}{m.group(2)}", "nontoken"
    base = _plain_count(text, plural)
    return replace(base, **extra) if extra else base  # type: ignore[arg-type]


def _plain_count(text: str, plural: bool) -> Amount:
    if typed := re.fullmatch(r"(other )?([A-Z][a-z'\-]+) (creatures|artifacts|lands) (you control|on the battlefield)",
                             text):
        # "Sliver creatures you control" (Manaweft Sliver): the subtype and the card type together
        sub = kind_word(typed.group(2), plural=False)
        return Amount("count", types=frozenset({singular(typed.group(3))}), subtypes=frozenset({sub}),
                      controller="you" if typed.group(4) == "you control" else "any", other=bool(typed.group(1)))
    m = re.fullmatch(r"(other )?((?:basic |snow |legendary )*)([A-Za-z'\-]+) "
                     r"(you control|on the battlefield|your opponents control|an opponent controls)", text)
    if not m:
        raise Unreadable(text)
    controller = {"you control": "you", "on the battlefield": "any",
                  "your opponents control": "opponents", "an opponent controls": "opponents"}[m.group(4)]
    kind = kind_word(m.group(3), plural)
    supers = frozenset(m.group(2).split())
    if kind in SUPERTYPES:
        raise Unreadable(text)
    if kind == "permanent":
        types: frozenset[str] = frozenset()
        subs: frozenset[str] = frozenset()
    elif kind in CARD_TYPES or kind == "tribal":
        types, subs = frozenset({"kindred" if kind == "tribal" else kind}), frozenset()
    elif m.group(3)[0].isupper():
        types, subs = frozenset(), frozenset({kind})
    else:
        raise Unreadable(text)
    if not types and not subs and not supers:
        raise Unreadable(text)
    return Amount("count", types=types, subtypes=subs, supertypes=supers, controller=controller,
                  other=bool(m.group(1)))


#: Amounts read from what the board does not hold (the board has no field for them): the ability
#: is left out of the supply naming it (``Amount("history")``, solver/supply/unmodelled.ability_gap).
_NOT_ON_BOARD = {
    "Crossbreed Labs watermark among permanents you control": "the permanents' watermarks",
}
#: Activation conditions read from the board's history fields: 1 when they hold.
HISTORY_CONDITIONS = {
    **{f"{this} entered this turn{rest}": Amount(kind)
       for this in ("this land", "~")
       for rest, kind in (("", "entered_self"), (" or if you control a basic land", "entered_self_or_basic"))},
    **{f"you have {the}": Amount("designation", name=name)
       for the, name in (("the initiative", "initiative"), ("the city's blessing", "city's blessing"))},
    "you're the monarch": Amount("designation", name="monarch"),
    **{f"a card is exiled with {this}": Amount("exiled_with") for this in ("this land", "~")},
}
#: Amounts read from the board's history fields (models/rules/history.py evaluates them).
_HISTORY_AMOUNTS = {
    "card you've drawn this turn": Amount("cards_drawn"),
    "the greatest power among creatures you control that entered the battlefield this turn":
        Amount("entered_power", types=frozenset({"creature"})),
    "the greatest power among creatures you control that entered this turn":
        Amount("entered_power", types=frozenset({"creature"})),
}


def read_amount(text: str) -> Amount:
    """The number in "for each …", "equal to …" and "where X is …" phrases."""
    text = text.strip().rstrip(".")
    if text in ("~'s power", "its power"):
        return Amount("power")
    if text in ("~'s toughness", "its toughness"):
        return Amount("toughness")
    if m := re.fullmatch(r"(?:the number of )?([\w+\-/−]+) counters? on ~", text):
        return Amount("counters", counter=m.group(1).replace("−", "-"))
    if m := re.fullmatch(r"your devotion to (\w+)(?: and (\w+))?", text):
        mask = 0
        for word in filter(None, m.groups()):
            if word not in _COLOR_WORDS:
                raise Unreadable(text)
            mask |= type_bit(_COLOR_WORDS[word])
        return Amount("devotion", colors=mask)
    if re.fullmatch(r"[\w+\-/]+ counters? removed this way", text):
        return Amount("removed")
    if text == "your life total":
        return Amount("life")
    if text in _HISTORY_AMOUNTS:
        return _HISTORY_AMOUNTS[text]
    if text in _NOT_ON_BOARD:
        return Amount("history", name=_NOT_ON_BOARD[text])
    if text == "the amount of life you gained this turn":
        return Amount("life_gained")  # the player's life_gained_this_turn
    if text == "the number of basic land types among lands you control":
        return Amount("domain")
    if text == "Urza's land you control":
        # "for each Urza's land you control": lands with the subtype Urza's (CR 205.3i)
        return Amount("count", types=frozenset({"land"}), subtypes=frozenset({"urza's"}))
    if m := re.fullmatch(r"the greatest power among (creatures you control)", text):
        return replace(count_amount(m.group(1), plural=True), kind="max_power")
    if m := re.fullmatch(r"the greatest toughness among ((?:other )?creatures you control)", text):
        return replace(count_amount(m.group(1), plural=True), kind="max_toughness")
    if text == "different power among creatures you control":
        return replace(count_amount("creatures you control", plural=True), kind="distinct_powers")
    if text == "the greatest number of creatures you control that have a creature type in common":
        return replace(count_amount("creatures you control", plural=True), kind="shared_type")
    if text == "counter on ~":
        return Amount("counters", counter="any")  # Nardole: counters of every kind
    if m := re.fullmatch(r"(?:the number of )?(?:(white|blue|black|red|green) )?(\w+) cards? in your graveyard",
                         text):
        colors = type_bit(_COLOR_WORDS[m.group(1)]) if m.group(1) else 0
        kind = kind_word(m.group(2), plural=False)
        if kind == "permanent" and not colors:
            # a permanent card: one of the permanent card types (CR 110.4a)
            return Amount("graveyard", types=_PERMANENT_TYPES)
        if kind not in CARD_TYPES:
            raise Unreadable(text)
        return Amount("graveyard", types=frozenset({kind}), colors=colors)
    if text == "the number of creatures you control of the chosen type":
        # Three Tree City: the creature type chosen as it entered (the board's chosen.type)
        return Amount("count", types=frozenset({"creature"}), subtypes=frozenset({CHOSEN_SUBTYPE}))
    if m := re.fullmatch(r"the number of (.+)", text):
        return count_amount(m.group(1), plural=True)
    return count_amount(text)
