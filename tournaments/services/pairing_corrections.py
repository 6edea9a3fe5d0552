"""Correcting a decided result, with a dry run, confirmation for what was already played, and history."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import Any

from django.db import transaction

from matches.models import Match
from matches.services import AnyUser, TableCorrection, table_correction_plan
from speedsite.errors import Conflict, Invalid, NotFound
from tournaments.formats import format_for

from ..correction_plans import (
    CorrectedResult,
    CorrectionContext,
    CorrectionMade,
    CorrectionPreview,
    MatchBusyError,
    corrected_pairing,
    correction_apply,
)
from ..models import CorrectionRecord, Tournament, TournamentMatch
from ..progress import pairings_advance
from ..selectors import entrant_list
from .common import organiser_fixable, require_organiser, tournament_lock
from .ratings import ratings_recompute


@transaction.atomic
def pairing_correct(
    *,
    tournament_id: int,
    key: str,
    user: AnyUser,
    winner: str | None = None,
    games: Sequence[Mapping[str, Any]] | None = None,
    reason: str = "",
    dry_run: bool = False,
    confirm: bool = False,
) -> CorrectionPreview:
    """Correct the result of a decided pairing, and re-fill or reset what follows from it.

    Two players: `winner` is the handle of who really won. A table of three or
    four: `games` gives the corrected places of some of its decided games
    (`[{"game": 2, "places": {"ann": 1, "bob": 3, "cy": 2}}]`); the series is
    run again over all its games and names the winner, and the pairing's
    places and points follow.

    With `dry_run` nothing is saved: the preview lists every later pairing
    the change touches. Pairings whose match has not started are re-filled
    at once; those already started or decided are reset only with `confirm`:
    their match is annulled (kept and shown, counted nowhere) and the pairing
    is played again. The corrected match itself is turned round, so its page,
    the bracket and the standings agree; the ratings are replayed from the
    first result that changed. Every applied correction is kept in the
    history: who, when, why, before and after.
    """
    require_organiser(user)
    tournament = tournament_lock(tournament_id)
    if tournament.status == Tournament.Status.SETUP:
        raise Conflict(f"{tournament.name!r} has not started; there is nothing to correct.")
    pairings = TournamentMatch.objects.filter(tournament=tournament).order_by("id")
    context = CorrectionContext(
        tournament, entrant_list(tournament=tournament), {pairing.key: pairing for pairing in pairings}
    )
    target = context.pairings.get(key)
    if target is None:
        raise NotFound(f"{tournament.name!r} has no match {key!r}.")
    if target.status != TournamentMatch.Status.DECIDED:
        raise Invalid(f"Match {key} is {target.get_status_display().lower()}; only decided results can be corrected.")
    table = _table_correction(context, target, winner=winner, games=games)
    new_winner = table.winner_id if table is not None else _winner_id(context, target, winner)
    tournament_format = format_for(tournament.format)
    points = tournament_format.table_points(tournament, len(target.seat_ids))
    corrected = corrected_pairing(target, new_winner=new_winner, table=table, points_per_place=points)
    context = dataclasses.replace(context, corrected=corrected)
    with organiser_fixable():
        planned = tournament_format.plan_correction(context, target, new_winner)
    preview = CorrectionPreview(
        key=key,
        old_winner=context.handle(target.winner_id),
        new_winner=context.handle(new_winner),
        changes=[item.change for item in planned],
        **(_table_preview(table) if table is not None else {}),
    )
    if dry_run or not preview.changes_anything:
        return preview
    if preview.needs_confirmation and not confirm:
        raise Conflict(
            "This correction resets matches already started or decided; confirm it to go ahead.",
            extra={"preview": preview.to_dict()},
        )
    reason = reason.strip()
    # The record first: every change the correction makes names it.
    record = CorrectionRecord.objects.create(
        tournament=tournament,
        key=key,
        made_by=user if user is not None and user.is_authenticated else None,
        reason=reason,
        before={
            "winner": preview.old_winner,
            "pairings": [{"key": change.key, **change.before} for change in preview.changes],
            **({"games": {str(game["game"]): game["before"] for game in preview.games}} if table else {}),
        },
        after={
            "winner": preview.new_winner,
            "pairings": [{"key": change.key, "action": change.action, **change.after} for change in preview.changes],
            **({"games": {str(game["game"]): game["after"] for game in preview.games}} if table else {}),
        },
    )
    annul_reason = (
        f"Set aside by the correction of {tournament.name} {key} "
        f"({preview.old_winner} to {preview.new_winner}): its players should not have met."
    )
    try:
        result = CorrectedResult(
            new_winner,
            None
            if table is None
            else {number: table.handles_places(after) for number, (_, after) in table.changed.items()},
            points,
        )
        changed = correction_apply(
            context, target, result, planned, CorrectionMade(record.pk, user, reason, annul_reason)
        )
    except MatchBusyError as exc:
        raise Conflict(
            "A result for one of the affected matches is being recorded right now; try again in a moment.",
        ) from exc
    pairings_advance(tournament)
    ratings_recompute(match_ids=changed)
    return dataclasses.replace(preview, applied=True)


def _winner_id(context: CorrectionContext, target: TournamentMatch, winner: str | None) -> int:
    """Two players' corrected result: the winner's id, checked against the pairing."""
    if winner is None:
        raise Invalid(f"Name the player who really won match {target.key}.", extra={"field": "winner"})
    new_winner = context.player_id(winner)
    if new_winner is None or new_winner not in target.seat_ids:
        seated = " v ".join(str(context.handle(pk)) for pk in target.seat_ids)
        raise Invalid(f"{winner!r} did not play in match {target.key} ({seated}).", extra={"field": "winner"})
    return new_winner


def _table_correction(
    context: CorrectionContext,
    target: TournamentMatch,
    *,
    winner: str | None,
    games: Sequence[Mapping[str, Any]] | None,
) -> TableCorrection | None:
    """A table's corrected result (None for two players), checked: games by number, places by handle."""
    seated = " v ".join(str(context.handle(pk)) for pk in target.seat_ids)
    if len(target.seat_ids) <= 2:
        if games:
            raise Invalid(
                f"Match {target.key} ({seated}) has two players: name its winner, not places.",
                extra={"field": "games"},
            )
        return None
    if winner is not None:
        raise Invalid(
            f"Match {target.key} is a table ({seated}): give the corrected places of its games, "
            'e.g. {"games": [{"game": 1, "places": {"ann": 1, "bob": 2, "cy": 3}}]}; the series names the winner.',
            extra={"field": "winner"},
        )
    by_number: dict[int, Mapping[str, int]] = {}
    for game in games or ():
        number = int(game["game"])
        if number in by_number:
            raise Invalid(f"Game {number} is given twice.", extra={"field": "games"})
        by_number[number] = game["places"]
    assert target.match_id is not None, "a decided table has its match"
    match = Match.objects.select_related("player_one", "player_two", "player_three", "player_four").get(
        pk=target.match_id
    )
    return table_correction_plan(match=match, games=by_number)


def _table_preview(table: TableCorrection) -> dict[str, Any]:
    """What a table's correction changes in its own match: each changed game's places, and the series' standing."""
    return {
        "games": [
            {"game": number, "before": table.handles_places(before), "after": table.handles_places(after)}
            for number, (before, after) in sorted(table.changed.items())
        ],
        "standing": {"before": table.standing(corrected=False), "after": table.standing(corrected=True)},
    }
