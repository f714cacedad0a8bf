"""One reading of a card's rules text: every reader of :mod:`manasolver.models.text` run at most once.

:func:`read_card_text` is called by the card builder (:mod:`manasolver.models.card_build`) for
every card and face it builds, after the oracle parser has read the mana abilities
(:func:`manasolver.models.text.oracle.parse_oracle`: ``Card.mana_abilities`` and
``Card.unsupported``).  It runs the other readers on the card as the card has been built — the
effects on mana production, the triggered abilities of the face it has on the battlefield, the
mana abilities activated from the hand, the mana abilities that tap other permanents, cost
modifiers, prohibitions and the keywords it gives others (haste, convoke) — and returns them as
one :class:`~manasolver.models.card.CardText`, which the card keeps (``Card.text``).  The fields
few queries ask for (``READ_WHEN_ASKED``: the non-mana activated abilities, keyword costs, whether
it enters tapped, its impending counters, its modes, the line about activation) cost about as much
to read as all the others; they are read when first asked (:class:`_Reader`, kept by the reading)
and kept.  The accessors of each reader (``triggers_of``, ``mana_effects_of``, ``hand_abilities``
…) return the card's reading, and read a card built by hand (without ``text``) themselves.

A reader runs only on text that holds the words every clause it reads must contain (checked on
the text without reminder text, as the readers see it): a reader that could find nothing is not
run, nor its module imported, so that a card such as Forest is built as fast as before any
reader existed.  Skipping it gives the same empty reading it would return.

``CardText.unread`` is what is left of ``Card.unsupported`` when the clauses that the readers of
mana effects, hand abilities and tapping costs read are taken out.  The words the solver looks
for in the text are found here too: the bullet lines of a modal spell, "unspent mana" (pool
doublers) and the first line about activating abilities (Suppression Field, Pithing Needle).
:func:`card_text` is the reading of any card: the stored one, or that of a card built by hand
(remembered per card object).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from manasolver.models.abilities import ManaAbility
from manasolver.models.card import Card, CardText
from manasolver.models.errors import ManasolverError
from manasolver.models.text.oracle import GRANT_WORDS, changes_no_payment, holds_any, strip_reminder

if TYPE_CHECKING:  # each reader's module is imported when its words are in the text
    from manasolver.models.card_text import ActivatedAbility, CostEffect, GrantedKeyword, KeywordCost, TapCost
    from manasolver.models.effects import StructuredEffect
    from manasolver.models.triggered import Trigger

__all__ = ["ABOUT_ACTIVATION", "card_text", "read_card_text", "unread_clauses"]

#: Words one of which every clause that :mod:`~manasolver.models.text.mana_effects` reads holds,
#: but for granted abilities, which quote an ability that adds mana.  Looked for one by one
#: (:func:`~manasolver.models.text.oracle.holds_any`): a regular expression of these alternatives
#: tries them at almost every position of the text, some ten times slower.
_MANA_EFFECT_WORDS = ("If you tap a permanent", "If a land is tapped", "if a player taps a nonbasic land",
                      "nonbasic lands are", "Nonbasic lands are", "Enchanted land is", "Each land is",
                      "Lands you control are", "All lands are", " for mana", "causes you to add", "as though it were",
                      "spend mana of any", "all activated abilities of", "can't be activated",
                      "damage to you if you don't control", "If tapped for mana")
#: A word of each of :data:`_MANA_EFFECT_WORDS`, found faster than they are.
_MANA_EFFECT_HINTS = ("tap", "land", "Land", " for mana", "add", "as though", "spend", "activated", "damage to you")
#: A keyword line with a mana cost: "Kicker {2}", "Flashback—{1}{R}" (:mod:`~manasolver.models.text.keyword_costs`).
_KEYWORD_COST_LINE = re.compile(r"^\s*[A-Z][a-z]+(?: \d+)?(?: |—)\{", re.MULTILINE)
#: Text about what activating abilities costs or whether they can be activated (CR 601.2f via
#: 602.2b, 602.5), searched in the whole text, reminders included.
ABOUT_ACTIVATION = re.compile(r"\bactivated abilities\b|\babilities (?:of|that)\b[^.]*\bcan't be activated|"
                              r"\bcan't be activated\b", re.IGNORECASE)
_HAND_WORDS = "from your hand: Add"
#: A parenthesised part (reminder text), as the cost readers leave it out.
_PARENTHESISED = re.compile(r"\([^)]*\)")
#: Words of the clauses :mod:`~manasolver.models.text.tap_costs` may read (costs that tap, discard,
#: exile, sacrifice, mill or return).
_TAP_WORDS = re.compile(r"untapped|[Dd]iscard a card|Exile|Sacrifice|Mill a card|Untap a tapped|owner's hand|Forage"
                        r"|Collect evidence")


def _without_reminders(text: str) -> str:
    return "\n".join(strip_reminder(raw) for raw in text.split("\n"))


def read_card_text(card: Card) -> CardText:
    """Everything the readers read from ``card`` (see the module docstring): the fields of
    :data:`~manasolver.models.card.READ_WHEN_ASKED` are read when first asked (:class:`_Reader`),
    from ``card``, which the reading keeps."""
    oracle = card.oracle_text
    plain = _without_reminders(oracle) if "(" in oracle else oracle
    effects: tuple[StructuredEffect, ...] = ()
    if (holds_any(plain, _MANA_EFFECT_HINTS) and holds_any(plain, _MANA_EFFECT_WORDS)
            or '"' in plain and "Add" in plain):
        from manasolver.models.text.mana_effects import read_mana_effects
        effects = read_mana_effects(oracle, card.name)
    triggers: tuple[Trigger, ...] = ()
    face = card.battlefield_face
    face_plain = plain if face is card else _without_reminders(face.oracle_text)
    if "When" in face_plain or "At" in face_plain:  # (a trigger starts "When", "Whenever" or "At": CR 603.1)
        from manasolver.models.text.triggers import read_triggers
        triggers = read_triggers(card)
    hand: tuple[ManaAbility, ...] = ()
    if _HAND_WORDS in oracle:
        from manasolver.models.text.hand import read_hand_abilities
        hand = read_hand_abilities(card.name, oracle)
    unsupported = card.unsupported
    tap_costs: tuple[TapCost, ...] = ()
    if any(_TAP_WORDS.search(u) for u in unsupported):
        from manasolver.models.text.tap_costs import read_tap_costs
        tap_costs = read_tap_costs(unsupported, len(card.mana_abilities))
    cost_effects: tuple[CostEffect, ...] = ()
    cost_unknown: tuple[str, ...] = ()
    lower = oracle.lower()  # (lowered once: lowering a text with "—" or "•" costs more than a search)
    low = _PARENTHESISED.sub("", lower) if "(" in oracle else lower
    if "cost" in low or "affinity for" in low:
        from manasolver.models.text.cost_modifiers import cost_effects_in
        cost_effects, cost_unknown = cost_effects_in(oracle, card.name)
    prohibitions: tuple[tuple[str, str], ...] = ()
    if "can't be activated" in oracle:
        from manasolver.models.text.prohibitions import read_prohibitions
        prohibitions = read_prohibitions(oracle or "")
    unread: tuple[str, ...] = ()
    if unsupported:
        done = {e.text for e in effects}
        unread = tuple(u for u in unsupported if u not in done and not _hand_clause(card, u) and not _tap_clause(u)
                       and not changes_no_payment(u))
    unspent = "unspent mana" in lower
    doubles = unspent and "double the amount of each type of unspent mana" in lower
    granted: tuple[GrantedKeyword, ...] = ()
    if " ha" in face_plain and GRANT_WORDS.search(face_plain):
        from manasolver.models.text.granted import read_granted_keywords
        granted = read_granted_keywords(face.oracle_text, face.name)
    return CardText.of(_Reader(card, plain, face_plain), mana_effects=effects, triggers=triggers,
                       hand_abilities=hand, tap_costs=tap_costs, cost_effects=cost_effects,
                       cost_unknown=cost_unknown, prohibitions=prohibitions, unread=unread, unspent_mana=unspent,
                       doubles_unspent_mana=doubles, granted_keywords=granted)


class _Reader:
    """The readers of the fields of one card's :class:`CardText` read when first asked
    (:data:`~manasolver.models.card.READ_WHEN_ASKED`): the card, with its text and the text of
    the face it has on the battlefield without reminder text, as the word tests before them read."""

    __slots__ = ("card", "face_plain", "plain")

    def __init__(self, card: Card, plain: str, face_plain: str) -> None:
        self.card = card
        self.plain = plain
        self.face_plain = face_plain

    def read(self, name: str) -> object:
        """The field ``name``, read now."""
        return getattr(self, name)()  # (READ_WHEN_ASKED names a method of this class each)

    def activated(self) -> tuple[ActivatedAbility, ...]:
        plain = self.plain
        if ":" in plain or "{" in plain:
            from manasolver.models.text.activated import read_activated
            return read_activated(self.card)
        return ()

    def keyword_costs(self) -> tuple[KeywordCost, ...] | None:
        oracle = self.card.oracle_text
        if "{" in oracle and _KEYWORD_COST_LINE.search(oracle):
            from manasolver.models.text.keyword_costs import read_keyword_costs
            try:
                return read_keyword_costs(oracle or "")
            except ManasolverError:
                return None  # read again, and the error raised, when they are asked for
        return ()

    def enters_tapped(self) -> bool | None:
        face_plain = self.face_plain
        if "tapped" in face_plain and "enters" in face_plain:
            from manasolver.models.text.triggers import read_enters_tapped
            return read_enters_tapped(self.card)
        return False

    def impending(self) -> int | None:
        if "Impending" in self.card.battlefield_face.oracle_text:
            from manasolver.models.text.triggers import read_impending_counters
            return read_impending_counters(self.card)
        return None

    def modes(self) -> int:
        oracle = self.card.oracle_text
        return sum(1 for line in oracle.split("\n") if line.lstrip().startswith("•")) if "•" in oracle else 0

    def about_activation(self) -> str:
        oracle = self.card.oracle_text
        lower = oracle.lower()
        if ("activated abilities" in lower or "be activated" in lower) and ABOUT_ACTIVATION.search(oracle):
            return next((x for x in oracle.split("\n") if ABOUT_ACTIVATION.search(x)), "")
        return ""




def _hand_clause(card: Card, clause: str) -> bool:
    if _HAND_WORDS not in clause:
        return False
    from manasolver.models.text.hand import is_hand_clause
    return is_hand_clause(card, clause)


def _tap_clause(clause: str) -> bool:
    if not _TAP_WORDS.search(clause):
        return False
    from manasolver.models.text.tap_costs import is_tap_cost_clause
    return is_tap_cost_clause(clause)


def card_text(card: Card) -> CardText:
    """The reading of ``card``: the one stored when it was built, or, for a card built by hand,
    its text read here (kept in its facts)."""
    text = card.text
    if text is not None:
        return text
    facts = card.facts
    found = facts.text
    if found is None:
        found = facts.text = read_card_text(card)
    return found  # type: ignore[no-any-return]


def unread_clauses(card: Card) -> tuple[str, ...]:
    """The clauses of ``card.unsupported`` that none of the readers reads."""
    return card_text(card).unread
