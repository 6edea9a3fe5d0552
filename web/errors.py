"""The site's one mapping of domain errors to pages.

A view that shows a form catches `ApplicationError` itself, to show the
message beside what was typed; any other domain error a view lets through
comes here and becomes a page with the status the API would answer.
"""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from core.api_errors import BUSY_MESSAGE, BUSY_RETRY_AFTER, is_busy, status_of
from core.errors import ApplicationError

_TITLES = {
    400: "That cannot be done",
    403: "Not allowed",
    404: "Not found",
    409: "Not now",
    413: "Too large",
    429: "Too many",
}


class DomainErrorMiddleware:
    """Render an uncaught domain error as the site's error page."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if is_busy(exception):  # a lock held too long elsewhere: nothing was done, the form can be sent again
            response = render(request, "error.html", {"title": "Busy", "message": BUSY_MESSAGE}, status=503)
            response["Retry-After"] = str(BUSY_RETRY_AFTER)
            return response
        if not isinstance(exception, ApplicationError):
            return None
        status = status_of(exception)
        context = {"title": _TITLES.get(status, "That cannot be done"), "message": exception.message}
        return render(request, "error.html", context, status=status)
