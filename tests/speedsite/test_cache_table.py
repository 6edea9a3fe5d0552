"""The database cache's table: `migrate` makes it, and `check --deploy` fails without it."""

from __future__ import annotations

from importlib import import_module

import pytest
from django.core.cache import caches
from django.db import connection
from django.test import override_settings

from core.cache_table import cache_table_check, cache_table_create

pytestmark = pytest.mark.django_db

TABLE = "speed_cache_check_test"
DATABASE_CACHE = {"default": {"BACKEND": "django.core.cache.backends.db.DatabaseCache", "LOCATION": TABLE}}


def _tables() -> list[str]:
    with connection.cursor() as cursor:
        return connection.introspection.table_names(cursor)


@override_settings(CACHES=DATABASE_CACHE)
def test_the_check_names_a_database_cache_without_its_table_then_passes_once_it_is_made() -> None:
    assert TABLE not in _tables()
    (error,) = cache_table_check()
    assert error.id == "speed.E001" and TABLE in error.msg and "migrate" in error.hint

    cache_table_create(database="default")
    assert TABLE in _tables()
    assert cache_table_check() == []
    caches["default"].set("throttle", 1)  # the table works as a cache
    assert caches["default"].get("throttle") == 1


def test_the_migration_makes_the_table_of_the_cache_the_settings_name() -> None:
    """Run as `migrate` runs it: the matches migration calls the same function with the database's alias."""
    migration = import_module("matches.migrations.0010_cache_table")

    class Editor:
        connection = connection

    with override_settings(CACHES=DATABASE_CACHE):
        migration.create(None, Editor())
        assert TABLE in _tables()


def test_a_cache_that_is_not_the_database_needs_no_table() -> None:
    with override_settings(CACHES={"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}):
        assert cache_table_check() == []
