"""Celery tasks of the matches app: an interface like views, each calling one service."""

from __future__ import annotations

from datetime import timedelta

from celery import Task, shared_task
from django.conf import settings
from django.db import close_old_connections, transaction

from .services import challenges_expire, games_lapse
from .services.outbox import outbox_prune, outbox_send, outbox_sweep, outbox_write


@shared_task(name="matches.games_lapse", ignore_result=True)
def games_lapse_task() -> int:
    """Let unconfirmed results whose window ran out stand (run by Celery beat, see CELERY_BEAT_SCHEDULE)."""
    close_old_connections()
    return games_lapse()


@shared_task(name="matches.challenges_expire", ignore_result=True)
def challenges_expire_task() -> int:
    """Celery beat: write down as expired the open challenges past their time (they already read as expired)."""
    close_old_connections()
    return challenges_expire()


@shared_task(name="matches.outbox_send", ignore_result=True, bind=True)
def outbox_send_task(self: Task, ids: list[int]) -> int:
    """Send the outbox rows a committed change wrote (`matches.services.outbox`); how many were sent.

    No retry of its own: a row this task could not send stays pending, and the beat's sweep sends it.
    """
    if not self.request.is_eager:  # in a worker: replace a connection a database restart broke
        close_old_connections()
    return outbox_send(ids=ids).sent


@shared_task(name="matches.outbox_sweep", ignore_result=True)
def outbox_sweep_task() -> int:
    """Celery beat: send the outbox rows still pending after a grace (the broker was down at their commit)."""
    close_old_connections()
    return outbox_sweep(older_than=timedelta(seconds=settings.SPEED_OUTBOX_SWEEP_AFTER_SECONDS)).sent


@shared_task(name="matches.outbox_prune", ignore_result=True)
def outbox_prune_task() -> int:
    """Celery beat, daily: forget the emails sent or skipped more than SPEED_OUTBOX_KEEP_DAYS ago."""
    close_old_connections()
    return outbox_prune()


@shared_task(name="matches.notification_send", ignore_result=True, bind=True)
def notification_send_task(self: Task, kind: str, user_ids: list[int], subject: str, body: str) -> int:
    """A message queued before the outbox existed (in the broker across the deploy that added it).

    Written to the outbox and sent from there like any other; remove once no queue can hold one.
    """
    if not self.request.is_eager:
        close_old_connections()
    with transaction.atomic():
        outbox_write(kind=kind, user_ids=user_ids, subject=subject, body=body)
    return 0
