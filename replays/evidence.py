"""What a game's logs say, as evidence for `matches.evidence`: one claim per verified log.

A log's side is its submitter's: a player of the match speaks for their own
side (even one who is also an organiser); anyone else allowed to submit is an
organiser, whose verified log decides at once.
"""

from __future__ import annotations

from matches.evidence import ORGANISER, Claim, Source
from matches.models import Game, Match

from .models import MatchLog


def log_side(match: Match, submitter_player_id: int | None) -> int:
    """The side a log speaks for: its submitter's player, or ORGANISER."""
    return submitter_player_id if submitter_player_id in (match.player_one_id, match.player_two_id) else ORGANISER


def game_log_claims(*, game: Game) -> tuple[list[Claim], bool]:
    """The claims of the game's verified logs, and whether any of its logs is still pending (one query)."""
    rows = MatchLog.objects.filter(
        game=game, status__in=[MatchLog.Status.PENDING, MatchLog.Status.VERIFIED]
    ).values_list("status", "winner_id", "submitted_by__player__id")
    claims, pending = [], False
    for status, winner_id, submitter in rows:
        if status == MatchLog.Status.PENDING:
            pending = True
        else:
            claims.append(Claim(log_side(game.match, submitter), Source.LOG, winner_id))
    return claims, pending
