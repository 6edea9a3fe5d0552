"""A timed round's count, pure: the cards each seat put on the centre piles by the limit.

The verifier's verdict (`Verdict.cards_played_by`) and a live table that ends
a timed game at its limit both count with these, so the rule is written once.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterable, Sequence

from .events import Play


def plays_by_seat(plays: Iterable[Play], seats: int) -> tuple[tuple[int, ...], ...]:
    """Per seat, the `t` of every card it put on a centre pile, in order (a run gives one entry per card)."""
    times: list[list[int]] = [[] for _seat in range(seats)]
    for play in plays:
        times[play.seat] += [play.t] * len(play.cards)
    return tuple(map(tuple, times))


def cards_played_by(times_by_seat: Sequence[Sequence[int]], limit: int) -> tuple[int, ...]:
    """Per seat, the cards put on the centre piles at `t` <= `limit` ms: a timed round's score."""
    return tuple(bisect_right(times, limit) for times in times_by_seat)
