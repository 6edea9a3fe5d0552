"""Who opens a socket: the site's session cookie (browsers) or `Authorization: Token <key>` (other clients).

A token goes through the API's own token authentication class (the first
configured class that reads `Token` keys), so whatever rules the API applies to
a token (expiry, revocation) apply here too.
"""

from __future__ import annotations

from typing import Any

from channels.auth import AuthMiddlewareStack
from channels.db import database_sync_to_async
from django.contrib.auth.models import AnonymousUser
from rest_framework.exceptions import AuthenticationFailed
from rest_framework.settings import api_settings


def user_for_token(key: str) -> Any:
    """The user of an API token, or None when the key is unknown or no longer valid."""
    for auth_class in api_settings.DEFAULT_AUTHENTICATION_CLASSES:
        authenticator = auth_class()
        if getattr(authenticator, "keyword", None) == "Token" and hasattr(authenticator, "authenticate_credentials"):
            try:
                user, _token = authenticator.authenticate_credentials(key)
            except AuthenticationFailed:
                return None
            return user
    return None


def _token_of(scope: dict[str, Any]) -> str | None:
    for name, value in scope.get("headers", ()):
        if name == b"authorization":
            parts = value.decode("latin-1").split()
            if len(parts) == 2 and parts[0] == "Token":
                return parts[1]
    return None


class TokenAuthMiddleware:
    """Sets `scope["user"]` from an `Authorization: Token` header, else leaves the session's user."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        key = _token_of(scope)
        if key is not None:
            user = await database_sync_to_async(user_for_token)(key)
            scope = dict(scope, user=user or AnonymousUser())
        return await self.inner(scope, receive, send)


def SocketAuthStack(inner: Any) -> Any:
    return AuthMiddlewareStack(TokenAuthMiddleware(inner))
