"""No email is lost to a broker outage: the row written with the change waits, and the beat sends it.

The test process makes its changes while the broker is cut (a CuttableProxy in
front of Redis): each commits, its email's task cannot leave, the change stands.
Once the proxy is restored, a real `celery worker -B` (the beat inside, its
sweep every second) sends the pending rows through Django's file backend, which
the test reads: each email once, every link from SPEED_SITE_URL.
"""

from __future__ import annotations

import email
import time
from collections.abc import Iterator
from email.message import Message
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import pytest
from django.conf import settings as django_settings
from django.test import Client

from benchmarks.workers import WorkerProcess
from matches.models import Game, OutboxEmail, Player
from matches.services import game_report_result, user_email_set
from speedsite.celery import app as celery_app
from tests.factories import make_match, make_players
from tests.proxy import CuttableProxy
from tests.replays.test_pipeline import worker_env

pytestmark = [pytest.mark.pipeline, pytest.mark.django_db(transaction=True)]

SITE = "https://speed.example.org"


@pytest.fixture
def broker_proxy(broker: None) -> Iterator[CuttableProxy]:
    """This process's tasks go to Redis through a proxy the test can cut (the worker connects directly)."""
    url = urlsplit(django_settings.CELERY_BROKER_URL)
    with CuttableProxy(url.port or 6379, url.hostname or "127.0.0.1") as proxy:
        celery_app.conf.broker_url = urlunsplit(url._replace(netloc=f"127.0.0.1:{proxy.port}"))
        celery_app._after_fork()  # drop the pooled broker connections (Celery's own reset)
        try:
            yield proxy
        finally:
            celery_app.conf.broker_url = django_settings.CELERY_BROKER_URL
            celery_app._after_fork()


def mail_env(mail_dir: Path, **extra: str) -> dict[str, str]:
    return worker_env(
        EMAIL_BACKEND="django.core.mail.backends.filebased.EmailBackend",
        EMAIL_FILE_PATH=str(mail_dir),
        SPEED_SITE_URL=SITE,
        **extra,
    )


def sent_messages(mail_dir: Path) -> list[Message]:
    """Every message the worker's file backend wrote (one file per connection, messages split by a rule)."""
    messages = []
    for path in sorted(mail_dir.glob("*.log")):
        for chunk in path.read_text().split("-" * 79):
            if chunk.strip():
                messages.append(email.message_from_string(chunk.strip()))
    return messages


def body_of(message: Message) -> str:
    payload = message.get_payload(decode=True)
    assert isinstance(payload, bytes)
    return payload.decode()


def wait_until_done(ids: list[int], timeout: float = 60) -> list[OutboxEmail]:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        rows = list(OutboxEmail.objects.filter(pk__in=ids).order_by("id"))
        if all(row.sent_at is not None or row.skipped for row in rows):
            return rows
        time.sleep(0.2)
    raise AssertionError(f"still pending after {timeout}s: {OutboxEmail.objects.filter(pk__in=ids).values()}")


def with_email(player: Player) -> Player:
    assert player.user is not None
    user_email_set(user=player.user, email=f"{player.handle}@example.org")
    return player


def test_emails_made_while_the_broker_is_down_are_sent_by_the_beat_once_it_is_back(broker_proxy, tmp_path, settings):
    settings.SPEED_SITE_URL = SITE  # the deployment's, as the worker has it: a notification's text is made here
    alice, ben = (with_email(player) for player in make_players(2, prefix="out"))
    game = make_match(alice, ben).games.get()
    broker_proxy.cut()
    game_report_result(game_id=game.pk, user=alice.user, winner=alice.handle)  # commits; its task cannot leave
    reset = Client().post("/accounts/password/reset/", {"email": "out01@example.org"}, HTTP_HOST="localhost:6666")
    assert reset.status_code == 302  # the answer does not wait for the broker
    assert Game.objects.get(pk=game.pk).status == Game.Status.AWAITING_CONFIRMATION  # the change stands
    rows = list(OutboxEmail.objects.order_by("id"))
    assert [(row.kind, row.sent_at) for row in rows] == [("claim_waiting", None), ("password_reset", None)]
    broker_proxy.restore()

    mail_dir = tmp_path / "mail"
    worker = WorkerProcess(
        env=mail_env(mail_dir, SPEED_OUTBOX_SWEEP_EVERY_SECONDS="1", SPEED_OUTBOX_SWEEP_AFTER_SECONDS="1"),
        concurrency=2,
        beat=True,
        log_path=tmp_path / "worker.log",
    ).wait_ready()
    try:
        done = wait_until_done([row.pk for row in rows])
        time.sleep(3)  # a few more sweeps: none may send a row again
    finally:
        worker.stop()
    assert all(row.sent_at is not None and row.attempts == 1 for row in done), [row.last_error for row in done]
    messages = sent_messages(mail_dir)
    assert sorted((m["To"], m["Subject"]) for m in messages) == [
        ("out01@example.org", "Your Speed password"),
        ("out02@example.org", f"Speed: confirm game 1 of {alice.handle} v {ben.handle}"),
    ]
    for message in messages:
        links = [word for word in body_of(message).split() if "://" in word]
        assert links and all(link.startswith(SITE) for link in links), links
    [reset_mail] = [m for m in messages if m["To"] == "out01@example.org"]
    assert "localhost:6666" not in body_of(reset_mail)


def test_two_sweeps_at_once_send_each_row_once_and_a_commit_sends_its_own(broker_proxy, tmp_path):
    players = [with_email(player) for player in make_players(24, prefix="two")]
    broker_proxy.cut()
    for one, two in zip(players[::2], players[1::2], strict=True):
        game = make_match(one, two).games.get()
        game_report_result(game_id=game.pk, user=one.user, winner=one.handle)  # an email to `two`, its task lost
    pending = list(OutboxEmail.objects.values_list("id", flat=True))
    assert len(pending) == 12
    broker_proxy.restore()

    mail_dir = tmp_path / "mail"
    worker = WorkerProcess(
        env=mail_env(mail_dir, SPEED_OUTBOX_SWEEP_AFTER_SECONDS="0"), concurrency=2, log_path=tmp_path / "worker.log"
    ).wait_ready()
    try:
        for _ in range(4):  # what beat sends on its schedule, four at once on two processes
            celery_app.send_task("matches.outbox_sweep")
        wait_until_done(pending)
        # With the broker up, a change's email leaves with its own task at the commit.
        late = make_match(players[0], players[1]).games.get()
        game_report_result(game_id=late.pk, user=players[1].user, winner=players[1].handle)
        [own] = OutboxEmail.objects.exclude(pk__in=pending)
        wait_until_done([own.pk])
    finally:
        worker.stop()
    recipients = sorted(m["To"] for m in sent_messages(mail_dir))
    assert recipients == sorted(
        [f"{p.handle}@example.org" for p in players[1::2]] + [f"{players[0].handle}@example.org"]
    )
    assert set(OutboxEmail.objects.values_list("attempts", flat=True)) == {1}
