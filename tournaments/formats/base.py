"""What every tournament format knows; the one interface the rest of the app sees.

A format is a class registered under the key stored in `Tournament.format`
(`tournaments.formats.format_for`). The services, selectors and pages ask the
format; nothing else compares format keys. The defaults here suit a format
ranked by a tie-break table whose pairings are not a bracket.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar, Protocol

from tournaments.generators import Bracket, Placing
from tournaments.standings import MatchRecord, StandingsRow, TableRecord, compute_standings

from ..models import Entrant, Tournament, TournamentMatch
from ..plans import PairingPlan, Run
from .options import FormatOptions

if TYPE_CHECKING:
    from ..correction_plans import CorrectionContext, PlannedChange


#: The standings metric a timed tournament ranks by first.
TIMED_METRIC = "timed_cards"


class PairingResult(Protocol):
    """What a standings record needs from a pairing: a model row, or a named `values_list` row."""

    status: str
    bracket: str
    player_one_id: int | None
    player_two_id: int | None
    winner_id: int | None
    games_one: int
    games_two: int
    cards_left_one: int
    cards_left_two: int
    player_three_id: int | None
    player_four_id: int | None
    places: list[int] | None
    points: list[int] | None
    timed: list[int] | None


@dataclass(frozen=True)
class GroupTable:
    """One group of a format played in groups: its table (best first), its pairings, how many advance."""

    number: int
    table: list[StandingsRow]
    pairings: list[TournamentMatch]
    advancing: int

    @property
    def name(self) -> str:
        letter = chr(ord("A") + self.number - 1) if self.number <= 26 else str(self.number)
        return f"Group {letter}"


class TournamentFormat(ABC):
    """One tournament format: starting, pairing, advancing, correcting, and how it is shown."""

    key: ClassVar[str]
    label: ClassVar[str]
    #: Tie-breaks (keys of `tournaments.standings.METRICS`) when the organiser names none.
    default_tie_breaks: ClassVar[tuple[str, ...]] = ("match_wins",)
    #: A bye counts as a won match in the standings (Swiss), rather than only sitting out.
    byes_are_wins: ClassVar[bool] = False
    #: The standings are final placings from a bracket, not a tie-break table.
    placings: ClassVar[bool] = False
    #: The whole event is one bracket from the start (the home page features it as "the bracket").
    all_bracket: ClassVar[bool] = False
    #: `TournamentMatch.bracket` of the format's round pairings (bracket formats use the generator's sections).
    section: ClassVar[str] = ""
    #: What the pages call one round of pairings ("Round 3", or "Match 3" when a round is one match).
    round_noun: ClassVar[str] = "Round"
    rounds_title: ClassVar[str] = "Rounds"
    #: The format's options: their schema, and how a tournament's stored ones are read (`options.py`).
    options: ClassVar[type[FormatOptions]] = FormatOptions
    #: Its pairings seat tables of three or four (the pages draw seats, places and points).
    tables: ClassVar[bool] = False
    #: The key of a pairing the page features on its own (a tables event's final table), if any.
    final_key: ClassVar[str | None] = None

    # --- Starting and advancing (the tournament row locked) -------------------------

    def start_check(self, tournament: Tournament, entrant_count: int) -> FormatOptions:
        """Refuse a start that cannot work (`GeneratorUserError`); the options to store, the defaulted ones filled."""
        return self.options.of(tournament)

    @abstractmethod
    def open(self, run: Run) -> PairingPlan:
        """The first pairings of a tournament that has just started (`run.pairings` is empty), to create.

        The pairing manager (`tournaments.services.pairings`) saves them and
        hands them to the `advance` that follows, which need not read back
        thousands of rows it was just given.
        """

    @abstractmethod
    def advance(self, run: Run) -> PairingPlan:
        """After a result or a correction: what is now ready to pair, or the final places (nothing saved)."""

    def plan_correction(
        self, context: CorrectionContext, target: TournamentMatch, new_winner: int
    ) -> list[PlannedChange]:
        """Every later pairing a corrected result touches; by default none (only the standings change)."""
        return []

    # --- Standings ------------------------------------------------------------------

    def tie_breaks(self, tournament: Tournament) -> list[str]:
        """The organiser's tie-breaks, else the format's; a timed tournament ranks by cards in time first."""
        keys = list(tournament.tie_breaks) or list(self.default_tie_breaks)
        if tournament.time_limit_ms is not None:
            keys = [TIMED_METRIC, *(key for key in keys if key != TIMED_METRIC)]
        return keys

    def table_sizes(self, tournament: Tournament) -> tuple[int, ...]:
        """The sizes of table (three, four) this event seats; empty when it pairs two players only."""
        return (3, 4) if self.tables else ()

    def table_points(self, tournament: Tournament, seats: int) -> tuple[int, ...] | None:
        """Points per place at a table of `seats` (None: the format's pairings count wins, not places)."""
        return None

    def match_records(self, pairings: Iterable[PairingResult]) -> list[MatchRecord | TableRecord]:
        """Plain records of the decided pairings (and byes, where they count), for the standings metrics.

        A pairing with places (a table) becomes a `TableRecord`; a two-player
        pairing of a timed tournament carries its cards in time.
        """
        records: list[MatchRecord | TableRecord] = []
        for pairing in pairings:
            if pairing.places is not None and pairing.status == TournamentMatch.Status.DECIDED:
                if pairing.winner_id is None or pairing.points is None:
                    continue
                players = tuple(
                    pk
                    for pk in (
                        pairing.player_one_id,
                        pairing.player_two_id,
                        pairing.player_three_id,
                        pairing.player_four_id,
                    )
                    if pk is not None
                )
                records.append(
                    TableRecord(
                        players=players,
                        places=tuple(pairing.places),
                        points=tuple(pairing.points),
                        winner=pairing.winner_id,
                        timed=tuple(pairing.timed or ()),
                    )
                )
                continue
            if pairing.winner_id is None or pairing.player_one_id is None:
                continue
            if pairing.status == TournamentMatch.Status.BYE:
                if self.byes_are_wins:
                    records.append(MatchRecord.for_bye(pairing.player_one_id))
                continue
            if pairing.status != TournamentMatch.Status.DECIDED or pairing.player_two_id is None:
                continue
            records.append(
                MatchRecord(
                    players=(pairing.player_one_id, pairing.player_two_id),
                    winner=pairing.winner_id,
                    games_won=(pairing.games_one, pairing.games_two),
                    cards_left=(pairing.cards_left_one, pairing.cards_left_two),
                    timed=(pairing.timed[0], pairing.timed[1]) if pairing.timed else (0, 0),
                )
            )
        return records

    def table(
        self, tournament: Tournament, pairings: Iterable[PairingResult], players: Sequence[int]
    ) -> list[StandingsRow]:
        """`players` ranked by the tournament's tie-breaks over `pairings`."""
        return compute_standings(self.match_records(pairings), self.tie_breaks(tournament), players=players)

    def finish_by_standings(self, run: Run) -> PairingPlan:
        """Finish with places from the table; players level on every tie-break share a place."""
        table = self.table(run.tournament, run.pairings, run.seeded)
        shared = Counter(row.rank for row in table)
        placings = {row.player: Placing(row.player, row.rank, row.rank + shared[row.rank] - 1) for row in table}
        return PairingPlan(finish=placings)

    # --- Pages ----------------------------------------------------------------------

    def page_bracket(
        self, tournament: Tournament, entrants: Sequence[Entrant], pairings: Sequence[TournamentMatch]
    ) -> Bracket | None:
        """The bracket the tournament's page draws, if any (regenerated, no queries)."""
        return None

    def groups(
        self, tournament: Tournament, entrants: Sequence[Entrant], pairings: Sequence[TournamentMatch]
    ) -> list[GroupTable]:
        """The groups the page shows with their tables, for a format played in groups."""
        return []

    def round_pairings(self, pairings: Iterable[TournamentMatch]) -> list[TournamentMatch]:
        """The pairings the page lists round by round."""
        return [pairing for pairing in pairings if pairing.bracket == self.section]
