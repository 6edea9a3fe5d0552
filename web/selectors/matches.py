"""Reads of the match pages that the matches app's selectors do not offer."""

from __future__ import annotations

from django.db.models import Q

from matches.models import Match, Player
from matches.selectors import MATCH_PLAYERS, match_score


def in_any_seat(player: Player, *, via: str = "") -> Q:
    """Rows whose match seats `player` in any of its two to four seats (`via`: the path to the match, "match__")."""
    query = Q()
    for seat in MATCH_PLAYERS:
        query |= Q(**{f"{via}{seat}": player})
    return query


def series_score(match: Match) -> tuple[int, ...]:
    """Each seat's games won (two players) or points (a table), in seat order (uses prefetched games)."""
    score = match_score(match=match)
    return tuple(score[player.handle] for player in match.players)
