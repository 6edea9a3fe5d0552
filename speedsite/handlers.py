"""Django's error handlers (`handler400`, ... in `speedsite.urls`): JSON under /api/, the site's pages elsewhere.

An address under /api/ that matches no endpoint answers a JSON 404 like any
other API error, not the site's HTML page.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
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
