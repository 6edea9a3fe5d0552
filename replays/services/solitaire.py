"""Speed Solitaire runs: a player's own log outside any match, verified and ranked.

A run is stored verbatim before anything else, like a match log, and
verified by a worker. A verified run is either cleared (the player called
Speed: ranked by the time of that call) or stuck (no move left: ranked by
the cards still held). Nobody else's word is involved, so a run needs no
confirmation; it decides nothing but its own place on the leaderboard.
"""

from __future__ import annotations

import hashlib
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.db.models import Sum
from django.utils import timezone

from core.errors import Invalid, NotAllowed, QuotaExceeded, TooLarge
from matches.selectors import AnyUser, signed_in, user_player
from speedrules import ENGINE_VERSION, LogError, ruleset_from_json, verify_bytes

from ..models import MatchLog, SolitaireRun
from .engine_call import EngineFailure, engine_call
from .reverification import runs_enqueue_verification
from .submission import document_check_events, document_parse


def _check_solitaire(document: dict[str, Any], handle: str) -> None:
    """The document is a one-player log of the submitter (its ruleset, when readable, is for one player)."""
    names = document.get("players")
    if not isinstance(names, list) or [str(name).lower() for name in names] != [handle.lower()]:
        raise Invalid(
            f"A solitaire log's `players` must be exactly your handle, [{handle!r}]; it is {names!r}.",
            extra={"field": "players", "expected": [handle]},
        )
    try:
        ruleset = ruleset_from_json(document.get("ruleset"))
    except LogError:
        return  # unreadable: the engine rejects it with its own code and message
    if ruleset.players != 1:
        raise Invalid(
            f"This log is for {ruleset.players} players; a solitaire run is Speed Solitaire (the `solitaire` preset, "
            "one player). Submit a match's logs to its game.",
            extra={"field": "ruleset"},
        )


def _check_bytes_today(*, user: User, size: int) -> None:
    """The same daily byte quota as match logs, counted over both."""
    per_day = settings.SPEED_LOG_BYTES_PER_USER_PER_DAY
    since = timezone.now() - timedelta(days=1)
    recent = {"submitted_by": user, "submitted_at__gte": since}
    used = sum(
        int(logs.filter(**recent).aggregate(total=Sum("size"))["total"] or 0)
        for logs in (MatchLog.objects.all(), SolitaireRun.objects.all())
    )
    if used + size > per_day:
        raise QuotaExceeded(
            f"You have submitted {used} bytes of logs in the last 24 hours; this one's {size} bytes would pass the "
            f"limit of {per_day} bytes a day (settings.SPEED_LOG_BYTES_PER_USER_PER_DAY). Try again later.",
            extra={"quota": "bytes_per_day", "limit": per_day, "used": used},
        )


@transaction.atomic
def solitaire_submit(*, data: bytes, user: AnyUser) -> tuple[SolitaireRun, bool]:
    """Store a player's solitaire log and enqueue its verification. Returns (run, created).

    The same document from the same player is the same submission (created False).
    """
    me, author = user_player(user=user), signed_in(user)
    if me is None or author is None:
        raise NotAllowed("Only players submit solitaire runs; log in with your player account.")
    if len(data) > settings.SPEED_LOG_MAX_BYTES:
        raise TooLarge(f"The log is {len(data)} bytes; the limit is {settings.SPEED_LOG_MAX_BYTES} bytes.")
    digest = hashlib.sha256(data).hexdigest()
    existing = SolitaireRun.objects.filter(player=me, sha256=digest).first()
    if existing is not None:
        return existing, False
    _check_bytes_today(user=author, size=len(data))
    document = document_parse(data)
    if not isinstance(document, dict):
        raise Invalid(f"The body is JSON but not an object (it is a {type(document).__name__}); send the log itself.")
    document_check_events(document)
    _check_solitaire(document, me.handle)
    try:
        with transaction.atomic():
            run = SolitaireRun.objects.create(player=me, data=data, size=len(data), sha256=digest, submitted_by=author)
    except IntegrityError:  # the same document raced in
        return SolitaireRun.objects.get(player=me, sha256=digest), False
    runs_enqueue_verification(run_ids=[run.pk])
    return run, True


def solitaire_submit_from_table(*, data: bytes, player_id: int, user_id: int | None) -> SolitaireRun:
    """Store the run a Speed Solitaire table recorded, and enqueue its verification after the commit.

    Called under the table row's lock with the log the table made itself: no byte quota is spent, and
    the workers judge it as any submitted run, so only a verified run reaches the leaderboard.
    """
    digest = hashlib.sha256(data).hexdigest()
    run = SolitaireRun.objects.create(
        player_id=player_id, data=data, size=len(data), sha256=digest, submitted_by_id=user_id
    )
    runs_enqueue_verification(run_ids=[run.pk])
    return run


def _speed_call_ms(data: bytes) -> int | None:
    """The time of the run's Speed call (its last event, in a verified cleared run)."""
    document = document_parse(data)
    events = document.get("events") if isinstance(document, dict) else None
    calls = [event.get("t") for event in events or () if isinstance(event, dict) and event.get("type") == "speed"]
    return calls[-1] if calls and isinstance(calls[-1], int) else None


@transaction.atomic
def solitaire_verify(*, run_id: int, force: bool = False) -> SolitaireRun | None:
    """Judge one stored run (idempotent; a run judged by this engine version is left alone unless `force`)."""
    run = SolitaireRun.objects.select_for_update().filter(pk=run_id).first()
    if run is None:
        return None
    judged = run.status in (SolitaireRun.Status.VERIFIED, SolitaireRun.Status.REJECTED)
    if judged and run.engine_version == ENGINE_VERSION and not force:
        return run
    data = bytes(run.data)
    run.cleared = run.finished_ms = run.cards_left = None
    verdict = engine_call(lambda: verify_bytes(data), what=f"solitaire run {run.pk}")
    if isinstance(verdict, EngineFailure):  # the run is kept, marked failed
        run.status, run.code, run.event = SolitaireRun.Status.FAILED, "failed", None
        run.message = verdict.reason
    else:
        run.status = SolitaireRun.Status.VERIFIED if verdict.valid else SolitaireRun.Status.REJECTED
        run.code, run.event, run.message = str(verdict.code), verdict.event, verdict.message
        if verdict.valid:
            run.cleared = verdict.winner == 0
            run.finished_ms = _speed_call_ms(data) if run.cleared else None
            run.cards_left = 0 if run.cleared else (verdict.cards_left or (0,))[0]
    run.engine_version = ENGINE_VERSION
    run.verified_at = timezone.now()
    run.save()
    return run
