"""Who opens a socket: the site's session cookie (browsers) or `Authorization: Token <key>` (other clients).

A token is judged by `core.api_tokens.token_user`, the API's own rule, so
an expired or revoked token opens no seat here either.

A socket outlives the request that opened it, so what let it in is kept
(`socket_identity`, read at connect) and judged again while it stays open
(`socket_identity_valid`, from the connection's heartbeat): signing out, a
password change, a revoked or expired token, a disabled account end it.
"""

from __future__ import annotations

from dataclasses import dataclass
from importlib import import_module
from typing import Any

from channels.auth import AuthMiddlewareStack
from channels.db import database_sync_to_async
from django.conf import settings
from django.contrib.auth import HASH_SESSION_KEY, SESSION_KEY, get_user_model
from django.contrib.auth.models import AnonymousUser
from django.utils.crypto import constant_time_compare

from core.api_tokens import token_user

#: Where `TokenAuthMiddleware` leaves the key of the token that signed the socket in.
TOKEN_SCOPE_KEY = "speed_token_key"  # noqa: S105 - a scope key, not a secret
#: The close code for a socket whose identity is no longer valid (`socket_identity_valid` is False).
IDENTITY_GONE = 4003


def user_for_token(key: str) -> Any:
    """The user of an API token, or None when the key is unknown, expired or revoked, or its account disabled."""
    return token_user(key)


def _token_of(scope: dict[str, Any]) -> str | None:
    for name, value in scope.get("headers", ()):
        if name == b"authorization":
            parts = value.decode("latin-1").split()
            if len(parts) == 2 and parts[0] == "Token":
                return str(parts[1])
    return None


class TokenAuthMiddleware:
    """Sets `scope["user"]` from an `Authorization: Token` header, else leaves the session's user.

    The key of a token that signed someone in goes in `scope[TOKEN_SCOPE_KEY]` (`socket_identity`).
    """

    def __init__(self, inner: Any) -> None:
        self.inner = inner

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        key = _token_of(scope)
        if key is not None:
            user = await database_sync_to_async(user_for_token)(key)
            scope = dict(scope, user=user or AnonymousUser(), **{TOKEN_SCOPE_KEY: key if user else None})
        return await self.inner(scope, receive, send)


def SocketAuthStack(inner: Any) -> Any:
    return AuthMiddlewareStack(TokenAuthMiddleware(inner))


@dataclass(frozen=True)
class SocketIdentity:
    """What signed a socket in: the user, and the token or the session (with its auth hash) that vouched.

    A token takes precedence over a session cookie (`TokenAuthMiddleware`), so at most one of
    `token_key` and `session_key` is set; both are None for a spectator who is not signed in.
    """

    user_id: int | None
    token_key: str | None = None
    session_key: str | None = None
    session_auth_hash: str | None = None


def socket_identity(scope: dict[str, Any]) -> SocketIdentity:
    """The identity of a connection, from its scope (in the consumer, once the auth stack has run).

    Reads no database: by then the auth stack has loaded the session to find the user.
    """
    user = scope.get("user")
    if user is None or not user.is_authenticated:
        return SocketIdentity(user_id=None)
    token_key = scope.get(TOKEN_SCOPE_KEY)
    if token_key:
        return SocketIdentity(user_id=user.pk, token_key=token_key)
    session = scope.get("session")
    if session is None or not session.session_key:
        return SocketIdentity(user_id=user.pk)
    return SocketIdentity(
        user_id=user.pk, session_key=session.session_key, session_auth_hash=session.get(HASH_SESSION_KEY)
    )


def _hash_matches(user: Any, session_hash: str | None) -> bool:
    """Django's own check of a session's auth hash (`django.contrib.auth.get_user`), fallback secrets included."""
    if not session_hash:
        return False
    if constant_time_compare(session_hash, user.get_session_auth_hash()):
        return True
    return any(constant_time_compare(session_hash, fallback) for fallback in user.get_session_auth_fallback_hash())


def socket_identity_valid(identity: SocketIdentity) -> bool:
    """Whether the socket may stay open: what signed it in still would (sync; reads the database).

    False when the user is gone or disabled; the token was revoked, rotated or expired (the API's
    own rule, `token_user`); the session was deleted (signed out, or replaced by a new login) or
    now holds someone else; or the session's auth hash taken at connect no longer matches the user's
    (the password changed: even in the session that changed it, whose next socket opens at once).
    A spectator who was not signed in has nothing to lose: True.
    """
    if identity.user_id is None:
        return True
    if identity.token_key is not None:
        holder = token_user(identity.token_key)
        return holder is not None and holder.pk == identity.user_id
    user = get_user_model().objects.filter(pk=identity.user_id).first()
    if user is None or not user.is_active:
        return False
    if identity.session_key is None:
        return True  # signed in by neither (a test's scope): only the account's state counts
    store = import_module(settings.SESSION_ENGINE).SessionStore(identity.session_key)
    if str(store.get(SESSION_KEY)) != str(identity.user_id):
        return False  # deleted or expired (an empty session), or another user's now
    return _hash_matches(user, identity.session_auth_hash) and _hash_matches(user, store.get(HASH_SESSION_KEY))
