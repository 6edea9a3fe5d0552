from django.apps import AppConfig


class WebConfig(AppConfig):
    """The server-rendered site: public pages, log submission, organiser pages and the replay viewer."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "web"
    verbose_name = "Site"
