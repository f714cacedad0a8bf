"""What the oracle-text readers read from a card, as frozen values.

The readers live in :mod:`manasolver.models.text` (one module per clause family); this module holds
only the values they produce, so that a :class:`~manasolver.models.card.Card` can carry its reading
(:class:`~manasolver.models.card.CardText`) without the value layer importing the parser.
:func:`manasolver.models.text.read.read_card_text` runs every reader once when a card is built.

* effects on mana production (RULES §11–§12): :class:`ManaMultiplier`, :class:`ProducesInstead`,
  :class:`LandTypeChange`, :class:`TriggeredMana`, :class:`GrantedAbility`
  (:data:`StructuredEffect`), read by :mod:`manasolver.models.text.mana_effects` and applied by
  :mod:`manasolver.models.rules.production`;
* triggered abilities (CR 603): :class:`Trigger` and its :class:`TriggerEffect`;
* non-mana activated abilities (CR 602): :class:`ActivatedAbility`;
* mana abilities that tap other permanents: :class:`TapCost`;
* cost modifiers (CR 601.2f): :class:`CostEffect`; keyword costs (CR 118.8, 118.9):
  :class:`KeywordCost`.
"""

from __future__ import annotations

from dataclasses import dataclass

from manasolver.models.abilities import AbilityCost, Amount, ManaAbility, Production
from manasolver.models.cost import ManaCost
from manasolver.models.symbols import mask_letters

__all__ = [
    "ActivatedAbility",
    "CostEffect",
    "GrantedAbility",
    "KeywordCost",
    "LandTypeChange",
    "ManaMultiplier",
    "ProducesInstead",
    "StructuredEffect",
    "TapCost",
    "Trigger",
    "TriggerEffect",
    "TriggeredMana",
]

# -- effects on mana production ---------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ManaMultiplier:
    """"If you tap a permanent for mana, it produces ``factor`` times as much of that mana
    instead" (CR 106.12b, 614.1a).  ``tapper``: ``"you"`` (the effect's controller taps
    it); ``what``: ``"permanent"`` (creatures and artifacts too, RULES T115).  Applies
    only to mana abilities whose cost includes ``{T}`` (T113); keeps restrictions (T116)."""

    text: str
    factor: int
    tapper: str = "you"
    what: str = "permanent"


@dataclass(frozen=True, slots=True)
class ProducesInstead:
    """"If a land is tapped for mana, it produces ``mana`` instead of any other type [and
    amount]" (Contamination: one ``{B}``; Pale Moon, Ritual of Subdual, Infernal
    Darkness: the type only, amount kept).  ``what``: ``"land"`` or ``"nonbasic_land"``;
    ``tapper``: ``"any"`` player; ``min_amount``: it applies only to an event of at least
    that much mana (Damping Sphere: "tapped for two or more mana", so after a Mana
    Reflection doubled a Forest's {G}, it applies)."""

    text: str
    mana: int
    keep_amount: bool = False
    what: str = "land"
    tapper: str = "any"
    min_amount: int = 0


@dataclass(frozen=True, slots=True)
class LandTypeChange:
    """A land-type change (CR 305.7, 613.1d).  ``affected``: ``"nonbasic_lands"``,
    ``"each_land"``, ``"lands_you_control"`` or ``"enchanted_land"`` (the permanent the
    source is attached to); ``types``: lower-case basic land types; ``sets``: the types
    replace the land's land types and its rules-text abilities are lost (Blood Moon),
    otherwise they are added ("in addition to its other land types")."""

    text: str
    affected: str
    types: tuple[str, ...]
    sets: bool = False


@dataclass(frozen=True, slots=True)
class TriggeredMana:
    """A triggered mana ability (CR 605.1b) that fires when a land is tapped for mana
    (106.12a: the ability resolved and produced mana).

    ``trigger``: ``"enchanted_land"`` (the permanent the source is attached to),
    ``"your_land"`` (a land the source's controller taps), ``"any_land"`` (a land any
    player taps), ``"basic_land"`` (any player's basic land, tapped for mana of the
    chosen color: Gauntlet of Power) or ``"land_ability"`` (any ability of a land
    the source's controller uses, ``{T}`` or not, adding the chosen color: Caged Sun).
    ``options``: what it adds (slot masks, as :class:`Production`), or nothing with
    ``produced_type`` (one mana of any type that land produced: Mana Flare; the
    player picks among the types actually produced; no restriction is copied) or with
    ``chosen`` (that many mana of the color chosen for the *source*: Utopia Sprawl,
    Gauntlet, Caged Sun).  ``recipient``: ``"land_controller"`` (its controller / that
    player) or ``"you"`` (the source's controller).  Replacement multipliers do not
    apply to this mana (Nyxbloom ruling, RULES T111).  ``land_types``: the land must have
    one of these (effective) land types (Crypt Ghast: a Swamp; Vernal Bloom: a Forest;
    Keeper of Progenitus: a Mountain, Forest or Plains).  Two more triggers:
    ``"your_creature"`` (a creature you tap for mana: Leyline of Abundance) and
    ``"your_nonland"`` (a nonland permanent you tap for mana: Kinnan)."""

    text: str
    trigger: str
    options: tuple[tuple[int, ...], ...] = ()
    produced_type: bool = False
    chosen: int = 0
    recipient: str = "land_controller"
    land_types: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class GrantedAbility:
    """A mana ability given to other permanents (layer 6, CR 613.1f).  ``attached``: the
    permanent the source is attached to ("Enchanted land has", "Equipped creature has";
    ``who`` still names the kind it must be); otherwise every permanent matching ``who``
    (an ``Amount`` of kind ``count``: types, subtypes, supertypes, controller relative to
    the source, ``other``).  ``ability`` is the quoted ability, read as printed."""

    text: str
    ability: ManaAbility
    who: Amount
    attached: bool = False


StructuredEffect = ManaMultiplier | ProducesInstead | LandTypeChange | TriggeredMana | GrantedAbility


# -- triggered abilities ------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class TriggerEffect:
    """One effect of a triggered ability, in the order printed.

    ``kind``: ``"energy"`` (``amount`` {E} to the controller), ``"token"`` (``amount``
    tokens named ``token``, one of :data:`manasolver.models.tokens.TOKENS`, ``tapped``
    or not), ``"damage"`` / ``"lose_life"`` (``amount`` damage to / life lost by the
    controller, or with ``who == "enchanted"`` the enchanted permanent's controller), ``"life"``
    (``amount`` life gained by ``who``: ``"you"`` or ``"each"`` player), ``"mana"``
    (``production`` added to the controller's pool; not a mana ability) or
    ``"win"`` (the controller wins the game).  ``text``: the sentence.
    """

    kind: str
    text: str
    amount: int = 0
    token: str = ""
    tapped: bool = False
    who: str = "you"
    production: Production | None = None

    def to_json(self) -> dict[str, object]:
        """The protocol form: the kind and the fields that apply to it."""
        out: dict[str, object] = {"kind": self.kind}
        if self.kind in ("energy", "damage", "lose_life", "life", "token"):
            out["amount"] = self.amount
        if self.kind == "token":
            out["token"] = self.token
            out["tapped"] = self.tapped
        if self.kind in ("life", "damage", "lose_life") and self.who != "you":
            out["who"] = self.who
        if self.kind == "mana" and self.production is not None:
            out["options"] = ["".join("{" + "|".join(mask_letters(s)) + "}" for s in option)
                              for option in self.production.options]
        return out


@dataclass(frozen=True, slots=True)
class Trigger:
    """A triggered ability (CR 603.1): when it triggers, the intervening ``condition``
    (one of :data:`CONDITIONS`' names, "" for none) and its ``effects``.

    ``unsupported`` is "" for a trigger the engine can resolve; otherwise it says what
    was not understood and ``effects`` may be incomplete.  ``text`` is the line as printed,
    without reminder text.
    """

    event: str
    text: str
    effects: tuple[TriggerEffect, ...] = ()
    condition: str = ""
    also_attacks: bool = False
    unsupported: str = ""

    def to_json(self) -> dict[str, object]:
        """The protocol form (for ``card`` answers): event, text, effects, and what was not read."""
        out: dict[str, object] = {"event": self.event, "text": self.text,
                                  "effects": [e.to_json() for e in self.effects]}
        if self.condition:
            out["condition"] = self.condition
        if self.also_attacks:
            out["also_attacks"] = True
        if self.adds_mana:
            out["mana_ability"] = self.is_mana_ability
        if self.unsupported:
            out["unsupported"] = self.unsupported
        return out

    @property
    def supported(self) -> bool:
        """True when every part of it was understood."""
        return not self.unsupported

    @property
    def adds_mana(self) -> bool:
        """True when one of its effects adds mana."""
        return any(e.kind == "mana" for e in self.effects)

    @property
    def is_mana_ability(self) -> bool:
        """Always False for the events read here: they don't trigger from a mana ability or
        from mana being added (CR 605.1b), so a trigger that adds mana is not a mana ability
        (605.5a; Lotus Cobra ruling 2017-11-17, RULES T120; Burning-Tree Emissary, T121)."""
        return False

    @property
    def uses_stack(self) -> bool:
        """True: every trigger read here goes on the stack and can be responded to (605.5a)."""
        return not self.is_mana_ability


# -- activated abilities, tapping costs, cost modifiers, keyword costs --------------------------


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
    ``parts``: the cost as the protocol prints it (SPEC §5 ``costs``)."""

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
    (``artifacts you control``, ``total power``, ``domain`` …);
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
    kind: str
    cost: ManaCost
    repeatable: bool = False
    zone: str = "hand"
