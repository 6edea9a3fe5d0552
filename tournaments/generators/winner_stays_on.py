"""Winner stays on: the winner keeps the table, the loser joins the back of the queue.

The state is recomputed from the list of winners so far, so correcting a
result is replaying a different list. The event ends after `max_matches`
matches; standings are by wins.

With three or four at the table (`winner_stays_on_table`), as the rules texts
describe ("two play while the others watch, and the winner stays on to meet
the next challenger", with one queue): the winner keeps their seat, the
others at the table go to the back of the one queue in their finishing order,
and the front of the queue fills the empty seats in seat order. The losers
join the queue before the seats are filled, so with few players waiting the
best of them comes straight back.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from .entrants import (
    EntrantId,
    GeneratorUserError,
    InvalidResultError,
    Pairing,
    competition_ranks,
    require_distinct,
)


@dataclass(frozen=True)
class WinsRow:
    """One line of winner-stays-on standings."""

    rank: int
    entrant: EntrantId
    wins: int
    played: int


@dataclass(frozen=True)
class WinnerStaysOnState:
    """Where a winner-stays-on event stands."""

    holder: EntrantId
    queue: tuple[EntrantId, ...]
    matches_played: int
    max_matches: int
    wins: Mapping[EntrantId, int]
    played: Mapping[EntrantId, int]
    entrants: tuple[EntrantId, ...]

    @property
    def finished(self) -> bool:
        """True once the event has played its `max_matches`."""
        return self.matches_played >= self.max_matches

    @property
    def next_match(self) -> Pairing | None:
        """The holder (seat 0) against the first challenger, or None when finished."""
        return None if self.finished else Pairing(self.holder, self.queue[0])

    def standings(self) -> tuple[WinsRow, ...]:
        """Most wins first; equal wins share a rank and keep the entry order."""
        ordered = sorted(self.entrants, key=lambda entrant: -self.wins[entrant])
        ranks = competition_ranks([self.wins[entrant] for entrant in ordered])
        return tuple(
            WinsRow(rank, entrant, self.wins[entrant], self.played[entrant])
            for rank, entrant in zip(ranks, ordered, strict=True)
        )


def winner_stays_on(
    entrants: Sequence[EntrantId], winners: Sequence[EntrantId], *, max_matches: int
) -> WinnerStaysOnState:
    """Replay `winners` (the winner of each match so far) from the starting queue.

    The first entrant holds the table at the start; the rest queue in order.
    Raises `InvalidResultError` if a winner was not in that match or there are
    more results than `max_matches`, and `GeneratorUserError` if `max_matches` < 1.
    """
    entrant_tuple = require_distinct(entrants)
    if max_matches < 1:
        raise GeneratorUserError(f"max_matches must be at least 1, got {max_matches}")
    if len(winners) > max_matches:
        raise InvalidResultError(f"{len(winners)} results for an event of {max_matches} matches")
    holder = entrant_tuple[0]
    queue = deque(entrant_tuple[1:])
    wins = dict.fromkeys(entrant_tuple, 0)
    played = dict.fromkeys(entrant_tuple, 0)
    for number, winner in enumerate(winners, start=1):
        challenger = queue.popleft()
        if winner not in (holder, challenger):
            raise InvalidResultError(f"match {number} was {holder!r} v {challenger!r}, not won by {winner!r}")
        loser = challenger if winner == holder else holder
        wins[winner] += 1
        played[holder] += 1
        played[challenger] += 1
        holder = winner
        queue.append(loser)
    return WinnerStaysOnState(
        holder=holder,
        queue=tuple(queue),
        matches_played=len(winners),
        max_matches=max_matches,
        wins=wins,
        played=played,
        entrants=entrant_tuple,
    )


@dataclass(frozen=True)
class WinnerStaysOnTableState:
    """Where a winner-stays-on event at a table of `len(seats)` stands: who sits where, who waits, in order."""

    seats: tuple[EntrantId, ...]
    queue: tuple[EntrantId, ...]
    matches_played: int
    max_matches: int
    wins: Mapping[EntrantId, int]
    played: Mapping[EntrantId, int]
    entrants: tuple[EntrantId, ...]

    @property
    def finished(self) -> bool:
        """True once the event has played its `max_matches`."""
        return self.matches_played >= self.max_matches

    @property
    def next_table(self) -> tuple[EntrantId, ...] | None:
        """The players of the next match in seat order, or None when finished."""
        return None if self.finished else self.seats


def winner_stays_on_table(
    entrants: Sequence[EntrantId],
    orders: Sequence[Sequence[EntrantId]],
    *,
    max_matches: int,
    table_size: int,
) -> WinnerStaysOnTableState:
    """Replay `orders` (each match's players in finishing order, the winner first) from the starting queue.

    The first `table_size` entrants sit at the table in seat order, the rest
    queue in order. After each match the winner keeps their seat, the others
    join the back of the queue in their finishing order, and the front of the
    queue takes the empty seats, lowest seat first. Raises `InvalidResultError`
    if an order is not exactly the players at the table or there are more
    results than `max_matches`, and `GeneratorUserError` for a table size other
    than 2 to 4, fewer entrants than seats, or `max_matches` < 1.
    """
    if table_size not in (2, 3, 4):
        raise GeneratorUserError(f"a table seats 2, 3 or 4 players, not {table_size}")
    entrant_tuple = require_distinct(entrants, minimum=table_size)
    if max_matches < 1:
        raise GeneratorUserError(f"max_matches must be at least 1, got {max_matches}")
    if len(orders) > max_matches:
        raise InvalidResultError(f"{len(orders)} results for an event of {max_matches} matches")
    seats = list(entrant_tuple[:table_size])
    queue = deque(entrant_tuple[table_size:])
    wins = dict.fromkeys(entrant_tuple, 0)
    played = dict.fromkeys(entrant_tuple, 0)
    for number, order in enumerate(orders, start=1):
        finishing = tuple(order)
        if len(finishing) != table_size or set(finishing) != set(seats):
            raise InvalidResultError(f"match {number} seated {seats!r}, not the finishing order {finishing!r}")
        winner = finishing[0]
        wins[winner] += 1
        for player in seats:
            played[player] += 1
        queue.extend(finishing[1:])
        seats = [player if player == winner else queue.popleft() for player in seats]
    return WinnerStaysOnTableState(
        seats=tuple(seats),
        queue=tuple(queue),
        matches_played=len(orders),
        max_matches=max_matches,
        wins=wins,
        played=played,
        entrants=entrant_tuple,
    )
