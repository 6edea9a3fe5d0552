"""Settings for the test suite: a real PostgreSQL (trust auth on this machine).

Tests that exercise the pipeline start their own Celery worker against Redis
and switch eager mode off themselves; the rest verify in-process.
"""

import os

os.environ.setdefault("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/speed")

from .settings import *  # noqa: F403

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]  # fast logins in tests
