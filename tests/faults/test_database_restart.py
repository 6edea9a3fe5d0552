"""After the database drops a web worker's kept connection (a restart), the next request still answers.

The requests go through Django's WSGI handler itself, as gunicorn calls it (the
test client skips the connection housekeeping a request starts with).
`pg_terminate_backend` ends the kept connection between two requests, as a
database restart ends every worker's: with the connection health check the
second request reconnects instead of answering a 500.
"""

from __future__ import annotations

from typing import Any
from wsgiref.util import setup_testing_defaults

import psycopg
import pytest
from django.core.handlers.wsgi import WSGIHandler
from django.db import connection

from benchmarks.workers import current_database_url

pytestmark = pytest.mark.django_db(transaction=True)


def _get(path: str) -> str:
    environ: dict[str, Any] = {"PATH_INFO": path, "HTTP_HOST": "testserver"}
    setup_testing_defaults(environ)
    statuses: list[str] = []
    response = WSGIHandler()(environ, lambda status, headers, exc_info=None: statuses.append(status))
    b"".join(response)
    response.close()  # the end of the request, as the server signals it
    return statuses[0]


def test_a_request_after_the_connection_was_terminated_is_served():
    assert _get("/api/players/").startswith("200")
    assert connection.connection is not None  # kept across requests (CONN_MAX_AGE)
    kept = connection.connection.info.backend_pid
    with psycopg.connect(current_database_url(), autocommit=True) as admin:
        admin.execute("SELECT pg_terminate_backend(%s)", [kept])
    for path in ("/api/players/", "/players/"):
        assert _get(path).startswith("200"), path
    assert connection.connection.info.backend_pid != kept  # a new connection
