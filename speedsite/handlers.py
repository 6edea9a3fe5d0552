"""Django's error handlers (`handler400`, ... in `speedsite.urls`): JSON under /api/, the site's pages elsewhere.

An address under /api/ that matches no endpoint answers a JSON 404 like any
other API error, not the site's HTML page.
"""

from __future__ import annotations

from django.conf import settings
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.views import defaults

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


def server_error(request: HttpRequest) -> HttpResponse:
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
    }
    if status not in pages:
        raise Http404(f"No error page for {status}; these are: {', '.join(map(str, pages))}.")
    return pages[status]()
