"""What a player can supply toward a payment: the pool and grouped source classes.

The supply model every payment backend reads (flow, CP-SAT, and D's enumeration
backend).  It turns the permanents a player controls into *activation options*
(one option = one way to activate one mana ability once: the mana slots it adds
and everything the activation costs), and groups identical permanents into
:class:`SourceClass` values with a member list, so that the solvers work with
counts and their work stops growing with the board (SPEC §8).

What is and is not usable, by rule:

* ``{T}`` needs the permanent untapped, ``{Q}`` needs it tapped (CR 107.5,
  107.6, 118.3); a creature's ``{T}``/``{Q}`` abilities need it to have been
  controlled since its controller's most recent turn began, unless it has haste
  (CR 302.6, 602.5a; :attr:`Permanent.summoning_sick`);
* life can be paid only while life ≥ the amount (119.4), energy only while the
  player has it (107.14): options that could never be paid are dropped here,
  totals are checked by the solvers;
* counters removed as a cost must be there (118.3);
* sacrifice and damage (pain lands) are recorded for policies;
* "sacrifice a creature/artifact/…" costs (Ashnod's Altar, Krark-Clan Ironworks) are
  recorded per option (:attr:`Option.sacrifice_other`); the permanents they may take
  are grouped in :attr:`Supply.fodder` and the solvers choose which are sacrificed
  (each at most once; one tapped for mana first may still be sacrificed, 605.3a);
* "tap an untapped creature/Elf/artifact you control" (Springleaf Drum; Heritage Druid,
  Urza, read by :mod:`manasolver.models.text.tap_costs` since the parser leaves them
  unread) is recorded per option (:attr:`Option.tap_creatures`, :attr:`Option.tap_types`);
  the permanents it may tap are grouped in :attr:`Supply.tappable`; one tapped for its
  own ``{T}`` ability can't pay it too (118.10), a summoning-sick one can (302.6); one
  tapped for a cost may then be sacrificed (:func:`member_groups` joins both kinds of
  group, and CP-SAT decides every member's roles together);
* abilities whose cost includes mana (filter lands, Signets) are kept with their
  mana cost: the solvers pay it from *other* activations that come before it in
  an order (never circularly, CR 601.2g, 605.3);
* what each activation adds comes from
  :func:`manasolver.models.rules.production.activation_results` (board amounts, chosen
  colors, replacement and triggered mana); "could produce" references (Reflecting Pool, Exotic Orchard) from
  :func:`manasolver.solver.graph.could_produce`.  When neither is importable the
  permanent is left out and listed in :attr:`Supply.excluded`.

A permanent whose card has clauses the parser could not read
(``card.unsupported``), or an ability this model does not cover (sacrificing a
permanent whose own mana ability costs mana, a repeatable ability with a mana cost or
that taps creatures),
is left out and listed in :attr:`Supply.excluded`; the queries then
refuse to call a cost unpayable that such a permanent might have paid, raising
:class:`~manasolver.models.errors.Unsupported` instead.

Convoke, improvise and delve (702.51, 702.126, 702.66) use permanents and cards
that are not mana sources: :func:`build_assists` groups the untapped creatures and
artifacts by colors, types and supply class (a member of a class taps once: for its
mana ability or to assist) and lists the graveyard, for CP-SAT to decide with the mana.

Activation model (a simplification stated, not hidden): each permanent makes at
most one activation among its *exclusive* options (those whose cost has
``{T}``, ``{Q}`` or "sacrifice this"); options without any of those are
*repeatable*, up to :attr:`Option.repeat` times per permanent.
"""

from __future__ import annotations

from dataclasses import dataclass

from manasolver.models.abilities import ManaAbility, Restriction
from manasolver.models.card import CARD_TYPES, Card
from manasolver.models.cost import ManaCost
from manasolver.models.errors import BadState, Unsupported
from manasolver.models.state import GameState, Permanent, Player
from manasolver.models.symbols import ANY_COLOR, ANY_TYPE, C
from manasolver.solver.request import PaymentRequest, SpellInfo

__all__ = [
    "MAX_REPEAT",
    "AssistGroup",
    "Assists",
    "Excluded",
    "FodderGroup",
    "MemberGroup",
    "Option",
    "SourceClass",
    "Supply",
    "build_assists",
    "build_supply",
    "member_groups",
    "pool_units",
    "reserved_ids",
    "restriction_allows",
    "restriction_pays_abilities",
    "without_cast_card",
]

#: Upper bound on activations of one repeatable ability per permanent.
MAX_REPEAT = 64


@dataclass(frozen=True, slots=True)
class Option:
    """One way to activate one mana ability of a permanent once.

    ``ability``: the ability's index among the permanent's mana abilities (SPEC §5);
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
    although the permanent is snow (:meth:`slot_snow`); 0 otherwise.
    """

    ability: int
    slots: tuple[int, ...]
    costs: tuple[str, ...]
    mana_cost: ManaCost = ManaCost()  # noqa: RUF009 (frozen, so a shared default is safe)
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


@dataclass(frozen=True, slots=True)
class SourceClass:
    """Identical permanents (same options, snow and kind) grouped with their count.

    ``members``: permanent ids in board order; ``positions``: each member's index in
    the state's battlefield (for deterministic tie-breaks); ``options``: what each
    member can do (:class:`Option`); ``snow``: its mana is snow (CR 107.4h);
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
    options: tuple[Option, ...]
    snow: bool
    kind: str
    name: str
    creature: bool = False
    hand: tuple[int, ...] = ()

    @property
    def count(self) -> int:
        """How many permanents the class holds."""
        return len(self.members)

    @property
    def free(self) -> bool:
        """True when no option costs mana."""
        return all(o.free for o in self.options)


@dataclass(frozen=True, slots=True)
class FodderGroup:
    """Permanents a "sacrifice a <type>" cost may take, interchangeable among themselves.

    ``members``/``positions``: ids and battlefield indices, in board order; ``matches``:
    the sacrifice types (of the supply's options) each member has; ``cls``: the supply
    class the members belong to (their own mana abilities), -1 when none; ``untapped``,
    ``creature``, ``artifact``, ``colors``: what decides the convoke/improvise group they
    fall in (:func:`build_assists`), so a fodder group lies inside one assist group.
    A member is sacrificed at most once (CR 118.3, 701.21a); one that convoked or
    improvised (601.2h, after the mana abilities of 601.2g) or sacrificed itself for
    mana can't be sacrificed; one tapped for its own mana ability first can (605.3a).
    """

    members: tuple[str, ...]
    positions: tuple[int, ...]
    matches: frozenset[str]
    cls: int = -1
    untapped: bool = True
    creature: bool = False
    artifact: bool = False
    colors: int = 0

    @property
    def count(self) -> int:
        """How many members the group holds."""
        return len(self.members)


@dataclass(frozen=True, slots=True)
class Excluded:
    """A permanent left out of the supply: its id, the clause, and why."""

    permanent: str
    name: str
    clause: str
    reason: str


@dataclass(frozen=True, slots=True)
class Supply:
    """Everything ``player`` can put toward a payment right now.

    ``pool``: floating mana as ``(type bit, count)`` pairs (unrestricted, non-snow);
    ``classes``: the grouped sources, in order of their first member on the board;
    ``excluded``: permanents left out (see the module docstring); ``life``,
    ``energy``: the player's totals; ``creatures``: the untapped creatures the player
    controls; ``fodder``: what "sacrifice a <type>" costs may take; ``tappable``: the
    untapped permanents "tap an untapped <type> you control" costs may tap (grouped as
    :class:`FodderGroup`, ``matches`` holding the tap types they have).
    """

    player: str
    pool: tuple[tuple[int, int], ...]
    classes: tuple[SourceClass, ...]
    excluded: tuple[Excluded, ...]
    life: int
    energy: int
    creatures: int = 0
    fodder: tuple[FodderGroup, ...] = ()
    tappable: tuple[FodderGroup, ...] = ()

    @property
    def resource_costs(self) -> bool:
        """True when some option's cost spends another resource than mana, life, energy or
        its own permanent (sacrificing or tapping other permanents, cards in the hand), or a
        snow member's option adds nonsnow triggered mana: only CP-SAT and the enumeration
        model these, so the fast optimiser is never asked (:func:`solver.queries._run`)."""
        return any(k.hand or any(o.sacrifice_other or o.tap_creatures or (k.snow and o.nonsnow_tail)
                                 for o in k.options) for k in self.classes)

    @property
    def restricted(self) -> bool:
        """True when some option's mana has a spending restriction."""
        return _flags(self)[0]

    @property
    def all_ok(self) -> tuple[tuple[bool, ...], ...]:
        """Every option allowed (the spell_ok of a supply without restrictions)."""
        return _flags(self)[1]

    @property
    def has_damage(self) -> bool:
        """True when some option deals damage to its controller (pain lands)."""
        return _flags(self)[2]

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


_FLAGS: dict[int, tuple[Supply, tuple[bool, tuple[tuple[bool, ...], ...], bool]]] = {}


def _flags(sup: Supply) -> tuple[bool, tuple[tuple[bool, ...], ...], bool]:
    """(restricted, all_ok, has_damage) of a supply, computed once per supply object."""
    hit = _FLAGS.get(id(sup))
    if hit is not None and hit[0] is sup:
        return hit[1]
    restricted = any(o.restriction is not None for k in sup.classes for o in k.options)
    all_ok = tuple((True,) * len(k.options) for k in sup.classes)
    damage = any(o.damage for k in sup.classes for o in k.options)
    if len(_FLAGS) > 512:
        _FLAGS.clear()
    _FLAGS[id(sup)] = (sup, (restricted, all_ok, damage))
    return restricted, all_ok, damage


def restriction_pays_abilities(r: Restriction | None) -> bool:
    """May mana with restriction ``r`` pay a mana ability's activation cost (a Signet's {1})?

    Unrestricted mana may; so may mana that "can't be spent to cast nonartifact spells"
    (Powerstone: any activated ability, ``any_ability``) and mana restricted to abilities
    without naming a type of spell."""
    return r is None or r.any_ability or (r.abilities and not r.spell_types)


def restriction_allows(r: Restriction | None, spell: SpellInfo | None, has_x: bool) -> bool:
    """May mana with restriction ``r`` pay for ``spell`` (CR 106.6; Ancient Ziggurat rulings)?

    Without spell information a restriction is never assumed to be met.
    """
    if r is None:
        return True
    if spell is None:
        return False
    if r.x_only and not has_x:
        return False
    if spell.ability:
        if not r.abilities:
            return False
        return not r.spell_types or bool(r.spell_types & spell.types)
    if not r.spells:
        return False
    if r.spell_types and not (r.spell_types & spell.types):
        return False
    if r.subtypes and not (r.subtypes & spell.subtypes):
        return False
    if r.multicolored and (spell.colors & ANY_COLOR).bit_count() < 2:
        return False
    return not (r.colorless and spell.colors & ANY_COLOR)


def pool_units(player: Player) -> tuple[tuple[int, int], ...]:
    """The player's floating mana as ``(type bit, count)``; ``{2}`` is two colorless (106.10)."""
    counts: dict[int, int] = {}
    for i, s in enumerate(player.pool.symbols):
        if s.is_numeral:
            if s.generic:
                counts[C] = counts.get(C, 0) + s.generic
        elif s.colorless and not s.colors:
            counts[C] = counts.get(C, 0) + 1
        elif s.colors and s.colors.bit_count() == 1 and not (s.phyrexian or s.generic
                                                                 or s.colorless):
            counts[s.colors] = counts.get(s.colors, 0) + 1
        else:
            raise BadState(f"{s.text} cannot be mana in a pool (CR 106.8–106.11)",
                           f"players[{player.name}].pool[{i}]")
    return tuple(sorted(counts.items()))


# -- building -------------------------------------------------------------------------------


class _Skip(Exception):
    """An ability this model does not cover: the permanent is excluded."""

    def __init__(self, clause: str, reason: str) -> None:
        super().__init__(reason)
        self.clause = clause
        self.reason = reason


def _kind(perm: Permanent) -> str:
    if perm.is_land:
        return "land"
    if perm.is_creature:
        return "creature"
    if perm.is_artifact:
        return "artifact"
    return "other"


def _options(state: GameState, perm: Permanent, player: Player,
             refs: dict[str, int] | None, effects: bool, resources: bool = True) -> tuple[Option, ...]:
    """Every usable activation option of one permanent, or raise :class:`_Skip`.

    The abilities are the permanent's effective ones (land-type changes such as Blood
    Moon and Urborg, granted abilities such as Chromatic Lantern's, CR 305.7, 613);
    each activation's results come from
    :func:`manasolver.models.rules.production.activation_results`: the ability's options
    now (conditions, chosen colors, commander identity, board amounts, variable
    counter costs), through replacement effects in every order (Mana Reflection,
    Nyxbloom Ancient, Contamination; 616.1) and with triggered mana (Wild Growth,
    Mana Flare; 605.1b) added.
    """
    from manasolver.models.rules.amounts import ability_restriction
    from manasolver.models.rules.production import (
        activation_results,
        effective_mana_abilities,
    )
    out: list[Option] = []
    sick = perm.summoning_sick
    abilities = effective_mana_abilities(state, perm) if effects else perm.card.mana_abilities
    # (ability, types any of which a permanent its cost taps must have, how many, cost parts)
    readings: list[tuple[ManaAbility, tuple[str, ...], int, tuple[str, ...]]] = [
        (ab, ("creature",) if ab.cost.tap_creatures else (), ab.cost.tap_creatures,
         tuple(ab.cost.parts())) for ab in abilities]
    if resources and perm.card.unsupported:
        from manasolver.models.text.tap_costs import tap_costs_after
        readings += [(t.ability, t.types, t.count, t.parts)
                     for t in tap_costs_after(perm.card, len(abilities))]
    for ab, tap_types, tap_count, parts in readings:
        cost = ab.cost
        text = ab.text or f"mana ability {ab.index}"
        if cost.sacrifice and not resources:
            raise _Skip(text, "costs that sacrifice other permanents are modelled only by the "
                              "payment queries (pay, can_pay, max_x, payments)")
        if ab.production.doubles_pool:
            raise _Skip(text, "abilities that double the mana pool are not modelled yet")
        if cost.discard_hand:
            raise _Skip(text, "costs that discard the hand are not modelled yet")
        if cost.tap and cost.untap:
            continue
        if cost.tap and (perm.tapped or sick):
            continue  # 107.5, 302.6
        if cost.untap and (not perm.tapped or sick):
            continue  # 107.6, 302.6
        if cost.life and player.life < cost.life:
            continue  # 119.4
        if cost.energy and player.energy < cost.energy:
            continue  # 107.14
        if any(perm.counter(k) < n for k, n in cost.remove_counters):
            continue  # 118.3
        exclusive = cost.tap or cost.untap or cost.sacrifice_self
        repeat = 1
        if tap_count and not exclusive and not resources:
            raise _Skip(text, "a repeatable ability that taps other permanents is modelled only by "
                              "the payment queries (pay, can_pay, max_x, payments)")
        if not exclusive:
            if cost.mana:
                raise _Skip(text, "a repeatable mana ability with a mana cost is not modelled yet")
            if cost.remove_any or cost.put_counters:
                raise _Skip(text, "a repeatable ability with a variable counter cost is not modelled yet")
            bounds = [MAX_REPEAT]
            if cost.life:
                bounds.append(player.life // cost.life)
            if cost.energy:
                bounds.append(player.energy // cost.energy)
            for k, n in cost.remove_counters:
                bounds.append(perm.counter(k) // n)
            repeat = min(bounds)
        if ab.per_turn:
            repeat = min(repeat, ab.per_turn)  # "activate only once each turn"
        if repeat <= 0:
            continue
        reference_mask = 0
        if ab.production.reference:
            if refs is None:
                raise _Skip(ab.text or ab.production.reference,
                            "could-produce references need manasolver.solver.graph")
            from manasolver.solver.graph import reference_mask as mirrored
            # What the referenced permanents could produce, not the permanent's own total
            # (an Exotic Orchard that Urborg made a Swamp does not mirror its own {B}).
            reference_mask = mirrored(state, perm, ab, refs)
        results = activation_results(state, perm, ab, reference_mask=reference_mask)
        if results is None:
            continue  # its activation condition is false now (602.5b)
        restriction = ability_restriction(ab, perm)
        for result in results:
            slots = tuple(result.mana) + tuple(result.extra)
            if not slots or any(not (s & ANY_TYPE) for s in slots):
                continue
            nonsnow = 0
            if result.extra and (perm.is_snow or _snow_triggers(state)):
                if _snow_triggers(state):
                    raise _Skip(text, "triggered mana from a snow source is not modelled yet")
                nonsnow = len(result.extra)  # Wild Growth's mana is not snow (107.4h)
            if result.extra and restriction is not None:
                raise _Skip(text, "restricted mana with unrestricted triggered mana is not modelled yet")
            out.append(Option(ab.index, slots, parts, cost.mana, cost.life, cost.energy,
                              ab.damage, cost.sacrifice_self, cost.tap, bool(exclusive), repeat,
                              restriction, tap_count, tuple(cost.sacrifice), tap_types, nonsnow))
    return tuple(out)


def _snow_triggers(state: GameState) -> bool:
    """Is some triggered mana ability on the battlefield (605.1b) on a snow permanent?"""
    from manasolver.models.rules.production import TriggeredMana, active_effects
    return any(src.is_snow for src, eff in active_effects(state) if isinstance(eff, TriggeredMana))


#: Options of board-independent cards, by (card identity, tapped, sick, counters, life,
#: energy): the same card in the same state always has the same options.
_OPTIONS: dict[tuple[object, ...], tuple[Card, tuple[Option, ...]]] = {}


def _cached_options(state: GameState, perm: Permanent, player: Player,
                    refs: dict[str, int] | None, effects: bool, resources: bool) -> tuple[Option, ...]:
    """:func:`_options`, remembered for cards whose options do not depend on the board."""
    card = perm.card
    board_dependent, pays, counters, _ = _card_info(card)
    if board_dependent or effects:
        return _options(state, perm, player, refs, effects, resources)
    key = (id(card), resources, perm.tapped, perm.summoning_sick, perm.chosen_color, perm.chosen_type,
           perm.counters if counters else (),
           (player.life, player.energy) if pays else ())
    hit = _OPTIONS.get(key)
    if hit is not None and hit[0] is card:
        return hit[1]
    opts = _options(state, perm, player, refs, effects, resources)
    if len(_OPTIONS) > 4096:
        _OPTIONS.clear()
    _OPTIONS[key] = (card, opts)
    return opts


_CARD_INFO: dict[int, tuple[Card, tuple[bool, bool, bool, bool]]] = {}


def _card_info(card: Card) -> tuple[bool, bool, bool, bool]:
    """(options depend on the board, costs life or energy, removes counters, refers to
    what other permanents could produce) for a card, computed once per card object."""
    hit = _CARD_INFO.get(id(card))
    if hit is not None and hit[0] is card:
        return hit[1]
    board_dependent = pays = counters = reference = False
    for ab in card.mana_abilities:
        if (ab.production.amount is not None or ab.production.reference or ab.condition is not None
                or ab.production.chosen or ab.production.commander or ab.production.colors_among
                or ab.production.instead or ab.cost.remove_any):
            board_dependent = True
        if ab.production.reference:
            reference = True
        if ab.cost.life or ab.cost.energy:
            pays = True
        if ab.cost.remove_counters:
            counters = True
    info = (board_dependent, pays, counters, reference)
    if len(_CARD_INFO) > 8192:
        _CARD_INFO.clear()
    _CARD_INFO[id(card)] = (card, info)
    return info


_CACHE: dict[tuple[int, str, bool, frozenset[str]], tuple[GameState, Supply]] = {}


def build_supply(state: GameState, player: str | None = None, resources: bool = False,
                 reserved: frozenset[str] = frozenset()) -> Supply:
    """The grouped supply of ``player`` (default: the first player) in ``state``.

    Cached per state object (states are frozen), so repeated queries on one board
    pay for grouping once.  ``resources``: model the mana abilities whose costs spend
    other resources (sacrificing other permanents, cards in the hand), which only the
    payment queries' CP-SAT and enumeration backends read; without it (the default,
    for other readers such as ``options``) those sources are listed in ``excluded``.
    ``reserved``: permanents no other cost may sacrifice (the source of an activated
    ability whose cost sacrifices it: Mind Stone's "{1}, {T}, Sacrifice Mind Stone", CR
    602.2b; its cost is paid in 601.2h, after the mana abilities).
    """
    name = state.player(player).name if player is not None else state.players[0].name
    key = (id(state), name, resources, reserved)
    hit = _CACHE.get(key)
    if hit is not None and hit[0] is state:
        return hit[1]
    supply = _build(state, name, resources, reserved)
    if len(_CACHE) > 256:
        _CACHE.clear()
    _CACHE[key] = (state, supply)
    return supply


def _build(state: GameState, name: str, resources: bool, reserved: frozenset[str] = frozenset()) -> Supply:
    try:
        pl = state.player(name)
    except KeyError:
        raise BadState(f"no player named {name!r}", "player") from None
    refs: dict[str, int] | None = None
    ref_error = ""
    mine = [(pos, perm) for pos, perm in enumerate(state.battlefield) if perm.controller == name]
    if any(_card_info(perm.card)[3] for _, perm in mine):
        try:
            from manasolver.solver.graph import could_produce
            refs = could_produce(state)
        except ImportError:
            ref_error = "manasolver.solver.graph is not available"
        except Unsupported as err:
            ref_error = err.message
    from manasolver.models.text.hand import is_hand_clause
    from manasolver.models.rules.production import active_effects, remaining_unsupported, tap_damage_from_attachments
    effects = active_effects(state)
    # Board-dependent abilities: effects on mana, or Auras that hurt when what they enchant taps.
    changed = bool(effects) or bool(tap_damage_from_attachments(state))
    groups: dict[tuple[object, ...], list[tuple[str, int]]] = {}
    meta: dict[tuple[object, ...], tuple[tuple[Option, ...], bool, str, str, bool]] = {}
    excluded: list[Excluded] = []
    usable: list[tuple[int, Permanent, tuple[Option, ...]]] = []
    for pos, perm in mine:
        card = perm.card
        unread = remaining_unsupported(card) if card.unsupported else ()
        if unread:  # a Spirit Guide's "exile from your hand" does nothing on the battlefield
            unread = tuple(u for u in unread if not is_hand_clause(card, u))
        if unread and resources:  # Heritage Druid, Urza: read by models/text/tap_costs.py
            from manasolver.models.text.tap_costs import is_tap_cost_clause
            unread = tuple(u for u in unread if not is_tap_cost_clause(u))
        if unread:
            excluded.append(Excluded(perm.id, card.name, unread[0],
                                     "the card has mana text the parser could not read"))
            continue
        if not card.mana_abilities and not effects and not (resources and card.unsupported):
            continue
        try:
            opts = _cached_options(state, perm, pl, refs, changed, resources)
        except _Skip as skip:
            excluded.append(Excluded(perm.id, card.name, skip.clause, skip.reason))
            continue
        if ref_error and _card_info(card)[3]:
            excluded.append(Excluded(perm.id, card.name, "could produce", ref_error))
            continue
        if opts:
            usable.append((pos, perm, opts))
    sac_types = sorted({t for _, _, opts in usable for o in opts for t in o.sacrifice_other})
    signature: dict[str, frozenset[str]] = {}
    if sac_types:
        usable = _drop_unmodelled_altars(usable, sac_types, excluded)
        sac_types = sorted({t for _, _, opts in usable for o in opts for t in o.sacrifice_other})
        signature = {perm.id: frozenset(t for t in sac_types if sacrificeable(perm, t))
                     for _, perm in mine if perm.id not in reserved}
    tap_types = sorted({t for _, _, opts in usable for o in opts for t in o.tap_types})
    tap_sig: dict[str, frozenset[str]] = {}
    if tap_types:
        tap_sig = {perm.id: frozenset(t for t in tap_types if sacrificeable(perm, t))
                   for _, perm in mine if not perm.tapped}
    for pos, perm, opts in usable:
        snow = perm.is_snow
        kind = _kind(perm)
        creature = perm.is_creature
        # Equal cached options are one object; with sacrifice costs on the board, what a member
        # may be sacrificed as splits classes too.
        key: tuple[object, ...] = (id(opts), snow, kind, creature, signature.get(perm.id),
                                   tap_sig.get(perm.id))
        if key not in groups:
            groups[key] = []
            meta[key] = (opts, snow, kind, perm.card.name, creature)
        groups[key].append((perm.id, pos))
    classes = []
    for gkey, members in groups.items():
        opts, snow, kind, cname, creature = meta[gkey]
        classes.append(SourceClass(tuple(m for m, _ in members), tuple(p for _, p in members),
                                   opts, snow, kind, cname, creature))
    classes.sort(key=lambda k: k.positions[0])
    if resources:
        classes.extend(_hand_classes(pl, len(state.battlefield)))
    creatures = sum(1 for _, perm in mine if perm.is_creature and not perm.tapped)
    fodder = _fodder(mine, classes, signature, tap_sig, False) if signature else ()
    tappable = _fodder(mine, classes, signature, tap_sig, True) if tap_sig else ()
    return Supply(name, pool_units(pl), tuple(classes), tuple(excluded), pl.life, pl.energy,
                  creatures, fodder, tappable)


def reserved_ids(req: PaymentRequest) -> frozenset[str]:
    """The permanents the cost being paid sacrifices itself (an activated ability of a
    permanent with "Sacrifice ~" in its cost): no mana ability's cost may sacrifice them."""
    act = req.activation
    if act is None or act.permanent is None or act.ability.cost is None or not act.ability.cost.sacrifice_self:
        return frozenset()
    return frozenset({act.permanent.id})


def without_cast_card(supply: Supply, spell: SpellInfo | None) -> Supply:
    """``supply`` without the card being cast (CR 601.2a: it moves from the hand to the stack
    first, so it can't also be exiled for mana in 601.2g): when ``spell`` is a known card (not
    an ability) of which a copy is a hand source, the first such copy is taken out."""
    if spell is None or spell.ability or spell.card is None or not any(k.hand for k in supply.classes):
        return supply
    import dataclasses

    name = spell.card.name.lower()
    classes = list(supply.classes)
    for k, cls in enumerate(classes):
        if cls.hand and cls.name.lower() == name:
            if cls.count == 1:
                del classes[k]
            else:
                classes[k] = dataclasses.replace(cls, members=cls.members[1:], positions=cls.positions[1:],
                                                 hand=cls.hand[1:])
            return dataclasses.replace(supply, classes=tuple(classes))
    return supply


def _hand_classes(player: Player, after: int) -> list[SourceClass]:
    """The cards in ``player``'s hand with mana abilities activated from there (Simian and
    Elvish Spirit Guide, :mod:`manasolver.models.text.hand`), identical cards grouped.  Each
    activation exiles its card (an exclusive option; ``sacrifice`` is set so that the
    ``no_sacrifice`` policy counts the card lost, SPEC §6); board positions ``after + index``
    put them after every permanent for the tie-break."""
    from manasolver.models.text.hand import HAND_COST, hand_abilities

    groups: dict[tuple[str, str], list[int]] = {}
    cards: dict[tuple[str, str], Card] = {}
    for i, card in enumerate(player.hand):
        if not hand_abilities(card):
            continue
        key = (card.name, card.oracle_text)
        groups.setdefault(key, []).append(i)
        cards[key] = card
    out = []
    for key, idx in groups.items():
        card = cards[key]
        opts = tuple(Option(ab.index, slots, (HAND_COST,), sacrifice=True)
                     for ab in hand_abilities(card) for slots in ab.production.options)
        out.append(SourceClass(tuple(f"hand:{i}" for i in idx), tuple(after + i for i in idx), opts,
                               "snow" in card.type_line.supertypes, "hand", card.name,
                               hand=tuple(idx)))
    return out


def sacrificeable(perm: Permanent, what: str) -> bool:
    """Does ``perm`` have the type or subtype ``what`` a sacrifice cost names (lower case)?"""
    if what in CARD_TYPES:
        return what in perm.types
    return perm.card.type_line.has(what)


def _drop_unmodelled_altars(usable: list[tuple[int, Permanent, tuple[Option, ...]]],
                            sac_types: list[str], excluded: list[Excluded]) -> list[tuple[int, Permanent, tuple[Option, ...]]]:
    """Leave out (and list in ``excluded``) the permanents whose costs sacrifice a type that a
    permanent with a mana-costing mana ability has: its own activation would have to come before
    the sacrifice and the Altar's mana after it (601.2g), an order this model does not track."""
    costly = [perm for _, perm, opts in usable if any(not o.free for o in opts)]
    bad = {t for t in sac_types if any(sacrificeable(p, t) for p in costly)}
    if not bad:
        return usable
    out = []
    for pos, perm, opts in usable:
        hit = next((o for o in opts if bad & set(o.sacrifice_other)), None)
        if hit is None:
            out.append((pos, perm, opts))
            continue
        excluded.append(Excluded(perm.id, perm.card.name, " ".join(hit.costs),
                                 "sacrificing a permanent whose own mana ability costs mana is not "
                                 "modelled yet"))
    return out


def _fodder(mine: list[tuple[int, Permanent]], classes: list[SourceClass], sac_sig: dict[str, frozenset[str]],
            tap_sig: dict[str, frozenset[str]], tapping: bool) -> tuple[FodderGroup, ...]:
    """The player's permanents that some sacrifice cost (``tapping`` false) or tapping cost
    (true) could take, grouped (see :class:`FodderGroup`).  Both use one grouping key, so a
    group of :attr:`Supply.fodder` and one of :attr:`Supply.tappable` hold the same members
    or none in common; keys refine both supply classes and assist groups."""
    class_of = {m: k for k, cls in enumerate(classes) for m in cls.members}
    groups: dict[tuple[int, frozenset[str], frozenset[str], bool, bool, bool, int],
                 list[tuple[str, int]]] = {}
    for pos, perm in mine:
        sac = sac_sig.get(perm.id, frozenset())
        tap = tap_sig.get(perm.id, frozenset())
        if not (tap if tapping else sac):
            continue
        key = (class_of.get(perm.id, -1), sac, tap, not perm.tapped, perm.is_creature, perm.is_artifact,
               perm.card.colors & ANY_COLOR)
        groups.setdefault(key, []).append((perm.id, pos))
    out = [FodderGroup(tuple(m for m, _ in ms), tuple(p for _, p in ms), tap if tapping else sac, k,
                       untapped, creature, artifact, colors)
           for (k, sac, tap, untapped, creature, artifact, colors), ms in groups.items()]
    out.sort(key=lambda g: g.positions[0])
    return tuple(out)


@dataclass(frozen=True, slots=True)
class MemberGroup:
    """Permanents that sacrifice or tapping costs may take, as one group for the roles a
    member can play in one payment: ``fodder`` and ``tappable`` index the group of
    :attr:`Supply.fodder` / :attr:`Supply.tappable` holding the same members (-1: none);
    ``cls``: their supply class (-1: none)."""

    members: tuple[str, ...]
    positions: tuple[int, ...]
    cls: int
    untapped: bool
    fodder: int = -1
    tappable: int = -1

    @property
    def count(self) -> int:
        """How many members the group holds."""
        return len(self.members)


def member_groups(supply: Supply) -> tuple[MemberGroup, ...]:
    """The groups of :attr:`Supply.fodder` and :attr:`Supply.tappable` merged by members."""
    out: dict[tuple[str, ...], MemberGroup] = {}
    for f, g in enumerate(supply.fodder):
        out[g.members] = MemberGroup(g.members, g.positions, g.cls, g.untapped, fodder=f)
    for t, g in enumerate(supply.tappable):
        had = out.get(g.members)
        out[g.members] = (MemberGroup(g.members, g.positions, g.cls, g.untapped, tappable=t) if had is None
                          else MemberGroup(had.members, had.positions, had.cls, had.untapped, had.fodder, t))
    return tuple(sorted(out.values(), key=lambda g: g.positions[0]))


# -- convoke, improvise, delve (CR 702.51, 702.126, 702.66) ----------------------------------


@dataclass(frozen=True, slots=True)
class AssistGroup:
    """Untapped permanents that may convoke and/or improvise, interchangeable among themselves.

    ``members``/``positions``: ids and battlefield indices; ``colors``: their color mask
    (what a convoking member may pay besides generic, 702.51a); ``creature``: may convoke;
    ``artifact``: may improvise; ``cls``: the supply class they belong to (their mana
    abilities), or -1 when they have none.  A member taps once at most (118.10): for its
    own ``{T}`` ability, for Springleaf Drum, to convoke, or to improvise.
    """

    members: tuple[str, ...]
    positions: tuple[int, ...]
    colors: int
    creature: bool
    artifact: bool
    cls: int = -1

    @property
    def count(self) -> int:
        """How many members the group holds."""
        return len(self.members)


@dataclass(frozen=True, slots=True)
class Assists:
    """What convoke, improvise and delve may use (only the keywords the request allows).

    ``groups``: untapped creatures (convoke) and artifacts (improvise) grouped by
    colors, types and supply class; ``graveyard``: the names of the cards delve may
    exile, in graveyard order; ``class_untapped``: per supply class, its untapped members
    (a class's taps and assists together can't exceed them).
    """

    groups: tuple[AssistGroup, ...] = ()
    graveyard: tuple[str, ...] = ()
    class_untapped: tuple[int, ...] = ()

    @property
    def usable(self) -> bool:
        """True when some assist could pay part of a cost."""
        return bool(self.groups or self.graveyard)


def build_assists(state: GameState, supply: Supply, convoke: bool, improvise: bool,
                  delve: bool) -> Assists:
    """The resources convoke/improvise/delve may use for ``supply.player`` (see :class:`Assists`).

    Summoning-sick creatures may convoke (Siege Wurm ruling; 302.6 limits only a
    creature's own ``{T}`` abilities); tapped permanents may not (702.51a, 702.126a).
    """
    if not (convoke or improvise or delve):
        return Assists()
    player = state.player(supply.player)
    class_of = {m: k for k, cls in enumerate(supply.classes) for m in cls.members}
    groups: dict[tuple[int, int, bool, bool], list[tuple[str, int]]] = {}
    for pos, perm in enumerate(state.battlefield):
        if perm.controller != supply.player or perm.tapped:
            continue
        creature = convoke and perm.is_creature
        artifact = improvise and perm.is_artifact
        if not (creature or artifact):
            continue
        colors = perm.card.colors & ANY_COLOR if creature else 0
        key = (class_of.get(perm.id, -1), colors, creature, artifact)
        groups.setdefault(key, []).append((perm.id, pos))
    out = [AssistGroup(tuple(m for m, _ in ms), tuple(p for _, p in ms), colors, creature,
                       artifact, k) for (k, colors, creature, artifact), ms in groups.items()]
    out.sort(key=lambda g: g.positions[0])
    by_id = {p.id: p for p in state.battlefield}
    untapped = tuple(sum(1 for m in cls.members if m in by_id and not by_id[m].tapped)
                     for cls in supply.classes)
    grave = tuple(c.name for c in player.graveyard) if delve else ()
    return Assists(tuple(out), grave, untapped)
