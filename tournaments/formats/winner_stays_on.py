"""Winner stays on: one table, the winner keeps it, challengers queue; finished by the table."""

from __future__ import annotations

from tournaments.generators import WinnerStaysOnState, winner_stays_on

from ..corrections import CorrectionContext, PairingChange, PlannedChange, started_match_ids
from ..models import Entrant, Tournament, TournamentMatch
from ..pairings import Run, pairing_row, pairings_create
from .base import TournamentFormat
from .registry import register


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
        max_matches=tournament.max_matches or default_max_matches(len(entrants)),
    )


@register
class WinnerStaysOn(TournamentFormat):
    key = "winner_stays_on"
    label = "Winner stays on"
    default_tie_breaks = ("match_wins", "game_win_pct", "card_margin")
    section = TournamentMatch.Bracket.WINNER_STAYS_ON
    # Each "round" is one match at the one table.
    round_noun = "Match"
    rounds_title = "Matches"
    options = ("max_matches",)

    def start_check(self, tournament: Tournament, entrant_count: int) -> None:
        tournament.max_matches = tournament.max_matches or default_max_matches(entrant_count)

    def open(self, run: Run) -> None:
        self._next(run)

    def advance(self, run: Run) -> None:
        if not run.all_settled():
            return
        if winner_stays_on_replay(run.tournament, run.entrants, run.pairings).finished:
            self.finish_by_standings(run)
        else:
            self._next(run)

    def _next(self, run: Run) -> None:
        state = winner_stays_on_replay(run.tournament, run.entrants, run.pairings)
        upcoming = state.next_match
        if upcoming is None:
            return
        number = state.matches_played + 1
        players = run.players
        row = pairing_row(
            run.tournament,
            f"M{number}",
            section=self.section,
            round_number=number,
            position=1,
            one=players[int(upcoming.first)],
            two=players[int(upcoming.second)],
        )
        pairings_create(run.tournament, [row], players)

    def plan_correction(
        self, context: CorrectionContext, target: TournamentMatch, new_winner: int
    ) -> list[PlannedChange]:
        """Replay the queue: from the first later match whose pairing differs, every later match goes."""
        ordered = sorted(context.pairings.values(), key=lambda pairing: pairing.round)
        index = ordered.index(target)
        winners = [pairing.winner_id for pairing in ordered[:index]] + [new_winner]
        seeded = context.seeded
        max_matches = context.tournament.max_matches or default_max_matches(len(seeded))
        later = ordered[index + 1 :]
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
            # From the first match that differs, every later one was played from a
            # queue that never was: they all go, and play resumes from the corrected state.
            action = "reset" if pairing.match_id in started else "remove"
            after = {"players": [None, None], "status": "removed", "winner": None}
            planned.append(
                PlannedChange(
                    change=PairingChange(pairing.key, action, context.summary(pairing), after),
                    pairing=pairing,
                    new_players=None,
                    result_dropped=pairing.winner_id is not None,
                    ready_after=False,
                )
            )
        return planned
