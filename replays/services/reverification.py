"""Sending stored logs (back) to the workers: after a submission, or for `manage.py reverify`."""

from __future__ import annotations

from django.db import transaction


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
