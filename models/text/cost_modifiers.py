"""Cost modifiers printed on cards, read from oracle text (CR 601.2f, 118.7, 702.41).

Two kinds:

* board effects of permanents: "Noncreature spells cost {1} more to cast."
  (Thalia), "Each spell a player casts costs {1} more to cast for each other spell that player
  has cast this turn" (Damping Sphere, counted from the caster's ``spells_cast_this_turn``),
  "Instant and sorcery spells you cast cost {1} less to cast." (Goblin Electromancer),
  "Colorless spells you cast cost {2} less to cast." (Ugin, the Ineffable), Trinisphere's minimum of three;
* the spell's own reductions: affinity (702.41), "This spell costs {1} less to
  cast for each artifact you control", Ghalta's total power, domain.

What the reader does not understand exactly (targets, "the first spell each
turn", a chosen type, other zones) is returned as unsupported, never guessed.

>>> effects, unknown = read_cost_effects("Noncreature spells cost {1} more to cast.", "Thalia")
>>> effects[0].kind, effects[0].cost.format(), sorted(effects[0].not_types)
('increase', '{1}', ['creature'])
"""

from __future__ import annotations

import re
from functools import lru_cache

from manasolver.models.card import Card
from manasolver.models.cost import ManaCost
from manasolver.models.card_text import CostEffect
from manasolver.models.errors import BadCost
from manasolver.models.symbols import type_bit

__all__ = ["CostEffect", "cost_effects_in", "cost_effects_of", "read_cost_effects"]

_TYPES = {"artifact", "creature", "enchantment", "instant", "sorcery", "planeswalker", "battle", "land",
          "kindred", "tribal"}
_SUPERTYPES = {"legendary", "snow", "basic"}
_COLOR_WORDS = {"white": "W", "blue": "U", "black": "B", "red": "R", "green": "G"}
_NUMBERS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
            "nine": 9, "ten": 10}

_BOARD = re.compile(
    r"^(?:(?P<filter>[\w ,\-]+?) )?spells (?P<who>you cast |your opponents cast |)"
    r"costs? (?P<cost>(?:\{[^}]+\})+) (?P<dir>more|less) to cast$", re.IGNORECASE)
_SELF_EACH = re.compile(
    r"^this spell costs (?P<cost>\{\d+\}) less to cast for each (?P<what>[\w ]+?)"
    r" (?P<whose>you control|on the battlefield)$", re.IGNORECASE)
_SELF_POWER = re.compile(
    r"^this spell costs \{x\} less to cast, where x is the total power of creatures you control$", re.IGNORECASE)
_DOMAIN = re.compile(
    r"^this spell costs (?P<cost>\{\d+\}) less to cast for each basic land type among "
    r"lands you control$", re.IGNORECASE)
_SELF_IF = re.compile(
    r"^this spell costs (?P<cost>\{\d+\}) less to cast if you control (?P<n>\w+) or more (?P<what>\w+?)s$",
    re.IGNORECASE)
_PER_SPELL_CAST = re.compile(
    r"^each spell a player casts costs (?P<cost>\{\d+\}) more to cast for each other spell that player has "
    r"cast this turn$", re.IGNORECASE)
_ABILITY_WORD = re.compile(r"^[A-Z][\w' ]+ — ")
_AFFINITY = re.compile(r"^affinity for (?P<what>\w+)$", re.IGNORECASE)
_MINIMUM = re.compile(
    r"^(?P<cond>as long as ~ is untapped, )?each spell that would cost less than (?P<n>\w+) mana to cast "
    r"costs (?P=n) mana to cast$", re.IGNORECASE)
_ALTERNATIVE = re.compile(
    r"^you may pay (?P<n>\w+) (?P<sym>\{e\}) rather than pay the mana cost for (?P<filter>[\w ]*?) ?spells "
    r"you cast$", re.IGNORECASE)
_MENTION = re.compile(r"rather than pay the mana cost|\bcosts? (?:\{[^}]+\})+ (?:more|less) to cast|"
                      r"costs? (?:\w+) mana to cast|^affinity for", re.IGNORECASE)


def _clauses(text: str, name: str) -> list[str]:
    text = re.sub(r"\([^)]*\)", "", text)
    if name:
        text = text.replace(name, "~")
        first = name.split(",")[0]
        if first != name:
            text = text.replace(first, "~")
    if "this " in text.lower():  # today's wording: "As long as this artifact is untapped"
        from manasolver.models.text.oracle import self_reference
        text = self_reference(text, "")
    out: list[str] = []
    for line in text.split("\n"):
        for sentence in re.split(r"(?<=\.)\s+", line.strip()):
            sentence = sentence.strip().rstrip(".").strip()
            if sentence:
                out.append(sentence)
    return out


def _filter(words: str) -> dict[str, object] | None:
    """Parse the spell filter of a board effect; ``None`` when not understood."""
    types: set[str] = set()
    not_types: set[str] = set()
    colors = 0
    colorless = False
    subtypes: set[str] = set()
    supertypes: set[str] = set()
    for word in re.split(r",\s*|\s+and\s+|\s+or\s+|\s+", words.strip().lower()):
        if word in ("", "and", "or", "each"):
            continue
        if word.startswith("non") and word[3:].strip("-") in _TYPES:
            not_types.add(word[3:].strip("-"))
        elif word in _TYPES:
            types.add("kindred" if word == "tribal" else word)
        elif word in _COLOR_WORDS:
            colors |= type_bit(_COLOR_WORDS[word])
        elif word == "colorless":
            colorless = True
        elif word in _SUPERTYPES:
            supertypes.add(word)
        elif word.isalpha() and word not in (
                "face-down", "multicolored", "monocolored", "the", "chosen", "type", "with", "that"):
            subtypes.add(word)
        else:
            return None
    return {"types": frozenset(types), "not_types": frozenset(not_types), "colors": colors,
            "colorless": colorless, "subtypes": frozenset(subtypes), "supertypes": frozenset(supertypes)}


def cost_effects_of(card: Card) -> tuple[tuple[CostEffect, ...], tuple[str, ...]]:
    """The cost effects printed on ``card`` and its cost-modifying clauses not understood: the
    reading stored on the card when it was built; a card built by hand is read here (cached)."""
    text = card.text
    if text is not None:
        return text.cost_effects, text.cost_unknown
    return read_cost_effects(card.oracle_text, card.name)


def cost_effects_in(oracle_text: str, name: str = "") -> tuple[tuple[CostEffect, ...], tuple[str, ...]]:
    """The cost effects in a card's text, and the cost-modifying clauses not understood."""
    effects: list[CostEffect] = []
    unknown: list[str] = []
    for clause in _clauses(oracle_text, name):
        if not _MENTION.search(clause):
            continue
        effect = _read_clause(clause)
        if effect is None:
            unknown.append(clause)
        else:
            effects.append(effect)
    return tuple(effects), tuple(unknown)


#: :func:`cost_effects_in`, cached by text and name.
read_cost_effects = lru_cache(maxsize=4096)(cost_effects_in)


def _cost(text: str) -> ManaCost | None:
    try:
        return ManaCost.parse(text)
    except BadCost:
        return None


def _count(word: str) -> int:
    """A number written as a word or in digits; 0 when it is neither."""
    return _NUMBERS.get(word.lower()) or (int(word) if word.isdigit() else 0)


def _read_clause(clause: str) -> CostEffect | None:
    clause = _ABILITY_WORD.sub("", clause)
    m = _BOARD.match(re.sub(r" spells and ", " and ", clause, flags=re.IGNORECASE))
    if m:
        filt = _filter(m.group("filter") or "")
        cost = _cost(m.group("cost"))
        if filt is None or cost is None or cost.variables:
            return None
        who = {"you cast ": "you", "your opponents cast ": "opponents", "": "all"}[m.group("who").lower()]
        kind = "increase" if m.group("dir").lower() == "more" else "reduce"
        return CostEffect(kind, clause, cost=cost, who=who, **filt)  # type: ignore[arg-type]
    m = _PER_SPELL_CAST.match(clause)
    if m:  # Damping Sphere: counted from the caster's spells_cast_this_turn
        return CostEffect("increase", clause, cost=_cost(m.group("cost")), who="all", per="spells_cast")
    m = _ALTERNATIVE.match(clause)
    if m:
        n = _count(m.group("n"))
        words = m.group("filter").lower().strip()
        if not n or words not in ("", "permanent"):
            return None
        types = frozenset({"artifact", "creature", "enchantment", "planeswalker", "battle"}) if words else frozenset()
        return CostEffect("alternative", clause, cost=ManaCost.parse("{E}" * n), who="you", types=types)
    m = _MINIMUM.match(clause)
    if m:
        minimum = _NUMBERS.get(m.group("n").lower())
        if minimum is None:
            return None
        return CostEffect("minimum", clause, minimum=minimum, who="all", while_untapped=bool(m.group("cond")))
    m = _AFFINITY.match(clause)
    if m:
        what = m.group("what").lower().rstrip("s")
        if what not in _TYPES:
            return None
        return CostEffect("reduce", clause, cost=ManaCost.parse("{1}"), scope="self", per="count_you",
                          per_types=frozenset({what}))
    m = _DOMAIN.match(clause)
    if m:
        return CostEffect("reduce", clause, cost=_cost(m.group("cost")), scope="self", per="domain")
    m = _SELF_EACH.match(clause)
    if m:
        what = m.group("what").lower()
        word = what.removesuffix("s")
        if word not in _TYPES:
            return None
        per = "count_you" if m.group("whose").lower() == "you control" else "count_all"
        return CostEffect("reduce", clause, cost=_cost(m.group("cost")), scope="self", per=per,
                          per_types=frozenset({word}))
    m = _SELF_IF.match(clause)
    if m:
        n = _count(m.group("n"))
        what = m.group("what").lower()
        if not n or what not in _TYPES:
            return None
        return CostEffect("reduce", clause, cost=_cost(m.group("cost")), scope="self", per="if_count_you",
                          per_types=frozenset({what}), threshold=n)
    if _SELF_POWER.match(clause):
        return CostEffect("reduce", clause, cost=ManaCost.parse("{1}"), scope="self", per="total_power")
    return None
