"""Players change their password on the site, and reset a forgotten one by email (Django's views and backend).

A reset request writes the address to the outbox and nothing else; the task
(run here by `capture(execute=True)`, as the commit runs it) finds the
account, makes the link from SPEED_SITE_URL and sends it.
"""

from __future__ import annotations

import re

import pytest
from django.core import mail
from django.test import Client
from rest_framework.authtoken.models import Token

from matches.models import OutboxEmail
from matches.services.outbox import UNKNOWN_ADDRESS
from tests.factories import PASSWORD, make_player
from tests.queries import database_queries

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


def test_a_forgotten_password_is_reset_through_the_emailed_link(alice, capture):
    alice.user.email = "alice@example.org"
    alice.user.save()
    client = Client()
    assert b"Forgot your password?" in client.get("/accounts/login/").content
    with capture(execute=True):
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


def test_an_unknown_address_gets_the_same_answer_and_no_mail(capture):
    with capture(execute=True):
        response = Client().post("/accounts/password/reset/", {"email": "nobody@example.org"})
    assert response.status_code == 302
    assert mail.outbox == []
    [row] = OutboxEmail.objects.all()
    assert (row.address, row.sent_at, row.skipped) == ("nobody@example.org", None, UNKNOWN_ADDRESS)


def _reset_request(address: str, capture) -> tuple[int, str, list[str]]:
    """The answer to a reset request for `address`, and its statements with the address and times taken out."""
    with capture() as callbacks, database_queries() as queries:
        response = Client().post("/accounts/password/reset/", {"email": address})
    assert len(callbacks) == 1  # the send, after the commit: not part of the answer
    statements = [
        re.sub(r"'[0-9-]+ [0-9:.+]+'::timestamptz", "TIME", sql.replace(address, "ADDRESS")) for sql in queries
    ]
    return response.status_code, response["Location"], statements


def test_a_known_and_an_unknown_address_are_answered_alike_after_the_same_statements(alice, capture):
    """Nothing in the request tells whether the address has an account: the same answer, the same queries
    (none of them reads a user), so the same work, whatever the time it takes on a given machine."""
    alice.user.email = "alice@example.org"
    alice.user.save()
    known = _reset_request("alice@example.org", capture)
    unknown = _reset_request("nobody@example.org", capture)
    assert known[:2] == unknown[:2] == (302, "/accounts/password/reset/sent/")
    assert known[2] == unknown[2]
    assert not any("auth_user" in sql for sql in known[2])
    assert any(sql.startswith('INSERT INTO "matches_outboxemail"') for sql in known[2])
    assert mail.outbox == []  # neither is sent by the request


@pytest.mark.parametrize("host", ["localhost:6666", "localhost.", "127.0.0.1"])
def test_the_reset_link_is_the_sites_address_whatever_the_host_header(alice, capture, settings, host):
    settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, "localhost."]
    settings.SPEED_SITE_URL = "https://speed.example.org/"
    alice.user.email = "alice@example.org"
    alice.user.save()
    with capture(execute=True):
        response = Client().post("/accounts/password/reset/", {"email": "alice@example.org"}, HTTP_HOST=host)
    assert response.status_code == 302
    [message] = mail.outbox
    links = re.findall(r"https?://\S+", message.body)
    assert links and all(link.startswith("https://speed.example.org") for link in links)
    assert any(link.startswith("https://speed.example.org/accounts/password/reset/") for link in links)
    assert host not in message.body
    assert "at https://speed.example.org." in message.body


def test_every_account_at_the_address_gets_its_own_link_and_none_is_stored(alice, capture):
    """As Django's form does: each active account with a usable password at the address (case aside)."""
    ben = make_player("ben")
    for user, address in ((alice.user, "shared@example.org"), (ben.user, "Shared@Example.org")):
        user.email = address
        user.save()
    with capture(execute=True):
        Client().post("/accounts/password/reset/", {"email": "shared@example.org"})
    assert sorted(message.to[0] for message in mail.outbox) == ["Shared@Example.org", "shared@example.org"]
    assert sorted(m.body.split("account ")[1].split(" ")[0] for m in mail.outbox) == ["alice", "ben"]
    [row] = OutboxEmail.objects.all()
    assert row.sent_at is not None
    assert (row.subject, row.body) == ("", "")  # the links are credentials: made when sent, never kept


def test_reset_requests_are_limited_per_address(settings, alice):
    settings.SPEED_PASSWORD_RESET_RATE_PER_ADDRESS = "2/hour"
    client = Client()
    statuses = [client.post("/accounts/password/reset/", {"email": "x@example.org"}).status_code for _ in range(3)]
    assert statuses == [302, 302, 429]


def test_the_demo_prints_mail_on_the_console():
    from speedsite import settings as project_settings

    assert project_settings.DEBUG
    assert project_settings.EMAIL_BACKEND == "django.core.mail.backends.console.EmailBackend"
