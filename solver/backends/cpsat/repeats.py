"""Repeatable activations in the CP-SAT model: counts per member, their limits, self-payment.

A mana ability without ``{T}``, ``{Q}`` or "sacrifice this" in its cost may be activated again
and again (CR 605, 602.5b).  When it costs mana (Signpost Scarecrow's "{2}: Add one mana of any
color.", storage lands' "{1}, Remove X storage counters: Add X mana …") the model gives each
member of its class an integer per option, how many times it activates it, and reads here:

* :func:`node_of`: the *node* an option's activations belong to in the order of payments:
  all the exclusive options of a member form one node (at most one of them is activated), and
  each *batch* of a repeatable ability of a member another, so one member's ``{T}`` mana may pay
  its own repeatable ability (Skyshroud Elf's "{T}: Add {G}." paying its "{1}: Add {R} or {W}.",
  Calciform Pools' ``{C}`` paying "{1}, Remove X storage counters") while nodes are ordered
  acyclically;
* :func:`batch_counts`: how many batches a repeatable ability that costs mana is split into.  Its
  activations may come before and after another mana ability that they pay and that pays them:
  Skyshroud Elf's {G} pays its "{1}" for {W}, the {W} pays Mystic Gate's {W/U} for {U}{U}, one
  {U} pays the Elf's "{1}" again for {R}.  Each batch is its own step of the order, the ability's
  activations split between them (together within the ability's limit), so such a chain has a
  legal order while a cycle that no order allows (two Petalmane Baku paying each other's {1})
  stays impossible.  Moving every activation as early as its payers allow, a new run of an
  ability starts only after another activation of a node it both pays and is paid by (its
  strongly connected component of the graph of which node's mana may pay which node's cost)
  that gains mana: an ability gets one batch more than the activation steps of its component
  that gain mana, within its number of activations and :data:`MAX_BATCHES`; batches are
  ordered (a batch is active only if the one before it is, pays only later batches, and comes
  earlier in the order);
* :func:`removal`: for a variable counter cost, the counters one option removes (its X,
  CR 107.3), so that a member's activations together remove no more than it has (118.3);
* :func:`self_payment`: whether a node's later activations may be paid with the mana of its
  earlier ones.  With a cost of one mana (storage lands, Petalmane Baku, Orochi Leafcaller),
  any ``n - 1`` of ``n`` activations may be paid by the others (some order always works: each
  needs one mana and the first is paid from elsewhere).  With a bigger cost and one mana added
  per activation (Signpost Scarecrow, Llanowar Envoy) such a chain nets out: the mana an
  earlier activation gave a later one could have paid the later one's symbol directly, so the
  model leaves it out.  A bigger cost with more than one mana added (a replacement effect
  doubling Signpost Scarecrow's mana) is refused, naming the card and clause: an order of such
  activations is not modelled;
* :func:`symmetric_classes`: alike members of such a class pay one another's costs only in
  board order (a renumbering of any acyclic payment);
* :func:`merged`: a storage land's activations merge into one per member (the same mana for
  one mana cost), so it is activated at most once;
* an ability whose limit is "Activate only once each turn" (Wall of Roots) or "no more than
  three times" (Manaforge Cinder) has its options' counts summed within that limit
  (:attr:`~manasolver.solver.supply.model.Option.repeat` is the ability's, shared by its
  options).  Farrelite Priest's "sacrifice it at the beginning of the next end step" after the
  fourth activation is a delayed trigger, not a limit: nothing of the payment.
"""

from __future__ import annotations

from manasolver.models.errors import Unsupported
from manasolver.models.rules.production import activation_results
from manasolver.models.state import GameState
from manasolver.models.symbols import ANY_TYPE, C
from manasolver.solver.graph import abilities_of
from manasolver.solver.supply.model import Option, SourceClass

__all__ = ["MAX_BATCHES", "Node", "batch_counts", "cost_size", "merged", "node_of", "removal",
           "self_payment", "symmetric_classes"]

#: A node of the order of payments: (class, member, -1 for its exclusive options, else the
#: ability index of a repeatable ability, the batch: 0 for exclusive options).
Node = tuple[int, int, int, int]

#: The most batches one member's repeatable ability is split into (a bound on the model's size:
#: a chain that needs its activations in more runs, between other activations, is not found).
MAX_BATCHES = 4

def node_of(k: int, j: int, opt: Option, batch: int = 0) -> Node:
    """The node of option ``opt`` of member ``j`` of class ``k`` in batch ``batch`` of its
    ability (see the module docstring)."""
    return (k, j, -1, 0) if opt.exclusive else (k, j, opt.ability, batch)


def _cost_mask(opt: Option) -> int:
    """The types of mana that may pay some symbol of ``opt``'s mana cost."""
    m = 0
    for s in opt.mana_cost.symbols:
        if s.special:
            continue
        m |= ANY_TYPE if s.is_numeral or s.generic else (s.colors | (C if s.colorless else 0))
    return m


def batch_counts(classes: tuple[SourceClass, ...],
                 expanded: set[int]) -> tuple[dict[tuple[int, int], int], list[list[tuple[int, int]]]]:
    """For each repeatable ability that costs mana, ``(class, ability)``: how many activation steps
    of other members' nodes that gain mana (an option adding more mana than its mana cost takes:
    Mystic Gate, Verdant Eidolon, Petalmane Baku) share its strongly connected component of the
    graph "this node's mana may pay that node's cost" (class-level nodes: a class's exclusive
    options, each of its repeatable abilities; a member counts once per node).  An ability gets
    one batch more than that (see the module docstring): a run of its activations after another
    node's needs mana that was not there before, and a node that adds no more than it takes only
    turns one type into another, which the ability's own activation could have done from the
    mana the chain started with (its cost took that mana, its later run made the type needed).

    Also the components themselves (those with a cycle): in any order the first activation of a
    component's nodes is paid by none of them, which the model states (a cut that holds for every
    legal payment), so that a component that nothing outside it can start is soon found idle."""
    nodes: dict[tuple[int, int], tuple[int, int, bool, int]] = {}  # (k, a) -> (makes, takes, gains, members)
    for k in sorted(expanded):
        cls = classes[k]
        for opt in cls.options:
            key = (k, -1 if opt.exclusive else opt.ability)
            makes, takes, gains, _ = nodes.get(key, (0, 0, False, cls.count))
            gain = bool(opt.mana_cost) and opt.produced > cost_size(opt)
            nodes[key] = (makes | opt.union, takes | _cost_mask(opt), gains or gain, cls.count)
    costly = {key for key, (_, takes, _, _) in nodes.items() if takes}
    if not any(a >= 0 for _, a in costly):
        return {}, []
    keys = sorted(costly)
    edges = {u: [v for v in keys if nodes[u][0] & nodes[v][1]] for u in keys}
    out: dict[tuple[int, int], int] = {}
    cyclic = []
    for comp in _components(keys, edges):
        if len(comp) == 1 and comp[0] not in edges[comp[0]]:
            continue
        cyclic.append(comp)
        gaining = sum(nodes[u][3] for u in comp if nodes[u][2])
        for u in comp:
            if u[1] >= 0:
                out[u] = gaining - (1 if nodes[u][2] else 0)
    return out, cyclic


def _components(keys: list[tuple[int, int]],
                edges: dict[tuple[int, int], list[tuple[int, int]]]) -> list[list[tuple[int, int]]]:
    """The strongly connected components of a small directed graph (Tarjan's algorithm,
    iterative), each sorted."""
    index: dict[tuple[int, int], int] = {}
    low: dict[tuple[int, int], int] = {}
    on: set[tuple[int, int]] = set()
    stack: list[tuple[int, int]] = []
    out: list[list[tuple[int, int]]] = []
    for root in keys:
        if root in index:
            continue
        work = [(root, 0)]
        while work:
            u, i = work.pop()
            if i == 0:
                index[u] = low[u] = len(index)
                stack.append(u)
                on.add(u)
            if i < len(edges[u]):
                work.append((u, i + 1))
                v = edges[u][i]
                if v not in index:
                    work.append((v, 0))
                elif v in on:
                    low[u] = min(low[u], index[v])
                continue
            if low[u] == index[u]:
                comp = []
                while True:
                    w = stack.pop()
                    on.discard(w)
                    comp.append(w)
                    if w == u:
                        break
                out.append(sorted(comp))
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[u])
    return out


def cost_size(opt: Option) -> int:
    """How many mana one activation of ``opt`` costs."""
    n = 0
    for s in opt.mana_cost.symbols:
        if s.special:
            continue
        n += s.generic if s.is_numeral else 1
    return n


def _where(state: GameState, cls: SourceClass, j: int) -> str:
    pos = cls.positions[j]
    return f"battlefield[{pos}]" if pos < len(state.battlefield) else "battlefield"


def _clause(state: GameState, cls: SourceClass, j: int, opt: Option) -> str:
    """The text of ``opt``'s ability on member ``j``, for messages."""
    pos = cls.positions[j]
    if pos < len(state.battlefield):
        abilities = abilities_of(state, state.battlefield[pos])
        if 0 <= opt.ability < len(abilities) and abilities[opt.ability].text:
            return abilities[opt.ability].text
    return " ".join(opt.costs)


def removal(state: GameState, cls: SourceClass, j: int, opt: Option,
            memo: dict[tuple[int, int], dict[tuple[int, ...], int]]) -> tuple[str, int, int]:
    """For an option with a variable counter cost: ``(counter kind, counters one activation
    removes, counters member j has)``.  The number is read back from the ability's results
    (:func:`~manasolver.models.rules.production.activation_results`), the least that gives the
    option's slots; ``memo`` keeps the results per (position, ability)."""
    pos = cls.positions[j]
    if pos >= len(state.battlefield):  # pragma: no cover - hand abilities are exclusive
        raise Unsupported(f"{cls.name}: a variable counter cost outside the battlefield is not modelled",
                          "battlefield")
    perm = state.battlefield[pos]
    ab = abilities_of(state, perm)[opt.ability]
    key = (pos, opt.ability)
    table = memo.get(key)
    if table is None:
        table = {}
        for r in activation_results(state, perm, ab) or ():
            slots = tuple(r.mana) + tuple(r.extra)
            table[slots] = min(table.get(slots, r.removed), r.removed)
        memo[key] = table
    if opt.slots not in table or not ab.cost.remove_any:
        raise Unsupported(f"{cls.name} ({perm.id}): {ab.text!r}: how many counters this option removes "
                          f"could not be read back", _where(state, cls, j))
    return ab.cost.remove_any, table[opt.slots], perm.counter(ab.cost.remove_any)


def merged(opts: list[Option]) -> bool:
    """Do one member's activations of this variable-counter ability merge into one?  When every
    mana it adds may be of the same types whatever X is (storage lands: "X mana in any
    combination of {W} and/or {U}"), one activation removing X1 + X2 counters adds what two
    removing X1 and X2 add, for one mana cost instead of two: a member activates it at most
    once.  Not so for "X mana of any one color" (Petalmane Baku), whose activations may differ
    in color."""
    if not all(o.removes_any for o in opts):
        return False
    masks = {m for o in opts for m in o.slots}
    first = opts[0]
    return len(masks) == 1 and all(o.restriction == first.restriction and o.nonsnow_tail == first.nonsnow_tail
                                   and o.mana_cost == first.mana_cost and o.life == first.life
                                   and o.energy == first.energy and o.damage == first.damage for o in opts)


def symmetric_classes(classes: tuple[SourceClass, ...], expanded: set[int]) -> set[int]:
    """The classes with a repeatable ability that costs mana whose members have one node that
    costs mana each (storage lands, Signpost Scarecrow; not a class with also a mana-costing
    exclusive option).  Its members are alike, so in any acyclic payment they can be renumbered
    in an order of their costly nodes: the model lets a member pay only later members' costs,
    which leaves out the mirror images of every payment (and the cycles among alike members that
    a relaxation would otherwise find one by one)."""
    out = set()
    for k in expanded:
        cls = classes[k]
        costly = {node_of(k, 0, o) for o in cls.options if o.mana_cost}
        if len(costly) == 1 and any(not o.exclusive and o.mana_cost for o in cls.options):
            out.add(k)
    return out


def self_payment(state: GameState, cls: SourceClass, j: int, opts: list[Option]) -> bool:
    """May the activations of one repeatable node (``opts``: its options, one ability) pay one
    another's mana costs?  True for a cost of one mana; False when every option adds one mana
    (the chain nets out); otherwise :class:`Unsupported` naming the card and clause."""
    if not opts[0].mana_cost:
        return False
    if cost_size(opts[0]) == 1:
        return True
    if all(o.produced <= 1 for o in opts):
        return False
    big = next(o for o in opts if o.produced > 1)
    raise Unsupported(f"{cls.name} ({cls.members[j]}): {_clause(state, cls, j, big)!r}: repeated activations "
                      f"that cost {big.mana_cost.format()} and add {big.produced} mana could pay one another's "
                      f"costs in orders this model does not follow yet (CR 605.3a)", _where(state, cls, j))
