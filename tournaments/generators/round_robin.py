"""Round robin on the FIDE Berger tables (FIDE Handbook C.05, Annex 1).

Entrants take Berger numbers 1..n in the order given. With an odd count a
dummy takes the highest number, and being paired with it is the bye. The
first-named entrant of each pairing sits first (seat 0, "white"). A double
round robin plays the table twice, the second time with seats swapped.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .entrants import EntrantId, Pairing, require_distinct


@dataclass(frozen=True)
class ScheduledRound:
    """One round of a fixed schedule: its pairings and who (if anyone) sits out with a bye."""

    number: int
    pairings: tuple[Pairing, ...]
    bye: EntrantId | None = None


@dataclass(frozen=True)
class RoundRobinSchedule:
    """Every round of a round robin, in order."""

    rounds: tuple[ScheduledRound, ...]


def berger_table(players: int) -> list[list[tuple[int, int]]]:
    """The Berger table for an even number of players, as (first, second) numbers per round.

    Player n stays put; in round r the player at ((r - 1) * n/2 mod (n - 1)) + 1
    faces n, and the others pair outwards from that player. Player n sits
    second in odd rounds and first in even ones, as in the FIDE tables.

    >>> berger_table(4)
    [[(1, 4), (2, 3)], [(4, 3), (1, 2)], [(2, 4), (3, 1)]]
    """
    if players < 2 or players % 2:
        raise ValueError(f"a Berger table needs an even number of players, at least 2; got {players}")
    last = players
    rotating = players - 1

    def wrap(number: int) -> int:
        return (number - 1) % rotating + 1

    table: list[list[tuple[int, int]]] = []
    for round_number in range(1, players):
        pivot = wrap((round_number - 1) * (players // 2) + 1)
        pairs = [(pivot, last) if round_number % 2 else (last, pivot)]
        pairs += [(wrap(pivot + step), wrap(pivot - step)) for step in range(1, players // 2)]
        table.append(pairs)
    return table


def round_robin(entrants: Sequence[EntrantId], *, double: bool = False) -> RoundRobinSchedule:
    """The full schedule for `entrants` (at least 2, distinct), single or double."""
    numbered = list(require_distinct(entrants))
    dummy = len(numbered) % 2 == 1
    table = berger_table(len(numbered) + dummy)

    def who(number: int) -> EntrantId | None:
        return numbered[number - 1] if number <= len(numbered) else None

    rounds: list[ScheduledRound] = []
    for leg in range(2 if double else 1):
        for pairs in table:
            pairings: list[Pairing] = []
            bye: EntrantId | None = None
            for first_number, second_number in pairs:
                first, second = who(first_number), who(second_number)
                if first is None or second is None:
                    bye = first if second is None else second
                    continue
                pairings.append(Pairing(first, second) if leg == 0 else Pairing(second, first))
            rounds.append(ScheduledRound(len(rounds) + 1, tuple(pairings), bye))
    return RoundRobinSchedule(tuple(rounds))
