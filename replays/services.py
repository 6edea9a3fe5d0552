"""Submitting logs, verifying them, and deciding games from verified logs.

Flow: `log_submit` stores the document verbatim and enqueues verification
after commit; the worker runs `log_verify`, which judges the log with the
engine and, in the same transaction, decides (or disputes) the game through
`matches.services`.
"""

from __future__ import annotations

import hashlib
import json
import logging
from functools import partial
from typing import Any, NamedTuple

import orjson
from django.conf import settings
from django.db import IntegrityError, connection, transaction
from django.utils import timezone

from matches.models import Game, Match, Player
from matches.selectors import user_is_organiser, user_player
from matches.services import AnyUser, GameRow, game_decide, game_dispute, game_lock, mark_locked
from replays.engine import ENGINE_VERSION, LogError, Verdict, ruleset_from_json, verify_bytes
from speedsite.db import pipelined_cursor, statement_pipeline
from speedsite.errors import Conflict, Invalid, NotAllowed, NotFound, TooLarge

from .models import LogVerdict, MatchLog, ReplaySteps

logger = logging.getLogger(__name__)


def _refuse_constant(name: str) -> None:
    raise ValueError(f"{name} is not JSON")


def _parse_document(data: bytes) -> Any:
    try:
        return orjson.loads(data)
    except orjson.JSONDecodeError as first_error:
        try:  # the standard parser accepts integers orjson refuses (beyond 64 bits), like the engine
            return json.loads(data, parse_constant=_refuse_constant)
        except (ValueError, UnicodeDecodeError, RecursionError):  # RecursionError: nested too deep
            raise Invalid(
                f"The body is not a JSON document ({first_error}); send the speed-log/1 log as the JSON body."
            ) from first_error


def _check_players(document: dict[str, Any], match: Match) -> None:
    names = document.get("players")
    handles = [match.player_one.handle, match.player_two.handle]
    if (
        not isinstance(names, list)
        or len(names) != 2
        or not all(isinstance(name, str) for name in names)
        or sorted(name.lower() for name in names) != sorted(handle.lower() for handle in handles)
    ):
        raise Invalid(
            f"The log's players are {names!r}, but this match is between {handles[0]!r} and {handles[1]!r}: "
            "the log's `players` must list exactly these two handles, one per seat (either order).",
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


def _enqueue_verification(log_id: int) -> None:
    from .tasks import log_verify_task  # noqa: PLC0415 - tasks import this module

    def enqueue() -> None:  # a named function: Django logs a robust callback's __qualname__
        log_verify_task.delay(log_id)

    # robust: if the broker is unreachable the submission is still committed and
    # answered; the log stays `pending` and `manage.py reverify --pending` re-enqueues it.
    transaction.on_commit(enqueue, robust=True)


_DECIDED_BY_WORDS = {
    Game.DecidedBy.LOG: "a verified log",
    Game.DecidedBy.PLAYERS: "both players' reports",
    Game.DecidedBy.ORGANISER: "an organiser",
}


@transaction.atomic
def log_submit(*, game_id: int, data: bytes, user: AnyUser, enqueue: bool = True) -> tuple[MatchLog, bool]:
    """Store a submitted log for a game and enqueue its verification. Returns (log, created).

    The same document for the same game is the same submission: the existing
    row comes back with created False. `enqueue=False` stores the log pending
    without sending it to the workers (the benchmark sends it itself).
    """
    try:
        game = game_lock(game_id=game_id)
    except Game.DoesNotExist:
        raise NotFound(f"There is no game {game_id}.") from None
    match = game.match
    if not user_is_organiser(user=user):
        me = user_player(user=user)
        if me is None or me.pk not in (match.player_one_id, match.player_two_id):
            raise NotAllowed(
                f"Only {match.player_one.handle!r}, {match.player_two.handle!r} or an organiser can submit "
                "logs for this match.",
            )
    if len(data) > settings.SPEED_LOG_MAX_BYTES:
        raise TooLarge(f"The log is {len(data)} bytes; the limit is {settings.SPEED_LOG_MAX_BYTES} bytes.")
    digest = hashlib.sha256(data).hexdigest()
    existing = MatchLog.objects.filter(game=game, sha256=digest).first()
    if existing is not None:
        return existing, False

    document = _parse_document(data)
    if not isinstance(document, dict):
        raise Invalid(
            f"The body is JSON but not an object (it is a {type(document).__name__}); "
            "send the speed-log/1 log object itself."
        )
    if game.status not in (Game.Status.OPEN, Game.Status.DISPUTED):
        how = _DECIDED_BY_WORDS.get(game.decided_by, "its result")
        raise Invalid(
            f"Game {game.number} of match {match.pk} is already decided by {how}; a new log cannot change it. "
            "Ask an organiser if the result is wrong.",
            extra={"game_status": game.status, "decided_by": game.decided_by},
        )
    _check_players(document, match)
    _check_ruleset(document, match)

    try:
        with transaction.atomic():
            log = MatchLog.objects.create(
                game=game,
                data=data,
                size=len(data),
                sha256=digest,
                submitted_by=user if user is not None and user.is_authenticated else None,
            )
    except IntegrityError:  # the same document raced in; it is the same submission
        return MatchLog.objects.get(game=game, sha256=digest), False
    if enqueue:
        _enqueue_verification(log.pk)
    return log, True


def _judge(data: bytes) -> tuple[Verdict | None, str]:
    """The engine's verdict, or None and the reason when the engine itself failed."""
    try:
        return verify_bytes(data), ""
    except Exception as exc:  # an engine bug must not lose the log: it is marked `failed`
        logger.exception("engine failed on a log")
        return None, f"The verifier failed on this log ({type(exc).__name__}: {exc}); an operator will look."


def _winner_player(verdict: Verdict, match: Match) -> Player | None:
    if verdict.winner is None or verdict.players is None:
        return None
    name = verdict.players[verdict.winner].lower()
    return next((player for player in match.players if player.handle.lower() == name), None)


# Verification is the pipeline's hot path (the bar: at least half the rate of a
# no-op task on the same worker), so its statements are plain SQL: the ORM spends
# more time building a query than PostgreSQL spends running it. Only reading and
# writing are in SQL; the rules stay in Python below.
def _columns(model: Any, alias: str, wanted: set[str]) -> tuple[tuple[str, ...], str]:
    """The wanted fields in the model's own field order (as `Model.from_db` takes them), and their SQL."""
    fields = tuple(f.attname for f in model._meta.concrete_fields if f.attname in wanted)
    return fields, ", ".join(f"{alias}.{model._meta.get_field(name).column}" for name in fields)


_LOG_FIELDS, _LOG_SQL = _columns(MatchLog, "l", {"id", "game_id", "data", "status", "engine_version"})
_GAME_FIELDS, _GAME_SQL = _columns(Game, "g", {"id", "match_id", "number", "status", "winner_id", "decided_by"})
_MATCH_FIELDS, _MATCH_SQL = _columns(
    Match, "m", {"id", "status", "series", "series_length", "player_one_id", "player_two_id"}
)
_PLAYER_FIELDS, _P1_SQL = _columns(Player, "p1", {"id", "handle"})
_, _P2_SQL = _columns(Player, "p2", {"id", "handle"})
# Every change to a match, its games or their logs holds the match row's lock, so
# a verification takes it first, in a statement of its own, and only then reads:
# in READ COMMITTED each statement sees what was committed before it began, so
# the read sees everything the lock's previous holder wrote.
_LOCK_MATCH_OF_LOG = """
SELECT m.id
  FROM matches_match m
  JOIN matches_game g ON g.match_id = m.id
  JOIN replays_matchlog l ON l.game_id = g.id
 WHERE l.id = %s
"""
# The log row too, though the match lock alone already serializes its verifications.
_FOR_UPDATE_OF_MATCH = " FOR UPDATE OF m, l"  # not on SQLite (the demo), which locks the whole database
_LOAD_FOR_VERIFICATION = f"""
SELECT {_LOG_SQL}, {_GAME_SQL}, {_MATCH_SQL}, {_P1_SQL}, {_P2_SQL},
       EXISTS (SELECT 1 FROM replays_matchlog o WHERE o.game_id = l.game_id AND o.id <> l.id)
  FROM replays_matchlog l
  JOIN matches_game g ON g.id = l.game_id
  JOIN matches_match m ON m.id = g.match_id
  JOIN matches_player p1 ON p1.id = m.player_one_id
  JOIN matches_player p2 ON p2.id = m.player_two_id
 WHERE l.id = %s
"""  # noqa: S608 - column names come from the models, the id is a parameter
_GAMES_OF_MATCH_OF_LOG = """
SELECT g.number, g.status, g.winner_id
  FROM matches_game g
 WHERE g.match_id = (SELECT lg.match_id FROM matches_game lg JOIN replays_matchlog l ON l.game_id = lg.id WHERE l.id = %s)
"""
_WRITE_VERDICT = """
UPDATE replays_matchlog
   SET status = %s, code = %s, event = %s, message = %s, winner_seat = %s, winner_id = %s,
       engine_version = %s, verified_at = %s, judgements = judgements + 1
 WHERE id = %s
"""


class _Loaded(NamedTuple):
    log: MatchLog  # with .game and .game.match (and its players)
    has_others: bool  # the game has other logs
    games: list[GameRow]  # the match's games


def _log_load_for_verification(log_id: int) -> _Loaded | None:
    """Lock the log's match and the log, then load the log with its game, match and players,
    whether the game has other logs, and the match's games. Only the fields verification reads.

    The three statements go out together (in a statement pipeline, one round trip);
    each starts after the one before it ended, so the reads see what the lock's
    previous holder committed.
    """
    lock = _FOR_UPDATE_OF_MATCH if connection.features.has_select_for_update_of else ""
    with (
        pipelined_cursor() as locking,
        pipelined_cursor(shared=False) as loading,
        pipelined_cursor(shared=False) as listing,
    ):
        locking.execute(_LOCK_MATCH_OF_LOG + lock, [log_id])
        loading.execute(_LOAD_FOR_VERIFICATION, [log_id])
        listing.execute(_GAMES_OF_MATCH_OF_LOG, [log_id])
        if locking.fetchone() is None:
            return None
        row = loading.fetchone()
        games = listing.fetchall()
    db, at = connection.alias, 0

    def take(model: Any, fields: tuple[str, ...]) -> Any:
        nonlocal at
        instance = model.from_db(db, fields, row[at : at + len(fields)])
        at += len(fields)
        return instance

    log, game, match = take(MatchLog, _LOG_FIELDS), take(Game, _GAME_FIELDS), take(Match, _MATCH_FIELDS)
    match.player_one, match.player_two = take(Player, _PLAYER_FIELDS), take(Player, _PLAYER_FIELDS)
    game.match, log.game = match, game
    return _Loaded(log, bool(row[at]), games)


@transaction.atomic
def log_verify(*, log_id: int, force: bool = False) -> MatchLog | None:
    """Judge one log and apply the verdict, all in one transaction (idempotent).

    Holds the match row's lock from the first statement to the commit, so two
    deliveries of the same task, and verifications of logs of one match,
    run one after the other. A log already verified or rejected by this
    engine version is left alone unless `force` (a `failed` one is tried again).

    On PostgreSQL the usual verification is three round trips: the lock and the
    reads together, the writes together, the commit.
    """
    with statement_pipeline():
        return _log_verify(log_id=log_id, force=force)


def _log_verify(*, log_id: int, force: bool) -> MatchLog | None:
    loaded = _log_load_for_verification(log_id)
    if loaded is None:
        return None
    log, has_others, games = loaded
    judged = log.status in (MatchLog.Status.VERIFIED, MatchLog.Status.REJECTED)
    if judged and log.engine_version == ENGINE_VERSION and not force:
        return log

    verdict, failure = _judge(bytes(log.data))

    game = log.game
    mark_locked(game)
    rejudged = log.status != MatchLog.Status.PENDING
    if verdict is None:
        log.status, log.code, log.event, log.message = MatchLog.Status.FAILED, "failed", None, failure
        log.winner_seat, log.winner = None, None
    else:
        log.status = MatchLog.Status.VERIFIED if verdict.valid else MatchLog.Status.REJECTED
        log.code, log.event, log.message = str(verdict.code), verdict.event, verdict.message
        log.winner_seat, log.winner = verdict.winner, _winner_player(verdict, game.match)
        if verdict.valid and verdict.winner is not None and log.winner is None:
            # Checked at submission; only a renamed player could get here.
            log.status, log.code = MatchLog.Status.FAILED, "failed"
            log.message = "The log's winner is not a player of this match; an organiser must settle the game."
    log.engine_version = ENGINE_VERSION
    log.verified_at = timezone.now()
    with pipelined_cursor() as cursor:
        cursor.execute(
            _WRITE_VERDICT,
            [
                log.status,
                log.code,
                log.event,
                log.message,
                log.winner_seat,
                log.winner_id,
                log.engine_version,
                log.verified_at,
                log.pk,
            ],
        )
    if rejudged:  # the first verdict lives on the log; later ones also leave an audit row
        LogVerdict.objects.create(
            log=log,
            engine_version=ENGINE_VERSION,
            status=log.status,
            code=log.code,
            event=log.event,
            winner_seat=log.winner_seat,
        )
    _game_apply_logs(game=game, log=log, has_others=has_others, games=games)
    return log


def _game_apply_logs(*, game: Game, log: MatchLog, has_others: bool, games: list[GameRow]) -> None:
    """Decide, or dispute, a game from its verified logs. The caller holds the match lock.

    A game is decided only once none of its logs is pending, so every log
    submitted while it was open has its say: verified logs that agree decide
    it; verified logs that disagree dispute it for an organiser. A game a log
    decided before becomes disputed if its verified logs no longer agree
    (after `reverify`); results set by players or organisers are left alone.
    """
    if has_others:
        rows = list(
            MatchLog.objects.filter(
                game=game, status__in=[MatchLog.Status.PENDING, MatchLog.Status.VERIFIED]
            ).values_list("status", "winner_id")
        )
    else:  # the usual case: this log is the game's only one that counts
        rows = [(log.status, log.winner_id)] if log.status == MatchLog.Status.VERIFIED else []
    if any(status == MatchLog.Status.PENDING for status, _ in rows):
        return
    outcomes = {winner_id for _, winner_id in rows}
    if game.status == Game.Status.OPEN:
        if len(outcomes) == 1:
            (winner_id,) = outcomes
            winner = next((p for p in game.match.players if p.pk == winner_id), None)
            game_decide(game=game, winner=winner, decided_by=Game.DecidedBy.LOG, games_before=games)
        elif len(outcomes) > 1:
            game_dispute(game=game)
    elif game.is_settled and game.decided_by == Game.DecidedBy.LOG and outcomes != {game.winner_id}:
        game_dispute(game=game)


# --- Replay steps ----------------------------------------------------------------


@transaction.atomic
def log_steps_build(*, log: MatchLog) -> ReplaySteps:
    """The replay's steps for a log, computed from the stored bytes and kept for this engine version.

    Computed on first view rather than in the worker: most logs are never
    replayed, the steps are many times larger than the log, and keeping them
    out of the verification task keeps the pipeline fast. Cached in the
    database (one row per log) so every later view is a single read, and
    recomputed when the engine version changes.
    """
    cached = ReplaySteps.objects.filter(log=log).first()
    if cached is not None and cached.engine_version == ENGINE_VERSION:
        return cached
    try:
        verdict = verify_bytes(bytes(log.data), steps=True)
    except Exception as exc:  # an engine bug: say so, never a 500
        logger.exception("engine failed computing the steps of log %s", log.pk)
        raise Conflict(
            f"The replay of log {log.pk} cannot be computed: the verifier failed on it ({type(exc).__name__}).",
        ) from exc
    steps = [step.to_dict() for step in verdict.steps or ()]
    replay, _ = ReplaySteps.objects.update_or_create(
        log=log, defaults={"engine_version": ENGINE_VERSION, "steps": steps}
    )
    return replay


# --- Re-verification ----------------------------------------------------------------


def logs_enqueue_verification(*, log_ids: list[int], force: bool) -> None:
    """Send these logs to the workers (after commit if inside a transaction)."""
    from .tasks import log_verify_task  # noqa: PLC0415 - tasks import this module

    for log_id in log_ids:
        transaction.on_commit(partial(log_verify_task.delay, log_id, force=force))
