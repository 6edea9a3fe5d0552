"""Sending stored logs (back) to the workers: after a submission, for `manage.py reverify`, or when
they were left pending (the beat's `replays.logs_resend_pending`)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta

from django.db import transaction
from django.utils import timezone

from ..selectors import pending_ids_submitted_before


def logs_enqueue_verification(*, log_ids: list[int], force: bool = False) -> None:
    """Send these logs to the workers after the current transaction commits (at once outside one).

    Robust: if the broker is unreachable the caller's work is still committed;
    the logs stay `pending` and `manage.py reverify --pending` sends them again.
    """
    from ..tasks import log_verify_task  # noqa: PLC0415 - the tasks module imports the services

    for log_id in log_ids:

        def enqueue(log_id: int = log_id) -> None:  # a named function: Django logs a robust callback's __qualname__
            log_verify_task.delay(log_id, force=force)

        transaction.on_commit(enqueue, robust=True)


def runs_enqueue_verification(*, run_ids: list[int]) -> None:
    """Send these solitaire runs to the workers after the current transaction commits (robust, as above)."""
    from ..tasks import solitaire_verify_task  # noqa: PLC0415 - the tasks module imports the services

    for run_id in run_ids:

        def enqueue(run_id: int = run_id) -> None:
            solitaire_verify_task.delay(run_id)

        transaction.on_commit(enqueue, robust=True)


@dataclass(frozen=True)
class Resent:
    logs: int
    runs: int


def pending_resend(*, older_than: timedelta, limit: int = 500) -> Resent:
    """Send again the logs and runs still pending `older_than` after their submission (the oldest first).

    A log stays pending when its task never reached the broker (it was down at
    the submission) or was lost with a worker killed mid-task, which Redis would
    hand back only after the visibility timeout. Sending a log twice is harmless:
    verification takes the match's lock and leaves a log judged by this engine
    alone, so a duplicate that arrives after the first verdict does nothing.
    With the broker still down the logs stay pending for the next run. At most
    `limit` of each kind per run, so a backlog is worked off in bounded steps.
    No transaction of its own: it reads ids and sends messages, writing nothing.
    """
    log_ids, run_ids = pending_ids_submitted_before(before=timezone.now() - older_than, limit=limit)
    logs_enqueue_verification(log_ids=log_ids)
    runs_enqueue_verification(run_ids=run_ids)
    return Resent(logs=len(log_ids), runs=len(run_ids))
