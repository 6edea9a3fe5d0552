"""Error answers made outside a view (middleware, Django's error handlers), in the project's shapes:
JSON `{"message", "extra"}` under /api/, the site's error page elsewhere."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.template.loader import render_to_string

API_PREFIX = "/api/"


def is_api(request: HttpRequest) -> bool:
    return request.path_info.startswith(API_PREFIX)


def error_response(
    request: HttpRequest, *, status: int, title: str, message: str, extra: dict[str, Any] | None = None
) -> HttpResponse:
    if is_api(request):
        return JsonResponse({"message": message, "extra": extra or {}}, status=status)
    # The site's page; rendered without the view's context processors failing on a
    # request that never reached the session or auth middleware (they fall back to anonymous).
    body = render_to_string("error.html", {"title": title, "message": message}, request=request)
    return HttpResponse(body, status=status)
