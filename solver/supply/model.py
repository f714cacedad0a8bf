"""The supply model every payment backend reads: options, source classes, groups, the supply.

A player's mana sources become *activation options* (:class:`Option`: one way to activate one
mana ability once, the mana slots it adds and everything the activation costs), and identical
permanents are grouped into :class:`SourceClass` values with a member list, so that the solvers
work with counts and their work stops growing with the board.  Permanents that other
costs may take (sacrifice, tapping, convoke, improvise) are grouped likewise as :class:`Group`
values.  :class:`Supply` holds it all for one player, with the floating pool and the permanents
left out (:class:`Excluded`).

Activation model (a simplification stated, not hidden): each permanent makes at most one
activation among its *exclusive* options (those whose cost has ``{T}``, ``{Q}`` or "sacrifice
this"); options without any of those are *repeatable*, up to :attr:`Option.repeat` times per
permanent.

Which restricted mana may pay what (CR 106.6) is decided once for every backend: for the spell or
ability paid for, :func:`manasolver.solver.request.restriction_allows`; for the costs of mana
abilities, :mod:`manasolver.models.rules.ability_scope`, read here.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from manasolver.models.abilities import Restriction
from manasolver.models.rules.ability_scope import ability_scope, permanent_words, scope_pays
from manasolver.models.cost import ManaCost
from manasolver.models.slots import slot_setters

__all__ = [
    "MAX_REPEAT",
    "Excluded",
    "Group",
    "Option",
    "Options",
    "SourceClass",
    "SourceKind",
    "Supply",
    "class_types",
    "generic_barred",
    "scoped_ability_mana",
]

#: What a source class holds, for the ``prefer_lands`` policy (land wins over creature).
SourceKind = Literal["land", "creature", "artifact", "other", "hand"]

#: Upper bound on activations of one repeatable ability per permanent.
MAX_REPEAT = 64

_NO_MANA = ManaCost()


@dataclass(frozen=True, slots=True, init=False)
class Option:
    """One way to activate one mana ability of a permanent once.

    ``ability``: the ability's index among the permanent's mana abilities;
    ``slots``: what it adds, one mask per mana (the mana is one type of the mask,
    chosen as it resolves); ``costs``: the protocol's cost parts
    (:meth:`AbilityCost.parts`); ``mana_cost``: mana paid to activate it (empty when
    free); ``life``, ``energy``: paid on activation; ``damage``: dealt to the
    controller as it resolves (pain lands); ``sacrifice``: the permanent is
    sacrificed; ``tap``: the permanent becomes tapped (``{T}``);
    ``exclusive``: at most one exclusive option per permanent per payment;
    ``repeat``: for a non-exclusive option, how many times one permanent may
    activate it; ``restriction``: the spending restriction of its mana (CR 106.6);
    ``tap_creatures``: untapped creatures the player must tap as part of the cost
    (Springleaf Drum; summoning sickness does not matter for them, Drum ruling).
    ``sacrifice_other``: for each other permanent the cost sacrifices, the type or
    subtype it must have (Ashnod's Altar: ``("creature",)``); which permanent is
    sacrificed is decided by the solvers from :attr:`Supply.fodder`.  ``tap_types``: with
    ``tap_creatures``, the types any of which each permanent the cost taps must have
    (Springleaf Drum ``("creature",)``, Heritage Druid ``("elf",)`` and three of them,
    Urza ``("artifact",)``); which are tapped is decided from :attr:`Supply.tappable`.
    ``nonsnow_tail``: how many of the last slots are triggered mana from a nonsnow source
    although the permanent is snow (:meth:`slot_snow`); 0 otherwise.  ``removes_any``: the cost
    removes a number of counters the player chooses on activation (storage lands, CR 107.3;
    ``AbilityCost.remove_any``), so one option stands for one choice of that number: readers
    that count activations without reading the number leave it to those that do.

    What the cost's words say, read once as the option is made, so that no reader of an option
    parses ``costs``: ``discards_hand``: the cost discards the player's whole hand (Lion's Eye
    Diamond, ``AbilityCost.discard_hand``); ``removes_counters``: the cost removes counters from
    the permanent, a fixed number or any number (``AbilityCost.remove_counters``,
    ``removes_any``), so what the permanent adds later depends on it.  :attr:`sacrifice` is
    set by any cost that takes the permanent or card for good, not only a sacrifice by that word
    (CR 701.21a): exiling the permanent or returning it to the hand (it leaves the battlefield,
    CR 400.7; Mirrored Lotus, Grinning Ignus), or exiling a card from the hand for mana (Simian
    Spirit Guide); a card discarded or exiled from a zone (Skirge Familiar's "discard a card") is a
    :attr:`sacrifice_other` kind; and the option Squandered Resources' sacrifice of a land gives
    that land sets neither (:mod:`manasolver.solver.pools.untapped`).

    The ``no_sacrifice`` criterion counts what a payment's costs take from the player for good,
    in every backend and in a written payment's score alike: one per activation of an option
    whose :attr:`sacrifice` is set (Lotus Petal, a Treasure sacrificed; Mirrored Lotus exiled,
    Grinning Ignus returned, Simian Spirit Guide exiled from the hand) and one per permanent or
    card taken for its :attr:`sacrifice_other` (Ashnod's Altar's creature, the Altar staying:
    one; Skirge Familiar's card discarded: one).
    """

    ability: int
    slots: tuple[int, ...]
    costs: tuple[str, ...]
    mana_cost: ManaCost = _NO_MANA  # frozen, so a shared default is safe
    life: int = 0
    energy: int = 0
    damage: int = 0
    sacrifice: bool = False
    tap: bool = False
    exclusive: bool = True
    repeat: int = 1
    restriction: Restriction | None = None
    tap_creatures: int = 0
    sacrifice_other: tuple[str, ...] = ()
    tap_types: tuple[str, ...] = ()
    nonsnow_tail: int = 0
    removes_any: bool = False
    discards_hand: bool = False
    removes_counters: bool = False

    def __init__(self, ability: int, slots: tuple[int, ...], costs: tuple[str, ...],
                 mana_cost: ManaCost = _NO_MANA, life: int = 0, energy: int = 0, damage: int = 0,
                 sacrifice: bool = False, tap: bool = False, exclusive: bool = True, repeat: int = 1,
                 restriction: Restriction | None = None, tap_creatures: int = 0,
                 sacrifice_other: tuple[str, ...] = (), tap_types: tuple[str, ...] = (),
                 nonsnow_tail: int = 0, removes_any: bool = False, discards_hand: bool = False,
                 removes_counters: bool = False) -> None:
        # Each field set through its slot (see slot_setters): the options of a board's
        # board-dependent permanents are made on every board.
        (s0, s1, s2, s3, s4, s5, s6, s7, s8, s9, s10, s11, s12, s13, s14, s15, s16, s17,
         s18) = _OPTION_SLOTS
        s0(self, ability)
        s1(self, slots)
        s2(self, costs)
        s3(self, mana_cost)
        s4(self, life)
        s5(self, energy)
        s6(self, damage)
        s7(self, sacrifice)
        s8(self, tap)
        s9(self, exclusive)
        s10(self, repeat)
        s11(self, restriction)
        s12(self, tap_creatures)
        s13(self, sacrifice_other)
        s14(self, tap_types)
        s15(self, nonsnow_tail)
        s16(self, removes_any)
        s17(self, discards_hand)
        s18(self, removes_counters)

    def slot_snow(self, i: int, class_snow: bool) -> bool:
        """Is the mana of slot ``i`` snow, for a member of a class whose snow flag is
        ``class_snow``?  The last :attr:`nonsnow_tail` slots are triggered mana whose source
        is a nonsnow permanent (Wild Growth on a snow land, CR 107.4h, 605.1b)."""
        return class_snow and i < len(self.slots) - self.nonsnow_tail

    def slot_groups(self, class_snow: bool) -> list[tuple[int, bool, int]]:
        """Its slots as ``(mask, snow, how many)`` rows, in mask order, snow before nonsnow."""
        count: dict[tuple[int, bool], int] = {}
        for i, m in enumerate(self.slots):
            key = (m, self.slot_snow(i, class_snow))
            count[key] = count.get(key, 0) + 1
        return [(m, sn, n) for (m, sn), n in sorted(count.items(), key=lambda t: (t[0][0], not t[0][1]))]

    @property
    def free(self) -> bool:
        """True when activating it costs no mana."""
        return not self.mana_cost

    @property
    def produced(self) -> int:
        """How much mana one activation adds."""
        return len(self.slots)

    @property
    def union(self) -> int:
        """Every type any of its slots may be."""
        m = 0
        for s in self.slots:
            m |= s
        return m


class Options(tuple[Option, ...]):
    """The activation options of one permanent (a tuple of :class:`Option`), with what readers
    compute once from them.  A card in one state has one options object, shared by the rows of
    every board that holds it (``solver.supply.build``), so what is read from the options alone
    is a field here, not a table: ``flags`` (restricted, every option allowed, damage: this
    module), ``reading`` what it gives ``keep_colors`` (``solver.keepable``), ``shapes`` its flow
    rows per restriction row and ``modes`` its converter-search rows per restriction row and life
    flag (``solver.backends.flow``), ``templates`` its fast-optimiser modes per
    restriction row (``solver.backends.fastopt.modes``), ``keep_units`` what a member offers
    ``keep_castable`` per snow flag (``solver.backends.fastopt.keep``), ``costs`` what a cast card
    may change in it (``solver.supply.resources``).  ``None`` until first asked.  ``reveals``:
    whether the card of the permanent the options were made for prints a mana ability that reveals
    cards from the hand (Metalworker), set as they are made (``solver.supply.build``); ``None``
    when not known (options made elsewhere).

    A tuple by value: equal options compare and hash equal whatever was computed on them, and a
    copy (pickling) carries none of it.  Thread-safe: each field is written once with a whole
    value by a single store (a dictionary field is made whole, then its entries are stored one
    by one, each a whole immutable value); two threads that ask at once compute equal values."""

    flags: tuple[bool, tuple[bool, ...], bool] | None = None
    reading: tuple[int, int, int, int, int] | None = None
    shapes: dict[tuple[bool, ...], Any] | None = None
    modes: dict[tuple[tuple[bool, ...], bool], Any] | None = None
    templates: dict[tuple[bool, ...], Any] | None = None
    keep_units: dict[bool, Any] | None = None
    costs: tuple[bool, bool, bool] | None = None
    reveals: bool | None = None

    def __reduce__(self) -> tuple[type[Options], tuple[tuple[Option, ...]]]:
        return Options, (tuple(self),)


@dataclass(frozen=True, slots=True, init=False)
class SourceClass:
    """Identical permanents (same options, snow and kind) grouped with their count.

    ``members``: permanent ids in board order; ``positions``: each member's index in
    the state's battlefield (for deterministic tie-breaks); ``options``: what each
    member can do (:class:`Options`, made from a plain tuple when given one); ``snow``: its mana is snow (CR 107.4h);
    ``kind``: ``land``, ``creature``, ``artifact`` or ``other`` (land wins over
    creature for land creatures) for the ``prefer_lands`` policy; ``name``: the
    card name, for messages; ``creature``: its members are creatures (one tapped for
    its own ``{T}`` ability can't also be tapped for Springleaf Drum).  ``hand``: for
    cards in the player's hand with a mana ability activated from there (Simian Spirit
    Guide), each member's index in the hand; its members are then ``"hand:<index>"``,
    its positions come after the battlefield's and its kind is ``"hand"``.
    """

    members: tuple[str, ...]
    positions: tuple[int, ...]
    options: Options
    snow: bool
    kind: SourceKind
    name: str
    creature: bool = False
    hand: tuple[int, ...] = ()

    def __init__(self, members: tuple[str, ...], positions: tuple[int, ...], options: tuple[Option, ...],
                 snow: bool, kind: SourceKind, name: str, creature: bool = False,
                 hand: tuple[int, ...] = ()) -> None:
        # Each field set through its slot (see slot_setters): a class per group of every board.
        s0, s1, s2, s3, s4, s5, s6, s7 = _CLASS_SLOTS
        s0(self, members)
        s1(self, positions)
        s2(self, options if type(options) is Options else Options(options))
        s3(self, snow)
        s4(self, kind)
        s5(self, name)
        s6(self, creature)
        s7(self, hand)

    @property
    def count(self) -> int:
        """How many permanents the class holds."""
        return len(self.members)

    @property
    def free(self) -> bool:
        """True when no option costs mana."""
        return all(o.free for o in self.options)


@dataclass(frozen=True, slots=True)
class Group:
    """Permanents that some cost or keyword may take, interchangeable among themselves.

    ``members``/``positions``: ids and battlefield indices, in board order; ``cls``: the supply
    class the members belong to (their own mana abilities), -1 when none.  One type serves four
    groupings, each reading its own fields:

    * :attr:`Supply.fodder`, what "sacrifice a <type>" costs may take: ``matches`` holds the
      sacrifice types (of the supply's options) each member has; ``untapped``, ``creature``,
      ``artifact``, ``colors`` decide the convoke/improvise group they fall in
      (:func:`~manasolver.solver.supply.resources.build_assists`), so a fodder group lies inside
      one assist group.  A member is sacrificed at most once (CR 118.3, 701.21a); one that
      convoked or improvised (601.2h, after the mana abilities of 601.2g) or sacrificed itself
      for mana can't be sacrificed; one tapped for its own mana ability first can (605.3a);
    * :attr:`Supply.tappable`, the untapped permanents "tap an untapped <type> you control"
      costs may tap: the same fields, ``matches`` holding the tap types they have;
    * the member groups (:func:`~manasolver.solver.supply.resources.member_groups`): the fodder
      and tappable groups merged by members, for the roles a member can play in one payment;
      ``fodder`` and ``tappable`` index the group of :attr:`Supply.fodder` /
      :attr:`Supply.tappable` holding the same members (-1: none);
    * the assist groups (:class:`~manasolver.solver.supply.resources.Assists`): untapped
      permanents that may convoke (``creature``) and/or improvise (``artifact``); ``colors``:
      their color mask (what a convoking member may pay besides generic, 702.51a).  A member
      taps once at most (118.10): for its own ``{T}`` ability, for Springleaf Drum, to convoke,
      or to improvise.
    """

    members: tuple[str, ...]
    positions: tuple[int, ...]
    cls: int = -1
    matches: frozenset[str] = frozenset()
    untapped: bool = True
    creature: bool = False
    artifact: bool = False
    colors: int = 0
    fodder: int = -1
    tappable: int = -1

    @property
    def count(self) -> int:
        """How many members the group holds."""
        return len(self.members)


@dataclass(frozen=True, slots=True)
class Excluded:
    """A permanent left out of the supply: its id, the clause, and why; ``where``: the board
    field whose absence left it out (``battlefield[1].imprinted``), empty otherwise."""

    permanent: str
    name: str
    clause: str
    reason: str
    where: str = ""


class Derived:
    """What readers compute once from one :class:`Supply` (``supply.derived``), ``None`` until
    first asked: ``flags`` (restricted, every option allowed per class, damage: this module),
    ``shape`` what a cast card may change (``solver.supply.resources``), ``spending`` the supply
    under the board's 609.4b rules with the state it was read on (``solver.backends.problem``),
    ``units`` its plain units per restriction flags (``solver.backends.flow``).

    Not part of a supply's value: any two are equal (what they hold follows from the supply),
    so a supply compares, and reads as at its defaults, the same whatever was computed on it.
    Thread-safe: each field is written once with a whole immutable value by a single store."""

    __slots__ = ("flags", "shape", "spending", "units")

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Derived)

    def __hash__(self) -> int:
        return 0

    def __init__(self) -> None:
        self.flags: tuple[bool, tuple[tuple[bool, ...], ...], bool] | None = None
        self.shape: tuple[bool, bool, bool, bool, bool, bool] | None = None
        self.spending: tuple[object, Supply] | None = None
        self.units: dict[tuple[tuple[bool, ...], ...], tuple[list[Any], bool]] = {}


@dataclass(frozen=True, slots=True, init=False)
class Supply:
    """Everything ``player`` can put toward a payment right now.

    ``pool``: floating mana as ``(type bit, count)`` pairs (unrestricted, non-snow);
    ``classes``: the grouped sources, in order of their first member on the board;
    ``excluded``: permanents left out (see :mod:`~manasolver.solver.supply.build`); ``life``,
    ``energy``: the player's totals; ``creatures``: the untapped creatures the player
    controls; ``fodder``: what "sacrifice a <type>" costs may take; ``tappable``: the
    untapped permanents "tap an untapped <type> you control" costs may tap (grouped as
    :class:`Group`, ``matches`` holding the tap types they have).
    """

    player: str
    pool: tuple[tuple[int, int], ...]
    classes: tuple[SourceClass, ...]
    excluded: tuple[Excluded, ...]
    life: int
    energy: int
    creatures: int = 0
    fodder: tuple[Group, ...] = ()
    tappable: tuple[Group, ...] = ()
    #: What readers computed from it (:class:`Derived`); not part of the value.
    derived: Derived = field(init=False, default_factory=Derived, compare=False, repr=False)

    def __init__(self, player: str, pool: tuple[tuple[int, int], ...], classes: tuple[SourceClass, ...],
                 excluded: tuple[Excluded, ...], life: int, energy: int, creatures: int = 0,
                 fodder: tuple[Group, ...] = (), tappable: tuple[Group, ...] = ()) -> None:
        # Each field set through its slot (see slot_setters): a supply per board.
        s0, s1, s2, s3, s4, s5, s6, s7, s8, s9 = _SUPPLY_SLOTS
        s0(self, player)
        s1(self, pool)
        s2(self, classes)
        s3(self, excluded)
        s4(self, life)
        s5(self, energy)
        s6(self, creatures)
        s7(self, fodder)
        s8(self, tappable)
        s9(self, Derived())

    @property
    def resource_costs(self) -> bool:
        """True when some option's cost spends another resource than mana, life, energy or
        its own permanent (sacrificing or tapping other permanents, cards in the hand), or a
        snow member's option adds nonsnow triggered mana: only CP-SAT and the enumeration
        model these, so the fast optimiser is never asked (:mod:`manasolver.solver.backends`)."""
        return any(k.hand or any(o.sacrifice_other or o.tap_creatures or (k.snow and o.nonsnow_tail)
                                 for o in k.options) for k in self.classes)

    @property
    def restricted(self) -> bool:
        """True when some option's mana has a spending restriction."""
        return (self.derived.flags or _flags(self))[0]

    @property
    def all_ok(self) -> tuple[tuple[bool, ...], ...]:
        """Every option allowed (the spell_ok of a supply without restrictions)."""
        return (self.derived.flags or _flags(self))[1]

    @property
    def has_damage(self) -> bool:
        """True when some option deals damage to its controller (pain lands)."""
        return (self.derived.flags or _flags(self))[2]

    @property
    def pool_total(self) -> int:
        """How much mana is floating."""
        return sum(n for _, n in self.pool)

    @property
    def plain(self) -> bool:
        """True when every option is free and exclusive and has no life, energy or damage:
        the shape the flow fast path decides exactly."""
        return all(o.free and o.exclusive and not (o.life or o.energy or o.damage or o.tap_creatures)
                   for k in self.classes for o in k.options)


_OPTION_SLOTS = slot_setters(Option)
_CLASS_SLOTS = slot_setters(SourceClass)
_SUPPLY_SLOTS = slot_setters(Supply)


def _option_flags(options: Options) -> tuple[bool, tuple[bool, ...], bool]:
    """(restricted, every option allowed, damage) of one class's options (kept in them)."""
    hit = options.flags
    if hit is None:
        hit = options.flags = (any(o.restriction is not None for o in options), (True,) * len(options),
                               any(o.damage for o in options))
    return hit


def _flags(sup: Supply) -> tuple[bool, tuple[tuple[bool, ...], ...], bool]:
    """(restricted, all_ok, has_damage) of a supply, computed once per supply object (kept in its
    ``derived``, which the properties read first: a call fewer for the queries reading them again)."""
    hit = sup.derived.flags
    if hit is not None:
        return hit
    restricted = damage = False
    all_ok = []
    for k in sup.classes:
        options = k.options
        r, ok, d = options.flags or _option_flags(options)
        if r:
            restricted = True
        if d:
            damage = True
        all_ok.append(ok)
    flags = sup.derived.flags = (restricted, tuple(all_ok), damage)
    return flags


def class_types(state: Any, cls: SourceClass) -> frozenset[str]:
    """The card types and subtypes of a class's members (:func:`permanent_words`; cards of the
    hand: none, they are no permanents)."""
    if cls.hand:
        return frozenset()
    perm = state.permanent(cls.members[0])
    return permanent_words(perm) if perm is not None else frozenset()


def generic_barred(sup: Supply) -> bool:
    """Does some mana of the supply pay colored symbols only ("This mana can't be spent to pay
    generic mana costs": Jegantha, the Wellspring)?  A backend that matches mana to a cost's
    symbols by type alone is then not exact."""
    return sup.restricted and any(o.restriction is not None and o.restriction.no_generic
                                  for k in sup.classes for o in k.options)


def scoped_ability_mana(sup: Supply, state: Any) -> bool:
    """Does mana restricted to the abilities of some types of permanent (:func:`ability_scope`)
    meet a mana ability that costs mana on a permanent of those types?  A backend that reads a
    restriction as paying every ability or none is then not exact."""
    scopes = [sc for k in sup.classes for o in k.options
              if not isinstance(sc := ability_scope(o.restriction), bool)]
    if not scopes:
        return False
    for k in sup.classes:
        if any(o.mana_cost for o in k.options):
            types = class_types(state, k)
            if any(scope_pays(sc, types) for sc in scopes):
                return True
    return False


