"""What the HTTP server refuses before Django is JSON too: a real gunicorn, as the Dockerfile runs it
(`gunicorn.conf.py` read from the project's root), spoken to over raw sockets."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
GUNICORN = Path(sys.executable).parent / "gunicorn"


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture(scope="module")
def server() -> Iterator[tuple[str, int]]:
    port = _free_port()
    env = {**os.environ, "DEBUG": "0", "SECRET_KEY": "test-http-server", "SPEED_HTTPS": "0", "ALLOWED_HOSTS": "*"}
    process = subprocess.Popen(
        [str(GUNICORN), "speedsite.wsgi", "--bind", f"127.0.0.1:{port}", "--workers", "1"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                if process.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(f"gunicorn did not start: {process.stderr.read().decode()[-2000:]}") from None
                time.sleep(0.2)
        yield "127.0.0.1", port
    finally:
        process.terminate()
        process.wait(timeout=30)


def _send(address: tuple[str, int], raw: bytes) -> tuple[int, dict[str, str], bytes]:
    with socket.create_connection(address, timeout=30) as connection:
        connection.sendall(raw)
        received = b""
        while chunk := connection.recv(65536):
            received += chunk
    head, _, body = received.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers = dict(line.split(": ", 1) for line in lines[1:])
    return int(lines[0].split()[1]), {k.lower(): v for k, v in headers.items()}, body


@pytest.mark.parametrize(
    ("raw", "status"),
    [
        (b"GET /api/players/?q=" + b"a" * 9000 + b" HTTP/1.1\r\nHost: x\r\n\r\n", 414),
        (b"GET /api/players/ HTTP/1.1\r\nHost: x\r\nX-Long: " + b"a" * 9000 + b"\r\n\r\n", 431),
        (b"GET /api/players/ HTTP/1.1\r\nHost: x\r\n" + b"X-Many: 1\r\n" * 150 + b"\r\n", 431),
        (b"GET /api/players/ HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n", 400),
        (b"GET /api/players/ HTTP/1.1\r\nHost: x\r\nX\x00: 1\r\n\r\n", 400),
        (b"G\x01T /api/players/ HTTP/1.1\r\nHost: x\r\n\r\n", 400),
    ],
)
def test_gunicorns_refusals_are_json_in_the_apis_shape(server, raw, status):
    got, headers, body = _send(server, raw)
    assert got == status, body[:300]
    assert headers["content-type"] == "application/json"
    error = json.loads(body)
    assert set(error) == {"message", "extra"}
    assert error["extra"] == {"refused_by": "http_server"}


def test_what_gunicorn_passes_on_is_djangos(server):
    # The API still answers through Django behind the same server.
    status, headers, body = _send(server, b"GET /api/nothing/ HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
    assert status == 404
    assert headers["content-type"] == "application/json"
    assert "schema" in json.loads(body)["message"]
