"""django-axes' lockout check for logins made through a request.

Axes refuses an `authenticate()` call without a request, to make sure no login
form forgets to pass one. Every login over HTTP here passes it (the site's and
the admin's forms, `POST /api/token/`); a call without one is not a login
attempt from anywhere (Django's test client, a management command), so there
is no address or attempt to count and the check stands aside.
"""

from __future__ import annotations

from typing import Any

from axes.backends import AxesStandaloneBackend


class LoginLockoutBackend(AxesStandaloneBackend):
    def authenticate(
        self, request: Any, username: str | None = None, password: str | None = None, **kwargs: Any
    ) -> None:
        if request is None:
            return None
        return super().authenticate(request, username=username, password=password, **kwargs)  # type: ignore[no-any-return]
