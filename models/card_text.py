"""Activated abilities, tapping costs, cost modifiers and keyword costs read from oracle text, as
frozen values.

The readers live in :mod:`manasolver.models.text` (one module per clause family); this module and
its siblings :mod:`manasolver.models.effects` (effects on mana production) and
:mod:`manasolver.models.triggered` (triggered abilities) hold only the values they produce, so that
a :class:`~manasolver.models.card.Card` can carry its reading
(:class:`~manasolver.models.card.CardText`) without the value layer importing the parser.
:func:`manasolver.models.text.read.read_card_text` gives a card its reading, each reader run once, when
what it reads is first asked.

* non-mana activated abilities (CR 602): :class:`ActivatedAbility`
  (:mod:`manasolver.models.text.activated`);
* mana abilities that tap other permanents: :class:`TapCost` (:mod:`manasolver.models.text.tap_costs`);
* cost modifiers (CR 601.2f): :class:`CostEffect` (:mod:`manasolver.models.text.cost_modifiers`);
* keyword costs (CR 118.8, 118.9): :class:`KeywordCost` (:mod:`manasolver.models.text.keyword_costs`);
* keywords a permanent gives other permanents or spells (CR 613.1f): :class:`GrantedKeyword`
  (:mod:`manasolver.models.text.granted`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from manasolver.models.abilities import AbilityCost, ManaAbility
from manasolver.models.cost import ManaCost

__all__ = ["ActivatedAbility", "CostEffect", "GrantedKeyword", "GrantScope", "KeywordCost", "KeywordCostKind",
           "TapCost"]

#: A keyword cost is paid on top of the mana cost or instead of it.
KeywordCostKind = Literal["additional", "alternative"]
#: A granted keyword reaches permanents on the battlefield or spells being cast.
GrantScope = Literal["permanents", "spells"]


@dataclass(frozen=True, slots=True)
class ActivatedAbility:
    """One non-mana activated ability of a card (see the module docstring)."""

    index: int
    text: str
    cost: AbilityCost | None
    keyword: str = ""
    zone: str = "battlefield"
    sorcery_speed: bool = False
    per_turn: int = 0
    extra: tuple[str, ...] = ()
    unread: str = ""


@dataclass(frozen=True, slots=True)
class TapCost:
    """A mana ability whose cost taps ``count`` other untapped permanents the player controls,
    each with one of ``types`` (lower case).  ``ability``: the ability with the rest of its
    cost (``{T}`` of the source itself for Moonsnare Prototype, nothing for Heritage Druid);
    ``parts``: the cost as the protocol prints it (its ``costs``)."""

    ability: ManaAbility
    types: tuple[str, ...]
    count: int
    parts: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class CostEffect:
    """One cost modifier.

    ``kind``: ``increase``, ``reduce``, ``minimum`` or ``alternative`` (a cost that
    may be paid instead of the mana cost, such as Nissa's eight ``{E}``); ``cost`` the amount for the
    first two (per counted object when ``per`` is set), ``minimum`` the total for
    the last.  ``scope``: ``board`` (an effect of a permanent on spells) or
    ``self`` (the spell's own).  ``who``: whose spells a board effect touches:
    ``you`` (its controller's), ``opponents`` or ``all``.  The spell must have one
    of ``types`` (when given), none of ``not_types``, one of ``colors`` (bitmask,
    when given), one of ``subtypes``/``supertypes`` (when given), and be
    colorless when ``colorless``.  ``per``: what is counted for "for each …"
    (``artifacts you control``, ``total power``, ``domain``, ``spells_cast``: the caster's
    spells cast this turn …);
    ``while_untapped``: the source must be untapped (Trinisphere); ``threshold``:
    for ``per == "if_count_you"``, the count needed for the reduction to apply
    once (metalcraft).
    """

    kind: str
    text: str
    cost: ManaCost | None = None
    minimum: int = 0
    scope: str = "board"
    who: str = "all"
    types: frozenset[str] = frozenset()
    not_types: frozenset[str] = frozenset()
    colors: int = 0
    colorless: bool = False
    subtypes: frozenset[str] = frozenset()
    supertypes: frozenset[str] = frozenset()
    per: str = ""
    per_types: frozenset[str] = frozenset()
    while_untapped: bool = False
    threshold: int = 0


@dataclass(frozen=True, slots=True)
class KeywordCost:
    """One keyword cost printed on a card.

    ``kind``: ``"additional"`` or ``"alternative"``; ``repeatable``: it may be
    paid any number of times (multikicker, replicate, escalate, squad);
    ``zone``: where the card is cast from when this cost is used.
    """

    name: str
    kind: KeywordCostKind
    cost: ManaCost
    repeatable: bool = False
    zone: str = "hand"


@dataclass(frozen=True, slots=True)
class GrantedKeyword:
    """A keyword one permanent gives others (layer 6, CR 613.1f): "Creatures you control have
    haste." (Fervor), "All creatures have haste." (Concordant Crossroads), "Equipped creature has
    haste." (Lightning Greaves), "Artifact spells you cast have convoke." (Chief Engineer).

    ``scope``: permanents on the battlefield, or spells their controller casts.  ``controller``:
    ``"you"`` (the source's controller's) or ``"any"``.  What it reaches has every one of
    ``types`` (lower case: "artifact creatures" are artifacts and creatures), one of ``subtypes``
    when given, and is a token when ``tokens``; ``other`` leaves out the source itself;
    ``attached``: only the permanent the source is attached to (an Aura or Equipment);
    ``unread``: the clause, when it gives the keyword in a way not read (a condition, a qualifier
    not checked): it may reach any permanent, and the solver refuses where that matters.
    """

    keyword: str
    text: str
    scope: GrantScope = "permanents"
    controller: Literal["you", "any"] = "you"
    types: frozenset[str] = frozenset()
    subtypes: frozenset[str] = frozenset()
    other: bool = False
    attached: bool = False
    tokens: bool = False
    unread: str = ""
