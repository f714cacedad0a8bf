"""The one identity-keyed cache of the package.

Values built from a frozen object (a card's description, a board's active effects, a supply's
flags) are reused while the same object is asked about again.  Keys are ``id(obj)``; the entry keeps
the object itself, so an id can't be reused by another object while its entry lives, and a hit is
checked with ``is``.  The cache is bounded: past ``limit`` entries it is emptied, which keeps the
memory of a long batch or service process flat at the cost of an occasional rebuild.

Both caches may be used from several threads at once: every entry is one immutable
``(kept object, value)`` tuple read and written by a single dictionary operation, and emptying
the cache puts a new dictionary in place of the old one, so a lookup racing a ``put`` or a
``clear`` sees the entry or misses, and a hit is always checked against the very object asked
about, never another's value.  Values stored must not be changed after they are stored (share
immutable tables; keep what a query mutates per query or per thread).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

__all__ = ["IdentityMemo", "KeyMemo"]

K = TypeVar("K")
V = TypeVar("V")
H = TypeVar("H", bound=Hashable)


class IdentityMemo(Generic[K, V]):
    """A bounded cache from an object's identity to a value computed from it."""

    __slots__ = ("_entries", "limit")

    def __init__(self, limit: int = 4096) -> None:
        self._entries: dict[int, tuple[K, V]] = {}
        self.limit = limit

    def get(self, obj: K) -> V | None:
        """The value stored for this very object, or ``None``."""
        hit = self._entries.get(id(obj))
        if hit is not None and hit[0] is obj:
            return hit[1]
        return None

    def put(self, obj: K, value: V) -> V:
        """Store ``value`` for ``obj`` and return it."""
        entries = self._entries
        if len(entries) >= self.limit:
            entries = self._entries = {}
        entries[id(obj)] = (obj, value)
        return value

    def get_or(self, obj: K, build: Callable[[K], V]) -> V:
        """The stored value, or ``build(obj)`` stored and returned."""
        hit = self._entries.get(id(obj))
        if hit is not None and hit[0] is obj:
            return hit[1]
        return self.put(obj, build(obj))

    def clear(self) -> None:
        """Forget every entry (a new, empty dictionary: lookups under way are unharmed)."""
        self._entries = {}

    def __len__(self) -> int:
        return len(self._entries)


class KeyMemo(Generic[H, V]):
    """A bounded cache keyed by a hashable key (a tuple of ids and flags, say) whose entries keep
    the objects the key was made from alive, so that ids in the key stay valid."""

    __slots__ = ("_entries", "limit")

    def __init__(self, limit: int = 4096) -> None:
        self._entries: dict[H, tuple[object, V]] = {}
        self.limit = limit

    def get(self, key: H, keep: object) -> V | None:
        """The value stored under ``key`` when it was stored with this very ``keep``."""
        hit = self._entries.get(key)
        if hit is not None and hit[0] is keep:
            return hit[1]
        return None

    def lookup(self) -> Callable[[H], tuple[object, V] | None]:
        """The lookup of the entries as they are now, for a loop of lookups without a call of
        :meth:`get` each: ``(kept object, value)`` or ``None`` (check the kept object as it does)."""
        return self._entries.get

    def put(self, key: H, keep: object, value: V) -> V:
        """Store ``value`` under ``key``, keeping ``keep`` alive; return ``value``."""
        entries = self._entries
        if len(entries) >= self.limit:
            entries = self._entries = {}
        entries[key] = (keep, value)
        return value

    def clear(self) -> None:
        """Forget every entry (a new, empty dictionary: lookups under way are unharmed)."""
        self._entries = {}

    def __len__(self) -> int:
        return len(self._entries)
