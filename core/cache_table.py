"""The database cache's table: made by `migrate`, and checked by `check --deploy`.

Without CACHE_URL, production caches in the database (throttles, the pages'
cache). Forgetting `createcachetable` used to make every throttled request
(`POST /api/token/` among them) a 500, so `migrate` makes the table itself and
`check --deploy` fails if it is still missing (CACHES changed after the
migration ran, or another database).
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.cache.backends.db import DatabaseCache
from django.core.checks import CheckMessage, Error, Tags, register
from django.core.management import call_command
from django.db import DatabaseError, connections, router


def cache_table_create(*, database: str) -> None:
    """`createcachetable` for `database`: does nothing for a table that exists or a cache that is not the database."""
    call_command("createcachetable", database=database, verbosity=0)


def _missing_tables() -> list[str]:
    missing = []
    for alias, config in settings.CACHES.items():
        if config["BACKEND"] != "django.core.cache.backends.db.DatabaseCache":
            continue
        table = config["LOCATION"]
        database = router.db_for_write(DatabaseCache(table, {}).cache_model_class)
        with connections[database].cursor() as cursor:
            if table not in connections[database].introspection.table_names(cursor):
                missing.append(f"{alias} ({table} in database {database})")
    return missing


@register(Tags.caches, deploy=True)
def cache_table_check(app_configs: Any = None, **kwargs: Any) -> list[CheckMessage]:
    try:
        missing = _missing_tables()
    except DatabaseError:
        # A check run where the database is not reachable (an image's build step) cannot know, and says
        # nothing: `migrate`, which needs the database, makes the table.
        return []
    return [
        Error(
            f"The database cache {name} has no table: throttled requests would fail.",
            hint="Run `python manage.py migrate` (it makes the table) or `python manage.py createcachetable`.",
            id="speed.E001",
        )
        for name in missing
    ]
