"""Each player's handle and display name as a reader sees them (matches.names), indexed."""

from django.db import migrations, models


def fill(apps, schema_editor):
    from matches.names import name_skeleton

    Player = apps.get_model("matches", "Player")
    batch = []
    for player in Player.objects.only("handle", "display_name").iterator(chunk_size=2000):
        player.handle_key = name_skeleton(player.handle)
        player.name_key = name_skeleton(player.display_name)
        batch.append(player)
        if len(batch) == 2000:
            Player.objects.bulk_update(batch, ["handle_key", "name_key"])
            batch = []
    Player.objects.bulk_update(batch, ["handle_key", "name_key"])


class Migration(migrations.Migration):
    dependencies = [("matches", "0010_cache_table")]
    operations = [
        migrations.AddField(
            model_name="player",
            name="handle_key",
            field=models.CharField(blank=True, db_index=True, max_length=400),
        ),
        migrations.AddField(
            model_name="player",
            name="name_key",
            field=models.CharField(blank=True, db_index=True, max_length=400),
        ),
        migrations.RunPython(fill, migrations.RunPython.noop),
    ]
