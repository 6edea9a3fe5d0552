"""Celery tasks: an interface like views. They take ids, and call one service.

`acks_late` and `reject_on_worker_lost` (also the project defaults) make a
task killed mid-way go back to the queue; the service is idempotent and runs
in one transaction, so a redelivery finds either nothing written or the
finished verdict. Only transient failures are retried: the database or the
broker gone away. An invalid log is a verdict, never an error.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from celery import Task, shared_task
from django.conf import settings
from django.db import InterfaceError, OperationalError, close_old_connections
from kombu.exceptions import OperationalError as KombuOperationalError
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

from .services import log_verify, pending_resend, solitaire_verify

TRANSIENT_ERRORS = (
    OperationalError,
    InterfaceError,
    KombuOperationalError,
    RedisConnectionError,
    RedisTimeoutError,
    ConnectionError,
)


#: A verification's task options: redelivered when a worker dies, retried only on transient errors.
VERIFY_TASK_OPTIONS: dict[str, Any] = {
    "acks_late": True,
    "reject_on_worker_lost": True,
    "autoretry_for": TRANSIENT_ERRORS,
    "retry_backoff": True,
    "retry_backoff_max": 600,
    "retry_jitter": True,
    "max_retries": 12,
    "ignore_result": True,
    "bind": True,
}


@shared_task(name="replays.log_verify", **VERIFY_TASK_OPTIONS)
def log_verify_task(self: Task, log_id: int, force: bool = False) -> None:
    """Verify one stored log (see `replays.services.log_verify`)."""
    if not self.request.is_eager:  # in a worker: replace a connection a database restart broke
        close_old_connections()
    log_verify(log_id=log_id, force=force)


@shared_task(name="replays.solitaire_verify", **VERIFY_TASK_OPTIONS)
def solitaire_verify_task(self: Task, run_id: int, force: bool = False) -> None:
    """Verify one stored solitaire run (see `replays.services.solitaire.solitaire_verify`)."""
    if not self.request.is_eager:
        close_old_connections()
    solitaire_verify(run_id=run_id, force=force)


@shared_task(name="replays.logs_resend_pending", ignore_result=True)
def logs_resend_pending_task() -> None:
    """Celery beat: send again the logs left pending (see `replays.services.pending_resend`)."""
    close_old_connections()
    pending_resend(older_than=timedelta(seconds=settings.SPEED_RESEND_PENDING_AFTER_SECONDS))
