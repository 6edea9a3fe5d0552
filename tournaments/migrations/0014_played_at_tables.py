from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0013_tournament_auto_approve"),
    ]

    operations = [
        migrations.AddField(
            model_name="tournament",
            name="played_at_tables",
            field=models.BooleanField(default=False),
        ),
        migrations.AddField(
            model_name="tournament",
            name="advance_automatically",
            field=models.BooleanField(default=False),
        ),
    ]
