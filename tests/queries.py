"""Counting a block's SQL statements as production runs them (Zulip's `assert_database_query_count`).

A test that runs in a transaction (`django_db` without `transaction=True`)
turns each outermost `transaction.atomic()` of the code under test into a
SAVEPOINT and its RELEASE (or ROLLBACK TO): in production that atomic is the
transaction itself, a BEGIN and a COMMIT that Django does not send as
statements (psycopg begins implicitly; the commit is the connection's). So
those savepoints are not counted; a savepoint nested inside the code's own
atomic is real in production too, and counts. When the count differs, the
assertion lists every statement counted.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager

from django.db import DEFAULT_DB_ALIAS, connections
from django.test.utils import CaptureQueriesContext

_SAVEPOINT = re.compile(r'^\s*(SAVEPOINT|RELEASE SAVEPOINT|ROLLBACK TO SAVEPOINT)\s+"?(\w+)"?\s*$', re.IGNORECASE)


def production_statements(statements: list[str], *, in_test_transaction: bool) -> list[str]:
    """The statements less the savepoints that stand for an outermost atomic's BEGIN and COMMIT."""
    if not in_test_transaction:
        return statements
    counted: list[str] = []
    open_savepoints: list[str] = []  # innermost last; the first is the outermost atomic's stand-in
    for sql in statements:
        found = _SAVEPOINT.match(sql)
        if found is None:
            counted.append(sql)
            continue
        verb, name = found.group(1).upper(), found.group(2)
        outermost = (open_savepoints[:1] == [name]) if verb != "SAVEPOINT" else not open_savepoints
        if verb == "SAVEPOINT":
            open_savepoints.append(name)
        elif verb == "RELEASE SAVEPOINT" and name in open_savepoints:
            del open_savepoints[open_savepoints.index(name) :]
        if not outermost:
            counted.append(sql)
    return counted


@contextmanager
def database_queries(*, using: str = DEFAULT_DB_ALIAS) -> Iterator[list[str]]:
    """The statements the block sends as production would: the list yielded is filled when the block ends.

    For a test that compares counts (two sizes of a page, a cold and a warm
    cache) or reads the statements; `assert_database_query_count` for one count.
    """
    connection = connections[using]
    in_test_transaction = connection.in_atomic_block
    statements: list[str] = []
    with CaptureQueriesContext(connection) as captured:
        yield statements
    statements.extend(
        production_statements(
            [query["sql"] for query in captured.captured_queries], in_test_transaction=in_test_transaction
        )
    )


@contextmanager
def assert_database_query_count(count: int, *, using: str = DEFAULT_DB_ALIAS) -> Iterator[list[str]]:
    """Assert the block sends exactly `count` statements as production would; list them all when it does not."""
    with database_queries(using=using) as statements:
        yield statements
    listing = "\n".join(f"{number}. {sql}" for number, sql in enumerate(statements, start=1))
    assert len(statements) == count, f"{len(statements)} statements, expected {count}:\n{listing}"
