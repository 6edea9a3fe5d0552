from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0012_start_entry"),
    ]

    operations = [
        migrations.AddField(
            model_name="tournament",
            name="auto_approve",
            field=models.BooleanField(default=False),
        ),
    ]
