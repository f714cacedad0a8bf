"""The supply shape the fast optimiser models: a whitelist of the supply model's fields.

The optimiser reads only the fields named in :data:`KNOWN_FIELDS`.  Any other field of an
option, a source class or the supply (a kind of cost or source added later: sacrificing
other permanents, cards in the hand, tapping other creatures, per-unit snow) must hold its
default, or :func:`shape_known` is False and the problem goes to CP-SAT: the search never
guesses at what a new field means.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from operator import attrgetter
from typing import Any

from manasolver.solver.supply.model import Option, SourceClass, Supply

__all__ = ["KNOWN_FIELDS", "KNOWN_KINDS", "shape_known"]

#: The fields of the supply model this optimiser reads, and ``removes_any``, which it need not
#: read: it models exclusive options only, each option one choice of the counters removed; nor
#: need it read ``discards_hand`` and ``removes_counters``, which say what an option's ``costs``
#: say, known here already.
KNOWN_FIELDS = {
    "Option": frozenset({"ability", "slots", "costs", "mana_cost", "life", "energy", "damage",
                         "sacrifice", "tap", "exclusive", "repeat", "restriction",
                         "tap_creatures", "removes_any", "discards_hand", "removes_counters"}),
    "SourceClass": frozenset({"members", "positions", "options", "snow", "kind", "name",
                              "creature"}),
    "Supply": frozenset({"player", "pool", "classes", "excluded", "life", "energy", "creatures"}),
}
#: Source kinds the ``prefer_lands`` term knows (lands count 0, the others 1).
KNOWN_KINDS = frozenset({"land", "creature", "artifact", "other"})

def _at_default(obj: Any) -> bool:
    """True when every field of ``obj`` outside :data:`KNOWN_FIELDS` holds its default (their
    values read at once and compared with the defaults': cheaper than remembering the answer
    per object)."""
    unknown = _UNKNOWN[type(obj)]
    if unknown is None:
        return False
    read, defaults = unknown
    return bool(read(obj) == defaults)


def _unknown_fields(cls: type) -> tuple[Callable[[Any], Any], object] | None:
    """A reader of the fields of ``cls`` the optimiser does not read, and what it reads on an
    object holding their defaults; ``None`` when one has no default (a new required field:
    unknown meaning)."""
    known = KNOWN_FIELDS[cls.__name__]
    names: list[str] = []
    defaults: list[object] = []
    for f in dataclasses.fields(cls):
        if f.name in known:
            continue
        names.append(f.name)
        if f.default is not dataclasses.MISSING:
            defaults.append(f.default)
        elif f.default_factory is not dataclasses.MISSING:
            defaults.append(f.default_factory())
        else:
            return None
    if not names:
        return (lambda obj: None), None
    if len(names) == 1:
        return attrgetter(names[0]), defaults[0]
    return attrgetter(*names), tuple(defaults)


#: Per supply model type: a reader of its fields outside :data:`KNOWN_FIELDS` and their defaults
#: (made once, at import, rather than read from the dataclass's fields for every object).
_UNKNOWN: dict[type, tuple[Callable[[Any], Any], object] | None] = {
    cls: _unknown_fields(cls) for cls in (Option, SourceClass, Supply)}


def shape_known(sup: Supply) -> bool:
    """Does ``sup`` use only what this optimiser models (:data:`KNOWN_FIELDS`)?  One read of
    the unknown fields per class and per option, computed each time."""
    option_fields = _UNKNOWN[Option]
    class_fields = _UNKNOWN[SourceClass]
    if not _at_default(sup) or option_fields is None or class_fields is None:
        return False
    read_option, option_defaults = option_fields
    read_class, class_defaults = class_fields
    for k in sup.classes:
        if read_class(k) != class_defaults or k.kind not in KNOWN_KINDS:
            return False
        for o in k.options:
            if read_option(o) != option_defaults:
                return False
    return True
