"""One reading of a card's rules text: every reader of :mod:`manasolver.models.text` run once.

:func:`read_card_text` is called by the card builder (:mod:`manasolver.models.card_build`) for
every card and face it builds, after the oracle parser has read the mana abilities
(:func:`manasolver.models.text.oracle.parse_oracle`: ``Card.mana_abilities`` and
``Card.unsupported``).  It runs the other readers on the card as the card has been built — the
effects on mana production, the triggered abilities of the face it has on the battlefield, the
non-mana activated abilities, the mana abilities activated from the hand, the mana abilities
that tap other permanents, cost modifiers, keyword costs and prohibitions — and returns them as
one :class:`~manasolver.models.card_text.CardText`, which the card keeps (``Card.text``).  The
accessors of each reader (``triggers_of``, ``mana_effects_of``, ``hand_abilities`` …) return the
stored reading, and read a card built by hand (without ``text``) themselves.

``CardText.unread`` is what is left of ``Card.unsupported`` when the clauses that the readers of
mana effects, hand abilities and tapping costs read are taken out.
"""

from __future__ import annotations

from manasolver.models.card import Card
from manasolver.models.card_text import CardText
from manasolver.models.errors import ManasolverError
from manasolver.models.text.activated import read_activated
from manasolver.models.text.cost_modifiers import cost_effects_in
from manasolver.models.text.hand import is_hand_clause, read_hand_abilities
from manasolver.models.text.keyword_costs import KeywordCost, read_keyword_costs
from manasolver.models.text.mana_effects import read_mana_effects
from manasolver.models.text.prohibitions import read_prohibitions
from manasolver.models.text.tap_costs import is_tap_cost_clause, read_tap_costs
from manasolver.models.text.triggers import read_triggers

__all__ = ["read_card_text", "unread_clauses"]


def read_card_text(card: Card) -> CardText:
    """Everything the readers read from ``card`` (see the module docstring)."""
    oracle = card.oracle_text
    effects = read_mana_effects(oracle, card.name)
    cost_effects, cost_unknown = cost_effects_in(oracle, card.name)
    keyword_costs: tuple[KeywordCost, ...] | None
    try:
        keyword_costs = read_keyword_costs(oracle or "")
    except ManasolverError:
        keyword_costs = None  # read again, and the error raised, when they are asked for
    unsupported = card.unsupported
    unread: tuple[str, ...] = ()
    if unsupported:
        done = {e.text for e in effects}
        unread = tuple(u for u in unsupported
                       if u not in done and not is_hand_clause(card, u) and not is_tap_cost_clause(u))
    return CardText(
        mana_effects=effects,
        triggers=read_triggers(card),
        activated=read_activated(card),
        hand_abilities=read_hand_abilities(card.name, oracle),
        tap_costs=read_tap_costs(unsupported, len(card.mana_abilities)),
        cost_effects=cost_effects,
        cost_unknown=cost_unknown,
        keyword_costs=keyword_costs,
        prohibitions=read_prohibitions(oracle or ""),
        unread=unread,
    )


def unread_clauses(card: Card) -> tuple[str, ...]:
    """The clauses of ``card.unsupported`` that none of the readers reads."""
    text = card.text
    if text is not None:
        return text.unread
    return read_card_text(card).unread
