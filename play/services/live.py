"""A table's game as the engine holds it, rebuilt from its stored events, and a per-process cache of it.

The database is the truth: a cached game is used only when it was built at the
very `v` of the row just read, so a process that missed a change (another
process made it) replays the events again. The cache is per thread of the
process, and a table's work always runs on the same thread (`play.database`),
so a game is never shared between threads.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterable
from typing import Any

from django.conf import settings

from core.fifo_cache import FifoCache
from speedrules import Judge, ruleset_from_json

from ..models import Table, TableEvent

_local = threading.local()
_MAX_CACHED = 512


def now_ms() -> int:
    """The server's wall clock in epoch milliseconds (every process of a table reads the same clock)."""
    return int(time.time() * 1000)


def stale_after_ms() -> int:
    """A connection silent for this long is gone: three heartbeats missed (amendment L2)."""
    return 3 * int(settings.SPEED_TABLE_HEARTBEAT_MS)


def _cache() -> FifoCache[int, tuple[int, Judge]]:
    cache: FifoCache[int, tuple[int, Judge]] | None = getattr(_local, "games", None)
    if cache is None:
        cache = _local.games = FifoCache(_MAX_CACHED)
    return cache


def live_game_build(table: Table, *, take: bool = False) -> Judge:
    """The table's game after its stored events; `take`: the caller will change it (under the row's lock).

    A game taken out of the cache is put back only by `live_game_keep` after
    the caller's transaction commits, so a rolled-back change never leaves a
    game ahead of the database.
    """
    cache = _cache()
    entry = cache.pop(table.pk) if take else cache.get(table.pk)
    if entry is not None and entry[0] == table.v:
        return entry[1]
    events = (
        TableEvent.objects.filter(table_id=table.pk, index__lt=table.event_count)
        .order_by("index")
        .values_list("data", flat=True)
    )
    game = live_game_replay(table, events)
    if not take:
        live_game_keep(table.pk, table.v, game)
    return game


def live_game_replay(table: Table, events: Iterable[Any]) -> Judge:
    """The table's game after these of its stored events, in order (a reader that loaded them itself)."""
    game = Judge(ruleset_from_json(table.ruleset), tuple(table.players), list(table.deck))
    for raw in events:
        game.push(raw)
    return game


def live_game_keep(table_id: int, v: int, game: Judge) -> None:
    _cache().put(table_id, (v, game))
