"""Submitting a log: store the bytes verbatim, check what can be checked at once, enqueue verification.

The document is stored in the transaction that creates its row, before any
verdict; verification is enqueued only after commit (robustly: with the
broker down the log stays `pending` for `manage.py reverify --pending`).
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
from core.json_documents import JSONDocumentError, json_read
from matches.models import Game, Match
from matches.selectors import signed_in, user_is_organiser, user_player
from matches.services import HANDLE_PATTERN, AnyUser, game_lock, require_match_live
from speedrules import LogError, ruleset_from_json

from ..models import MatchLog
from .reverification import logs_enqueue_verification


def document_parse(data: bytes) -> Any:
    """The log's JSON value, read as the API reads every body (`core.json_documents`: the same limits)."""
    try:
        return json_read(data)
    except JSONDocumentError as exc:
        raise Invalid(
            f"The body is not a JSON document ({exc}); send the speed-log/1 log as the JSON body.",
            extra={"field": "data", "problem": "not_json"},  # the site words it for people (web.presenters)
        ) from None


#: The most events a log may hold unless `settings.SPEED_LOG_MAX_EVENTS` says otherwise: a hundred
#: times a long game (~50 events). The replay shows every one of them; beyond this it is abuse.
DEFAULT_MAX_EVENTS = 5_000


def document_check_events(document: dict[str, Any]) -> None:
    """Refuse a log with more events than the limit: counted on the parsed list, before anything is stored."""
    events = document.get("events")
    limit = getattr(settings, "SPEED_LOG_MAX_EVENTS", DEFAULT_MAX_EVENTS)
    if isinstance(events, list) and len(events) > limit:
        raise TooLarge(
            f"The log has {len(events)} events; the limit is {limit} events (settings.SPEED_LOG_MAX_EVENTS).",
            extra={"field": "events", "events": len(events), "limit": limit},
        )


def _handles_or_none(names: object) -> list[str] | None:
    """The log's `players` when they are a list of handles (to name them in an error), else None.

    Only what could be a handle is echoed back: anything else (a lone surrogate, markup) stays out of the error."""
    if (
        isinstance(names, list)
        and 0 < len(names) <= 4
        and all(isinstance(name, str) and HANDLE_PATTERN.match(name) for name in names)
    ):
        return list(names)
    return None


def _check_players(document: dict[str, Any], match: Match) -> None:
    names = document.get("players")
    handles = [player.handle for player in match.players]
    if (
        not isinstance(names, list)
        or len(names) != len(handles)
        or not all(isinstance(name, str) for name in names)
        or sorted(name.lower() for name in names) != sorted(handle.lower() for handle in handles)
    ):
        between = ", ".join(map(repr, handles[:-1])) + f" and {handles[-1]!r}"
        raise Invalid(
            f"The log's players are {names!r}, but this match is between {between}: "
            f"the log's `players` must list exactly these {len(handles)} handles, one per seat (in any order).",
            extra={"field": "players", "expected": handles, "found": _handles_or_none(names)},
        )
    if match.is_team:
        teams_here = {frozenset(handles[seat].lower() for seat in team) for team in match.teams}
        teams_in_log = {frozenset(names[seat].lower() for seat in team) for team in match.teams}
        if teams_in_log != teams_here:
            pairs = " against ".join(" and ".join(repr(handles[seat]) for seat in team) for team in match.teams)
            raise Invalid(
                f"The log seats the teams otherwise than this match ({pairs}): partners must sit in the "
                "seats of one team of the ruleset.",
                extra={"field": "players", "expected": handles},
            )


def _check_ruleset(document: dict[str, Any], match: Match) -> None:
    """A log whose ruleset is readable must be the match's ruleset; an unreadable one is the engine's to reject."""
    try:
        ruleset = ruleset_from_json(document.get("ruleset"))
    except LogError:
        return
    if ruleset.to_json() != match.ruleset:
        differ = {key: value for key, value in ruleset.to_json().items() if match.ruleset.get(key) != value}
        raise Invalid(
            f"The log's ruleset is not this match's ruleset ({match.ruleset_name or 'custom'}); "
            f"it differs in {', '.join(sorted(differ))}.",
            extra={"field": "ruleset", "expected": match.ruleset, "differs": differ},
        )


def _check_quotas(*, game: Game, user: AnyUser, size: int) -> None:
    """Refuse a new log beyond the submitter's quotas (settings, with environment overrides).

    Runs under the match's lock, so the per-game count cannot be raced past; the
    daily bytes span matches and may be overrun by as many requests as run at once.
    """
    if user is None or not user.is_authenticated:
        return
    per_game = settings.SPEED_LOGS_PER_GAME_PER_SUBMITTER
    stored = MatchLog.objects.filter(game=game, submitted_by=user).count()
    if stored >= per_game:
        raise QuotaExceeded(
            f"You have submitted {stored} logs for game {game.number} of match {game.match_id}; the limit is "
            f"{per_game} per game (settings.SPEED_LOGS_PER_GAME_PER_SUBMITTER). Ask an organiser if one more is needed.",
            extra={"quota": "logs_per_game", "limit": per_game, "used": stored},
        )
    per_day = settings.SPEED_LOG_BYTES_PER_USER_PER_DAY
    since = timezone.now() - timedelta(days=1)
    used = (
        MatchLog.objects.filter(submitted_by=user, submitted_at__gte=since).aggregate(total=Sum("size"))["total"] or 0
    )
    if used + size > per_day:
        raise QuotaExceeded(
            f"You have submitted {used} bytes of logs in the last 24 hours; this log's {size} bytes would pass the "
            f"limit of {per_day} bytes a day (settings.SPEED_LOG_BYTES_PER_USER_PER_DAY). Try again later.",
            extra={"quota": "bytes_per_day", "limit": per_day, "used": used},
        )


_DECIDED_BY_WORDS: dict[str, str] = {
    Game.DecidedBy.LOG: "a verified log",
    Game.DecidedBy.TABLE: "the log of its table",
    Game.DecidedBy.PLAYERS: "the players' reports",
    Game.DecidedBy.ORGANISER: "an organiser",
    Game.DecidedBy.CORRECTION: "a tournament correction",
    Game.DecidedBy.LAPSE: "an unconfirmed result that stood",
    Game.DecidedBy.FORFEIT: "a forfeit at its table",
}


def _refuse_ended_early(document: dict[str, Any]) -> None:
    """A log whose game a table ended early is the table's own record (amendment L4): nobody submits one."""
    table = document.get("table")
    if isinstance(table, dict) and "ended" in table:
        raise Invalid(
            "This log says a table of the service ended its game early (`table.ended`); such a log is stored by "
            "the table itself, and cannot be submitted.",
            extra={"field": "data", "problem": "ended_early"},
        )


def _log_intake(*, game: Game, data: bytes, digest: str, provenance: str, submitted_by: User | None = None) -> MatchLog:
    """Check a log's document against its game and store it verbatim: a submitted log's intake and a table's.

    The document must be a JSON object within the events limit, for an
    undecided game of a live match, with the match's players and ruleset; only
    a table's own log may say the table ended its game early (amendment L4).
    """
    document = document_parse(data)
    if not isinstance(document, dict):
        raise Invalid(
            f"The body is JSON but not an object (it is a {type(document).__name__}); "
            "send the speed-log/1 log object itself.",
            extra={"field": "data", "problem": "not_object"},
        )
    document_check_events(document)
    if provenance == MatchLog.Provenance.SUBMITTED:
        _refuse_ended_early(document)
    match = game.match
    require_match_live(match)
    if game.status not in (Game.Status.OPEN, Game.Status.AWAITING_CONFIRMATION, Game.Status.DISPUTED):
        how = _DECIDED_BY_WORDS.get(game.decided_by, "its result")
        raise Invalid(
            f"Game {game.number} of match {match.pk} is already decided by {how}; a new log cannot change it. "
            "Ask an organiser if the result is wrong.",
            extra={"game_status": game.status, "decided_by": game.decided_by},
        )
    _check_players(document, match)
    _check_ruleset(document, match)
    return MatchLog.objects.create(
        game=game, data=data, size=len(data), sha256=digest, provenance=provenance, submitted_by=submitted_by
    )


@transaction.atomic
def log_submit(*, game_id: int, data: bytes, user: AnyUser, enqueue: bool = True) -> tuple[MatchLog, bool]:
    """Store a submitted log for a game and enqueue its verification. Returns (log, created).

    The same document for the same game from the same submitter is the same
    submission: the existing row comes back with created False. From another
    submitter it is a submission of its own: each log is its submitter's side's
    word (`replays.evidence`), so both players sending one recorder's file is
    both sides agreeing. `enqueue=False` stores the log pending
    without sending it to the workers (the benchmark sends it itself).
    """
    game = game_lock(game_id=game_id)  # NotFound: no such game
    match = game.match
    if not user_is_organiser(user=user):
        me = user_player(user=user)
        if me is None or me.pk not in match.player_ids:
            raise NotAllowed(
                f"Only {', '.join(repr(player.handle) for player in match.players)} or an organiser can submit "
                "logs for this match.",
                extra={"problem": "not_a_player", "players": [player.handle for player in match.players]},
            )
    if len(data) > settings.SPEED_LOG_MAX_BYTES:
        raise TooLarge(f"The log is {len(data)} bytes; the limit is {settings.SPEED_LOG_MAX_BYTES} bytes.")
    digest = hashlib.sha256(data).hexdigest()
    submitter = signed_in(user)
    same = MatchLog.objects.filter(game=game, sha256=digest, submitted_by=submitter)
    existing = same.first()
    if existing is not None:
        return existing, False
    _check_quotas(game=game, user=user, size=len(data))
    try:
        with transaction.atomic():
            log = _log_intake(
                game=game, data=data, digest=digest, provenance=MatchLog.Provenance.SUBMITTED, submitted_by=submitter
            )
    except IntegrityError:  # the same document from the same submitter raced in; it is the same submission
        return same.get(), False
    if enqueue:
        logs_enqueue_verification(log_ids=[log.pk])
    return log, True


@transaction.atomic
def log_submit_from_table(*, game_id: int, data: bytes, provenance: str = MatchLog.Provenance.TABLE) -> MatchLog:
    """Store the log a table of the service recorded for its game (provenance "the table") and enqueue it.

    The table is the submitter: nobody's quota or permission applies, but the
    document gets the same checks as any (players, ruleset, events) and the
    same verification; a verified table log decides the game at once.
    """
    game = game_lock(game_id=game_id)
    log = _log_intake(game=game, data=data, digest=hashlib.sha256(data).hexdigest(), provenance=provenance)
    logs_enqueue_verification(log_ids=[log.pk])
    return log


def log_submit_practice(*, data: bytes) -> MatchLog:
    """Store the log a practice table recorded (provenance "practice", no game) and enqueue its verification.

    Called under the table row's lock: the bytes are stored with the table's final play, and the
    engine judges them only after that commits, in the workers like any log, so an engine failure
    marks the log failed and never undoes the play. No game: no evidence, no rating, no standings.
    """
    digest = hashlib.sha256(data).hexdigest()
    log = MatchLog.objects.create(
        game=None, data=data, size=len(data), sha256=digest, provenance=MatchLog.Provenance.PRACTICE
    )
    logs_enqueue_verification(log_ids=[log.pk])
    return log
