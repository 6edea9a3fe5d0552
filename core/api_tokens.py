"""API tokens that expire, and can be rotated or revoked: the one place that says whether a token is valid.

A token is DRF's (`rest_framework.authtoken`, one per user); it is valid for
SPEED_API_TOKEN_LIFETIME from its creation, while its user is active. Every
reader of a token (the API's authentication, anything else that takes one)
asks `token_user` or `token_problem` here, so no reader forgets the expiry.
Rotating replaces the key (and restarts the lifetime); revoking deletes it;
a password change deletes it too (`core.passwords`).
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone
from rest_framework.authentication import TokenAuthentication
from rest_framework.authtoken.models import Token
from rest_framework.exceptions import AuthenticationFailed


def token_expires_at(token: Token) -> datetime:
    lifetime: timedelta = settings.SPEED_API_TOKEN_LIFETIME
    created: datetime = token.created
    return created + lifetime


def token_problem(token: Token) -> str | None:
    """Why this token does not authenticate anyone any more, or None when it is valid."""
    if not token.user.is_active:
        return "This account is disabled."
    if timezone.now() >= token_expires_at(token):
        return "This API token has expired: ask POST /api/token/ for a new one."
    return None


def token_is_valid(token: Token) -> bool:
    return token_problem(token) is None


def token_user(key: str) -> AbstractBaseUser | None:
    """The user a token key authenticates, or None (no such token, expired, or the account disabled)."""
    token = Token.objects.select_related("user").filter(key=key).first()
    if token is None or not token_is_valid(token):
        return None
    user: AbstractBaseUser = token.user
    return user


def token_get(*, user_id: int) -> Token | None:
    return Token.objects.filter(user_id=user_id).first()


@transaction.atomic
def token_issue(*, user_id: int) -> Token:
    """The user's token: the one they have while it is valid, else a new one in place of the expired one."""
    token = Token.objects.select_for_update().select_related("user").filter(user_id=user_id).first()
    if token is not None and token_is_valid(token):
        return token
    if token is not None:
        token.delete()
    return Token.objects.create(user_id=user_id)


@transaction.atomic
def token_rotate(*, user_id: int) -> Token:
    """A new key for the user (the old one stops working at once), valid for a whole lifetime."""
    Token.objects.filter(user_id=user_id).delete()
    return Token.objects.create(user_id=user_id)


@transaction.atomic
def token_revoke(*, user_id: int) -> bool:
    """Delete the user's token; whether there was one."""
    deleted, _ = Token.objects.filter(user_id=user_id).delete()
    return deleted > 0


class ExpiringTokenAuthentication(TokenAuthentication):
    """DRF's `Authorization: Token <key>`, refusing a token past its lifetime (401)."""

    def authenticate_credentials(self, key: str) -> tuple[AbstractBaseUser, Token]:
        token = Token.objects.select_related("user").filter(key=key).first()
        if token is None:
            raise AuthenticationFailed("Invalid token.")
        problem = token_problem(token)
        if problem is not None:
            raise AuthenticationFailed(problem)
        return token.user, token
