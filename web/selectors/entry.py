"""What a tournament's page shows of its entry rules and schedule: places taken, the waiting list, round times."""

from __future__ import annotations

from typing import Any

from django.utils import timezone

from core.cache_reader import GenerationReader
from tournaments.models import Registration, Tournament
from tournaments.services.entry import registration_deadline_passed, waiting_place
from web.selectors.calendars import round_times

#: The tournament cache's entry for these (prefetched with the page's other entries: no extra round trip).
ENTRY_PART = "entry"


def _entry(tournament: Tournament) -> dict[str, Any]:
    waiting = 0
    if tournament.status == Tournament.Status.SETUP:
        waiting = Registration.objects.filter(tournament=tournament, status=Registration.Status.WAITING).count()
    return {"round_times": sorted(round_times(tournament=tournament).items()), "waiting_count": waiting}


def entry_page_context(
    *, tournament: Tournament, registration: Registration | None, page_cache: GenerationReader
) -> dict[str, Any]:
    """From the tournament's cache (every change to these takes the tournament's lock, which renews it).

    A query more only for a player on the waiting list: their place on it.
    """
    context: dict[str, Any] = dict(page_cache.get(ENTRY_PART, lambda: _entry(tournament)))
    context["registration_deadline_passed"] = registration_deadline_passed(tournament, now=timezone.now())
    if registration is not None and registration.status == Registration.Status.WAITING:
        context["my_waiting_place"] = waiting_place(registration)
    return context
