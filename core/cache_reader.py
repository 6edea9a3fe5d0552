"""A reader of entries cached under a generation (`tournaments.cache`, `core.site_cache`), for one request.

A page reads a dozen entries (counts, standings, the bracket, the HTML of its
parts); each read on its own is a round trip to the cache, and a round trip costs
a busy server far more than the bytes do. The reader reads the generation once,
`prefetch` asks for the entries a page will need in one `get_many`, and `get`
answers from what came back, reading (or computing and storing) only what was
not there. A reader sees one generation throughout, so the parts agree.
`{% cached_part reader name %}` (web/templatetags/parts.py) caches a part of a
template's HTML through one. A part's HTML (a name starting `html:`) shows times
in the reader's time zone (web.middleware.TimeZoneMiddleware), so each zone has
its own; the data entries hold aware times and are shared by every zone.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, TypeVar

from django.core.cache import cache
from django.utils import timezone

T = TypeVar("T")

_MISSING = object()


class GenerationReader:
    """Entries named `name`, stored as `{prefix}:{generation}:{name}`, `timeout` seconds at most."""

    def __init__(self, *, prefix: str, generation: Callable[[], str], timeout: int) -> None:
        self._prefix = prefix
        self._read_generation = generation
        self._timeout = timeout
        self._generation: str | None = None
        self._known: dict[str, Any] = {}
        self._absent: set[str] = set()  # asked for and not cached: computed, not asked for again

    @property
    def generation(self) -> str:
        if self._generation is None:
            self._generation = self._read_generation()
        return self._generation

    def _key(self, name: str) -> str:
        if name.startswith("html:"):  # rendered in the reader's zone: "1 Jan 2030" in UTC is 31 Dec in New York
            return f"{self._prefix}:{self.generation}:{name}@{timezone.get_current_timezone_name()}"
        return f"{self._prefix}:{self.generation}:{name}"

    def prefetch(self, names: Iterable[str]) -> None:
        """Fetch these entries in one round trip (those missing are computed when `get` asks for them)."""
        keys = {self._key(name): name for name in names if name not in self._known and name not in self._absent}
        if keys:
            found = cache.get_many(list(keys))
            for key, name in keys.items():
                if key in found:
                    self._known[name] = found[key]
                else:
                    self._absent.add(name)

    def get(self, name: str, compute: Callable[[], T]) -> T:
        """`compute()`, or what it gave under `name` for this generation (stored values must be picklable)."""
        if name in self._known:
            return self._known[name]  # type: ignore[no-any-return]
        key = self._key(name)
        value = _MISSING if name in self._absent else cache.get(key, _MISSING)
        if value is _MISSING:
            value = compute()
            cache.set(key, value, timeout=self._timeout)
        self._known[name] = value
        return value  # type: ignore[return-value]
