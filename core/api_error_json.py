"""The one place that keeps every error under /api/ JSON, whatever made it.

The API's exception handler (`core.api_errors`) shapes the errors of its
views, but some are rendered by something else: DRF's browsable page when the
client asks for `text/html`, the schema's YAML renderer (a 404 for an unknown
`?format=`), the docs pages' HTML 405, Django's debug pages. This middleware,
outermost but for compression, turns any such error into the API's shape,
`{"message", "extra"}`, keeping the status and the headers a client acts on.
(What the HTTP server refuses before Django is its own: `gunicorn.conf.py`.)
"""

from __future__ import annotations

from collections.abc import Callable
from http import HTTPStatus
from typing import Any

from django.http import HttpRequest, HttpResponseBase, JsonResponse

from .responses import is_api

#: The headers of an error that say what to do next; the rest describe the body that is replaced.
KEPT_HEADERS = ("Allow", "Retry-After", "WWW-Authenticate", "Vary")


def _is_json(response: HttpResponseBase) -> bool:
    media_type = response.get("Content-Type", "").split(";", 1)[0].strip().lower()
    return media_type == "application/json"


def _shape(response: HttpResponseBase) -> dict[str, Any]:
    """The error's own message where a view gave one (DRF's `data`), else the status's words."""
    data = getattr(response, "data", None)
    if isinstance(data, dict) and set(data) == {"message", "extra"}:
        return data
    status = response.status_code
    try:
        phrase = HTTPStatus(status).phrase
    except ValueError:
        phrase = "Error"
    message = f"{phrase}." if status < 500 else "Something went wrong on our side."
    if status == 405 and response.has_header("Allow"):
        message = f"{phrase}: this address takes {response['Allow']}."
    return {"message": message, "extra": {}}


class ApiErrorJsonMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        response = self.get_response(request)
        if response.status_code < 400 or not is_api(request) or _is_json(response):
            return response
        made = JsonResponse(_shape(response), status=response.status_code)
        for name in KEPT_HEADERS:
            if response.has_header(name):
                made[name] = response[name]
        return made
