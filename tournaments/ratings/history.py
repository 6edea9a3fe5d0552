"""Ratings as a function of the ordered results: replay Glicko-2 over counting matches, one period each.

A match is one rating period for all its players (two to four), whatever
its number of games: a series is played in one sitting, and rating its games
one by one would make a 3-0 count for much more than one win against the
same opponents. Each decided game enters the period as its pairwise results
(`pairwise.pairwise_games`): at a table of four, six results per game, every
player rated against the others' ratings from before the match.

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
from .pairwise import Places, pairwise_games

PlayerId = TypeVar("PlayerId", bound=Hashable)
MatchId = TypeVar("MatchId", bound=Hashable)


@dataclass(frozen=True)
class RatedMatch(Generic[MatchId, PlayerId]):
    """One counting result: the match, its players in seat order (two to four), and each decided game's places.

    `games` holds one entry per decided game, in order: the place of each
    seat (1 best, equal places shared). A two-player game won by the first
    seat is (1, 2); a timed game whose first place is shared, (1, 1).
    """

    match: MatchId
    players: tuple[PlayerId, ...]
    games: tuple[Places, ...]
    # Team Speed: the seats of each team (partners make no pairing); empty when everyone plays alone.
    teams: tuple[tuple[int, ...], ...] = ()


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
    """Rate each match in turn as one period for its players; returns every step and the final ratings.

    `start`: ratings before the first match (a player not in it starts at the
    default). A match without a decided game rates nobody. Steps come in
    match order, then seat order; a step's `games` is the games played, not
    the pairings they made. Raises `ValueError` for a game whose places are
    not one per player.
    """
    current: dict[PlayerId, Rating] = dict(start or {})
    steps: list[RatingStep[MatchId, PlayerId]] = []
    for rated in matches:
        if not rated.games:
            continue
        before = {player: current.get(player, Rating()) for player in rated.players}
        games: list[RatedGame[PlayerId]] = []
        for places in rated.games:
            games.extend(pairwise_games(rated.players, places, rated.teams))
        after = rate_period(before, games)
        for player in rated.players:
            steps.append(RatingStep(player, rated.match, before[player], after[player], len(rated.games)))
            current[player] = after[player]
    return steps, current
