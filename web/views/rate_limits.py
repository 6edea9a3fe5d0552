"""What a site form answers when its sender went over a rate limit (429, with Retry-After)."""

from __future__ import annotations

import math

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from rest_framework.throttling import SimpleRateThrottle

from core.throttles import AddressRateLimit


def retry_after(limit: SimpleRateThrottle) -> int:
    """Whole seconds until the limit lets the next one through (at least one)."""
    return max(1, math.ceil(limit.wait() or 1))


def in_words(seconds: int) -> str:
    if seconds < 60:
        return f"{seconds} second{'s' if seconds > 1 else ''}"
    minutes = math.ceil(seconds / 60)
    return f"{minutes} minute{'s' if minutes > 1 else ''}"


def over_limit(response: HttpResponse, limit: SimpleRateThrottle) -> HttpResponse:
    """A page answered because of the limit: 429 with the wait in `Retry-After`."""
    response.status_code = 429
    response["Retry-After"] = str(retry_after(limit))
    return response


def too_many(request: HttpRequest, limit: AddressRateLimit, what: str) -> HttpResponse:
    wait = retry_after(limit)
    minutes = max(1, math.ceil(wait / 60))
    message = f"Too many {what} from your address: try again in {minutes} minute{'s' if minutes > 1 else ''}."
    response = render(request, "error.html", {"title": "Too many", "message": message}, status=429)
    response["Retry-After"] = str(wait)
    return response
