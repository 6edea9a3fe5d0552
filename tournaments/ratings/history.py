"""Ratings as a function of the ordered results: replay Glicko-2 over counting matches, one period each.

Given the same matches in the same order (and the same ratings to start
from), the replay gives the same ratings, float for float: that is what
lets the services recompute from the first changed result onward and the
audit check the stored ratings against a recomputation from scratch.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping
from dataclasses import dataclass
from typing import Generic, TypeVar

from .glicko2 import RatedGame, Rating, rate_period

PlayerId = TypeVar("PlayerId", bound=Hashable)
MatchId = TypeVar("MatchId", bound=Hashable)


@dataclass(frozen=True)
class RatedMatch(Generic[MatchId, PlayerId]):
    """One counting result: the match, its two players, and the winner of each decided game in order."""

    match: MatchId
    players: tuple[PlayerId, PlayerId]
    winners: tuple[PlayerId, ...]


@dataclass(frozen=True)
class RatingStep(Generic[MatchId, PlayerId]):
    """One player's rating before and after one match (a rating period of `games` games)."""

    player: PlayerId
    match: MatchId
    before: Rating
    after: Rating
    games: int


def ratings_replay(
    matches: Iterable[RatedMatch[MatchId, PlayerId]], start: Mapping[PlayerId, Rating] | None = None
) -> tuple[list[RatingStep[MatchId, PlayerId]], dict[PlayerId, Rating]]:
    """Rate each match in turn as one period for its two players; returns every step and the final ratings.

    `start`: ratings before the first match (a player not in it starts at the
    default). A match without a decided game rates nobody.
    """
    current: dict[PlayerId, Rating] = dict(start or {})
    steps: list[RatingStep[MatchId, PlayerId]] = []
    for rated in matches:
        if not rated.winners:
            continue
        one, two = rated.players
        before = {one: current.get(one, Rating()), two: current.get(two, Rating())}
        games = [RatedGame(one, two, 1.0 if winner == one else 0.0) for winner in rated.winners]
        after = rate_period(before, games)
        for player in (one, two):
            steps.append(RatingStep(player, rated.match, before[player], after[player], len(games)))
            current[player] = after[player]
    return steps, current
