"""Celery tasks of the tournaments app: an interface like views, each calling one service."""

from __future__ import annotations

from celery import shared_task
from django.db import close_old_connections

from .services import tournaments_start_due


@shared_task(name="tournaments.start_due", ignore_result=True)
def tournaments_start_due_task() -> int:
    """Celery beat: start the tournaments that run themselves whose start time has come; how many started."""
    close_old_connections()
    return len(tournaments_start_due())
