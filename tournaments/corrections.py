"""Correcting a decided result: the plan's shape, the helpers formats plan with, and applying it.

Each format plans its own correction (`TournamentFormat.plan_correction`):
brackets use the pure `plan_correction` (recompute from results, dropping
later results whose players changed) through `bracket_plan`; winner stays on
replays its queue; round robin and Swiss change only the standings.
`correction_apply` saves any plan the same way.

Called by `tournaments.services.corrections.pairing_correct` with the tournament locked.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from django.db import DatabaseError

from matches.models import Game, Match
from matches.services import AnyUser, match_annul, match_correct
from replays.models import MatchLog
from tournaments.generators import Bracket, MatchChange, MatchStatus, plan_correction

from .models import Entrant, Tournament, TournamentMatch
from .pairings import bracket_results, match_snapshot


class MatchBusyError(Exception):
    """An affected match is locked by a result being recorded right now."""


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

    @property
    def needs_confirmation(self) -> bool:
        return any(change.action == "reset" for change in self.changes)

    def to_dict(self) -> dict[str, Any]:
        return {
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


@dataclass(frozen=True)
class CorrectionContext:
    """A locked tournament's entrants and pairings, loaded once for planning and applying."""

    tournament: Tournament
    entrants: list[Entrant]
    pairings: dict[str, TournamentMatch]

    @property
    def seeded(self) -> list[int]:
        return [entrant.player_id for entrant in self.entrants]

    def handle(self, player_id: int | None) -> str | None:
        return next((e.player.handle for e in self.entrants if e.player_id == player_id), None)

    def player_id(self, handle: str) -> int | None:
        return next((e.player_id for e in self.entrants if e.player.handle.lower() == handle.lower()), None)

    def summary(self, pairing: TournamentMatch) -> dict[str, Any]:
        return {
            "players": [self.handle(pairing.player_one_id), self.handle(pairing.player_two_id)],
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
        status=Game.Status.OPEN, reported_by_one=None, reported_by_two=None
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


@dataclass(frozen=True)
class CorrectionMade:
    """Who corrects, why, and the history row the changes name (`CorrectionRecord`)."""

    record_id: int
    user: AnyUser
    reason: str
    annul_reason: str


def correction_apply(
    context: CorrectionContext,
    target: TournamentMatch,
    new_winner: int,
    planned: list[PlannedChange],
    made: CorrectionMade,
) -> list[int]:
    """Save the correction: the corrected match itself, re-filled and reset pairings; the caller then advances.

    The target's match is turned round (`match_correct`) and the pairing
    records it as it now is; the played matches of reset pairings are annulled
    (`match_annul`): kept and shown, counted nowhere. Returns the ids of the
    matches whose results changed or stopped counting, for the ratings.
    """
    played = [target.match_id] if target.match_id is not None else []
    match_ids = played + [item.pairing.match_id for item in planned if item.pairing.match_id is not None]
    try:
        # Never wait for a match whose result is being recorded right now: that
        # transaction waits for this tournament's lock, which would deadlock.
        list(Match.objects.select_for_update(nowait=True).filter(pk__in=match_ids).values_list("pk", flat=True))
    except DatabaseError as exc:
        raise MatchBusyError from exc
    changed = list(played)
    target.winner_id = new_winner
    target.result_source = TournamentMatch.Source.CORRECTION
    if target.match_id is not None:
        match_correct(
            match_id=target.match_id,
            winner_id=new_winner,
            correction_id=made.record_id,
            made_by=made.user,
            reason=made.reason,
        )
        # The pairing records its match as the correction left it (the score turned round too).
        snapshot = match_snapshot(target.match_id, target.player_one_id, target.player_two_id)
        target.games_one, target.games_two, target.cards_left_one, target.cards_left_two = snapshot
    target.save(update_fields=["winner", "result_source", "games_one", "games_two", "cards_left_one", "cards_left_two"])

    def set_aside(match_id: int) -> None:
        match_annul(match_id=match_id, correction_id=made.record_id, made_by=made.user, reason=made.annul_reason)
        changed.append(match_id)

    never_played: list[int] = []
    for item in planned:
        pairing = item.pairing
        if item.new_players is None:
            if pairing.match_id is not None:
                if item.change.action == "reset":
                    set_aside(pairing.match_id)
                else:
                    never_played.append(pairing.match_id)
            pairing.delete()
            continue
        if item.result_dropped:
            pairing.winner_id = None
            pairing.result_source = ""
            pairing.games_one = pairing.games_two = pairing.cards_left_one = pairing.cards_left_two = 0
            pairing.decided_at = None
        if pairing.match_id is not None:
            if item.change.action == "reset":
                set_aside(pairing.match_id)
                pairing.match = None  # the played match stays in the records, annulled, outside the tournament
            elif item.ready_after:
                one, two = item.new_players
                Match.objects.filter(pk=pairing.match_id).update(player_one_id=one, player_two_id=two)
            else:
                never_played.append(pairing.match_id)
                pairing.match = None
        pairing.save()
    # A match never played whose players are no longer known has nothing worth keeping.
    Match.objects.filter(pk__in=never_played).delete()
    tournament = context.tournament
    if tournament.status == Tournament.Status.FINISHED:
        tournament.status = Tournament.Status.RUNNING
        tournament.finished_at = None
        tournament.save(update_fields=["status", "finished_at"])
        Entrant.objects.filter(tournament=tournament).update(place=None, place_to=None)
    return changed
