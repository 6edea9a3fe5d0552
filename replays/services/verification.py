"""Verifying a stored log and applying its verdict to the game, in one transaction.

The worker's task calls `log_verify`. It takes the match row's lock (the one
lock every change to a match, its games or their logs takes), judges the
stored bytes with the engine, writes the verdict, and lets the game's
verified logs decide (or dispute) it. The usual case's reads and writes are
plain SQL in `replays.hot_path`; the rarer ones go through `matches.services`.
"""

from __future__ import annotations

import logging

from django.contrib.auth import get_user_model
from django.utils import timezone

from matches.evidence import Outcome, OutcomeKind
from matches.models import Game, Match, Player, ResultChange
from matches.placings import cards_left_at, race_places, team_places, timed_places
from matches.series import GameRow, series_step
from matches.services import (
    GAME_MATCH_PLAYERS,
    claim_deadline,
    decided_by_source,
    game_apply_evidence,
    game_evidence_outcome,
    game_report_claims,
    game_state,
)
from speedrules import ENGINE_VERSION, Verdict, verify_bytes
from speedsite.db import atomic_pipeline
from speedsite.site_cache import site_lists_changed

from ..evidence import game_log_claims, log_claim
from ..hot_path import Change, game_write, log_load_for_verification, log_write_verdict
from ..models import LogVerdict, MatchLog

logger = logging.getLogger(__name__)
User = get_user_model()


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
    """Set the verdict's fields on the log (not saved)."""
    log.cards_left = None
    log.places, log.timed_scores = None, None
    if verdict is None:
        log.status, log.code, log.event, log.message = MatchLog.Status.FAILED, "failed", None, failure
        log.winner_seat, log.winner = None, None
    else:
        log.status = MatchLog.Status.VERIFIED if verdict.valid else MatchLog.Status.REJECTED
        log.code, log.event, log.message = str(verdict.code), verdict.event, verdict.message
        log.winner_seat, log.winner = verdict.winner, _winner_player(verdict, log.game.match)
        log.cards_left = None if verdict.cards_left is None else list(verdict.cards_left)
        if verdict.valid and verdict.winner is not None and log.winner is None:
            # Checked at submission; only a renamed player could get here.
            log.status, log.code = MatchLog.Status.FAILED, "failed"
            log.message = "The log's winner is not a player of this match; an organiser must settle the game."
        elif verdict.valid and log.game.match.ranks_games:
            log.places, log.timed_scores = _seat_places(verdict, log.game.match)
    log.engine_version = ENGINE_VERSION
    log.verified_at = timezone.now()


def log_verify(*, log_id: int, force: bool = False) -> MatchLog | None:
    """Judge one log and apply the verdict, all in one transaction (idempotent).

    Holds the match row's lock from the first statement to the commit, so two
    deliveries of the same task, and verifications of logs of one match,
    run one after the other. A log already verified or rejected by this
    engine version is left alone unless `force` (a `failed` one is tried again).
    """
    with atomic_pipeline():  # as a task, two round trips: the lock and reads; the writes and the commit
        loaded = log_load_for_verification(log_id)
        if loaded is None:
            return None
        log, has_others, games = loaded.log, loaded.has_others, loaded.games
        ranked = log.game.match.ranks_games
        if ranked:  # a table or a timed match: every seat's player, for places (the lock is held)
            log.game = Game.objects.select_related(*GAME_MATCH_PLAYERS).get(pk=log.game_id)
        judged = log.status in (MatchLog.Status.VERIFIED, MatchLog.Status.REJECTED)
        if judged and log.engine_version == ENGINE_VERSION and not force:
            return log
        rejudged = log.status != MatchLog.Status.PENDING
        verdict, failure = _judge(bytes(log.data))
        _verdict_apply(log, verdict, failure)
        # The usual case (the game's only log, open, two players racing) may write the
        # verdict together with the game in one statement; otherwise it is written now,
        # before anything reads the game's logs back.
        combine = not has_others and not ranked and log.game.status == Game.Status.OPEN
        if not combine:
            log_write_verdict(log)
        if ranked:
            MatchLog.objects.filter(pk=log.pk).update(places=log.places, timed_scores=log.timed_scores)
        if rejudged:  # the first verdict lives on the log; later ones also leave an audit row
            LogVerdict.objects.create(
                log=log,
                engine_version=ENGINE_VERSION,
                status=log.status,
                code=log.code,
                event=log.event,
                winner_seat=log.winner_seat,
            )
        _game_apply_logs(
            game=log.game,
            log=log,
            has_others=has_others,
            games=games,
            submitter=loaded.submitter,
            verdict_unwritten=combine,
        )
        site_lists_changed()  # the latest replays, and a claim or a result the hot path wrote in SQL
        return log


def _game_apply_logs(
    *,
    game: Game,
    log: MatchLog,
    has_others: bool,
    games: list[GameRow],
    submitter: int | None,
    verdict_unwritten: bool = False,
) -> None:
    """Let the game's evidence, this verdict included, claim, decide or dispute it. The caller holds the match lock.

    A game waits while any of its logs is pending, so every log submitted has
    its say. One side's verified log is a claim for the other side to confirm;
    both sides' evidence that agrees, or an organiser's log, decides (see
    `matches.evidence`). The usual cases (a claim, or a result while the match
    goes on) are written by `replays.hot_path`; the rest by `matches.services`.
    `verdict_unwritten`: the log's verdict is still to be written (with the game, on the fast path).
    """
    match = game.match
    if has_others:
        log_claims, pending = game_log_claims(game=game)
    else:  # the usual case: this log is the game's only one
        log_claims = [log_claim(match, submitter, log)] if log.status == MatchLog.Status.VERIFIED else []
        pending = False
    outcome = game_evidence_outcome(game, [*log_claims, *game_report_claims(game)], pending=pending)
    source = {"log": log.pk}
    if (
        game.status == Game.Status.OPEN
        and not match.ranks_games
        and _write_fast(game=game, outcome=outcome, games=games, log=log, source=source, with_verdict=verdict_unwritten)
    ):
        return
    if verdict_unwritten:
        log_write_verdict(log)
    made_by = User.objects.filter(pk=log.submitted_by_id).first() if log.submitted_by_id else None
    game_apply_evidence(game=game, outcome=outcome, made_by=made_by, source=source)


def _write_fast(
    *, game: Game, outcome: Outcome, games: list[GameRow], log: MatchLog, source: dict[str, int], with_verdict: bool
) -> bool:
    """An open game's claim, or its result while the match goes on, written in plain SQL; False: not such a case."""
    match = game.match
    now = timezone.now()
    if outcome.verdict is OutcomeKind.AWAITING:
        kind, open_game = ResultChange.Kind.SUBMISSION, None
    elif outcome.verdict is OutcomeKind.DECIDED:
        status = Game.Status.DECIDED if outcome.winner is not None else Game.Status.VOID
        after = [row if row[0] != game.number else (game.number, status, outcome.winner) for row in games]
        step = series_step(
            games=after, player_ids=(match.player_one_id, match.player_two_id), wins_needed=match.wins_needed
        )
        if step.winner_id is not None:
            return False  # the match ends: matches.services runs what follows
        kind, open_game = ResultChange.Kind.DECISION, step.open_game
    else:
        return False
    before = game_state(game)
    if kind == ResultChange.Kind.SUBMISSION:
        game.status = Game.Status.AWAITING_CONFIRMATION
        game.claimed_winner_id, game.claimed_by_id = outcome.winner, outcome.claimed_by
        game.claim_source, game.confirm_by = str(outcome.source), claim_deadline(match, now)
    else:
        assert outcome.source is not None
        game.status = status
        game.winner_id, game.decided_by, game.decided_at = outcome.winner, decided_by_source(outcome.source), now
    change = Change(
        match_id=match.pk,
        game_id=game.pk,
        kind=kind,
        made_by_id=log.submitted_by_id,
        made_at=now,
        before=before,
        after=game_state(game),
        source=source,
    )
    game_write(game, change=change, open_game=open_game, verdict_of=log if with_verdict else None)
    return True
