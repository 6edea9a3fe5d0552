"""The series rule, pure: after a game changes, does the match end, or which game opens next?"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from .models import Game

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
