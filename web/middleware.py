"""The site's own middleware.

- Lapses without a beat: in the embedded default (no broker, no Celery beat) the
  site applies the unconfirmed results whose window ran out when it is read.
- Time zones: each request's pages in the reader's zone.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from urllib.parse import unquote
from zoneinfo import ZoneInfo

from django.conf import settings
from django.core.exceptions import MiddlewareNotUsed
from django.http import HttpRequest, HttpResponse
from django.utils import timezone
from django.utils.cache import patch_vary_headers

from matches.selectors import user_time_zone_name
from matches.services import games_lapse
from matches.time_zones import UTC_NAME, zone_get

#: At most one look for due lapses per process this often (seconds): one indexed query.
LOOK_EVERY = 5.0


class LapseOnReadMiddleware:
    """Before a request is served, let due unconfirmed results stand (only when SPEED_LAPSE_ON_READ)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        if not settings.SPEED_LAPSE_ON_READ:
            raise MiddlewareNotUsed
        self.get_response = get_response
        self.last_look = float("-inf")

    def __call__(self, request: HttpRequest) -> HttpResponse:
        now = time.monotonic()
        if now - self.last_look >= LOOK_EVERY:
            self.last_look = now
            games_lapse()
        return self.get_response(request)


#: The cookie static/js/time-zone.js sets to the browser's zone (an IANA name), for whoever chose none.
TIME_ZONE_COOKIE = "speed_tz"

#: Where times stay in UTC whatever the reader's zone: the API (DRF writes and reads times in the active
#: zone, and its clients are promised ISO 8601 in UTC). The calendar feeds and the exports write UTC themselves.
_UTC_ONLY = ("/api/",)


def request_time_zone(request: HttpRequest) -> ZoneInfo:
    """The zone a page is read in: the signed-in person's choice, else their browser's (the cookie), else UTC."""
    chosen = user_time_zone_name(user=getattr(request, "user", None))
    for name in (chosen, unquote(request.COOKIES.get(TIME_ZONE_COOKIE, ""))):
        zone = zone_get(name)
        if zone is not None:
            return zone
    return ZoneInfo(UTC_NAME)


class TimeZoneMiddleware:
    """Activate the reader's zone (`request_time_zone`) for the request: forms read the times typed in it,
    and templates show times in it. After `AuthenticationMiddleware`, which says who is signed in."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if request.path_info.startswith(_UTC_ONLY):
            return self.get_response(request)
        timezone.activate(request_time_zone(request))
        try:
            response = self.get_response(request)
        finally:
            timezone.deactivate()
        # The page differs with the cookie now, even for a visitor with no session: no shared cache may
        # serve one visitor's times to another.
        patch_vary_headers(response, ("Cookie",))
        return response
