"""The README's first command runs on the embedded default: SQLite, verification in-process.

The rest of the suite runs on PostgreSQL, so this checks, in a subprocess on a
fresh SQLite file, that the demo's own steps work there too.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from django.conf import settings


def manage(*args: str, database: Path) -> str:
    env = {
        **{k: v for k, v in os.environ.items() if k not in ("CELERY_BROKER_URL", "DJANGO_SETTINGS_MODULE")},
        "DATABASE_URL": f"sqlite:///{database}",
        "DJANGO_SETTINGS_MODULE": "speedsite.settings",
    }
    run = subprocess.run(
        [sys.executable, "manage.py", *args],
        check=False,
        cwd=settings.BASE_DIR,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 0, run.stderr[-3000:]
    return run.stdout


def test_demo_steps_on_sqlite(tmp_path):
    database = tmp_path / "demo.sqlite3"
    manage("migrate", "--noinput", database=database)
    seeded = manage("seed_demo", database=database)
    assert "'verified': " in seeded
    assert "'pending': 0" in seeded
    assert "'rejected': 0" not in seeded
    assert "already there" in manage("seed_demo", database=database)
    assert "No differences" in manage("audit_records", database=database)
    assert "0 verdicts changed" in manage("reverify", "--all", "--force", database=database)
