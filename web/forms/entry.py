"""The manage page's forms for the entry rules, the seeding method, and the schedule."""

from __future__ import annotations

from django import forms

from core.numbers import WholeNumberField
from tournaments.models import Tournament
from tournaments.services.entry import MAX_CAP
from tournaments.services.schedule import MAX_ROUND
from web.forms.base import LocalTimes


def _when(label: str, help_text: str = "") -> forms.DateTimeField:
    return forms.DateTimeField(
        required=False,
        label=label,
        help_text=help_text,
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"),
        input_formats=["%Y-%m-%dT%H:%M", "%Y-%m-%d %H:%M"],
    )


class EntryRulesForm(LocalTimes):
    max_entrants = WholeNumberField(
        min_value=2,
        max_value=MAX_CAP,
        required=False,
        label="Most entrants",
        help_text="Empty: no cap. Approved registrations past it wait in order, and move up when a place frees.",
    )
    registration_closes_at = _when("Registration closes", "Empty: open until the start.")


class SeedingForm(forms.Form):
    seed_by = forms.ChoiceField(
        choices=Tournament.SeedBy.choices,
        label="Seed order at the start",
        widget=forms.RadioSelect,
        help_text="By rating reads the ratings when you start; the order used is kept on the page.",
    )


class StartsAtForm(LocalTimes):
    starts_at = _when("Starts at")


class RoundTimeForm(LocalTimes):
    round = WholeNumberField(label="Round", min_value=1, max_value=MAX_ROUND, initial=1)
    not_before = _when("Not before", "Empty: remove the round's time.")
