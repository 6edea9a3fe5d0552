"""Settings for the server `bench_pages` starts: the site's own, with a bare view added (`benchmarks.bench_urls`)."""

from speedsite.settings import *  # noqa: F403

ROOT_URLCONF = "benchmarks.bench_urls"
# The benchmark serves the static files' plain names: no collectstatic manifest needed.
STORAGES = {**STORAGES, "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"}}  # noqa: F405
