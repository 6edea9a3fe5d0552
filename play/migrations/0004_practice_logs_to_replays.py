import hashlib

from django.db import migrations


def _practice_logs_to_replays(apps, schema_editor):
    """Each practice table's own log becomes a replays row (provenance "practice", no game), pending.

    Stored verbatim and left pending: the beat's `replays.logs_resend_pending` sends it to the workers,
    which verify it and give it its verdict like every other log (the engine is not run here).
    """
    Table = apps.get_model("play", "Table")
    MatchLog = apps.get_model("replays", "MatchLog")
    for table in Table.objects.filter(game__isnull=True, practice_log__isnull=False, log__isnull=True).iterator():
        data = bytes(table.practice_log)
        table.log = MatchLog.objects.create(
            game=None, data=data, size=len(data), sha256=hashlib.sha256(data).hexdigest(), provenance="practice"
        )
        table.save(update_fields=["log"])


def _replays_to_practice_logs(apps, schema_editor):
    """Back: the bytes return to the table (its code from the row's verdict); the rows go."""
    Table = apps.get_model("play", "Table")
    MatchLog = apps.get_model("replays", "MatchLog")
    for table in Table.objects.filter(game__isnull=True, log__isnull=False).select_related("log").iterator():
        log = table.log
        table.practice_log, table.practice_log_code, table.log = bytes(log.data), log.code, None
        table.save(update_fields=["practice_log", "practice_log_code", "log"])
        MatchLog.objects.filter(pk=log.pk).delete()


class Migration(migrations.Migration):

    dependencies = [
        ("play", "0003_presence_timers"),
        ("replays", "0012_practice_logs"),
    ]

    operations = [migrations.RunPython(_practice_logs_to_replays, _replays_to_practice_logs)]
