"""The error taxonomy of manasolver.

Every error of input is a :class:`ManasolverError` (a ``ValueError``) with a
``code`` of the protocol and a ``where`` path naming the offending field, such as
``battlefield[3].card`` or ``cost[2]``.  The protocol turns them into answers.
"""

from __future__ import annotations

__all__ = [
    "BadCost",
    "BadQuery",
    "BadState",
    "ManasolverError",
    "UnknownBoard",
    "UnknownCard",
    "UnknownField",
    "Unsupported",
]


class ManasolverError(ValueError):
    """Base class: an input the engine refuses, with a protocol code and a location."""

    code = "error"

    def __init__(self, message: str, where: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.where = where

    def at(self, prefix: str) -> ManasolverError:
        """Return this error with ``prefix`` prepended to its location."""
        if not prefix:
            return self
        if not self.where:
            where = prefix
        elif self.where.startswith("["):
            where = prefix + self.where
        else:
            where = f"{prefix}.{self.where}"
        clone = type(self).__new__(type(self))
        ManasolverError.__init__(clone, self.message, where)
        clone.__dict__.update({k: v for k, v in self.__dict__.items() if k not in ("message", "where")})
        return clone

    def to_json(self) -> dict[str, object]:
        """The protocol's error object."""
        return {"error": {"code": self.code, "message": self.message, "where": self.where}}

    def __str__(self) -> str:
        return f"{self.message} (at {self.where})" if self.where else self.message


class BadCost(ManasolverError):
    """A cost or mana string that is not valid notation."""

    code = "bad_cost"


class BadState(ManasolverError):
    """A board that is malformed or inconsistent."""

    code = "bad_state"


class UnknownCard(ManasolverError):
    """A card name that is in no card database; carries the closest names."""

    code = "unknown_card"

    def __init__(self, message: str, where: str = "", suggestions: tuple[str, ...] = ()) -> None:
        super().__init__(message, where)
        self.suggestions = suggestions


class UnknownBoard(ManasolverError):
    """A board handle that names no kept board: never opened, closed, or forgotten as the
    least recently used (sessions)."""

    code = "unknown_board"


class UnknownField(ManasolverError):
    """A field the schema does not have (usually a typo)."""

    code = "unknown_field"


class Unsupported(ManasolverError):
    """A card, rule or clause the engine does not implement: never answered wrongly."""

    code = "unsupported"


class BadQuery(ManasolverError):
    """A protocol query that is malformed."""

    code = "bad_query"
