"""The answer to a login that django-axes refused (AXES_LOCKOUT_CALLABLE)."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse

from .responses import error_response


def login_locked_out(
    request: HttpRequest, original_response: HttpResponse | None = None, credentials: dict[str, Any] | None = None
) -> HttpResponse:
    minutes = int(settings.AXES_COOLOFF_TIME.total_seconds() // 60)
    response = error_response(
        request,
        status=429,
        title="Too many attempts",
        message=(
            f"Too many failed logins for this account or from this address. Try again in {minutes} minutes, "
            "or ask an organiser to reset the password."
        ),
        extra={"retry_after": minutes * 60},
    )
    response["Retry-After"] = str(minutes * 60)
    return response
