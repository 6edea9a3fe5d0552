"""Groups then playoffs: round-robin groups, then the top of each group to a single elimination.

Groups are snake-seeded (`tournaments.generators.group_stage`) and every
group pairing is made at the start. When the last group pairing is settled
the playoff bracket is drawn from the group tables, cross-seeded so group
winners are the top seeds and group-mates meet as late as possible
(`playoff_seeds`); its rows are then kept up to date like any bracket. A
correction in a group that changes who advances, or where, re-plans the
playoff: pairings not started are re-filled, started ones reset.
"""

from __future__ import annotations

import copy
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache

from tournaments.generators import (
    Bracket,
    BracketState,
    EntrantId,
    GeneratorUserError,
    GroupStage,
    Placing,
    Seeding,
    advance,
    group_stage,
    plan_reseed,
    playoff_seeds,
    single_elimination,
)
from tournaments.standings import StandingsRow

from ..correction_plans import CorrectionContext, PlannedChange, bracket_changes, bracket_plan
from ..models import Entrant, Tournament, TournamentMatch
from ..plans import PairingPlan, Run, bracket_fill, bracket_results, bracket_rows
from .base import GroupTable, TournamentFormat
from .options import MAX_COUNT, FormatOptions, OptionSpec, double_round_robin_option, option, third_place_option
from .registry import register
from .round_robin import schedule_rows

#: Advancing from each group when the organiser does not say.
DEFAULT_ADVANCE_PER_GROUP = 2


@dataclass(frozen=True)
class GroupsOptions(FormatOptions):
    group_count: int | None = option(
        None,
        OptionSpec(
            "int",
            "Groups",
            "How many round-robin groups; empty: groups of about four.",
            minimum=1,
            maximum=MAX_COUNT,
            nullable=True,
        ),
    )
    advance_per_group: int = option(
        DEFAULT_ADVANCE_PER_GROUP,
        OptionSpec(
            "int", "Advance per group", "How many of each group reach the playoff.", minimum=1, maximum=MAX_COUNT
        ),
    )
    double_round_robin: bool = double_round_robin_option()
    third_place: bool = third_place_option()


def _options(tournament: Tournament) -> GroupsOptions:
    return GroupsOptions.of(tournament)


def default_group_count(entrant_count: int) -> int:
    """Groups of about four."""
    return max(1, math.ceil(entrant_count / 4))


@dataclass(frozen=True)
class _Stage:
    """The groups and, from the group pairings, each group's table (best first)."""

    groups: tuple[tuple[int, ...], ...]
    tables: tuple[list[StandingsRow], ...]
    pairings: tuple[list[TournamentMatch], ...]
    complete: bool

    @property
    def rankings(self) -> list[list[int]]:
        return [[int(row.player) for row in table] for table in self.tables]


@register
class GroupsThenPlayoffs(TournamentFormat):
    key = "groups_playoffs"
    label = "Groups then playoffs"
    default_tie_breaks = ("match_wins", "head_to_head", "game_win_pct", "card_margin")
    # Final places come from the playoff bracket, then from the group tables.
    placings = True
    section = TournamentMatch.Bracket.GROUP
    options = GroupsOptions

    def start_check(self, tournament: Tournament, entrant_count: int) -> GroupsOptions:
        options = _options(tournament)
        groups = options.group_count or default_group_count(entrant_count)
        if entrant_count < 2 * groups:
            raise GeneratorUserError(f"{entrant_count} players cannot fill {groups} groups of at least 2.")
        advancing = options.advance_per_group
        smallest = entrant_count // groups
        if advancing > smallest:
            raise GeneratorUserError(
                f"The smallest of {groups} groups has {smallest} players; {advancing} cannot advance from it."
            )
        if groups * advancing < 2:
            raise GeneratorUserError("At least two players must reach the playoff: advance more from each group.")
        if options.third_place and groups * advancing < 3:
            raise GeneratorUserError("A third-place match needs semi-finals: at least 3 players in the playoff.")
        return replace(options, group_count=groups)

    # --- Pairing and advancing ------------------------------------------------------

    def open(self, run: Run) -> PairingPlan:
        tournament, players = run.tournament, run.players
        rows: list[TournamentMatch] = []
        for number, schedule in enumerate(self._groups(tournament, run.seeded).schedules, start=1):
            rows += schedule_rows(
                tournament, schedule, players, section=self.section, key=lambda tail, n=number: f"G{n}-{tail}"
            )
        return PairingPlan(create=rows)

    def advance(self, run: Run) -> PairingPlan:
        stage = self._stage(run.tournament, run.seeded, run.pairings)
        if not stage.complete:
            return PairingPlan()
        bracket = self._playoff(run.tournament, stage)
        playoff = self._playoff_pairings(run.pairings)
        if not playoff:
            # The groups are over: the playoff is drawn, filled from its empty results (no one has played it).
            return PairingPlan(create=bracket_rows(run.tournament, bracket, advance(bracket, {})))
        state = advance(bracket, bracket_results(playoff))
        finish = self._placings(state, stage) if state.finished else None
        return PairingPlan(update=bracket_fill(state, playoff), finish=finish)

    def plan_correction(
        self, context: CorrectionContext, target: TournamentMatch, new_winner: int
    ) -> list[PlannedChange]:
        tournament, pairings = context.tournament, list(context.pairings.values())
        playoff = self._playoff_pairings(pairings)
        if not playoff:
            return []  # the group stage is still on: only its table changes
        stage = self._stage(tournament, context.seeded, pairings)
        bracket = self._playoff(tournament, stage)
        if target.bracket != self.section:
            return bracket_plan(context, bracket, target, new_winner)
        corrected = copy.copy(target)
        corrected.winner_id = new_winner
        after = self._stage(tournament, context.seeded, [corrected if p is target else p for p in pairings])
        changes = plan_reseed(bracket, self._playoff(tournament, after), bracket_results(playoff))
        return bracket_changes(context, changes)

    # --- Pages ----------------------------------------------------------------------

    def page_bracket(
        self, tournament: Tournament, entrants: Sequence[Entrant], pairings: Sequence[TournamentMatch]
    ) -> Bracket | None:
        if not self._playoff_pairings(pairings):
            return None
        stage = self._stage(tournament, [entrant.player_id for entrant in entrants], pairings)
        return self._playoff(tournament, stage)

    def groups(
        self, tournament: Tournament, entrants: Sequence[Entrant], pairings: Sequence[TournamentMatch]
    ) -> list[GroupTable]:
        if len(entrants) < 2 or not pairings:
            return []  # before the start the groups are not drawn
        stage = self._stage(tournament, [entrant.player_id for entrant in entrants], pairings)
        return [
            GroupTable(number, table, group_pairings, _options(tournament).advance_per_group)
            for number, (table, group_pairings) in enumerate(zip(stage.tables, stage.pairings, strict=True), start=1)
        ]

    def round_pairings(self, pairings: Iterable[TournamentMatch]) -> list[TournamentMatch]:
        return []  # group pairings are listed under their group, the playoff is drawn

    # --- Helpers --------------------------------------------------------------------

    def _groups(self, tournament: Tournament, seeded: Sequence[int]) -> GroupStage:
        options = _options(tournament)
        assert options.group_count is not None, "filled at the start"
        return _group_stage(tuple(seeded), options.group_count, options.double_round_robin)

    def _stage(self, tournament: Tournament, seeded: Sequence[int], pairings: Iterable[TournamentMatch]) -> _Stage:
        groups = self._groups(tournament, seeded).groups
        group_of = {int(player): index for index, group in enumerate(groups) for player in group}
        by_group: list[list[TournamentMatch]] = [[] for _ in groups]
        for pairing in pairings:
            if pairing.bracket == self.section and pairing.player_one_id is not None:
                by_group[group_of[pairing.player_one_id]].append(pairing)
        tables = tuple(
            self.table(tournament, group_pairings, [int(player) for player in group])
            for group, group_pairings in zip(groups, by_group, strict=True)
        )
        complete = all(
            pairing.status != TournamentMatch.Status.READY for group_pairings in by_group for pairing in group_pairings
        )
        ids = tuple(tuple(int(player) for player in group) for group in groups)
        return _Stage(ids, tables, tuple(by_group), complete and any(by_group))

    def _playoff(self, tournament: Tournament, stage: _Stage) -> Bracket:
        rankings = tuple(tuple(ranking) for ranking in stage.rankings)
        options = _options(tournament)
        return _playoff_bracket(rankings, options.advance_per_group, options.third_place)

    def _playoff_pairings(self, pairings: Iterable[TournamentMatch]) -> list[TournamentMatch]:
        return [pairing for pairing in pairings if pairing.bracket != self.section]

    def _placings(self, state: BracketState, stage: _Stage) -> dict[EntrantId, Placing]:
        """The playoff's places, then those out in the groups: each group position shares the next places."""
        placings: dict[EntrantId, Placing] = {placing.entrant: placing for placing in state.placings}
        place = len(placings) + 1
        for position in range(max(len(ranking) for ranking in stage.rankings)):
            tier = [ranking[position] for ranking in stage.rankings if len(ranking) > position]
            tier = [player for player in tier if player not in placings]
            for player in tier:
                placings[player] = Placing(player, place, place + len(tier) - 1)
            place += len(tier)
        return placings


@lru_cache(maxsize=32)
def _group_stage(seeded: tuple[int, ...], group_count: int, double: bool) -> GroupStage:
    return group_stage(seeded, group_count=group_count, double=double)


@lru_cache(maxsize=32)
def _playoff_bracket(rankings: tuple[tuple[int, ...], ...], advance_per_group: int, third_place: bool) -> Bracket:
    seeds = playoff_seeds(rankings, advance_per_group=advance_per_group)
    return single_elimination(seeds, seeding=Seeding.STANDARD, third_place=third_place)
