"""Quotas on stored logs, and oversized bodies refused before they are read."""

from __future__ import annotations

import io

import pytest
from django.conf import settings
from django.test import Client, override_settings

from replays.models import MatchLog
from tests.factories import body, make_match, won_log

pytestmark = pytest.mark.django_db


def _distinct_logs(count: int) -> list[bytes]:
    """Different documents for alice v ben, each a valid JSON object naming the match's players."""
    base = won_log("speed", ["alice", "ben"])
    return [body({**base, "note": f"copy {n}"}) for n in range(count)]


class TestQuotas:
    @override_settings(SPEED_LOGS_PER_GAME_PER_SUBMITTER=3)
    def test_logs_per_game_per_submitter(self, client_for, alice, ben, capture):
        game = make_match(alice, ben).games.get()
        url = f"/api/games/{game.pk}/logs/"
        statuses = [
            client_for(alice.user).post(url, data, content_type="application/json").status_code
            for data in _distinct_logs(4)
        ]
        assert statuses[:3] == [202, 202, 202]
        assert statuses[3] == 429
        assert MatchLog.objects.filter(game=game, submitted_by=alice.user).count() == 3
        # The other side has its own quota for the game.
        assert client_for(ben.user).post(url, _distinct_logs(5)[4], content_type="application/json").status_code == 202

    def test_bytes_per_user_per_day(self, client_for, alice, ben):
        game = make_match(alice, ben).games.get()
        first, second = _distinct_logs(2)
        with override_settings(SPEED_LOG_BYTES_PER_USER_PER_DAY=len(first) + len(second) - 1):
            client = client_for(alice.user)
            assert client.post(f"/api/games/{game.pk}/logs/", first, content_type="application/json").status_code == 202
            response = client.post(f"/api/games/{game.pk}/logs/", second, content_type="application/json")
        assert response.status_code == 429
        assert response.json()["extra"]["quota"] == "bytes_per_day"
        assert MatchLog.objects.count() == 1

    def test_resubmitting_the_same_document_is_not_a_new_log_and_costs_no_quota(self, client_for, alice, ben):
        game = make_match(alice, ben).games.get()
        data = _distinct_logs(1)[0]
        with override_settings(SPEED_LOGS_PER_GAME_PER_SUBMITTER=1):
            client = client_for(alice.user)
            assert client.post(f"/api/games/{game.pk}/logs/", data, content_type="application/json").status_code == 202
            assert client.post(f"/api/games/{game.pk}/logs/", data, content_type="application/json").status_code == 200


class Unreadable(io.RawIOBase):
    """A request body that fails the test if anything reads it."""

    def read(self, *args: object) -> bytes:
        raise AssertionError("the body was read")

    readline = read


class TestOversizedBodies:
    def _post(self, client: Client, url: str, content_type: str):
        size = settings.SPEED_REQUEST_MAX_BYTES + 1
        return client.generic(
            "POST", url, b"", content_type=content_type, CONTENT_LENGTH=str(size), **{"wsgi.input": Unreadable()}
        )

    def test_the_site_form_is_refused_before_the_body_is_read(self, alice):
        client = Client(enforce_csrf_checks=True)
        client.force_login(alice.user)
        response = self._post(client, "/submit/", "multipart/form-data; boundary=xyz")
        assert response.status_code == 413
        assert b"<html" in response.content

    def test_the_api_is_refused_before_the_body_is_read(self, client_for, alice, ben):
        game = make_match(alice, ben).games.get()
        response = self._post(client_for(alice.user), f"/api/games/{game.pk}/logs/", "application/json")
        assert response.status_code == 413
        assert response.json()["extra"]["log_limit"] == settings.SPEED_LOG_MAX_BYTES
