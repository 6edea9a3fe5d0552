"""Domain errors: what services raise for expected failures, with no HTTP knowledge.

Services, tasks and commands raise these; each interface maps them once:
the API's exception handler (`core.api_errors`) to status codes and the
project's JSON error shape, the site's middleware (`web.errors`) to pages.
The kind says what went wrong, never how an interface shows it.
"""

from __future__ import annotations

from typing import Any


class ApplicationError(Exception):
    """An expected failure with a message meant for the person who caused it.

    Raised as is, it means the request itself is invalid (bad input, a rule
    of the game or the event not met). The subclasses say more.
    """

    def __init__(self, message: str, *, extra: dict[str, Any] | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.extra = extra or {}


class Invalid(ApplicationError):
    """The request breaks a rule: bad input, or not allowed in this state by the rules."""


class NotFound(ApplicationError):
    """The thing asked for does not exist."""


class NotAllowed(ApplicationError):
    """The user may not do this (wrong role, or not a party to it)."""


class Conflict(ApplicationError):
    """The request is fine but clashes with the current state (already started, being changed right now)."""


class TooLarge(Invalid):
    """The input is beyond a size limit."""


class QuotaExceeded(ApplicationError):
    """The user has used up a quota (logs per game, bytes per day); it frees up with time or an organiser."""
