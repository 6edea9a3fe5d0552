"""Winner stays on: one table, the winner keeps it, challengers queue; finished by the table.

A table of two by default (`table_size` 2): the winner meets the next in
the queue, the loser goes to its back. With `table_size` 3 or 4 the table is
a match of that many players (the tournament's `ruleset_three` or
`ruleset_four`, "three-way" and "four-way" by default, scored by points per
place as at a tables event): the winner keeps their seat, the others go to
the back of the one queue in their finishing order (the match's places), and
the front of the queue fills the empty seats (`winner_stays_on_table`). The
standings rank by tables won, then table points, then head to head.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from tournaments.generators import (
    GeneratorUserError,
    WinnerStaysOnState,
    WinnerStaysOnTableState,
    winner_stays_on,
    winner_stays_on_table,
)

from ..correction_plans import CorrectionContext, PairingChange, PlannedChange, started_match_ids
from ..models import Entrant, Tournament, TournamentMatch
from ..plans import PairingPlan, Run, pairing_row, table_row
from .base import TournamentFormat
from .options import OptionSpec, TableSeatOptions, option
from .registry import register

#: Tie-breaks at a table of three or four when the organiser names none.
TABLE_TIE_BREAKS = ("match_wins", "table_points", "head_to_head")


@dataclass(frozen=True)
class WinnerStaysOnOptions(TableSeatOptions):
    """The table's size and how many matches are played; at three or four, what the table plays."""

    max_matches: int | None = option(
        None,
        OptionSpec(
            "int", "Matches", "Empty: about three turns at the table each.", minimum=1, maximum=2**31 - 1, nullable=True
        ),
    )
    table_size: int = option(
        2,
        OptionSpec(
            "choice",
            "Players at the table",
            "Three or four: the winner keeps their seat, the others go to the back of the queue "
            "in their finishing order.",
            choices=((2, "Two"), (3, "Three"), (4, "Four")),
        ),
    )


def _options(tournament: Tournament) -> WinnerStaysOnOptions:
    return WinnerStaysOnOptions.of(tournament)


def default_max_matches(entrant_count: int) -> int:
    """Without a bound, each entrant gets about three turns at the table."""
    return 3 * entrant_count


def winner_stays_on_replay(
    tournament: Tournament, entrants: list[Entrant], pairings: list[TournamentMatch]
) -> WinnerStaysOnState:
    """The event replayed from its decided matches, in order."""
    ordered = sorted(pairings, key=lambda pairing: pairing.round)
    winners = [pairing.winner_id for pairing in ordered if pairing.winner_id is not None]
    return winner_stays_on(
        [entrant.player_id for entrant in entrants],
        winners,
        max_matches=_options(tournament).max_matches or default_max_matches(len(entrants)),
    )


def finishing_order(pairing: TournamentMatch) -> tuple[int, ...]:
    """A decided table's players, best first: by the match's places (its winner alone first), then seat."""
    seats = pairing.seat_ids
    places = pairing.places or [1 if pk == pairing.winner_id else 2 for pk in seats]
    return tuple(seats[index] for index in sorted(range(len(seats)), key=lambda index: (places[index], index)))


def table_replay(
    tournament: Tournament, seeded: Sequence[int], orders: Sequence[Sequence[int]]
) -> WinnerStaysOnTableState:
    """The event at a table of three or four replayed from its matches' finishing orders, in order."""
    return winner_stays_on_table(
        list(seeded),
        orders,
        max_matches=_options(tournament).max_matches or default_max_matches(len(seeded)),
        table_size=_options(tournament).table_size,
    )


def _decided_orders(pairings: Sequence[TournamentMatch]) -> list[tuple[int, ...]]:
    ordered = sorted(pairings, key=lambda pairing: pairing.round)
    return [finishing_order(pairing) for pairing in ordered if pairing.winner_id is not None]


@register
class WinnerStaysOn(TournamentFormat):
    key = "winner_stays_on"
    label = "Winner stays on"
    default_tie_breaks = ("match_wins", "game_win_pct", "card_margin")
    section = TournamentMatch.Bracket.WINNER_STAYS_ON
    # Each "round" is one match at the one table.
    round_noun = "Match"
    rounds_title = "Matches"
    options = WinnerStaysOnOptions

    def start_check(self, tournament: Tournament, entrant_count: int) -> WinnerStaysOnOptions:
        options = _options(tournament)
        size = options.table_size
        if entrant_count < size:
            raise GeneratorUserError(f"A table of {size} needs at least {size} players; {entrant_count} entered.")
        return replace(options, max_matches=options.max_matches or default_max_matches(entrant_count))

    def table_sizes(self, tournament: Tournament) -> tuple[int, ...]:
        size = _options(tournament).table_size
        return (size,) if size > 2 else ()

    def table_points(self, tournament: Tournament, seats: int) -> tuple[int, ...] | None:
        return _options(tournament).table_points(seats) if seats > 2 else None

    def tie_breaks(self, tournament: Tournament) -> list[str]:
        if _options(tournament).table_size > 2 and not tournament.tie_breaks:
            keys = list(TABLE_TIE_BREAKS)
            if tournament.time_limit_ms is not None:
                keys = ["timed_cards", *keys]
            return keys
        return super().tie_breaks(tournament)

    def open(self, run: Run) -> PairingPlan:
        return self._next(run)

    def advance(self, run: Run) -> PairingPlan:
        if not run.all_settled():
            return PairingPlan()
        if _options(run.tournament).table_size > 2:
            finished = table_replay(run.tournament, run.seeded, _decided_orders(run.pairings)).finished
        else:
            finished = winner_stays_on_replay(run.tournament, run.entrants, run.pairings).finished
        return self.finish_by_standings(run) if finished else self._next(run)

    def _next(self, run: Run) -> PairingPlan:
        """The next match at the table, if any, to create."""
        players = run.players
        if _options(run.tournament).table_size > 2:
            table = table_replay(run.tournament, run.seeded, _decided_orders(run.pairings))
            if table.next_table is None:
                return PairingPlan()
            number = table.matches_played + 1
            row = table_row(
                run.tournament,
                f"M{number}",
                section=self.section,
                round_number=number,
                position=1,
                players=[players[int(player)] for player in table.next_table],
            )
            return PairingPlan(create=[row])
        state = winner_stays_on_replay(run.tournament, run.entrants, run.pairings)
        upcoming = state.next_match
        if upcoming is None:
            return PairingPlan()
        number = state.matches_played + 1
        row = pairing_row(
            run.tournament,
            f"M{number}",
            section=self.section,
            round_number=number,
            position=1,
            one=players[int(upcoming.first)],
            two=players[int(upcoming.second)],
        )
        return PairingPlan(create=[row])

    def plan_correction(
        self, context: CorrectionContext, target: TournamentMatch, new_winner: int
    ) -> list[PlannedChange]:
        """Replay the queue: from the first later match whose players differ, every later match goes."""
        ordered = sorted(context.pairings.values(), key=lambda pairing: pairing.round)
        index = ordered.index(target)
        later = ordered[index + 1 :]
        if _options(context.tournament).table_size > 2:
            assert context.corrected is not None, "the service gives the corrected pairing"
            orders = [finishing_order(p) for p in ordered[:index] if p.winner_id is not None]
            orders.append(finishing_order(context.corrected))
            return self._drop_from_first_difference(context, later, orders)
        winners = [pairing.winner_id for pairing in ordered[:index]] + [new_winner]
        seeded = context.seeded
        max_matches = _options(context.tournament).max_matches or default_max_matches(len(seeded))
        started = started_match_ids([pairing.match_id for pairing in later if pairing.match_id is not None])
        planned: list[PlannedChange] = []
        for pairing in later:
            if not planned:
                state = winner_stays_on(seeded, [w for w in winners if w is not None], max_matches=max_matches)
                expected = state.next_match
                if expected is not None and (expected.first, expected.second) == (
                    pairing.player_one_id,
                    pairing.player_two_id,
                ):
                    winners.append(pairing.winner_id)
                    continue
            planned.append(_removed(context, pairing, started))
        return planned

    def _drop_from_first_difference(
        self, context: CorrectionContext, later: list[TournamentMatch], orders: list[tuple[int, ...]]
    ) -> list[PlannedChange]:
        """A table's queue replayed with the corrected finishing order: later matches stand while their seats do."""
        started = started_match_ids([pairing.match_id for pairing in later if pairing.match_id is not None])
        planned: list[PlannedChange] = []
        for pairing in later:
            if not planned:
                expected = table_replay(context.tournament, context.seeded, orders).next_table
                if expected == pairing.seat_ids:
                    if pairing.winner_id is not None:
                        orders.append(finishing_order(pairing))
                    continue
            planned.append(_removed(context, pairing, started))
        return planned


def _removed(context: CorrectionContext, pairing: TournamentMatch, started: set[int]) -> PlannedChange:
    """A later match played from a queue that never was: it goes (reset if started), and play resumes."""
    action = "reset" if pairing.match_id in started else "remove"
    after = {"players": [None] * max(2, len(pairing.seat_ids)), "status": "removed", "winner": None}
    return PlannedChange(
        change=PairingChange(pairing.key, action, context.summary(pairing), after),
        pairing=pairing,
        new_players=None,
        result_dropped=pairing.winner_id is not None,
        ready_after=False,
    )
