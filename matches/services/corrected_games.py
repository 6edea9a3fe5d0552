"""The games a correction gives a finished match, checked alike for two players and for a table.

A correction names some games by number, each with its real result (two
players: the winner; a table: every seat's place) or as void (it did not
count), and may add games the match never had, numbered on from its last.
`games_corrected` checks the numbers and works out every game as recorded and
as corrected; `series_end` runs the series again over the corrected games
and checks it ends on the last game that counts, as a played series would
(only void games may follow). `result_corrections` plans each kind of match
with them. Reads only.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

from core.errors import Invalid

from ..models import Game, Match

#: A game's result as a correction reads it: two players' winner's id, a table's places in seat order.
R = TypeVar("R")
#: A game's result as the caller gives it (a handle, places by handle), before it is checked.
G = TypeVar("G")

#: The status of a game the match never had (before a correction adds it).
NOT_PLAYED = "not_played"
#: The games a correction may change: those with a result, or void.
SETTLED = (Game.Status.DECIDED, Game.Status.VOID)


@dataclass(frozen=True)
class GamesCorrection(Generic[R]):
    """What correcting some games of a finished match does, worked out before anything is written.

    `before` is every settled game (decided or void) as recorded, `after` every
    game as the correction leaves it (the games it adds too), each its status
    and result (None: void; two players' timed game whose first place was
    shared); `winner_id` is who then wins the series.
    """

    match: Match
    before: dict[int, tuple[str, R | None]]
    after: dict[int, tuple[str, R | None]]
    winner_id: int

    @property
    def changed(self) -> dict[int, tuple[tuple[str, R | None], tuple[str, R | None]]]:
        """Each game the correction changes (or adds), before and after, by number."""
        return {
            number: (self.before.get(number, (NOT_PLAYED, None)), game)
            for number, game in sorted(self.after.items())
            if self.before.get(number) != game
        }

    def changed_words(self, shown: Callable[[R | None], object]) -> list[dict[str, object]]:
        """Each changed game as a preview says it: its result before and after as `shown` (a handle, places by
        handle; None for a game void or not played) and its status (decided, void; `NOT_PLAYED` before an added game)."""
        return [
            {
                "game": number,
                "before": shown(before[1]),
                "after": shown(after[1]),
                "before_status": before[0],
                "after_status": after[0],
            }
            for number, (before, after) in self.changed.items()
        ]


def games_corrected(
    match: Match,
    rows: Sequence[tuple[int, str, R | None]],
    given: Mapping[int, G | None],
    resolve: Callable[[G], R],
) -> tuple[dict[int, tuple[str, R | None]], dict[int, tuple[str, R | None]]]:
    """Every settled game as recorded and as corrected, from the match's games (`rows`: number, status, result)
    and the corrections `given` (game number to its result as given, `resolve`d; None: void).

    Raises `Invalid` for a game the match does not have (a game added must
    follow its last, without gaps), a game not settled, or a void of a game
    never played.
    """
    if not given:
        raise Invalid("Give the corrected result of at least one game.", extra={"field": "games"})
    statuses = {number: status for number, status, _ in rows}
    before = {number: (status, result) for number, status, result in rows if status in SETTLED}
    last = max(statuses, default=0)
    after = dict(before)
    for number, result in given.items():
        status = statuses.get(number)
        if status is None and number <= last:  # games are numbered from 1 without gaps
            raise Invalid(f"Match {match.pk} has no game {number}.", extra={"field": "games"})
        if status is not None and status not in SETTLED:
            raise Invalid(
                f"Game {number} of match {match.pk} is {Game.Status(status).label.lower()}: settle it before "
                "correcting the match.",
                extra={"field": "games"},
            )
        if result is None:
            if number not in before:
                raise Invalid(
                    f"Game {number} of match {match.pk} was never played (its games end at game {last}): "
                    "there is nothing to void.",
                    extra={"field": "games"},
                )
            after[number] = (Game.Status.VOID, None)
            continue
        after[number] = (Game.Status.DECIDED, resolve(result))
    added = sorted(number for number in after if number > last)
    if added != list(range(last + 1, last + 1 + len(added))):
        missing = next(number for number in range(last + 1, added[-1]) if number not in after)
        raise Invalid(
            f"Game {added[-1]} cannot be added without game {missing}: the match's games end at game {last}, "
            "and a game a correction adds follows them.",
            extra={"field": "games"},
        )
    return before, after


def series_end(
    games: Mapping[int, tuple[str, R | None]],
    *,
    winner_of: Callable[[dict[int, tuple[str, R | None]]], int | None],
    score_words: Callable[[dict[int, tuple[str, R | None]]], str],
    not_over: str,
) -> int:
    """Who wins the series these games make, checking that it ends on the last game that counts.

    `winner_of` is the series rule: the winner of these games (the games so
    far), None while it goes on; `score_words` the score in words for a
    refusal; `not_over` what a refusal says when the games end with no winner
    (the score is put in its `{score}`).
    """
    so_far: dict[int, tuple[str, R | None]] = {}
    winner: int | None = None
    ended: int | None = None
    for number in sorted(games):
        status, _ = games[number]
        if ended is not None:
            if status == Game.Status.VOID:
                continue  # did not count: the series stays over
            raise Invalid(
                f"With these games the series is over after game {ended} ({score_words(so_far)}), but game "
                f"{number} counts after it. Correct the games so the last one that counts decides the match, "
                "or void those after it.",
                extra={"field": "games"},
            )
        so_far[number] = games[number]
        if status != Game.Status.DECIDED:
            continue
        winner = winner_of(so_far)
        if winner is not None:
            ended = number
    if winner is None:
        raise Invalid(not_over.format(score=score_words(so_far)), extra={"field": "games"})
    return winner
