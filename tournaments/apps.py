from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "tournaments"

    def ready(self) -> None:
        # A decided match reaches ratings and tournament advancement through the
        # listener registry of the app below (matches never imports tournaments).
        from matches.listeners import on_match_finished, provide_match_organisers  # noqa: PLC0415 - apps load only now

        from .selectors import match_organiser_ids  # noqa: PLC0415
        from .services import tournament_match_decided  # noqa: PLC0415

        on_match_finished(tournament_match_decided)
        # Who a dispute's email goes to: the tournament's organiser.
        provide_match_organisers(match_organiser_ids)
