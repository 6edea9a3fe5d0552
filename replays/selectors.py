"""Reads of logs and their replay steps."""

from __future__ import annotations

from datetime import datetime

from django.db import connection
from django.db.models import QuerySet

from matches.models import Player

from .models import MatchLog, SolitaireRun

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


def pending_ids_submitted_before(*, before: datetime, limit: int) -> tuple[list[int], list[int]]:
    """The oldest match logs and solitaire runs still pending that were submitted before `before` (ids)."""
    logs = MatchLog.objects.filter(status=MatchLog.Status.PENDING, submitted_at__lt=before)
    runs = SolitaireRun.objects.filter(status=SolitaireRun.Status.PENDING, submitted_at__lt=before)
    return (
        list(logs.order_by("submitted_at", "id").values_list("id", flat=True)[:limit]),
        list(runs.order_by("submitted_at", "id").values_list("id", flat=True)[:limit]),
    )


# --- Solitaire ------------------------------------------------------------------

SOLITAIRE_BEST_ORDER = ("-cleared", "finished_ms", "cards_left", "verified_at", "id")
"""Best first: cleared before stuck, then the earlier Speed call, then fewer cards left, then the earlier run."""


def solitaire_runs(*, player: Player | None = None) -> QuerySet[SolitaireRun]:
    """Verified runs, newest first (without the documents)."""
    runs = SolitaireRun.objects.defer("data").select_related("player").filter(status=SolitaireRun.Status.VERIFIED)
    if player is not None:
        runs = runs.filter(player=player)
    return runs.order_by("-verified_at", "-id")


def solitaire_run_get(*, run_id: int) -> SolitaireRun | None:
    return SolitaireRun.objects.select_related("player").filter(pk=run_id).first()


def solitaire_leaderboard() -> QuerySet[SolitaireRun]:
    """Each player's best verified run, best first (one query; PostgreSQL's DISTINCT ON where it has it)."""
    runs = SolitaireRun.objects.defer("data").select_related("player").filter(status=SolitaireRun.Status.VERIFIED)
    if connection.features.can_distinct_on_fields:
        best = runs.order_by("player_id", *SOLITAIRE_BEST_ORDER).distinct("player_id").values("pk")
        return runs.filter(pk__in=best).order_by(*SOLITAIRE_BEST_ORDER)
    best_ids: dict[int, int] = {}
    for run_id, player_id in runs.order_by(*SOLITAIRE_BEST_ORDER).values_list("pk", "player_id"):
        best_ids.setdefault(player_id, run_id)  # SQLite (the demo): the first of each player in best order
    return runs.filter(pk__in=best_ids.values()).order_by(*SOLITAIRE_BEST_ORDER)
