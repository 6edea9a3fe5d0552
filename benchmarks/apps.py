from django.apps import AppConfig


class BenchmarksConfig(AppConfig):
    """Benchmark commands and their tooling, kept out of the production apps.

    Installed everywhere (it has no models) so its commands and its no-op
    task are there on any deployment that wants to measure itself.
    """

    default_auto_field = "django.db.models.BigAutoField"
    name = "benchmarks"
