"""Each format's options move from a column per option of every format into one JSON object, `Tournament.options`.

Every existing tournament keeps the values its format reads (and only those:
the other columns were ignored). The names are frozen here, as the formats
declared them when this migration was written; backwards, the columns come
back with their defaults and are filled from the object.
"""

from django.db import migrations, models

#: Each format's options as they were stored in columns.
OPTIONS_OF_FORMAT = {
    "single_elimination": ("seeding", "rng_seed", "third_place"),
    "double_elimination": ("seeding", "rng_seed", "grand_final_reset"),
    "round_robin": ("double_round_robin",),
    "swiss": ("swiss_rounds",),
    "winner_stays_on": ("ruleset_three", "ruleset_four", "points_three", "points_four", "max_matches", "table_size"),
    "groups_playoffs": ("group_count", "advance_per_group", "double_round_robin", "third_place"),
    "tables": ("ruleset_three", "ruleset_four", "points_three", "points_four", "table_rounds", "final_table_size"),
}
#: A ruleset column left empty meant its preset; the object then leaves the name out (its default).
LEFT_OUT_WHEN_NULL = ("ruleset_three", "ruleset_four")
COLUMNS = sorted({name for names in OPTIONS_OF_FORMAT.values() for name in names})


def options_from_columns(apps, schema_editor):
    Tournament = apps.get_model("tournaments", "Tournament")
    rows = list(Tournament.objects.only("pk", "format", *COLUMNS))
    for row in rows:
        row.options = {
            name: getattr(row, name)
            for name in OPTIONS_OF_FORMAT.get(row.format, ())
            if not (name in LEFT_OUT_WHEN_NULL and getattr(row, name) is None)
        }
    Tournament.objects.bulk_update(rows, ["options"], batch_size=500)


def columns_from_options(apps, schema_editor):
    Tournament = apps.get_model("tournaments", "Tournament")
    rows = list(Tournament.objects.only("pk", "options", *COLUMNS))
    for row in rows:
        for name, value in (row.options or {}).items():
            if name in COLUMNS:
                setattr(row, name, value)
    Tournament.objects.bulk_update(rows, COLUMNS, batch_size=500)


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0007_winner_stays_on_table_size"),
    ]

    operations = [
        migrations.AddField(
            model_name="tournament",
            name="options",
            field=models.JSONField(blank=True, default=dict),
        ),
        migrations.RunPython(options_from_columns, columns_from_options),
        *(migrations.RemoveField(model_name="tournament", name=name) for name in COLUMNS),
    ]
