"""Creating a player never takes over an account; passwords follow Django's rules; a new password ends old tokens."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.password_validation import validate_password
from rest_framework.authtoken.models import Token

from tests.factories import PASSWORD, make_user

pytestmark = pytest.mark.django_db

User = get_user_model()


@pytest.fixture
def plain_organiser(db: None):
    """An organiser who is not a superuser: the role the attack was run with."""
    return make_user("helper", organiser=True)


class TestNoTakeover:
    @pytest.mark.parametrize("handle", ["ROOT", "root"])
    def test_a_player_named_after_the_superuser_is_refused_and_the_superuser_keeps_password_and_token(
        self, client_for, anon, plain_organiser, handle
    ):
        root = make_user("root", superuser=True)
        old_token = Token.objects.create(user=root)
        response = client_for(plain_organiser).post(
            "/api/players/", {"handle": handle, "password": "attacker-chosen-1"}, format="json"
        )
        assert response.status_code == 400
        assert response.json()["extra"]["field"] == "handle"
        root.refresh_from_db()
        assert root.check_password(PASSWORD)
        assert not root.check_password("attacker-chosen-1")
        stolen = anon.post("/api/token/", {"username": "root", "password": "attacker-chosen-1"}, format="json")
        assert stolen.status_code == 400
        assert Token.objects.filter(user=root, key=old_token.key).exists()

    @pytest.mark.parametrize("kind", ["staff", "organiser", "plain"])
    def test_any_account_without_a_player_is_never_attached(self, client_for, plain_organiser, kind):
        victim = make_user(f"victim-{kind}", organiser=kind == "organiser")
        if kind == "staff":
            User.objects.filter(pk=victim.pk).update(is_staff=True)
        for body in ({"handle": f"victim-{kind}", "password": "attacker-chosen-1"}, {"handle": f"VICTIM-{kind}"}):
            response = client_for(plain_organiser).post("/api/players/", body, format="json")
            assert response.status_code == 400, response.json()
        victim.refresh_from_db()
        assert victim.check_password(PASSWORD)
        assert not hasattr(victim, "player") or victim.player is None

    def test_a_new_player_gets_a_new_account(self, client_for, plain_organiser, anon):
        response = client_for(plain_organiser).post(
            "/api/players/", {"handle": "newcomer", "password": "a-fine-password-9"}, format="json"
        )
        assert response.status_code == 201
        user = User.objects.get(username="newcomer")
        assert user.player.handle == "newcomer"
        assert not user.is_staff
        assert not user.is_superuser
        assert anon.post("/api/token/", {"username": "newcomer", "password": "a-fine-password-9"}).status_code == 200


class TestPasswordRules:
    @pytest.mark.parametrize("password", ["1", "12345678", "password", "newbie123"])
    def test_weak_player_passwords_are_a_400_naming_the_field(self, client_for, organiser, password):
        response = client_for(organiser).post(
            "/api/players/", {"handle": "newbie", "password": password}, format="json"
        )
        assert response.status_code == 400, password
        assert response.json()["extra"]["field"] == "password"
        assert not User.objects.filter(username="newbie").exists()

    def test_the_demo_logins_pass_the_validators(self):
        from web.management.commands.seed_demo import ADMIN, PLAYER_PASSWORD, PLAYERS

        validate_password(ADMIN[1], User(username=ADMIN[0]))
        for handle, _ in PLAYERS:
            validate_password(PLAYER_PASSWORD, User(username=handle))


class TestTokenRotation:
    def test_a_password_change_ends_the_old_token(self, alice, anon):
        old = anon.post("/api/token/", {"username": "alice", "password": PASSWORD}, format="json").json()["token"]
        alice.user.set_password("another-good-password-7")
        alice.user.save()
        anon.credentials(HTTP_AUTHORIZATION=f"Token {old}")
        assert anon.post("/api/matches/", {"players": ["alice", "x"], "best_of": 1}, format="json").status_code == 401
        anon.credentials()
        new = anon.post(
            "/api/token/", {"username": "alice", "password": "another-good-password-7"}, format="json"
        ).json()["token"]
        assert new != old

    def test_changing_the_password_back_does_not_bring_the_old_token_back(self, alice, anon):
        old = anon.post("/api/token/", {"username": "alice", "password": PASSWORD}, format="json").json()["token"]
        for password in ("another-good-password-7", PASSWORD):
            alice.user.set_password(password)
            alice.user.save()
        again = anon.post("/api/token/", {"username": "alice", "password": PASSWORD}, format="json").json()["token"]
        assert again != old
        assert not Token.objects.filter(key=old).exists()

    def test_the_admin_password_form_rotates_too(self, alice):
        from django.test import Client

        old = Token.objects.create(user=alice.user)
        client = Client()
        client.force_login(make_user("boss", superuser=True))
        response = client.post(
            f"/admin/auth/user/{alice.user.pk}/password/",
            {"password1": "brand-new-secret-42", "password2": "brand-new-secret-42", "usable_password": "true"},
        )
        assert response.status_code == 302, response.content[:500]
        assert not Token.objects.filter(key=old.key).exists()
