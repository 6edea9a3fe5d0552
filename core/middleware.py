"""Request guards that run before anything reads the request.

`RequestGuardMiddleware` sits in front of the CSRF check on purpose: Django's
CSRF middleware reads a form's whole body, so an oversized upload must be
refused before it, from the declared length alone.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from django.conf import settings
from django.http import HttpRequest, HttpResponse

from .numbers import NumberError, whole_number
from .responses import error_response, is_api


class RequestGuardMiddleware:
    """413 for a body declared over `SPEED_REQUEST_MAX_BYTES`; 400 for a NUL byte in the path, the query,
    a cookie or a form's field.

    A NUL byte cannot be stored in or compared by PostgreSQL (psycopg refuses the
    string), so one reaching a query would be a server error: a session cookie is
    looked up on every page, a form's field by the view it posts to. Refused here,
    once, before any of them reads it. (A JSON body's NULs are the API parser's.)
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        limit = settings.SPEED_REQUEST_MAX_BYTES
        try:
            declared = whole_number(request.META.get("CONTENT_LENGTH") or "0", low=0, high=None)
        except NumberError:
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
        where = _nul_in(request)
        if where:
            return error_response(request, status=400, title="Bad request", message=f"The {where} contains a NUL byte.")
        return self.get_response(request)


def _has_nul(pairs: Iterable[tuple[str, Iterable[str]]]) -> bool:
    return any("\x00" in key or any("\x00" in value for value in values) for key, values in pairs)


def _nul_in(request: HttpRequest) -> str | None:
    """Which part of the request carries a NUL byte (in words), or None.

    The site's form fields are read only for a form's content types (Django parses no other body into
    POST), after the size check above; a file's content is not a field, and stays the view's."""
    if "\x00" in request.path:
        return "address (%00)"
    if _has_nul(request.GET.lists()):
        return "address (%00)"
    if _has_nul((name, [value]) for name, value in request.COOKIES.items()):
        return "cookie"
    # The API reads no form (a form body there is a 415), and its raw-body endpoints read the stream.
    if request.method == "POST" and not is_api(request) and _has_nul(request.POST.lists()):
        return "form"
    return None


class MethodNotAllowedPageMiddleware:
    """The site's page for a 405 (an address that takes only POST, opened from a link or the address bar).

    Django's `require_POST` answers with an empty body, which a browser shows as a
    blank page. The API's 405s are JSON already (`core.api_error_json`).
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if response.status_code != 405 or is_api(request) or response.content:
            return response
        allowed = response.get("Allow", "")
        page = error_response(
            request,
            status=405,
            title="Not a page to open",
            message=(
                f"This address takes {allowed or 'another method'} only: it is what a button on the site sends. "
                "Go back and use the button."
            ),
        )
        if allowed:
            page["Allow"] = allowed
        return page
