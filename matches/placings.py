"""A game's places, pure: from what a verified log says (or a report) to each seat's place.

Places are numbered from 1 (best) in standard competition order: seats that
share a place take the same number and the next place is skipped (1, 2, 2, 4).
A race (the usual game) is won by the seat that called Speed; the others
follow by cards left, fewer first. A timed game is won on the cards each
seat played onto the centre piles by the limit, more first; then fewer cards
left at the limit; then the Speed call.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

Places = tuple[int, ...]
"""One place per seat, in seat order."""

#: Points per place when the organiser sets none: a win is worth more than the
#: rest together would make up in one game, and the last places score nothing.
DEFAULT_POINTS_PER_PLACE: dict[int, tuple[int, ...]] = {2: (1, 0), 3: (2, 1, 0), 4: (3, 1, 0, 0)}


def competition_places(keys: Sequence[Any]) -> Places:
    """Each seat's place when a lower key is better and equal keys share a place."""
    return tuple(1 + sum(other < key for other in keys) for key in keys)


def race_places(*, winner: int | None, cards_left: Sequence[int]) -> Places | None:
    """A race's places: the Speed caller first, then by cards left (None: no one called Speed, a void game)."""
    if winner is None:
        return None
    return competition_places([(seat != winner, left) for seat, left in enumerate(cards_left)])


def timed_places(*, played: Sequence[int], left_at_limit: Sequence[int], caller: int | None) -> Places:
    """A timed game's places: more cards played by the limit, then fewer left at it, then the Speed call."""
    return competition_places(
        [(-count, left, seat != caller) for seat, (count, left) in enumerate(zip(played, left_at_limit, strict=True))]
    )


def cards_left_at(*, cards_left: Sequence[int], plays_by_seat: Sequence[Sequence[int]], limit: int) -> tuple[int, ...]:
    """Each seat's cards left at `limit` ms: those left at the end, plus the ones it played after the limit.

    In Speed a seat's cards only ever leave it by being played (a card taken
    back in a collision was never played), so this holds for every ruleset a
    timed match accepts (Spit, whose piles go back to a player, is refused).
    """
    return tuple(
        left + sum(1 for t in times if t > limit) for left, times in zip(cards_left, plays_by_seat, strict=True)
    )


def team_places(*, winning_team: Sequence[int], seats: int) -> Places:
    """A team game's places: every seat of the winning team first, the others after them."""
    return competition_places([seat not in winning_team for seat in range(seats)])


def sole_winner(places: Places) -> int | None:
    """The seat alone in first place (None when first place is shared: a timed game's tie)."""
    first = [seat for seat, place in enumerate(places) if place == 1]
    return first[0] if len(first) == 1 else None


def places_from_winner(winner: int | None, seats: int) -> Places | None:
    """A two-player game's places from its winner's seat (None: void)."""
    if winner is None:
        return None
    return tuple(1 if seat == winner else 2 for seat in range(seats))


def check_places(places: Sequence[int]) -> Places:
    """The places as given if they are a valid finishing order (1, 2, 2, 4 ...), else ValueError saying why."""
    given = tuple(places)
    if any(not isinstance(place, int) or isinstance(place, bool) for place in given):
        raise ValueError("places are whole numbers, 1 for the best")
    if competition_places(given) != given:
        expected = ", ".join(map(str, competition_places(given)))
        raise ValueError(
            f"places {', '.join(map(str, given))} are not a finishing order: "
            f"equal places are shared and the next place is skipped (e.g. {expected})"
        )
    return given


def points_for(places: Places, points_per_place: Sequence[int]) -> tuple[int, ...]:
    """Each seat's points for one game: the points of its place (a shared place earns that place's points)."""
    return tuple(points_per_place[place - 1] if place <= len(points_per_place) else 0 for place in places)
