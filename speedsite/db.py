"""Fewer round trips to PostgreSQL on the verification pipeline's hot path.

A verification is a handful of short statements; waiting for each one's answer
costs the worker more than PostgreSQL spends running it. On PostgreSQL (with
Django's default client-side parameter binding) several statements can go in
one query string: the server runs them one after the other, each with its own
snapshot in READ COMMITTED, and stops at the first error (the transaction is
then aborted, as with separate statements). SQLite takes one at a time.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.db import connection


def multi_statement() -> bool:
    """Whether one `execute` may carry several statements on this connection."""
    return (
        connection.vendor == "postgresql" and connection.settings_dict["OPTIONS"].get("server_side_binding") is not True
    )


class Writes:
    """Writes of one transaction, sent together when flushed (one round trip on PostgreSQL).

    Flush before anything that reads what they write, and before the transaction ends.
    """

    def __init__(self) -> None:
        self._statements: list[tuple[str, Sequence[Any]]] = []

    def add(self, sql: str, params: Sequence[Any]) -> None:
        self._statements.append((sql, params))

    def flush(self) -> None:
        statements, self._statements = self._statements, []
        if not statements:
            return
        with connection.cursor() as cursor:
            if len(statements) > 1 and multi_statement():
                cursor.execute(";".join(sql for sql, _ in statements), [p for _, params in statements for p in params])
            else:
                for sql, params in statements:
                    cursor.execute(sql, params)
