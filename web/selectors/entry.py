"""What a tournament's page shows of its entry rules and schedule: places taken, the waiting list, round times."""

from __future__ import annotations

from typing import Any

from django.utils import timezone

from matches.models import Player
from tournaments.models import Registration, Tournament
from tournaments.services.entry import registration_deadline_passed, waiting_place
from web.selectors.calendars import round_times


def entry_page_context(*, tournament: Tournament, player: Player | None) -> dict[str, Any]:
    """Three queries at most: the waiting list's length, the player's place on it, the round times."""
    context: dict[str, Any] = {"round_times": sorted(round_times(tournament=tournament).items())}
    if tournament.status != Tournament.Status.SETUP:
        return context
    context["waiting_count"] = Registration.objects.filter(
        tournament=tournament, status=Registration.Status.WAITING
    ).count()
    context["registration_deadline_passed"] = registration_deadline_passed(tournament, now=timezone.now())
    if player is not None:
        mine = Registration.objects.filter(
            tournament=tournament, player=player, status=Registration.Status.WAITING
        ).first()
        context["my_waiting_place"] = waiting_place(mine) if mine is not None else None
    return context
