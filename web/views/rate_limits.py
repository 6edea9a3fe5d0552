"""The page a site form answers when its address went over a rate limit (429, with Retry-After)."""

from __future__ import annotations

import math

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from speedsite.throttles import AddressRateLimit


def too_many(request: HttpRequest, limit: AddressRateLimit, what: str) -> HttpResponse:
    wait = max(1, math.ceil(limit.wait() or 1))
    minutes = max(1, math.ceil(wait / 60))
    message = f"Too many {what} from your address: try again in {minutes} minute{'s' if minutes > 1 else ''}."
    response = render(request, "error.html", {"title": "Too many", "message": message}, status=429)
    response["Retry-After"] = str(wait)
    return response
