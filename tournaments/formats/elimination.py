"""Single and double elimination: a bracket generated from the seeds, advanced from its results."""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass
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
from .options import OptionSpec, SeedingOptions, option, third_place_option
from .registry import register


@dataclass(frozen=True)
class SingleEliminationOptions(SeedingOptions):
    third_place: bool = third_place_option()


@dataclass(frozen=True)
class DoubleEliminationOptions(SeedingOptions):
    grand_final_reset: bool = option(
        True,
        OptionSpec(
            "bool",
            "Grand final reset",
            "If the losers' bracket champion wins the grand final, it is played again.",
        ),
    )


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
        try:
            return self.bracket(tournament, [entrant.player_id for entrant in entrants])
        except GeneratorUserError:
            if tournament.status != Tournament.Status.SETUP:
                raise
            return None  # the entry so far is too small for the options (a third-place match): no draw yet


@register
class SingleElimination(BracketFormat):
    key = "single_elimination"
    label = "Single elimination"
    options = SingleEliminationOptions

    def start_check(self, tournament: Tournament, entrant_count: int) -> SingleEliminationOptions:
        options = SingleEliminationOptions.of(tournament)
        if options.third_place and entrant_count < 3:
            raise GeneratorUserError("A third-place match needs semi-finals: at least 3 entrants.")
        return options

    def bracket(self, tournament: Tournament, seeded: Sequence[int]) -> Bracket:
        options = SingleEliminationOptions.of(tournament)
        return _single(tuple(seeded), options.seeding, options.rng_seed, options.third_place)


@register
class DoubleElimination(BracketFormat):
    key = "double_elimination"
    label = "Double elimination"
    options = DoubleEliminationOptions

    def bracket(self, tournament: Tournament, seeded: Sequence[int]) -> Bracket:
        options = DoubleEliminationOptions.of(tournament)
        return _double(tuple(seeded), options.seeding, options.rng_seed, options.grand_final_reset)


# Same inputs, same bracket: generating a large double elimination is not free,
# so advancing it after every match reuses the last one.
@lru_cache(maxsize=32)
def _single(entrants: tuple[int, ...], seeding: str, rng_seed: int | None, third_place: bool) -> Bracket:
    return single_elimination(entrants, seeding=Seeding(seeding), rng_seed=rng_seed, third_place=third_place)


@lru_cache(maxsize=32)
def _double(entrants: tuple[int, ...], seeding: str, rng_seed: int | None, grand_final_reset: bool) -> Bracket:
    return double_elimination(
        entrants, seeding=Seeding(seeding), rng_seed=rng_seed, grand_final_reset=grand_final_reset
    )
