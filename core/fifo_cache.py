"""A per-process cache of at most so many entries, the oldest put in dropped first.

The play tables keep two such caches (each table's game, each table's latest
states): a process serving many tables must not hold every table it ever
served. First in, first out is enough there: an entry is only a saving (the
database is the truth), and a table still in play is put back at its next
change. Not thread-safe: each user keeps one per thread or uses it from one.
"""

from __future__ import annotations

from typing import Generic, TypeVar

K = TypeVar("K")
V = TypeVar("V")


class FifoCache(Generic[K, V]):
    """At most `size` entries; putting a new key when full drops the entry put first."""

    def __init__(self, size: int) -> None:
        self._size = size
        self._entries: dict[K, V] = {}  # a dict keeps the order its keys were first put in

    def __len__(self) -> int:
        return len(self._entries)

    def get(self, key: K) -> V | None:
        return self._entries.get(key)

    def pop(self, key: K) -> V | None:
        return self._entries.pop(key, None)

    def put(self, key: K, value: V) -> None:
        """Keep `value` under `key` (a key kept already keeps its place in the order)."""
        if key not in self._entries and len(self._entries) >= self._size:
            self._entries.pop(next(iter(self._entries)))
        self._entries[key] = value
