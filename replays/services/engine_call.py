"""Calling the engine where a bug in it must not lose a log or answer a 500.

A log, a replay's steps and a solitaire run each keep what was submitted when
the engine itself fails on it (a bug, not a bad log): the caller marks it
failed or answers a clear error, and an operator finds the traceback logged.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar

logger = logging.getLogger(__name__)

T = TypeVar("T")


@dataclass(frozen=True)
class EngineFailure:
    """The engine raised on a document: what it raised, in words a page or a log row can show."""

    error: Exception

    @property
    def reason(self) -> str:
        return f"The verifier failed on this log ({type(self.error).__name__}); an operator will look."


def engine_call(compute: Callable[[], T], *, what: str) -> T | EngineFailure:
    """`compute()` (a call into the engine), or the failure when the engine raised; `what` names it in the log."""
    try:
        return compute()
    except Exception as exc:  # an engine bug: the caller keeps the document and says so
        logger.exception("engine failed on %s", what)
        return EngineFailure(exc)
