"""The test settings with DEBUG off, as production runs: for server processes that must answer as production does.

With DEBUG on, Django answers an uncaught exception with its debug page before
the site's handlers see it (core.handlers). The environment sets DEBUG=0,
SECRET_KEY and SPEED_HTTPS=0 (`production_env`); static files are served from
the finders' storage, as there is no collectstatic manifest in a test run.
"""

from speedsite.test_settings import *  # noqa: F403

STORAGES = {**STORAGES, "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"}}  # noqa: F405


def production_env() -> dict[str, str]:
    return {
        "DJANGO_SETTINGS_MODULE": "tests.faults.production_settings",
        "DEBUG": "0",
        "SECRET_KEY": "outage-tests-" + "x" * 40,
        "SPEED_HTTPS": "0",
    }
