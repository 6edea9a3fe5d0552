"""The cache of the site-wide lists every visitor sees the same (the home page's matches, replays, tournaments).

As `tournaments/cache.py`: entries are stored under a *generation*, a random
token in Django's cache, and `site_lists_changed` replaces it, so nothing has
to list what was cached. The services that change what the lists show call it
explicitly (no signals): `match_create` and `match_create_bulk` (a new match),
`game_record_change` (every change of a game's result made through the
services, so every match that ends or is corrected), `match_annul`,
`log_verify` (a verdict: the latest replays), and `tournament_changed` (a
tournament's status and counts).

Explicit rather than a short timeout: the home page's live regions fetch the
page again as soon as `/live/` says something changed, and a list served from a
cache that has not expired yet would stay stale there until the next change.

The token is replaced when the changing transaction commits, not before: no
reader of these lists runs inside a changing transaction, and a reader before
the commit that caches what is still committed is outdated by the new token.
That is one cache write per change, after the commit. Entries also
expire after `TIMEOUT_SECONDS`, which bounds what no service announces (a
renamed player, a row changed in the admin).
"""

from __future__ import annotations

import secrets

from django.core.cache import DEFAULT_CACHE_ALIAS, cache, caches
from django.db import transaction

from .cache_reader import GenerationReader

#: The cache key of the site lists' generation.
GENERATION_KEY = "site:lists:generation"

#: How long an entry lives at most (invalidation is explicit; see the module's docstring).
TIMEOUT_SECONDS = 600


def _bump() -> None:
    # Not through the `cache` proxy, which looks the cache up again: this runs once per verified log.
    caches[DEFAULT_CACHE_ALIAS].set(GENERATION_KEY, secrets.token_hex(8), timeout=None)


def site_lists_changed() -> None:
    """Invalidate the site-wide lists when the current transaction commits (at once outside one)."""
    transaction.on_commit(_bump)


def _generation() -> str:
    generation = cache.get(GENERATION_KEY)
    if generation is None:
        # add(), not set(): two processes starting a generation at once agree on one.
        cache.add(GENERATION_KEY, secrets.token_hex(8), timeout=None)
        generation = cache.get(GENERATION_KEY) or "uncached"
    return str(generation)


class SiteCache(GenerationReader):
    """One request's reader of the site lists' cache (`core.cache_reader`): one generation, entries together."""

    def __init__(self) -> None:
        super().__init__(prefix="site:lists", generation=_generation, timeout=TIMEOUT_SECONDS)
