"""Sign-up (a new player's account) and a signed-in person's settings: their emails (the address, which kinds
they get) and their time zone."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib.auth import get_user_model, password_validation

from matches.time_zones import MAX_ZONE_NAME, zone_choices, zone_get


class SignupForm(forms.Form):
    """Self sign-up: a handle (the login), a display name and a password Django's validators accept."""

    handle = forms.CharField(max_length=40, help_text="Letters, digits, '_', '.' or '-'; you log in with it.")
    display_name = forms.CharField(max_length=100, label="Your name")
    email = forms.EmailField(
        required=False,
        label="Email (optional)",
        help_text="Where the site tells you a result waits for your confirmation or your match is called.",
    )
    password1 = forms.CharField(
        label="Password", strip=False, widget=forms.PasswordInput(attrs={"autocomplete": "new-password"})
    )
    password2 = forms.CharField(
        label="Password again", strip=False, widget=forms.PasswordInput(attrs={"autocomplete": "new-password"})
    )
    # The browser's zone, filled in by static/js/time-zone.js: nobody can correct a hidden box, so a name
    # that is not a zone (no JavaScript, an old browser) is dropped, not refused; Settings change it later.
    time_zone = forms.CharField(
        required=False,
        max_length=200,
        widget=forms.HiddenInput(attrs={"data-role": "browser-time-zone"}),
    )

    def clean_time_zone(self) -> str:
        name = self.cleaned_data.get("time_zone", "")
        return name if zone_get(name) is not None else ""

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        one, two = cleaned.get("password1"), cleaned.get("password2")
        if one and two and one != two:
            self.add_error("password2", "The two passwords differ.")
        elif one:
            user = get_user_model()(username=cleaned.get("handle", ""))
            user.first_name = cleaned.get("display_name", "")
            try:
                password_validation.validate_password(one, user)
            except forms.ValidationError as exc:
                self.add_error("password1", exc)
        return cleaned


#: The kinds of email, in the order the page lists them, with what each says in words.
NOTIFICATION_CHOICES = [
    ("claim_waiting", "A result waits for my confirmation"),
    ("match_called", "My match is called to a station"),
    ("registration_approved", "My registration for a tournament is approved"),
    ("dispute", "A game in a tournament I organise is disputed"),
    ("waiting_list", "My place on a tournament's waiting list changes"),
    ("challenge_received", "A player challenges me to a match"),
    ("challenge_answered", "A player accepts or declines my challenge"),
    ("table_waiting", "A player is waiting for me at our match's table (and no page of mine is open)"),
]


class NotificationsForm(forms.Form):
    """The address emails go to and the kinds the person wants (all on until they turn one off), and the
    zone times are shown and typed in."""

    email = forms.EmailField(required=False, label="Email", help_text="Leave it empty to get no email at all.")
    kinds = forms.MultipleChoiceField(
        choices=NOTIFICATION_CHOICES,
        required=False,
        widget=forms.CheckboxSelectMultiple,
        label="Email me when",
    )
    # Left out of a post (a script that only sets emails): the zone stays as it is.
    time_zone = forms.CharField(
        required=False,
        max_length=MAX_ZONE_NAME,
        label="Time zone",
        help_text="The site shows every time in it, and reads the times you type in it.",
        widget=forms.Select(),
    )

    def __init__(self, *args: Any, time_zone: str = "", **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        names = zone_choices()
        # A zone chosen under an older name (as some browsers report "Asia/Calcutta") stays choosable.
        if time_zone and time_zone not in names:
            names = (time_zone, *names)
        self.fields["time_zone"].widget.choices = [(name, name.replace("_", " ")) for name in names]
        self.fields["time_zone"].initial = time_zone or names[0]

    def clean_time_zone(self) -> str:
        name = self.cleaned_data.get("time_zone", "").strip()
        if name and zone_get(name) is None:
            raise forms.ValidationError(
                f"{name!r} is not a time zone: choose one from the list, such as Europe/Berlin or America/New_York."
            )
        return name
