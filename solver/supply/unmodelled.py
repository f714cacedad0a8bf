"""What the engine does not model: every refusal of a question it can't answer exactly.

An answer that ignored an unmodelled source or rule could be wrong, so instead of guessing these
functions raise :class:`~manasolver.models.errors.Unsupported` with a message naming the permanent
and clause and a ``where`` path (``battlefield[i]``, ``hand[i]``, ``cost``, ``spell``).

- :func:`guard_excluded`: sources the supply model leaves out (``Supply.excluded``: unreadable mana
  text, an Altar whose fodder has a usable mana ability that costs mana, triggered mana from a snow
  source) when the cost is unpayable without them;
- :func:`guard_doublers`: a pool doubler (Doubling Cube, CR 106.6 example) that could be activated now;
- :func:`guard_prohibitions`: a permanent that stops some of the player's mana abilities (CR
  602.5) where the supply does not apply it (a chosen name not given, a prohibition the effects
  reader does not read); Null Rod and Cursed Totem are applied;
- :func:`guard_tap_triggers`: a trigger on becoming tapped that payments do not apply (Seizures,
  Royal Decree), or an Aura's tap damage when a cost or convoke/improvise could tap its creature;
- :func:`guard_ability_effects`, :func:`guard_activation`, :func:`guard_ability_cost`: activating
  an ability whose cost, condition or board effects this engine does not apply;
- :func:`guard_payment_rules`: rules of paying that the payment model can't say: a spell's own
  "Spend only mana produced by …" (Myr Superion, Imperiosaur), "For each {B} in a cost, you may
  pay 2 life rather than pay that mana" (K'rrik, Son of Yawgmoth) on a cost with black in it,
  the type and color changes of Mycosynth Lattice and Celestial Dawn where something the payment
  reads depends on them (:func:`guard_layer_changes`), and a haste grant the reader did not
  follow where a summoning-sick creature could tap for mana;
- :func:`guard_spent_on_costs`: convoke beside a "spend mana as though it were …" rule (CR 609.4b)
  or with recolored creatures; :func:`guard_spent_on_activations`: such a rule on a mana
  ability's own cost in the ``options`` query (filter lands under Chromatic Orrery);

:func:`refuse_payment` and :func:`refuse_options` are what every query asks before it is answered:
the checks above that read the whole board (the triggers on becoming tapped and the checks of
``options`` run once per board, :func:`once`: the outcome is kept in the board's view,
``state.view.checks``, so a board kept between queries is checked once for all of them).  A check
that reads particular cards reads only the permanents marked for it
(:mod:`manasolver.models.rules.marks`: a card's marks read once, the board's marked permanents
found in one pass shared with the rules and the cast request), so a board without any such card
costs that one pass; a check that reads the effects in force, the
prohibitions or the grants runs only where a permanent prints one (``NOTABLE``, the permanents all
of them read).
While the supply is built, what it leaves out (listed in ``Supply.excluded``, then refused by
:func:`guard_excluded` when it matters) is decided here too: :func:`ability_gap` and
:func:`repeatable_gap` (mana abilities this model does not cover, raised as
:class:`Unmodelled`), the reasons :data:`UNREAD_TEXT`, :data:`NO_REFERENCES`,
:data:`SNOW_TRIGGERS`, :data:`RESTRICTED_TRIGGERS`, and :func:`drop_unmodelled_altars` (Altars
whose fodder has a mana ability that costs mana).
"""

from __future__ import annotations

import copy
import dataclasses
import re
from collections.abc import Callable, Hashable
from typing import TYPE_CHECKING

from manasolver.models.abilities import AbilityCost, ManaAbility
from manasolver.models.card import Card
from manasolver.models.effects import SpendTable
from manasolver.models.errors import ManasolverError, Unsupported
from manasolver.models.rules.board_effects import (
    active_effects,
    effective_mana_abilities,
    mana_prohibitions,
    reached_by_effects,
    tap_damage_beyond_mana,
    unread_tap_triggers,
)
from manasolver.models.rules.counts import (
    payment_spend_rules,
    payment_spend_table,
    spend_effects,
    spend_rules,
    spend_table,
    unowned_spend_rules,
)
from manasolver.models.rules.granted import summoning_sick, unread_haste
from manasolver.models.rules.marks import (
    ALL_ARTIFACTS,
    COLOR_READERS,
    GRAVEYARD,
    LAYER_LINES,
    LAYERS,
    NOTABLE,
    OWN_SPENDING,
    OWN_SPENDING_RULE,
    PAYING,
    POWER,
    POWER_READERS,
    RECOLORS,
    SPELLS_COLORLESS,
    SPELLS_WHITE,
    UNCHECKED,
    board_marks,
    graveyard_mana_line,
    marked,
    marks,
    paying_clause,
    power_change,
    reads_power,
)
from manasolver.models.state import GameState, Permanent, fits_cost
from manasolver.models.symbols import C
from manasolver.models.text.mana_abilities import BECOMES_THAT_COLOR
from manasolver.models.text.read import card_text
from manasolver.models.text.tap_costs import tap_costs
from manasolver.solver.request import PaymentRequest, SpellInfo
from manasolver.solver.supply.abilities_of import guard_abilities_of
from manasolver.solver.supply.model import Excluded, Option, Supply

if TYPE_CHECKING:
    from manasolver.models.text.activated import ActivatedAbility

__all__ = ["CHECKS_LIMIT", "NO_REFERENCES", "RESOURCE_COSTS", "RESTRICTED_TRIGGERS",
           "SNOW_TRIGGERS", "UNREAD_TEXT", "Unmodelled", "ability_gap", "drop_unmodelled_altars",
           "guard_ability_cost", "guard_ability_effects", "guard_activation", "guard_doublers", "guard_excluded",
           "guard_payment_rules", "guard_power_changes", "guard_prohibitions", "guard_recolored_sources",
           "guard_spent_on_activations", "guard_spent_on_costs", "guard_tap_triggers", "guard_unread_haste",
           "once", "refuse_options", "refuse_payment", "repeatable_gap"]

#: Why a permanent is left out of the supply (``Excluded.reason``).
UNREAD_TEXT = "the card has mana text the parser could not read"
NO_REFERENCES = "could-produce references need manasolver.solver.graph"
SNOW_TRIGGERS = "triggered mana from a snow source is not modelled yet"
RESTRICTED_TRIGGERS = "restricted mana with unrestricted triggered mana is not modelled yet"
_ALTARS = "sacrificing a permanent whose own mana ability costs mana is not modelled yet"
_QUERIES_ONLY = "modelled only by the payment queries (pay, can_pay, max_x, payments)"
#: Why a permanent whose mana ability's cost spends other permanents or cards (read by
#: models/text/tap_costs.py) is left out of a supply built without those resources (``options``).
RESOURCE_COSTS = "costs that tap, sacrifice, discard or exile other permanents or cards are " + _QUERIES_ONLY


#: Entries of one board's memo of checks (``state.view.checks``); past this it starts again empty.
CHECKS_LIMIT = 256


def refuse_payment(req: PaymentRequest, tap_triggers: bool = True) -> None:
    """Refuse a payment question (``pay``, ``can_pay``, ``payments``, ``max_x``) whose answer
    something this engine does not model could change: prohibitions on mana abilities (where a
    permanent prints one), the rules of paying (:func:`guard_payment_rules`), and, for answers
    that state life and damage (``tap_triggers``), triggers on becoming tapped.

    The prohibitions and the rules of paying are read for every question: what they read of the
    board is kept in its view, so on most boards they cost a few tests of its marks, less than
    keeping their outcome by the request's fields would (and a board kept between queries keeps
    its whole answers, :mod:`~manasolver.solver.service.boards`).  The triggers on becoming tapped
    run once per board and assist flags (:func:`once`)."""
    if marked(req.state, NOTABLE):
        guard_prohibitions(req.state, req.player)
    guard_payment_rules(req)
    if tap_triggers:
        once(req.state, ("tap_triggers", req.convoke, req.improvise), (), lambda: guard_tap_triggers(req))


def refuse_options(state: GameState, player: str) -> None:
    """Refuse the ``options`` question where this engine does not model the board: prohibitions on
    mana abilities and haste grants it does not read (each once per board, :func:`once`)."""
    once(state, ("prohibitions", player), (), lambda: guard_prohibitions(state, player))
    once(state, ("unread_haste", player), (), lambda: guard_unread_haste(state, player))
    guard_power_changes(state, player)
    guard_recolored_sources(state, player)


def once(state: GameState, key: Hashable, objects: tuple[object, ...], check: Callable[[], None]) -> None:
    """Run ``check`` (a guard that raises an :class:`Unsupported` or other
    :class:`~manasolver.models.errors.ManasolverError` to refuse) once per board and ``key``: its
    outcome is kept in the board's view (``state.view.checks``), and a refusal is raised again as
    a fresh copy.

    ``key`` must name everything ``check`` reads besides the board; objects it names by ``id``
    are passed in ``objects``, kept alive by the entry and compared by identity on a hit."""
    memo = state.view.checks
    hit = memo.get(key)
    if hit is not None and len(hit[0]) == len(objects) and all(a is b for a, b in zip(hit[0], objects)):
        if hit[1] is not None:
            raise copy.copy(hit[1])
        return
    try:
        check()
    except ManasolverError as err:
        _store(memo, key, (objects, copy.copy(err)))
        raise
    _store(memo, key, (objects, None))


def _store(memo: dict[Hashable, tuple[tuple[object, ...], ManasolverError | None]], key: Hashable,
           value: tuple[tuple[object, ...], ManasolverError | None]) -> None:
    if len(memo) >= CHECKS_LIMIT:
        memo.clear()
    memo[key] = value


class Unmodelled(Exception):
    """A mana ability this model does not cover (``clause``: its text): the permanent is left
    out of the supply, and listed in ``Supply.excluded`` with ``reason``."""

    def __init__(self, clause: str, reason: str) -> None:
        super().__init__(reason)
        self.clause = clause
        self.reason = reason


def ability_gap(ab: ManaAbility, resources: bool) -> str | None:
    """Why the supply can't model mana ability ``ab`` at all, or ``None``: a cost that
    sacrifices other permanents (without ``resources``), pool doubling (CR 106.6 example), a cost
    that discards the hand, a cost read with the reason it can't be paid (``AbilityCost.unmodelled``:
    milling, mana by the sacrificed permanent's mana value)."""
    if ab.cost.unmodelled:
        return ab.cost.unmodelled
    if ab.cost.sacrifice and not resources:
        return "costs that sacrifice other permanents are " + _QUERIES_ONLY
    if ab.production.doubles_pool:
        return "abilities that double the mana pool are not modelled yet"
    if ab.cost.discard_hand and not resources:
        return "costs that discard the hand are " + _QUERIES_ONLY
    if ab.production.amount is not None and ab.production.amount.kind == "history":
        return f"it adds mana by {ab.production.amount.name}, which the board does not hold"
    return None


def repeatable_gap(cost: AbilityCost, tap_count: int, resources: bool) -> str | None:
    """Why a repeatable ability (no ``{T}``, ``{Q}`` or "sacrifice this" in its cost) with
    ``cost`` can't be modelled, or ``None``.  Without ``resources`` (readers other than the
    payment queries, such as ``options``): one that taps ``tap_count`` other permanents, one with
    a mana cost (Signpost Scarecrow), one with a variable counter cost (storage lands).  The
    payment queries' CP-SAT model counts such activations per member
    (:mod:`manasolver.solver.backends.cpsat.repeats`); putting counters as a cost (Wall of
    Roots' -0/-1 counter) is always payable (CR 118.3), so it needs nothing."""
    if tap_count and not resources:
        return "a repeatable ability that taps other permanents is " + _QUERIES_ONLY
    if cost.mana and not resources:
        return "a repeatable mana ability with a mana cost is " + _QUERIES_ONLY
    if cost.remove_any and not resources:
        return "a repeatable ability with a variable counter cost is " + _QUERIES_ONLY
    return None


def guard_excluded(supply: Supply, req: PaymentRequest) -> None:
    """Refuse to call a cost unpayable when unmodelled sources or ways of paying exist
    (``supply.excluded``: what the supply model still leaves out)."""
    if supply.excluded:
        e = supply.excluded[0]
        index = next((i for i, p in enumerate(req.state.battlefield) if p.id == e.permanent), None)
        if e.where:  # a field the board does not give
            raise Unsupported(f"{e.reason}; it might help pay this", e.where)
        raise Unsupported(f"{e.name} ({e.permanent}) might help pay this, but its mana ability is "
                          f"not supported: {e.clause!r} ({e.reason})",
                          f"battlefield[{index}]" if index is not None else "battlefield")


def guard_doublers(req: PaymentRequest, supply: Supply,
                   payable: Callable[[PaymentRequest], bool]) -> Supply:
    """Refuse a payment answer that a pool doubler (Doubling Cube) could change.

    The optimisers do not model "double the amount of each type of unspent mana"
    (CR 106.6 example), so when ``req``'s player has a doubler that could be
    activated now (the non-mana parts of its cost payable: untapped, not summoning
    sick; its mana cost payable by the rest of the board, as ``payable`` of the
    sub-request says) an answer ignoring it may be wrong (unpayable) or not optimal
    (8 Forests and a Cube pay {8} leaving a Forest untapped): this raises
    :class:`Unsupported` naming it and its ``battlefield[i]`` position.  Otherwise
    the doublers can't matter, and the supply is returned without them in
    ``excluded`` (a tapped Cube does not make an unpayable answer unsupported).
    ``can_pay`` calls this only when its answer is false: a payment found without
    the doubler is a payment.
    """
    from manasolver.solver.pools.doublers import find_doublers
    idle: set[str] = set()
    doublers = find_doublers(req.state, supply.player)
    most = _most_mana(supply, {d.permanent for d in doublers})
    for d in doublers:
        perm = req.state.battlefield[d.position]
        for ab in d.usable:
            source = SpellInfo.of_ability(perm.card, perm.types)
            sub = PaymentRequest(req.state, ab.cost.mana, supply.player, spell=source)
            if ab.cost.mana and most is not None and most <= ab.cost.mana.mana_value():
                continue  # nothing would be left unspent to double once its own cost is paid
            if not ab.cost.mana or payable(sub):
                raise Unsupported(f"{d.name} ({d.permanent}) could be activated now "
                                  f"({ab.text or 'doubles the mana pool'}); payments with a pool "
                                  "doubler are not modelled (CR 106.6 example)", f"battlefield[{d.position}]")
        if d.only:
            idle.add(d.permanent)
    if not idle:
        return supply
    return dataclasses.replace(supply, excluded=tuple(e for e in supply.excluded if e.permanent not in idle))


def _most_mana(supply: Supply, doublers: set[str]) -> int | None:
    """An upper bound on the mana ``supply`` could ever put in its player's pool (floating mana and
    every option of every source at its most), or ``None`` when a source other than the
    ``doublers`` is left out of it."""
    if any(e.permanent not in doublers for e in supply.excluded):
        return None
    total = sum(n for _, n in supply.pool)
    for k in supply.classes:
        per = [len(o.slots) * (1 if o.exclusive else o.repeat) for o in k.options]
        exclusive = max((len(o.slots) for o in k.options if o.exclusive), default=0)
        total += len(k.members) * max(exclusive + sum(p for o, p in zip(k.options, per) if not o.exclusive),
                                      max(per, default=0))
    return total


def drop_unmodelled_altars(usable: list[tuple[int, Permanent, tuple[Option, ...]]], sac_types: list[str],
                           excluded: list[Excluded]) -> list[tuple[int, Permanent, tuple[Option, ...]]]:
    """Leave out (and list in ``excluded``) the permanents whose costs sacrifice a type that a
    permanent with a mana-costing mana ability has: its own activation would have to come before
    the sacrifice and the Altar's mana after it (601.2g), an order this model does not track."""
    costly = [perm for _, perm, opts in usable if any(not o.free for o in opts)]
    bad = {t for t in sac_types if any(fits_cost(p, t.partition(" that could produce ")[0]) for p in costly)}
    if not bad:
        return usable
    out = []
    for pos, perm, opts in usable:
        hit = next((o for o in opts if bad & set(o.sacrifice_other)), None)
        if hit is None:
            out.append((pos, perm, opts))
            continue
        excluded.append(Excluded(perm.id, perm.card.name, " ".join(hit.costs), _ALTARS))
    return out


def guard_prohibitions(state: GameState, player: str) -> None:
    """Refuse when a permanent stops some of the player's mana abilities (Null Rod, Cursed
    Totem, CR 602.5): the payment engine does not apply it yet and would use them."""
    found = mana_prohibitions(state, player)
    if found:
        perm, text = found[0]
        index = next(i for i, p in enumerate(state.battlefield) if p.id == perm.id)
        if "the chosen" in text and perm.chosen_name is None:
            raise Unsupported(f"{perm.card.name} ({perm.id}): {text!r} may stop a nonland permanent's mana "
                              f"abilities on this board, and what was chosen as it entered is not given (chosen)",
                              f"battlefield[{index}].chosen")
        raise Unsupported(f"{perm.card.name} ({perm.id}): {text!r} stops mana abilities this engine would "
                          f"otherwise use; it is not applied yet", f"battlefield[{index}]")


def guard_tap_triggers(req: PaymentRequest) -> None:
    """Refuse a payment answer on a board with a trigger on becoming tapped that payments do
    not apply (Seizures, Royal Decree): its damage or life loss would be missing."""
    found = unread_tap_triggers(req.state)
    found += _tap_damage_beyond_mana(req)
    if found:
        perm, text = found[0]
        index = next(i for i, p in enumerate(req.state.battlefield) if p.id == perm.id)
        raise Unsupported(f"{perm.card.name} ({perm.id}): {text!r} is a trigger on becoming tapped that "
                          f"payments do not apply yet; the damage or life it costs would be missing",
                          f"battlefield[{index}]")


def _tap_damage_beyond_mana(req: PaymentRequest) -> list[tuple[Permanent, str]]:
    """Triggers that hurt when a creature or artifact becomes tapped (Insolence, Royal Decree on a
    black creature) count on its mana abilities only; convoke, improvise, Springleaf Drum or
    Heritage Druid would tap it without them (CR 603.2, 701.26a): refused rather than answered
    without the damage."""
    hurt = tap_damage_beyond_mana(req.state)
    if not hurt:
        return []
    by_id = {p.id: p for p in req.state.battlefield}
    tappers = req.convoke or req.improvise or any(
        any(a.cost.tap_creatures for a in p.card.mana_abilities) or any(t.count for t in tap_costs(p.card))
        for p in req.state.battlefield)
    out = []
    for pid, (source, _) in hurt.items():
        perm = by_id.get(pid)
        if perm is not None and tappers and (perm.is_creature or perm.is_artifact):
            why = f"damage when {perm.card.name} ({pid}) becomes tapped by a cost or by convoke/improvise"
            out.append((source, why))
    return out


# -- activating abilities (CR 602) ----------------------------------------------------------

_ONLY_IF = re.compile(r"Activate (?:this ability )?only (?:if|during|before|when|while)\b[^.]*\.?")

def guard_ability_effects(state: GameState, source: Permanent) -> None:
    """Refuse when a permanent's text changes what activating abilities costs or whether
    they can be activated (Suppression Field, Stony Silence, Pithing Needle: CR 601.2f via
    602.2b, 602.5): this engine applies no such effect to abilities yet."""
    for i, perm in enumerate(state.battlefield):
        line = card_text(perm.card).about_activation
        if perm is not source and line:
            raise Unsupported(f"{perm.card.name} ({perm.id}): {line[:160]!r} affects activated abilities, "
                              f"which this engine does not apply yet", f"battlefield[{i}]")


def guard_activation(card: Card, ability: ActivatedAbility) -> None:
    """Refuse an ability whose cost was not read, or with a condition on activating it that
    this engine does not check (CR 602.5b)."""
    if ability.cost is None:
        raise Unsupported(f"{card.name}: the cost of {ability.text!r} is not understood "
                          f"({ability.unread})", "spell.ability")
    condition = _ONLY_IF.search(ability.text)
    if condition:
        raise Unsupported(f"{card.name}: {condition.group(0)!r} is a condition on activating it that this "
                          f"engine does not check yet (CR 602.5b)", "spell.ability")


def guard_ability_cost(name: str, cost: AbilityCost) -> None:
    """Refuse an ability's cost that spends other permanents or cards (sacrifice another
    permanent, tap other creatures, discard the hand): not spent for abilities."""
    if cost.sacrifice or cost.tap_creatures or cost.discard_hand:
        raise Unsupported(f"{name}: paying {', '.join(cost.parts())} needs other permanents or cards, "
                          f"which this engine does not spend for abilities yet", "spell.ability")


# -- rules of paying the payment model can't say -----------------------------------------------

def guard_power_changes(state: GameState, player: str) -> None:
    """Refuse where a static change of power or toughness (an anthem, an Equipment, an Aura, a lord)
    could change what a mana ability of ``player``'s permanents reads of power or toughness
    (Selvala, Heart of the Wilds; Vhal; Furgul's sacrificed creature): the engine reads printed power
    and toughness with counters, and applies no layer-7 effect (CR 613.4)."""
    changers = marked(state, POWER)
    if not changers:
        return
    reader: Permanent | None = None
    for _, candidate in marked(state, POWER_READERS):  # (most boards have none: a loop costs less than a generator)
        if candidate.controller == player:
            reader = candidate
            break
    if reader is None:
        if not active_effects(state):
            return
        reader = _granted_reader(state, player)
        if reader is None:
            return
    i, perm = changers[0]
    line = power_change(perm.card.oracle_text)
    raise Unsupported(f"{perm.card.name} ({perm.id}): {line!r} changes power or toughness, which the mana of "
                      f"{reader.card.name} ({reader.id}) reads; this engine reads printed power and toughness "
                      f"with counters and applies no such effect yet (CR 613.4)", f"battlefield[{i}]")


def _granted_reader(state: GameState, player: str) -> Permanent | None:
    """The first of ``player``'s permanents, in board order, whose mana abilities now (a granted or
    held one too) read power or toughness, or None, on a board with effects in force and none of
    ``player``'s printed abilities reading it (no :data:`POWER_READERS` mark).

    Only the permanents the board's effects may reach are read
    (:func:`~manasolver.models.rules.board_effects.reached_by_effects`, which the supply reads
    too): another has the abilities its card prints, unmarked, and reading them raises nothing,
    since every grant in force was read on every permanent to find that reach (a grant whose
    condition does not hold gives nothing and reads no permanent).  When the reach is any
    permanent, or reading it raises, every permanent is read, so a refusal raised while reading
    their abilities is the one it always was."""
    from manasolver.solver.graph import abilities_of
    try:
        reached = reached_by_effects(state)
    except ManasolverError:
        reached = None
    return next((p for p in state.battlefield if p.controller == player and (reached is None or p.id in reached)
                 and any(reads_power(ab) for ab in abilities_of(state, p))), None)


#: Celestial Dawn's rule of paying (CR 609.4b), for the readers that sort out the boards where no
#: rule of paying applies (the payment applies it: models.effects.SpendTable).
ONLY_AS_COLORLESS = "spend other mana only as though it were colorless mana"


def guard_payment_rules(req: PaymentRequest) -> None:
    """Refuse a payment question (or a ``validate``) whose answer a rule of paying not modelled
    could change (see the module docstring): the spell's own spending rule, life for a colored
    symbol (when the cost, or an increase, has a symbol of that color that is not already
    Phyrexian), spending mana only as colorless, or a haste grant not read while the player has
    a summoning-sick creature with a mana ability that taps or untaps it."""
    state, player, spell = req.state, req.player, req.spell
    card = spell.card if spell is not None else None
    if spell is not None and card is not None and not spell.ability and OWN_SPENDING in marks(card):
        m = OWN_SPENDING_RULE.search(card.oracle_text)
        if m and "this way" not in m.group(0):  # applied by the supply (supply/own_spending.py)
            from manasolver.solver.supply.own_spending import guard_own_spending
            guard_own_spending(state, player, spell)
        elif m and req.alternative is not None:
            raise Unsupported(f"{card.name}: {m.group(0)!r} is a spending rule of the spell itself, which "
                              f"this engine does not apply yet", "spell")
    # each guard reading marks runs where its mark is on the board (no permanent is marked on most
    # boards), and each reading the effects in force or the grants where a permanent prints one
    # (NOTABLE: what they read; most boards have none)
    index = board_marks(state)
    printed = NOTABLE in index
    if spell is not None:
        if UNCHECKED in index:
            _guard_unchecked_restrictions(req)
        if printed:
            _guard_unowned(req)
    _guard_graveyard_mana(req)
    if POWER in index:
        guard_power_changes(state, player)
    if LAYERS in index:
        guard_layer_changes(req)
    if req.convoke or req.improvise:
        _guard_assist_layers(req)
    if RECOLORS in index:
        guard_recolored_sources(state, player)
    if printed:
        guard_abilities_of(req)
    for i, perm in index.get(PAYING, ()):
        if perm.controller != player:
            continue
        costs = [req.cost] + [mod.cost for mod in req.modifiers if mod.kind == "increase" and mod.cost is not None]
        m = paying_clause(perm.card.oracle_text)
        assert m is not None  # (what the mark says)
        bit = {"W": 1, "U": 2, "B": 4, "R": 8, "G": 16}[m.group(1)]
        if any(s.colors & bit and not s.phyrexian for c in costs for s in c.symbols):
            raise Unsupported(f"{perm.card.name} ({perm.id}): {m.group(0)!r} is not modelled yet: paying "
                              f"{m.group(2)} life for a {{{m.group(1)}}} of this cost could change the answer",
                              f"battlefield[{i}]")
    if printed:
        guard_unread_haste(state, player)


def _guard_unowned(req: PaymentRequest) -> None:
    """Refuse a named spell or ability with a colored symbol in its cost beside a 609.4b rule for
    spells its player doesn't own and abilities of permanents they control but don't own (Nathan
    Drake, Treasure Hunter): the board says nothing of owners, and the rule lets any mana pay
    that symbol (a cost of no named spell is not reached, as by any rule limited to some spells)."""
    rules = unowned_spend_rules(req.state, req.player)
    if not rules:
        return
    costs = [req.cost] + [mod.cost for mod in req.modifiers if mod.kind == "increase" and mod.cost is not None]
    if not any(s.colors for c in costs for s in c.symbols):
        return
    source, effect = rules[0]
    index = next(i for i, p in enumerate(req.state.battlefield) if p.id == source.id)
    what = "the ability's source" if req.spell is not None and req.spell.ability else "the spell"
    raise Unsupported(f"{source.card.name} ({source.id}): {effect.text!r} lets any mana pay this cost's colored "
                      f"symbols if its player does not own {what}, which the board does not say (CR 609.4b)",
                      f"battlefield[{index}]")


def guard_spent_on_costs(req: PaymentRequest) -> None:
    """Refuse the color changes convoke would read (:func:`guard_layer_changes` has the others),
    and convoke beside a "spend mana as though it were …" rule (CR 609.4b) that changes what mana
    pays the total: a convoked creature is not mana (CR 702.51a) and pays by its colors, which the
    widened demands do not keep apart.  (What pays an activation's own cost under such a rule is
    applied: :func:`~manasolver.solver.backends.problem.spending_supply`.)"""
    _guard_assist_layers(req)
    if not req.convoke:
        return
    creatures = any(p.controller == req.player and p.is_creature and not p.tapped for p in req.state.battlefield)
    if creatures and not payment_spend_table(req.state, req.player, req.spell).identity:
        source, effect = payment_spend_rules(req.state, req.player, req.spell)[0]
        index = next(i for i, p in enumerate(req.state.battlefield) if p.id == source.id)
        raise Unsupported(f"{source.card.name} ({source.id}): {effect.text!r} changes what mana pays this cost "
                          f"(CR 609.4b) but not what a convoked creature pays (702.51a), which this engine does "
                          f"not tell apart yet", f"battlefield[{index}]")


def guard_spent_on_activations(state: GameState, supply: Supply) -> None:
    """Refuse, for the ``options`` query, a "spend mana as though it were …" rule (CR 609.4b) that
    would change what mana pays the mana cost of one of the supply's activations (a filter land's
    ``{W/U}`` under Chromatic Orrery, its ``{R/G}`` under Celestial Dawn): its pools read those
    costs by type.  The rules reaching an activation's cost are its controller's (or every
    player's) not limited to spells, and its source's own
    (:func:`~manasolver.models.rules.counts.spend_rules` for an ability of that card)."""
    if not spend_effects(state):
        return
    for cls in supply.classes:
        if cls.hand or not any(o.mana_cost for o in cls.options):
            continue
        table = spend_table(state, supply.player, None, cls.name)
        if table.identity:
            continue
        for opt in cls.options:
            for sym in opt.mana_cost.symbols:
                if sym.special or sym.is_numeral:
                    continue
                mask = sym.colors | (C if sym.colorless else 0)
                if table.mask(mask) != mask:
                    source, effect = next((p, e) for p, e in spend_rules(state, supply.player, None, cls.name)
                                          if SpendTable.of((e,)).mask(mask) != mask)
                    index = next(i for i, p in enumerate(state.battlefield) if p.id == source.id)
                    raise Unsupported(f"{source.card.name} ({source.id}): {effect.text!r} changes what mana pays "
                                      f"{sym.text} of {cls.name}'s mana ability {opt.ability!r} (CR 609.4b), which "
                                      f"the options query does not apply yet (pay, can_pay and payments do)",
                                      f"battlefield[{index}]")


_ARTIFACT_WORD = re.compile(r"\bartifacts?\b", re.IGNORECASE)


def _layer_sources(state: GameState) -> list[tuple[int, Permanent, str]]:
    """(position, permanent, clause) of each of those clauses on the battlefield."""
    out: list[tuple[int, Permanent, str]] = []
    for i, perm in marked(state, LAYERS):
        for line in perm.card.oracle_text.split("\n"):
            if line.strip() in LAYER_LINES:
                out.append((i, perm, line.strip()))
    return out


def guard_layer_changes(req: PaymentRequest) -> None:
    """Refuse where Mycosynth Lattice's "All permanents are artifacts …" or the spell colors of
    Lattice ("… spells, and permanents are colorless") and Celestial Dawn ("… The same is true for
    spells you control …") could change the answer, since the engine reads a permanent's card
    types and a spell's colors as printed: every permanent an artifact matters wherever the
    board or the spell speaks of artifacts (Null Rod stops every mana ability, metalcraft,
    affinity, "Spend this mana only to activate abilities of artifacts"; improvise is refused apart,
    :func:`_guard_assist_layers`); a spell's colors matter to a mana restriction on multicolored or
    colorless spells and to a cost modifier by color.
    The permanents' colors are applied (:func:`~manasolver.models.rules.colors.permanent_colors`:
    colors among permanents, convoke's colors are refused apart), and Celestial Dawn's "Lands you
    control are Plains." is a land type change applied with the others."""
    sources = _layer_sources(req.state)
    if not sources:
        return
    state, spell = req.state, req.spell
    for i, perm, line in sources:
        where = f"battlefield[{i}]"
        if line == ALL_ARTIFACTS:
            cards = [p.card for p in state.battlefield if p.card.oracle_text.count(ALL_ARTIFACTS) == 0]
            cards += list(state.player(req.player).hand)
            if spell is not None and spell.card is not None:
                cards.append(spell.card)
            reader = next((c for c in cards if _ARTIFACT_WORD.search(c.oracle_text)), None)
            if reader is not None:
                raise Unsupported(f"{perm.card.name} ({perm.id}): {line!r} makes every permanent an artifact, which "
                                  f"this engine does not apply to card types yet, and {reader.name} speaks of "
                                  f"artifacts", where)
            continue
        if spell is None or spell.ability:
            continue
        if line == SPELLS_WHITE and perm.controller != req.player:
            continue
        reader_text = _spell_color_reader(req)
        if reader_text is not None:
            raise Unsupported(f"{perm.card.name} ({perm.id}): {line!r} changes the spell's colors, which this "
                              f"engine reads as printed, and {reader_text}", where)


def _spell_color_reader(req: PaymentRequest) -> str | None:
    """What reads the spell's colors on this board: a mana restriction on multicolored or colorless
    spells among the player's sources, or a cost modifier by color; None when nothing does."""
    for _, perm in marked(req.state, COLOR_READERS):
        text = card_text(perm.card)
        if any(e.colors or e.colorless for e in text.cost_effects):
            return f"{perm.card.name} ({perm.id}) changes the cost of spells by color"
        if perm.controller != req.player:
            continue
        for ab in perm.card.mana_abilities:
            r = ab.production.restriction
            if r is not None and (r.multicolored or r.colorless):
                return f"{perm.card.name} ({perm.id}) makes mana only for spells of some colors"
    return None


def _guard_assist_layers(req: PaymentRequest) -> None:
    """Refuse convoke when a creature of the player's has other colors than printed (Celestial
    Dawn: white; Mycosynth Lattice: colorless): convoke reads the printed colors; and improvise
    beside Mycosynth Lattice (every permanent an artifact: improvise reads the printed types).
    Apart from :func:`guard_layer_changes`, whose answer is kept per board without the request's
    convoke and improvise."""
    if req.improvise:
        for i, perm, line in _layer_sources(req.state):
            if line == ALL_ARTIFACTS:
                raise Unsupported(f"{perm.card.name} ({perm.id}): {line!r} makes every permanent an artifact, which "
                                  f"this engine does not apply to card types yet, and improvise taps artifacts",
                                  f"battlefield[{i}]")
    if not req.convoke:
        return
    from manasolver.models.rules.colors import permanent_colors
    from manasolver.models.text.granted import read_color_settings
    for i, perm in enumerate(req.state.battlefield):
        if perm.controller == req.player and perm.is_creature and \
                permanent_colors(req.state, perm) != perm.card.colors:
            setters = [p.card.name for p in req.state.battlefield
                       if read_color_settings(p.card.oracle_text) or SPELLS_COLORLESS in p.card.oracle_text]
            raise Unsupported(f"{perm.card.name} ({perm.id}): its colors are changed by {', '.join(setters)} "
                              f"(layer 5, CR 613.1d), and convoke reads the printed colors", f"battlefield[{i}]")
    for i, perm in marked(req.state, RECOLORS):
        if perm.controller == req.player and perm.is_creature and not perm.tapped:
            raise Unsupported(f"{perm.card.name} ({perm.id}): {BECOMES_THAT_COLOR.replace('~', 'This creature')!r} "
                              f"(layer 5, CR 613.1d) could let convoke tap it for a color it becomes while the "
                              f"cost is paid, which this engine does not follow", f"battlefield[{i}]")


#: Phrases naming colors of mana, not of objects: "one mana of any color", "in any combination of colors".
_MANA_COLOR_PHRASES = re.compile(r"mana of any (?:one )?color|in any combination of colors|\([^)]*\)")
#: Words by which a text may read the colors of permanents (Reflective Gate, Grand Architect's
#: "blue creature", Faeburrow Elder's "each color among permanents you control").
_COLOR_WORDS = re.compile(r"\b(?:colors?|white|blue|black|red|green|colorless|monocolored|multicolored)\b",
                          re.IGNORECASE)


def guard_recolored_sources(state: GameState, player: str) -> None:
    """Refuse a board where a mana ability that makes its source the color of its mana ("This
    creature becomes that color until end of turn.": Foraging Wickermaw, CR 613.1d) meets
    another permanent whose text speaks of colors (beyond "mana of any color"): that permanent
    may read the new color later in the payment (a count of colors among permanents, a cost that
    taps or sacrifices a permanent of a color), which this engine does not follow.  Convoke is
    refused apart (:func:`_guard_assist_layers`)."""
    recolors = [(i, p) for i, p in marked(state, RECOLORS) if p.controller == player]
    if not recolors:
        return
    i, perm = recolors[0]
    for other in state.battlefield:
        if other.id != perm.id and _COLOR_WORDS.search(_MANA_COLOR_PHRASES.sub("", other.card.oracle_text)):
            raise Unsupported(f"{perm.card.name} ({perm.id}): {BECOMES_THAT_COLOR.replace('~', 'This creature')!r} "
                              f"(layer 5, CR 613.1d) changes a color that {other.card.name} ({other.id}) may read, "
                              f"which this engine does not follow", f"battlefield[{i}]")


def _guard_graveyard_mana(req: PaymentRequest) -> None:
    """Refuse when a card in the player's graveyard has mana text that works from there (Jack-o'-
    Lantern's "{1}, Exile ~ from your graveyard: Add one mana of any color.", Riftstone Portal's
    "As long as ~ is in your graveyard, lands you control have …"): the supply reads only the
    battlefield and the hand."""
    players = req.state.players
    k = 0
    for j, who in enumerate(players):
        if who.name == req.player:
            k = j
            break
    for i, card in enumerate(players[k].graveyard):
        found = card.facts.marks
        if found is not None and GRAVEYARD not in found:
            continue  # (a card whose marks are not read yet is read for this check alone: most never need more)
        line = graveyard_mana_line(card)
        if line is not None:
            raise Unsupported(f"{card.name} (in the graveyard): {line!r} makes mana from the graveyard, which "
                              f"this engine does not model yet", f"players[{k}].graveyard[{i}]")


def _guard_unchecked_restrictions(req: PaymentRequest) -> None:
    """Refuse a named spell or ability when one of the player's untapped sources makes mana whose
    spending restriction is not read ("Spend this mana only to cast kicked spells."): the
    payment model lets that mana pay nothing, which is exact only when no spell is named."""
    for i, perm in marked(req.state, UNCHECKED):
        if perm.controller != req.player:
            continue
        for ab in perm.card.mana_abilities:
            r = ab.production.restriction
            if r is not None and r.unchecked and not (ab.cost.tap and perm.tapped):
                raise Unsupported(f"{perm.card.name} ({perm.id}): {r.text!r} is a spending restriction this "
                                  f"engine does not check against a named spell or ability (CR 106.6)",
                                  f"battlefield[{i}]")


def _taps_or_untaps_itself(state: GameState, perm: Permanent) -> bool:
    """Whether one of ``perm``'s mana abilities (printed, granted, held, or a cost read apart from
    the parser) has ``{T}`` or ``{Q}`` in its cost: the only ones summoning sickness stops (CR 302.6).
    Skirge Familiar's "Discard a card: Add {B}." and Heritage Druid's "Tap three untapped Elves you
    control" (which may tap the Druid itself) are activated by a sick creature all the same."""
    if any(a.cost.tap or a.cost.untap for a in effective_mana_abilities(state, perm)):
        return True
    return any(t.ability.cost.tap or t.ability.cost.untap for t in tap_costs(perm.card))


def guard_unread_haste(state: GameState, player: str) -> None:
    """Refuse when a haste grant the reader did not follow (Maze Rusher: "Multicolored creatures
    you control have haste.") could let one of ``player``'s summoning-sick creatures activate a mana
    ability with ``{T}`` or ``{Q}`` in its cost (CR 302.6); a sick creature whose mana abilities
    cost neither (Skirge Familiar) is answered as it is."""
    found = unread_haste(state)
    if not found:
        return
    sick = [p for p in state.battlefield if p.controller == player and summoning_sick(state, p)
            and _taps_or_untaps_itself(state, p)]
    if sick:
        source, clause = found[0]
        index = next(i for i, p in enumerate(state.battlefield) if p.id == source.id)
        raise Unsupported(f"{source.card.name} ({source.id}): {clause!r} may give {sick[0].card.name} "
                          f"({sick[0].id}) haste, and this engine does not read that grant yet (CR 302.6)",
                          f"battlefield[{index}]")
