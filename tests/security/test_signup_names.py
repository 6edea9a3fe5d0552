"""Sign-up is rate-limited per address, and refuses a display name that passes for another player or a role."""

from __future__ import annotations

import pytest
from django.test import Client

from matches.models import Player
from matches.names import claimed_role, name_skeleton
from matches.services import player_create

pytestmark = pytest.mark.django_db

PASSWORD = "a-fine-password-9"


def _signup(client: Client, handle: str, display_name: str, address: str = "192.0.2.30"):
    return client.post(
        "/accounts/signup/",
        {"handle": handle, "display_name": display_name, "password1": PASSWORD, "password2": PASSWORD},
        REMOTE_ADDR=address,
    )


@pytest.fixture
def moreau(db: None) -> Player:
    return player_create(handle="alice", display_name="Alice Moreau")


class TestNames:
    @pytest.mark.parametrize(
        "copy",
        [
            "Alice Moreau",
            "alice moreau",
            "  ALICE   MOREAU ",
            "Alicé Moreau",
            "\u0410lice Moreau",  # a Cyrillic capital A
            "\uff21lice Moreau",  # a full-width A
            "Al1ce Moreau",
            "Alice.Moreau",
            "alice",  # the player's handle
            "\u056clice Moreau".replace("\u056cl", "A\u056c"),  # an Armenian liwn for the l
            "A\u029fice Moreau",  # a small-capital L
            "\ua4eelice Moreau",  # a Lisu A
            "\u13aalice Moreau",  # a Cherokee A
            "aIice Moreau",  # a capital i for the l
            "Alice Mor\u0435au",  # a Cyrillic e
        ],
    )
    def test_a_copy_of_another_players_name_is_refused(self, moreau, copy):
        response = _signup(Client(), "newcomer", copy)
        assert response.status_code == 200
        assert "reads like the player" in response.context["form"].errors["display_name"][0]
        assert not Player.objects.filter(handle="newcomer").exists()

    @pytest.mark.parametrize(
        "claim",
        [
            "Admin (organiser)",
            "organiser",
            "The Organizer",
            "Moderator Bob",
            "staff",
            "Adm1n",
            "Referee",
            "Admin1",
            "Organiser2025",
            "admin_team",
            "xXadminXx",
            "Staff_Jo",
            "r00t",
            "\u0430dmin",  # a Cyrillic a
        ],
    )
    def test_a_name_claiming_a_role_is_refused(self, claim):
        response = _signup(Client(), "newcomer", claim)
        assert response.status_code == 200
        assert "claim a role" in response.context["form"].errors["display_name"][0]
        assert not Player.objects.filter(handle="newcomer").exists()

    @pytest.mark.parametrize("handle", ["admin", "admin_team", "Organiser2025", "sysop1"])
    def test_a_handle_claiming_a_role_is_refused(self, handle):
        response = _signup(Client(), handle, "Someone New")
        assert "claim a role" in response.context["form"].errors["handle"][0]

    @pytest.mark.parametrize("handle", ["aIice", "a1ice", "alice_", "ALICE.", "al1ce", "alice-moreau"])
    def test_a_handle_that_reads_as_another_players_is_refused(self, moreau, handle):
        response = _signup(Client(), handle, "Someone Else Entirely")
        assert response.status_code == 200
        assert "reads like the player 'alice'" in response.context["form"].errors["handle"][0]
        assert not Player.objects.filter(handle=handle).exists()

    @pytest.mark.parametrize(("existing", "lookalike"), [("ben", "ben."), ("hugo", "hug0"), ("chloe", "ch1oe")])
    def test_handles_are_compared_by_what_they_read_as(self, existing, lookalike):
        player_create(handle=existing, display_name="")
        response = _signup(Client(), lookalike, "A Name Of My Own")
        assert f"reads like the player {existing!r}" in response.context["form"].errors["handle"][0]

    def test_a_name_is_compared_in_one_query_however_many_players_there_are(self, moreau, django_assert_num_queries):
        from matches.services.players import display_name_check

        for number in range(30):
            player_create(handle=f"someone{number}", display_name=f"Someone Number {number}")
        with django_assert_num_queries(1):
            display_name_check(display_name="A New Name")

    def test_a_name_of_ones_own_is_welcome(self, moreau):
        response = _signup(Client(), "alicia", "Alicia Moreno")
        assert response.status_code == 302
        assert Player.objects.get(handle="alicia").display_name == "Alicia Moreno"
        assert _signup(Client(), "stafford", "Jo Stafford", address="192.0.2.31").status_code == 302

    def test_organisers_may_still_enter_two_entrants_of_the_same_name(self, client_for, organiser, moreau):
        response = client_for(organiser).post(
            "/api/players/", {"handle": "alice2", "display_name": "Alice Moreau"}, format="json"
        )
        assert response.status_code == 201

    def test_the_skeleton_folds_what_a_reader_cannot_tell_apart_and_nothing_more(self):
        assert name_skeleton("Ben Okafor") == name_skeleton("BEN  OKAFOR") == name_skeleton("\u0392en Okafor")
        assert name_skeleton("Ben Okafor") != name_skeleton("Ben Okafort")
        assert claimed_role("Stafford") is None
        assert claimed_role("Rootes") is None
        assert claimed_role("Simon Modesto") is None
        assert claimed_role("Admin (organiser)") == "admin"
        assert name_skeleton("Иван") == name_skeleton("иван") == name_skeleton("ИВАН")  # case, in any script
        assert name_skeleton("José") == name_skeleton("JOSÉ") == name_skeleton("Jose")

    def test_the_stored_keys_are_the_skeletons(self, moreau):
        assert (moreau.handle_key, moreau.name_key) == (name_skeleton("alice"), name_skeleton("Alice Moreau"))


class TestSignupRate:
    def test_one_address_is_limited_and_another_is_not(self, settings):
        settings.SPEED_SIGNUP_RATE_PER_ADDRESS = "3/hour"
        statuses = [_signup(Client(), f"new{n}", f"Newcomer Number {n}").status_code for n in "abc"]
        assert statuses == [302, 302, 302]
        refused = _signup(Client(), "newd", "Newcomer Number d")
        assert refused.status_code == 429
        assert b"Too many sign-ups" in refused.content
        assert int(refused["Retry-After"]) > 0
        assert not Player.objects.filter(handle="newd").exists()
        assert _signup(Client(), "newe", "Newcomer Number e", address="192.0.2.99").status_code == 302

    def test_a_forged_forwarded_for_does_not_buy_a_fresh_address(self, settings):
        settings.SPEED_SIGNUP_RATE_PER_ADDRESS = "1/hour"
        assert _signup(Client(), "first", "First Person").status_code == 302
        second = Client().post(
            "/accounts/signup/",
            {"handle": "second", "display_name": "Second Person", "password1": PASSWORD, "password2": PASSWORD},
            REMOTE_ADDR="192.0.2.30",
            HTTP_X_FORWARDED_FOR="203.0.113.9",
        )
        assert second.status_code == 429
