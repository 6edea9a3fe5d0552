"""Celery tasks of the tables: a timer due now, the beat's sweep of every overdue one (amendment L1), and
the beat's sweeps of the lobby's seeks whose players left and of the offers to play again, and its
prune of dead spectators' rows.

The tables' two call the one path a socket process takes (`play.acting.table_fire`):
the referee's tick under the table row's lock, then the states and the
nudge to every connection. A tick is idempotent, so a timer fired by a task,
the sweep and a socket process at once records one event.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from celery import Task, shared_task
from django.db import close_old_connections

from core.outages import outage_kind
from replays.tasks import TRANSIENT_ERRORS

from .acting import again_sweep, table_fire_sync, tables_sweep
from .services import seeks_expire, table_wait_notices_send
from .services.watchers import watchers_prune

logger = logging.getLogger(__name__)

_OPTIONS = {
    "acks_late": True,
    "reject_on_worker_lost": True,
    "autoretry_for": TRANSIENT_ERRORS,
    "retry_backoff": True,
    "retry_backoff_max": 30,
    "max_retries": 20,
    "ignore_result": True,
    "bind": True,
}


@shared_task(name="play.table_fire", **_OPTIONS)
def table_fire_task(self: Task, table_id: int) -> None:
    """Fire whatever the table's clock makes due now."""
    if not self.request.is_eager:
        close_old_connections()
    table_fire_sync(table_id)


def _sweep(task: Task, name: str, sweep: Callable[[], int]) -> int:
    """Run a beat's sweep once; one the database or Redis failed is not retried (see `tables_sweep_task`)."""
    if not task.request.is_eager:
        close_old_connections()
    try:
        return sweep()
    except TRANSIENT_ERRORS as error:
        logger.warning("%s: %s, the next sweep tries again", name, outage_kind(error) or type(error).__name__)
        return 0


@shared_task(name="play.tables_sweep", **{**_OPTIONS, "autoretry_for": ()})
def tables_sweep_task(self: Task) -> int:
    """Fire every overdue timer and notice every silent seat (the beat runs this every few seconds).

    A sweep the database or Redis failed is not retried: the beat sends the next one within
    SPEED_TABLE_SWEEP_EVERY_SECONDS anyway, and the retries of every sweep an outage failed would
    all run at once when it ends, each firing every table due.
    """
    return _sweep(self, "tables sweep", tables_sweep)


@shared_task(name="play.seeks_expire", **{**_OPTIONS, "autoretry_for": ()})
def seeks_expire_task(self: Task) -> int:
    """Expire the lobby's seeks whose players left the lobby (the beat runs this every few seconds)."""
    return _sweep(self, "seeks sweep", seeks_expire)


@shared_task(name="play.table_wait_notices_send", **{**_OPTIONS, "autoretry_for": ()})
def table_wait_notices_send_task(self: Task) -> int:
    """Email the players still awaited at a match's table with no page open (the beat runs this often)."""
    return _sweep(self, "table wait notices", table_wait_notices_send)


@shared_task(name="play.again_expire", **{**_OPTIONS, "autoretry_for": ()})
def again_expire_task(self: Task) -> int:
    """Expire the tables' offers to play again nobody answered in time (the beat runs this every few seconds)."""
    return _sweep(self, "play-again sweep", again_sweep)


@shared_task(name="play.watchers_prune", **{**_OPTIONS, "autoretry_for": ()})
def watchers_prune_task(self: Task) -> int:
    """Delete the spectators' rows their dead processes left (the beat runs this every minute)."""
    return _sweep(self, "watchers prune", watchers_prune)
