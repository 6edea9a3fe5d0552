"""`manage.py audit_records`: recompute every derived number from its sources and print each difference.

Exit status 0 when the records agree, 1 when any difference was found.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError

from tournaments.audit import audit_records


class Command(BaseCommand):
    help = (
        "Recompute match results from games, tournament pairings, standings and placings from matches, "
        "and ratings from scratch; print every difference and exit 1 if there is any."
    )

    def handle(self, *args: Any, **options: Any) -> None:
        audit = audit_records()
        checked = ", ".join(f"{count} {name}" for name, count in audit.checked.items())
        for difference in audit.differences:
            self.stdout.write(str(difference))
        if audit.differences:
            raise CommandError(
                f"{len(audit.differences)} difference(s) between the records and their sources (checked {checked}).",
                returncode=1,
            )
        self.stdout.write(self.style.SUCCESS(f"No differences (checked {checked})."))
