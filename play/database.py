"""Where a table's database work runs: a few threads, each table always on the same one.

Channels' `database_sync_to_async` runs every call in the process's one sync
thread, so one table's round trips to PostgreSQL queue behind every other
table's. Tables are independent (each change is serialised by its own row's
lock, in the database), so a process runs them on `SPEED_TABLE_DB_THREADS`
single-thread executors instead, table *t* always on executor *t* mod N: while
one thread waits on PostgreSQL, another runs, and one table's calls still run
one at a time on one thread, as the per-thread game cache (`services.live`)
needs. Each thread keeps its own connection (Django's are per thread); asgiref
takes the executor as documented (`thread_sensitive=False, executor=...`), and
Channels' `close_old_connections` still runs around every call.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from typing import ParamSpec, TypeVar

from channels.db import database_sync_to_async
from django.conf import settings

P = ParamSpec("P")
R = TypeVar("R")

_executors = [
    ThreadPoolExecutor(max_workers=1, thread_name_prefix=f"table-db-{index}")
    for index in range(max(1, int(settings.SPEED_TABLE_DB_THREADS)))
]


def on_table_thread(table_id: int, function: Callable[P, R]) -> Callable[P, Awaitable[R]]:
    """`function` as a coroutine function run on the table's own thread."""
    executor = _executors[table_id % len(_executors)]
    wrapped: Callable[P, Awaitable[R]] = database_sync_to_async(function, thread_sensitive=False, executor=executor)
    return wrapped
