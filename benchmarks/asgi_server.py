"""Start and stop a real Daphne process serving the site's ASGI app (HTTP and the table sockets).

For `bench_tables` and the browser tests of the table page: Django's test
`live_server` is WSGI and serves no WebSocket, so these start the ASGI app the
way production does, in a subprocess on a free port, against the database this
process uses.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Mapping
from pathlib import Path

from benchmarks.workers import current_database_url


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class AsgiServer:
    """One `daphne speedsite.asgi:application` on 127.0.0.1, in its own process group, logging to a file."""

    def __init__(
        self, *, settings_module: str, env: Mapping[str, str] | None = None, log_path: Path | None = None
    ) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.ws_url = f"ws://127.0.0.1:{self.port}"
        self.log_path = log_path or Path(tempfile.gettempdir()) / f"speed-daphne-{self.port}.log"
        self._env = {
            **os.environ,
            "DJANGO_SETTINGS_MODULE": settings_module,
            "DATABASE_URL": current_database_url(),
            "ALLOWED_HOSTS": "127.0.0.1,localhost",
            "SPEED_HTTPS": "0",
            **(env or {}),
        }
        self._process: subprocess.Popen[bytes] | None = None

    @property
    def pid(self) -> int | None:
        """The Daphne process's id (its session's too: it is started in a new one), while it runs."""
        return self._process.pid if self._process is not None else None

    def start(self, timeout: float = 30.0) -> AsgiServer:
        with self.log_path.open("wb") as log:
            self._process = subprocess.Popen(  # noqa: S603 - our own interpreter and arguments
                [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(self.port), "speedsite.asgi:application"],
                env=self._env,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self._process.poll() is not None:
                raise RuntimeError(f"daphne exited with {self._process.returncode}:\n{self.log()}")
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.5):
                    return self
            except OSError:
                time.sleep(0.1)
        self.stop()
        raise RuntimeError(f"daphne did not listen within {timeout} s:\n{self.log()}")

    def restart(self) -> None:
        """Kill the process (as a crash would) and start a new one on the same port."""
        process, self._process = self._process, None
        if process is not None and process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
        self.start()

    def log(self) -> str:
        try:
            return self.log_path.read_text(errors="replace")[-4000:]
        except OSError:
            return ""

    def stop(self) -> None:
        process, self._process = self._process, None
        if process is None or process.poll() is not None:
            return
        os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()

    def __enter__(self) -> AsgiServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
