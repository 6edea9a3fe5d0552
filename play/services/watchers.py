"""Spectators' connections (`TableWatcher`), counted for a table's page: never a lock on the table.

A connection without a seat is a spectator. It adds its row when it opens,
refreshes `last_seen` at the heartbeats' cadence and removes the row when it
closes; a row whose process died falls stale (three beats) and is no longer
counted, and the beat's `play.watchers_prune` deletes it. Each statement
touches only watcher rows, never the table's, so watching never waits on a
play nor holds one up. A hostile client could otherwise fill the table: a
table counts at most SPEED_TABLE_WATCHERS_PER_TABLE rows, a signed-in user
SPEED_TABLE_WATCHERS_PER_USER of them; a connection past a cap still watches,
only uncounted. Anonymous connections are capped per address at the edge.
"""

from __future__ import annotations

from django.conf import settings

from ..models import TableWatcher
from .live import now_ms, stale_after_ms


def _fresh_since() -> int:
    return now_ms() - stale_after_ms()


def watcher_add(*, table_id: int, key: str, user_id: int | None) -> bool:
    """Count this connection as watching the table; False when a cap left it uncounted.

    The caps are read then the row written, without a lock: two connections at once may pass a
    cap by one each, which bounds the rows all the same.
    """
    fresh = TableWatcher.objects.filter(table_id=table_id, last_seen__gte=_fresh_since())
    if fresh.count() >= settings.SPEED_TABLE_WATCHERS_PER_TABLE:
        return False
    if user_id is not None and fresh.filter(user_id=user_id).count() >= settings.SPEED_TABLE_WATCHERS_PER_USER:
        return False
    TableWatcher.objects.update_or_create(
        key=key, defaults={"table_id": table_id, "user_id": user_id, "last_seen": now_ms()}
    )
    return True


def watcher_beat(*, key: str) -> bool:
    """The connection is alive (one UPDATE); False when its row is gone (pruned after an outage): add it again."""
    return bool(TableWatcher.objects.filter(key=key).update(last_seen=now_ms()))


def watcher_remove(*, key: str) -> None:
    """The connection closed: it watches no more."""
    TableWatcher.objects.filter(key=key).delete()


def watchers_prune() -> int:
    """Delete the rows of connections silent for three heartbeats (their process died); how many (the beat's)."""
    deleted, _ = TableWatcher.objects.filter(last_seen__lt=_fresh_since()).delete()
    return deleted
