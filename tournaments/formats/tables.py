"""Tables of three and four: rounds at tables scored by points per place, then a final table.

Each round seats everyone at tables of 4 and 3 (`tournaments.generators.tables`:
as many 4s as possible; five players sit 3 + 2; fewer than three cannot
play). Round 1 is drawn by seed in a snake; later rounds by standing, in
blocks, avoiding repeat table-mates. Every table is one `matches.Match` of its
size: a table of three plays the tournament's `ruleset_three` ("three-way"
unless the organiser chose another three-seat ruleset), a table of four its
`ruleset_four` ("four-way"), the pair of a five-player round the tournament's
two-player `ruleset`. A ruleset per size, because one ruleset seats one number
of players and a round mixes sizes.

Each game's places earn the table's points per place (the tournament's
`points_three` / `points_four`, by default 2-1-0 and 3-1-0-0; a pair scores a
table of three's first and last: 2 and 0). The standings rank by these
"table points", then tables won (`match_wins`), then head to head (finishing
above the other at a shared table); a timed tournament ranks by cards played
within the limits first. After `table_rounds` rounds the top
`final_table_size` (3 or 4, never more than the field) play the final table,
whose places (its match's own standings) are the top places; everyone else is
placed by the standings of the rounds, after them. The final's points do not
enter the standings of the rounds: they decide only the top places.

A corrected result (a table's games' places, or a pair's winner) changes the
standings. Rounds already seated stay as they were seated, as Swiss rounds
already paired do: they were drawn from the standings of their time, and the
results played in them stand. The final table is qualified for by the
standings, like a playoff after groups: if the correction changes who
reaches it, it is seated again, at once if it has not started, else (with
the organiser's confirmation) its match is set aside and it is played again.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

from matches.models import Match
from tournaments.generators import GeneratorUserError, Table, first_round, standing_round, table_sizes
from tournaments.standings import StandingsRow, compute_standings

from ..correction_plans import CorrectionContext, PairingChange, PlannedChange, started_match_ids
from ..models import Tournament, TournamentMatch
from ..plans import PairingPlan, Run, table_row
from .base import PairingResult, TournamentFormat
from .options import OptionSpec, TableSeatOptions, option
from .registry import register

#: Rounds before the final table when the organiser does not say.
DEFAULT_TABLE_ROUNDS = 3
#: The final table's key.
FINAL = "F"


@dataclass(frozen=True)
class TablesOptions(TableSeatOptions):
    table_rounds: int | None = option(
        None,
        OptionSpec(
            "int", "Rounds at tables", "Before the final table; empty: 3.", minimum=1, maximum=99, nullable=True
        ),
    )
    final_table_size: int = option(
        4,
        OptionSpec(
            "choice",
            "Final table",
            "How many of the top of the standings play the final table.",
            choices=((4, "Four"), (3, "Three")),
        ),
    )


def _options(tournament: Tournament) -> TablesOptions:
    return TablesOptions.of(tournament)


@register
class Tables(TournamentFormat):
    key = "tables"
    label = "Tables of three and four"
    default_tie_breaks = ("table_points", "match_wins", "head_to_head")
    section = TournamentMatch.Bracket.TABLES
    options = TablesOptions
    tables = True
    final_key = FINAL

    def start_check(self, tournament: Tournament, entrant_count: int) -> TablesOptions:
        sizes = table_sizes(entrant_count)  # refuses fewer than three
        if 2 in sizes and tournament.series == Match.Series.BEST_OF and tournament.series_length % 2 == 0:
            raise GeneratorUserError(
                f"With {entrant_count} players one table is a pair, whose best of must be odd: "
                f"use best of {tournament.series_length + 1}, or first to."
            )
        options = _options(tournament)
        return replace(options, table_rounds=options.table_rounds or DEFAULT_TABLE_ROUNDS)

    def table_points(self, tournament: Tournament, seats: int) -> tuple[int, ...] | None:
        return _options(tournament).table_points(seats)

    # --- Pairing -----------------------------------------------------------------

    def open(self, run: Run) -> PairingPlan:
        return self._seat(run, 1, first_round(run.seeded))

    def advance(self, run: Run) -> PairingPlan:
        final = next((pairing for pairing in run.pairings if pairing.key == FINAL), None)
        if final is not None:
            return self.finish_by_standings(run) if run.all_settled([final]) else PairingPlan()
        current = max(pairing.round for pairing in run.pairings)
        if not run.all_settled(pairing for pairing in run.pairings if pairing.round == current):
            return PairingPlan()
        rounds = _options(run.tournament).table_rounds or DEFAULT_TABLE_ROUNDS
        ranked = [int(row.player) for row in self.table(run.tournament, run.pairings, run.seeded)]
        if current < rounds:
            met: dict[int, set[int]] = {player: set() for player in ranked}
            for pairing in run.pairings:
                for player in pairing.seat_ids:
                    met[player].update(other for other in pairing.seat_ids if other != player)
            return self._seat(run, current + 1, standing_round(ranked, met))
        finalists = ranked[: min(_options(run.tournament).final_table_size, len(ranked))]
        final = table_row(
            run.tournament,
            FINAL,
            section=TournamentMatch.Bracket.FINAL_TABLE,
            round_number=rounds + 1,
            position=1,
            players=[run.players[player] for player in finalists],
        )
        return PairingPlan(create=[final])

    def _seat(self, run: Run, round_number: int, tables: Sequence[Table]) -> PairingPlan:
        players = run.players
        return PairingPlan(
            create=[
                table_row(
                    run.tournament,
                    f"T{round_number}-{number}",
                    section=self.section,
                    round_number=round_number,
                    position=number,
                    players=[players[int(player)] for player in table],
                )
                for number, table in enumerate(tables, start=1)
            ]
        )

    def plan_correction(
        self, context: CorrectionContext, target: TournamentMatch, new_winner: int
    ) -> list[PlannedChange]:
        """The final table again if the corrected standings of the rounds qualify others for it; nothing else."""
        final = context.pairings.get(FINAL)
        if final is None or target.key == FINAL:
            return []
        assert context.corrected is not None, "the service gives the corrected pairing"
        rounds = [
            context.corrected if pairing is target else pairing
            for pairing in context.pairings.values()
            if pairing.bracket != TournamentMatch.Bracket.FINAL_TABLE
        ]
        ranked = [int(row.player) for row in self.table(context.tournament, rounds, context.seeded)]
        finalists = ranked[: len(final.seat_ids)]
        if set(finalists) == set(final.seat_ids):
            return []  # the same players: the final stands, seated as it was
        started = final.match_id is not None and final.match_id in started_match_ids([final.match_id])
        after = {"players": [context.handle(pk) for pk in finalists], "status": "ready", "winner": None}
        return [
            PlannedChange(
                change=PairingChange(FINAL, "reset" if started else "refill", context.summary(final), after),
                pairing=final,
                # The final goes (its match set aside if played, else dropped) and `advance` seats it again.
                new_players=None,
                result_dropped=final.winner_id is not None,
                ready_after=False,
            )
        ]

    # --- Standings ---------------------------------------------------------------

    def table(
        self, tournament: Tournament, pairings: Iterable[PairingResult], players: Sequence[int]
    ) -> list[StandingsRow]:
        """The standings of the rounds; once the final table is decided, its places first."""
        rows = list(pairings)
        rounds = [pairing for pairing in rows if pairing.bracket != TournamentMatch.Bracket.FINAL_TABLE]
        standings = compute_standings(self.match_records(rounds), self.tie_breaks(tournament), players=players)
        final = next(
            (
                pairing
                for pairing in rows
                if pairing.bracket == TournamentMatch.Bracket.FINAL_TABLE
                and pairing.status == TournamentMatch.Status.DECIDED
                and pairing.places
            ),
            None,
        )
        if final is None:
            return standings
        assert final.places is not None
        seats = [
            pk
            for pk in (final.player_one_id, final.player_two_id, final.player_three_id, final.player_four_id)
            if pk is not None
        ]
        final_place = dict(zip(seats, final.places, strict=True))
        by_player = {row.player: row for row in standings}
        top = sorted(seats, key=lambda pk: (final_place[pk], standings.index(by_player[pk])))
        placed = [StandingsRow(final_place[pk], pk, by_player[pk].values) for pk in top]
        rest = [row for row in standings if row.player not in final_place]
        ahead = Counter(row.rank for row in rest)
        for row in rest:
            better = sum(count for rank, count in ahead.items() if rank < row.rank)
            placed.append(StandingsRow(len(top) + better + 1, row.player, row.values))
        return placed
