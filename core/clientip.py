"""The client's address, trusting `X-Forwarded-For` only as far as the deployment says.

Behind N reverse proxies that each append the address they saw, the client's
address is the N-th entry from the right of `X-Forwarded-For`: everything to
its left was written by the client and proves nothing. With no proxy (the
default) the header is ignored, so a forged one never buys a fresh address.
The login lockouts (django-axes), the API's login throttles and the table sockets' caps use this.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings


def client_ip(request: Any) -> str:
    """The address to count login attempts against (a Django or DRF request)."""
    return address_behind_proxies(str(request.META.get("REMOTE_ADDR") or ""), request.META.get("HTTP_X_FORWARDED_FOR"))


def scope_client_ip(scope: dict[str, Any]) -> str:
    """The same address for an ASGI connection (the table sockets): its peer and its `X-Forwarded-For`."""
    client = scope.get("client")
    remote = str(client[0]) if client else ""
    forwarded = [value for name, value in scope.get("headers", ()) if name == b"x-forwarded-for"]
    # Several X-Forwarded-For fields read as one list, in order (RFC 9110 section 5.3), as a WSGI server joins them.
    return address_behind_proxies(remote, b",".join(forwarded).decode("latin-1") if forwarded else None)


def address_behind_proxies(remote: str, forwarded: str | None) -> str:
    """The client's address, from the peer's and the `X-Forwarded-For` its proxies wrote (`SPEED_TRUSTED_PROXIES`)."""
    proxies = settings.SPEED_TRUSTED_PROXIES
    if proxies <= 0 or not forwarded:
        return remote
    hops = [hop.strip() for hop in str(forwarded).split(",") if hop.strip()]
    if not hops:
        return remote
    # The right-most `proxies` entries were appended by our own proxies; the first of them
    # is what the outermost proxy saw. Fewer entries than proxies: take the left-most we have.
    return hops[-min(proxies, len(hops))]
