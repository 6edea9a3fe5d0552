"""Reads of the table pages: a table with its game and match (one query), the practice table of a log."""

from __future__ import annotations

from play.models import Table


def table_for_page(*, table_id: int) -> Table | None:
    """The table and, for a match's table, its game and match (for the page's heading and link)."""
    return Table.objects.select_related("game__match").filter(pk=table_id).first()


def practice_table_of_log(*, log_id: int) -> Table | None:
    """The practice table that stored this log (its players, ruleset and how it ended), or None."""
    return Table.objects.filter(log_id=log_id, game__isnull=True).first()
