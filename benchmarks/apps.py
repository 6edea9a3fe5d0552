from django.apps import AppConfig


class BenchmarksConfig(AppConfig):
    """Benchmark commands and their tooling, kept out of the production apps.

    Installed only in development, in the tests, or with SPEED_BENCHMARKS=1
    (`speedsite.settings`): a deployment that wants to measure itself asks for
    it, on the web process and its workers alike (the no-op task lives here).
    """

    default_auto_field = "django.db.models.BigAutoField"
    name = "benchmarks"
