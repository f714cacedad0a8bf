"""Mana abilities that don't tap, read for ``options``: repeatable abilities that cost mana, storage
lands, and Squandered Resources' sacrifice of lands.

The supply read for ``options`` (without the payment queries' ``resources``) leaves these
permanents out.  :func:`widen` reads them from the payment queries' supply and gives them back
in the shapes the search (:mod:`~manasolver.solver.pools.search`) answers exactly:

* **A repeatable ability that costs mana and adds one mana** (Farrelite Priest's "{1}: Add
  {W}", Signpost Scarecrow's "{2}: Add one mana of any color", Orochi Leafcaller's "{G}"): a
  repeatable option the search activates after the free ones, in every order (CR 605.3a: each
  activation is paid from the pool as it then is), as often as it can matter.  Follow one mana
  from the ability that made it through the abilities that converted it: an ability used twice
  on that path can be used once (its last use makes, from what its first use took, what the
  path ends with), so a one-mana ability is activated usefully at most once per mana made by
  the other abilities (:func:`_reach`); one that costs ``c`` mana loses ``c - 1`` each time, at
  most that total over ``c - 1`` times.  Farrelite Priest's "sacrifice it at the beginning of the
  next end step" after the fourth activation is a delayed trigger: nothing of the pools.
* **A storage land** ("{1}, Remove X storage counters from this land: Add X mana in any
  combination of {W} and/or {U}", Calciform Pools): one activation removing every counter adds
  what several removing some add, for one mana instead of several, and more mana never hurts;
  so each land is activated once, with X its counters (CR 107.3, 118.3).  Its ``{T}: Add {C}``
  is a separate ability: the ``{C}`` may pay the ``{1}``.
* **Squandered Resources** ("Sacrifice a land: Add one mana of any type the sacrificed land
  could produce"): every land of the player, tapped or not, adds one mana of a type it could
  produce (CR 106.7), after its own mana abilities (a land tapped for mana may then be
  sacrificed, CR 605.3a; one that sacrificed itself for mana is gone).  On a land whose
  ability costs mana (a filter land) the sacrifice comes after that activation, so it adds
  to what that activation adds, and a member that is only sacrificed is one more choice; a
  storage land is sacrificed after its counters are removed, its ``{T}`` a free choice before.

What can't be read this way stays out and is reported as before: a variable counter cost whose
activations may differ in type (Petalmane Baku's "X mana of any one color"), an ability that
adds more mana than it costs without a limit of counters or turns, costs that tap or sacrifice
other permanents (Ashnod's Altar, Springleaf Drum's kin read from text) or discard, Squandered Resources
beside effects on mana, abilities that tap other permanents, or a land whose repeatable
ability costs mana other than a storage land's.
"""

from __future__ import annotations

import dataclasses

from manasolver.models.errors import Unsupported
from manasolver.models.state import GameState
from manasolver.solver.supply.build import build_supply
from manasolver.solver.supply.model import MAX_REPEAT, Excluded, Option, SourceClass, Supply

__all__ = ["widen"]

#: The production reference of "any type the sacrificed land could produce".
_SACRIFICED_LAND = "sacrificed_land"
#: The ability index of the option a land's sacrifice adds (no ability of the land's own).
_SACRIFICE = -1
#: The ability index a storage land's {T} options share once its sacrifice is read: one choice
#: among them, beside its counters' activation.
_TAPPED = -2


def widen(state: GameState, supply: Supply) -> tuple[Supply, tuple[Excluded, ...]]:
    """``supply`` with the permanents of the module docstring read back in, and what stays
    excluded (with the reasons the supply gave, or why this module can't read it)."""
    if not supply.excluded:
        return supply, ()
    try:
        full = build_supply(state, supply.player, resources=True)
    except Unsupported:  # what the payment queries' reading refuses stays out, as reported
        return supply, supply.excluded
    where = {m: (k, j) for k, cls in enumerate(full.classes) for j, m in enumerate(cls.members)}
    added: dict[int, list[int]] = {}
    sacrificers: list[Excluded] = []
    kept: list[Excluded] = []
    for e in supply.excluded:
        if _sacrifices_lands(state, e.permanent):
            sacrificers.append(e)
            continue
        spot = where.get(e.permanent)
        if spot is None:
            kept.append(e)
            continue
        if _readable(full.classes[spot[0]].options):
            added.setdefault(spot[0], []).append(spot[1])
        else:
            kept.append(e)
    classes = list(supply.classes)
    for k, js in added.items():
        cls = full.classes[k]
        classes.append(SourceClass(tuple(cls.members[j] for j in js), tuple(cls.positions[j] for j in js),
                                   _reshaped(cls.options), cls.snow, cls.kind, cls.name, cls.creature))
    classes.sort(key=lambda c: c.positions[0])
    out = dataclasses.replace(supply, classes=tuple(classes), excluded=tuple(kept))
    if sacrificers:
        why = _lands_unreadable(state, out)
        if why:
            kept.extend(dataclasses.replace(e, reason=why) for e in sacrificers)
            out = dataclasses.replace(out, excluded=tuple(kept))
        else:
            out = _with_sacrifices(state, out)
    return _bounded(out), tuple(kept)


def _cost_size(o: Option) -> int:
    """How many mana one activation of ``o`` costs."""
    return sum(s.generic if s.is_numeral else 1 for s in o.mana_cost.symbols if not s.special)


def _readable(opts: tuple[Option, ...]) -> bool:
    """Are all of a permanent's options in a shape the search reads exactly (module docstring)?"""
    for o in opts:
        if o.tap_creatures or o.sacrifice_other or o.discards_hand:
            return False
    groups: dict[int, list[Option]] = {}
    for o in opts:
        if not o.exclusive and o.mana_cost:
            groups.setdefault(o.ability, []).append(o)
    for group in groups.values():
        if any(o.removes_any for o in group):
            if not all(o.removes_any for o in group) or not _merged(group):
                return False
        elif any(o.produced != 1 for o in group) and any(o.repeat >= MAX_REPEAT for o in group):
            return False  # more mana than it costs, with no limit but the model's
    return True


def _merged(group: list[Option]) -> bool:
    """Every activation of this variable-counter ability adds mana of the same masks whatever X
    is (a storage land), under the same costs: one activation removing all counters does what
    any several do."""
    masks = {m for o in group for m in o.slots}
    first = group[0]
    return len(masks) == 1 and all(o.restriction == first.restriction and o.nonsnow_tail == first.nonsnow_tail
                                   and o.mana_cost == first.mana_cost and o.life == first.life
                                   and o.energy == first.energy and o.damage == first.damage for o in group)


def _reshaped(opts: tuple[Option, ...]) -> tuple[Option, ...]:
    """A storage land's variable-counter options as one activation removing every counter."""
    out: list[Option] = []
    seen: set[int] = set()
    for o in opts:
        if not (not o.exclusive and o.mana_cost and o.removes_any):
            out.append(o)
            continue
        if o.ability in seen:
            continue
        seen.add(o.ability)
        most = max((p for p in opts if p.ability == o.ability and not p.exclusive), key=lambda p: p.produced)
        out.append(dataclasses.replace(most, repeat=1))
    return tuple(out)


def _made(supply: Supply) -> int:
    """The most mana the pool and every ability but the repeatable one-mana ones that cost mana
    can make (each mana the start of a path, :func:`widen`'s bound)."""
    total = supply.pool_total
    for cls in supply.classes:
        exclusive = max((o.produced for o in cls.options if o.exclusive), default=0)
        reps: dict[int, int] = {}
        for o in cls.options:
            if not o.exclusive and not (o.mana_cost and o.produced == 1 and not o.removes_any):
                reps[o.ability] = max(reps.get(o.ability, 0), o.produced * o.repeat)
        total += cls.count * (exclusive + sum(reps.values()))
    return total


def _bounded(supply: Supply) -> Supply:
    """The repeatable one-mana abilities that cost mana, each limited to the activations that can
    matter (module docstring): at most the mana made by the rest, over ``c - 1`` when it costs
    ``c > 1``; a class's members share the limit."""
    if not any(not o.exclusive and o.mana_cost and o.produced == 1 and not o.removes_any
               for cls in supply.classes for o in cls.options):
        return supply
    made = _made(supply)
    classes = []
    for cls in supply.classes:
        opts = []
        for o in cls.options:
            if not o.exclusive and o.mana_cost and o.produced == 1 and not o.removes_any:
                size = _cost_size(o)
                most = made if size <= 1 else made // (size - 1)
                o = dataclasses.replace(o, repeat=min(o.repeat, -(-most // cls.count)))
                if o.repeat <= 0:
                    continue
            opts.append(o)
        if opts:
            classes.append(SourceClass(cls.members, cls.positions, tuple(opts), cls.snow, cls.kind, cls.name,
                                       cls.creature, cls.hand) if len(opts) != len(cls.options)
                           or opts != list(cls.options) else cls)
    return dataclasses.replace(supply, classes=tuple(classes))


def _sacrifices_lands(state: GameState, pid: str) -> bool:
    """Is this permanent's every mana ability "Sacrifice a land: Add one mana of any type the
    sacrificed land could produce" (Squandered Resources), with nothing else to its cost?"""
    perm = state.permanent(pid)
    if perm is None or not perm.card.mana_abilities or perm.card.unsupported:
        return False
    return all(ab.production.reference == _SACRIFICED_LAND and list(ab.cost.parts()) == ["sacrifice a land"]
               and ab.production.amount is None and ab.production.reference_count == 1
               and ab.condition is None and not ab.per_turn and ab.production.restriction is None
               for ab in perm.card.mana_abilities)


def _lands_unreadable(state: GameState, supply: Supply) -> str:
    """Why the lands' sacrifice can't be read exactly here (module docstring), or ``""``."""
    from manasolver.models.rules.production import active_effects
    if active_effects(state):
        return "sacrificing lands for mana beside effects on mana is not modelled by the options query"
    if any(o.tap_creatures for cls in supply.classes for o in cls.options):
        return ("sacrificing lands for mana beside abilities that tap other permanents is not modelled by "
                "the options query")
    for cls in supply.classes:
        if _is_land(state, cls) and any(not o.exclusive and o.mana_cost for o in cls.options) \
                and not _storage_land(cls):
            return (f"sacrificing {cls.name}, whose repeatable ability costs mana, is not modelled by the "
                    "options query")
    try:
        _produce(state)
    except Unsupported as err:
        return f"what the lands could produce is not known: {err.message}"
    return ""


def _is_land(state: GameState, cls: SourceClass) -> bool:
    perm = state.permanent(cls.members[0]) if not cls.hand else None
    return perm is not None and perm.is_land


def _produce(state: GameState) -> dict[str, int]:
    """What each land could produce (CR 106.7), as the payment queries read it."""
    from manasolver.solver.graph import reference_sets
    return dict(reference_sets(state))


def _with_sacrifices(state: GameState, supply: Supply) -> Supply:
    """Every land of the player sacrificed after its own abilities (module docstring): on the
    land's class, each option that does not sacrifice the land adds one more mana of what it
    could produce, and being only sacrificed is one more choice; tapped lands and lands without
    usable abilities come as classes of that one choice."""
    could = _produce(state)
    in_class = {m for cls in supply.classes for m in cls.members}
    classes: list[SourceClass] = []
    for cls in supply.classes:
        mask = could.get(cls.members[0], 0) if _is_land(state, cls) else 0
        if not mask:
            classes.append(cls)
            continue
        if _storage_land(cls):
            # its {T} abilities stay one free choice, at any time before; the sacrifice comes after
            # removing the counters, or alone
            opts = [dataclasses.replace(o, exclusive=False, repeat=1, ability=_TAPPED) if o.exclusive
                    else dataclasses.replace(o, slots=o.slots + (mask,), exclusive=True) if o.mana_cost else o
                    for o in cls.options]
        else:
            opts = [dataclasses.replace(o, slots=o.slots + (mask,)) if o.exclusive and not o.sacrifice else o
                    for o in cls.options]
        opts.append(_sacrifice(mask))
        classes.append(SourceClass(cls.members, cls.positions, tuple(opts), cls.snow, cls.kind, cls.name,
                                   cls.creature, cls.hand))
    rest: dict[int, tuple[list[str], list[int]]] = {}
    for pos, perm in enumerate(state.battlefield):
        if perm.controller != supply.player or not perm.is_land or perm.id in in_class:
            continue
        if any(e.permanent == perm.id for e in supply.excluded):
            continue  # left out, and reported
        mask = could.get(perm.id, 0)
        if mask:
            ids, positions = rest.setdefault(mask, ([], []))
            ids.append(perm.id)
            positions.append(pos)
    for mask, (ids, positions) in rest.items():
        classes.append(SourceClass(tuple(ids), tuple(positions), (_sacrifice(mask),), False, "land",
                                   "a sacrificed land"))
    classes.sort(key=lambda c: c.positions[0])
    return dataclasses.replace(supply, classes=tuple(classes))


def _storage_land(cls: SourceClass) -> bool:
    """A land whose one repeatable ability that costs mana is activated once (a storage land read
    by :func:`_reshaped`), whose other abilities are free, don't sacrifice it and need ``{T}``
    or ``{Q}`` (one of them at most): sacrificed after its counters are removed."""
    costly = {o.ability for o in cls.options if not o.exclusive and o.mana_cost}
    return (len(costly) == 1 and all(o.repeat == 1 and o.removes_any for o in cls.options
                                     if not o.exclusive and o.mana_cost)
            and all(o.free and not o.sacrifice for o in cls.options if o.exclusive))


def _sacrifice(mask: int) -> Option:
    """A land only sacrificed: one mana of a type it could produce (the snow of the mana is not
    read by ``options``)."""
    return Option(_SACRIFICE, (mask,), ("sacrifice a land",))
