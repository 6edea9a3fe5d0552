"""`manage.py bench_pipeline`: the verification pipeline on one real worker, a guard against regressions.

    python manage.py bench_pipeline [--logs 600] [--rounds 3] [--rate 20] [--seconds 20]

Two measures, both on the same worker process and Redis broker:

- Throughput: verified logs per second next to no-op tasks per second. The
  tasks of a phase are queued first on a queue the worker is not consuming,
  then the worker is told to consume it (a remote-control `add_consumer`) and
  the clock runs until the queue is drained and every message acknowledged
  (with `acks_late`, after the task's transaction committed). The no-op task
  has the verification task's signature and options, so the difference is
  the cost of the verification itself. Each log is a player's, a claim for the
  opponent to confirm (the usual case).
- Latency: logs submitted through `log_submit` at a steady offered rate
  (`--rate` a second for `--seconds`), each an organiser's log that decides
  its game at once; the time from each log's submission (`submitted_at`) to
  its game's `decided_at` (a deadlock's void game included), as percentiles.

No figure is a target and nothing here passes or fails on one: compared with
an earlier run on the same machine, a drop points at a regression (a query
per game, a lost index).
"""

from __future__ import annotations

import statistics
import time
import uuid
from datetime import timedelta
from typing import Any

import redis
from celery import Task
from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import connection

from benchmarks.pending_logs import bench_organiser, games_with_logs_create, pending_logs_create, pending_logs_delete
from benchmarks.tasks import noop_task
from benchmarks.workers import WorkerProcess, current_database_url, production_env
from matches.models import Game
from replays.models import MatchLog
from replays.services import log_submit
from replays.tasks import log_verify_task
from speedsite.celery import app as celery_app

# This process shares the machine with the worker it measures: polling Redis every 10 ms
# takes little of the CPU, and the finish is seen up to one interval late.
POLL_SECONDS = 0.01
DEFAULT_BROKER = "redis://127.0.0.1:6379/14"
#: The queue `log_submit`'s tasks go to (Celery's default), consumed only in the latency phase.
SUBMISSION_QUEUE = "celery"


class Command(BaseCommand):
    help = "Print verified logs/s next to no-op tasks/s on one Celery worker, and submission-to-decision latency."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--logs", type=int, default=600, help="logs (and no-op tasks) per throughput phase")
        parser.add_argument("--rounds", type=int, default=3, help="throughput rounds; the medians are reported")
        parser.add_argument("--rate", type=float, default=20, help="logs submitted per second in the latency phase")
        parser.add_argument("--seconds", type=float, default=20, help="how long the latency phase submits")
        parser.add_argument(
            "--worker",
            metavar="HOSTNAME",
            help="use this running worker (same broker and database, consuming the default queue) instead of starting one",
        )
        parser.add_argument(
            "--concurrency",
            type=int,
            help="pool size of the started worker (default: the project's, CELERY_WORKER_CONCURRENCY)",
        )
        parser.add_argument("--keep", action="store_true", help="keep the benchmark's matches and logs")

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
        self.redis.delete(SUBMISSION_QUEUE)  # tasks of an earlier, interrupted run
        count, rounds = options["logs"], options["rounds"]

        worker = None
        if options["worker"]:
            hostname = options["worker"]
        else:
            idle = f"bench-idle-{uuid.uuid4().hex[:8]}"
            # DEBUG off, as in production: with DEBUG on, Django records every query (Celery warns of it).
            # SPEED_BENCHMARKS on: the no-op task is the benchmarks app's.
            worker = WorkerProcess(
                env=production_env(
                    {"CELERY_BROKER_URL": broker, "DATABASE_URL": current_database_url(), "SPEED_BENCHMARKS": "1"}
                ),
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
                self._require_judged(log_ids, f"round {round_number + 1}")
                self.stdout.write(
                    f"  round {round_number + 1}: no-op {noop_rates[-1]:.0f}/s, verify {verify_rates[-1]:.0f}/s"
                )
            latencies, offered = self._latency(options["rate"], options["seconds"], hostname, matches)
        finally:
            if worker is not None:
                worker.stop()
            if not options["keep"]:
                pending_logs_delete(matches)

        if rounds:
            noop, verify = statistics.median(noop_rates), statistics.median(verify_rates)
            self.stdout.write(f"no-op tasks:   {noop:8.1f} per second (median of {rounds} rounds of {count})")
            self.stdout.write(f"verified logs: {verify:8.1f} per second (a player's log each: a claim)")
        self.stdout.write(
            f"latency:       {len(latencies)} organiser's logs submitted at {offered:.1f}/s "
            f"(asked {options['rate']:g}/s for {options['seconds']:g} s), submission to decided game:"
        )
        twentieths = statistics.quantiles(latencies, n=20, method="inclusive")  # p50 is the 10th, p95 the 19th
        self.stdout.write(
            f"               p50 {twentieths[9] * 1000:7.1f} ms, "
            f"p95 {twentieths[18] * 1000:7.1f} ms, max {max(latencies) * 1000:7.1f} ms"
        )

    def _require_judged(self, log_ids: list[int], phase: str) -> None:
        judged = MatchLog.objects.filter(pk__in=log_ids).exclude(status=MatchLog.Status.PENDING).count()
        if judged != len(log_ids):
            raise CommandError(f"only {judged} of {len(log_ids)} logs were judged in {phase}")

    def _latency(self, rate: float, seconds: float, hostname: str, matches: list[int]) -> tuple[list[float], float]:
        """Submit organiser's logs at `rate` a second for `seconds`; each one's seconds from submission to decision.

        The games and their logs are made before the clock starts, so the
        submitting loop does nothing but `log_submit` (which queues the
        verification when its transaction commits) and wait for the next
        slot. Returns the latencies and the rate actually offered.
        """
        total = max(2, round(rate * seconds))  # two at least: a percentile needs two points
        games, made = games_with_logs_create(total, seed_base=500_000)
        matches.extend(made)
        organiser = bench_organiser()
        reply = celery_app.control.add_consumer(SUBMISSION_QUEUE, destination=[hostname], reply=True, timeout=10)
        if not reply:
            raise CommandError(f"worker {hostname} did not answer; is it running on {celery_app.conf.broker_url}?")
        log_ids = []
        started = time.perf_counter()
        for number, (game_id, data) in enumerate(games):
            wait = started + number / rate - time.perf_counter()
            if wait > 0:
                time.sleep(wait)
            log, _ = log_submit(game_id=game_id, data=data, user=organiser)
            log_ids.append(log.pk)
        offered = total / max(time.perf_counter() - started, 1 / rate)
        deadline = time.monotonic() + 120
        while MatchLog.objects.filter(pk__in=log_ids, status=MatchLog.Status.PENDING).exists():
            if time.monotonic() > deadline:
                raise CommandError("the latency phase's logs were not all judged within 120 s")
            time.sleep(0.1)
        celery_app.control.cancel_consumer(SUBMISSION_QUEUE, destination=[hostname], reply=True, timeout=10)
        self._require_judged(log_ids, "the latency phase")
        rows = MatchLog.objects.filter(pk__in=log_ids).values_list("submitted_at", "game__decided_at", "game__status")
        settled = (Game.Status.DECIDED, Game.Status.VOID)  # a simulated deadlock voids its game, decided too
        undecided = [status for _submitted, _decided, status in rows if status not in settled]
        if undecided:
            raise CommandError(f"{len(undecided)} of the latency phase's games were not decided: {undecided[:5]}")
        return [(decided - submitted) / timedelta(seconds=1) for submitted, decided, _status in rows], offered

    def _measure(self, task: Task, log_ids: list[int], hostname: str) -> float:
        """Tasks per second while the worker works through a queue holding one task per id.

        The clock starts when the worker takes the first message (it picks up a
        new queue on its next poll, up to a second later) and stops at the first
        of two polls in a row that find the queue empty and no message
        unacknowledged (one is not enough: a message being handed over shows in
        neither for an instant). Both
        phases stop the same way: with `acks_late` a verification's message is
        acknowledged after its transaction committed. (Polling the database for
        pending logs instead would load the machine while the worker runs, a
        query over every id of the batch each poll, which the no-op phase does
        not pay.) The rate counts the messages still queued when
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
