"""The series rule, pure: after a game changes, does the match end, or which game opens next?"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from .models import Game
from .placings import points_for

GameRow = tuple[int, str, int | None]
"""A game of a match as the series rule needs it: number, status, winner's id."""


_UNSETTLED = (Game.Status.OPEN, Game.Status.AWAITING_CONFIRMATION, Game.Status.DISPUTED)


@dataclass(frozen=True, slots=True)
class SeriesStep:
    """What follows: the match's winner (it is over), or the number of the game to open, or neither."""

    winner_id: int | None = None
    open_game: int | None = None


def series_step(*, games: Iterable[GameRow], player_ids: tuple[int, int], wins_needed: int) -> SeriesStep:
    """The next step of a series from its games as they now stand.

    A player with the wins needed has won. Otherwise the next game opens once
    no game is open, awaiting confirmation or disputed: an unsettled game holds
    the match, because its result may end it.
    """
    rows = list(games)
    wins = dict.fromkeys(player_ids, 0)
    for _number, status, winner_id in rows:
        if status == Game.Status.DECIDED and winner_id in wins:
            wins[winner_id] += 1
    leader = max(player_ids, key=wins.__getitem__)
    if wins[leader] >= wins_needed:
        return SeriesStep(winner_id=leader)
    if any(status in _UNSETTLED for _, status, _ in rows):
        return SeriesStep()
    return SeriesStep(open_game=max((number for number, _, _ in rows), default=0) + 1)


TableGameRow = tuple[int, str, Sequence[int] | None]
"""A game of a table's match as its series rule needs it: number, status, places per seat (None: not decided)."""


@dataclass(frozen=True, slots=True)
class TableScore:
    """One seat's series so far, and the key that ranks it (higher is better)."""

    seat: int
    points: int
    firsts: int
    # Places from the latest decided game back to the first: the last tie-break.
    recent_places: tuple[int, ...]

    @property
    def key(self) -> tuple[int, int, tuple[int, ...]]:
        return (self.points, self.firsts, tuple(-place for place in self.recent_places))


def table_scores(games: Iterable[TableGameRow], *, seats: int, points_per_place: Sequence[int]) -> list[TableScore]:
    """Each seat's points, first places and recent places over the decided games, in seat order.

    The stated tie-break for equal points: more first places, then the better
    place in the latest game where the two differ.
    """
    decided = sorted((number, places) for number, status, places in games if status == Game.Status.DECIDED and places)
    game_points = [points_for(tuple(places), points_per_place) for _, places in decided]
    scores = []
    for seat in range(seats):
        seat_places = [places[seat] for _, places in decided]
        points = sum(points[seat] for points in game_points)
        scores.append(TableScore(seat, points, sum(place == 1 for place in seat_places), tuple(reversed(seat_places))))
    return scores


def table_series_step(
    *,
    games: Iterable[TableGameRow],
    player_ids: Sequence[int],
    points_per_place: Sequence[int],
    series: str,
    length: int,
) -> SeriesStep:
    """The next step of a table's series (three or four seats), scored by points per place.

    First to N: the first to N points wins. Best of N: after N decided games
    the top scorer wins, or sooner once no one can catch the leader. Ties go
    by the keys of `table_scores`; seats that stay equal on all of them play
    another game. Void games count for nothing.
    """
    rows = list(games)
    scores = table_scores(rows, seats=len(player_ids), points_per_place=points_per_place)
    ranked = sorted(scores, key=lambda score: score.key, reverse=True)
    leader, runner_up = ranked[0], ranked[1]
    alone = leader.key != runner_up.key
    decided = sum(1 for _, status, places in rows if status == Game.Status.DECIDED and places)
    if series == "first_to":
        over = leader.points >= length
    else:
        remaining = max(0, length - decided)
        over = remaining == 0 or leader.points > runner_up.points + remaining * max(points_per_place)
    if over and alone:
        return SeriesStep(winner_id=player_ids[leader.seat])
    if any(status in _UNSETTLED for _, status, _ in rows):
        return SeriesStep()
    return SeriesStep(open_game=max((number for number, _, _ in rows), default=0) + 1)
