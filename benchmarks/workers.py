"""Start and stop a real `celery -A speedsite worker` process (for `bench_pipeline` and the pipeline tests)."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Mapping
from pathlib import Path
from urllib.parse import quote

from django.conf import settings
from django.db import connection


def current_database_url() -> str:
    """A DATABASE_URL for the database this process is connected to (for a worker to use the same)."""
    db = connection.settings_dict
    if connection.vendor == "sqlite":
        return f"sqlite:///{db['NAME']}"
    user = quote(db.get("USER") or "")
    password = f":{quote(db['PASSWORD'])}" if db.get("PASSWORD") else ""
    port = f":{db['PORT']}" if db.get("PORT") else ""
    host = quote(db.get("HOST") or "localhost", safe="")  # a socket directory becomes %2F...
    return f"postgres://{user}{password}@{host}{port}/{db['NAME']}"


def production_env(env: Mapping[str, str]) -> dict[str, str]:
    """`env` for a process started with DEBUG=0, as production runs: with this process's secret key
    (production refuses to start without one) and, without CACHE_URL, its database cache table made."""
    full = {"SECRET_KEY": settings.SECRET_KEY, **env, "DEBUG": "0"}
    if not (full.get("CACHE_URL") or os.environ.get("CACHE_URL")):
        subprocess.run(
            [sys.executable, "-m", "django", "createcachetable"],
            cwd=settings.BASE_DIR,
            env={**os.environ, "DJANGO_SETTINGS_MODULE": "speedsite.settings", **full},
            check=True,
            capture_output=True,
        )
    return full


class WorkerProcess:
    """One Celery worker in its own process group, logging to a file.

    `kill()` sends SIGKILL to the whole group (the main process and its pool
    children), as an out-of-memory killer or a pulled plug would.
    """

    def __init__(
        self,
        *,
        env: Mapping[str, str],
        queues: str = "celery",
        concurrency: int | None = None,
        pool: str = "prefork",
        log_path: Path | None = None,
        beat: bool = False,
    ) -> None:
        self.name = f"speed-{uuid.uuid4().hex[:8]}@%h"
        self.log_path = log_path or Path(tempfile.gettempdir()) / f"{self.name.split('@')[0]}.log"
        command = [
            sys.executable,
            "-m",
            "celery",
            "-A",
            "speedsite",
            "worker",
            "--loglevel=INFO",
            f"--pool={pool}",
            "-Q",
            queues,
            "-n",
            self.name,
            "--without-gossip",
            "--without-mingle",
            "--without-heartbeat",
        ]
        if concurrency is not None:
            command.append(f"--concurrency={concurrency}")
        if beat:  # the beat's schedule runs inside this worker (tests: one process for both)
            command += ["-B", f"--schedule={self.log_path.with_suffix('.beat')}"]
        self._log = self.log_path.open("wb")
        self.process = subprocess.Popen(  # noqa: S603 - our own interpreter and arguments
            command,
            cwd=settings.BASE_DIR,
            env={**os.environ, **env},
            stdout=self._log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )

    @property
    def hostname(self) -> str:
        return self.name.replace("%h", os.uname().nodename)

    def output(self) -> str:
        return self.log_path.read_text(errors="replace")

    def wait_for(self, text: str, timeout: float = 60) -> None:
        """Wait until the worker has logged `text` (e.g. "ready.")."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if text in self.output():
                return
            if self.process.poll() is not None:
                raise RuntimeError(f"the worker exited ({self.process.returncode}):\n{self.output()[-3000:]}")
            time.sleep(0.05)
        raise TimeoutError(f"the worker did not log {text!r} in {timeout}s:\n{self.output()[-3000:]}")

    def wait_ready(self, timeout: float = 60) -> WorkerProcess:
        self.wait_for(" ready.", timeout)
        return self

    def kill(self) -> None:
        """SIGKILL the worker and its pool children at once."""
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait(timeout=30)
        self._log.close()

    def stop(self, timeout: float = 20) -> None:
        """A warm shutdown (SIGTERM), then SIGKILL if it lingers."""
        if self.process.poll() is None:
            try:
                os.killpg(self.process.pid, signal.SIGTERM)
                self.process.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                pass
            except ProcessLookupError:
                pass
        self.kill()
