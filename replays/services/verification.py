"""Verifying a stored log and applying its verdict to the game, in one transaction.

The worker's task calls `log_verify`. It takes the match row's lock (the one
lock every change to a match, its games or their logs takes), judges the
stored bytes with the engine, writes the verdict, and lets the game's
verified logs decide (or dispute) it. The usual case's reads and writes are
plain SQL in `replays.hot_path`; the rarer ones go through `matches.services`.
"""

from __future__ import annotations

import logging

from django.db import transaction
from django.utils import timezone

from matches.models import Game, Match, Player
from matches.series import GameRow, series_step
from matches.services import game_decide, game_dispute
from replays.engine import ENGINE_VERSION, Verdict, verify_bytes
from speedsite.db import statement_pipeline

from ..hot_path import game_write_decided, log_load_for_verification, log_write_verdict
from ..models import LogVerdict, MatchLog

logger = logging.getLogger(__name__)


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


def _verdict_apply(log: MatchLog, verdict: Verdict | None, failure: str) -> None:
    """Set the verdict's fields on the log (not saved)."""
    if verdict is None:
        log.status, log.code, log.event, log.message = MatchLog.Status.FAILED, "failed", None, failure
        log.winner_seat, log.winner = None, None
    else:
        log.status = MatchLog.Status.VERIFIED if verdict.valid else MatchLog.Status.REJECTED
        log.code, log.event, log.message = str(verdict.code), verdict.event, verdict.message
        log.winner_seat, log.winner = verdict.winner, _winner_player(verdict, log.game.match)
        if verdict.valid and verdict.winner is not None and log.winner is None:
            # Checked at submission; only a renamed player could get here.
            log.status, log.code = MatchLog.Status.FAILED, "failed"
            log.message = "The log's winner is not a player of this match; an organiser must settle the game."
    log.engine_version = ENGINE_VERSION
    log.verified_at = timezone.now()


@transaction.atomic
def log_verify(*, log_id: int, force: bool = False) -> MatchLog | None:
    """Judge one log and apply the verdict, all in one transaction (idempotent).

    Holds the match row's lock from the first statement to the commit, so two
    deliveries of the same task, and verifications of logs of one match,
    run one after the other. A log already verified or rejected by this
    engine version is left alone unless `force` (a `failed` one is tried again).
    """
    with statement_pipeline():
        loaded = log_load_for_verification(log_id)
        if loaded is None:
            return None
        log, has_others, games = loaded
        judged = log.status in (MatchLog.Status.VERIFIED, MatchLog.Status.REJECTED)
        if judged and log.engine_version == ENGINE_VERSION and not force:
            return log
        rejudged = log.status != MatchLog.Status.PENDING
        verdict, failure = _judge(bytes(log.data))
        _verdict_apply(log, verdict, failure)
        log_write_verdict(log)
        if rejudged:  # the first verdict lives on the log; later ones also leave an audit row
            LogVerdict.objects.create(
                log=log,
                engine_version=ENGINE_VERSION,
                status=log.status,
                code=log.code,
                event=log.event,
                winner_seat=log.winner_seat,
            )
        _game_apply_logs(game=log.game, log=log, has_others=has_others, games=games)
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
            _game_decide_from_logs(game=game, winner=winner, games=games)
        elif len(outcomes) > 1:
            game_dispute(game=game)
    elif game.is_settled and game.decided_by == Game.DecidedBy.LOG and outcomes != {game.winner_id}:
        game_dispute(game=game)


def _game_decide_from_logs(*, game: Game, winner: Player | None, games: list[GameRow]) -> None:
    """Decide the game from its logs: in plain SQL while the match goes on, through matches.services when it ends."""
    match = game.match
    game.winner = winner
    game.status = Game.Status.DECIDED if winner is not None else Game.Status.VOID
    game.decided_by = Game.DecidedBy.LOG
    game.decided_at = timezone.now()
    after = [row if row[0] != game.number else (game.number, game.status, game.winner_id) for row in games]
    step = series_step(
        games=after, player_ids=(match.player_one_id, match.player_two_id), wins_needed=match.wins_needed
    )
    if step.winner_id is None:
        game_write_decided(game, open_game=step.open_game)
    else:
        game_decide(game=game, winner=winner, decided_by=Game.DecidedBy.LOG)
