"""The ``options`` query: every maximal pool of mana the player can have at once.

A player's pool after activating mana abilities now is a multiset of the six
types (CR 106.1, 106.4).  The answer lists every *maximal* such multiset: one
that no other reachable pool contains.  Floating mana is part of every pool;
abilities that cost mana (filter lands, Signets, Cascading Cataracts) are paid
from mana produced before them, so their net result is what counts (CR 601.2g,
605.3); sacrifice abilities (Treasure, Lotus Petal) are legal activations now
and count like any other.

Exact, and without enumerating copies (performance target: three Cascading Cataracts made
XMage freeze, magefree/mage#7710; with thirty basics, ten each of Plains, Island
and Forest, there are 35,366 maximal pools, listed in about 0.35-0.6 s).  The
query reads the board once.  When every mana-costing ability on it takes at most one
mana (filter lands, Signets, Odyssey filters) and no restricted mana, life or energy
limit is in play, :mod:`~manasolver.solver.pools.converters` answers with a dynamic
program over what those converters make, without trying orders (ten different filter
lands and ten basics: 33,493 pools, exact, in about 0.3 s).  Otherwise it runs three
steps, each in its own module:

1. :mod:`~manasolver.solver.pools.activations`: the supply's source classes as
   choices and mana-costing activations over ranks (classes, not copies; a repeatable one
   that costs mana is one more activation waiting, as often as it can matter);
2. :mod:`~manasolver.solver.pools.search`: the free activations, then the
   mana-costing ones and pool doublers in every order, as sets of pools stored as
   polymatroid ranks (:mod:`~manasolver.solver.pools.ranks`), dominated states
   dropped (bounds in :mod:`~manasolver.solver.pools.context`);
3. :mod:`~manasolver.solver.pools.listing`: the maximal pools of the final
   states, in the answer's order, up to ``limit``.

Restricted mana (CR 106.6) is kept in its own blocks: it is counted in the
pools, listed again under ``restricted`` with ``detail``, and pays an ability's
cost only when its restriction allows activated abilities of that source.

Mana abilities that don't tap, which the supply leaves out for this query, are read back
by :mod:`~manasolver.solver.pools.untapped`: repeatable abilities that cost mana (Farrelite
Priest's "{1}: Add {W}"), storage lands ("{1}, Remove X storage counters: Add X mana in any
combination of {W} and/or {U}", once with every counter), and Squandered Resources'
"Sacrifice a land" (each land after its own abilities, adding a type it could produce).

What is not modelled exactly is reported, never guessed: permanents that the
supply leaves out and that module does not read back (unreadable text, costs that sacrifice
other permanents, Petalmane Baku's "X mana of any one color") make
the answer incomplete (``complete: false`` and an ``unsupported`` list); a
mana-costing ability that needs ``{S}`` or ``{X}`` raises
:class:`~manasolver.models.errors.Unsupported`.  Damage dealt by pain lands
does not limit pools here (life payments can be made before it), except in the
rare case where a life-costing ability must be paid with a pain land's mana
while life would run out.  Replacement effects and triggered mana abilities
(Mana Reflection, Nyxbloom Ancient, Wild Growth, Mana Flare) arrive already
applied in the supply's activation options.

Pool doublers (Doubling Cube: "{3}, {T}: Double the amount of each type of unspent
mana you have", :mod:`manasolver.solver.pools.doublers`) are left out of the
supply and applied by the search (CR 106.6 example, Doubling Cube ruling 2004-12-01).  A doubler under
a replacement or trigger effect on its activation (Mana Reflection), or with
costs other than mana and {T}, is reported, not applied.
"""

from __future__ import annotations

import time

from manasolver.models.abilities import ManaAbility
from manasolver.models.state import GameState, Player
from manasolver.models.symbols import TYPE_BITS
from manasolver.models.text.hand import hand_abilities
from manasolver.models.text.mana_effects import remaining_unsupported
from manasolver.models.text.read import card_text
from manasolver.solver.pools.context import MAX_STATES, Budget, Search
from manasolver.solver.pools.converters import converter_pools
from manasolver.solver.pools.doublers import Doubler, find_doublers
from manasolver.solver.pools.listing import (
    ManaOption,
    OptionsAnswer,
    list_points,
    list_pools,
)
from manasolver.solver.pools.search import explore
from manasolver.solver.pools.tapped import taps_others, verified, without_taps
from manasolver.solver.pools.untapped import widen
from manasolver.solver.supply.build import build_supply
from manasolver.solver.supply.model import Excluded, Supply
from manasolver.solver.supply.unmodelled import guard_spent_on_activations

__all__ = ["DEFAULT_BUDGET", "MAX_STATES", "ManaOption", "OptionsAnswer", "options"]

#: Wall-clock bound of one query, in seconds: past it the answer says ``complete: false``.
#: Three Cascading Cataracts and thirty basics (65,601 pools, exact) take 0.7-1.4 s CPU depending
#: on the machine's load, so the bound leaves room for that answer to stay exact.
DEFAULT_BUDGET = 3.0


def options(state: GameState, player: str | None = None, limit: int = 100, detail: bool = False,
            budget: float = DEFAULT_BUDGET) -> OptionsAnswer:
    """Every maximal pool ``player`` can have at once by activating mana abilities now.

    ``limit`` caps the list (``complete`` is false when more exist); ``detail``
    lists the restricted part of each pool (CR 106.6); ``budget`` bounds the time
    in seconds, after which the answer is what was found, with ``complete: false``.
    """
    deadline = time.perf_counter() + budget
    supply, _ = widen(state, build_supply(state, player))  # abilities that don't tap (storage lands)
    guard_spent_on_activations(state, supply)  # a filter land's cost paid as CR 609.4b allows: refused
    pl = state.player(supply.player)
    # pool doublers (Doubling Cube) are left out of the supply and applied here
    doublers = find_doublers(state, supply.player)
    applied = [d for d in doublers if d.only and d.ready and not d.unmodelled]
    free, hand_unread = _hand_sources(pl)
    unsupported = _unsupported(state, supply.player, supply.excluded, doublers) + hand_unread
    life_binding, energy_binding = _binding(supply, pl)
    search = Search(state, supply.player, deadline, life_binding=life_binding,
                    energy_binding=energy_binding)
    opts, more, bounded = _listed(search, supply, applied, pl, limit, detail)
    if taps_others(supply):  # the search took "tap an untapped creature" costs as free
        # the pools without those abilities are exact: they answer most checks at once, and a
        # check cut short still lists them
        floor = Search(state, supply.player, deadline, life_binding=life_binding, energy_binding=energy_binding)
        known, _, _ = _listed(floor, without_taps(supply), applied, pl, limit, detail)
        opts, cut = verified(state, supply.player, list(opts), deadline, detail, supply.restricted, known)
        bounded = bounded or cut
        more = more or len(opts) > limit
        opts = opts[:limit]
    if any(free):  # the same mana beside every pool: each stays maximal, the order stays
        opts = [ManaOption(tuple(a + b for a, b in zip(o.mana, free)), o.restricted) for o in opts]
    from manasolver.models.rules.uncertain import uncertain_sources
    return OptionsAnswer(tuple(opts), complete=not (more or bounded or unsupported), detail=detail,
                         bounded=bounded, unsupported=unsupported, states=search.states,
                         uncertain=uncertain_sources(state, supply.player))


def _listed(search: Search, supply: Supply, applied: list[Doubler], pl: Player, limit: int, detail: bool
            ) -> tuple[list[ManaOption], bool, bool]:
    """The maximal pools of ``supply`` in the answer's order: (options, more exist, bound hit)."""
    points = None
    if not applied:
        try:
            points = converter_pools(search, supply)
        except Budget:
            points = None  # the search below meets the same deadline and answers what it reached
        if points is None:
            search.states = 0  # a declined program leaves the search its whole size bound
    if points is not None:
        opts, more = list_points(points, limit)
        return opts, more, False
    finals, bounded = explore(search, supply, applied, pl.life, pl.energy)
    opts, more, hit = list_pools(search, finals, limit, detail)
    return opts, more, bounded or hit


def _binding(supply: Supply, pl: Player) -> tuple[bool, bool]:
    """Whether life and energy can run out: only when the most that could ever be paid
    exceeds what is there (otherwise their costs are not tracked)."""
    life_demand = energy_demand = 0
    for cls in supply.classes:
        excl = [o for o in cls.options if o.exclusive]
        reps = [o for o in cls.options if not o.exclusive]
        phy = [2 * sum(1 for s in o.mana_cost.symbols if s.phyrexian) for o in excl]
        life_demand += cls.count * max([o.life + p for o, p in zip(excl, phy)] or [0])
        energy_demand += cls.count * max([o.energy + o.mana_cost.energy for o in excl] or [0])
        life_demand += sum(cls.count * o.repeat * o.life for o in reps)
        energy_demand += sum(cls.count * o.repeat * o.energy for o in reps)
    return life_demand > max(pl.life, 0), energy_demand > pl.energy


def _unsupported(state: GameState, player: str, excluded: tuple[Excluded, ...],
                 doublers: tuple[Doubler, ...]) -> tuple[tuple[str, str], ...]:
    """``(id, reason)`` of every permanent the answer leaves out: excluded by the supply
    (pool doublers aside, applied here), doublers that can't be applied exactly, and
    effects on mana nobody applies."""
    handled = {d.permanent for d in doublers if d.only}
    out = tuple((e.permanent, f"{e.name}: {e.reason} ({e.clause})") for e in excluded
                if e.permanent not in handled)
    out += tuple((d.permanent, f"{d.name}: {d.unmodelled}") for d in doublers
                 if d.only and d.ready and d.unmodelled)
    out += _unmodelled_effects(state, player, {p for p, _ in out} | {d.permanent for d in doublers})
    return out


def _hand_sources(player: Player) -> tuple[tuple[int, ...], tuple[tuple[str, str], ...]]:
    """Cards in the hand with mana abilities: the mana of the free ones (Simian Spirit Guide:
    "Exile this card from your hand: Add {R}", nothing else paid, no choice, no condition), counts
    by type in WUBRGC order, which every maximal pool holds besides what the board makes; and
    ``(hand[i], reason)`` for the others, which the answer names as left out."""
    free = [0] * len(TYPE_BITS)
    unread: list[tuple[str, str]] = []
    for i, card in enumerate(player.hand):
        abilities = hand_abilities(card)
        if not abilities:
            continue
        units = _free_units(abilities)
        if units is None:
            unread.append((f"hand[{i}]", f"{card.name}: mana abilities activated from the hand are modelled "
                                         "only by the payment queries, but for a free one of a fixed mana"))
            continue
        for bit in units:
            free[TYPE_BITS.index(bit)] += 1
    return tuple(free), tuple(unread)


def _free_units(abilities: tuple[ManaAbility, ...]) -> tuple[int, ...] | None:
    """The mana units of a card's one hand ability when it is free and fixed (its cost only exiling
    the card, one production of single types, no amount read from the board, no restriction, no
    condition), else ``None``."""
    if len(abilities) != 1:
        return None
    ab = abilities[0]
    prod, cost = ab.production, ab.cost
    if cost.parts() or ab.condition is not None or ab.damage or ab.extra or ab.per_turn:
        return None
    if len(prod.options) != 1 or prod.reads_board or prod.restriction is not None or prod.doubles_pool:
        return None
    units = prod.options[0]
    return units if all(u in TYPE_BITS for u in units) else None


def _unmodelled_effects(state: GameState, player: str, known: set[str]
                        ) -> tuple[tuple[str, str], ...]:
    """Permanents whose effects on mana the engine does not apply, wherever they are.

    Clauses of any player's cards that neither the parser nor the supply's mana
    effects read (the supply applies Mana Reflection, Wild Growth, Mana Flare,
    Contamination, Blood Moon: CR 106.12, 605.1b, 614) are reported, and so is a card of
    the player's that speaks of doubling unspent mana but was not read as a pool doubler
    (the ones read are applied, or reported, by :func:`options`), and another player's
    permanent with counters whose mana ability any player may activate (Mana Cache).
    """
    out = []
    for perm in state.battlefield:
        if perm.id in known:
            continue
        card = perm.card
        if card_text(card).doubles_unspent_mana and perm.controller == player:
            reason = f"{card.name}: effects on mana already in the pool (pool doublers) are not modelled"
            out.append((perm.id, reason))
        elif perm.controller != player and _anyone_activates(perm.card.mana_abilities) and perm.counters:
            out.append((perm.id, f"{card.name}: its mana ability any player may activate is read for its "
                                 "controller only (the player who activates it adds the mana)"))
        elif card.unsupported and perm.controller != player:
            unread = remaining_unsupported(card)
            if unread:
                out.append((perm.id, f"{card.name}: {unread[0]} (not applied)"))
    return tuple(out)


def _anyone_activates(abilities: tuple[ManaAbility, ...]) -> bool:
    """Does some mana ability say "Any player may activate this ability" (Mana Cache)?"""
    return any("any player may activate" in (ab.text or "").lower() for ab in abilities)
