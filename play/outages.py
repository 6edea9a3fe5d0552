"""Which errors are an outage of a service the tables need (PostgreSQL, Redis), not a bug.

A connection meeting one says so and closes with 1013 ("try again later"),
and the page reconnects with backoff; any other error is a bug and is raised.
"""

from __future__ import annotations

from django.db import InterfaceError, OperationalError
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError


def outage_reason(error: BaseException) -> str | None:
    """The outage `error` is ("database_unavailable", "redis_unavailable"), or None when it is none."""
    if isinstance(error, OperationalError | InterfaceError):
        return "database_unavailable"
    if isinstance(error, RedisConnectionError | RedisTimeoutError | ConnectionError):
        return "redis_unavailable"
    return None
