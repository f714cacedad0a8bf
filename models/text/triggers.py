"""Triggered abilities that matter for mana and energy, read from real oracle text (CR 603).

:func:`parse_triggers` reads every triggered ability of a card's rules text (a line
that begins "When", "Whenever" or "At", after any ability word such as
"Landfall —") and returns one :class:`Trigger` per line.  A trigger the engine
understands has an ``event`` and structured ``effects``; any other trigger comes
back too, with ``unsupported`` saying why and its text verbatim: nothing is
silently dropped and nothing is guessed.

Events read (old "enters the battlefield" wording and the current "enters" both):

* ``"enters"``: "When ~ enters, …", "Whenever ~ enters or attacks, …" (Overlord of
  the Hauntwoods; ``also_attacks``);
* ``"landfall"``: "Landfall — Whenever a land you control enters, …", "Whenever a
  land enters the battlefield under your control, …" (Lotus Cobra, Nissa);
* ``"becomes_tapped"``: "Whenever ~ becomes tapped, …" (City of Brass);
* ``"enchanted_tapped"``: an Aura's "Whenever enchanted land becomes tapped, its controller
  loses 2 life." (Contaminated Ground) or "… ~ deals 2 damage to that land's controller."
  (Psychic Venom): the effect's ``who`` is ``"enchanted"``, the enchanted permanent's controller;
* ``"your_upkeep"``: "At the beginning of your upkeep, …" (Happily Ever After).

Effects read: "you get {E}{E}" (energy, CR 107.14), "create a [tapped] Treasure
token" and the other predefined tokens of :mod:`manasolver.models.tokens`
(Everywhere: "create a tapped colorless land token named Everywhere that is every
basic land type"), "~ deals N damage to you", "you gain N life" / "each player
gains N life", "add …" (mana), "you win the game".

An intervening "if" clause (CR 603.4) is kept in ``condition``; only the conditions
in :data:`CONDITIONS` are understood (Happily Ever After's), any other makes the
trigger unsupported.

A trigger that adds mana is a triggered *mana* ability only when it triggers from
activating or resolving a mana ability or from mana being added (CR 605.1b); none
of the events above is such, so Lotus Cobra's landfall (CR 605.5a) and
Burning-Tree Emissary's ETB (its ruling) are ordinary triggered abilities that use the
stack (605.5a): ``is_mana_ability`` is False and ``uses_stack`` True.

>>> from manasolver.models.card import TypeLine
>>> [t.event for t in parse_triggers("Landfall — Whenever a land you control enters, you get {E}{E}.",
...                                  TypeLine.parse("Creature — Elf"), "Test Elf")]
['landfall']
"""

from __future__ import annotations

import re
from functools import lru_cache

from manasolver.models.triggered import EffectKind, Trigger, TriggerEffect, TriggerEvent
from manasolver.models.card import Card, TypeLine
from manasolver.models.text.mana_abilities import sentences
from manasolver.models.text.oracle import MAX_LINE, holds_any, self_reference, strip_reminder
from manasolver.models.tokens import TOKENS

__all__ = [
    "CONDITIONS",
    "EFFECT_KINDS",
    "EVENTS",
    "Trigger",
    "TriggerEffect",
    "enters_tapped",
    "hurt_when_tapped",
    "impending_counters",
    "parse_triggers",
    "read_enters_tapped",
    "read_impending_counters",
    "read_triggers",
    "self_tap_damage",
    "triggers_of",
]

#: The events a :class:`Trigger` may have; ``"other"`` is a trigger the engine does not read.
EVENTS: tuple[TriggerEvent, ...] = ("enters", "landfall", "becomes_tapped", "enchanted_tapped", "your_upkeep", "other")
#: The kinds of :class:`TriggerEffect`.
EFFECT_KINDS: tuple[EffectKind, ...] = ("energy", "token", "damage", "lose_life", "life", "mana", "win")

#: Intervening-if conditions the engine evaluates (CR 603.4), by their oracle wording, to a
#: name :func:`manasolver.models.rules.events.condition_holds` knows.
CONDITIONS = {
    ("there are five colors among permanents you control, there are six or more card types among "
     "permanents you control and/or cards in your graveyard, and your life total is greater than or "
     "equal to your starting life total"): "happily_ever_after",
}

_NUMBERS = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6,
            "seven": 7, "eight": 8, "nine": 9, "ten": 10}




# -- reading ------------------------------------------------------------------------------------

_ABILITY_WORD = re.compile(r"^[A-Z][a-z']+(?: [a-z']+)* — ")
_ENTERS = r"enters(?: the battlefield)?"
_HEADS: tuple[tuple[re.Pattern[str], TriggerEvent], ...] = (
    (re.compile(rf"(?:When|Whenever) ~ {_ENTERS}( or attacks)?, (.+)"), "enters"),
    (re.compile(rf"Whenever a land (?:you control {_ENTERS}|{_ENTERS} under your control)(), (.+)"),
     "landfall"),
    (re.compile(r"Whenever ~ becomes tapped(), (.+)"), "becomes_tapped"),
    (re.compile(r"Whenever enchanted (?:land|creature|artifact) becomes tapped(), (.+)"), "enchanted_tapped"),
    (re.compile(r"At the beginning of your upkeep(), (.+)"), "your_upkeep"),
)
#: Words one of which the trigger of each of :data:`_HEADS` holds: the others are of no event read.
_HEAD_WORDS = ("enters", "becomes tapped", "your upkeep")
_TRIGGER_START = re.compile(r"^(?:When|Whenever|At)\b")
_ENTERS_TAPPED = re.compile(rf"~ {_ENTERS} tapped\.")
_ENTERS_TAPPED_ANY = re.compile(rf"^~ {_ENTERS} tapped\b")
_IMPENDING = re.compile(r"^Impending (\d+)—", re.MULTILINE)

_EVERYWHERE = "create a tapped colorless land token named Everywhere that is every basic land type."
_SPAWN = re.compile(r"create (\w+) 0/1 colorless Eldrazi Spawn creature tokens?\. "
                    r"(?:It has|They have) \"Sacrifice (?:this creature|~): Add \{C\}\.\"")


def _number(word: str) -> int | None:
    word = word.lower()
    return int(word) if word.isdigit() else _NUMBERS.get(word)


def _split(text: str) -> list[str]:
    return sentences(text)


# the effects :func:`_effect` reads
_GET_ENERGY = re.compile(r"you get ((?:\{E\})+)\.")
_CREATE_TOKENS = re.compile(r"(?:you )?create (\w+) (tapped )?(\w+) tokens?\.")
_DAMAGE_TO_YOU = re.compile(r"(?:it|~) deals (\d+) damage to you\.")
_DAMAGE_TO_CONTROLLER = re.compile(r"~ deals (\d+) damage to that (?:land|creature|artifact)'s controller\.")
_CONTROLLER_LOSES = re.compile(r"its controller loses (\d+) life\.")
_GAIN_LIFE = re.compile(r"(you|each player) gains? (\w+) life\.")
_ADD = re.compile(r"add\b", re.IGNORECASE)


def _effect(sentence: str) -> TriggerEffect | None:
    """One sentence of a trigger's effect, or None when it is not understood."""
    if m := _GET_ENERGY.fullmatch(sentence):
        return TriggerEffect("energy", sentence, amount=m.group(1).count("{E}"))
    if sentence == _EVERYWHERE:
        return TriggerEffect("token", sentence, amount=1, token="Everywhere", tapped=True)
    if m := _CREATE_TOKENS.fullmatch(sentence):
        n = _number(m.group(1))
        name = m.group(3)
        if n is not None and name in TOKENS and name not in ("Everywhere",):
            return TriggerEffect("token", sentence, amount=n, token=name, tapped=bool(m.group(2)))
        return None
    if (m := _SPAWN.fullmatch(sentence)) and (n := _number(m.group(1))) is not None:
        return TriggerEffect("token", sentence, amount=n, token="Eldrazi Spawn")
    if m := _DAMAGE_TO_YOU.fullmatch(sentence):
        return TriggerEffect("damage", sentence, amount=int(m.group(1)))
    if m := _DAMAGE_TO_CONTROLLER.fullmatch(sentence):
        return TriggerEffect("damage", sentence, amount=int(m.group(1)), who="enchanted")
    if m := _CONTROLLER_LOSES.fullmatch(sentence):
        return TriggerEffect("lose_life", sentence, amount=int(m.group(1)), who="enchanted")
    if (m := _GAIN_LIFE.fullmatch(sentence)) and _number(m.group(2)):
        return TriggerEffect("life", sentence, amount=_number(m.group(2)) or 0,
                             who="you" if m.group(1) == "you" else "each")
    if sentence == "you win the game.":
        return TriggerEffect("win", sentence)
    if _ADD.match(sentence):
        from manasolver.models.text.mana_abilities import read_production
        from manasolver.models.text.restrictions import Unreadable
        try:
            production = read_production(sentence)
        except (Unreadable, ValueError):
            return None
        if production.amount is not None or production.reference or not production.options:
            return None  # amounts read from the board and could-produce mana: not read here
        return TriggerEffect("mana", sentence, production=production)
    return None


def _effects(body: str) -> tuple[tuple[TriggerEffect, ...], str]:
    """The effects of ``body`` and the first sentence not understood ("" when none)."""
    out: list[TriggerEffect] = []
    parts = _split(body)
    # Eldrazi Spawn: the token's ability is given in the next sentence; read the two as one
    i = 0
    while i < len(parts):
        sentence = parts[i]
        joined = f"{sentence} {parts[i + 1]}" if i + 1 < len(parts) else ""
        if joined and _SPAWN.fullmatch(joined):
            sentence, i = joined, i + 1
        effect = _effect(sentence[:1].lower() + sentence[1:])
        if effect is None:
            return tuple(out), sentence
        out.append(effect)
        i += 1
    return tuple(out), ""


def _condition(body: str) -> tuple[str, str, str]:
    """Split an intervening "if" (CR 603.4): (condition name, the rest, the unknown condition)."""
    if not body.startswith("if "):
        return "", body, ""
    for text, name in CONDITIONS.items():
        if body.startswith(f"if {text}, "):
            return name, body[len(text) + 5:], ""
    return "", body, body.split(",")[0]


def _trigger(referenced: str, line: str) -> Trigger | None:
    """The trigger a reminder-free ``line`` holds (read in its self-``referenced`` form, ~ for
    the card's name), or None when it is none."""
    # (the pattern is tried only on a line with its dash: it backtracks over every word of another)
    word = _ABILITY_WORD.match(referenced) if " — " in referenced else None
    bare = referenced[word.end():] if word else referenced
    if not _TRIGGER_START.match(bare):
        return None
    heads = _HEADS if holds_any(bare, _HEAD_WORDS) else ()  # (without their words, a trigger of no event read)
    for pattern, event in heads:
        m = pattern.fullmatch(bare)
        if m is None:
            continue
        condition, body, unknown = _condition(m.group(2))
        if unknown:
            return Trigger(event, line, condition="", unsupported=f"intervening condition not read: {unknown}")
        effects, left = _effects(body)
        if event == "becomes_tapped" and any(e.kind == "mana" for e in effects):
            left = left or "mana added when it becomes tapped (it may be a triggered mana ability, 605.1b)"
        return Trigger(event, line, effects, condition, also_attacks=bool(m.group(1)),
                       unsupported=f"effect not read: {left}" if left else "")
    return Trigger("other", line, unsupported="trigger event not read")


def parse_triggers(oracle_text: str, type_line: TypeLine, name: str) -> tuple[Trigger, ...]:
    """Every triggered ability of one face's rules text, in printed order.

    Spells' text (instants, sorceries) holds no triggered abilities of a permanent, but
    a "When you cast" line on them is returned as ``"other"`` like any trigger."""
    legendary = "legendary" in type_line.supertypes and bool({"creature", "planeswalker"} & set(type_line.types))
    out: list[Trigger] = []
    for raw in (oracle_text or "").split("\n"):
        if len(raw) > MAX_LINE:
            continue
        if "When" not in raw and "At" not in raw:
            continue  # no trigger starts here (a self reference adds no words)
        line = strip_reminder(raw)
        trigger = _trigger(self_reference(line, name, legendary), line)
        if trigger is not None:
            out.append(trigger)
    return tuple(out)


@lru_cache(maxsize=4096)
def _cached(oracle_text: str, type_line: str, name: str) -> tuple[Trigger, ...]:
    return parse_triggers(oracle_text, TypeLine.parse(type_line), name)


def read_triggers(card: Card) -> tuple[Trigger, ...]:
    """The triggered abilities of the face ``card`` has on the battlefield, read now (with the face's
    type line as the card holds it: parsed once, when the card was built)."""
    face = _face(card)
    return parse_triggers(face.oracle_text, face.type_line, face.name)


def _face(card: Card) -> Card:
    """The face a permanent has on the battlefield: the front face of a multi-face card."""
    return card.battlefield_face


def triggers_of(card: Card) -> tuple[Trigger, ...]:
    """The triggered abilities of a card on the battlefield (its front face): the reading stored
    on the card when it was built; a card built by hand is read here (cached)."""
    text = card.text
    if text is not None:
        return text.triggers
    face = _face(card)
    return _cached(face.oracle_text, face.type_line.text, face.name)


def hurt_when_tapped(trig: Trigger) -> int | None:
    """The damage plus life loss a read trigger deals its victim each time (Contaminated
    Ground: 2); ``None`` when the trigger is not read in full or has a condition, so callers
    report it instead of counting it."""
    if not trig.supported or trig.condition:
        return None
    return sum(e.amount for e in trig.effects if e.kind in ("damage", "lose_life"))


def self_tap_damage(card: Card) -> int:
    """Damage its own "Whenever ~ becomes tapped, it deals N damage to you." deals its controller
    each time it becomes tapped (City of Brass: 1).  The parser already puts it on the card's
    printed {T} mana abilities (``ManaAbility.damage``); a {T} ability the permanent gets from a
    basic land type (Urborg) or a grant (Chromatic Lantern) taps it just the same, so whoever
    builds those abilities adds this to them while the permanent keeps its own abilities."""
    return sum(e.amount for t in triggers_of(card) if t.event == "becomes_tapped" and t.supported
               for e in t.effects if e.kind == "damage" and e.who == "you")


def enters_tapped(card: Card) -> bool | None:
    """"~ enters tapped." (CR 614.1c, a replacement effect on its own entering): True; no
    such line: False; a conditional form ("… tapped unless you control a Swamp"): None,
    which the caller reports rather than guesses.  The reading stored on the card when it
    was built; a card built by hand is read here."""
    text = card.text
    if text is not None:
        return text.enters_tapped
    return read_enters_tapped(card)


def read_enters_tapped(card: Card) -> bool | None:
    """:func:`enters_tapped`, read now from the face ``card`` has on the battlefield."""
    face = _face(card)
    found: bool | None = False
    for raw in (face.oracle_text or "").split("\n"):
        if "tapped" not in raw or "enters" not in raw:
            continue  # neither form below can be on this line
        for sentence in _split(self_reference(strip_reminder(raw), face.name)):
            if _ENTERS_TAPPED.fullmatch(sentence):
                return True
            if _ENTERS_TAPPED_ANY.match(sentence):
                found = None
    return found


def impending_counters(card: Card) -> int | None:
    """N of "Impending N—[cost]" (CR 702.176a): the time counters it enters with when its
    impending cost was paid; None when the card has no impending.  The reading stored on the
    card when it was built; a card built by hand is read here."""
    text = card.text
    if text is not None:
        return text.impending
    return read_impending_counters(card)


def read_impending_counters(card: Card) -> int | None:
    """:func:`impending_counters`, read now from the face ``card`` has on the battlefield."""
    m = _IMPENDING.search(_face(card).oracle_text or "")
    return int(m.group(1)) if m else None
