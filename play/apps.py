from django.apps import AppConfig


class PlayConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "play"
    verbose_name = "Play at a table"

    def ready(self) -> None:
        # A tournament played at the tables: a game made playable below (a match called, its last game
        # decided) opens its table here, through the registry of the app below (no signals, no imports up).
        from matches.listeners import on_game_playable  # noqa: PLC0415 - apps load only now

        from .services.called import table_open_for_playable_game  # noqa: PLC0415

        on_game_playable(table_open_for_playable_game)
