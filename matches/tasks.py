"""Celery tasks of the matches app: an interface like views, each calling one service."""

from __future__ import annotations

from celery import shared_task
from django.db import close_old_connections

from .services import games_lapse
from .services.notifications import notification_send


@shared_task(name="matches.games_lapse", ignore_result=True)
def games_lapse_task() -> int:
    """Let unconfirmed results whose window ran out stand (run by Celery beat, see CELERY_BEAT_SCHEDULE)."""
    close_old_connections()
    return games_lapse()


@shared_task(name="matches.notification_send", ignore_result=True)
def notification_send_task(kind: str, user_ids: list[int], subject: str, body: str) -> int:
    """Send the email a committed change asked for (`matches.services.notifications.notify`)."""
    return notification_send(kind=kind, user_ids=user_ids, subject=subject, body=body)
