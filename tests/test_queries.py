"""`tests.queries`: a test's stand-in savepoints are not counted; the code's own nested ones are."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Group
from django.db import transaction

from tests.queries import assert_database_query_count, database_queries, production_statements

OUTER = ['SAVEPOINT "s1_x1"', "SELECT 1", 'RELEASE SAVEPOINT "s1_x1"']


def test_the_outermost_savepoint_of_a_test_transaction_is_left_out() -> None:
    assert production_statements(OUTER, in_test_transaction=True) == ["SELECT 1"]


def test_a_nested_savepoint_counts_as_production_sends_it() -> None:
    statements = [
        'SAVEPOINT "s1_x1"',
        'SAVEPOINT "s1_x2"',
        "INSERT 1",
        'ROLLBACK TO SAVEPOINT "s1_x2"',
        'RELEASE SAVEPOINT "s1_x2"',
        'RELEASE SAVEPOINT "s1_x1"',
        'SAVEPOINT "s1_x3"',  # a second outermost atomic: a second transaction in production
        "SELECT 2",
        'RELEASE SAVEPOINT "s1_x3"',
    ]
    assert production_statements(statements, in_test_transaction=True) == [
        'SAVEPOINT "s1_x2"',
        "INSERT 1",
        'ROLLBACK TO SAVEPOINT "s1_x2"',
        'RELEASE SAVEPOINT "s1_x2"',
        "SELECT 2",
    ]


def test_outside_a_test_transaction_every_savepoint_is_real() -> None:
    assert production_statements(OUTER, in_test_transaction=False) == OUTER


@pytest.mark.django_db
def test_a_count_that_differs_lists_every_statement() -> None:
    counting = assert_database_query_count(2)
    with pytest.raises(AssertionError, match=r"1 statements, expected 2:\n1\. SELECT"), counting, transaction.atomic():
        Group.objects.filter(name="x").exists()
    with assert_database_query_count(1), transaction.atomic():
        Group.objects.filter(name="x").exists()


@pytest.mark.django_db
def test_the_statements_counted_are_the_blocks_as_production_sends_them() -> None:
    with database_queries() as statements, transaction.atomic():
        Group.objects.filter(name="x").exists()
        Group.objects.filter(name="y").exists()
    assert len(statements) == 2 and all(sql.startswith("SELECT") for sql in statements)
