"""Settings for the test suite: a real PostgreSQL (trust auth on this machine).

Tests that exercise the pipeline start their own Celery worker against Redis
and switch eager mode off themselves; the rest verify in-process.
"""

import os

os.environ.setdefault("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/speed")

from .settings import *  # noqa: F403

if "benchmarks" not in INSTALLED_APPS:  # noqa: F405 - the tests run the benchmarks' commands
    INSTALLED_APPS.append("benchmarks")  # noqa: F405

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]  # fast logins in tests

# The pipeline tests' broker: a Redis database of their own. Tasks still run
# in-process (eager) unless a test switches eager mode off for a real worker.
CELERY_BROKER_URL = os.environ.get("SPEED_TEST_BROKER_URL", "redis://127.0.0.1:6379/13")
CELERY_TASK_ALWAYS_EAGER = os.environ.get("SPEED_TEST_EAGER", "1") == "1"
# Lapses run only when a test calls for them (games_lapse, or this setting overridden).
SPEED_LAPSE_ON_READ = False

# Tests never run collectstatic: WhiteNoise serves from the finders, so an
# absent STATIC_ROOT is not worth a warning on every request.
STATIC_ROOT = None

# Tables in tests: quick timers (a test that needs the spec's defaults sets them on its table).
SPEED_TABLE_SETTINGS = {
    "collision_ms": 250,
    "stall_ms": 300,
    "abandon_ms": 2000,
    "claim_ms": 1000,
    "countdown_ms": 200,
}
SPEED_TABLE_BOT_DELAY_SCALE = 0.1
SPEED_TABLE_HEARTBEAT_MS = 300
