"""Request guards that run before anything reads the request.

`RequestGuardMiddleware` sits in front of the CSRF check on purpose: Django's
CSRF middleware reads a form's whole body, so an oversized upload must be
refused before it, from the declared length alone.
"""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse

from .responses import error_response


class RequestGuardMiddleware:
    """413 for a body declared over `SPEED_REQUEST_MAX_BYTES`; 400 for a NUL byte in the path or the query.

    A NUL byte cannot be stored in or compared by PostgreSQL (psycopg refuses the
    string), so one reaching a query would be a server error.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        limit = settings.SPEED_REQUEST_MAX_BYTES
        try:
            declared = int(request.META.get("CONTENT_LENGTH") or 0)
        except ValueError:
            return error_response(request, status=400, title="Bad request", message="Content-Length is not a number.")
        if declared > limit:
            return error_response(
                request,
                status=413,
                title="Too large",
                message=(
                    f"The request body is {declared} bytes; the limit is {limit} bytes "
                    f"(a log may be at most {settings.SPEED_LOG_MAX_BYTES} bytes)."
                ),
                extra={"limit": limit, "log_limit": settings.SPEED_LOG_MAX_BYTES},
            )
        if "\x00" in request.path or any(
            "\x00" in key or any("\x00" in value for value in values) for key, values in request.GET.lists()
        ):
            return error_response(
                request, status=400, title="Bad request", message="The address contains a NUL byte (%00)."
            )
        return self.get_response(request)
