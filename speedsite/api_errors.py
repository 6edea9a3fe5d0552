"""One error shape for the whole API: `{"message": ..., "extra": {...}}`.

Services raise `ApplicationError` for expected failures; DRF's own exceptions
(validation, auth, not found, throttling) are folded into the same shape so a
client only ever parses one kind of error body.
"""

from typing import Any

from django.core.exceptions import PermissionDenied
from django.http import Http404
from rest_framework import exceptions
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler


class ApplicationError(Exception):
    """An expected failure with a message meant for the person who caused it."""

    status_code = 400

    def __init__(self, message: str, *, extra: dict[str, Any] | None = None, status_code: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.extra = extra or {}
        if status_code is not None:
            self.status_code = status_code


def _flatten_detail(detail: Any) -> str:
    if isinstance(detail, dict):
        parts = [f"{key}: {_flatten_detail(value)}" for key, value in detail.items()]
        return "; ".join(parts)
    if isinstance(detail, list):
        return " ".join(_flatten_detail(item) for item in detail)
    return str(detail)


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    if isinstance(exc, ApplicationError):
        return Response({"message": exc.message, "extra": exc.extra}, status=exc.status_code)
    if isinstance(exc, Http404):
        exc = exceptions.NotFound()
    elif isinstance(exc, PermissionDenied):
        exc = exceptions.PermissionDenied()
    response = drf_exception_handler(exc, context)
    if response is None:
        return None
    if isinstance(exc, exceptions.ValidationError):
        response.data = {"message": _flatten_detail(exc.detail), "extra": {"fields": exc.detail}}
    else:
        response.data = {"message": _flatten_detail(response.data.get("detail", response.data)), "extra": {}}
    return response
