"""Celery tasks of the tournaments app: an interface like views, each calling one service."""

from __future__ import annotations

from celery import shared_task
from django.db import close_old_connections

from .services import tournaments_start_due
from .services.running import rounds_call_due


@shared_task(name="tournaments.due_sweep", ignore_result=True)
def tournaments_due_sweep_task() -> int:
    """Celery beat: in the tournaments that run themselves, start those whose start time has come and call
    the rounds whose "not before" time has; how many tournaments it acted on."""
    close_old_connections()
    return len(tournaments_start_due()) + len(rounds_call_due())
