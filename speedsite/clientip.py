"""The client's address, trusting `X-Forwarded-For` only as far as the deployment says.

Behind N reverse proxies that each append the address they saw, the client's
address is the N-th entry from the right of `X-Forwarded-For`: everything to
its left was written by the client and proves nothing. With no proxy (the
default) the header is ignored, so a forged one never buys a fresh address.
The login lockouts (django-axes) and the API's login throttles both use this.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings


def client_ip(request: Any) -> str:
    """The address to count login attempts against (a Django or DRF request)."""
    remote = str(request.META.get("REMOTE_ADDR") or "")
    proxies = settings.SPEED_TRUSTED_PROXIES
    forwarded = request.META.get("HTTP_X_FORWARDED_FOR")
    if proxies <= 0 or not forwarded:
        return remote
    hops = [hop.strip() for hop in str(forwarded).split(",") if hop.strip()]
    if not hops:
        return remote
    # The right-most `proxies` entries were appended by our own proxies; the first of them
    # is what the outermost proxy saw. Fewer entries than proxies: take the left-most we have.
    return hops[-min(proxies, len(hops))]
