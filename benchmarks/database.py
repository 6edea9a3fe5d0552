"""What the benchmarks do to their database between filling it and measuring it."""

from __future__ import annotations

from collections.abc import Iterable

from django.db import connection, models


def vacuum_analyze(tables: Iterable[type[models.Model]]) -> None:
    """Statistics and visibility maps for the tables just filled, as autovacuum leaves them within a minute.

    A benchmark's database starts empty and fills in seconds: without this PostgreSQL
    plans from the statistics of tables that were nearly empty a moment ago (a
    sequential scan joined to thousands of rows it expected a few of; a worker's
    prepared statements keep such plans per connection), and counts read every row's
    page: a state no server stays in, and figures slower than they are.
    """
    if connection.vendor != "postgresql":
        return
    with connection.cursor() as cursor:
        for model in tables:
            cursor.execute(f"VACUUM ANALYZE {connection.ops.quote_name(model._meta.db_table)}")
