from django.apps import AppConfig


class ReplaysConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "replays"

    def ready(self) -> None:
        # matches decides games from evidence; what a game's logs say, it asks this app
        # through its registry (matches never imports replays).
        from matches.listeners import provide_game_log_evidence  # noqa: PLC0415 - apps are loaded only now

        from .evidence import game_log_claims  # noqa: PLC0415

        provide_game_log_evidence(game_log_claims)
