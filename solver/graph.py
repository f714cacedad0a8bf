"""The source graph and "could produce" (CR 106.7).

Every permanent with a mana ability is a node.  Two kinds of edges:

* ``could_produce`` edges ``q -> p`` when an ability of ``p`` adds mana of a type
  that ``q`` could produce (Reflecting Pool: the lands its controller controls;
  Exotic Orchard and Fellwar Stone: the lands opponents control, colors only;
  Squandered Resources: the lands it could sacrifice);
* ``feeds`` edges ``producer -> ("pool", player) -> consumer`` for abilities whose
  cost includes mana (filter lands, Signets): any mana in that player's pool may
  pay them, so the pool is a node rather than an edge per pair of sources.

:func:`could_produce` is the **least** fixed point of CR 106.7: it starts from the
types each permanent's non-referential abilities would add now, and widens the
referential ones along the edges until nothing changes.  Starting from nothing,
not from everything, is what makes two Reflecting Pools alone produce nothing
(106.7 example).  Costs, tapped state, counters and energy are ignored (106.7);
an amount that evaluates to 0 now gives no type (107.1b, 106.7 "wouldn't
produce any mana"); "any color" never includes colorless (106.1b); triggered
add-ons such as Wild Growth are not abilities of the land and never appear here.

The abilities are the permanents' effective ones and their productions are read
from the board through the models (:mod:`manasolver.models.rules.production`,
:mod:`manasolver.models.rules.amounts`): land-type changes (Blood Moon makes a nonbasic
land a Mountain, 305.7; Urborg), granted abilities (Chromatic Lantern), chosen
colors, commander identity, colors among permanents (Meteor Crater), and the
replacement effects of the production in every order (Contamination, Pale Moon;
multipliers keep the types), CR 106.7.

This module is board semantics, not a solver: :mod:`manasolver.solver.validate`
uses it, and it imports nothing from the backends.  networkx is imported only by
:func:`source_graph`, which builds the graph for explanations.

>>> from manasolver.models.symbols import mask_letters
>>> cp = could_produce(_example_two_pools())
>>> {pid: mask_letters(m) for pid, m in cp.items()}
{'pool1': '', 'pool2': ''}
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from manasolver.models.abilities import Amount, ManaAbility, Production
from manasolver.models.card import Card
from manasolver.models.errors import Unsupported
from manasolver.models.rules.amounts import ability_options, commander_identity, reference_count
from manasolver.models.rules.board_effects import prohibited, reached_by_effects
from manasolver.models.rules.production import (
    active_effects,
    could_produce_types,
    effective_mana_abilities,
    replacements_for,
    tap_damage_from_attachments,
)
from manasolver.models.state import GameState, Permanent
from manasolver.models.symbols import ANY_TYPE, C, mask_letters
from manasolver.models.text.read import card_text

__all__ = [
    "REFERENCES",
    "CouldProduce",
    "RefKey",
    "SourceGraph",
    "ability_types",
    "amount_value",
    "base_types",
    "could_produce",
    "could_produce_letters",
    "mana_permanents",
    "reference_key",
    "reference_mask",
    "reference_sets",
    "referenced",
    "source_graph",
]

#: The "could produce" references the engine knows (Production.reference).
REFERENCES = ("lands_you_control", "lands_opponents_control", "sacrificed_land")


def abilities_of(state: GameState, perm: Permanent) -> tuple[ManaAbility, ...]:
    """A permanent's mana abilities now: after land-type changes (Blood Moon, Urborg) and
    granted abilities (Chromatic Lantern), indexed as the protocol's ``ability``."""
    if active_effects(state) or tap_damage_from_attachments(state):
        return tuple(effective_mana_abilities(state, perm))
    return perm.card.mana_abilities


def mana_permanents(state: GameState) -> tuple[Permanent, ...]:
    """The permanents with at least one mana ability now, in board order."""
    return tuple(p for p in state.battlefield if abilities_of(state, p))


# -- amounts (CR 107.1b, 107.2) ---------------------------------------------------------------


def amount_value(amount: Amount | None, state: GameState, perm: Permanent) -> int:
    """How many times an ability's chosen option is added now (``None``: once); negative or
    undefined numbers count as 0 (CR 107.1b, 107.2).  The board models' evaluator."""
    from manasolver.models.rules.amounts import evaluate_amount
    return evaluate_amount(amount, state, perm)


# -- the fixed point --------------------------------------------------------------------------


def referenced(state: GameState, perm: Permanent, production: Production) -> tuple[Permanent, ...]:
    """The permanents whose could-produce types a referential production mirrors."""
    key = reference_key(perm, production)
    return tuple(p for p in state.battlefield if _member(key, p))


#: A set of permanents a referential production mirrors: ``(reference, controller)`` of the
#: referencing permanent; every referencing permanent of one controller and kind shares it.
RefKey = tuple[str, str]


def reference_key(perm: Permanent, production: Production) -> RefKey:
    """The set ``production`` of ``perm`` mirrors, as a :data:`RefKey` (``Unsupported`` for a
    reference the engine does not know)."""
    ref = production.reference
    if ref not in REFERENCES:
        raise Unsupported(f"{perm.card.name} ({perm.id}) refers to {ref!r}, a kind of 'could produce' "
                          f"the engine does not know", perm.id)
    return (str(ref), perm.controller)


def _member(key: RefKey, perm: Permanent) -> bool:
    """Is ``perm`` in the set ``key`` (lands you control, or lands opponents control)?"""
    return perm.is_land and _lands_of(key, perm.controller)


def _lands_of(key: RefKey, player: str) -> bool:
    """Are the lands ``player`` controls in the set ``key``: the referencing permanent's
    controller's for "lands you control", every other player's for "lands opponents control"?"""
    ref, controller = key
    return (player != controller) if ref == "lands_opponents_control" else player == controller


def _replaced(state: GameState, perm: Permanent, ability: ManaAbility, mask: int, amount: int) -> int:
    """The types ``amount`` mana of the types in ``mask`` become under the replacement
    effects that apply to this activation, in every order (616.1; Contamination)."""
    if not mask or amount <= 0:
        return mask if amount > 0 else 0
    effects = replacements_for(state, perm, ability)
    if not effects:
        return mask
    return int(could_produce_types(mask, effects, amount))


def base_types(state: GameState, perm: Permanent, ability: ManaAbility) -> int:
    """Types a non-referential ability would add if it resolved now (costs and activation
    conditions ignored, 106.7; board amounts, chosen colors and replacement effects applied)."""
    production = ability.production
    if production.reference:
        return 0
    options = ability_options(ability, state, perm, ignore_condition=True) or ()
    mask = 0
    for option in options:
        union = 0
        for slot in option:
            union |= slot
        mask |= _replaced(state, perm, ability, union & ANY_TYPE, len(option))
    return mask & ANY_TYPE


def _reference_count(state: GameState, perm: Permanent, ability: ManaAbility) -> int:
    n = reference_count(ability, state, perm)
    return int(n) * amount_value(ability.production.amount, state, perm)


def _filter(production: Production, mask: int) -> int:
    return mask & ~C if production.colors_only else mask


#: Unread clauses that cannot change what anything could produce: triggered abilities
#: (Wild Growth, Mana Flare: triggered mana is never "could produce", CR 106.7) and
#: replacement effects that only multiply amounts (Mana Reflection, Nyxbloom Ancient).
_HARMLESS = re.compile(r"^(whenever|when|at the beginning)\b|produces (twice|three times) as much",
                       re.IGNORECASE)


def harmless_clause(clause: str) -> bool:
    """True when an unread clause cannot change any permanent's could-produce types."""
    return bool(_HARMLESS.search(clause.strip()))


def _unread(perm: Permanent) -> tuple[str, ...]:
    """Clauses of its card that nothing in the engine reads and that could change what it
    produces: the unread clauses of its reading (its structured effects, a Spirit Guide's hand
    ability, which does nothing on the battlefield, and Heritage Druid's cost are read)."""
    return _reading(perm.card)[1]


def _reading(card: Card) -> tuple[tuple[ManaAbility, ...], tuple[str, ...]]:
    """(Its producing abilities on a board without effects on mana, its unread clauses that
    matter): both read from the card alone, kept in its facts."""
    facts = card.facts
    hit: tuple[tuple[ManaAbility, ...], tuple[str, ...]] | None = facts.reading
    if hit is not None:
        return hit
    text = card_text(card)
    own = card.mana_abilities
    if text.tap_costs:
        from manasolver.models.text.tap_costs import tap_costs_after
        own = own + tuple(t.ability for t in tap_costs_after(card, len(own)))
    unread = tuple(c for c in text.unread if not harmless_clause(c)) if text.unread else ()
    facts.reading = (own, unread)
    return own, unread


def _producing_abilities(state: GameState, perm: Permanent) -> tuple[ManaAbility, ...]:
    """Its mana abilities now, and those whose cost taps other permanents (Heritage Druid,
    Urza: read by ``models/text/tap_costs.py``); could-produce ignores costs (CR 106.7)."""
    if not (active_effects(state) or tap_damage_from_attachments(state)):
        return _reading(perm.card)[0]
    own = abilities_of(state, perm)
    if not card_text(perm.card).tap_costs or prohibited(state, perm):  # CR 602.5 stops these too
        return own
    from manasolver.models.text.tap_costs import tap_costs_after
    return own + tuple(t.ability for t in tap_costs_after(perm.card, len(own)))


def _static(production: Production) -> bool:
    """Does ``production`` read nothing of the board but its permanent's chosen color and its
    controller's commander identity (the key of :func:`_base_mask`'s entries)?  Not
    ``Production.reads_besides_commander``, which counts the chosen color among what is read."""
    return (production.amount is None and production.instead is None and not production.colors_among
            and not production.reference)


def _base_mask(state: GameState, perm: Permanent, ability: ManaAbility, plain: bool,
               identities: dict[str, int]) -> int:
    """:func:`base_types`, remembered where the board can't change it (``plain``: no effects on
    mana in force, or none that reach ``perm``; ``identities``: commander identities by
    controller, filled here): the base types of an ability whose production reads nothing of
    the board but the permanent's chosen color and its controller's commander identity (no
    amount, no "instead", no colors among permanents) are kept in its card's facts
    (``static_masks``) by (ability, chosen color, identity), each entry keeping its ability,
    checked with ``is``."""
    production = ability.production
    if not (plain and _static(production)):
        return base_types(state, perm, ability)
    identity = -1
    if production.commander:
        identity = identities.get(perm.controller, -1)
        if identity < 0:
            identity = identities[perm.controller] = commander_identity(state, perm.controller)
    facts = perm.card.facts
    masks: dict[tuple[int, str | None, int], tuple[ManaAbility, int]] | None = facts.static_masks
    if masks is None:
        masks = facts.static_masks = {}
    key = (ability.index, perm.chosen_color if production.chosen else None, identity)
    hit = masks.get(key)
    if hit is not None and hit[0] is ability:
        return hit[1]
    mask = base_types(state, perm, ability)
    masks[key] = (ability, mask)
    return mask


def _card_mask(state: GameState, perm: Permanent, abilities: tuple[ManaAbility, ...]) -> int:
    """What ``perm``'s own ``abilities`` could produce when that is the same for every permanent
    of its card on a board without effects on mana; -1 when they read the board or the permanent
    (the union of :func:`base_types` over its own abilities): computed when its card is first met
    on such a board (or out of the reach of a board's effects) and kept in the card's facts
    (``mask``), which :func:`_solve` reads first."""
    mask = 0
    for ab in abilities:
        production = ab.production
        if production.reads_board:
            mask = -1
            break
        mask |= base_types(state, perm, ab)
    perm.card.facts.mask = mask
    return mask


def _check_supported(state: GameState) -> None:
    """Refuse (``Unsupported``) a board where some permanent carries mana text the engine cannot
    read, naming the first three in board order."""
    bad = [p for p in state.battlefield if _unread(p)]
    if bad:
        names = ", ".join(f"{p.card.name} ({p.id}): {_unread(p)[0]!r}" for p in bad[:3])
        raise Unsupported("could-produce depends on text the engine cannot read: " + names,
                          f"battlefield.{bad[0].id}")


class CouldProduce(dict[str, int]):
    """The fixed point (permanent id → mask of types), with the union of the types of each
    controller's lands (``lands``): what a referential ability sees (:data:`RefKey`) is a lookup
    or two, not a pass over every land."""

    def __init__(self, state: GameState) -> None:
        super().__init__()
        self.state = state
        self.lands: dict[str, int] = {}

    def union(self, key: RefKey) -> int:
        """The types the permanents of ``key`` could produce together: the union of the lands of
        each player whose lands are in it (:func:`_lands_of`, as :func:`_member` reads it)."""
        found = 0
        for player, mask in self.lands.items():
            if _lands_of(key, player):
                found |= mask
        return found


def could_produce(state: GameState, strict: bool = True) -> CouldProduce:
    """The least fixed point of CR 106.7: permanent id → mask of types (WUBRGC bits).

    Every permanent with a mana ability appears, with 0 when it could produce
    nothing.  ``strict`` refuses (``Unsupported``) when any permanent carries
    mana text the parser could not read, since a replacement or type-changing
    effect such as Contamination or Blood Moon would change every answer
    (triggers and pure amount multipliers are let through: :func:`harmless_clause`).

    Work grows with the board, not its square: a referential ability mirrors a set
    (:data:`RefKey`: the lands of one controller, or of everyone else), and each set is
    one node whose types are the union of its members', so a thousand Reflecting Pools
    are a thousand edges into one node and a thousand out of it.  The types a set gives
    only grow (at most six times), and so do a permanent's; replacement effects act per
    type (:func:`~manasolver.models.rules.production.could_produce_types`), so mirroring
    the union is mirroring each member.
    """
    return _fixed_point(state, strict, False)


def reference_sets(state: GameState, strict: bool = True) -> CouldProduce:
    """The fixed point of :func:`could_produce` over the lands alone, and the union of each
    referenced set: what every referential ability mirrors (:func:`reference_mask`), exactly,
    since only lands are members of a referenced set and a land's types depend only on lands.
    A permanent that is not a land is absent from the mapping."""
    return _fixed_point(state, strict, True)


def _fixed_point(state: GameState, strict: bool, lands_only: bool) -> CouldProduce:
    """:func:`could_produce` (``lands_only``: :func:`reference_sets`); with ``strict``, text the
    engine cannot read is the first refusal, before any other the reading meets."""
    try:
        cp, unread = _solve(state, lands_only)
    except Exception:  # any error the reading meets: the unread text is refused before it, whatever it is
        if strict:
            _check_supported(state)
        raise
    if strict and unread:
        _check_supported(state)
    return cp


def _solve(state: GameState, lands_only: bool) -> tuple[CouldProduce, bool]:
    """The fixed point, and whether some permanent carries text the engine cannot read.

    One pass over the board reads each permanent's own types (from its card's facts on a board
    without effects on mana: :func:`_card_mask`) and adds each land's to its controller's union;
    then only the referential abilities are widened, round after round, until no union grows
    (:func:`_widen`).  Most boards have a mirroring land or two and no chain: one round and a
    check.  Starting from the own types is what makes the fixed point the least one (CR 106.7).
    On a board with effects on mana, a permanent they do not reach
    (:func:`~manasolver.models.rules.board_effects.reached_by_effects`: no replacement effect is
    in force then) has its card's abilities and produces what it would without them: its types are
    read as on a board without effects."""
    cp = CouldProduce(state)
    lands = cp.lands
    users: list[tuple[Permanent, ManaAbility, int, RefKey]] = []
    plain = not active_effects(state)
    own_abilities = plain and not tap_damage_from_attachments(state)  # each card's, read once
    reached = None if own_abilities else reached_by_effects(state)
    identities: dict[str, int] = {}
    unread = False
    for p in state.battlefield:
        card = p.card
        reading = card.facts.reading
        if reading is None:
            reading = _reading(card)
        if reading[1]:
            unread = True
        land = "land" in card.type_line.types  # (Permanent.is_land)
        if lands_only and not land:
            continue
        own = own_abilities or (reached is not None and p.id not in reached)
        abilities = reading[0] if own else _producing_abilities(state, p)
        if not abilities:
            continue
        mask = card.facts.mask if own else -1
        if mask is None:
            mask = _card_mask(state, p, abilities)
        if mask < 0:
            mask = 0
            for ab in abilities:
                prod = ab.production
                if prod.reference:
                    key = reference_key(p, prod)
                    n = _reference_count(state, p, ab)
                    if n > 0:
                        users.append((p, ab, n, key))
                else:
                    mask |= _base_mask(state, p, ab, plain or own, identities)
        cp[p.id] = mask
        if land and mask:
            lands[p.controller] = lands.get(p.controller, 0) | mask
    if users:
        _widen(state, cp, users)
    return cp, unread


def _widen(state: GameState, cp: CouldProduce, users: list[tuple[Permanent, ManaAbility, int, RefKey]]) -> None:
    """Widen each referential ability (its permanent, the ability, its amount, the set it mirrors)
    by what its set could produce, and each land's controller's union by what it gains, until a
    round changes nothing.  Types only grow, each union at most six times, so the rounds are few;
    replacement effects act per type, so mirroring the union is mirroring each member (CR 106.7)."""
    lands = cp.lands
    changed = True
    while changed:
        changed = False
        for p, ab, n, key in users:
            old = cp[p.id]
            new = old | _replaced(state, p, ab, _filter(ab.production, cp.union(key)), n)
            if new != old:
                cp[p.id] = new
                changed = True
                if p.is_land:
                    lands[p.controller] = lands.get(p.controller, 0) | new


def ability_types(state: GameState, perm: Permanent, ability: ManaAbility,
                  cp: Mapping[str, int] | None = None) -> int:
    """The types this one ability could add now, given the fixed point ``cp``."""
    prod = ability.production
    if not prod.reference:
        return base_types(state, perm, ability)
    n = _reference_count(state, perm, ability)
    if n <= 0:
        return 0
    mask = reference_mask(state, perm, ability, cp)
    return _replaced(state, perm, ability, _filter(prod, mask), n)


def reference_mask(state: GameState, perm: Permanent, ability: ManaAbility,
                   cp: Mapping[str, int] | None = None) -> int:
    """The types a could-produce ability mirrors (before its own replacement effects):
    what :func:`manasolver.models.rules.production.activation_results` takes as ``reference_mask``."""
    if cp is None:
        cp = could_produce(state, strict=False)
    key = reference_key(perm, ability.production)
    if isinstance(cp, CouldProduce) and cp.state is state:
        return cp.union(key)
    mask = 0
    for q in state.battlefield:
        if _member(key, q):
            mask |= cp.get(q.id, 0)
    return mask


def could_produce_letters(state: GameState, strict: bool = True) -> dict[str, list[str]]:
    """The protocol's answer: ``{"pool": ["W", "U"], …}`` (the protocol's ``could_produce``)."""
    return {pid: list(mask_letters(m)) for pid, m in could_produce(state, strict).items()}


# -- the graph, for explanations ----------------------------------------------------------------


@dataclass(frozen=True)
class SourceGraph:
    """The networkx graph of a board's sources, with the fixed point.

    Permanent nodes are their ids (attributes ``permanent``, ``base``: mask of
    their own abilities, ``could_produce``); a referenced set is one node
    ``("refers", reference, controller)`` (:data:`RefKey`; attribute ``could_produce``: the union
    of its members'), with an edge from each member and one to each permanent that
    mirrors it; pool nodes are ``("pool", player)``.  Edge attribute ``kind`` is
    ``"could_produce"`` (into a permanent with ``ability`` and ``colors_only``) or ``"feeds"``.
    Edges grow with the board, never with its square.
    """

    graph: Any
    could_produce: Mapping[str, int]
    _chains: dict[int, dict[Any, list[Any]]] = field(default_factory=dict, compare=False, repr=False)

    def _paths(self, bit: int) -> dict[Any, list[Any]]:
        """For every node that could produce the type ``bit``: a shortest path from a
        permanent that makes it by its own abilities (networkx's multi-source search over
        the nodes and edges that carry the type)."""
        found = self._chains.get(bit)
        if found is not None:
            return found
        import networkx as nx

        g = self.graph

        def carries(node: Any) -> bool:
            return bool(g.nodes[node].get("could_produce", 0) & bit)

        def passes(u: Any, v: Any) -> bool:
            data = g.edges[u, v]
            return data.get("kind") == "could_produce" and not (bit == C and data.get("colors_only"))

        view = nx.subgraph_view(g, filter_node=carries, filter_edge=passes)
        sources = [n for n, d in g.nodes(data=True) if d.get("base", 0) & bit and carries(n)]
        found = dict(nx.multi_source_dijkstra_path(view, sources)) if sources else {}
        self._chains[bit] = found
        return found

    def why(self, pid: str, letter: str) -> list[str]:
        """A chain of ids explaining why ``pid`` could produce ``letter``: ``pid``, the
        permanent its mana comes from, and so on; the last one makes it by its own
        abilities.  Empty when it could not; ``[pid]`` alone when a replacement effect on
        its own ability makes the type (Contamination)."""
        bit = 1 << "WUBRGC".index(letter.upper())
        if not self.could_produce.get(pid, 0) & bit:
            return []
        path = self._paths(bit).get(pid)
        if path is None:
            return [pid]
        return [n for n in reversed(path) if isinstance(n, str)]

    def chains(self) -> dict[str, dict[str, list[str]]]:
        """Every permanent's :meth:`why` for each type it could produce (the ``why`` of the
        ``could_produce`` answer with ``"detail": true``)."""
        return {pid: {letter: self.why(pid, letter) for letter in mask_letters(mask)}
                for pid, mask in self.could_produce.items()}

    def cycles(self) -> list[list[str]]:
        """Could-produce reference cycles (mutual Pools/Orchards), for explanations: the
        permanents of each cycle through the referenced sets."""
        import networkx as nx

        sub = nx.DiGraph((u, v) for u, v, d in self.graph.edges(data=True)
                         if d.get("kind") == "could_produce" and u != v)
        out = []
        for cycle in nx.simple_cycles(sub):
            ids = [n for n in cycle if isinstance(n, str)]
            if len(ids) > 1 or any(not isinstance(n, str) for n in cycle):
                out.append(ids)
        return out


def source_graph(state: GameState, strict: bool = False) -> SourceGraph:
    """Build the source graph of a board (imports networkx)."""
    import networkx as nx

    cp = could_produce(state, strict)
    g = nx.DiGraph()
    perms = tuple(p for p in state.battlefield if _producing_abilities(state, p))
    for p in perms:
        base = 0
        for ab in _producing_abilities(state, p):
            base |= base_types(state, p, ab)
        g.add_node(p.id, permanent=p, base=base, could_produce=cp[p.id])
    costly: set[str] = set()
    for p in perms:
        for ab in _producing_abilities(state, p):
            prod = ab.production
            if prod.reference:
                key = reference_key(p, prod)
                node = ("refers",) + key
                if node not in g:
                    g.add_node(node, could_produce=cp.union(key))
                    for q in perms:
                        if _member(key, q):
                            g.add_edge(q.id, node, kind="could_produce")
                g.add_edge(node, p.id, kind="could_produce", ability=ab.index, colors_only=prod.colors_only)
            if ab.cost.mana:
                g.add_edge(("pool", p.controller), p.id, kind="feeds", ability=ab.index)
                costly.add(p.controller)
    for q in perms:
        if q.controller in costly:
            g.add_edge(q.id, ("pool", q.controller), kind="feeds")
    return SourceGraph(g, cp)


def _example_two_pools() -> GameState:
    """Two Reflecting Pools alone (for the module doctest)."""
    from manasolver.models.abilities import AbilityCost
    from manasolver.models.card import Card, TypeLine
    from manasolver.models.state import Player, Turn

    pool = Card("Reflecting Pool", type_line=TypeLine.parse("Land"), mana_abilities=(
        ManaAbility(AbilityCost(tap=True), Production(reference="lands_you_control")),))
    return GameState((Player("you"),), Turn("you"),
                     (Permanent("pool1", pool, "you"), Permanent("pool2", pool, "you")))
