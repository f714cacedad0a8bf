"""Effects on mana production read from oracle text, as frozen values (RULES §11–§12; CR 106.12,
305.7, 605.1b, 613.1d, 613.1f, 614).

:mod:`manasolver.models.text.mana_effects` reads them from a card's text (once, when the card is
built); :mod:`manasolver.models.rules.production` and its neighbours apply them to a board.
"""

from __future__ import annotations

from dataclasses import dataclass

from manasolver.models.abilities import Amount, Condition, ManaAbility

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
    "StructuredEffect",
    "TriggeredMana",
]


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
    ``"your_nonland"`` (a nonland permanent you tap for mana: Kinnan), and
    ``"imprinted_name"`` (any player's land with the name of a card exiled with the source:
    Extraplanar Lens; the source's ``imprinted`` must be given).  ``snow``: only a snow land
    (Winter's Night); ``amount``: the options are repeated that many times, counted for the
    source (Elvish Guidance: "an additional {G} for each Elf on the battlefield").
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
    (a Saga's "I — ~ gains …": Urza's Saga)."""

    text: str
    ability: ManaAbility
    who: Amount
    attached: bool = False
    condition: Condition | None = None
    self_only: bool = False


@dataclass(frozen=True, slots=True)
class SpendAs:
    """A payment rule (CR 609.4b): "You may spend white mana as though it were red mana." (Sunglasses
    of Urza), "… mana as though it were mana of any color to cast planeswalker spells." (Oath of
    Nissa), "… any type to cast creature spells." (Vizier of the Menagerie), "… to pay the activation
    costs of ~'s abilities." (Manascape Refractor).  ``spent``: the mana it widens (type mask, all
    types when every mana); ``as_types``: the types it may then pay; ``players``: every player's
    (Mycosynth Lattice), else its controller's; ``spell_types``: only for spells with one of these
    card types; ``own_abilities``: only for the activation costs of the source's abilities.  The
    payment model does not apply it: the solver refuses a cost it could change (a symbol of one of
    ``as_types`` the mana could not otherwise pay, where its scope reaches)."""

    text: str
    spent: int
    as_types: int
    players: bool = False
    spell_types: frozenset[str] = frozenset()
    own_abilities: bool = False


@dataclass(frozen=True, slots=True)
class AbilitiesOf:
    """"~ has all activated abilities of …" (layer 6, CR 613.1f): the source has the activated
    abilities, mana abilities included, of ``of``: ``"graveyard_creatures"`` (creature cards in all
    graveyards: Necrotic Ooze), ``"countered_creatures"`` (each other creature with a +1/+1 counter
    on it: Experiment Kraj), ``"lands"`` (all lands on the battlefield: Manascape Refractor), or
    ``"unknown"`` (cards exiled with it, the top card of a library: Myr Welder, Skill Borrower),
    which the board does not give.  The payment model does not give the source those abilities:
    the solver refuses where one of them is a mana ability."""

    text: str
    of: str


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
