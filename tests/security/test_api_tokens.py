"""API tokens expire after their lifetime, and their holder can rotate or revoke them (API and site)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from rest_framework.authtoken.models import Token

from core.api_tokens import token_user
from tests.factories import PASSWORD

pytestmark = pytest.mark.django_db

#: A read only a signed-in player gets: their challenges.
MINE = "/api/challenges/"


def _login(anon, username: str = "alice") -> dict:
    response = anon.post("/api/token/", {"username": username, "password": PASSWORD}, format="json")
    assert response.status_code == 200, response.content
    return response.json()


def _with(client, key: str):
    client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    return client


def _age(key: str, by: timedelta) -> None:
    Token.objects.filter(key=key).update(created=timezone.now() - by)


class TestExpiry:
    def test_a_token_past_its_lifetime_is_refused_and_a_login_gives_a_new_one(self, anon, alice, ben, settings):
        settings.SPEED_API_TOKEN_LIFETIME = timedelta(days=30)
        first = _login(anon)
        expires = parse_datetime(first["expires"])
        assert timedelta(days=29) < expires - timezone.now() <= timedelta(days=30)
        assert _with(anon, first["token"]).get(MINE).status_code == 200
        _age(first["token"], timedelta(days=30, seconds=1))
        refused = _with(anon, first["token"]).get(MINE)
        assert refused.status_code == 401
        assert "expired" in refused.json()["message"]
        assert token_user(first["token"]) is None  # the one check every reader of a token uses
        anon.credentials()
        second = _login(anon)
        assert second["token"] != first["token"]
        assert token_user(second["token"]) == alice.user
        assert _with(anon, second["token"]).get(MINE).status_code == 200

    def test_a_valid_token_is_given_again_until_it_expires(self, anon, alice):
        assert _login(anon)["token"] == _login(anon)["token"]

    def test_a_disabled_account_has_no_valid_token(self, anon, alice):
        key = _login(anon)["token"]
        alice.user.is_active = False
        alice.user.save()
        assert token_user(key) is None


class TestRotateAndRevoke:
    def test_rotating_gives_a_new_token_and_ends_the_old(self, anon, alice, ben):
        old = _login(anon)["token"]
        rotated = _with(anon, old).post("/api/token/rotate/")
        assert rotated.status_code == 200
        new = rotated.json()["token"]
        assert new != old
        assert _with(anon, old).get(MINE).status_code == 401
        assert _with(anon, new).get(MINE).status_code == 200

    def test_revoking_ends_the_token(self, anon, alice, ben):
        key = _login(anon)["token"]
        assert _with(anon, key).post("/api/token/revoke/").status_code == 204
        assert _with(anon, key).get(MINE).status_code == 401
        assert not Token.objects.filter(user=alice.user).exists()

    def test_neither_works_without_credentials(self, anon):
        for url in ("/api/token/rotate/", "/api/token/revoke/"):
            response = anon.post(url)
            assert response.status_code == 401, url
            assert set(response.json()) == {"message", "extra"}

    def test_the_schema_documents_them(self, anon):
        schema = anon.get("/api/schema/?format=json").json()
        assert {"/api/token/rotate/", "/api/token/revoke/"} <= set(schema["paths"])
        assert "expires" in schema["components"]["schemas"]["TokenOutput"]["properties"]


class TestTheTokenPage:
    def test_the_page_makes_shows_and_ends_a_token(self, alice):
        client = Client()
        client.force_login(alice.user)
        page = client.get("/accounts/token/")
        assert page.status_code == 200
        assert b"no API token" in page.content
        made = client.post("/accounts/token/", {"action": "rotate"}, follow=True)
        key = Token.objects.get(user=alice.user).key
        assert key.encode() in made.content  # shown once, right after it was made
        assert b"expires" in made.content
        again = client.post("/accounts/token/", {"action": "rotate"}, follow=True)
        new = Token.objects.get(user=alice.user).key
        assert new != key
        assert new.encode() in again.content
        client.post("/accounts/token/", {"action": "revoke"})
        assert not Token.objects.filter(user=alice.user).exists()

    def test_the_page_wants_a_login(self):
        response = Client().get("/accounts/token/")
        assert response.status_code == 302
        assert "/accounts/login/" in response["Location"]
