"""Real server processes for the multi-process tests: daphne on free ports, sharing Redis and the test database."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from django.conf import settings
from django.db import connection

from benchmarks.workers import WorkerProcess

ROOT = Path(__file__).resolve().parents[2]
LAYER_URL = os.environ.get("SPEED_TEST_CHANNEL_LAYER_URL", "redis://127.0.0.1:6379/2")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def database_url(port: int | None = None) -> str:
    """The test database's URL, at another port if given (a proxy in front of PostgreSQL)."""
    db = connection.settings_dict
    return f"postgres://{db['USER']}@{db['HOST']}:{port or db['PORT']}/{db['NAME']}"


def timer_worker(log_path: Path, *, database: str | None = None) -> WorkerProcess:
    """A Celery worker with the beat inside it, firing the tables' timers (amendment L1) as production does.

    Its sweep runs twice a second, so a test's short timers end on time with no socket process left.
    `database`: another DATABASE_URL (a proxy in front of PostgreSQL).
    """
    env = {
        "DJANGO_SETTINGS_MODULE": "speedsite.test_settings",
        "DATABASE_URL": database or database_url(),
        "CHANNEL_LAYER_URL": LAYER_URL,
        "SPEED_TEST_EAGER": "0",
        "SPEED_TEST_BROKER_URL": settings.CELERY_BROKER_URL,
        "SPEED_TABLE_SWEEP_EVERY_SECONDS": "0.5",
        "PYTHONPATH": str(ROOT),
    }
    return WorkerProcess(env=env, concurrency=1, log_path=log_path, beat=True).wait_ready()


class Server:
    """One daphne process serving `speedsite.asgi` against the test database and the shared channel layer."""

    def __init__(self, *, env: dict[str, str] | None = None, args: tuple[str, ...] = ()) -> None:
        """`env` overrides the process's environment (a proxy's DATABASE_URL); `args` go to daphne."""
        self.port = free_port()
        env = {
            **os.environ,
            "DJANGO_SETTINGS_MODULE": "speedsite.test_settings",
            "DATABASE_URL": database_url(),
            "CHANNEL_LAYER_URL": LAYER_URL,
            "PYTHONPATH": str(ROOT),
            **(env or {}),
        }
        self.log = tempfile.NamedTemporaryFile(prefix="daphne-", suffix=".log", delete=False)  # noqa: SIM115
        self.process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "daphne",
                "-b",
                "127.0.0.1",
                "-p",
                str(self.port),
                *args,
                "speedsite.asgi:application",
            ],
            cwd=ROOT,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=self.log,
        )
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"daphne exited: {self.output()}")
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.2).close()
                return
            except OSError:
                time.sleep(0.1)
        raise RuntimeError("daphne did not start")

    def output(self) -> str:
        return Path(self.log.name).read_text(errors="replace")

    def url(self, path: str) -> str:
        return f"ws://127.0.0.1:{self.port}{path}"

    def kill(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait(timeout=10)

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=10)
