"""Glicko-2 ratings: a function of the ordered counting results, one rating period per match.

The counting results are the finished rated matches (never those in progress,
annulled or casual) in rating order: when each was decided, then its id
(`selectors.counting_matches`). A match decided now is normally the last in
that order, so `ratings_record_match` rates it on top of the stored ratings.
When it is not (a correction turned a result round or annulled matches, or
two matches of one player were decided together and the later one was rated
first), `ratings_recompute` replays every result from the first one affected
onward, starting from the ratings stored just before it. Both give exactly
the floats a replay from scratch gives (`selectors.ratings_from_scratch`,
which the audit compares with what is stored).

A match is one rating period for all its players (two to four seats),
each decided game entering it as pairwise results between every two players
at the table (`tournaments.ratings.pairwise` says why, and how a game of four
weighs against a game of two).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable

from django.db import transaction
from django.db.models import Case, Value, When

from matches.models import Match
from tournaments.ratings.glicko2 import Rating
from tournaments.ratings.history import RatingStep, ratings_replay

from ..models import PlayerRating, RatingChange
from ..selectors import RatingPoint, from_point, rated_match, rated_results


def _point(match: Match) -> RatingPoint:
    return (match.finished_at, match.pk)


def _lock_ratings(player_ids: Iterable[int]) -> dict[int, PlayerRating]:
    """The players' rating rows, locked in player order (so two writers never wait for each other in a ring)."""
    rows = PlayerRating.objects.select_for_update().filter(player_id__in=set(player_ids)).order_by("player_id")
    return {row.player_id: row for row in rows}


def _change(step: RatingStep[int, int]) -> RatingChange:
    return RatingChange(
        player_id=step.player,
        match_id=step.match,
        rating_before=step.before.rating,
        deviation_before=step.before.deviation,
        volatility_before=step.before.volatility,
        rating_after=step.after.rating,
        deviation_after=step.after.deviation,
        volatility_after=step.after.volatility,
        games=step.games,
    )


@transaction.atomic(savepoint=False)
def ratings_record_match(*, match_id: int) -> None:
    """Rate a decided match (one rating period for all its players); idempotent per match."""
    match = Match.objects.filter(pk=match_id).first()
    if match is not None:
        ratings_record_locked(match=match)


def ratings_record_locked(*, match: Match) -> None:
    """`ratings_record_match` for a caller holding the match's row, locked, in its transaction (the listener).

    If any of its players already has a rating change for a match later in
    the rating order, the ratings are replayed from this match instead.
    """
    if match.status != Match.Status.FINISHED or match.finished_at is None or not match.rated:
        return  # a casual match counts for nothing, as `selectors.counting_matches` leaves it out
    players = match.player_ids
    default = Rating()
    PlayerRating.objects.bulk_create(
        [
            PlayerRating(
                player_id=player_id, rating=default.rating, deviation=default.deviation, volatility=default.volatility
            )
            for player_id in players
        ],
        ignore_conflicts=True,
    )
    rows = _lock_ratings(players)
    # Under the locks, one look at the players' changes from this match on: this
    # match's own (rated already: nothing to do) first, else any later one.
    first = (
        RatingChange.objects.filter(player_id__in=players)
        .filter(from_point(_point(match), prefix="match__"))
        .order_by(Case(When(match_id=match.pk, then=Value(0)), default=Value(1)))
        .values_list("match_id", flat=True)
        .first()
    )
    if first == match.pk:
        return
    if first is not None:
        ratings_recompute(match_ids=[match.pk])
        return
    start = {player_id: Rating(row.rating, row.deviation, row.volatility) for player_id, row in rows.items()}
    steps, _ = ratings_replay([rated_match(match=match)], start)
    for step in steps:
        row = rows[step.player]
        row.rating, row.deviation, row.volatility = step.after.rating, step.after.deviation, step.after.volatility
        row.games += step.games
    PlayerRating.objects.bulk_update(list(rows.values()), ["rating", "deviation", "volatility", "games", "updated_at"])
    RatingChange.objects.bulk_create([_change(step) for step in steps])


@transaction.atomic(savepoint=False)
def ratings_recompute(*, match_ids: Iterable[int] | None = None) -> None:
    """Replay the ratings from the first of these matches in rating order onward (None: from scratch).

    Every rating change from that point on is dropped and made again from the
    counting results (a match annulled or turned round since is simply what
    it now is), starting from each player's last rating before that point;
    each player's current rating and game count follow. A player left with
    no counting result has no rating row.
    """
    start: RatingPoint | None = None
    if match_ids is not None:
        points = list(
            Match.objects.filter(pk__in=list(match_ids), finished_at__isnull=False).values_list("finished_at", "pk")
        )
        if not points:
            return  # none of them was ever decided: no rating depends on them
        start = min(points)
    dropped = (
        RatingChange.objects.all()
        if start is None
        else RatingChange.objects.filter(from_point(start, prefix="match__"))
    )
    players = set(dropped.values_list("player_id", flat=True))
    players |= {player for rated in rated_results(start=start) for player in rated.players}
    if start is None:
        players |= set(PlayerRating.objects.values_list("player_id", flat=True))
    rows = _lock_ratings(players)
    # Read again under the locks: a result committed meanwhile is replayed too.
    dropped.delete()
    results = rated_results(start=start)
    last: dict[int, Rating] = {}
    games: dict[int, int] = defaultdict(int)
    kept = (
        RatingChange.objects.filter(player_id__in=players)
        .order_by("player_id", "match__finished_at", "match_id")
        .values_list("player_id", "rating_after", "deviation_after", "volatility_after", "games")
    )
    for player_id, rating, deviation, volatility, count in kept:
        last[player_id] = Rating(rating, deviation, volatility)
        games[player_id] += count
    steps, final = ratings_replay(results, last)
    for step in steps:
        games[step.player] += step.games
    RatingChange.objects.bulk_create([_change(step) for step in steps])
    updated, created, gone = [], [], []
    for player_id in sorted(players | final.keys()):
        now_rated = final.get(player_id)
        row = rows.get(player_id)
        if now_rated is None:
            if row is not None:
                gone.append(player_id)
            continue
        values = {
            "rating": now_rated.rating,
            "deviation": now_rated.deviation,
            "volatility": now_rated.volatility,
            "games": games[player_id],
        }
        if row is None:
            created.append(PlayerRating(player_id=player_id, **values))
        else:
            for name, value in values.items():
                setattr(row, name, value)
            updated.append(row)
    PlayerRating.objects.filter(player_id__in=gone).delete()
    PlayerRating.objects.bulk_update(updated, ["rating", "deviation", "volatility", "games", "updated_at"])
    PlayerRating.objects.bulk_create(created)
