"""Django's error handlers (`handler400`, ... in `speedsite.urls`): JSON under /api/, the site's pages elsewhere.

An address under /api/ that matches no endpoint answers a JSON 404 like any
other API error, not the site's HTML page.

`server_error` is where an outage becomes a 503. Django calls `handler500` for
every exception nothing else answered, wherever it was raised: a view, the
session or auth middleware reading the session, axes counting a login, a DRF
throttle reading the cache, a middleware's response phase saving the session.
Each middleware is wrapped by Django's `convert_exception_to_response`, so no
middleware of ours could see an exception raised by another one; the handler
sees them all, called inside the `except` block (`sys.exc_info()` is the
exception; asgiref carries it into the thread under ASGI too). With `DEBUG`
(the demo) Django shows its debug page instead, as for any other error.
"""

from __future__ import annotations

import sys

from django.conf import settings
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.template.loader import render_to_string
from django.views import defaults

from .outages import MESSAGES, Outage, outage_kind, retry_after_seconds
from .responses import error_response, is_api


def bad_request(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    return error_response(
        request, status=400, title="Bad request", message="The request is malformed and cannot be served."
    )


def permission_denied(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    if is_api(request):
        return error_response(request, status=403, title="Not allowed", message="You may not do this.")
    return defaults.permission_denied(request, exception)  # type: ignore[arg-type]


def page_not_found(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    if is_api(request):
        return error_response(
            request,
            status=404,
            title="Not found",
            message=f"There is no API endpoint at {request.path_info!r}; the schema is at /api/schema/.",
        )
    return defaults.page_not_found(request, exception)  # type: ignore[arg-type]


def outage_response(request: HttpRequest, kind: Outage) -> HttpResponse:
    """503 with `Retry-After`: the API's JSON error with `extra.code`, else a short page.

    The page is rendered without the request, as Django's own 500 page is: its context
    processors would read the user, that is the session, that is the store that is down.
    """
    wait = retry_after_seconds()
    if is_api(request):
        response = error_response(
            request,
            status=503,
            title="Unavailable",
            message=MESSAGES[kind],
            extra={"code": kind, "retry_after": wait},
        )
    else:
        response = HttpResponse(render_to_string("503.html", {"message": MESSAGES[kind]}), status=503)
    response["Retry-After"] = str(wait)
    return response


def server_error(request: HttpRequest) -> HttpResponse:
    kind = outage_kind(sys.exc_info()[1])
    if kind is not None:
        return outage_response(request, kind)
    if is_api(request):
        return error_response(request, status=500, title="Server error", message="Something went wrong on our side.")
    return defaults.server_error(request)


def error_preview(request: HttpRequest, status: int) -> HttpResponse:
    """`/errors/<status>/`, with DEBUG only: the site's own error page for a status, as production shows it.

    With DEBUG (the demo) Django answers an error with its debug page, which hides the site's own
    pages; here they can be seen (the API's JSON errors too, under `/api/errors/<status>/`)."""
    if not settings.DEBUG:
        raise Http404("Error pages are previewed with DEBUG only.")
    pages = {
        400: lambda: bad_request(request),
        403: lambda: permission_denied(request, PermissionDenied()),
        404: lambda: page_not_found(request, Http404()),
        500: lambda: server_error(request),
        503: lambda: outage_response(request, "database_unavailable"),
    }
    if status not in pages:
        raise Http404(f"No error page for {status}; these are: {', '.join(map(str, pages))}.")
    return pages[status]()
