"""The baseline task `manage.py bench_pipeline` compares verification with."""

from __future__ import annotations

from celery import Task, shared_task
from django.db import close_old_connections


# The same options and signature as replays.log_verify, so the difference between
# the two rates is the cost of the verification itself.
@shared_task(name="benchmarks.noop", acks_late=True, reject_on_worker_lost=True, ignore_result=True, bind=True)
def noop_task(self: Task, log_id: int, force: bool = False) -> None:
    """Nothing but the same connection housekeeping as the verification task."""
    if not self.request.is_eager:
        close_old_connections()
