"""The supply shape the fast optimiser models: a whitelist of the supply model's fields.

The optimiser reads only the fields named in :data:`KNOWN_FIELDS`.  Any other field of an
option, a source class or the supply (a kind of cost or source added later: sacrificing
other permanents, cards in the hand, tapping other creatures, per-unit snow) must hold its
default, or :func:`shape_known` is False and the problem goes to CP-SAT: the search never
guesses at what a new field means.  The answer is remembered per supply (supplies are
cached per state).
"""

from __future__ import annotations

import dataclasses
from typing import Any

from manasolver.models._memo import IdentityMemo
from manasolver.solver.supply.model import Option, Supply

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

_SHAPES: IdentityMemo[Supply, bool] = IdentityMemo(limit=512)


def _at_default(obj: Any) -> bool:
    """True when every field of ``obj`` outside :data:`KNOWN_FIELDS` holds its default (a
    few attribute reads: cheaper than remembering the answer per object)."""
    fields = _unknown_fields(type(obj))
    if fields is None:
        return False
    for name, default in fields:
        if getattr(obj, name) != default:
            return False
    return True


#: Per dataclass type: its fields outside :data:`KNOWN_FIELDS` with their defaults, or
#: ``None`` when one has none (a new required field: unknown meaning).
_UNKNOWN: dict[type, tuple[tuple[str, Any], ...] | None] = {}


def _unknown_fields(cls: type) -> tuple[tuple[str, Any], ...] | None:
    """The fields of ``cls`` the optimiser does not read, with their defaults (computed once
    per type: reading a dataclass's fields on every object was a tenth of a fresh pay line)."""
    if cls not in _UNKNOWN:
        known = KNOWN_FIELDS[cls.__name__]
        out: list[tuple[str, Any]] = []
        ok = True
        for f in dataclasses.fields(cls):
            if f.name in known:
                continue
            if f.default is not dataclasses.MISSING:
                out.append((f.name, f.default))
            elif f.default_factory is not dataclasses.MISSING:
                out.append((f.name, f.default_factory()))
            else:
                ok = False
        _UNKNOWN[cls] = tuple(out) if ok else None
    return _UNKNOWN[cls]


#: Per options tuple (shared by the classes of one card in one state, across boards): every
#: option at its defaults outside :data:`KNOWN_FIELDS`.
_OPTIONS: IdentityMemo[tuple[Option, ...], bool] = IdentityMemo(limit=8192)


def _options_known(options: tuple[Option, ...]) -> bool:
    return all(_at_default(o) for o in options)


def _shape_of(sup: Supply) -> bool:
    """:func:`shape_known`, computed."""
    return _at_default(sup) and all(
        _at_default(k) and k.kind in KNOWN_KINDS and _OPTIONS.get_or(k.options, _options_known)
        for k in sup.classes)


def shape_known(sup: Supply) -> bool:
    """Does ``sup`` use only what this optimiser models (:data:`KNOWN_FIELDS`)?"""
    return _SHAPES.get_or(sup, _shape_of)
