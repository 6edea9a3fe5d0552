"""Swiss: each round paired from the standings so far, no avoidable rematch, one bye each."""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

from tournaments.generators import GeneratorUserError, SwissPlayer, swiss_round

from ..models import Tournament, TournamentMatch
from ..plans import PairingPlan, Run, bye_row, pairing_row
from .base import TournamentFormat
from .options import MAX_COUNT, FormatOptions, OptionSpec, option
from .registry import register


def default_swiss_rounds(entrant_count: int) -> int:
    """Enough rounds for one unbeaten player: ceil(log2(n))."""
    return max(1, math.ceil(math.log2(entrant_count)))


@dataclass(frozen=True)
class SwissOptions(FormatOptions):
    swiss_rounds: int | None = option(
        None,
        OptionSpec(
            "int",
            "Swiss rounds",
            "Empty: enough rounds for one unbeaten player (log2 of the entrants).",
            minimum=1,
            maximum=MAX_COUNT,
            nullable=True,
        ),
    )


@register
class Swiss(TournamentFormat):
    key = "swiss"
    label = "Swiss"
    default_tie_breaks = ("match_wins", "buchholz", "sonneborn_berger", "card_margin")
    # A Swiss bye is a win (the rule): the player was ready to play.
    byes_are_wins = True
    section = TournamentMatch.Bracket.SWISS
    options = SwissOptions

    def start_check(self, tournament: Tournament, entrant_count: int) -> SwissOptions:
        most = entrant_count - 1 if entrant_count % 2 == 0 else entrant_count
        options = SwissOptions.of(tournament)
        rounds = options.swiss_rounds or min(default_swiss_rounds(entrant_count), most)
        if rounds > most:
            raise GeneratorUserError(
                f"{entrant_count} players can play at most {most} Swiss rounds without rematches; "
                f"{rounds} were asked for."
            )
        return replace(options, swiss_rounds=rounds)

    def open(self, run: Run) -> PairingPlan:
        return self._pair_round(run, round_number=1)

    def advance(self, run: Run) -> PairingPlan:
        current = max(pairing.round for pairing in run.pairings)
        if not run.all_settled(pairing for pairing in run.pairings if pairing.round == current):
            return PairingPlan()
        rounds = SwissOptions.of(run.tournament).swiss_rounds or default_swiss_rounds(len(run.entrants))
        if current >= rounds:
            return self.finish_by_standings(run)
        return self._pair_round(run, round_number=current + 1)

    def _pair_round(self, run: Run, *, round_number: int) -> PairingPlan:
        # Rank order for pairing: the standings so far, then seed.
        standings = self.table(run.tournament, run.pairings, run.seeded)
        wins = dict.fromkeys(run.seeded, 0)
        opponents: dict[int, set[int]] = {player_id: set() for player_id in wins}
        byes = dict.fromkeys(wins, 0)
        for pairing in run.pairings:
            if pairing.winner_id is not None:
                wins[pairing.winner_id] += 1
            if pairing.status == TournamentMatch.Status.BYE and pairing.player_one_id is not None:
                byes[pairing.player_one_id] += 1
            elif pairing.player_one_id is not None and pairing.player_two_id is not None:
                opponents[pairing.player_one_id].add(pairing.player_two_id)
                opponents[pairing.player_two_id].add(pairing.player_one_id)
        players = [
            SwissPlayer(
                int(row.player), wins[int(row.player)], frozenset(opponents[int(row.player)]), byes[int(row.player)]
            )
            for row in standings
        ]
        paired = swiss_round(players)
        by_id = run.players
        rows = [
            pairing_row(
                run.tournament,
                f"S{round_number}-{board}",
                section=self.section,
                round_number=round_number,
                position=board,
                one=by_id[int(pairing.first)],
                two=by_id[int(pairing.second)],
            )
            for board, pairing in enumerate(paired.pairings, start=1)
        ]
        if paired.bye is not None:
            rows.append(
                bye_row(
                    run.tournament,
                    f"S{round_number}-bye",
                    section=self.section,
                    round_number=round_number,
                    player_id=int(paired.bye),
                )
            )
        return PairingPlan(create=rows)
