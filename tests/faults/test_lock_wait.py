"""A match row held elsewhere (a paused worker) bounds a log submission's wait: a clear 503, not a hung worker.

The holder is a connection of its own with an open transaction; the server
ends it after HOLD seconds (idle_in_transaction_session_timeout) so that
without a bound the request would simply wait that long and then succeed,
which the test tells apart from the bounded answer.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager

import psycopg
import pytest
from django.conf import settings
from django.test import Client

from benchmarks.workers import current_database_url
from matches.models import Match
from replays.models import MatchLog
from tests.factories import body, make_match, won_log

pytestmark = pytest.mark.django_db(transaction=True)

HOLD = 20


@contextmanager
def match_row_held(match: Match) -> Iterator[None]:
    with psycopg.connect(current_database_url()) as holder:
        holder.execute(f"SET idle_in_transaction_session_timeout = '{HOLD}s'")
        holder.execute("SELECT id FROM matches_match WHERE id = %s FOR UPDATE", [match.pk])
        try:
            yield
        finally:
            holder.rollback()


def test_a_log_submitted_while_the_match_is_locked_elsewhere_is_a_json_503(client_for, alice, ben):
    match = make_match(alice, ben)
    game = match.games.get()
    client = client_for(alice.user)
    data = body(won_log("speed", ["alice", "ben"]))
    with match_row_held(match):
        started = time.monotonic()
        response = client.post(f"/api/games/{game.pk}/logs/", data=data, content_type="application/json")
        waited = time.monotonic() - started
    assert response.status_code == 503, response.content[:300]
    assert response["Content-Type"] == "application/json"
    assert "busy" in response.json()["message"]
    assert "try again" in response.json()["message"]
    assert int(response["Retry-After"]) > 0
    assert waited < HOLD - 5  # answered at the lock timeout, long before the holder let go
    assert not MatchLog.objects.exists()  # nothing half-done
    again = client.post(f"/api/games/{game.pk}/logs/", data=data, content_type="application/json")
    assert again.status_code == 202  # once the lock is free, the same request goes through


def test_the_sites_form_answers_the_busy_page(alice, ben):
    match = make_match(alice, ben)
    game = match.games.get()
    client = Client()
    client.force_login(alice.user)
    document = body(won_log("speed", ["alice", "ben"])).decode()
    with match_row_held(match):
        response = client.post("/submit/", {"game": game.pk, "text": document})
    assert response.status_code == 503, response.content[:500]
    assert b"try again" in response.content
    assert not MatchLog.objects.exists()


def test_the_bound_is_in_the_connections_options():
    assert "lock_timeout=" in settings.DATABASES["default"]["OPTIONS"]["options"]
