"""Reads of logs and their replay steps."""

from __future__ import annotations

from datetime import datetime

from django.db.models import QuerySet

from .models import MatchLog

# Everything but the document itself: lists and details never need the bytes.
_SUMMARY_DEFER = ("data",)


def log_get(*, log_id: int) -> MatchLog | None:
    return MatchLog.objects.defer(*_SUMMARY_DEFER).select_related("winner").filter(pk=log_id).first()


def log_get_with_data(*, log_id: int) -> MatchLog | None:
    return MatchLog.objects.filter(pk=log_id).first()


def log_list(*, game_id: int | None = None, status: str | None = None) -> QuerySet[MatchLog]:
    logs = MatchLog.objects.defer(*_SUMMARY_DEFER).select_related("winner")
    if game_id is not None:
        logs = logs.filter(game_id=game_id)
    if status:
        logs = logs.filter(status=status)
    return logs.order_by("-submitted_at", "-id")


def logs_for_reverification(
    *, all_logs: bool = False, since: datetime | None = None, code: str | None = None, pending: bool = False
) -> QuerySet[MatchLog]:
    """The logs `manage.py reverify` sends back to the workers (filters combine with AND)."""
    logs = MatchLog.objects.all()
    if pending:
        logs = logs.filter(status=MatchLog.Status.PENDING)
    if since is not None:
        logs = logs.filter(submitted_at__gte=since)
    if code:
        logs = logs.filter(code=code)
    if not (all_logs or pending or since is not None or code):
        return logs.none()
    return logs.order_by("id")
