"""What a game's logs say, as evidence for `matches.evidence`: one claim per verified log.

A log's side is its submitter's: a player of the match speaks for their own
side (even one who is also an organiser); anyone else allowed to submit is an
organiser, whose verified log decides at once.
"""

from __future__ import annotations

from matches.evidence import ORGANISER, Claim, Source
from matches.models import Game, Match
from matches.placings import sole_winner

from .models import MatchLog


def log_side(match: Match, submitter_player_id: int | None) -> int:
    """The side a log speaks for: its submitter's player, or ORGANISER."""
    return submitter_player_id if submitter_player_id in match.player_ids else ORGANISER


def log_claim(match: Match, submitter_player_id: int | None, log: MatchLog, *, from_table: bool = False) -> Claim:
    """What one verified log claims: its winner and, where games end in places, the places and timed scores.

    Where games end in places the winner is the one seat alone in first place:
    in a timed game that need not be the seat that called Speed.
    """
    winner = log.winner_id
    if log.places is not None and match.is_team:  # a team wins, named by its first seat
        team = next(team for team in match.teams if log.places[team[0]] == 1)
        winner = match.player_ids[team[0]]
    elif log.places is not None:
        first = sole_winner(tuple(log.places))
        winner = None if first is None else match.player_ids[first]
    return Claim(
        ORGANISER if from_table else log_side(match, submitter_player_id),
        Source.TABLE if from_table else Source.LOG,
        winner,
        None if log.places is None else tuple(log.places),
        None if log.timed_scores is None else tuple(log.timed_scores),
    )


def game_log_claims(*, game: Game) -> tuple[list[Claim], bool]:
    """The claims of the game's verified logs, and whether any of its logs is still pending (one query)."""
    rows = (
        MatchLog.objects.filter(game=game, status__in=[MatchLog.Status.PENDING, MatchLog.Status.VERIFIED])
        .exclude(provenance=MatchLog.Provenance.FORFEIT)  # evidence of the cards, not of the result
        .values_list("status", "winner_id", "places", "timed_scores", "submitted_by__player__id", "provenance")
    )
    claims, pending = [], False
    for status, winner_id, places, timed, submitter, provenance in rows:
        if status == MatchLog.Status.PENDING:
            pending = True
        else:
            claims.append(
                log_claim(
                    game.match,
                    submitter,
                    MatchLog(winner_id=winner_id, places=places, timed_scores=timed),
                    from_table=provenance == MatchLog.Provenance.TABLE,
                )
            )
    return claims, pending
