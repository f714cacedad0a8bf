"""Mana abilities as data: what an activation costs and what it produces.

The oracle parser (:mod:`manasolver.models.text.oracle`) builds these from card text;
the solvers read them.  Nothing here knows how a payment is searched.

Production is a list of *options* (the player picks one when the ability
resolves); an option is a tuple of *slots*, one mana each, and a slot is a
bitmask of the types that mana may be (``W=1 … G=16, C=32``).  So:

* ``{T}: Add {G}.``                             → options ``((G,),)``
* ``{T}: Add {U}{U}, {U}{R}, or {R}{R}.``       → ``((U, U), (U, R), (R, R))``
* ``{T}: Add one mana of any color.``           → ``((ANY_COLOR,),)``
* ``{T}: Add two mana in any combination of colors.`` → ``((ANY_COLOR, ANY_COLOR),)``
* ``{T}: Add three mana of any one color.``     → five options ``((W, W, W), …)``
* ``{T}: Add {G} for each creature you control.`` → ``((G,),)`` with ``amount``
  counting creatures: the chosen option is repeated ``amount`` times.
* Reflecting Pool → no options of its own, ``reference`` = "lands_you_control".
"""

from __future__ import annotations

from dataclasses import dataclass, field

from manasolver.models.cost import ManaCost

__all__ = ["GRAVEYARD_CARD", "HAND_CARD", "ZONE_CARDS", "AbilityCost", "Amount", "Condition", "ManaAbility",
           "Production", "Restriction"]

#: What :attr:`AbilityCost.sacrifice` names for a card of the hand that a cost discards or exiles
#: ("Discard a card", "Exile a card from your hand"): no permanent has it, and the supply offers
#: the cards of the hand as its fodder (:mod:`manasolver.solver.supply.resources`).
HAND_CARD = "card in your hand"
#: The same for a card the cost exiles from the graveyard ("Exile a card from your graveyard").
GRAVEYARD_CARD = "card in your graveyard"
#: The sacrifice kinds that are cards in a zone rather than permanents.
ZONE_CARDS = frozenset({HAND_CARD, GRAVEYARD_CARD})


@dataclass(frozen=True, slots=True)
class Restriction:
    """A spending restriction on produced mana (CR 106.6), e.g. Ancient Ziggurat's.

    The mana may pay for a spell when the spell matches: any of ``spell_types``
    (card types, lower case; empty means any type), any of ``subtypes`` (empty:
    any), and ``multicolored`` / ``colorless`` when set.  ``abilities`` says
    whether it may also pay activated abilities (of matching sources when types
    are named).  ``x_only``: only costs that contain ``{X}`` (Rosheen); ``c_only``: only costs that
    contain ``{C}`` (Cultivator Drone's third alternative).
    ``any_ability``: it may also pay activated abilities of any source, whatever
    ``spell_types`` says (Powerstone: "can't be spent to cast nonartifact spells").
    ``text`` is the rules text, shown to the user.
    ``chosen_type``: the subtype is the creature type chosen as the source entered
    (Cavern of Souls); ``subtypes`` then holds the placeholder ``"chosen type"`` and
    :func:`manasolver.models.rules.amounts.ability_restriction` fills it in per permanent.
    ``unchecked``: what the mana may pay is not read ("Spend this mana only to cast kicked
    spells.", "… spells from your graveyard", "… your commander"): ``spells`` and
    ``abilities`` are then false, so the mana pays nothing, which is exact for a cost whose
    spell is not named (a restriction is never assumed met); for a named spell or ability the
    solver refuses (:func:`manasolver.solver.supply.unmodelled.guard_payment_rules`).
    ``any_of``: alternatives, the mana paying a spell any of them allows ("Spend this mana only
    to cast an Elemental spell or a Chandra planeswalker spell": Chandra's Embercat); the other
    fields are then unused.  ``not_types``: the spell must have none of these card types ("Spend
    this mana only to cast noncreature spells": Nardole, Resourceful Cyborg).  ``no_generic``: the
    mana pays any spell or ability, but only its colored symbols, never a generic mana cost ("This
    mana can't be spent to pay generic mana costs": Jegantha, the Wellspring); {X}, {S} and the
    generic half of a {2/W} are generic (CR 107.4h), so it pays none of them.
    """

    text: str
    spell_types: frozenset[str] = frozenset()
    subtypes: frozenset[str] = frozenset()
    multicolored: bool = False
    colorless: bool = False
    abilities: bool = False
    spells: bool = True
    x_only: bool = False
    c_only: bool = False
    any_ability: bool = False
    chosen_type: bool = False
    unchecked: bool = False
    any_of: tuple[Restriction, ...] = ()
    not_types: frozenset[str] = frozenset()
    no_generic: bool = False


@dataclass(frozen=True, slots=True)
class Amount:
    """A number read from the board when the ability resolves (CR 107.1b, 107.2).

    ``kind``:
      * ``"count"``: permanents matching ``types`` / ``subtypes`` / ``supertypes``
        (any-of within each field, all fields together) controlled by
        ``controller`` (``"you"``, ``"opponents"``, ``"any"``); ``other`` excludes
        the source itself;
      * ``"power"`` / ``"toughness"``: the source's power / toughness; ``"counters"``: counters
        of kind ``counter`` on the source; ``"devotion"``: the controller's devotion to ``colors``
        (``colors == 0``: to the color of the option chosen, as Nykthos's "devotion
        to that color"; :func:`manasolver.models.rules.amounts.concrete_options` evaluates it);
      * ``"fixed"``: ``times`` alone;
      * ``"removed"``: the number of counters removed by a variable counter cost
        (``AbilityCost.remove_any``; storage lands), chosen on activation;
      * ``"sacrificed_mana_value"``: the mana value of the permanent the cost's first ``sacrifice``
        kind takes (Priest of Yawgmoth; Food Chain's exiled creature, with ``plus`` 1), chosen on
        activation by choosing the permanent; ``"sacrificed_count"``: how many permanents of the cost's
        first ``sacrifice`` kind it sacrifices ("Sacrifice X Goats", CR 107.3); ``"tapped_count"``: how
        many untapped permanents with one of ``types`` it taps ("Tap X untapped tokens you control");
      * ``"max_power"`` / ``"total_power"``: the greatest / the total power among the
        matching permanents (Selvala; Formidable);
      * ``"same_name"``: the most matching permanents that share one name (Sceptre of Eternal
        Glory's "three or more lands with the same name");
      * ``"max_toughness"``: the greatest toughness among the matching creatures (Arbor Adherent);
        ``"distinct_powers"``: how many different powers they have (Selvala, Eager Trailblazer);
        ``"shared_type"``: the most of them that have a creature type in common (White Lotus Tile);
      * ``"counters"`` with ``counter`` ``"any"``: every counter on the source (Nardole);
      * ``"life"``: the controller's life total; ``"domain"``: basic land types among
        lands the controller controls (CR 305.6);
      * ``"graveyard"`` / ``"hand"``: cards in the controller's graveyard / hand
        matching ``types`` / ``subtypes``, ``colors`` (any of, when set) and ``min_power``.
    Filters for ``count`` (and the power, graveyard and hand kinds): ``keywords``
    (all of them: "creature with defender"), ``min_power`` ("with power 4 or
    greater"), ``name`` ("artifact named ~"), ``all_subtypes`` (every one of them:
    "an Urza's Mine" is a land with the subtypes Urza's and Mine, CR 205.3j).
    ``with_counter``: only permanents with a counter of that kind on them (``"any"``: any kind;
    Rishkar's "Each creature you control with a counter on it").
    ``min_counters``: with ``with_counter``, at least that many of them (Brood Astronomer's "a
    Planet with twelve or more charge counters on it").  ``token``: ``"token"`` counts only
    tokens, ``"nontoken"`` only the others (CR 111.1; Insidious Roots' "Creature tokens you
    control have …").  ``x_cost``: for ``"hand"``, only cards with {X} in their mana cost (Rosheen,
    Roaring Prophet, CR 107.3).  ``"count_or_named"``: as ``"count"``, a permanent whose name has the
    letters ``or_name_has`` (lower case) matching ``subtypes`` too ("any creature with Familiar in its
    name": Chea's familiars).
    The value is ``(value + plus) * times``; a negative value counts as 0.
    """

    kind: str
    types: frozenset[str] = frozenset()
    subtypes: frozenset[str] = frozenset()
    supertypes: frozenset[str] = frozenset()
    controller: str = "you"
    other: bool = False
    counter: str = ""
    colors: int = 0
    times: int = 1
    keywords: frozenset[str] = frozenset()
    min_power: int | None = None
    name: str = ""
    all_subtypes: frozenset[str] = frozenset()
    plus: int = 0
    with_counter: str = ""
    token: str = ""
    min_counters: int = 0
    x_cost: bool = False
    or_name_has: str = ""


@dataclass(frozen=True, slots=True)
class Condition:
    """A condition read from the board: an activation condition ("Activate only if
    you control a Swamp", CR 602.5b) or the condition of an "instead" production
    (Urza's Tower).  It holds when every ``(amount, at_least)`` pair of ``counts``
    has ``amount`` at least ``at_least`` (and at most ``at_most`` when that is set,
    for leveler ranges), and, with ``your_turn``, it is the controller's turn before
    the step ``before_step`` (Mana Cache); with ``opponents_turn``, it is an opponent's turn
    (Lavinia, Foil to Conspiracy); with ``self_type``, the permanent itself has that card type now
    (Flywheel Racer's "this permanent is a creature").  Evaluated by
    :func:`manasolver.models.rules.amounts.condition_holds`.
    """

    text: str
    counts: tuple[tuple[Amount, int], ...] = ()
    at_most: int | None = None
    your_turn: bool = False
    before_step: str = ""
    opponents_turn: bool = False
    self_type: str = ""


@dataclass(frozen=True, slots=True)
class AbilityCost:
    """The activation cost of a mana ability (CR 602.1, 118).

    ``tap``/``untap``: ``{T}``/``{Q}``; ``mana``: mana paid on activation (filter
    lands, Signets); ``life``, ``energy``: amounts paid; ``sacrifice_self``;
    ``sacrifice``: other permanents to sacrifice, each a lower-case type or
    subtype (``"creature"``, ``"land"``, ``"artifact"``, ``"forest"``);
    ``remove_counters``: ``(kind, n)`` pairs removed from this permanent;
    ``tap_creatures``: untapped creatures you control to tap (Springleaf Drum).
    ``remove_any``: a counter kind of which the player removes any number (or X)
    on activation (storage lands, CR 107.3); the production's ``"removed"`` amount
    counts them and :func:`manasolver.models.rules.amounts.ability_options` gives one
    option per number.  ``put_counters``: ``(kind, n)`` put on this permanent as a
    cost (Wall of Roots' -0/-1 counter); ``exert``: exert it (CR 701.43; it only
    stops the next untap).  ``discard_hand``: discard your hand (Lion's Eye Diamond).
    ``sacrifice`` may also name a card of a zone, :data:`HAND_CARD` or :data:`GRAVEYARD_CARD`
    (Skirge Familiar's "Discard a card", Titans' Nest's "Exile a card from your graveyard"),
    or a token filter: ``"prism token"`` (a token with that subtype, Diamond Kaleidoscope),
    ``"token named wood"`` (Jungle Patrol).  ``unmodelled``: why the engine can't pay this
    cost although it is read (a cost that mills needs the library, which the board does not
    give); empty when it can.
    """

    tap: bool = False
    untap: bool = False
    mana: ManaCost = ManaCost()
    life: int = 0
    energy: int = 0
    sacrifice_self: bool = False
    sacrifice: tuple[str, ...] = ()
    remove_counters: tuple[tuple[str, int], ...] = ()
    tap_creatures: int = 0
    remove_any: str = ""
    put_counters: tuple[tuple[str, int], ...] = ()
    exert: bool = False
    discard_hand: bool = False
    unmodelled: str = ""

    def parts(self) -> list[str]:
        """The cost as the protocol prints it: ``["{T}", "sacrifice"]``."""
        out: list[str] = []
        if self.mana:
            out.append(self.mana.format())
        if self.tap:
            out.append("{T}")
        if self.untap:
            out.append("{Q}")
        if self.life:
            out.append(f"pay {self.life} life")
        if self.energy:
            out.append("{E}" * self.energy)
        if self.sacrifice_self:
            out.append("sacrifice")
        out.extend(f"sacrifice {'an' if what[:1] in 'aeiou' else 'a'} {what}" for what in self.sacrifice)
        out.extend(f"remove {n} {kind} counter{'s' if n > 1 else ''}" for kind, n in self.remove_counters)
        if self.tap_creatures:
            out.append(f"tap {self.tap_creatures} untapped creature"
                       f"{'s' if self.tap_creatures > 1 else ''} you control")
        if self.remove_any:
            out.append(f"remove any number of {self.remove_any} counters")
        out.extend(f"put {n} {kind} counter{'s' if n > 1 else ''}" for kind, n in self.put_counters)
        if self.exert:
            out.append("exert")
        if self.discard_hand:
            out.append("discard your hand")
        return out


@dataclass(frozen=True, slots=True)
class Production:
    """What one activation adds (see the module docstring for the encoding).

    ``reference``: for "could produce" abilities (CR 106.7), which permanents'
    types are mirrored: ``"lands_you_control"`` (Reflecting Pool),
    ``"lands_opponents_control"`` (Exotic Orchard, Fellwar Stone) or
    ``"sacrificed_land"``; ``colors_only`` drops colorless (Orchard, Fellwar).
    With a reference the activation adds ``reference_count`` mana of one such type.
    ``restriction``: the spending restriction of every mana produced.

    Forms read from the board by :func:`manasolver.models.rules.amounts.ability_options`
    (``options`` then holds only the fixed alternatives, possibly none):
    ``chosen``: one more option of ``chosen`` mana of the color chosen as the
    permanent entered (Coldsteel Heart; Thriving lands: ``{B}`` or the chosen
    color); ``commander``: one more option of ``commander`` mana of one color in the
    commander's color identity (Command Tower, CR 903.4); ``colors_among``: one
    mana of a color among ``"permanents_you_control"`` (Meteor Crater),
    ``"legendary_creatures_planeswalkers"`` (Mox Amber) or ``"graveyard"``
    (Corrupted Grafstone), or, with the prefix ``"each_"``, one mana of *each* color among them
    (Bloom Tender: ``"each_permanents_you_control"``); ``instead``/``instead_options``: when the condition
    holds, ``instead_options`` replace the options (Urza's Tower, Gemstone Caverns), or,
    for a could-produce production, ``instead_reference_count`` replaces
    ``reference_count`` (Incubation Druid: three mana of that type), or ``instead_commander``
    mana of one color of the commander's color identity replace the options (Command Mine).
    ``doubles_pool``: the ability doubles the amount of each type of unspent mana
    (Doubling Cube); it adds no option of its own.
    ``uncertain``: why what it adds depends on chance or on another player's choice (Rhystic
    Cave's "unless any player pays {1}", CR 118.12): it is counted as the least it can give,
    nothing (``options`` is empty, so no payment relies on it), and the answers name it;
    ``uncertain_options`` are what it adds when it does, which "could produce" reads (CR 106.7).
    With ``chosen`` (Gem Bazaar's color last chosen at random), it is uncertain only while the
    board gives no chosen color.

    ``reads_board`` (set as it is made): what one activation adds depends on the board, not on
    ``options`` alone, through an ``amount`` (CR 107.1b, 107.3), a ``reference`` (106.7), a
    ``chosen`` color, the ``commander``'s color identity (903.4), ``colors_among`` or an
    ``instead`` condition (``instead_options``, ``instead_commander`` and
    ``instead_reference_count`` come only with one).  Where it is false an activation adds one of
    ``options`` before the board's effects on mana: so with ``doubles_pool`` (Doubling Cube reads
    the unspent mana, not the board, and adds no option of its own, CR 106.6 example) and with
    ``uncertain`` alone (Rhystic Cave: no option).  The one list of what a production reads:
    asked where an ability's results are taken as fixed, where a card's supply rows are told
    apart, and where its options are read now.  ``reads_besides_commander``: the same but for
    ``commander`` (Command Tower's rows, which read only that identity, are kept apart; Command
    Mine's "instead" reads more).
    """

    options: tuple[tuple[int, ...], ...] = ()
    amount: Amount | None = None
    reference: str = ""
    colors_only: bool = False
    reference_count: int = 1
    restriction: Restriction | None = None
    chosen: int = 0
    commander: int = 0
    colors_among: str = ""
    instead: Condition | None = None
    instead_options: tuple[tuple[int, ...], ...] = ()
    instead_reference_count: int = 0
    instead_commander: int = 0
    doubles_pool: bool = False
    uncertain: str = ""
    uncertain_options: tuple[tuple[int, ...], ...] = ()
    reads_board: bool = field(init=False, repr=False, compare=False)
    reads_besides_commander: bool = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        """Set what it reads of the board, once, as it is made (with its card)."""
        besides = (self.amount is not None or self.instead is not None
                   or bool(self.reference or self.chosen or self.colors_among))
        object.__setattr__(self, "reads_besides_commander", besides)
        object.__setattr__(self, "reads_board", besides or bool(self.commander))

    def max_mana(self) -> int:
        """The most mana one option adds before ``amount`` (for bounds)."""
        if self.reference:
            return self.reference_count
        extra = [self.chosen, self.commander, self.instead_commander,
                 5 if self.colors_among.startswith("each_") else 1 if self.colors_among else 0]
        return max([len(o) for o in self.options + self.instead_options] + extra)


@dataclass(frozen=True, slots=True)
class ManaAbility:
    """An activated mana ability (CR 605.1a): cost, production and riders.

    ``index`` is its position among the permanent's mana abilities, intrinsic
    basic-land abilities first (the protocol's ``ability``); ``damage`` is damage the
    source deals to its controller on resolution (pain lands); ``text`` is the
    clause it was read from; ``intrinsic`` marks abilities granted by a basic
    land type (CR 305.6).  ``condition``: "Activate only if …" (CR 602.5b), evaluated
    on the board by :func:`manasolver.models.rules.amounts.ability_options` (None: the ability
    can't be activated now).  ``per_turn``: "Activate only once each turn" (1) / "no
    more than three times each turn" (3), 0 for no limit; the board has no history,
    so it bounds the activations within one payment.
    """

    cost: AbilityCost
    production: Production
    text: str = ""
    index: int = 0
    damage: int = 0
    intrinsic: bool = False
    extra: tuple[str, ...] = field(default=())
    condition: Condition | None = None
    per_turn: int = 0
