"""The schedule: when a tournament starts and when each round may begin ("not before"); players' calendar tokens.

The times are shown on the tournament's pages and each player's "My matches",
and given to calendar apps by the iCalendar feeds (`web.views.calendars`). A
player's feed is read without a session, through a secret token in its URL:
`calendar_token_issue` makes a new one (the old URL stops working), and
`calendar_token_revoke` ends the feed.
"""

from __future__ import annotations

import secrets
from datetime import datetime

from django.db import transaction

from core.errors import Conflict, Invalid, NotAllowed
from matches.selectors import user_player
from matches.services import AnyUser

from ..models import CalendarToken, RoundSchedule, Tournament
from .common import require_organiser, tournament_lock

#: The highest round a time may be set for (far beyond any event's rounds).
MAX_ROUND = 1000


def _require_unfinished(tournament: Tournament) -> None:
    if tournament.status == Tournament.Status.FINISHED:
        raise Conflict(f"{tournament.name!r} has finished; its schedule is history.")


@transaction.atomic
def tournament_starts_at_set(*, tournament_id: int, user: AnyUser, starts_at: datetime | None) -> Tournament:
    """When play is due to begin (None: not announced)."""
    require_organiser(user)
    tournament = tournament_lock(tournament_id)
    _require_unfinished(tournament)
    tournament.starts_at = starts_at
    tournament.start_refused_at, tournament.start_refusal = None, ""  # a new time: the sweep tries again
    tournament.save(update_fields=["starts_at", "start_refused_at", "start_refusal"])
    return tournament


@transaction.atomic
def round_schedule_set(
    *, tournament_id: int, user: AnyUser, round: int, not_before: datetime | None
) -> RoundSchedule | None:
    """A round's "not before" time (None removes it)."""
    require_organiser(user)
    tournament = tournament_lock(tournament_id)
    _require_unfinished(tournament)
    if not 1 <= round <= MAX_ROUND:
        raise Invalid(f"A round is from 1 to {MAX_ROUND}, not {round}.", extra={"field": "round"})
    if not_before is None:
        RoundSchedule.objects.filter(tournament=tournament, round=round).delete()
        return None
    entry, _ = RoundSchedule.objects.update_or_create(
        tournament=tournament, round=round, defaults={"not_before": not_before}
    )
    return entry


@transaction.atomic
def calendar_token_issue(*, user: AnyUser) -> CalendarToken:
    """A new secret for the signed-in player's calendar URL; any earlier URL stops working."""
    player = user_player(user=user)
    if player is None:
        raise NotAllowed("Only players have a calendar of their matches.")
    token, _ = CalendarToken.objects.update_or_create(player=player, defaults={"token": secrets.token_urlsafe(32)})
    return token


@transaction.atomic
def calendar_token_revoke(*, user: AnyUser) -> None:
    """End the signed-in player's calendar feed (its URL stops working)."""
    player = user_player(user=user)
    if player is not None:
        CalendarToken.objects.filter(player=player).delete()
