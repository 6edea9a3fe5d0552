"""The API token page's read: the signed-in user's token, if they have one."""

from __future__ import annotations

from rest_framework.authtoken.models import Token

from core.api_tokens import token_get


def api_token_of(*, user_id: int) -> Token | None:
    return token_get(user_id=user_id)
