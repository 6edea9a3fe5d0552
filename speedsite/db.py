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

import contextlib
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any

from django.db import DEFAULT_DB_ALIAS, connections, transaction
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.backends.utils import CursorWrapper
from psycopg.pq import TransactionStatus


@dataclass
class _Pipeline:
    db: BaseDatabaseWrapper
    pipeline: Any  # psycopg.Pipeline
    shared: CursorWrapper
    deferred: set[int] = field(default_factory=set)  # ids of the cursors whose statements wait
    # The transaction runs without a BEGIN so far (see `atomic_pipeline`): the next Sync would commit it.
    implicit: bool = False

    def run_synchronously(self, execute: Any, sql: str, params: Any, many: bool, context: dict[str, Any]) -> Any:
        """Django execute wrapper: a statement not sent through a pipelined cursor waits for its answer."""
        if self.implicit and id(context["cursor"]) not in self.deferred:
            self.make_explicit()  # the Sync this statement waits with must not end the transaction
        result = execute(sql, params, many, context)
        if id(context["cursor"]) not in self.deferred:
            with self.db.wrap_database_errors:  # an error reads as Django's, as from execute()
                self.pipeline.sync()
        return result

    def make_explicit(self) -> None:
        """Send a BEGIN: PostgreSQL makes the transaction the pipeline opened, with what ran in it, an
        explicit one, which a Sync leaves open and only a COMMIT ends."""
        self.shared.cursor.execute("BEGIN")
        self.implicit = False


_current: ContextVar[_Pipeline | None] = ContextVar("statement_pipeline", default=None)


@contextmanager
def statement_pipeline() -> Iterator[None]:
    """Queue the statements of `pipelined_cursor()`s until a result is read or the block ends.

    An error in a queued statement surfaces at the next statement that waits,
    or when the block ends. Nested blocks join the outer one. When the block
    starts the transaction of the atomic block around it, the BEGIN goes out
    with the block's first statements (see `_begin_in_pipeline`).
    """
    with _pipeline(default_database(), commit=False):
        yield


@contextmanager
def atomic_pipeline() -> Iterator[None]:
    """`transaction.atomic()` around a `statement_pipeline()`: as the outermost atomic block on PostgreSQL,
    its transaction is the one the protocol itself gives a pipeline, with no BEGIN and no COMMIT.

    A transaction in a pipeline otherwise costs two round trips of its own:
    psycopg sends the BEGIN alone and waits for it, and the COMMIT, after the
    block's end sent the queued writes and waited for them. But in the extended
    query protocol every statement up to a Sync runs in one transaction, which
    the Sync commits, or rolls back if a statement failed (the server skips
    everything after an error until the Sync). Reads in between use flush
    requests, not Syncs, so the transaction, and its row locks, last until
    the block ends and sends its one Sync. So the block sends neither a BEGIN
    nor a COMMIT: two statements fewer for psycopg and for the server per
    transaction. What would let the Sync commit what must not be committed
    sends a ROLLBACK first: an exception in the block, or `set_rollback(True)`.
    A statement that waits for its answer (the ORM's) waits with a Sync, so it
    is preceded by a BEGIN (once), which makes the transaction, with all that
    ran in it, an explicit one that ends with a COMMIT as usual.
    Django still runs the transaction: its `on_commit` callbacks, its savepoints
    for nested atomic blocks (each an ORM statement), its rollback. Nested in
    an atomic block, it is an ordinary savepoint around a statement pipeline.
    """
    db = default_database()
    with transaction.atomic(), _pipeline(db, commit=len(db.atomic_blocks) == 1):
        yield


def default_database() -> BaseDatabaseWrapper:
    """The default database's connection, to look up once per call on a hot path: each attribute
    read through the `django.db.connection` proxy looks the connection up again, which costs more
    than the read (about a tenth of a verification's work, when the hot path read it so)."""
    return connections[DEFAULT_DB_ALIAS]


@contextmanager
def _pipeline(db: BaseDatabaseWrapper, *, commit: bool) -> Iterator[None]:
    if db.vendor != "postgresql" or _current.get() is not None:
        yield
        return
    db.ensure_connection()
    raw = db.connection
    began = _begin_in_pipeline(db, raw)
    committed = False
    try:
        # wrap_database_errors: a queued statement's error, raised as the block ends, reads as Django's
        with db.wrap_database_errors, db.cursor() as shared, raw.pipeline() as pipeline:
            # The raw cursor for BEGIN, COMMIT and ROLLBACK: psycopg's own statements, not the block's
            # (Django records none).
            state = _Pipeline(db=db, pipeline=pipeline, shared=shared, deferred={id(shared)}, implicit=began)
            if began and not commit:  # the transaction goes on after the block (and its Sync) ends
                state.make_explicit()
            token = _current.set(state)
            try:
                with db.execute_wrapper(state.run_synchronously):
                    yield
            except BaseException:
                if state.implicit:  # the Sync as the pipeline ends must not commit what the block queued
                    _rollback_quietly(shared)
                raise
            finally:
                _current.reset(token)
            # Django's commit then finds nothing open; on a rollback it sends its own ROLLBACK.
            if began and commit and db.needs_rollback:
                if state.implicit:
                    _rollback_quietly(shared)
            elif began and commit:
                if not state.implicit:
                    shared.cursor.execute("COMMIT")  # sent with the queued writes
                committed = True  # (implicit: the Sync as the pipeline ends commits)
    finally:
        # Nothing left open: psycopg begins as before. (After the commit the atomic block ends
        # at once, and Django turns autocommit on itself; after an error Django rolls back.)
        if began and not committed and not raw.closed and raw.pgconn.transaction_status == TransactionStatus.IDLE:
            raw.autocommit = False


def _rollback_quietly(shared: CursorWrapper) -> None:
    """Queue a ROLLBACK of the pipeline's implicit transaction. If the pipeline already failed,
    psycopg refuses it, and the server, which skips all until the Sync, rolls back anyway."""
    with contextlib.suppress(Exception):
        shared.cursor.execute("ROLLBACK")  # (outside a BEGIN, PostgreSQL warns, and aborts all the same)


def _begin_in_pipeline(db: BaseDatabaseWrapper, raw: Any) -> bool:
    """Whether the block starts its atomic block's transaction itself (in the pipeline's own
    transaction, or with a queued BEGIN; see `atomic_pipeline`).

    psycopg begins a transaction at its first statement and, in pipeline mode,
    sends that BEGIN alone and waits for it: a round trip of its own, which
    wakes both processes once more per transaction. So when nothing of the
    atomic block's transaction was sent yet, psycopg is switched to autocommit
    (no I/O while idle outside pipeline mode) and the block runs the
    transaction itself: without a BEGIN, or with a queued one.
    Django's view is unchanged: psycopg sends COMMIT or ROLLBACK for an open
    transaction whatever its autocommit, and when the atomic block ends Django
    turns autocommit on, as after any transaction.
    """
    if not db.in_atomic_block or raw.autocommit or raw.isolation_level is not None or raw.read_only is not None:
        return False
    if raw.pgconn.transaction_status != TransactionStatus.IDLE:
        return False  # the transaction is already open
    raw.autocommit = True
    return True


@contextmanager
def pipelined_cursor(*, shared: bool = True) -> Iterator[CursorWrapper]:
    """A cursor whose statements wait in the current pipeline (an ordinary cursor outside one).

    A cursor keeps only its last statement's result: read it before the next
    statement, or take a cursor of one's own (`shared=False`) to send several
    reads at once. The shared cursor saves creating one per statement.
    """
    state = _current.get()
    if state is None:
        with default_database().cursor() as cursor:
            yield cursor
        return
    if shared:
        yield state.shared
        return
    with state.db.cursor() as cursor:
        state.deferred.add(id(cursor))
        try:
            yield cursor
        finally:
            state.deferred.discard(id(cursor))
