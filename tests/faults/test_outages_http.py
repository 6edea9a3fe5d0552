"""While PostgreSQL or Redis is down every request is a 503 with Retry-After, never a 500; after, all is as before.

A real gunicorn (DEBUG off, as production runs) reaches the database and the
cache through cuttable proxies (tests/proxy.py): cutting one is an outage of
that store for this server alone, while the shared PostgreSQL and Redis serve
everyone else. The errors come from wherever the store is first needed: the
session middleware, axes and the login throttles, a view's query, the site
lists' cache.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
from django.contrib.sessions.backends.db import SessionStore

from play.services import table_practice_create
from tests.factories import PASSWORD, make_player
from tests.play.servers import LAYER_URL, database_url, free_port
from tests.proxy import CuttableProxy

from .production_settings import production_env

pytestmark = pytest.mark.django_db(transaction=True)

ROOT = Path(__file__).resolve().parents[2]
REDIS_PORT = int(LAYER_URL.rsplit(":", 1)[1].split("/")[0])
REDIS_DB = LAYER_URL.rsplit("/", 1)[1]


class Gunicorn:
    def __init__(self, env: dict[str, str]) -> None:
        self.port = free_port()
        self.log = tempfile.NamedTemporaryFile(prefix="gunicorn-", suffix=".log", delete=False)  # noqa: SIM115
        self.process = subprocess.Popen(
            [sys.executable, "-m", "gunicorn", "speedsite.wsgi", "--bind", f"127.0.0.1:{self.port}", "--workers", "1"],
            cwd=ROOT,
            env={**os.environ, "PYTHONPATH": str(ROOT), **env},
            stdout=subprocess.DEVNULL,
            stderr=self.log,
        )
        deadline = time.monotonic() + 60
        while True:
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
                return
            except OSError:
                if self.process.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(f"gunicorn did not start: {self.output()[-3000:]}") from None
                time.sleep(0.2)

    def output(self) -> str:
        return Path(self.log.name).read_text(errors="replace")

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(timeout=10)

    def request(
        self, path: str, *, data: dict[str, Any] | None = None, cookie: str | None = None
    ) -> tuple[int, dict[str, str], bytes]:
        headers = {"Accept": "application/json" if path.startswith("/api/") else "text/html"}
        if data is not None:
            headers["Content-Type"] = "application/json"
        if cookie:
            headers["Cookie"] = cookie
        body = json.dumps(data).encode() if data is not None else None
        request = urllib.request.Request(f"http://127.0.0.1:{self.port}{path}", data=body, headers=headers)
        try:
            with urllib.request.urlopen(request, timeout=30) as response:
                return response.status, dict(response.headers), response.read()
        except urllib.error.HTTPError as error:
            return error.code, dict(error.headers), error.read()


@pytest.fixture
def stores() -> Iterator[tuple[Gunicorn, CuttableProxy, CuttableProxy]]:
    database = CuttableProxy(5432)
    cache = CuttableProxy(REDIS_PORT)
    server = None
    try:
        server = Gunicorn(
            {
                **production_env(),
                "DATABASE_URL": database_url(database.port),
                "CACHE_URL": f"redis://127.0.0.1:{cache.port}/{REDIS_DB}",
            }
        )
        yield server, database, cache
    finally:
        if server is not None:
            server.stop()
            print(f"--- gunicorn:\n{server.output()[-4000:]}")
        database.close()
        cache.close()


def _signed_in_cookie(user: Any) -> str:
    """A session as the login view leaves it, for requests that read it in the session middleware."""
    session = SessionStore()
    session[SESSION_KEY] = str(user.pk)
    session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
    session[HASH_SESSION_KEY] = user.get_session_auth_hash()
    session.save()
    return f"sessionid={session.session_key}"


def _assert_outage(answer: tuple[int, dict[str, str], bytes], code: str, *, api: bool) -> None:
    status, headers, body = answer
    assert status == 503, body[:500]
    assert 1 <= int(headers["Retry-After"]) <= 30
    if api:
        assert headers["Content-Type"] == "application/json"
        error = json.loads(body)
        assert set(error) == {"message", "extra"}  # the API's one error shape
        assert error["extra"] == {"code": code, "retry_after": int(headers["Retry-After"])}
    else:
        assert headers["Content-Type"].startswith("text/html")
        assert b"Unavailable for a moment" in body


def test_a_database_outage_is_a_503_everywhere_and_over_when_it_is(stores) -> None:
    server, database, _cache = stores
    player = make_player("alice")
    table = table_practice_create(user=player.user, ruleset="speed", bots=["easy"])
    cookie = _signed_in_cookie(player.user)
    login = {"username": "alice", "password": PASSWORD}

    assert server.request(f"/api/tables/{table.pk}/")[0] == 200
    assert server.request(f"/tables/{table.pk}/")[0] == 200
    assert server.request("/players/", cookie=cookie)[0] == 200
    database.cut()
    try:
        _assert_outage(server.request(f"/api/tables/{table.pk}/"), "database_unavailable", api=True)
        _assert_outage(server.request("/api/token/", data=login), "database_unavailable", api=True)
        _assert_outage(server.request(f"/tables/{table.pk}/"), "database_unavailable", api=False)
        # A signed-in page: the session middleware's read is the first to fail.
        _assert_outage(server.request("/players/", cookie=cookie), "database_unavailable", api=False)
    finally:
        database.restore()
    assert server.request(f"/api/tables/{table.pk}/")[0] == 200  # the kept connection was dead: a new one
    assert server.request("/players/", cookie=cookie)[0] == 200
    status, _headers, body = server.request("/api/token/", data=login)
    assert status == 200 and "token" in json.loads(body)
    assert "Internal Server Error" not in server.output()  # what Django logs for a 500


def test_a_redis_outage_is_a_503_with_its_own_code(stores) -> None:
    server, _database, cache = stores
    make_player("ben")
    login = {"username": "ben", "password": PASSWORD}
    assert server.request("/")[0] == 200
    cache.cut()
    try:
        # The login throttles count in the cache before anything else reads the request.
        _assert_outage(server.request("/api/token/", data=login), "redis_unavailable", api=True)
        _assert_outage(server.request("/"), "redis_unavailable", api=False)  # the site lists' cache
    finally:
        cache.restore()
    assert server.request("/")[0] == 200
    assert server.request("/api/token/", data=login)[0] == 200
