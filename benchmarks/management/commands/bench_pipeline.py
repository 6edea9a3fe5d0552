"""`manage.py bench_pipeline`: verified logs per second vs no-op tasks per second, on one real worker.

Both phases run on the same worker process against the same Redis broker:
the tasks of a phase are queued first on a queue the worker is not consuming,
then the worker is told to consume it (a remote-control `add_consumer`) and
the clock runs until the queue is drained and every message acknowledged.
With `acks_late` a message is acknowledged after its task returned, so for
the verification phase that is after its transaction committed. The no-op
task has the same signature and options as the verification task; the
difference between the two rates is the cost of the verification itself.

Each round runs both phases back to back; the reported ratio is the median of the
rounds' ratios. The bar: verified logs per second at least half the no-op rate (ratio >= 0.5).
"""

from __future__ import annotations

import statistics
import time
import uuid
from typing import Any

import redis
from celery import Task
from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import connection

from benchmarks.pending_logs import pending_logs_create, pending_logs_delete
from benchmarks.tasks import noop_task
from benchmarks.workers import WorkerProcess, current_database_url
from replays.models import MatchLog
from replays.tasks import log_verify_task
from speedsite.celery import app as celery_app

BAR = 0.5
# This process shares the machine with the worker it measures. Polling every 10 ms, with one
# round trip to Redis, it took 2.5-3 of the 100 CPU ticks of each half second in the
# verification phase (sampled from /proc); polling twice as often with two round trips, 4-5,
# all of them from the phase that needs both cores (the no-op phase leaves a core idle).
# The finish is seen up to one interval late, about 5 ms per phase on average.
POLL_SECONDS = 0.01
DEFAULT_BROKER = "redis://127.0.0.1:6379/14"


class Command(BaseCommand):
    help = "Measure verified logs per second against no-op tasks per second on one Celery worker (bar: >= 0.5)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--logs", type=int, default=600, help="logs (and no-op tasks) per phase")
        parser.add_argument("--rounds", type=int, default=5, help="measured rounds; the medians are reported")
        parser.add_argument(
            "--worker",
            metavar="HOSTNAME",
            help="use this running worker (it must use the same broker and database) instead of starting one",
        )
        parser.add_argument(
            "--concurrency",
            type=int,
            help="pool size of the started worker (default: the project's, CELERY_WORKER_CONCURRENCY)",
        )
        parser.add_argument("--keep", action="store_true", help="keep the benchmark's matches and logs")
        parser.add_argument("--check", action="store_true", help="exit with an error when the ratio is below 0.5")

    def handle(self, *args: Any, **options: Any) -> None:
        if connection.vendor != "postgresql":
            self.stderr.write(
                self.style.WARNING(f"Database is {connection.vendor}; the figures mean most on PostgreSQL.")
            )
        broker = settings.CELERY_BROKER_URL or DEFAULT_BROKER
        if not broker.startswith("redis"):
            raise CommandError(f"bench_pipeline measures a Redis broker; CELERY_BROKER_URL is {broker!r}.")
        celery_app.conf.broker_url = broker
        celery_app.conf.task_always_eager = False
        self.redis = redis.Redis.from_url(broker)
        count, rounds = options["logs"], options["rounds"]

        worker = None
        if options["worker"]:
            hostname = options["worker"]
        else:
            idle = f"bench-idle-{uuid.uuid4().hex[:8]}"
            # DEBUG off, as in production: with DEBUG on, Django records every query (Celery warns of it).
            worker = WorkerProcess(
                env={"CELERY_BROKER_URL": broker, "DATABASE_URL": current_database_url(), "DEBUG": "0"},
                queues=idle,
                concurrency=options["concurrency"],
            ).wait_ready()
            hostname = worker.hostname
            pool = options["concurrency"] or settings.CELERY_WORKER_CONCURRENCY
            self.stdout.write(f"Started worker {hostname}, {pool} processes (log: {worker.log_path})")
        matches: list[int] = []
        try:
            self._measure(noop_task, [0] * 50, hostname)  # warm-up: connections, imports, caches
            warm_ids, warm_matches = pending_logs_create(50, seed_base=900_000)
            matches += warm_matches
            self._measure(log_verify_task, warm_ids, hostname)
            noop_rates, verify_rates = [], []
            for round_number in range(rounds):
                log_ids, round_matches = pending_logs_create(count, seed_base=round_number * count)
                matches += round_matches
                noop_rates.append(self._measure(noop_task, log_ids, hostname))
                verify_rates.append(self._measure(log_verify_task, log_ids, hostname))
                judged = MatchLog.objects.filter(pk__in=log_ids).exclude(status=MatchLog.Status.PENDING).count()
                if judged != count:
                    raise CommandError(f"only {judged} of {count} logs were judged in round {round_number + 1}")
                self.stdout.write(
                    f"  round {round_number + 1}: no-op {noop_rates[-1]:.0f}/s, verify {verify_rates[-1]:.0f}/s, "
                    f"ratio {verify_rates[-1] / noop_rates[-1]:.2f}"
                )
        finally:
            if worker is not None:
                worker.stop()
            if not options["keep"]:
                pending_logs_delete(matches)

        # The ratio is the median of each round's own ratio: a round's two phases run back to
        # back, so a shared machine's slow or fast spell weighs on both alike.
        ratios = sorted(verify / noop for verify, noop in zip(verify_rates, noop_rates, strict=True))
        ratio = statistics.median(ratios)
        noop, verify = statistics.median(noop_rates), statistics.median(verify_rates)
        self.stdout.write(f"no-op tasks:   {noop:8.1f} per second (median of {rounds} rounds of {count})")
        self.stdout.write(f"verified logs: {verify:8.1f} per second")
        verdict = "meets" if ratio >= BAR else "is below"
        line = f"ratio:         {ratio:8.2f} (median of the rounds' ratios, {ratios[0]:.2f}-{ratios[-1]:.2f}; {verdict} the bar of {BAR})"
        self.stdout.write(self.style.SUCCESS(line) if ratio >= BAR else self.style.ERROR(line))
        if options["check"] and ratio < BAR:
            raise CommandError(f"verified logs per second are {ratio:.2f} of the no-op rate; the bar is {BAR}")

    def _measure(self, task: Task, log_ids: list[int], hostname: str) -> float:
        """Tasks per second while the worker works through a queue holding one task per id.

        The clock starts when the worker takes the first message (it picks up a
        new queue on its next poll, up to a second later) and stops at the first
        of two polls in a row that find the queue empty and no message
        unacknowledged (one is not enough: a message being handed over shows in
        neither for an instant). Both
        phases stop the same way: with `acks_late` a verification's message is
        acknowledged after its transaction committed. (Polling the database for
        pending logs instead cost the machine a quarter of its CPU while the
        worker ran, a query over every id of the batch each 10 ms, which the
        no-op phase did not pay.) The rate counts the messages still queued when
        the clock started.
        """
        queue = f"bench-{uuid.uuid4().hex[:8]}"
        for log_id in log_ids:
            task.apply_async((log_id,), queue=queue)
        reply = celery_app.control.add_consumer(queue, destination=[hostname], reply=True, timeout=10)
        if not reply:
            raise CommandError(f"worker {hostname} did not answer; is it running on {celery_app.conf.broker_url}?")
        deadline = time.monotonic() + 30
        while (queued := self.redis.llen(queue)) == len(log_ids):
            if time.monotonic() > deadline:
                raise CommandError(f"worker {hostname} took no task from {queue} in 30 s")
            time.sleep(0.0005)
        started = time.perf_counter()
        deadline = time.monotonic() + 600
        finished: float | None = None  # the first poll of a streak finding nothing queued or unacknowledged
        while True:
            if time.monotonic() > deadline:
                raise CommandError(f"worker {hostname} did not finish the tasks of {queue} in 600 s")
            polled_at = time.perf_counter()
            with self.redis.pipeline(transaction=False) as poll:
                poll.llen(queue)
                poll.hlen("unacked")
                busy = any(poll.execute())
            if busy:
                finished = None
            elif finished is None:
                finished = polled_at
            else:
                break
            time.sleep(POLL_SECONDS)
        assert finished is not None
        celery_app.control.cancel_consumer(queue, destination=[hostname], reply=True, timeout=10)
        return queued / (finished - started)
