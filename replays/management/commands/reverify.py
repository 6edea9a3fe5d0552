"""`manage.py reverify [--all|--since DATE|--code CODE|--pending] [--force]`: judge stored logs again.

Sends the chosen logs to the workers (in-process without a broker), shows
progress while they are judged, and reports how many verdicts changed. After
an engine upgrade, logs judged by an older engine version are re-judged; a log
already judged by the running version is skipped unless --force.
"""

from __future__ import annotations

import time
from datetime import datetime
from datetime import time as dtime
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils import timezone
from django.utils.dateparse import parse_date, parse_datetime

from replays.models import MatchLog
from replays.selectors import logs_for_reverification
from replays.services import logs_enqueue_verification
from speedrules import ENGINE_VERSION

BATCH = 500

Snapshot = tuple[str, str, int | None, int | None]


def _parse_since(value: str) -> datetime:
    moment = parse_datetime(value)
    if moment is None:
        day = parse_date(value)
        if day is None:
            raise CommandError(f"--since {value!r} is not a date (YYYY-MM-DD) or a date-time (ISO 8601).")
        moment = datetime.combine(day, dtime.min)
    if timezone.is_naive(moment):
        moment = timezone.make_aware(moment)
    return moment


class Command(BaseCommand):
    help = "Re-verify stored logs in the workers and report how many verdicts changed."

    def add_arguments(self, parser: CommandParser) -> None:
        which = parser.add_argument_group("which logs (give at least one; several combine with AND)")
        which.add_argument("--all", action="store_true", help="every stored log")
        which.add_argument("--since", metavar="DATE", help="logs submitted on or after DATE (YYYY-MM-DD or ISO)")
        which.add_argument("--code", metavar="CODE", help="logs whose verdict code is CODE (ok, no_fit, failed…)")
        which.add_argument("--pending", action="store_true", help="logs still pending (e.g. the broker was down)")
        parser.add_argument(
            "--force", action="store_true", help=f"also re-judge logs already judged by engine {ENGINE_VERSION}"
        )
        parser.add_argument("--timeout", type=float, default=3600, help="seconds to wait for the workers")

    def handle(self, *args: Any, **options: Any) -> None:
        since = _parse_since(options["since"]) if options["since"] else None
        if not (options["all"] or since or options["code"] or options["pending"]):
            raise CommandError("Say which logs: --all, --since DATE, --code CODE or --pending.")
        selected = logs_for_reverification(
            all_logs=options["all"], since=since, code=options["code"], pending=options["pending"]
        )
        force = options["force"]
        if not force:
            # Pending logs are always sent; judged ones only if an older engine judged them.
            selected = selected.exclude(
                status__in=[MatchLog.Status.VERIFIED, MatchLog.Status.REJECTED], engine_version=ENGINE_VERSION
            )
        before: dict[int, Snapshot] = {
            row[0]: row[1:] for row in selected.values_list("id", "status", "code", "event", "winner_seat")
        }
        total = len(before)
        if total == 0:
            self.stdout.write(f"No logs to re-verify (engine {ENGINE_VERSION}; --force re-judges judged ones).")
            return
        self.stdout.write(f"Re-verifying {total} logs with engine {ENGINE_VERSION}…")
        started = timezone.now()
        ids = list(before)
        for offset in range(0, total, BATCH):
            logs_enqueue_verification(log_ids=ids[offset : offset + BATCH], force=force)
        done = self._wait(ids, started, total, options["timeout"])
        after: dict[int, Snapshot] = {
            row[0]: row[1:]
            for row in MatchLog.objects.filter(pk__in=ids).values_list("id", "status", "code", "event", "winner_seat")
        }
        changed = [log_id for log_id in ids if log_id in after and after[log_id] != before[log_id]]
        for log_id in changed[:20]:
            old, new = before[log_id], after[log_id]
            self.stdout.write(f"  log {log_id}: {old[0]} {old[1] or '-'} @{old[2]} -> {new[0]} {new[1]} @{new[2]}")
        if len(changed) > 20:
            self.stdout.write(f"  … and {len(changed) - 20} more")
        summary = f"{done} of {total} logs re-verified; {len(changed)} verdicts changed."
        self.stdout.write(self.style.SUCCESS(summary) if done == total else self.style.WARNING(summary))
        if done < total:
            raise CommandError(f"{total - done} logs were not judged within {options['timeout']}s; are workers up?")

    def _wait(self, ids: list[int], started: datetime, total: int, timeout: float) -> int:
        deadline = time.monotonic() + timeout
        last_report = -1
        while True:
            done = 0
            for offset in range(0, total, 5000):
                done += MatchLog.objects.filter(pk__in=ids[offset : offset + 5000], verified_at__gte=started).count()
            if done != last_report:
                self.stdout.write(f"  {done}/{total} judged ({100 * done // total}%)")
                last_report = done
            if done >= total or time.monotonic() > deadline:
                return done
            time.sleep(0.5)
