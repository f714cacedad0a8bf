"""The supply shape the fast optimiser models: a whitelist of the supply model's fields.

The optimiser reads only the fields named in :data:`KNOWN_FIELDS`.  Any other field of an
option, a source class or the supply (a kind of cost or source added later: sacrificing
other permanents, cards in the hand, tapping other creatures, per-unit snow) must hold its
default, or :func:`shape_known` is False and the problem goes to CP-SAT: the search never
guesses at what a new field means.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from manasolver.solver.supply.model import Option, SourceClass, Supply

__all__ = ["KNOWN_FIELDS", "KNOWN_KINDS", "shape_known"]

#: The fields of the supply model this optimiser reads.
KNOWN_FIELDS = {
    "Option": frozenset({"ability", "slots", "costs", "mana_cost", "life", "energy", "damage",
                         "sacrifice", "tap", "exclusive", "repeat", "restriction",
                         "tap_creatures"}),
    "SourceClass": frozenset({"members", "positions", "options", "snow", "kind", "name",
                              "creature"}),
    "Supply": frozenset({"player", "pool", "classes", "excluded", "life", "energy", "creatures"}),
}
#: Source kinds the ``prefer_lands`` term knows (lands count 0, the others 1).
KNOWN_KINDS = frozenset({"land", "creature", "artifact", "other"})

def _at_default(obj: Any) -> bool:
    """True when every field of ``obj`` outside :data:`KNOWN_FIELDS` holds its default (a
    few attribute reads: cheaper than remembering the answer per object)."""
    fields = _UNKNOWN[type(obj)]
    if fields is None:
        return False
    for name, default in fields:
        if getattr(obj, name) != default:
            return False
    return True


def _unknown_fields(cls: type) -> tuple[tuple[str, Any], ...] | None:
    """The fields of ``cls`` the optimiser does not read, with their defaults, or ``None`` when
    one has none (a new required field: unknown meaning)."""
    known = KNOWN_FIELDS[cls.__name__]
    out: list[tuple[str, Any]] = []
    for f in dataclasses.fields(cls):
        if f.name in known:
            continue
        if f.default is not dataclasses.MISSING:
            out.append((f.name, f.default))
        elif f.default_factory is not dataclasses.MISSING:
            out.append((f.name, f.default_factory()))
        else:
            return None
    return tuple(out)


#: Per supply model type: its fields outside :data:`KNOWN_FIELDS` with their defaults (computed
#: once, at import: reading a dataclass's fields on every object was a tenth of a fresh pay line).
_UNKNOWN: dict[type, tuple[tuple[str, Any], ...] | None] = {
    cls: _unknown_fields(cls) for cls in (Option, SourceClass, Supply)}


def shape_known(sup: Supply) -> bool:
    """Does ``sup`` use only what this optimiser models (:data:`KNOWN_FIELDS`)?  A few attribute
    reads per option (0.1 ms on a board of 1,000 permanents), computed each time."""
    return _at_default(sup) and all(
        _at_default(k) and k.kind in KNOWN_KINDS and all(_at_default(o) for o in k.options)
        for k in sup.classes)
