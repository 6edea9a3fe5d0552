"""Sign-up: a new player's account."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib.auth import get_user_model, password_validation


class SignupForm(forms.Form):
    """Self sign-up: a handle (the login), a display name and a password Django's validators accept."""

    handle = forms.CharField(max_length=40, help_text="Letters, digits, '_', '.' or '-'; you log in with it.")
    display_name = forms.CharField(max_length=100, label="Your name")
    password1 = forms.CharField(
        label="Password", strip=False, widget=forms.PasswordInput(attrs={"autocomplete": "new-password"})
    )
    password2 = forms.CharField(
        label="Password again", strip=False, widget=forms.PasswordInput(attrs={"autocomplete": "new-password"})
    )

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
