"""Sending a transaction's statements to PostgreSQL together (psycopg's pipeline mode).

On the verification path most statements are writes whose results nobody
reads; waiting for each one's answer costs a round trip, which on a busy
machine wakes both processes. In a `statement_pipeline()`, statements sent
through `pipelined_cursor()` are queued and go out with the next read, or when
the block ends, in one round trip. Every other statement (the ORM's) still
waits for its own answer, because the ORM reads row counts and ids right after
executing, so code that knows nothing of the pipeline runs inside it unchanged.
On other databases (SQLite for the demo) statements run one by one.

The first round trip of a pipeline can go through libpq itself
(`pipelined_read`): its statements and the flush request leave in one write,
where psycopg's cursors write each statement as it is executed.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import logging
import select
import time
import weakref
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any

from django.db import DEFAULT_DB_ALIAS, connections, transaction
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.backends.utils import CursorWrapper
from psycopg.adapt import PyFormat, Transformer
from psycopg.errors import InvalidSqlStatementName, error_from_result
from psycopg.pq import ExecStatus, TransactionStatus

logger = logging.getLogger("django.db.backends")


@dataclass
class _Pipeline:
    db: BaseDatabaseWrapper
    pipeline: Any  # psycopg.Pipeline
    shared: CursorWrapper
    deferred: set[int] = field(default_factory=set)  # ids of the cursors whose statements wait
    # The transaction runs without a BEGIN so far (see `atomic_pipeline`): the next Sync would commit it.
    implicit: bool = False
    # Nothing went out in the pipeline yet: a read may go through libpq itself (see `pipelined_read`).
    untouched: bool = True

    def run_synchronously(self, execute: Any, sql: str, params: Any, many: bool, context: dict[str, Any]) -> Any:
        """Django execute wrapper: a statement not sent through a pipelined cursor waits for its answer."""
        self.untouched = False
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
    state.untouched = False
    if shared:
        yield state.shared
        return
    with state.db.cursor() as cursor:
        state.deferred.add(id(cursor))
        try:
            yield cursor
        finally:
            state.deferred.discard(id(cursor))


def pipelined_read(statements: Sequence[tuple[str, Sequence[Any]]]) -> tuple[Any, ...] | None:
    """Send `statements` together and return the first row of the last one's result (None: no row).

    The other statements' results are not read (a lock, say). As the first
    round trip of an `atomic_pipeline` that runs in the pipeline's own
    transaction (the outermost one, on PostgreSQL), the statements go through
    libpq itself: each prepared once per connection, then sent with the flush
    request in one write to the socket, and the results read back in one wait.
    A pipelined cursor writes each statement as it is executed and the flush
    request after them, three writes for two statements, each waking the
    server, and runs psycopg's cursor machinery for each (a verification's
    lock and load cost its process about 40% less CPU so). Anywhere else
    through a pipelined cursor. Django logs these statements as its own
    (`connection.queries`), but its execute wrappers do not see them.
    """
    state = _current.get()
    if state is None or not (state.untouched and state.implicit):
        with pipelined_cursor() as cursor:
            for sql, params in statements:
                cursor.execute(sql, params)
            return cursor.fetchone()
    state.untouched = False
    started = time.perf_counter()
    raw = state.db.connection
    try:
        row = _read_through_libpq(raw, statements)
    except InvalidSqlStatementName:
        # psycopg deallocates every prepared statement of a connection after a rollback. The
        # server skipped all after the error; a Sync ends the transaction, in which nothing
        # else ran, and the statements are prepared again.
        _PREPARED.pop(raw, None)
        _sync(raw.pgconn)
        row = _read_through_libpq(raw, statements)
    if state.db.queries_logged:
        duration = time.perf_counter() - started
        for sql, params in statements:
            state.db.queries_log.append({"sql": sql, "time": f"{duration:.3f}"})
            logger.debug("(%.3f) %s; args=%s; alias=%s", duration, sql, params, state.db.alias)
    return row


# The statements `pipelined_read` prepared on each psycopg connection (a new connection starts empty).
_PREPARED: weakref.WeakKeyDictionary[Any, set[bytes]] = weakref.WeakKeyDictionary()


@functools.lru_cache(maxsize=32)
def _prepared_form(sql: str) -> tuple[bytes, bytes]:
    """A statement's name (not psycopg's `_pg3_` ones) and its text with PostgreSQL's $1, $2... placeholders."""
    parts = sql.split("%s")
    if any("%" in part for part in parts):
        raise ValueError("pipelined_read takes %s placeholders only")
    numbered = "".join(f"{part}${number}" for number, part in enumerate(parts[:-1], start=1)) + parts[-1]
    return b"speed_" + hashlib.blake2b(sql.encode(), digest_size=8).hexdigest().encode(), numbered.encode()


def _read_through_libpq(raw: Any, statements: Sequence[tuple[str, Sequence[Any]]]) -> tuple[Any, ...] | None:
    """One round trip in the connection's pipeline, on which psycopg has nothing queued."""
    pgconn = raw.pgconn
    prepared = _PREPARED.setdefault(raw, set())
    transformer = Transformer(raw)
    commands: list[bytes | None] = []  # per command: the name it prepares, or None (a query)
    for sql, params in statements:
        name, numbered = _prepared_form(sql)
        if name not in prepared:
            pgconn.send_prepare(name, numbered)
            commands.append(name)
        pgconn.send_query_prepared(name, transformer.dump_sequence(params, [PyFormat.TEXT] * len(params)))
        commands.append(None)
    pgconn.send_flush_request()
    results = []
    with _Waiter(pgconn) as waiter:
        for _ in range(2 * len(commands)):  # each command's result, then the None that ends it
            if (result := waiter.next_result()) is not None:
                results.append(result)
    # A statement the server prepared stays prepared whatever failed after it.
    prepared.update(
        name for name, result in zip(commands, results, strict=True) if name and result.status == ExecStatus.COMMAND_OK
    )
    for result in results:
        if result.status == ExecStatus.FATAL_ERROR:  # the first error; the server skipped the rest
            raise error_from_result(result, encoding=raw.info.encoding)
    last = results[-1]
    if last.ntuples == 0:
        return None
    transformer.set_pgresult(last)
    return transformer.load_row(0, tuple)


def _sync(pgconn: Any) -> None:
    """Send a Sync and read up to its answer: the server ends the pipeline's transaction."""
    pgconn.pipeline_sync()
    with _Waiter(pgconn) as waiter:
        while (result := waiter.next_result()) is None or result.status != ExecStatus.PIPELINE_SYNC:
            pass


class _Waiter:
    """Flushes what libpq has queued, then hands out results as they arrive (waiting in poll())."""

    def __init__(self, pgconn: Any) -> None:
        self.pgconn = pgconn
        self.poller = select.poll()

    def __enter__(self) -> _Waiter:
        self.poller.register(self.pgconn.socket, select.POLLOUT)
        while self.pgconn.flush():
            self.poller.poll()
        self.poller.modify(self.pgconn.socket, select.POLLIN)
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.poller.unregister(self.pgconn.socket)

    def next_result(self) -> Any:
        while True:
            self.pgconn.consume_input()
            if not self.pgconn.is_busy():
                return self.pgconn.get_result()
            self.poller.poll()
