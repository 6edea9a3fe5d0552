"""Waiting, without sleeping a fixed time, for another request to block on a PostgreSQL lock.

A race test holds a lock (a row, the tournament) and waits here until the
other thread or process is queued behind it; then the outcome no longer
depends on how fast either side runs. The deadline only bounds a hang.
"""

from __future__ import annotations

import time

from django.db import connection

POLL = 0.01


def someone_waits_for_a_lock() -> bool:
    """Whether another backend of the test database is blocked on a lock right now."""
    return lock_waiters() > 0


def lock_waiters() -> int:
    """How many other backends of the test database are blocked on a lock right now."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_stat_clear_snapshot()")  # inside a transaction the view is a snapshot
        cursor.execute(
            "SELECT count(*) FROM pg_stat_activity "
            "WHERE datname = current_database() AND pid <> pg_backend_pid() AND wait_event_type = 'Lock'"
        )
        row = cursor.fetchone()
    return int(row[0]) if row else 0


def wait_for_a_lock_waiter(timeout: float = 30, *, count: int = 1) -> None:
    """Return once `count` other backends wait on a lock; fail if they do not within `timeout` seconds."""
    deadline = time.monotonic() + timeout
    while lock_waiters() < count:
        assert time.monotonic() < deadline, f"{count} backends did not wait on a lock within {timeout}s"
        time.sleep(POLL)
