"""One error shape for the whole API: `{"message": ..., "extra": {...}}`.

Services raise the domain errors of `core.errors`; this handler is the
one place that maps their kinds to HTTP status codes. DRF's own exceptions
(validation, auth, not found, throttling) are folded into the same shape so a
client only ever parses one kind of error body.
"""

from typing import Any

from django.core.exceptions import PermissionDenied
from django.db import OperationalError
from django.http import Http404
from rest_framework import exceptions
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from core.errors import ApplicationError, Conflict, NotAllowed, NotFound, QuotaExceeded, TooLarge

#: The status of each kind of domain error; the most specific kind wins (TooLarge before Invalid).
STATUS_OF_ERROR: dict[type[ApplicationError], int] = {
    TooLarge: 413,
    NotFound: 404,
    NotAllowed: 403,
    Conflict: 409,
    QuotaExceeded: 429,
    ApplicationError: 400,
}


def status_of(error: ApplicationError) -> int:
    """The HTTP status for a domain error (used by the API and the site alike)."""
    return next(status for kind, status in STATUS_OF_ERROR.items() if isinstance(error, kind))


#: PostgreSQL's codes for a statement that gave up: lock_not_available (SPEED_DB_LOCK_TIMEOUT)
#: and query_canceled (SPEED_DB_STATEMENT_TIMEOUT).
BUSY_SQLSTATES = frozenset({"55P03", "57014"})
BUSY_MESSAGE = "The server is busy with this right now; try again in a few seconds."
BUSY_RETRY_AFTER = 5


def is_busy(error: Exception) -> bool:
    """Whether the database refused to wait any longer (a lock held elsewhere, a statement too slow).

    Nothing was written (the transaction rolled back), so the request can simply be sent again.
    """
    return isinstance(error, OperationalError) and getattr(error.__cause__, "sqlstate", None) in BUSY_SQLSTATES


def _flatten_detail(detail: Any) -> str:
    if isinstance(detail, dict):
        parts = [f"{key}: {_flatten_detail(value)}" for key, value in detail.items()]
        return "; ".join(parts)
    if isinstance(detail, list):
        return " ".join(_flatten_detail(item) for item in detail)
    return str(detail)


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    if isinstance(exc, ApplicationError):
        return Response({"message": exc.message, "extra": exc.extra}, status=status_of(exc))
    if is_busy(exc):
        return Response(
            {"message": BUSY_MESSAGE, "extra": {"retry_after": BUSY_RETRY_AFTER}},
            status=503,
            headers={"Retry-After": str(BUSY_RETRY_AFTER)},
        )
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
