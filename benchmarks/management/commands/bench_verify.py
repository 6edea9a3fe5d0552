"""`manage.py bench_verify`: what one verification costs in-process, Python and PostgreSQL apart.

    python manage.py bench_verify [--logs 1000]

Makes `--logs` pending logs as `bench_pipeline` does (a player's log of a
simulated game, the first game of a best-of-3), then calls
`replays.services.log_verify` on each in this process, and prints per log
the wall time, this process's CPU time and the CPU time of its PostgreSQL
backend (read from /proc, so only for a server on this machine). Unlike
`bench_pipeline` there is no worker and no broker: these are the figures a
change to the verification itself moves, for a worker's pool process and
for the server. The first 50 verifications warm up and are not counted.

On a shared machine the CPU times move by a fifth from run to run. For a
figure that does not, count instructions (the Python side only): make two
sets of pending logs (`--logs 20 --make-only A`, `--logs 120 --make-only B`),
then run `valgrind --tool=callgrind python manage.py bench_verify --ids A`
and the same with `--ids B`; the difference of the two totals, over 100, is
one verification's instructions. Logs verified from `--ids` stay in the database.
"""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import connection

from benchmarks.pending_logs import pending_logs_create, pending_logs_delete
from replays.models import MatchLog
from replays.services import log_verify

WARM_UP = 50


def _backend_cpu_seconds(pid: int) -> float | None:
    """User and system CPU time of a process of this machine, or None when it is not one (a remote server)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class Command(BaseCommand):
    help = "Print the wall time, Python CPU and PostgreSQL CPU of one log verification, in-process."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--logs", type=int, default=1000, help="verifications to time (after 50 to warm up)")
        parser.add_argument(
            "--ids",
            metavar="FILE",
            help="verify the pending logs listed in FILE (written by --make-only) instead of making new ones",
        )
        parser.add_argument("--make-only", metavar="FILE", help="make the logs, write their ids to FILE, stop")

    def handle(self, *args: Any, **options: Any) -> None:
        count = options["logs"] + WARM_UP
        if options["ids"]:
            log_ids = [int(word) for word in Path(options["ids"]).read_text().split()][:count]
            match_ids: list[int] = []
        else:
            log_ids, match_ids = pending_logs_create(count, seed_base=int(time.time()) % 100_000 * 100)
            if options["make_only"]:
                Path(options["make_only"]).write_text(" ".join(map(str, log_ids)))
                self.stdout.write(f"{len(log_ids)} pending logs; their ids are in {options['make_only']}")
                return
        if len(log_ids) <= WARM_UP:
            raise CommandError(f"more than {WARM_UP} logs are needed ({WARM_UP} warm up)")
        pending = MatchLog.objects.filter(pk__in=log_ids, status=MatchLog.Status.PENDING).count()
        if pending != len(log_ids):
            raise CommandError(f"{len(log_ids) - pending} of the {len(log_ids)} logs are not pending")
        try:
            for log_id in log_ids[:WARM_UP]:
                log_verify(log_id=log_id)
            timed = log_ids[WARM_UP:]
            with connection.cursor() as cursor:
                cursor.execute("SELECT pg_backend_pid()")
                (backend,) = cursor.fetchone()
            server_before = _backend_cpu_seconds(backend)
            wall, cpu = time.perf_counter(), time.process_time()
            for log_id in timed:
                log_verify(log_id=log_id)
            wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
            server_after = _backend_cpu_seconds(backend)
        finally:
            if match_ids:
                pending_logs_delete(match_ids)
        per_log = 1000 / len(timed)
        self.stdout.write(f"verifications:  {len(timed)} (a player's log each, awaiting the opponent's confirmation)")
        self.stdout.write(f"wall time:      {wall * per_log:6.3f} ms per log")
        self.stdout.write(f"this process:   {cpu * per_log:6.3f} ms of CPU per log (Python, psycopg, the engine)")
        if server_before is None or server_after is None:
            self.stdout.write("PostgreSQL:     not on this machine; its CPU time is not measured")
        else:
            self.stdout.write(f"PostgreSQL:     {(server_after - server_before) * per_log:6.3f} ms of CPU per log")
