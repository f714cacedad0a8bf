"""The source graph and "could produce" (CR 106.7, RULES §12).

Every permanent with a mana ability is a node.  Two kinds of edges:

* ``could_produce`` edges ``q -> p`` when an ability of ``p`` adds mana of a type
  that ``q`` could produce (Reflecting Pool: the lands its controller controls;
  Exotic Orchard and Fellwar Stone: the lands opponents control, colors only;
  Squandered Resources: the lands it could sacrifice);
* ``feeds`` edges ``producer -> ("pool", player) -> consumer`` for abilities whose
  cost includes mana (filter lands, Signets): any mana in that player's pool may
  pay them, so the pool is a node rather than an edge per pair of sources.

:func:`could_produce` is the **least** fixed point of RULES §12: it starts from the
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
multipliers keep the types), RULES §12.

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
from dataclasses import dataclass
from typing import Any

from manasolver.models.abilities import Amount, ManaAbility, Production
from manasolver.models.errors import Unsupported
from manasolver.models.rules.amounts import ability_options, reference_count
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
    "SourceGraph",
    "ability_types",
    "amount_value",
    "base_types",
    "could_produce",
    "could_produce_letters",
    "mana_permanents",
    "referenced",
    "source_graph",
]

#: The "could produce" references the engine knows (Production.reference).
REFERENCES = ("lands_you_control", "lands_opponents_control", "sacrificed_land")


def abilities_of(state: GameState, perm: Permanent) -> tuple[ManaAbility, ...]:
    """A permanent's mana abilities now: after land-type changes (Blood Moon, Urborg) and
    granted abilities (Chromatic Lantern), indexed as SPEC §5 ``ability``."""
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
    ref = production.reference
    if ref in ("lands_you_control", "sacrificed_land"):
        return tuple(p for p in state.controlled_by(perm.controller) if p.is_land)
    if ref == "lands_opponents_control":
        return tuple(p for p in state.battlefield if p.controller != perm.controller and p.is_land)
    raise Unsupported(f"{perm.card.name} ({perm.id}) refers to {ref!r}, a kind of 'could produce' "
                      f"the engine does not know", perm.id)


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
#: (Wild Growth, Mana Flare: triggered mana is never "could produce", RULES §12) and
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
    return tuple(c for c in card_text(perm.card).unread if not harmless_clause(c))


def _producing_abilities(state: GameState, perm: Permanent) -> tuple[ManaAbility, ...]:
    """Its mana abilities now, and those whose cost taps other permanents (Heritage Druid,
    Urza: read by ``models/text/tap_costs.py``); could-produce ignores costs (CR 106.7)."""
    own = abilities_of(state, perm)
    if not card_text(perm.card).tap_costs:
        return own
    from manasolver.models.text.tap_costs import tap_costs_after
    return own + tuple(t.ability for t in tap_costs_after(perm.card, len(own)))


def _check_supported(state: GameState) -> None:
    bad = [p for p in state.battlefield if _unread(p)]
    if bad:
        names = ", ".join(f"{p.card.name} ({p.id}): {_unread(p)[0]!r}" for p in bad[:3])
        raise Unsupported("could-produce depends on text the engine cannot read: " + names,
                          f"battlefield.{bad[0].id}")


def could_produce(state: GameState, strict: bool = True) -> dict[str, int]:
    """The least fixed point of RULES §12: permanent id → mask of types (WUBRGC bits).

    Every permanent with a mana ability appears, with 0 when it could produce
    nothing.  ``strict`` refuses (``Unsupported``) when any permanent carries
    mana text the parser could not read, since a replacement or type-changing
    effect such as Contamination or Blood Moon would change every answer
    (triggers and pure amount multipliers are let through: :func:`harmless_clause`).
    """
    if strict:
        _check_supported(state)
    perms = tuple(p for p in state.battlefield if _producing_abilities(state, p))
    cp: dict[str, int] = {}
    # edges: referenced id -> list of (referencing permanent, its ability, amount)
    users: dict[str, list[tuple[Permanent, ManaAbility, int]]] = {}
    for p in perms:
        mask = 0
        for ab in _producing_abilities(state, p):
            prod = ab.production
            if prod.reference:
                n = _reference_count(state, p, ab)
                if n <= 0:
                    continue
                for q in referenced(state, p, prod):
                    users.setdefault(q.id, []).append((p, ab, n))
            else:
                mask |= base_types(state, p, ab)
        cp[p.id] = mask
    work = [pid for pid, m in cp.items() if m]
    while work:
        qid = work.pop()
        for p, ab, n in users.get(qid, ()):
            seen = _filter(ab.production, cp[qid])
            new = cp[p.id] | _replaced(state, p, ab, seen, n)
            if new != cp[p.id]:
                cp[p.id] = new
                work.append(p.id)
    return cp


def ability_types(state: GameState, perm: Permanent, ability: ManaAbility,
                  cp: Mapping[str, int] | None = None) -> int:
    """The types this one ability could add now, given the fixed point ``cp``."""
    prod = ability.production
    if not prod.reference:
        return base_types(state, perm, ability)
    n = _reference_count(state, perm, ability)
    if n <= 0:
        return 0
    if cp is None:
        cp = could_produce(state, strict=False)
    mask = 0
    for q in referenced(state, perm, prod):
        mask |= cp.get(q.id, 0)
    return _replaced(state, perm, ability, _filter(prod, mask), n)


def reference_mask(state: GameState, perm: Permanent, ability: ManaAbility,
                   cp: Mapping[str, int] | None = None) -> int:
    """The types a could-produce ability mirrors (before its own replacement effects):
    what :func:`manasolver.models.rules.production.activation_results` takes as ``reference_mask``."""
    if cp is None:
        cp = could_produce(state, strict=False)
    mask = 0
    for q in referenced(state, perm, ability.production):
        mask |= cp.get(q.id, 0)
    return mask


def could_produce_letters(state: GameState, strict: bool = True) -> dict[str, list[str]]:
    """The protocol's answer: ``{"pool": ["W", "U"], …}`` (SPEC §5 ``could_produce``)."""
    return {pid: list(mask_letters(m)) for pid, m in could_produce(state, strict).items()}


# -- the graph, for explanations ----------------------------------------------------------------


@dataclass(frozen=True)
class SourceGraph:
    """The networkx graph of a board's sources, with the fixed point.

    Permanent nodes are their ids (attributes ``permanent``, ``base``: mask of
    their own abilities, ``could_produce``); pool nodes are ``("pool", player)``.
    Edge attribute ``kind`` is ``"could_produce"`` (with ``ability`` and
    ``colors_only``) or ``"feeds"``.
    """

    graph: Any
    could_produce: Mapping[str, int]

    def why(self, pid: str, letter: str) -> list[str]:
        """A chain of ids explaining why ``pid`` could produce ``letter``: the last
        one makes it by its own abilities.  Empty when it could not."""
        bit = 1 << "WUBRGC".index(letter.upper())
        if not self.could_produce.get(pid, 0) & bit:
            return []
        seen = {pid}
        frontier = [[pid]]
        while frontier:
            nxt = []
            for path in frontier:
                node = path[-1]
                if self.graph.nodes[node]["base"] & bit:
                    return path
                for q, _, data in self.graph.in_edges(node, data=True):
                    if data.get("kind") != "could_produce" or q in seen:
                        continue
                    if data.get("colors_only") and bit == C:
                        continue
                    if self.could_produce.get(q, 0) & bit:
                        seen.add(q)
                        nxt.append(path + [q])
            frontier = nxt
        return [pid]  # unreachable when the fixed point is right

    def cycles(self) -> list[list[str]]:
        """Could-produce reference cycles (mutual Pools/Orchards), for explanations."""
        import networkx as nx

        sub = nx.DiGraph((u, v) for u, v, d in self.graph.edges(data=True)
                         if d.get("kind") == "could_produce" and u != v)
        return [c for c in nx.simple_cycles(sub)]


def source_graph(state: GameState, strict: bool = False) -> SourceGraph:
    """Build the source graph of a board (imports networkx)."""
    import networkx as nx

    cp = could_produce(state, strict)
    g = nx.DiGraph()
    perms = mana_permanents(state)
    for p in perms:
        base = 0
        for ab in abilities_of(state, p):
            base |= base_types(state, p, ab)
        g.add_node(p.id, permanent=p, base=base, could_produce=cp[p.id])
    for p in perms:
        for ab in abilities_of(state, p):
            prod = ab.production
            if prod.reference:
                for q in referenced(state, p, prod):
                    if q.id in g:
                        g.add_edge(q.id, p.id, kind="could_produce", ability=ab.index,
                                   colors_only=prod.colors_only)
            if ab.cost.mana:
                pool = ("pool", p.controller)
                g.add_edge(pool, p.id, kind="feeds", ability=ab.index)
                for q in perms:
                    if q.controller == p.controller and q.id != p.id:
                        g.add_edge(q.id, pool, kind="feeds")
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
