"""Correcting a decided result, with a dry run, confirmation for what was already played, and history."""

from __future__ import annotations

import dataclasses

from django.db import transaction

from matches.services import AnyUser
from speedsite.errors import Conflict, Invalid, NotFound
from tournaments.formats import format_for

from ..corrections import CorrectionContext, CorrectionMade, CorrectionPreview, MatchBusyError, correction_apply
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
    winner: str,
    user: AnyUser,
    reason: str = "",
    dry_run: bool = False,
    confirm: bool = False,
) -> CorrectionPreview:
    """Correct the result of a decided pairing, and re-fill or reset what follows from it.

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
    new_winner = context.player_id(winner)
    if new_winner is None or new_winner not in target.seat_ids:
        seated = " v ".join(str(context.handle(pk)) for pk in target.seat_ids)
        raise Invalid(f"{winner!r} did not play in match {key} ({seated}).", extra={"field": "winner"})

    with organiser_fixable():
        planned = format_for(tournament.format).plan_correction(context, target, new_winner)
    preview = CorrectionPreview(
        key=key,
        old_winner=context.handle(target.winner_id),
        new_winner=context.handle(new_winner),
        changes=[item.change for item in planned],
    )
    if dry_run or new_winner == target.winner_id:
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
        },
        after={
            "winner": preview.new_winner,
            "pairings": [{"key": change.key, "action": change.action, **change.after} for change in preview.changes],
        },
    )
    annul_reason = (
        f"Set aside by the correction of {tournament.name} {key} "
        f"({preview.old_winner} to {preview.new_winner}): its players should not have met."
    )
    try:
        changed = correction_apply(
            context, target, new_winner, planned, CorrectionMade(record.pk, user, reason, annul_reason)
        )
    except MatchBusyError as exc:
        raise Conflict(
            "A result for one of the affected matches is being recorded right now; try again in a moment.",
        ) from exc
    pairings_advance(tournament)
    ratings_recompute(match_ids=changed)
    return dataclasses.replace(preview, applied=True)
