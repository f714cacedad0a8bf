"""Frozen slotted dataclasses made quickly: the value types made on every board or query.

A frozen dataclass's own ``__init__`` sets each field through ``object.__setattr__``, three to six
times slower than a slot's own descriptor.  The dataclasses made per board or query (the state, a
supply's classes and options, a backend's problem, the payment request) set their fields through
:func:`slot_setters` in a written-out ``__init__``, and stay frozen: assigning to a field
afterwards still raises ``FrozenInstanceError``.  (The values a board is made of, its permanents,
players, turn and libraries, are named tuples, made faster still: :mod:`manasolver.models.state`.)
"""

from __future__ import annotations

from dataclasses import fields
from typing import Any

__all__ = ["slot_setters"]


def slot_setters(cls: type) -> tuple[Any, ...]:
    """The setters of a frozen slotted dataclass's fields, in field order: its slots' own
    descriptors, for its written-out ``__init__``."""
    return tuple(cls.__dict__[f.name].__set__ for f in fields(cls))
