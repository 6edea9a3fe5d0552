"""Who opens a socket: the site's session cookie (browsers) or `Authorization: Token <key>` (other clients).

A token is judged by `speedsite.api_tokens.token_user`, the API's own rule, so
an expired or revoked token opens no seat here either.
"""

from __future__ import annotations

from typing import Any

from channels.auth import AuthMiddlewareStack
from channels.db import database_sync_to_async
from django.contrib.auth.models import AnonymousUser

from speedsite.api_tokens import token_user


def user_for_token(key: str) -> Any:
    """The user of an API token, or None when the key is unknown, expired or revoked, or its account disabled."""
    return token_user(key)


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
