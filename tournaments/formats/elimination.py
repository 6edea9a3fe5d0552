"""Single and double elimination: a bracket generated from the seeds, advanced from its results."""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Sequence
from functools import lru_cache

from tournaments.generators import (
    Bracket,
    GeneratorUserError,
    Seeding,
    advance,
    double_elimination,
    single_elimination,
)

from ..correction_plans import CorrectionContext, PlannedChange, bracket_plan
from ..models import Entrant, Tournament, TournamentMatch
from ..plans import PairingPlan, Run, bracket_fill, bracket_results, bracket_rows
from .base import TournamentFormat
from .registry import register


class BracketFormat(TournamentFormat):
    """A format whose every pairing is a slot of one bracket, regenerated from the seeds when needed."""

    placings = True
    all_bracket = True

    @abstractmethod
    def bracket(self, tournament: Tournament, seeded: Sequence[int]) -> Bracket:
        """The tournament's bracket from its options and seeded entrants (pure and cached)."""

    def open(self, run: Run) -> PairingPlan:
        bracket = self.bracket(run.tournament, run.seeded)
        # Filled and with their matches at once; the `advance` that follows then changes nothing.
        return PairingPlan(create=bracket_rows(run.tournament, bracket, advance(bracket, {})))

    def advance(self, run: Run) -> PairingPlan:
        state = advance(self.bracket(run.tournament, run.seeded), bracket_results(run.pairings))
        finish = {placing.entrant: placing for placing in state.placings} if state.finished else None
        return PairingPlan(update=bracket_fill(state, run.pairings), finish=finish)

    def plan_correction(
        self, context: CorrectionContext, target: TournamentMatch, new_winner: int
    ) -> list[PlannedChange]:
        return bracket_plan(context, self.bracket(context.tournament, context.seeded), target, new_winner)

    def page_bracket(
        self, tournament: Tournament, entrants: Sequence[Entrant], pairings: Sequence[TournamentMatch]
    ) -> Bracket | None:
        # Before the start too: the draw the seeds give so far.
        if len(entrants) < 2:
            return None
        return self.bracket(tournament, [entrant.player_id for entrant in entrants])


@register
class SingleElimination(BracketFormat):
    key = "single_elimination"
    label = "Single elimination"
    options = ("seeding", "rng_seed", "third_place")

    def start_check(self, tournament: Tournament, entrant_count: int) -> None:
        if tournament.third_place and entrant_count < 3:
            raise GeneratorUserError("A third-place match needs semi-finals: at least 3 entrants.")

    def bracket(self, tournament: Tournament, seeded: Sequence[int]) -> Bracket:
        return _single(tuple(seeded), tournament.seeding, tournament.rng_seed, tournament.third_place)


@register
class DoubleElimination(BracketFormat):
    key = "double_elimination"
    label = "Double elimination"
    options = ("seeding", "rng_seed", "grand_final_reset")

    def bracket(self, tournament: Tournament, seeded: Sequence[int]) -> Bracket:
        return _double(tuple(seeded), tournament.seeding, tournament.rng_seed, tournament.grand_final_reset)


# Same inputs, same bracket: generating a 4,096-entrant double elimination
# takes ~70 ms, so advancing it after every match reuses the last one.
@lru_cache(maxsize=32)
def _single(entrants: tuple[int, ...], seeding: str, rng_seed: int | None, third_place: bool) -> Bracket:
    return single_elimination(entrants, seeding=Seeding(seeding), rng_seed=rng_seed, third_place=third_place)


@lru_cache(maxsize=32)
def _double(entrants: tuple[int, ...], seeding: str, rng_seed: int | None, grand_final_reset: bool) -> Bracket:
    return double_elimination(
        entrants, seeding=Seeding(seeding), rng_seed=rng_seed, grand_final_reset=grand_final_reset
    )
