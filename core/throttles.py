"""Throttles, answered 429: `POST /api/token/` per address and per account, the site's forms per
address, practice tables per user.

Rates are read from the settings on every request (not frozen at import as
DRF's own throttles do), so a deployment or a test can change them.
"""

from __future__ import annotations

import hashlib
from typing import Any

from django.conf import settings
from rest_framework.request import Request
from rest_framework.throttling import SimpleRateThrottle

from .clientip import client_ip


class LoginAddressThrottle(SimpleRateThrottle):
    """Token requests from one address (as `SPEED_TRUSTED_PROXIES` resolves it)."""

    scope = "login_address"

    def get_rate(self) -> str:
        return str(settings.SPEED_LOGIN_RATE_PER_ADDRESS)

    def get_cache_key(self, request: Request, view: Any) -> str | None:
        return self.cache_format % {"scope": self.scope, "ident": client_ip(request)}


class LoginAccountThrottle(SimpleRateThrottle):
    """Token requests naming one account, from anywhere: spreading guesses over addresses does not help."""

    scope = "login_account"

    def get_rate(self) -> str:
        return str(settings.SPEED_LOGIN_RATE_PER_ACCOUNT)

    def get_cache_key(self, request: Request, view: Any) -> str | None:
        try:
            username = request.data.get("username")
        except AttributeError:  # a body that is not an object names no account
            return None
        if not isinstance(username, str) or not username:
            return None
        # Usernames are folded to lower case here, so ALICE and alice share one budget; the key is hashed to stay a valid cache key.
        ident = hashlib.sha256(username.strip().lower().encode("utf-8", "replace")).hexdigest()
        return self.cache_format % {"scope": self.scope, "ident": ident}


class AddressRateLimit(SimpleRateThrottle):
    """A site form's submissions from one address (sign-up, password reset), counted in the shared cache.

    DRF's throttle outside DRF: `allow_request(request, None)` with a plain
    Django request counts one submission and says whether it is within the rate.
    """

    def __init__(self, scope: str, rate: str) -> None:
        self.scope = scope
        self.rate = rate
        super().__init__()

    def get_cache_key(self, request: Any, view: Any) -> str | None:
        return self.cache_format % {"scope": self.scope, "ident": client_ip(request)}


class PracticeTablesThrottle(SimpleRateThrottle):
    """Practice tables one user creates (`SPEED_PRACTICE_TABLES_RATE_PER_USER`), by the API or the site's page.

    Each table is a row, a shuffled deck and bots that play on the server's clock: one budget per
    account for both ways of making one, in the shared cache. The page calls `allow_request(request,
    None)` with its Django request, as the forms' `AddressRateLimit` does.
    """

    scope = "practice_tables"

    def get_rate(self) -> str:
        return str(settings.SPEED_PRACTICE_TABLES_RATE_PER_USER)

    def get_cache_key(self, request: Any, view: Any) -> str | None:
        user = getattr(request, "user", None)
        if user is None or not user.is_authenticated:
            return None  # only signed-in users make tables; the view refuses the rest
        return self.cache_format % {"scope": self.scope, "ident": user.pk}
