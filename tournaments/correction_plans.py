"""Correcting a decided result: the plan's shape, the helpers formats plan with, and applying it.

Each format plans its own correction (`TournamentFormat.plan_correction`):
brackets use the pure `plan_correction` (recompute from results, dropping
later results whose players changed) through `bracket_plan`; winner stays on
replays its queue; round robin and Swiss change only the standings; tables
keep the rounds already seated (as Swiss does) and re-seat the final table
when its finalists change (as a playoff after groups). Nothing here writes:
`tournaments.services.pairing_corrections` applies any plan the same way.

Two players' results are corrected by naming the winner (every decided game
turned round) or each game as it went (its real winner, void, or a game added
after the last: the series runs again); a table's by its games as they went
(their places, void, or added, checked alike: `matches.services.corrected_games`). Either way the planning sees the corrected pairing as
it will be (`CorrectionContext.corrected`: winner, places and points).

Called by `tournaments.services.pairing_corrections.pairing_correct` with the tournament locked.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from matches.models import Game, Match
from matches.placings import places_from_winner
from matches.series import TableGameRow
from matches.services import PairCorrection, TableCorrection
from replays.models import MatchLog
from tournaments.generators import Bracket, MatchChange, MatchStatus, plan_correction

from .models import Entrant, Tournament, TournamentMatch
from .plans import bracket_results
from .snapshots import table_standing


@dataclass(frozen=True)
class PairingChange:
    """A later pairing a correction touches: what it was, what it becomes, what happens to its match.

    `action` is "refill" (nothing played yet: its players are replaced),
    "reset" (started or decided: its match is set aside, kept in the
    records, and the pairing is played again; only after the organiser
    confirms) or "remove" (a winner-stays-on match that no longer happens,
    not started).
    """

    key: str
    action: str
    before: dict[str, Any]
    after: dict[str, Any]


@dataclass(frozen=True)
class CorrectionPreview:
    """What a correction does (a dry run) or did."""

    key: str
    old_winner: str | None
    new_winner: str | None
    changes: list[PairingChange] = field(default_factory=list)
    applied: bool = False
    #: A table's correction: each changed game's places by handle, before and after.
    games: list[dict[str, Any]] = field(default_factory=list)
    #: A table's correction: each handle's series points and first places, before and after.
    standing: dict[str, Any] = field(default_factory=dict)
    #: Two players' corrected games: each handle's games won, before and after.
    score: dict[str, Any] = field(default_factory=dict)

    @property
    def needs_confirmation(self) -> bool:
        return any(change.action == "reset" for change in self.changes)

    @property
    def changes_anything(self) -> bool:
        """False when the result given is the one recorded (the same winner; a table's same places)."""
        return bool(self.games) if self.standing or self.score else self.old_winner != self.new_winner

    def to_dict(self) -> dict[str, Any]:
        data = {
            "match": self.key,
            "old_winner": self.old_winner,
            "new_winner": self.new_winner,
            "changes": [
                {"match": change.key, "action": change.action, "before": change.before, "after": change.after}
                for change in self.changes
            ],
            "needs_confirmation": self.needs_confirmation,
            "applied": self.applied,
        }
        if self.standing:
            data |= {"games": self.games, "standing": self.standing}
        if self.score:
            data |= {"games": self.games, "score": self.score}
        return data


@dataclass(frozen=True)
class CorrectionContext:
    """A locked tournament's entrants and pairings, loaded once for planning and applying."""

    tournament: Tournament
    entrants: list[Entrant]
    pairings: dict[str, TournamentMatch]
    #: The corrected pairing as the correction leaves it (a copy: winner, places, points), for planning.
    corrected: TournamentMatch | None = None

    @property
    def seeded(self) -> list[int]:
        return [entrant.player_id for entrant in self.entrants]

    def handle(self, player_id: int | None) -> str | None:
        return next((e.player.handle for e in self.entrants if e.player_id == player_id), None)

    def player_id(self, handle: str) -> int | None:
        return next((e.player_id for e in self.entrants if e.player.handle.lower() == handle.lower()), None)

    def summary(self, pairing: TournamentMatch) -> dict[str, Any]:
        seats = [pairing.player_one_id, pairing.player_two_id, pairing.player_three_id, pairing.player_four_id]
        # Two places for a pairing (either may still be empty), every seat of a table.
        shown = seats[: max(2, len(pairing.seat_ids))]
        return {
            "players": [self.handle(pk) for pk in shown],
            "status": pairing.status,
            "winner": self.handle(pairing.winner_id),
            "match_id": pairing.match_id,
        }


@dataclass(frozen=True)
class PlannedChange:
    """A change with what applying it needs: new players (None: the pairing goes) and dropped result."""

    change: PairingChange
    pairing: TournamentMatch
    new_players: tuple[int | None, int | None] | None
    result_dropped: bool
    ready_after: bool


def started_match_ids(match_ids: list[int]) -> set[int]:
    """Matches with anything played or submitted: finished, a settled or disputed game, a report, or a log."""
    if not match_ids:
        return set()
    started = set(Match.objects.filter(pk__in=match_ids, status=Match.Status.FINISHED).values_list("pk", flat=True))
    touched = Game.objects.filter(match_id__in=match_ids).exclude(
        status=Game.Status.OPEN, reported_by_one=None, reported_by_two=None, reports={}
    )
    started |= set(touched.values_list("match_id", flat=True))
    started |= set(MatchLog.objects.filter(game__match_id__in=match_ids).values_list("game__match_id", flat=True))
    return started


def bracket_plan(
    context: CorrectionContext, bracket: Bracket, target: TournamentMatch, new_winner: int
) -> list[PlannedChange]:
    """A corrected result in a bracket: later matches whose entrants change are re-filled or reset."""
    # Only the bracket's own pairings: a format may have others (a group stage) before it.
    results = {
        key: winner for key, winner in bracket_results(context.pairings.values()).items() if key in bracket.by_id
    }
    plan = plan_correction(bracket, results, target.key, new_winner)
    return bracket_changes(context, plan.changes)


def bracket_changes(context: CorrectionContext, changes: Sequence[MatchChange]) -> list[PlannedChange]:
    """Bracket matches a correction changes, as pairing changes: re-filled if not started, else reset."""
    touched = [context.pairings[change.match_id] for change in changes]
    started = started_match_ids([pairing.match_id for pairing in touched if pairing.match_id is not None])
    planned: list[PlannedChange] = []
    for change, pairing in zip(changes, touched, strict=True):
        one, two = (entrant if isinstance(entrant, int) else None for entrant in change.after.entrants)
        winner = change.after.winner if isinstance(change.after.winner, int) else None
        after = {
            "players": [context.handle(one), context.handle(two)],
            "status": change.after.status.value,
            "winner": context.handle(winner),
        }
        action = "reset" if pairing.match_id in started else "refill"
        planned.append(
            PlannedChange(
                change=PairingChange(pairing.key, action, context.summary(pairing), after),
                pairing=pairing,
                new_players=(one, two),
                result_dropped=change.result_dropped,
                ready_after=change.after.status is MatchStatus.READY,
            )
        )
    return planned


def corrected_pairing(
    target: TournamentMatch,
    *,
    new_winner: int,
    table: TableCorrection | None,
    points_per_place: tuple[int, ...] | None,
    pair: PairCorrection | None = None,
) -> TournamentMatch:
    """A copy of the pairing as the correction will leave it, for planning (nothing is saved).

    Its winner, and where its format scores places (`points_per_place`), its
    places and points: from a table's corrected games, or from a pair's games
    turned round.
    """
    corrected = copy.copy(target)
    corrected.winner_id = new_winner
    if points_per_place is None or target.match_id is None:
        return corrected
    seats = target.seat_ids
    games: list[TableGameRow]
    if table is not None:
        games = table.games
    elif pair is not None:
        games = [
            (number, Game.Status.DECIDED, places_from_winner(seats.index(winner), 2))
            for number, winner in sorted(pair.winners.items())
            if winner is not None
        ]
    else:
        other = dict(zip(seats, reversed(seats), strict=True))
        games = [
            (number, status, places_from_winner(seats.index(other[winner]), 2))
            for number, status, winner in Game.objects.filter(
                match_id=target.match_id, status=Game.Status.DECIDED, winner__isnull=False
            ).values_list("number", "status", "winner_id")
        ]
    corrected.places, corrected.points = table_standing(games, seats=len(seats), points_per_place=points_per_place)
    return corrected
