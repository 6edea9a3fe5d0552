"""What an outage of PostgreSQL or Redis looks like as an exception, for every layer that answers one.

The site's error handler (`core.handlers.server_error`) answers an outage
503 with `Retry-After`, and the table sockets' edge (`play.edge`) answers it
with an "unavailable" message and close code 4013 (RFC 6455's 1013, "try again
later", in the range daphne can send), instead of a 500 or 1011.
Both ask `outage_kind` here, so they agree on what counts: a connection to the
database or to Redis that could not be made or broke, not a bug in a query.

A lock or statement timeout (`core.api_errors.is_busy`) is not an outage:
the database answered, it only refused to wait; the API and the site answer it
with their own "busy, try again" 503.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Literal

import psycopg
import redis.exceptions
from django.conf import settings
from django.db import InterfaceError, OperationalError

from .api_errors import BUSY_SQLSTATES

Outage = Literal["database_unavailable", "redis_unavailable"]

#: How far down an exception's causes to look (Django and kombu re-raise what the driver raised).
_CHAIN_DEPTH = 8

_DATABASE_ERRORS = (OperationalError, InterfaceError, psycopg.OperationalError, psycopg.InterfaceError)
# ReadOnlyError: a replica promoted or demoted under us (a failover), which refuses writes until it settles.
_REDIS_ERRORS = (redis.exceptions.ConnectionError, redis.exceptions.TimeoutError, redis.exceptions.ReadOnlyError)

MESSAGES: dict[Outage, str] = {
    "database_unavailable": "The database is unavailable right now; try again in a few seconds.",
    "redis_unavailable": "The server's message and cache store is unavailable right now; try again in a few seconds.",
}


def _chain(error: BaseException) -> Iterator[BaseException]:
    """The error, what it was raised from or while handling, and the members of exception groups."""
    pending = [(error, 0)]
    seen: set[int] = set()
    while pending:
        current, depth = pending.pop()
        if id(current) in seen or depth > _CHAIN_DEPTH:
            continue
        seen.add(id(current))
        yield current
        if isinstance(current, BaseExceptionGroup):
            pending.extend((member, depth + 1) for member in current.exceptions)
        for linked in (current.__cause__, current.__context__):
            if linked is not None:
                pending.append((linked, depth + 1))


def _busy(error: BaseException) -> bool:
    """A statement that gave up waiting (`core.api_errors.is_busy`), as Django's error or psycopg's."""
    return any(getattr(linked, "sqlstate", None) in BUSY_SQLSTATES for linked in (error, error.__cause__))


def outage_kind(error: BaseException | None) -> Outage | None:
    """Which store an exception says is down, or None when it says no such thing.

    The causes count too: Django raises its own `OperationalError` from psycopg's, a
    failed cache read can surface as another library's error raised while handling
    Redis's. An error raised while handling an outage is still the outage's doing.
    """
    if error is None:
        return None
    for linked in _chain(error):
        if isinstance(linked, _REDIS_ERRORS):
            return "redis_unavailable"
        if isinstance(linked, _DATABASE_ERRORS):
            return None if _busy(linked) else "database_unavailable"
    return None


def retry_after_seconds() -> int:
    """What an outage's answer tells the client to wait before trying again (`Retry-After`)."""
    return int(settings.SPEED_OUTAGE_RETRY_AFTER_SECONDS)
