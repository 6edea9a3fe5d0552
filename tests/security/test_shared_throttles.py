"""Two web workers count one throttle: production without CACHE_URL keeps its counts in the database.

Each "worker" is a process of its own with production settings and no
CACHE_URL, posting to `POST /api/token/` for one account; the second one must
see the first one's requests (a per-process cache would let each have the
whole allowance).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from django.db import connection

from benchmarks.workers import current_database_url
from tests.security.test_deploy import INHERITED, PRODUCTION, ROOT

pytestmark = pytest.mark.django_db(transaction=True)

WORKER = """
import json, sys, django
django.setup()
from django.core.cache import cache, caches
from django.core.management import call_command
from django.test import Client
call_command("createcachetable")  # the shared cache's table (migrate makes it too; idempotent)
if sys.argv[1] == "first":
    cache.clear()
print(json.dumps({
    "backend": type(caches["default"]).__name__,
    "statuses": [
        Client().post("/api/token/", {"username": "nobody", "password": "x"}, content_type="application/json",
                      REMOTE_ADDR=f"10.9.0.{n}").status_code
        for n in range(3)
    ],
}))
"""


def _worker(which: str) -> dict[str, object]:
    inherited = {key: os.environ[key] for key in INHERITED if key in os.environ}
    env = {
        **inherited,
        **PRODUCTION,
        "DJANGO_SETTINGS_MODULE": "speedsite.settings",
        "DATABASE_URL": current_database_url(),
        "ALLOWED_HOSTS": "testserver",
        "SPEED_HTTPS": "0",
        "SPEED_LOGIN_RATE_PER_ACCOUNT": "5/min",
    }
    result = subprocess.run(
        [sys.executable, "-c", WORKER, which],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    return json.loads(result.stdout.strip().splitlines()[-1])


def test_two_processes_share_the_login_throttle_without_cache_url():
    try:
        first, second = _worker("first"), _worker("second")
    finally:
        with connection.cursor() as cursor:
            cursor.execute("DROP TABLE IF EXISTS speed_cache")
    assert first["backend"] == second["backend"] == "DatabaseCache"
    assert first["statuses"] == [400, 400, 400]
    assert second["statuses"] == [400, 400, 429]  # the sixth request for the account, counted across both
