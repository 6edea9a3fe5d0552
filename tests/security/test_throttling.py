"""Repeated logins are slowed and answered 429, per account and per address, on the API, the site and the admin;
a forged X-Forwarded-For buys no fresh address."""

from __future__ import annotations

import pytest
from django.test import Client, override_settings

from tests.factories import PASSWORD, make_user

pytestmark = pytest.mark.django_db


def _token(client, username: str, password: str, **extra: str):
    return client.post("/api/token/", {"username": username, "password": password}, format="json", **extra)


class TestTokenEndpoint:
    @override_settings(SPEED_LOGIN_RATE_PER_ACCOUNT="5/min", SPEED_LOGIN_RATE_PER_ADDRESS="1000/min")
    def test_an_account_is_throttled_whatever_the_address(self, anon, alice):
        statuses = [_token(anon, "alice", "wrong", REMOTE_ADDR=f"10.0.0.{n}").status_code for n in range(1, 8)]
        assert statuses[:5] == [400] * 5
        assert statuses[5:] == [429, 429]
        response = _token(anon, "ALICE", PASSWORD, REMOTE_ADDR="10.0.0.99")
        assert response.status_code == 429
        assert set(response.json()) == {"message", "extra"}
        assert int(response["Retry-After"]) > 0

    @override_settings(SPEED_LOGIN_RATE_PER_ADDRESS="5/min", SPEED_LOGIN_RATE_PER_ACCOUNT="1000/min")
    def test_an_address_is_throttled_and_a_forged_forwarded_for_does_not_help(self, anon, alice):
        for n in range(5):
            assert _token(anon, f"user{n}", "wrong", HTTP_X_FORWARDED_FOR=f"203.0.113.{n}").status_code == 400
        assert _token(anon, "alice", PASSWORD, HTTP_X_FORWARDED_FOR="198.51.100.7").status_code == 429

    @override_settings(
        SPEED_TRUSTED_PROXIES=1, SPEED_LOGIN_RATE_PER_ADDRESS="2/min", SPEED_LOGIN_RATE_PER_ACCOUNT="1000/min"
    )
    def test_behind_one_trusted_proxy_the_address_it_saw_counts_not_what_the_client_wrote(self, anon, alice):
        for forged in ("1.1.1.1", "2.2.2.2"):
            assert _token(anon, "x", "y", HTTP_X_FORWARDED_FOR=f"{forged}, 192.0.2.10").status_code == 400
        assert _token(anon, "x", "y", HTTP_X_FORWARDED_FOR="3.3.3.3, 192.0.2.10").status_code == 429
        assert _token(anon, "alice", PASSWORD, HTTP_X_FORWARDED_FOR="192.0.2.11").status_code == 200

    @override_settings(AXES_FAILURE_LIMIT=3)
    def test_failed_logins_lock_the_account_out_with_429_even_with_the_right_password(self, anon, alice):
        # django-axes locks out at the limit-th failure, which is itself answered 429.
        statuses = [_token(anon, "alice", "wrong", REMOTE_ADDR=f"10.1.0.{n}").status_code for n in range(3)]
        assert statuses == [400, 400, 429]
        assert _token(anon, "alice", PASSWORD, REMOTE_ADDR="10.1.0.50").status_code == 429


class TestLoginPages:
    @pytest.mark.parametrize("url", ["/accounts/login/", "/admin/login/"])
    @override_settings(AXES_FAILURE_LIMIT=3)
    def test_repeated_failures_for_one_account_are_429(self, url):
        boss = make_user("boss", superuser=True)
        client = Client()
        statuses = [
            client.post(url, {"username": "boss", "password": "wrong"}, REMOTE_ADDR=f"10.2.0.{n}").status_code
            for n in range(3)
        ]
        assert statuses == [200, 200, 429]  # the form again with its error, then locked out at the limit
        response = client.post(url, {"username": boss.get_username(), "password": PASSWORD}, REMOTE_ADDR="10.2.0.9")
        assert response.status_code == 429
        assert b"Too many" in response.content

    @override_settings(AXES_FAILURE_LIMIT=3)
    def test_repeated_failures_from_one_address_are_429_and_forwarded_for_is_ignored(self):
        make_user("carer")
        client = Client()
        for n in range(3):
            client.post(
                "/accounts/login/", {"username": f"nobody{n}", "password": "x"}, HTTP_X_FORWARDED_FOR=f"203.0.113.{n}"
            )
        response = client.post(
            "/accounts/login/", {"username": "carer", "password": PASSWORD}, HTTP_X_FORWARDED_FOR="198.51.100.1"
        )
        assert response.status_code == 429

    def test_a_good_login_still_works(self):
        make_user("fine")
        response = Client().post("/accounts/login/", {"username": "fine", "password": PASSWORD})
        assert response.status_code == 302
