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
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_stat_clear_snapshot()")  # inside a transaction the view is a snapshot
        cursor.execute(
            "SELECT count(*) FROM pg_stat_activity "
            "WHERE datname = current_database() AND pid <> pg_backend_pid() AND wait_event_type = 'Lock'"
        )
        row = cursor.fetchone()
    return bool(row and row[0])


def wait_for_a_lock_waiter(timeout: float = 30) -> None:
    """Return once another backend waits on a lock; fail if none does within `timeout` seconds."""
    deadline = time.monotonic() + timeout
    while not someone_waits_for_a_lock():
        assert time.monotonic() < deadline, f"no backend waited on a lock within {timeout}s"
        time.sleep(POLL)
