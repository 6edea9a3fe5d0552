"""Verifying a stored log and applying its verdict to the game, in one transaction.

The worker's task calls `log_verify`. It takes the match row's lock (the one
lock every change to a match, its games or their logs takes), judges the
stored bytes with the engine, writes the verdict, and lets the game's
evidence claim, decide or dispute it through `matches.services`
(`game_apply_evidence`), the one writer of games and their history. All of
it is the plain ORM inside `transaction.atomic()`; the statements of the
common cases are pinned in `tests/replays/test_verification_queries.py`.
"""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from core.site_cache import site_lists_changed
from matches.models import Match, Player
from matches.placings import cards_left_at, race_places, team_places, timed_places
from matches.services import GAME_MATCH_PLAYERS, game_apply_evidence
from speedrules import ENGINE_VERSION, Verdict, verify_bytes

from ..models import LogVerdict, MatchLog
from .engine_call import EngineFailure, engine_call

#: The verdict's columns of a log, written together by each judgement.
_VERDICT_FIELDS = [
    "status",
    "code",
    "event",
    "message",
    "winner_seat",
    "winner",
    "cards_left",
    "places",
    "timed_scores",
    "engine_version",
    "verified_at",
    "judgements",
]


def _judge(data: bytes) -> tuple[Verdict | None, str]:
    """The engine's verdict, or None and the reason when the engine itself failed."""
    outcome = engine_call(lambda: verify_bytes(data), what="a log")
    if isinstance(outcome, EngineFailure):  # the log is kept, marked `failed`
        return None, outcome.reason
    return outcome, ""


def _winner_player(verdict: Verdict, match: Match) -> Player | None:
    if verdict.winner is None or verdict.players is None:
        return None
    name = verdict.players[verdict.winner].lower()
    return next((player for player in match.players if player.handle.lower() == name), None)


def _seat_places(verdict: Verdict, match: Match) -> tuple[list[int] | None, list[int] | None]:
    """A valid log's places and timed scores per seat of the match (its seat order, mapped by handle).

    A race's places: the Speed caller, then by cards left (none: a deadlock is
    void). A timed game's: by cards played by the limit, then cards left at
    it, then the Speed call; a deadlock is still scored, as the limit came first.
    """
    assert verdict.players is not None and verdict.cards_left is not None
    names = [name.lower() for name in verdict.players]
    order = [names.index(player.handle.lower()) for player in match.players]
    limit = match.time_limit_ms
    if match.is_team:  # the winning team's seats share first place (a deadlock: void)
        if verdict.winner_team is None:
            return None, None
        # The ruleset's teams are seats of the log; the same players sit on one team in the
        # match (checked at submission), wherever the log seats them.
        log_seats = match.teams[verdict.winner_team]
        winning = [order.index(log_seat) for log_seat in log_seats]
        return list(team_places(winning_team=winning, seats=len(order))), None
    if limit is None:
        places = race_places(winner=verdict.winner, cards_left=verdict.cards_left)
        return (None if places is None else [places[seat] for seat in order]), None
    played = verdict.cards_played_by(limit)
    assert played is not None and verdict.plays_by_seat is not None
    left = cards_left_at(cards_left=verdict.cards_left, plays_by_seat=verdict.plays_by_seat, limit=limit)
    places = timed_places(played=played, left_at_limit=left, caller=verdict.winner)
    return [places[seat] for seat in order], [played[seat] for seat in order]


def _verdict_apply(log: MatchLog, verdict: Verdict | None, failure: str) -> None:
    """Set the verdict's fields on the log (not saved); a practice log (no game) has no player to name."""
    match = None if log.game is None else log.game.match
    log.cards_left = None
    log.places, log.timed_scores = None, None
    if verdict is None:
        log.status, log.code, log.event, log.message = MatchLog.Status.FAILED, "failed", None, failure
        log.winner_seat, log.winner = None, None
    else:
        log.status = MatchLog.Status.VERIFIED if verdict.valid else MatchLog.Status.REJECTED
        log.code, log.event, log.message = str(verdict.code), verdict.event, verdict.message
        log.winner_seat = verdict.winner
        log.winner = None if match is None else _winner_player(verdict, match)
        log.cards_left = None if verdict.cards_left is None else list(verdict.cards_left)
        if match is not None and verdict.valid:
            if verdict.winner is not None and log.winner is None:
                # Checked at submission; only a renamed player could get here.
                log.status, log.code = MatchLog.Status.FAILED, "failed"
                log.message = "The log's winner is not a player of this match; an organiser must settle the game."
            elif match.ranks_games:
                log.places, log.timed_scores = _seat_places(verdict, match)
    log.engine_version = ENGINE_VERSION
    log.verified_at = timezone.now()


def _log_lock(log_id: int) -> MatchLog | None:
    """Take the log's match row lock, then load the log with its game, match, players and submitter.

    The lock comes first, in a statement of its own, so the load shows what the
    lock's previous holder committed (as `matches.services.game_lock`). A practice
    log has no match: its own row is the lock. None: no such log.
    """
    locked = Match.objects.select_for_update(of=("self",)).filter(games__logs__id=log_id).values_list("id", flat=True)
    if not locked:  # no match: a practice log locks its own row (or there is no such log)
        return MatchLog.objects.select_for_update().filter(pk=log_id, game__isnull=True).first()
    related = ["game", *(f"game__{path}" for path in GAME_MATCH_PLAYERS), "submitted_by"]
    return MatchLog.objects.select_related(*related).get(pk=log_id)


@transaction.atomic
def log_verify(*, log_id: int, force: bool = False) -> MatchLog | None:
    """Judge one log and apply the verdict, all in one transaction (idempotent).

    Holds the match row's lock from the first statement to the commit, so two
    deliveries of the same task, and verifications of logs of one match,
    run one after the other. A log already verified or rejected by this
    engine version is left alone unless `force` (a `failed` one is tried again).
    The game's evidence, this verdict included, then claims, decides or
    disputes the game (`matches.services.game_apply_evidence`); a game waits
    while any of its logs is pending, so every log submitted has its say.
    """
    log = _log_lock(log_id)
    if log is None:
        return None
    judged = log.status in (MatchLog.Status.VERIFIED, MatchLog.Status.REJECTED)
    if judged and log.engine_version == ENGINE_VERSION and not force:
        return log
    rejudged = log.status != MatchLog.Status.PENDING
    verdict, failure = _judge(bytes(log.data))
    _verdict_apply(log, verdict, failure)
    log.judgements += 1  # under the match lock, which every write of a log holds
    log.save(update_fields=_VERDICT_FIELDS)
    if rejudged:  # the first verdict lives on the log; later ones also leave an audit row
        LogVerdict.objects.create(
            log=log,
            engine_version=ENGINE_VERSION,
            status=log.status,
            code=log.code,
            event=log.event,
            winner_seat=log.winner_seat,
        )
    if log.game is None:  # a practice log: no game to decide, and no list of the site shows it
        return log
    game_apply_evidence(game=log.game, made_by=log.submitted_by, source={"log": log.pk})
    site_lists_changed()  # the latest replays show the verdict
    return log
