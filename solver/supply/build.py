"""Building a player's supply: the pool and the mana sources grouped into source classes.

:func:`build_supply` turns the permanents a player controls into activation options
(:class:`~manasolver.solver.supply.model.Option`) and groups identical permanents into
:class:`~manasolver.solver.supply.model.SourceClass` values; with ``resources`` it adds the
fodder, tapping and hand sources of :mod:`~manasolver.solver.supply.resources`.  It is cached
per state object.

What is and is not usable, by rule:

* ``{T}`` needs the permanent untapped, ``{Q}`` needs it tapped (CR 107.5,
  107.6, 118.3); a creature's ``{T}``/``{Q}`` abilities need it to have been
  controlled since its controller's most recent turn began, unless it has haste
  (CR 302.6, 602.5a; :func:`manasolver.models.rules.granted.summoning_sick`, haste given by the board included);
* life can be paid only while life ≥ the amount (119.4), energy only while the
  player has it (107.14): options that could never be paid are dropped here,
  totals are checked by the solvers;
* counters removed as a cost must be there (118.3);
* sacrifice and damage (pain lands) are recorded for policies;
* abilities whose cost includes mana (filter lands, Signets) are kept with their
  mana cost: the solvers pay it from *other* activations that come before it in
  an order (never circularly, CR 601.2g, 605.3);
* what each activation adds comes from
  :func:`manasolver.models.rules.production.activation_results` (board amounts, chosen
  colors, replacement and triggered mana); "could produce" references (Reflecting Pool, Exotic
  Orchard) from :func:`manasolver.solver.graph.could_produce`.  When the graph can't answer,
  the permanent is left out and listed in :attr:`Supply.excluded`.

A permanent whose card has clauses that no reader reads
(``CardText.unread``), or an ability this model does not cover (sacrificing a
permanent whose own mana ability costs mana, a repeatable ability with a mana cost or
that taps creatures), is left out and listed in :attr:`Supply.excluded`; the queries then
refuse to call a cost unpayable that such a permanent might have paid
(:func:`manasolver.solver.supply.unmodelled.guard_excluded`).
"""

from __future__ import annotations

from collections.abc import Iterable

from manasolver.models._memo import KeyMemo
from manasolver.models.abilities import Amount, Condition, ManaAbility
from manasolver.models.card import Card
from manasolver.models.cost import ManaCost
from manasolver.models.errors import BadState, Unsupported
from manasolver.models.rules.amounts import (
    TAPPED_COUNT,
    ability_restriction,
    condition_holds,
    evaluate_amount,
    reveals_hand,
    player_identity,
    sacrificed_kinds,
)
from manasolver.models.rules.board_effects import reached_by_effects
from manasolver.models.rules.granted import summoning_sick
from manasolver.models.rules.history import MILL_A_CARD, MilledOut, milling_ability
from manasolver.models.rules.production import (
    ActivationResult,
    active_effects,
    activation_results,
    alters_activations,
    effective_mana_abilities,
    fixed_results,
    tap_damage_from_attachments,
)
from manasolver.models.rules.missing import NotOnBoard
from manasolver.models.slots import slot_setters
from manasolver.models.state import GameState, Permanent, Player, fits_cost, permanent_state
from manasolver.models.symbols import ANY_TYPE, C, mask_from_letters, mask_letters
from manasolver.models.text.read import card_text
from manasolver.models.text.tap_costs import OPPONENT_LAND_PART, tap_costs_after
from manasolver.solver.supply.model import (
    MAX_REPEAT,
    Excluded,
    Option,
    Options,
    SourceClass,
    SourceKind,
    Supply,
)
from manasolver.solver.supply.resources import fodder_groups, hand_classes, zone_fodder
from manasolver.solver.supply.unmodelled import (
    NO_REFERENCES,
    RESOURCE_COSTS,
    RESTRICTED_TRIGGERS,
    SNOW_TRIGGERS,
    UNREAD_TEXT,
    Unmodelled,
    ability_gap,
    drop_unmodelled_altars,
    repeatable_gap,
)

__all__ = ["build_supply", "card_context", "pool_units"]


def pool_units(player: Player) -> tuple[tuple[int, int], ...]:
    """The player's floating mana as ``(type bit, count)``; ``{2}`` is two colorless (106.10)."""
    symbols = player.pool.symbols
    if not symbols:
        return ()  # (most boards: nothing floating)
    counts: dict[int, int] = {}
    for i, s in enumerate(symbols):
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


def _kind(types: tuple[str, ...]) -> SourceKind:
    """The kind of a permanent of these card types: land wins over creature, creature over artifact."""
    if "land" in types:
        return "land"
    if "creature" in types:
        return "creature"
    if "artifact" in types:
        return "artifact"
    return "other"


def _options(state: GameState, perm: Permanent, player: Player,
             refs: dict[str, int] | None, effects: bool, resources: bool = True) -> Options:
    """Every usable activation option of one permanent, or raise
    :class:`~manasolver.solver.supply.unmodelled.Unmodelled`.

    The abilities are the permanent's effective ones (land-type changes such as Blood
    Moon and Urborg, granted abilities such as Chromatic Lantern's, CR 305.7, 613);
    each activation's results are its :func:`~manasolver.models.rules.production.fixed_results`
    where no effect in force alters activations, else come from
    :func:`manasolver.models.rules.production.activation_results`: the ability's options
    now (conditions, chosen colors, commander identity, board amounts, variable
    counter costs), through replacement effects in every order (Mana Reflection,
    Nyxbloom Ancient, Contamination; 616.1) and with triggered mana (Wild Growth,
    Mana Flare; 605.1b) added.
    """
    out: list[Option] = []
    sick = summoning_sick(state, perm)
    card = perm.card
    abilities = effective_mana_abilities(state, perm) if effects else card.mana_abilities
    readings = _card_info(card)[5] if abilities is card.mana_abilities else tuple(map(_reading, abilities))
    if resources and card_text(card).tap_costs and not (effects and _prohibited(state, perm)):
        # CR 602.5: a prohibition stops these too (Null Rod on Diamond Kaleidoscope)
        readings += tuple(_reading(t.ability, t.types, t.count, t.parts)
                          for t in tap_costs_after(card, len(abilities)))
    altered = alters_activations(state)
    for ab, tap_types, tap_count, parts, reads_board, colored, fixed in readings:
        cost = ab.cost
        text = ab.text or f"mana ability {ab.index}"
        if cost.unmodelled and MILL_A_CARD in parts:  # paid from the board's library
            try:
                milled = milling_ability(state, perm, ab, parts)
            except MilledOut as why:
                raise Unmodelled(text, why.reason) from None
            if milled is None:
                continue  # 118.3: an empty library pays no milling cost
            ab = milled
            cost = ab.cost
            colored = any(s.colors for s in cost.mana.symbols)
            fixed = None
        if reads_board and _cannot_pay(state, perm, player, parts):
            continue  # CR 118.3: no tapped land of an opponent's, too little evidence
        unmodelled = ability_gap(ab, resources) or (colored and _unowned_gap(state, perm, cost.mana))
        if unmodelled:
            raise Unmodelled(text, unmodelled)
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
        if cost.remove_counters and any(perm.counter(k) < n for k, n in cost.remove_counters):
            continue  # 118.3
        # "Activate only once each turn" on a permanent's only mana ability (Shire Scarecrow):
        # one activation at most, as exclusive as a {T} ability
        exclusive = cost.tap or cost.untap or cost.sacrifice_self or (ab.per_turn == 1 and len(readings) == 1)
        repeat = 1
        if not exclusive:
            gap = repeatable_gap(cost, tap_count, resources)
            if gap:
                raise Unmodelled(text, gap)
            bounds = [MAX_REPEAT]
            if cost.life:
                bounds.append(player.life // cost.life)
            if cost.energy:
                bounds.append(player.energy // cost.energy)
            for k, n in cost.remove_counters:
                bounds.append(perm.counter(k) // n)
            repeat = min(bounds)
        if ab.per_turn:  # "activate only once each turn", less what this turn already used (CR 602.5b)
            repeat = min(repeat, ab.per_turn - dict(perm.activated_this_turn).get(ab.index, 0))
        if repeat <= 0:
            continue
        reference_mask = 0
        if ab.production.reference:
            if refs is None:
                raise Unmodelled(ab.text or ab.production.reference, NO_REFERENCES)
            from manasolver.solver.graph import reference_mask as mirrored
            # What the referenced permanents could produce, not the permanent's own total
            # (an Exotic Orchard that Urborg made a Swamp does not mirror its own {B}).
            reference_mask = mirrored(state, perm, ab, refs)
        results = fixed if fixed is not None and not altered else activation_results(
            state, perm, ab, reference_mask=reference_mask)
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
                    raise Unmodelled(text, SNOW_TRIGGERS)
                nonsnow = len(result.extra)  # Wild Growth's mana is not snow (107.4h)
            if result.extra and restriction is not None:
                raise Unmodelled(text, RESTRICTED_TRIGGERS)
            out.append(Option(ab.index, slots, parts, cost.mana, cost.life, cost.energy,
                              ab.damage, cost.sacrifice_self, cost.tap, bool(exclusive), repeat,
                              restriction, _tapped(ab, tap_count, result.removed),
                              _sacrificed(ab, slots, result.removed), tap_types, nonsnow,
                              bool(cost.remove_any), cost.discard_hand,
                              bool(cost.remove_counters or cost.remove_any)))
    made = Options(out)
    made.reveals = _card_info(card)[6]
    return made


#: One mana ability as :func:`_options` reads it: the ability, the types any of which a permanent
#: its cost taps must have, how many it taps, its cost parts, whether a part reads the board
#: (:func:`_reads_board`), whether its mana cost has a colored symbol (:func:`_unowned_gap`), its
#: results where nothing alters them, if they read nothing of the board
#: (:func:`~manasolver.models.rules.production.fixed_results`).
_Reading = tuple[ManaAbility, tuple[str, ...], int, tuple[str, ...], bool, bool,
                 tuple[ActivationResult, ...] | None]


def _reading(ab: ManaAbility, tap_types: tuple[str, ...] | None = None, tap_count: int | None = None,
             parts: tuple[str, ...] | None = None) -> _Reading:
    """``ab`` as :func:`_options` reads it (a printed ability's once per card, in its facts);
    ``tap_types``, ``tap_count``, ``parts``: a tapping cost's, read from its text."""
    if parts is None:
        parts = tuple(ab.cost.parts())
    if tap_count is None:
        tap_count = ab.cost.tap_creatures
        tap_types = ("creature",) if tap_count else ()
    assert tap_types is not None
    return (ab, tap_types, tap_count, parts, _reads_board(parts), any(s.colors for s in ab.cost.mana.symbols),
            fixed_results(ab))


def _cannot_pay(state: GameState, perm: Permanent, player: Player, parts: tuple[str, ...]) -> bool:
    """Is a cost part the supply does not spend (read by ``models/text/tap_costs.py``) unpayable on
    this board (CR 118.3)?  "Untap a tapped land an opponent controls" (Benthic Explorers) without
    such a land; "Collect evidence N" (Cryptex, CR 701.59a) with less than N total mana value among
    the graveyard's cards.  Where it is payable the ability stays left out, named."""
    for part in parts:
        if part == OPPONENT_LAND_PART:
            opponents = state.opponents_of(perm.controller)
            if not any(p.is_land and p.tapped and p.controller in opponents for p in state.battlefield):
                return True
        elif part.startswith("collect evidence ") and part.rsplit(" ", 1)[1].isdigit():
            if sum(card.mana_value for card in player.graveyard) < int(part.rsplit(" ", 1)[1]):
                return True
    return False


def _reads_board(parts: tuple[str, ...]) -> bool:
    """Does a cost with these parts read the board in :func:`_cannot_pay`?"""
    return any(p == OPPONENT_LAND_PART or p.startswith("collect evidence ") for p in parts)


def _unowned_gap(state: GameState, perm: Permanent, mana: ManaCost) -> str:
    """Why a mana ability whose cost has a colored symbol (``mana``: its cost, which has one) is
    left out beside a 609.4b rule for abilities of permanents its controller controls but doesn't
    own (Nathan Drake, Treasure Hunter): the board says nothing of owners, and the rule lets any
    mana pay that symbol; "" otherwise."""
    from manasolver.models.rules.counts import unowned_spend_rules
    rules = unowned_spend_rules(state, perm.controller)
    if not rules:
        return ""
    source, effect = rules[0]
    return (f"{source.card.name}'s {effect.text!r} lets any mana pay its colored cost if its controller does "
            f"not own it, which the board does not say (CR 609.4b)")


#: How a sacrifice type names a land by a type of mana it could produce (CR 106.7): Squandered
#: Resources' "one mana of any type the sacrificed land could produce" is only that land's.
COULD_PRODUCE = " that could produce "


def _sacrificed(ab: ManaAbility, slots: tuple[int, ...], value: int) -> tuple[str, ...]:
    """What one activation's cost sacrifices besides the permanent itself; a land sacrificed for
    mana of a type it could produce is named with that type (``land that could produce G``); a
    permanent sacrificed for mana by its mana value, with the ``value`` this result reads
    (``artifact with mana value 2``), and X permanents for X mana ``value`` times
    (:func:`~manasolver.models.rules.amounts.sacrificed_kinds`)."""
    if ab.production.reference == "sacrificed_land" and ab.cost.sacrifice == ("land",) and len(slots) == 1:
        return ("land" + COULD_PRODUCE + mask_letters(slots[0]),)
    if ab.production.amount is not None:
        return sacrificed_kinds(ab, value)
    return tuple(ab.cost.sacrifice)


#: Why a second permanent whose cost sacrifices "another" of a kind it has itself is left out.
_MUTUAL_OTHERS = ("two permanents whose costs sacrifice \"another\" of a kind both have are not modelled yet "
                  "(each may be sacrificed for the other's ability, never for its own)")


def _others_only(usable: list[tuple[int, Permanent, tuple[Option, ...]]], excluded: list[Excluded],
                 ) -> tuple[list[tuple[int, Permanent, tuple[Option, ...]]], dict[str, frozenset[str]]]:
    """The usable rows and, per permanent, the "another <kind>" sacrifice kinds of its own options
    (Master of Dark Rites: "Sacrifice another creature"), which it can't be fodder for: the
    fodder groups don't say which activation takes a member, so a permanent is kept out of the
    kinds its own options name.  Where a second permanent has the same kind and fits it (two
    Masters: each may sacrifice the other), all but the first are left out, named
    (:data:`_MUTUAL_OTHERS`); they stay fodder."""
    own: dict[str, frozenset[str]] = {}
    holders: dict[str, list[Permanent]] = {}
    for _, perm, opts in usable:
        kinds = frozenset(t for o in opts for t in o.sacrifice_other if t.startswith("another "))
        if kinds:
            own[perm.id] = kinds
            for t in kinds:
                holders.setdefault(t, []).append(perm)
    gone = {p.id for t, ps in holders.items() if len(ps) > 1 and any(fits_cost(p, t) for p in ps) for p in ps[1:]}
    if not gone:
        return usable, own
    kept = []
    for pos, perm, opts in usable:
        if perm.id in gone:
            excluded.append(Excluded(perm.id, perm.card.name, " ".join(opts[0].costs), _MUTUAL_OTHERS))
            own.pop(perm.id, None)
        else:
            kept.append((pos, perm, opts))
    return kept, own


def _tapped(ab: ManaAbility, count: int, value: int) -> int:
    """How many other permanents one activation's cost taps: ``count``, or the X a result of
    "Tap X untapped tokens you control: Add X mana" reads (``value``)."""
    amount = ab.production.amount
    return value if amount is not None and amount.kind == TAPPED_COUNT else count


def _fits(perm: Permanent, what: str, could: dict[str, int]) -> bool:
    """:func:`fits_cost`, and a land that could produce the type a sacrifice type names."""
    kind, _, letters = what.partition(COULD_PRODUCE)
    if letters:
        return fits_cost(perm, kind) and bool(could.get(perm.id, 0) & mask_from_letters(letters))
    return fits_cost(perm, what)


def _snow_triggers(state: GameState) -> bool:
    """Is some triggered mana ability on the battlefield (605.1b) on a snow permanent?"""
    from manasolver.models.rules.production import TriggeredMana, active_effects
    return any(src.is_snow for src, eff in active_effects(state) if isinstance(eff, TriggeredMana))


def _prohibited(state: GameState, perm: Permanent) -> bool:
    """Whether a prohibition in force stops ``perm``'s activated abilities (CR 602.5)."""
    from manasolver.models.rules.board_effects import prohibited
    return prohibited(state, perm) is not None


def _with_tap_costs(card: Card, unread: tuple[str, ...]) -> tuple[str, ...]:
    """The clauses of ``card.unsupported`` that are ``unread`` or a mana ability whose cost taps
    other permanents, in printed order."""
    tapping = {t.ability.text for t in card_text(card).tap_costs}
    return tuple(u for u in card.unsupported if u in unread or u.strip() in tapping)


#: What :func:`_card_info` keeps of a card.
_CardInfo = tuple[bool, bool, bool, bool, bool, tuple[_Reading, ...], bool, "dict[int, _Row] | None"]


def _card_info(card: Card) -> _CardInfo:
    """(options depend on the board, costs life or energy, removes counters, refers to
    what other permanents could produce, depends on the board only through the commander's
    color identity, its printed mana abilities as :func:`_options` reads them, one of them adds
    mana by cards revealed from the hand, its rows by :func:`_own_slot` or None) for a card,
    computed once per card (kept in its facts).  The last is a dictionary, filled as rows are
    made, where a permanent's row on a board without effects on mana reads nothing but whether
    resources are read, it is tapped and it is summoning sick (:func:`_reads_own_state_only`),
    and its controller's commander identity where it reads that (Command Tower, Arcane Signet)."""
    hit: _CardInfo | None = card.facts.supply_info
    if hit is not None:
        return hit
    board_dependent = pays = counters = reference = commander = False
    for ab in card.mana_abilities:
        production = ab.production
        if production.reads_besides_commander or ab.condition is not None or ab.cost.remove_any:
            board_dependent = True  # a variable counter cost reads the permanent's counters (CR 107.3)
        if production.commander:
            commander = True  # Command Tower, Arcane Signet: the commander's identity (CR 903.4)
        if production.reference:
            reference = True
        if ab.cost.life or ab.cost.energy:
            pays = True
        if ab.cost.remove_counters:
            counters = True
    if any("mill a card" in t.parts or t.ability.production.amount is not None or _reads_board(t.parts)
           for t in card_text(card).tap_costs):
        # a milling cost is paid from the board's library; an amount reads it; whether an
        # opponent's tapped land or the graveyard's evidence is there (:func:`_cannot_pay`)
        board_dependent = True
    commander_only = commander and not board_dependent
    reveals = any(reveals_hand(ab) for ab in card.mana_abilities)
    readings = tuple(map(_reading, card.mana_abilities))
    own: dict[int, _Row] | None = None
    if not (board_dependent or pays or counters) and _reads_own_state_only(card, readings):
        own = {}
    info = (board_dependent or commander, pays, counters, reference, commander_only, readings, reveals, own)
    card.facts.supply_info = info
    return info


def _reads_own_state_only(card: Card, readings: tuple[_Reading, ...]) -> bool:
    """Does a permanent of ``card`` (not reading the board but the commander's identity, nor life,
    energy or counters: checked by :func:`_card_info`) have a supply row, on a board without effects
    on mana, that reads nothing of it but whether it is tapped and summoning sick (CR 107.5, 302.6)?  No
    clause unread, no tapping cost read from its text, and no mana ability "once each turn"
    (what this turn used, 602.5b), with a cost read apart (milling), a cost part that reads the
    board, a colored mana cost (609.4b reads who owns it) or a chosen-type restriction (its chosen
    type)."""
    text = card_text(card)
    if text.unread or text.tap_costs:
        return False
    for ab, _, _, parts, reads_board, colored, _ in readings:
        restriction = ab.production.restriction
        if (ab.per_turn or ab.cost.unmodelled or reads_board or colored or MILL_A_CARD in parts
                or (restriction is not None and restriction.chosen_type)):
            return False
    return True


def _own_slot(state: GameState, perm: Permanent, pl: Player, resources: bool, commander: bool) -> int:
    """Where a row of a card whose rows read only the permanent's own state
    (:func:`_reads_own_state_only`) is kept in its facts: by whether resources are read, it is
    tapped and it is summoning sick (the three low bits) and, for a card whose rows read the
    commander's color identity (``commander``), that identity of its controller ``pl`` (the bits
    above: CR 903.4).  :func:`_rows` makes the same slot inline, in its loop over a board's
    permanents: a change here is a change there."""
    slot = 4 * resources + 2 * perm.tapped + (perm.sick and summoning_sick(state, perm))
    return slot + 8 * player_identity(pl) if commander else slot


def card_context(card: Card) -> tuple[bool, bool] | None:
    """What a permanent's supply row reads besides the permanent itself, on a board without
    effects on mana: ``None`` when it reads the board (amounts, references, conditions, chosen
    colors); else (its costs pay life or energy, it reads the commander's color identity)."""
    board_dependent, pays, _, _, commander_only, _, _, _ = _card_info(card)
    if board_dependent and not commander_only:
        return None
    return pays, commander_only


#: A permanent's supply row: (why it is left out, or None; its usable options; snow; kind;
#: creature; untapped creature; whether an option sacrifices or taps other permanents; the
#: key its class is grouped by when none on the board does).
_Row = tuple[Excluded | None, tuple[Option, ...], bool, SourceKind, bool, bool, bool, tuple[object, ...]]
#: The supply rows kept across boards (the one table of this package), never by a permanent's id,
#: which differs from one game to the next; each entry keeps its card, whose id the key holds, and
#: a hit is checked against it.  Three kinds of key:
#:
#: * what the permanent is and its state (:func:`_what`): a permanent no context changes (not
#:   sick, paying no life or energy, not reading the commander) on a board without effects on
#:   mana; the common case, one lookup per permanent;
#: * that and its context (sick, life and energy, the commander's identity): the rows of
#:   permanents whose options read nothing else of the board;
#: * that and what it reads of the board (its amounts' counts, whether its conditions hold, the
#:   masks it mirrors): the rows of :func:`_counts_only` and :func:`_mirrors_only` permanents.
#:
#: Bounded and thread-safe as every :class:`~manasolver.models._memo.KeyMemo`: an entry is one
#: immutable row, and a lookup racing a reset misses and computes.
_ROWS: KeyMemo[tuple[object, ...], _Row] = KeyMemo(32769)


def _what(perm: Permanent, resources: bool) -> tuple[object, ...]:
    """What a permanent is and its state, every field but its id (its card by identity: cards are
    interned by their database, and a remembered row keeps its card), and whether resources are
    read: the key of its row."""
    return (id(perm.card), resources, *permanent_state(perm))


def _row(state: GameState, perm: Permanent, pl: Player, refs: dict[str, int] | None, effects: bool,
         changed: bool, resources: bool, ref_error: str, remember: bool = True) -> _Row:
    """The supply row of one permanent, remembered with the permanent where the board can't
    change it (no effects on mana, no Aura that hurts when it taps) or changes it only through
    counts (:func:`_counts_only`); ``remember``: look in and fill those memos."""
    card = perm.card
    board_dependent, pays, _, reference, commander_only, _, _, own = _card_info(card)
    key: tuple[object, ...] | None = None
    what: tuple[object, ...] = ()
    slot = -1
    if not remember:
        pass
    elif not changed and own is not None and perm.imprinted is None and perm.cast_for is None:
        slot = _own_slot(state, perm, pl, resources, commander_only)  # (cast_for: an impending permanent's types)
        hit = own.get(slot)
        if hit is not None:
            return hit
    elif not changed and (commander_only or not board_dependent) and perm.imprinted is None:
        what = _what(perm, resources)
        key = (what, perm.sick and summoning_sick(state, perm), (pl.life, pl.energy) if pays else (),
               player_identity(pl) if commander_only else -1)  # (pl controls perm)
        hit = _ROWS.get(key, card)
        if hit is not None:
            return hit
    elif not changed and perm.imprinted is None and (
            _counts_only(card) or (refs is not None and not ref_error and _mirrors_only(card))):
        # Its options read the board only through the counts its amounts make (Elvish Archdruid's
        # Elves, Gaea's Cradle's creatures) or through what its could-produce abilities mirror
        # (Exotic Orchard, Reflecting Pool, Fellwar Stone): remembered per permanent and those values.
        read = (_what(perm, resources), perm.sick and summoning_sick(state, perm),
                (pl.life, pl.energy) if pays else (), _board_reads(state, perm, refs))
        hit = _ROWS.get(read, card)
        if hit is not None:
            return hit
        made = _row(state, perm, pl, refs, effects, changed, resources, ref_error, False)
        return made if made[0] is not None else _ROWS.put(read, card, made)
    excluded: Excluded | None = None
    opts: tuple[Option, ...] = ()
    # A Spirit Guide's "exile from your hand" does nothing on the battlefield; Heritage
    # Druid's and Urza's tapping costs (models/text/tap_costs.py) are read with the resources.
    text = card_text(card)
    if resources or not text.tap_costs or (effects and _prohibited(state, perm)):
        unread = text.unread  # under a prohibition the tapping costs can't be activated (CR 602.5)
    else:
        unread = _with_tap_costs(card, text.unread)
    if unread:
        excluded = Excluded(perm.id, card.name, unread[0], UNREAD_TEXT if unread[0] in text.unread else RESOURCE_COSTS)
    elif card.mana_abilities or effects or (resources and card.unsupported):
        try:
            opts = _options(state, perm, pl, refs, changed, resources)
        except Unmodelled as skip:
            excluded = Excluded(perm.id, card.name, skip.clause, skip.reason)
        except NotOnBoard as missing:
            # what it adds depends on a field the board does not give (Chrome Mox without
            # ``imprinted``): left out, so an answer that does not need it is still given, and
            # one that might is refused naming the field
            excluded = Excluded(perm.id, card.name, "the board's " + missing.where.rsplit(".", 1)[-1],
                                str(missing.args[0]) if missing.args else str(missing), missing.where)
        else:
            if ref_error and reference:
                excluded, opts = Excluded(perm.id, card.name, "could produce", ref_error), ()
    types = perm.types
    creature = "creature" in types
    snow, kind = perm.is_snow, _kind(types)
    special = any(o.sacrifice_other or o.tap_types for o in opts)
    # Remembered rows of one card in one context hold one options object, so equal permanents fall
    # in one class; keyed by value too, so that a row made before the rows table emptied still
    # meets a row made after it (the grouping checks equality on a hash match).
    group: tuple[object, ...] = (id(opts), snow, kind, creature, None, None)
    if key is not None or slot >= 0:
        try:
            group = (id(card), hash(opts), snow, kind, creature, None, None)
        except TypeError:  # pragma: no cover - options are frozen values
            pass
    row: _Row = (excluded, opts, snow, kind, creature, creature and not perm.tapped, special, group)
    if excluded is not None:  # (an exclusion names the permanent's id)
        return row
    if slot >= 0:
        assert own is not None
        own[slot] = row
        return row
    if key is None:
        return row
    if not (perm.sick or pays or commander_only):
        _ROWS.put(what, card, row)
    return _ROWS.put(key, card, row)


def _board_reads(state: GameState, perm: Permanent, refs: dict[str, int] | None) -> tuple[object, ...]:
    """What the row of a permanent of :func:`_counts_only` or :func:`_mirrors_only` reads of the
    board: per ability, its count's value and whether its conditions hold; or the masks its
    could-produce abilities mirror."""
    abilities = perm.card.mana_abilities
    if _counts_only(perm.card):
        reads: list[object] = ["counts"]
        for ab in abilities:
            amount = ab.production.amount
            if amount is not None and amount.kind == "count":
                reads.append(evaluate_amount(amount, state, perm))
            if ab.condition is not None:
                reads.append(condition_holds(ab.condition, state, perm))
            if ab.production.instead is not None:
                reads.append(condition_holds(ab.production.instead, state, perm))
        return tuple(reads)
    from manasolver.solver.graph import reference_mask
    assert refs is not None
    return ("mirrors", *(reference_mask(state, perm, ab, refs) for ab in abilities if ab.production.reference))


#: The kinds of amount a row of :func:`_counts_only` may read: a count of permanents (its value
#: is read), or what the permanent itself holds (its counters, its removed storage counters).
_COUNTED_KINDS = ("count", "counters", "fixed", "removed")


def _counted(amount: Amount | None) -> bool:
    """Is ``amount`` (an ability's, or a condition's) one a :func:`_counts_only` row may read: none,
    or one of :data:`_COUNTED_KINDS` that reads no power?"""
    return amount is None or (amount.kind in _COUNTED_KINDS and amount.min_power is None)


def _counted_condition(condition: Condition | None) -> bool:
    """Does ``condition`` count only as :func:`_counted` amounts do (its turn, step and the
    permanent's own type are read as it is: whether it holds is read whole)?"""
    return condition is None or all(_counted(amount) and amount.kind != "removed" for amount, _ in condition.counts)


def _counts_only(card: Card) -> bool:
    """Does ``card``'s supply row read the board (without effects on mana) only through the
    values of its abilities' ``count`` amounts and whether their conditions hold (Temple of the
    False God, the Tainted lands, Urza's Tower's "instead")?  Its chosen color, counters and
    storage counters are the permanent's own.  No reference, commander identity, colors among
    permanents, count of power (which may refuse a creature's power), cards of the hand, pool
    doubling, and no mana ability read from a tapping cost's text (kept in its facts)."""
    hit: bool | None = card.facts.counts_only
    if hit is not None:
        return hit
    ok = bool(card.mana_abilities) and not card_text(card).tap_costs
    for ab in card.mana_abilities:
        production = ab.production
        amount = production.amount
        if (production.reference or production.commander or production.colors_among
                or production.instead_commander or production.instead_reference_count or production.doubles_pool
                or not _counted(amount) or not _counted_condition(ab.condition)
                or not _counted_condition(production.instead)
                or (ab.cost.remove_any and (amount is None or amount.kind != "removed"))
                or ab.cost.unmodelled or _reads_board(tuple(ab.cost.parts()))):
            ok = False
    card.facts.counts_only = ok
    return ok


def _mirrors_only(card: Card) -> bool:
    """Does ``card``'s supply row read the board (without effects on mana) only through what its
    could-produce abilities mirror of the lands of a player set?  Each ability either mirrors
    (lands you control, or your opponents': no amount, no condition, no "instead") or reads
    nothing of the board (no amount, condition, chosen color, commander identity, colors among
    permanents, "instead" production, variable counter cost or pool doubling), and no mana
    ability is read from a tapping cost's text (kept in its facts)."""
    hit: bool | None = card.facts.mirrors_only
    if hit is not None:
        return hit
    ok = bool(card.mana_abilities) and not card_text(card).tap_costs
    mirrors = False
    for ab in card.mana_abilities:
        production = ab.production
        if (ab.condition is not None or production.amount is not None or production.instead is not None
                or production.instead_options or production.instead_reference_count or ab.cost.remove_any
                or production.doubles_pool):
            ok = False
        elif production.reference:
            mirrors = True
            if production.reference not in ("lands_you_control", "lands_opponents_control"):
                ok = False
        elif production.chosen or production.commander or production.colors_among:
            ok = False
    card.facts.mirrors_only = ok and mirrors
    return ok and mirrors


def _group_with_resources(state: GameState, mine: list[tuple[int, Permanent]],
                          rows: list[tuple[int, Permanent, _Row]], reserved: frozenset[str],
                          excluded: list[Excluded], groups: dict[tuple[object, ...], tuple[list[str], list[int]]],
                          meta: dict[tuple[object, ...], tuple[tuple[Option, ...], bool, SourceKind, str, bool]],
                          ) -> tuple[dict[str, frozenset[str]], dict[str, frozenset[str]]]:
    """Group the usable rows when some option sacrifices or taps other permanents: what a member
    may be sacrificed or tapped as splits classes too; returns those signatures by id."""
    usable = [(pos, perm, row[1]) for pos, perm, row in rows]
    info = {pos: row for pos, _, row in rows}
    sac_types = sorted({t for _, _, opts in usable for o in opts for t in o.sacrifice_other})
    signature: dict[str, frozenset[str]] = {}
    if sac_types:
        usable = drop_unmodelled_altars(usable, sac_types, excluded)
        sac_types = sorted({t for _, _, opts in usable for o in opts for t in o.sacrifice_other})
        could: dict[str, int] = {}
        if any(COULD_PRODUCE in t for t in sac_types):
            from manasolver.solver.graph import reference_sets
            could = dict(reference_sets(state))
        usable, own = _others_only(usable, excluded)
        sac_types = sorted({t for _, _, opts in usable for o in opts for t in o.sacrifice_other})
        signature = {perm.id: frozenset(t for t in sac_types if _fits(perm, t, could) and t not in own.get(perm.id, ()))
                     for _, perm in mine if perm.id not in reserved}
    tap_types = sorted({t for _, _, opts in usable for o in opts for t in o.tap_types})
    tap_sig: dict[str, frozenset[str]] = {}
    if tap_types:
        tap_sig = {perm.id: frozenset(t for t in tap_types if fits_cost(perm, t))
                   for _, perm in mine if not perm.tapped}
    for pos, perm, opts in usable:
        _, _, snow, kind, creature, _, _, own_key = info[pos]
        # Equal cached options are one object (a row in a class of its own keeps its key); with
        # sacrifice costs on the board, what a member may be sacrificed as splits classes too.
        key: tuple[object, ...] = (own_key if own_key[0] is _ALONE else id(opts), snow, kind, creature,
                                   signature.get(perm.id), tap_sig.get(perm.id))
        if key not in groups:
            groups[key] = ([], [])
            meta[key] = (opts, snow, kind, perm.card.name, creature)
        groups[key][0].append(perm.id)
        groups[key][1].append(pos)
    return signature, tap_sig


def build_supply(state: GameState, player: str | None = None, resources: bool = False,
                 reserved: frozenset[str] = frozenset()) -> Supply:
    """The grouped supply of ``player`` (default: the first player) in ``state``.

    Kept in the board's view (``state.view.supplies``: states are frozen), so repeated queries
    on one board pay for grouping once.  ``resources``: model the mana abilities whose costs spend
    other resources (sacrificing other permanents, cards in the hand), which only the
    payment queries' CP-SAT and enumeration backends read; without it (the default,
    for other readers such as ``options``) those sources are listed in ``excluded``.
    ``reserved``: permanents no other cost may sacrifice (the source of an activated
    ability whose cost sacrifices it: Mind Stone's "{1}, {T}, Sacrifice Mind Stone", CR
    602.2b; its cost is paid in 601.2h, after the mana abilities).
    """
    name = state.player(player).name if player is not None else state.players[0].name
    supplies = state.view.supplies
    key = (name, resources, reserved)
    hit: Supply | None = supplies.get(key)
    if hit is None:
        if len(supplies) >= _SUPPLIES_PER_BOARD:
            supplies.clear()
        hit = supplies[key] = _build(state, name, resources, reserved)
    return hit


#: The first item of the class key of a row in a class of its own (:func:`_rows`, on a board with
#: effects on mana).
_ALONE = "alone"


#: Supplies one board's view keeps (players by resources by reserved sets); past this it starts again.
_SUPPLIES_PER_BOARD = 64


_CLASS_SLOTS = slot_setters(SourceClass)


def _classes(groups: Iterable[tuple[tuple[str, ...], tuple[int, ...], _Row, str]]) -> list[SourceClass]:
    """A :class:`SourceClass` of permanents (no ``hand``) per group of members, positions, row and
    card name, in order, as its ``__init__`` makes them, each set through its slots in one loop
    (a board's supply makes one per group of its permanents)."""
    new = object.__new__
    s0, s1, s2, s3, s4, s5, s6, s7 = _CLASS_SLOTS
    out: list[SourceClass] = []
    for members, positions, row, name in groups:
        options = row[1]
        k = new(SourceClass)
        s0(k, members)
        s1(k, positions)
        s2(k, options if type(options) is Options else Options(options))
        s3(k, row[2])
        s4(k, row[3])
        s5(k, name)
        s6(k, row[4])
        s7(k, ())
        out.append(k)
    return out


def _rows(state: GameState, pl: Player, resources: bool,
          effects: bool | None = None) -> tuple[list[tuple[int, Permanent, _Row]], int]:
    """The rows of the permanents ``pl`` controls that hold something the supply's classes or
    exclusions read (options, or why the permanent is left out), in board order, with their
    positions, and how many of its permanents are untapped creatures (a row of neither, a tapped
    land's, counts only there).

    On a board without effects on mana (``effects`` None) each row is remembered with what the
    permanent is (one lookup, the common case) or made.  On a board with effects on mana
    (``effects``: whether some are in force, False for only Auras or triggers that hurt when a
    permanent taps) the permanents they may reach
    (:func:`~manasolver.models.rules.board_effects.reached_by_effects`, None: any) have their rows
    made on the board; the others have those of a board without them, and every row is in a class
    of its own: its class key names it (:data:`_ALONE`), and its options stay the remembered ones,
    with what readers computed on them.  What referential abilities mirror is read at the first row
    to make that reads it (a row that does not never reads it).  A permanent no effect reaches whose
    card is bare (no mana ability and no clause about mana the parser left: ``Card.unsupported``
    holds every unread clause and every tapping cost read from the text; most creatures) has no
    row: it would hold no option and no exclusion, so it counts only as an untapped creature."""
    name = pl.name
    changed = effects is not None
    reached = reached_by_effects(state) if changed else None
    lookup = _ROWS.lookup()
    refs: dict[str, int] | None = None
    ref_error = ""
    read = False
    out: list[tuple[int, Permanent, _Row]] = []
    creatures = 0
    slot = 4 * resources  # the rows' slots as :func:`_own_slot` makes them, inline: a call fewer per permanent
    identity = -1  # the slot's commander bits, read at the first card that reads them
    for pos, perm in enumerate(state.battlefield):
        if perm.controller != name:
            continue
        card = perm.card
        row = None
        if changed and (reached is None or perm.id in reached):
            if not read and _card_info(card)[3]:
                refs, ref_error = _references(state)
                read = True
            row = _row(state, perm, pl, refs, bool(effects), True, resources, ref_error)
            creatures += row[5]
            if row[1] or row[0] is not None:  # (a row that holds something)
                out.append((pos, perm, row))
            continue
        if not (card.mana_abilities or card.unsupported):  # (a bare card: no row)
            creatures += not perm.tapped and perm.is_creature
            continue
        info = card.facts.supply_info
        if perm.imprinted is None:
            if info is not None and info[7] is not None and perm.cast_for is None:
                at = slot + 2 * perm.tapped + (perm.sick and summoning_sick(state, perm))
                if info[4]:
                    if identity < 0:
                        identity = 8 * player_identity(pl)
                    at += identity
                row = info[7].get(at)
            else:
                # the key of _what, made here: one lookup per permanent
                entry = lookup((id(card), resources) + perm[2:])
                if entry is not None and entry[0] is card:
                    row = entry[1]
        if row is None:
            if not read and _card_info(card)[3]:
                refs, ref_error = _references(state)
                read = True
            row = _row(state, perm, pl, refs, False, False, resources, ref_error)
        creatures += row[5]
        if row[1] or row[0] is not None:  # (a row that holds something)
            if changed and row[0] is None:
                row = (None, row[1], row[2], row[3], row[4], row[5], row[6], (_ALONE, perm.id))
            out.append((pos, perm, row))
    return out, creatures


def _references(state: GameState) -> tuple[dict[str, int] | None, str]:
    """What referential abilities mirror (lands only: :func:`~manasolver.solver.graph.reference_sets`),
    or None and why it can't be read."""
    from manasolver.solver.graph import reference_sets
    try:
        return reference_sets(state), ""
    except Unsupported as err:
        return None, err.message


def _build(state: GameState, name: str, resources: bool, reserved: frozenset[str] = frozenset()) -> Supply:
    try:
        pl = state.player(name)
    except KeyError:
        raise BadState(f"no player named {name!r}", "player") from None
    effects = active_effects(state)
    # Board-dependent abilities: effects on mana, or Auras that hurt when what they enchant taps.
    if effects or tap_damage_from_attachments(state):
        made, creatures = _rows(state, pl, resources, bool(effects))
    else:
        made, creatures = _rows(state, pl, resources)
    excluded: list[Excluded] = []
    special = False
    # Grouped as they come, in order of their first member, unless some option sacrifices or
    # taps other permanents (then _group_with_resources groups them again).
    simple: dict[tuple[object, ...], tuple[tuple[str, ...], tuple[int, ...], _Row, str]] = {}
    get = simple.get
    for pos, perm, row in made:
        if row[0] is not None:
            excluded.append(row[0])
            continue
        if special:
            continue
        opts = row[1]
        if row[6]:
            special = True
            continue
        gkey = row[7]
        group = get(gkey)
        if group is not None and group[2][1] is not opts and group[2][1] != opts:
            gkey = (id(opts), row[2], row[3], row[4], None, None)  # a hash collision
            group = get(gkey)
        if group is None:
            simple[gkey] = ((perm.id,), (pos,), row, perm.card.name)
        else:
            simple[gkey] = (group[0] + (perm.id,), group[1] + (pos,), row, group[3])
    signature: dict[str, frozenset[str]] = {}
    tap_sig: dict[str, frozenset[str]] = {}
    mine: list[tuple[int, Permanent]] = []
    if not special:  # classes come out in order of their first member
        classes = _classes(simple.values())
    else:
        mine = [(pos, perm) for pos, perm in enumerate(state.battlefield) if perm.controller == name]
        rows = [(pos, perm, row) for pos, perm, row in made if row[0] is None]
        groups: dict[tuple[object, ...], tuple[list[str], list[int]]] = {}
        meta: dict[tuple[object, ...], tuple[tuple[Option, ...], bool, SourceKind, str, bool]] = {}
        signature, tap_sig = _group_with_resources(state, mine, rows, reserved, excluded, groups, meta)
        classes = []
        for gkey, (ids, positions) in groups.items():
            opts, snow, kind, cname, creature = meta[gkey]
            classes.append(SourceClass(tuple(ids), tuple(positions), opts, snow, kind, cname, creature))
        classes.sort(key=lambda k: k.positions[0])
    if resources:
        classes.extend(hand_classes(pl, len(state.battlefield)))
    fodder = fodder_groups(mine, classes, signature, tap_sig, False) if signature else ()
    if special and resources:  # cards of the hand or graveyard that costs discard or exile
        fodder += zone_fodder(pl, classes, len(state.battlefield))
    tappable = fodder_groups(mine, classes, signature, tap_sig, True) if tap_sig else ()
    return Supply(name, pool_units(pl), tuple(classes), tuple(excluded), pl.life, pl.energy,
                  creatures, fodder, tappable)


