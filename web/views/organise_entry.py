"""The manage page's entry rules, seeding method and schedule: its buttons for them, and what it shows of them.

`tournament_manage` (in `organise`) hands these actions here; each checks its
form and calls one service, and returns the message to show.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.http import HttpRequest

from core.errors import Invalid
from tournaments.models import Tournament
from tournaments.services.entry import entry_rules_set
from tournaments.services.schedule import round_schedule_set, tournament_starts_at_set
from tournaments.services.seeding import tournament_seed_by_set
from web.forms.entry import EntryRulesForm, RoundTimeForm, SeedingForm, StartsAtForm
from web.selectors.calendars import round_times
from web.selectors.tournaments import registrations_waiting

ACTIONS = ("entry_rules", "seeding", "starts_at", "round_time")


def _valid(form: forms.Form) -> dict[str, Any]:
    if not form.is_valid():
        field, errors = next(iter(form.errors.items()))
        label = form.fields[field].label if field in form.fields else ""
        raise Invalid(f"{label}: {errors[0]}" if label else errors[0])
    return form.cleaned_data


def _moved(handles: list[str]) -> str:
    return f" Moved up from the waiting list: {', '.join(handles)}." if handles else ""


def entry_action(request: HttpRequest, tournament: Tournament, action: str) -> str | None:
    """Carry out one of these buttons (None: not one of them)."""
    post, user, tid = request.POST, request.user, tournament.pk
    if action == "entry_rules":
        data = _valid(EntryRulesForm(post))
        _t, moved = entry_rules_set(
            tournament_id=tid,
            user=user,
            max_entrants=data["max_entrants"],
            registration_closes_at=data["registration_closes_at"],
        )
        return "Entry rules saved." + _moved(moved)
    if action == "seeding":
        data = _valid(SeedingForm(post))
        updated = tournament_seed_by_set(tournament_id=tid, user=user, seed_by=data["seed_by"])
        return f"Seeding at the start: {updated.get_seed_by_display().lower()}."
    if action == "starts_at":
        data = _valid(StartsAtForm(post))
        tournament_starts_at_set(tournament_id=tid, user=user, starts_at=data["starts_at"])
        return "Start time saved." if data["starts_at"] else "Start time removed."
    if action == "round_time":
        data = _valid(RoundTimeForm(post))
        round_schedule_set(tournament_id=tid, user=user, round=data["round"], not_before=data["not_before"])
        return f"Round {data['round']}: {'time saved' if data['not_before'] else 'time removed'}."
    return None


def entry_context(tournament: Tournament) -> dict[str, Any]:
    """What the manage page shows of the entry rules, seeding and schedule."""
    return {
        "entry_rules_form": EntryRulesForm(
            initial={
                "max_entrants": tournament.max_entrants,
                "registration_closes_at": tournament.registration_closes_at,
            }
        ),
        "seeding_form": SeedingForm(initial={"seed_by": tournament.seed_by}),
        "starts_at_form": StartsAtForm(initial={"starts_at": tournament.starts_at}),
        "round_time_form": RoundTimeForm(),
        "round_times": sorted(round_times(tournament=tournament).items()),
        "waiting": registrations_waiting(tournament=tournament),
    }
