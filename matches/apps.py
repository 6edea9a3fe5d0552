from django.apps import AppConfig


class MatchesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "matches"

    def ready(self) -> None:
        # Registers the deploy check of the database cache's table (speedsite has no app of its own).
        from core import cache_table  # noqa: F401, PLC0415 - the Django idiom: checks register in ready()
