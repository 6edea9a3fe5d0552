"""Sending a transaction's statements to PostgreSQL together (psycopg's pipeline mode).

On the verification path most statements are writes whose results nobody
reads; waiting for each one's answer costs a round trip, which on a busy
machine wakes both processes. In a `statement_pipeline()`, statements sent
through `pipelined_cursor()` are queued and go out with the next read, or when
the block ends, in one round trip. Every other statement (the ORM's) still
waits for its own answer, because the ORM reads row counts and ids right after
executing, so code that knows nothing of the pipeline runs inside it unchanged.
On other databases (SQLite for the demo) statements run one by one.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any

from django.db import connection
from django.db.backends.utils import CursorWrapper


@dataclass
class _Pipeline:
    pipeline: Any  # psycopg.Pipeline
    shared: CursorWrapper
    deferred: set[int] = field(default_factory=set)  # ids of the cursors whose statements wait

    def run_synchronously(self, execute: Any, sql: str, params: Any, many: bool, context: dict[str, Any]) -> Any:
        """Django execute wrapper: a statement not sent through a pipelined cursor waits for its answer."""
        result = execute(sql, params, many, context)
        if id(context["cursor"]) not in self.deferred:
            with connection.wrap_database_errors:  # an error reads as Django's, as from execute()
                self.pipeline.sync()
        return result


_current: ContextVar[_Pipeline | None] = ContextVar("statement_pipeline", default=None)


@contextmanager
def statement_pipeline() -> Iterator[None]:
    """Queue the statements of `pipelined_cursor()`s until a result is read or the block ends.

    An error in a queued statement surfaces at the next statement that waits,
    or when the block ends. Nested blocks join the outer one.
    """
    if connection.vendor != "postgresql" or _current.get() is not None:
        yield
        return
    connection.ensure_connection()
    # wrap_database_errors: a queued statement's error, raised as the block ends, reads as Django's
    with connection.wrap_database_errors, connection.cursor() as shared, connection.connection.pipeline() as pipeline:
        state = _Pipeline(pipeline=pipeline, shared=shared, deferred={id(shared)})
        token = _current.set(state)
        try:
            with connection.execute_wrapper(state.run_synchronously):
                yield
        finally:
            _current.reset(token)


@contextmanager
def pipelined_cursor(*, shared: bool = True) -> Iterator[CursorWrapper]:
    """A cursor whose statements wait in the current pipeline (an ordinary cursor outside one).

    A cursor keeps only its last statement's result: read it before the next
    statement, or take a cursor of one's own (`shared=False`) to send several
    reads at once. The shared cursor saves creating one per statement.
    """
    state = _current.get()
    if state is None:
        with connection.cursor() as cursor:
            yield cursor
        return
    if shared:
        yield state.shared
        return
    with connection.cursor() as cursor:
        state.deferred.add(id(cursor))
        try:
            yield cursor
        finally:
            state.deferred.discard(id(cursor))
