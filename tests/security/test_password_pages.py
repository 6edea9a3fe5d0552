"""Players change their password on the site, and reset a forgotten one by email (Django's views and backend)."""

from __future__ import annotations

import re

import pytest
from django.core import mail
from django.test import Client
from rest_framework.authtoken.models import Token

from tests.factories import PASSWORD

pytestmark = pytest.mark.django_db

NEW = "brand-new-secret-42"


def test_a_player_changes_their_password_and_stays_logged_in(alice):
    token = Token.objects.create(user=alice.user)
    client = Client()
    client.force_login(alice.user)
    page = client.get("/accounts/password/change/")
    assert page.status_code == 200
    assert page.templates[0].name == "registration/password_change_form.html"
    assert b'class="panel auth-card"' in page.content  # the site's page, not the admin's
    wrong = client.post(
        "/accounts/password/change/", {"old_password": "nope", "new_password1": NEW, "new_password2": NEW}
    )
    assert wrong.status_code == 200
    done = client.post(
        "/accounts/password/change/", {"old_password": PASSWORD, "new_password1": NEW, "new_password2": NEW}
    )
    assert done.status_code == 302
    assert done["Location"] == "/accounts/password/change/done/"
    assert client.get("/me/").status_code == 200  # still logged in
    alice.user.refresh_from_db()
    assert alice.user.check_password(NEW)
    assert not Token.objects.filter(key=token.key).exists()  # the old API token ends with the old password


def test_a_forgotten_password_is_reset_through_the_emailed_link(alice):
    alice.user.email = "alice@example.org"
    alice.user.save()
    client = Client()
    assert b"Forgot your password?" in client.get("/accounts/login/").content
    sent = client.post("/accounts/password/reset/", {"email": "alice@example.org"})
    assert sent.status_code == 302
    assert sent["Location"] == "/accounts/password/reset/sent/"
    [message] = mail.outbox
    assert message.to == ["alice@example.org"]
    assert "alice" in message.body
    link = re.search(r"https?://[^/\s]+(/accounts/password/reset/\S+)", message.body).group(1)
    form = client.get(link, follow=True)
    assert form.status_code == 200
    assert form.context["validlink"]
    done = client.post(form.redirect_chain[-1][0], {"new_password1": NEW, "new_password2": NEW})
    assert done.status_code == 302
    assert done["Location"] == "/accounts/password/reset/done/"
    alice.user.refresh_from_db()
    assert alice.user.check_password(NEW)
    # The link works once.
    again = client.get(link, follow=True)
    assert not again.context["validlink"]


def test_an_unknown_address_gets_the_same_answer_and_no_mail():
    response = Client().post("/accounts/password/reset/", {"email": "nobody@example.org"})
    assert response.status_code == 302
    assert mail.outbox == []


def test_reset_requests_are_limited_per_address(settings, alice):
    settings.SPEED_PASSWORD_RESET_RATE_PER_ADDRESS = "2/hour"
    client = Client()
    statuses = [client.post("/accounts/password/reset/", {"email": "x@example.org"}).status_code for _ in range(3)]
    assert statuses == [302, 302, 429]


def test_the_demo_prints_mail_on_the_console():
    from speedsite import settings as project_settings

    assert project_settings.DEBUG
    assert project_settings.EMAIL_BACKEND == "django.core.mail.backends.console.EmailBackend"
