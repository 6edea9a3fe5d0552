"""Handing a table's next due time to Celery, so it fires with every socket process gone (amendment L1).

A task is sent for the due time itself; the beat's sweep (`play.tables_sweep`)
fires whatever is overdue all the same, so a task lost with the broker, or
never sent, only makes a timer a few seconds late. Without a broker (the
demo: tasks run in-process) nothing is sent: the socket process's ticker
fires the timers, as the only process there is.
"""

from __future__ import annotations

import logging

from celery import current_app

from .live import now_ms

logger = logging.getLogger(__name__)


def timer_schedule(table_id: int, due_at: int) -> None:
    """Send `play.table_fire` for `due_at` (after the commit that stored it; never raises)."""
    if current_app.conf.task_always_eager:
        return
    from ..tasks import table_fire_task  # noqa: PLC0415 - the tasks module imports the services

    try:
        table_fire_task.apply_async((table_id,), countdown=max(0.0, (due_at - now_ms()) / 1000))
    except Exception:  # the broker is down: the beat's sweep fires the timer once it is back
        logger.warning("table %s: its timer could not be sent to the broker", table_id, exc_info=True)
