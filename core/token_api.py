"""`POST /api/token/`: a user's API token for their username and password, throttled;
`POST /api/token/rotate/` and `POST /api/token/revoke/` for the token's holder.

Two DRF throttles (per address, per account) answer 429 to a burst; failed
logins also count towards django-axes' lockout, shared with the site's and the
admin's login pages, and a locked-out account or address gets 429 here too.
A token expires SPEED_API_TOKEN_LIFETIME after it was made (`core.api_tokens`).
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import authenticate
from drf_spectacular.utils import OpenApiResponse, extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.exceptions import Throttled
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response

from .api_fields import StrictCharField
from .api_schema import ERROR_SHAPE
from .api_strict import ApiView, StrictInput
from .api_tokens import token_expires_at, token_issue, token_revoke, token_rotate
from .errors import Invalid
from .login_lockout import account_failures_reset
from .throttles import LoginAccountThrottle, LoginAddressThrottle


class TokenInput(StrictInput):
    username = StrictCharField(max_length=150)
    password = StrictCharField(max_length=4096, trim_whitespace=False, style={"input_type": "password"})


TOKEN_OUTPUT = inline_serializer(
    "TokenOutput",
    {
        "token": serializers.CharField(),
        "expires": serializers.DateTimeField(help_text="When the token stops working (ask for a new one then)."),
    },
)


def _token_answer(token: Any) -> Response:
    return Response(
        {"token": token.key, "expires": serializers.DateTimeField().to_representation(token_expires_at(token))}
    )


class TokenApi(ApiView):
    authentication_classes: list[type] = []
    permission_classes: list[type] = []
    throttle_classes = [LoginAddressThrottle, LoginAccountThrottle]

    @extend_schema(
        operation_id="token_create",
        request=TokenInput,
        responses={
            200: TOKEN_OUTPUT,
            400: OpenApiResponse(ERROR_SHAPE, description="Missing, malformed or wrong username or password."),
            429: OpenApiResponse(ERROR_SHAPE, description="Too many attempts from this address or for this account."),
        },
        auth=[],
    )
    def post(self, request: Request) -> Response:
        data = TokenInput(data=request.data)
        data.is_valid(raise_exception=True)
        # The plain HttpRequest: django-axes marks it when the account or address is locked out.
        http_request = request._request
        user = authenticate(
            http_request, username=data.validated_data["username"], password=data.validated_data["password"]
        )
        if getattr(http_request, "axes_locked_out", False):
            raise Throttled(detail="Too many failed logins for this account or from this address; try again later.")
        if user is None:
            raise Invalid("Unable to log in with these credentials.")
        account_failures_reset(username=user.get_username())  # as a login on the site does
        return _token_answer(token_issue(user_id=user.pk))


class TokenRotateApi(ApiView):
    """A new token for the caller; the one used so far stops working at once."""

    permission_classes = [IsAuthenticated]

    @extend_schema(operation_id="token_rotate", request=None, responses={200: TOKEN_OUTPUT})
    def post(self, request: Request) -> Response:
        return _token_answer(token_rotate(user_id=request.user.pk))


class TokenRevokeApi(ApiView):
    """End the caller's token (a leaked one, a device given away); log in again for a new one."""

    permission_classes = [IsAuthenticated]

    @extend_schema(operation_id="token_revoke", request=None, responses={204: None})
    def post(self, request: Request) -> Response:
        token_revoke(user_id=request.user.pk)
        return Response(status=204)
