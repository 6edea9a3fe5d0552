"""The registry of standings metrics, keyed by short strings.

A tournament's tie-break order is a list of these keys. Every metric is
"higher is better". Most are computed once for everyone; head-to-head is
computed inside each group of players still tied on every earlier key, so it
only ever separates those.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import ClassVar, TypeVar

from tournaments.generators.entrants import EntrantId

from .records import MatchRecord, TableRecord

Record = MatchRecord | TableRecord
"""What standings are computed from: a two-player match (or a bye), or a table of two to four."""


@dataclass
class _Totals:
    match_wins: int = 0
    games_won: int = 0  # including any games a bye awards
    games_won_in_play: int = 0
    games_played: int = 0
    card_margin: int = 0
    table_points: int = 0
    timed_cards: int = 0
    opponents: list[EntrantId] = field(default_factory=list)
    beaten: list[EntrantId] = field(default_factory=list)


class ResultsTable:
    """Per-player totals from the records, built once and shared by every metric."""

    def __init__(self, records: Iterable[Record], players: Sequence[EntrantId] = ()) -> None:
        self._totals: dict[EntrantId, _Totals] = {player: _Totals() for player in players}
        self._wins_against: dict[tuple[EntrantId, EntrantId], int] = defaultdict(int)
        for record in records:
            self._add(record)

    @property
    def players(self) -> list[EntrantId]:
        """Everyone in the table: the given players in order, then others as first seen."""
        return list(self._totals)

    def _add(self, record: Record) -> None:
        if isinstance(record, TableRecord):
            self._add_table(record)
            return
        first, second = record.players
        first_totals = self._totals.setdefault(first, _Totals())
        if record.bye or second is None:
            first_totals.match_wins += 1
            first_totals.games_won += record.games_won[0]
            return
        second_totals = self._totals.setdefault(second, _Totals())
        loser = second if record.winner == first else first
        self._totals[record.winner].match_wins += 1
        self._totals[record.winner].beaten.append(loser)
        self._wins_against[(record.winner, loser)] += 1
        sides = ((first_totals, second), (second_totals, first))
        for index, (totals, opponent) in enumerate(sides):
            totals.opponents.append(opponent)
            totals.games_won += record.games_won[index]
            totals.games_won_in_play += record.games_won[index]
            totals.games_played += sum(record.games_won)
            # Cards the opponent was left holding count for you, yours against you.
            totals.card_margin += record.cards_left[1 - index] - record.cards_left[index]
            totals.timed_cards += record.timed[index]

    def _add_table(self, record: TableRecord) -> None:
        """A table: points and timed cards to each seat; everyone placed above another has beaten them."""
        seats = [self._totals.setdefault(player, _Totals()) for player in record.players]
        self._totals[record.winner].match_wins += 1
        for index, (player, totals) in enumerate(zip(record.players, seats, strict=True)):
            totals.table_points += record.points[index]
            totals.timed_cards += record.timed[index] if record.timed else 0
            for other_index, other in enumerate(record.players):
                if other == player:
                    continue
                totals.opponents.append(other)
                if record.places[index] < record.places[other_index]:
                    totals.beaten.append(other)
                    self._wins_against[(player, other)] += 1

    def totals(self, player: EntrantId) -> _Totals:
        return self._totals[player]

    def wins_against(self, winner: EntrantId, loser: EntrantId) -> int:
        return self._wins_against.get((winner, loser), 0)


class Metric(ABC):
    """One standings column; subclasses register under `key`."""

    key: ClassVar[str]
    label: ClassVar[str]
    #: Computed within each group of players tied on the earlier keys.
    within_ties: ClassVar[bool] = False

    @abstractmethod
    def values(self, table: ResultsTable, players: Sequence[EntrantId]) -> dict[EntrantId, float]:
        """The metric for each of `players` (a tie group when `within_ties`)."""


METRICS: dict[str, type[Metric]] = {}

MetricClass = TypeVar("MetricClass", bound=type[Metric])


def register(metric: MetricClass) -> MetricClass:
    """Class decorator adding a metric to the registry under its key."""
    if metric.key in METRICS:
        raise ValueError(f"a metric is already registered as {metric.key!r}")
    METRICS[metric.key] = metric
    return metric


def metric_for(key: str) -> Metric:
    """The metric registered under `key`; `ValueError` listing the known keys otherwise."""
    try:
        return METRICS[key]()
    except KeyError:
        raise ValueError(f"unknown tie-break {key!r}; known: {', '.join(sorted(METRICS))}") from None


@register
class MatchWins(Metric):
    """Matches won; a bye counts as a win."""

    key = "match_wins"
    label = "Match wins"

    def values(self, table: ResultsTable, players: Sequence[EntrantId]) -> dict[EntrantId, float]:
        return {player: table.totals(player).match_wins for player in players}


@register
class GameWins(Metric):
    """Games won."""

    key = "game_wins"
    label = "Game wins"

    def values(self, table: ResultsTable, players: Sequence[EntrantId]) -> dict[EntrantId, float]:
        return {player: table.totals(player).games_won for player in players}


@register
class GameWinPercentage(Metric):
    """Share of games won in matches actually played (byes left out), 0 with none played."""

    key = "game_win_pct"
    label = "Game win %"

    def values(self, table: ResultsTable, players: Sequence[EntrantId]) -> dict[EntrantId, float]:
        result: dict[EntrantId, float] = {}
        for player in players:
            totals = table.totals(player)
            result[player] = 100.0 * totals.games_won_in_play / totals.games_played if totals.games_played else 0.0
        return result


@register
class CardMargin(Metric):
    """Cards opponents still held when your wins ended, minus cards you held when your losses did."""

    key = "card_margin"
    label = "Card margin"

    def values(self, table: ResultsTable, players: Sequence[EntrantId]) -> dict[EntrantId, float]:
        return {player: table.totals(player).card_margin for player in players}


@register
class TablePoints(Metric):
    """Points by place at the tables of a tables event (each game's place earns the table's points per place)."""

    key = "table_points"
    label = "Table points"

    def values(self, table: ResultsTable, players: Sequence[EntrantId]) -> dict[EntrantId, float]:
        return {player: table.totals(player).table_points for player in players}


@register
class TimedCards(Metric):
    """Cards played within the time limits, over the counted games of timed matches (verified logs only)."""

    key = "timed_cards"
    label = "Cards in time"

    def values(self, table: ResultsTable, players: Sequence[EntrantId]) -> dict[EntrantId, float]:
        return {player: table.totals(player).timed_cards for player in players}


@register
class HeadToHead(Metric):
    """Wins against the other players still tied with you on every earlier key (at a table: finishing above them)."""

    key = "head_to_head"
    label = "Head to head"
    within_ties = True

    def values(self, table: ResultsTable, players: Sequence[EntrantId]) -> dict[EntrantId, float]:
        return {
            player: sum(table.wins_against(player, other) for other in players if other != player) for player in players
        }


@register
class Buchholz(Metric):
    """Sum of your opponents' match wins (a bye adds nothing)."""

    key = "buchholz"
    label = "Buchholz"

    def values(self, table: ResultsTable, players: Sequence[EntrantId]) -> dict[EntrantId, float]:
        return {
            player: sum(table.totals(opponent).match_wins for opponent in table.totals(player).opponents)
            for player in players
        }


@register
class SonnebornBerger(Metric):
    """Sum of the match wins of the opponents you beat (Speed has no draws)."""

    key = "sonneborn_berger"
    label = "Sonneborn-Berger"

    def values(self, table: ResultsTable, players: Sequence[EntrantId]) -> dict[EntrantId, float]:
        return {
            player: sum(table.totals(beaten).match_wins for beaten in table.totals(player).beaten) for player in players
        }
