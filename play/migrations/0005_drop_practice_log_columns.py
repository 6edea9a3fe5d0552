from django.db import migrations


class Migration(migrations.Migration):
    # A migration of its own: PostgreSQL refuses to alter a table with the data move's deferred checks pending.

    dependencies = [
        ("play", "0004_practice_logs_to_replays"),
    ]

    operations = [
        migrations.RemoveField(model_name="table", name="practice_log"),
        migrations.RemoveField(model_name="table", name="practice_log_code"),
    ]
