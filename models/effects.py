"""Effects on mana production read from oracle text, as frozen values (CR 106.12,
305.7, 605.1b, 613.1d, 613.1f, 614).

:mod:`manasolver.models.text.mana_effects` reads them from a card's text (once, when the card is
built); :mod:`manasolver.models.rules.production` and its neighbours apply them to a board.
"""

from __future__ import annotations

from dataclasses import dataclass

from manasolver.models.abilities import Amount, Condition, ManaAbility
from manasolver.models.symbols import ANY_TYPE, TYPE_BITS

__all__ = [
    "AbilitiesOf",
    "ConditionalDamage",
    "GrantedAbility",
    "LandTypeChange",
    "ManaMultiplier",
    "NotOnBoardEffect",
    "ProducesInstead",
    "Prohibition",
    "SpendAs",
    "SpendTable",
    "StructuredEffect",
    "TriggeredMana",
]


@dataclass(frozen=True, slots=True)
class ManaMultiplier:
    """"If you tap a permanent for mana, it produces ``factor`` times as much of that mana
    instead" (CR 106.12b, 614.1a).  ``tapper``: ``"you"`` (the effect's controller taps
    it); ``what``: ``"permanent"`` (creatures and artifacts too, Nyxbloom Ancient ruling) or
    ``"basic_land"`` (Virtue of Strength: "If you tap a basic land for mana").  Applies
    only to mana abilities whose cost includes ``{T}`` (106.12); keeps restrictions (106.6a, Mana Reflection ruling)."""

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
    Reflection doubled a Forest's {G}, it applies).  ``land_type``: only a land of that
    (effective) land type (Naked Singularity: "Plains produce {R}", amount kept)."""

    text: str
    mana: int
    keep_amount: bool = False
    what: str = "land"
    tapper: str = "any"
    min_amount: int = 0
    land_type: str = ""


@dataclass(frozen=True, slots=True)
class LandTypeChange:
    """A land-type change (CR 305.7, 613.1d).  ``affected``: ``"nonbasic_lands"``,
    ``"each_land"``, ``"lands_you_control"`` or ``"enchanted_land"`` (the permanent the
    source is attached to); ``types``: lower-case basic land types; ``sets``: the types
    replace the land's land types and its rules-text abilities are lost (Blood Moon),
    otherwise they are added ("in addition to its other land types").  ``while_counter``: only while
    its source has a counter of that kind (Zhao, the Moon Slayer's conqueror counter)."""

    text: str
    affected: str
    types: tuple[str, ...]
    sets: bool = False
    while_counter: str = ""


@dataclass(frozen=True, slots=True)
class TriggeredMana:
    """A triggered mana ability (CR 605.1b) that fires when a land is tapped for mana
    (106.12a: the ability resolved and produced mana).

    ``trigger``: ``"enchanted_land"`` (the permanent the source is attached to),
    ``"your_land"`` (a land the source's controller taps), ``"any_land"`` (a land any
    player taps), ``"any_land_while_source_tapped"`` (as ``"any_land"``, while the source is
    tapped: Barbflare Gremlin, refused then), ``"basic_land"`` (any player's basic land, tapped for mana of the
    chosen color: Gauntlet of Power) or ``"land_ability"`` (any ability of a land
    the source's controller uses, ``{T}`` or not, adding the chosen color: Caged Sun).
    ``options``: what it adds (slot masks, as :class:`Production`), or nothing with
    ``produced_type`` (one mana of any type that land produced: Mana Flare; the
    player picks among the types actually produced; no restriction is copied) or with
    ``chosen`` (that many mana of the color chosen for the *source*: Utopia Sprawl,
    Gauntlet, Caged Sun).  ``recipient``: ``"land_controller"`` (its controller / that
    player) or ``"you"`` (the source's controller).  Replacement multipliers do not
    apply to this mana (Nyxbloom Ancient ruling).  ``land_types``: the land must have
    one of these (effective) land types (Crypt Ghast: a Swamp; Vernal Bloom: a Forest;
    Keeper of Progenitus: a Mountain, Forest or Plains).  Two more triggers:
    ``"your_creature"`` (a creature you tap for mana: Leyline of Abundance) and
    ``"your_nonland"`` (a nonland permanent you tap for mana: Kinnan), ``"your_artifact_token"`` (an
    artifact token you tap for mana: Roxanne, Starfall Savant), and
    ``"imprinted_name"`` (any player's land with the name of a card exiled with the source:
    Extraplanar Lens; the source's ``imprinted`` must be given).  ``snow``: only a snow land
    (Winter's Night); ``basic``: only a basic land (Lavaleaper); ``amount``: the options are
    repeated that many times, counted for the source (Elvish Guidance: "an additional {G} for
    each Elf on the battlefield").
    ``unspendable``: the mana may be spent only on costs no query asks about (Snowfall's
    "Spend this mana only to pay cumulative upkeep costs."), so it adds nothing to a payment."""

    text: str
    trigger: str
    options: tuple[tuple[int, ...], ...] = ()
    produced_type: bool = False
    chosen: int = 0
    recipient: str = "land_controller"
    land_types: tuple[str, ...] = ()
    snow: bool = False
    basic: bool = False
    amount: Amount | None = None
    unspendable: bool = False


@dataclass(frozen=True, slots=True)
class GrantedAbility:
    """A mana ability given to other permanents (layer 6, CR 613.1f).  ``attached``: the
    permanent the source is attached to ("Enchanted land has", "Equipped creature has";
    ``who`` still names the kind it must be); otherwise every permanent matching ``who``
    (an ``Amount`` of kind ``count``: types, subtypes, supertypes, controller relative to
    the source, ``other``).  ``ability`` is the quoted ability, read as printed.  ``condition``:
    the grant applies only while it holds for the source ("As long as you control six or more
    lands, lands you control have …": The World Tree); ``self_only``: only the source itself has it
    (a Saga's "I — ~ gains …": Urza's Saga); ``or_who``: permanents matching it have it too ("Each
    land and Ally you control has": Great Divide Guide; one ability each, CR 613.1f)."""

    text: str
    ability: ManaAbility
    who: Amount
    attached: bool = False
    condition: Condition | None = None
    self_only: bool = False
    or_who: Amount | None = None


@dataclass(frozen=True, slots=True)
class SpendAs:
    """A payment rule (CR 609.4b): "You may spend white mana as though it were red mana." (Sunglasses
    of Urza), "… mana as though it were mana of any color to cast planeswalker spells." (Oath of
    Nissa), "… any type to cast creature spells." (Vizier of the Menagerie), "… to pay the activation
    costs of ~'s abilities." (Manascape Refractor).  ``spent``: the mana it widens (type mask, all
    types when every mana); ``as_types``: the types it may then pay; ``players``: every player's
    (Mycosynth Lattice), else its controller's; ``spell_types``: only for spells with one of these
    card types; ``spell_subtypes``: only for spells with one of these subtypes (Case File
    Auditor's Case spells); ``own_abilities``: only for the activation costs of the source's abilities;
    ``others_only``: the mana of the types outside ``spent`` may be spent *only* as though it
    were mana of these types (Celestial Dawn's "You may spend other mana only as though it were
    colorless mana.": ``C``), 0 when the rule says nothing of other mana.  :class:`SpendTable`
    is what the rules reaching one payment make of each symbol."""

    text: str
    spent: int
    as_types: int
    players: bool = False
    spell_types: frozenset[str] = frozenset()
    spell_subtypes: frozenset[str] = frozenset()
    own_abilities: bool = False
    others_only: int = 0


@dataclass(frozen=True, slots=True)
class SpendTable:
    """Which mana may pay one mana of each type, under the 609.4b rules reaching one payment.

    ``payers[i]``: the types of mana that may pay a demand for one mana of type
    ``TYPE_BITS[i]`` (W U B R G C; ``{C}`` asks for colorless mana, CR 107.4c).  A symbol that
    several types pay (a hybrid ``{W/U}``, a ``{C/W}``) takes the union of its types' payers,
    since each half is one way to pay it (CR 107.4e); generic mana and ``{S}`` are paid by mana
    of any type (107.4b, 107.4h) and no rule changes them.  :meth:`of` builds the table:

    * CR 609.4b: "spend mana of type *t* as though it were mana of type *u*" lets *t* pay
      every symbol that *u* pays: a rule with ``spent`` *t* and ``as_types`` *A* adds *t* to
      the payers of every type of *A*.  "Any color" is W U B R G and never colorless (CR
      105.1, 106.1b, 106.1): under Chromatic Orrery or Mycosynth Lattice ``{C}`` still
      takes colorless mana only, and colorless mana pays ``{U}``; "any type" (Vizier of the
      Menagerie) adds colorless too, so any mana pays ``{C}``.  Rules are applied to the mana's
      own type, each once (one rule's result is not spent again under another).
    * Celestial Dawn (``others_only`` ``C``, ``spent`` W): white mana pays every colored symbol;
      other mana may be spent only as though it were colorless, so it pays what colorless
      mana pays: generic, ``{C}``, the ``{C}`` half of ``{C/R}`` and the ``{2}`` half of
      ``{2/R}`` (announced as generic), never a colored symbol, a colored hybrid ``{R/G}`` or
      the mana half of a Phyrexian ``{R/P}`` (which life still pays, 107.4f); white mana does
      not pay ``{C}`` (it is spent as white or as a color, never as colorless).  Its red mana
      can't pay ``{R}``: the table narrows as well as widens.
    * Announced halves (CR 601.2b): a hybrid ``{W/U}`` (107.4e), a monocolored hybrid
      ``{2/W}`` (107.4e: its ``{2}`` half is generic, which any mana pays anyway) and a
      Phyrexian ``{W/P}`` (107.4f: its life half is no mana) are announced first and the mana
      half then paid as a ``{W}`` would be; so Orrery's red pays a ``{2/W}`` announced as
      ``{W}``, and Sunglasses' white pays ``{B/R}`` only announced as ``{R}``.
    * The rules change only what may be spent: the cost, and which mana was spent (sunburst,
      converge), stay as they are (CR 106.1, 118.14).  Spending restrictions of the mana
      itself (106.6) and snow (107.4h) are checked apart, unchanged.

    >>> from manasolver.models.symbols import ANY_COLOR, C, R, W
    >>> t = SpendTable.of((SpendAs("Orrery", ANY_TYPE, ANY_COLOR),))
    >>> t.mask(R) == ANY_TYPE, t.mask(C) == C
    (True, True)
    >>> dawn = SpendTable.of((SpendAs("Dawn", W, ANY_COLOR, others_only=C),))
    >>> dawn.mask(R) == W, dawn.mask(C) == ANY_TYPE & ~W
    (True, True)
    """

    payers: tuple[int, ...] = TYPE_BITS

    @staticmethod
    def of(rules: tuple[SpendAs, ...]) -> SpendTable:
        """The table of ``rules`` (all of them reaching the payment; see the class docstring).
        More than one rule saying what "other mana" may only be spent as, or such a rule with
        another that widens mana it restricts (Celestial Dawn beside Chromatic Orrery), is not
        a table: :class:`~manasolver.models.errors.Unsupported` naming the clauses."""
        from manasolver.models.errors import Unsupported
        payers = list(TYPE_BITS)
        only = [r for r in rules if r.others_only]
        for r in rules:
            for i, bit in enumerate(TYPE_BITS):
                if r.as_types & bit:
                    payers[i] |= r.spent
        if only:
            r0 = only[0]
            clash = [r for r in rules if r is not r0 and (r.others_only or r.spent & ~r0.spent & ANY_TYPE)]
            if clash:
                raise Unsupported(f"{r0.text!r} with {clash[0].text!r}: which mana pays what when one rule "
                                  f"restricts what another widens (CR 609.4b) is not modelled", "state")
            restricted = ANY_TYPE & ~r0.spent
            for i, bit in enumerate(TYPE_BITS):
                payers[i] &= ~restricted
                if bit & r0.others_only:
                    payers[i] |= restricted
        return SpendTable(tuple(payers))

    @property
    def identity(self) -> bool:
        """True when every type is paid by its own mana only: no rule changes anything."""
        return self.payers == TYPE_BITS

    def mask(self, demand: int) -> int:
        """The types of mana that may pay a demand for one mana of a type in ``demand``."""
        out = 0
        for i, bit in enumerate(TYPE_BITS):
            if demand & bit:
                out |= self.payers[i]
        return out


@dataclass(frozen=True, slots=True)
class AbilitiesOf:
    """"~ has all activated abilities of …" (layer 6, CR 613.1f): the source has the activated
    abilities, mana abilities included, of ``of``: ``"graveyard_creatures"`` (creature cards in all
    graveyards: Necrotic Ooze), ``"countered_creatures"`` (each other creature with a +1/+1 counter
    on it: Experiment Kraj), ``"lands"`` (all lands on the battlefield: Manascape Refractor),
    ``"graveyard_lands"`` (land cards in all graveyards: Mirran Safehouse),
    ``"your_graveyard_artifacts"`` (artifact cards in its controller's graveyard: Trazyn the Infinite),
    ``"legendary_creatures_you_control"`` (Robaran Mercenaries), ``"differently_named_creatures"``
    (creatures its controller controls with another name: Marvin, Murderous Mimic), ``"none"``
    (Sharkey's "except mana abilities": no mana ability), or
    ``"unknown"`` (cards exiled with it, the top card of a library: Myr Welder, Skill Borrower),
    read from the text.  :func:`manasolver.models.rules.granted.held_abilities` gives the source
    those mana abilities (cards exiled with it from its ``imprinted``), or refuses what it can't
    apply (the top card of a library, "could produce" abilities).  ``given_to``: not the source but
    the permanents of this kind its controller controls have them (``"creature"``, ``"food"``: Steward
    of the Harvest, Hazel's Brewmaster), of ``"exiled_with_source"`` cards (the source's
    ``imprinted``), creature or land cards as the text says."""

    text: str
    of: str
    given_to: str = ""


@dataclass(frozen=True, slots=True)
class Prohibition:
    """"Activated abilities of artifacts can't be activated." (Null Rod, Collector Ouphe, Stony
    Silence), "… of creatures …" (Cursed Totem), "… of artifacts and creatures your opponents
    control …" (Linvala, Karn): CR 602.5, 605.3 (mana abilities are activated abilities).  A
    permanent with one of ``types`` (lower case), controlled by ``controller`` (``"any"`` or
    ``"opponents"`` of the source's controller), has no mana ability it can activate.
    ``chosen_name``: it reaches the sources with the card name chosen as the source entered
    (Phyrexian Revoker, Voidstone Gargoyle: the source's ``chosen_name``), whatever their types."""

    text: str
    types: frozenset[str]
    controller: str = "any"
    chosen_name: bool = False


@dataclass(frozen=True, slots=True)
class NotOnBoardEffect:
    """An effect on mana whose form depends on what the board does not hold: Chaos Moon (the number
    of permanents at the beginning of this turn's upkeep decides whether Mountains add an extra
    {R} or make {C}), Glorious Sunrise (the land its combat trigger chose this turn gains "{T}: Add
    {G}{G}{G}").  ``land_types``: it reaches only lands of these (effective) types (none: any land);
    ``window``: it can exist only from that step of its controller's turn to the turn's end ("" for
    any time).  Where it can reach a land tapped for mana the answer is unsupported naming
    ``missing``; elsewhere it changes nothing."""

    text: str
    missing: str
    land_types: tuple[str, ...] = ()
    window: str = ""


@dataclass(frozen=True, slots=True)
class ConditionalDamage:
    """"{T}: Add {B}. ~ deals 1 damage to you if you don't control an Ogre." (Tomb of Urami): the
    ``damage`` that the source's mana ability printed as ``text`` deals is not dealt while its
    controller controls a permanent ``unless`` counts (an Amount of kind ``count``)."""

    text: str
    damage: int
    unless: Amount


StructuredEffect = (ManaMultiplier | ProducesInstead | LandTypeChange | TriggeredMana | GrantedAbility | SpendAs
                    | AbilitiesOf | Prohibition | NotOnBoardEffect | ConditionalDamage)
