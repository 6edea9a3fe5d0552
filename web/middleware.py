"""Lapses without a beat: in the embedded default (no broker, no Celery beat) the
site applies the unconfirmed results whose window ran out when it is read."""

from __future__ import annotations

import time
from collections.abc import Callable

from django.conf import settings
from django.core.exceptions import MiddlewareNotUsed
from django.http import HttpRequest, HttpResponse

from matches.services import games_lapse

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
