"""Round robin: the whole Berger schedule paired at the start, finished by the table."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from matches.models import Player
from tournaments.generators import RoundRobinSchedule, round_robin

from ..models import Tournament, TournamentMatch
from ..plans import PairingPlan, Run, bye_row, pairing_row
from .base import TournamentFormat
from .options import FormatOptions, double_round_robin_option
from .registry import register


@dataclass(frozen=True)
class RoundRobinOptions(FormatOptions):
    double_round_robin: bool = double_round_robin_option()


@register
class RoundRobin(TournamentFormat):
    key = "round_robin"
    label = "Round robin"
    default_tie_breaks = ("match_wins", "head_to_head", "game_win_pct", "card_margin")
    # A round-robin bye is only sitting out (everyone has one when the count is odd): not a win.
    byes_are_wins = False
    section = TournamentMatch.Bracket.ROUND_ROBIN
    options = RoundRobinOptions

    def open(self, run: Run) -> PairingPlan:
        schedule = round_robin(run.seeded, double=RoundRobinOptions.of(run.tournament).double_round_robin)
        rows = schedule_rows(run.tournament, schedule, run.players, section=self.section, key=lambda tail: f"RR{tail}")
        return PairingPlan(create=rows)

    def advance(self, run: Run) -> PairingPlan:
        # Pairings of a round robin never depend on results: it ends when every one is settled.
        return self.finish_by_standings(run) if run.all_settled() else PairingPlan()


def schedule_rows(
    tournament: Tournament,
    schedule: RoundRobinSchedule,
    players: Mapping[int, Player],
    *,
    section: str,
    key: Callable[[str], str],
) -> list[TournamentMatch]:
    """Rows for every round of a schedule: boards ("<round>-<board>") and byes."""
    rows: list[TournamentMatch] = []
    for scheduled in schedule.rounds:
        for board, pairing in enumerate(scheduled.pairings, start=1):
            rows.append(
                pairing_row(
                    tournament,
                    key(f"{scheduled.number}-{board}"),
                    section=section,
                    round_number=scheduled.number,
                    position=board,
                    one=players[int(pairing.first)],
                    two=players[int(pairing.second)],
                )
            )
        if scheduled.bye is not None:
            rows.append(
                bye_row(
                    tournament,
                    key(f"{scheduled.number}-bye"),
                    section=section,
                    round_number=scheduled.number,
                    player_id=int(scheduled.bye),
                )
            )
    return rows
