from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("replays", "0003_matchlog_cards_left"),
    ]

    operations = [
        # Rows cached before the compact form have no legend and are recomputed on their next view.
        migrations.AddField(
            model_name="replaysteps",
            name="legend",
            field=models.JSONField(default=dict),
        ),
    ]
