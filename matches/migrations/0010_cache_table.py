"""The database cache's table, so that a deploy that runs `migrate` cannot forget `createcachetable`."""

from django.db import migrations


def create(apps, schema_editor):
    from core.cache_table import cache_table_create

    cache_table_create(database=schema_editor.connection.alias)


class Migration(migrations.Migration):
    dependencies = [("matches", "0009_forfeit")]
    operations = [migrations.RunPython(create, migrations.RunPython.noop)]
