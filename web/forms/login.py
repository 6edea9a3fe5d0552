"""The login forms (the site's and the admin's): a username no longer than the column that holds one.

Django's `AuthenticationForm` sets the username's `max_length` after the field
is made, so the limit reaches the page's `maxlength` but not the check: a longer
name went on to `authenticate()`, and django-axes, recording the failed attempt,
could not store it (a 500). Here the check refuses it first, as the form's own
error, and nothing is authenticated or recorded.
"""

from __future__ import annotations

from typing import Any

from django.contrib.admin.forms import AdminAuthenticationForm
from django.contrib.auth.forms import AuthenticationForm
from django.core.validators import MaxLengthValidator


def _bound_username(form: AuthenticationForm) -> None:
    field = form.fields["username"]
    field.validators.append(MaxLengthValidator(field.max_length))


class LoginForm(AuthenticationForm):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        _bound_username(self)


class AdminLoginForm(AdminAuthenticationForm):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        _bound_username(self)
