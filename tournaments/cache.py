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

from django.core.cache import cache
from django.db import transaction

from core.cache_reader import GenerationReader
from core.site_cache import site_lists_changed

#: How long an entry lives at most. Invalidation is explicit; this only bounds what
#: a change made outside the tournament services (a player's new display name) can leave stale.
TIMEOUT_SECONDS = 600


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


class TournamentCache(GenerationReader):
    """One request's reader of a tournament's cache (`core.cache_reader`): one generation, entries together."""

    def __init__(self, tournament_id: int) -> None:
        super().__init__(
            prefix=f"tournament:{tournament_id}",
            generation=lambda: tournament_generation(tournament_id=tournament_id),
            timeout=TIMEOUT_SECONDS,
        )
        self.tournament_id = tournament_id
