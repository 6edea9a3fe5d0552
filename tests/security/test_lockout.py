"""The login lockout counts per account and per address: logging into one's own account resets neither
the count of the account one was guessing at nor, for other accounts, the address's."""

from __future__ import annotations

import pytest
from django.test import Client

from tests.factories import PASSWORD, make_user

pytestmark = pytest.mark.django_db

ATTACKER = "203.0.113.66"


def _site_login(client: Client, username: str, password: str, address: str = ATTACKER) -> int:
    return client.post(
        "/accounts/login/", {"username": username, "password": password}, REMOTE_ADDR=address
    ).status_code


def _token(client, username: str, password: str, address: str = ATTACKER) -> int:
    response = client.post(
        "/api/token/", {"username": username, "password": password}, format="json", REMOTE_ADDR=address
    )
    return response.status_code


@pytest.fixture(autouse=True)
def _limits(settings) -> None:
    settings.AXES_FAILURE_LIMIT = 10
    # The token endpoint's own throttles are set wide here: the lockout is what is tested.
    settings.SPEED_LOGIN_RATE_PER_ACCOUNT = settings.SPEED_LOGIN_RATE_PER_ADDRESS = "1000/min"


class TestOwnLoginDoesNotResetTheVictim:
    def test_on_the_site(self):
        make_user("victim")
        make_user("attacker")
        client = Client()
        assert [_site_login(client, "victim", "guess") for _ in range(9)] == [200] * 9
        assert _site_login(Client(), "attacker", PASSWORD) == 302  # the attacker's own account, same address
        assert _site_login(Client(), "victim", "guess") == 429  # the tenth failure locks the victim out
        # And from now on the victim's account is locked, even with the right password, from anywhere.
        assert _site_login(Client(), "victim", PASSWORD, address="198.51.100.5") == 429

    def test_through_the_token_endpoint(self, anon):
        make_user("victim")
        make_user("attacker")
        assert [_token(anon, "victim", "guess") for _ in range(9)] == [400] * 9
        assert _token(anon, "attacker", PASSWORD) == 200
        assert _site_login(Client(), "attacker", PASSWORD) == 302
        assert _token(anon, "victim", "guess") == 429
        assert _token(anon, "victim", PASSWORD, address="198.51.100.5") == 429

    def test_the_address_keeps_its_failures_against_other_accounts(self):
        make_user("attacker")
        for n in range(9):
            assert _site_login(Client(), f"someone{n}", "guess") == 200
        assert _site_login(Client(), "attacker", PASSWORD) == 302
        assert _site_login(Client(), "someone-else", "guess") == 429  # the address's tenth failure

    def test_a_right_login_resets_the_accounts_own_count(self):
        make_user("forgetful")
        for _ in range(9):
            assert _site_login(Client(), "forgetful", "typo", address="198.51.100.7") == 200
        assert _site_login(Client(), "forgetful", PASSWORD, address="198.51.100.7") == 302
        # Its nine failures are gone: nine more are allowed before the lockout.
        assert [_site_login(Client(), "forgetful", "typo", address="198.51.100.8") for _ in range(9)] == [200] * 9
