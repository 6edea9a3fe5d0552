"""Gzip for the API's JSON, and only for it.

BREACH recovers a secret from the compressed size of responses that reflect
what an attacker sends beside it. The site's HTML pages carry CSRF tokens (and
DRF's browsable pages under /api/ are HTML too), so they stay uncompressed:
Django's random padding since 4.2 makes the attack slower, not impossible. The
API's JSON carries no CSRF token, and it is where the bytes are (replay steps,
lists, the schema).
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponseBase
from django.middleware.gzip import GZipMiddleware


class ApiGZipMiddleware(GZipMiddleware):
    """Django's `GZipMiddleware` for JSON responses under /api/; every other response is left as it is."""

    def process_response(self, request: HttpRequest, response: HttpResponseBase) -> HttpResponseBase:
        if not request.path.startswith("/api/") or not _is_json(response):
            return response
        return super().process_response(request, response)


def _is_json(response: HttpResponseBase) -> bool:
    media_type = response.get("Content-Type", "").split(";", 1)[0].strip().lower()
    return media_type == "application/json" or media_type.endswith("+json")
