"""Glicko-2 ratings: every decided match is one rating period for its two players."""

from __future__ import annotations

from django.db import transaction

from matches.models import Game, Match
from tournaments.ratings.glicko2 import RatedGame, Rating, rate_period

from ..models import PlayerRating, RatingChange


@transaction.atomic(savepoint=False)
def ratings_record_match(*, match: Match) -> None:
    """Update both players' Glicko-2 ratings from a decided match's games (one rating period).

    Idempotent per match; rating rows are locked in player order, so two
    matches of one player decided together are applied one after the other.
    """
    winners = list(
        Game.objects.filter(match=match, status=Game.Status.DECIDED)
        .order_by("number")
        .values_list("winner_id", flat=True)
    )
    if not winners or RatingChange.objects.filter(match=match).exists():
        return
    one, two = match.player_one_id, match.player_two_id
    default = Rating()
    PlayerRating.objects.bulk_create(
        [
            PlayerRating(
                player_id=player_id, rating=default.rating, deviation=default.deviation, volatility=default.volatility
            )
            for player_id in (one, two)
        ],
        ignore_conflicts=True,
    )
    rows = {
        row.player_id: row
        for row in PlayerRating.objects.select_for_update().filter(player_id__in=[one, two]).order_by("player_id")
    }
    before = {player_id: Rating(row.rating, row.deviation, row.volatility) for player_id, row in rows.items()}
    games = [RatedGame(one, two, 1.0 if winner == one else 0.0) for winner in winners]
    after = rate_period(before, games)
    changes = []
    for player_id, row in rows.items():
        new = after[player_id]
        old = before[player_id]
        row.rating, row.deviation, row.volatility = new.rating, new.deviation, new.volatility
        row.games += len(games)
        changes.append(
            RatingChange(
                player_id=player_id,
                match=match,
                rating_before=old.rating,
                deviation_before=old.deviation,
                volatility_before=old.volatility,
                rating_after=new.rating,
                deviation_after=new.deviation,
                volatility_after=new.volatility,
                games=len(games),
            )
        )
    PlayerRating.objects.bulk_update(list(rows.values()), ["rating", "deviation", "volatility", "games", "updated_at"])
    RatingChange.objects.bulk_create(changes)
