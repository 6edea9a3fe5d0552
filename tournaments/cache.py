"""The cache of what a tournament's pages show the same to every visitor, and its invalidation.

Everything cached for a tournament (its computed standings, the site's
rendered bracket sections and tables) is stored under the tournament's
*generation*, a random token kept in Django's cache. `tournament_changed`
replaces the token, so every entry of the old generation stops being read at
once (and expires on its own); nothing has to list what was cached.

The services call `tournament_changed` explicitly (no signals): every change
to a tournament takes `services.common.tournament_lock`, which calls it, and
so a result that lands (`tournament_match_decided`) or a correction
(`pairing_correct`) invalidates the tournament's pages in the transaction
that records it.

The generation lives in the default cache. With several processes (gunicorn
workers, Celery workers recording results) that cache must be shared: set
`CACHE_URL` to a Redis URL (`speedsite/settings.py`). Local memory, the
fallback, is right only for a single process, such as the demo's runserver.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Iterable
from typing import Any, TypeVar

from django.core.cache import cache
from django.db import transaction

from speedsite.site_cache import site_lists_changed

T = TypeVar("T")

#: How long an entry lives at most. Invalidation is explicit; this only bounds what
#: a change made outside the tournament services (a player's new display name) can leave stale.
TIMEOUT_SECONDS = 600

_MISSING = object()


def _generation_key(tournament_id: int) -> str:
    return f"tournament:{tournament_id}:generation"


def tournament_generation(*, tournament_id: int) -> str:
    """The tournament's current generation; a new one when the cache has none (evicted, or never set)."""
    key = _generation_key(tournament_id)
    generation = cache.get(key)
    if generation is None:
        # add(), not set(): two processes starting a generation at once agree on one.
        cache.add(key, secrets.token_hex(8), timeout=None)
        generation = cache.get(key) or "uncached"
    return str(generation)


def _bump(tournament_id: int) -> None:
    cache.set(_generation_key(tournament_id), secrets.token_hex(8), timeout=None)


def tournament_changed(*, tournament_id: int) -> None:
    """Invalidate everything cached for the tournament: now, and again when the transaction commits.

    Now, so that the changing transaction itself (and a test inside one) reads
    afresh; again at commit, because a reader between the two may have cached
    what was still the committed state under the first new generation.
    """
    _bump(tournament_id)
    transaction.on_commit(lambda: _bump(tournament_id))
    site_lists_changed()  # the home page lists tournaments with their status and counts


class TournamentCache:
    """One reader's view of a tournament's cache: the generation read once, and entries fetched together.

    A page reads a dozen entries (counts, standings, the bracket, the HTML of its
    parts); each read on its own is a round trip to the cache, and a round trip
    costs a busy server far more than the bytes do. `prefetch` asks for the
    entries a page will need in one `get_many`; `get` then answers from what came
    back, and reads (or computes and stores) only what was not there. A reader
    sees one generation throughout, so its parts agree with one another.
    """

    def __init__(self, tournament_id: int) -> None:
        self.tournament_id = tournament_id
        self._generation: str | None = None
        self._known: dict[str, Any] = {}
        self._absent: set[str] = set()  # asked for and not cached: computed, not asked for again

    @property
    def generation(self) -> str:
        if self._generation is None:
            self._generation = tournament_generation(tournament_id=self.tournament_id)
        return self._generation

    def _key(self, name: str) -> str:
        return f"tournament:{self.tournament_id}:{self.generation}:{name}"

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
        """`compute()`, or what it gave under `name` for this generation (see `tournament_cached`)."""
        if name in self._known:
            return self._known[name]  # type: ignore[no-any-return]
        key = self._key(name)
        value = _MISSING if name in self._absent else cache.get(key, _MISSING)
        if value is _MISSING:
            value = compute()
            cache.set(key, value, timeout=TIMEOUT_SECONDS)
        self._known[name] = value
        return value  # type: ignore[return-value]


def tournament_cached(*, tournament_id: int, name: str, compute: Callable[[], T]) -> T:
    """`compute()`, or what it gave for this tournament's current generation under `name`.

    `name` must say everything the value depends on besides the tournament
    (a page number, a sort order). What is stored must be picklable.
    """
    return TournamentCache(tournament_id).get(name, compute)
