"""The outbox: a row per email, written with the change, sent after the commit, swept when its task was lost.

Here the tasks run in-process (`capture(execute=True)` runs what a commit
enqueues); the same with a real broker that is down, then back, and a real
worker and beat, is tests/faults/test_mail_outage.py.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from datetime import timedelta

import psycopg
import pytest
from django.conf import settings as django_settings
from django.core import mail
from django.db import connection, transaction
from django.utils import timezone

from benchmarks.workers import current_database_url
from matches.models import OutboxEmail, Player
from matches.services import game_report_result, user_email_set
from matches.services.notifications import Kind, notification_preferences_set, notify
from matches.services.outbox import GAVE_UP, INACTIVE, NO_ADDRESS, TURNED_OFF, outbox_prune, outbox_send, outbox_sweep
from speedsite.celery import app as celery_app
from tests.factories import make_match
from tests.queries import assert_database_query_count

pytestmark = pytest.mark.django_db

GRACE = timedelta(seconds=60)


def with_email(player: Player) -> Player:
    assert player.user is not None
    user_email_set(user=player.user, email=f"{player.handle}@example.org")
    player.user.refresh_from_db()
    return player


def aged(*rows: OutboxEmail | int, by: timedelta = GRACE + timedelta(seconds=1)) -> None:
    """As the rows would be that long after their commit."""
    ids = [row if isinstance(row, int) else row.pk for row in rows]
    OutboxEmail.objects.filter(pk__in=ids).update(created_at=timezone.now() - by)


def tell(*players: Player, subject: str = "hello") -> list[OutboxEmail]:
    """A notification to these players, its task lost (the commit's callback never runs: the broker was down).

    The rows it wrote.
    """
    before = OutboxEmail.objects.order_by("-id").values_list("id", flat=True).first() or 0
    notify(
        kind=Kind.MATCH_CALLED,
        user_ids=[player.user_id for player in players],
        subject=subject,
        lines=["Your match is called."],
        path="/matches/1/",
    )
    return list(OutboxEmail.objects.filter(id__gt=before).order_by("id"))


def test_notify_writes_one_row_per_person_in_one_insert_and_sends_after_the_commit(alice, ben, capture) -> None:
    with_email(alice), with_email(ben)
    with capture() as callbacks, assert_database_query_count(1), transaction.atomic():
        notify(
            kind=Kind.MATCH_CALLED,
            user_ids=[ben.user_id, alice.user_id, ben.user_id, None],
            subject="s",
            lines=["l"],
            path="/p/",
        )
    rows = list(OutboxEmail.objects.order_by("user_id"))
    assert [(row.user_id, row.kind, row.sent_at) for row in rows] == [
        (alice.user_id, "match_called", None),
        (ben.user_id, "match_called", None),
    ]
    assert mail.outbox == [] and len(callbacks) == 1  # nothing sent before the commit
    callbacks[0]()  # the commit: its task
    assert sorted(message.to[0] for message in mail.outbox) == ["alice@example.org", "ben@example.org"]
    assert all(row.sent_at is not None and row.attempts == 1 for row in OutboxEmail.objects.all())


def test_a_change_rolled_back_leaves_no_row_and_sends_nothing(alice, ben, capture) -> None:
    with_email(ben)
    game = make_match(alice, ben).games.get()
    with capture(execute=True), pytest.raises(RuntimeError), transaction.atomic():
        game_report_result(game_id=game.pk, user=alice.user, winner="alice")
        assert OutboxEmail.objects.count() == 1  # written with the claim, in its transaction
        raise RuntimeError("rolled back")
    assert not OutboxEmail.objects.exists()
    assert outbox_sweep(older_than=timedelta(0)).sent == 0
    assert mail.outbox == []


def test_a_row_whose_task_was_lost_is_sent_by_the_sweep_once_and_only_after_the_grace(alice, ben) -> None:
    with_email(alice), with_email(ben)
    old, new = tell(alice, subject="older"), tell(ben, subject="newer")
    aged(*old)
    first = outbox_sweep(older_than=GRACE)
    assert (first.sent, first.skipped, first.failed) == (1, 0, 0)
    assert [(m.to, m.subject) for m in mail.outbox] == [(["alice@example.org"], "Speed: older")]
    assert "http://localhost:8000/matches/1/" in mail.outbox[0].body
    assert OutboxEmail.objects.get(pk=new[0].pk).sent_at is None  # its own task may still come
    assert outbox_sweep(older_than=GRACE).sent == 0  # a second sweep: nothing twice
    # The late task of a row the sweep sent finds it sent.
    assert outbox_send(ids=[old[0].pk]).sent == 0
    assert len(mail.outbox) == 1


@contextmanager
def rows_locked(ids: list[int]) -> Iterator[None]:
    """Hold these rows' locks from another connection, as a worker sending them does."""
    with psycopg.connect(current_database_url().replace("postgres://", "postgresql://", 1)) as held:
        held.execute("SELECT id FROM matches_outboxemail WHERE id = ANY(%s) FOR UPDATE", [ids])
        yield
        held.rollback()


@pytest.mark.django_db(transaction=True)
def test_a_row_another_worker_is_sending_is_skipped_not_sent_twice(alice, ben) -> None:
    with_email(alice), with_email(ben)
    # Written as `notify` writes them; committed here at once, so their task would run at once:
    # this test's rows have none (as if the broker had been down).
    busy, free = (
        OutboxEmail.objects.create(
            kind=Kind.MATCH_CALLED, user=player.user, subject=f"Speed: {subject}", body="b", created_at=timezone.now()
        )
        for player, subject in ((alice, "busy"), (ben, "free"))
    )
    aged(busy, free)
    with rows_locked([busy.pk]), connection.cursor() as cursor:
        cursor.execute("SET lock_timeout = '5s'")  # a sweep that waited for the lock would fail, not hang
        during = outbox_sweep(older_than=GRACE)
        assert outbox_send(ids=[busy.pk]).sent == 0  # its own task: skips it too, does not wait
        cursor.execute("RESET lock_timeout")
    assert during.sent == 1
    assert [m.subject for m in mail.outbox] == ["Speed: free"]
    assert outbox_sweep(older_than=GRACE).sent == 1  # the holder gave it up (rolled back): now sent
    assert outbox_sweep(older_than=GRACE).sent == 0
    assert sorted(m.subject for m in mail.outbox) == ["Speed: busy", "Speed: free"]


def test_addresses_and_preferences_are_read_when_sent(alice, ben, carol) -> None:
    with_email(alice), with_email(ben), with_email(carol)
    rows = {row.user_id: row for row in tell(alice, ben, carol)}
    notification_preferences_set(user=alice.user, kinds=[Kind.CLAIM_WAITING])  # match_called now off
    user_email_set(user=ben.user, email="ben@new.example.org")
    assert carol.user is not None
    carol.user.is_active = False
    carol.user.save()
    aged(*rows.values())
    result = outbox_sweep(older_than=GRACE)
    assert (result.sent, result.skipped) == (1, 2)
    assert [m.to for m in mail.outbox] == [["ben@new.example.org"]]
    skipped = dict(OutboxEmail.objects.values_list("user_id", "skipped"))
    assert skipped == {alice.user_id: TURNED_OFF, ben.user_id: "", carol.user_id: INACTIVE}
    assert outbox_sweep(older_than=GRACE).skipped == 0  # a skipped row is done with


def test_nobody_without_an_address_is_sent_one(alice) -> None:
    [row] = tell(alice)
    aged(row)
    assert outbox_sweep(older_than=GRACE).skipped == 1
    assert OutboxEmail.objects.get().skipped == NO_ADDRESS


def test_a_mail_server_that_is_down_leaves_the_rows_pending_until_it_answers(alice, ben, settings) -> None:
    """A real SMTP connection to a port nothing listens on; a row is marked sent only once a backend accepts it.

    The first row's failure ends the sweep: the next would only wait out the same timeout.
    """
    with_email(alice), with_email(ben)
    [first], [second] = tell(alice), tell(ben)
    aged(first, second)
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST, settings.EMAIL_PORT, settings.EMAIL_USE_TLS, settings.EMAIL_TIMEOUT = "127.0.0.1", 1, False, 2
    down = outbox_sweep(older_than=GRACE)
    assert (down.sent, down.failed, down.backend_down) == (0, 1, True)
    first.refresh_from_db(), second.refresh_from_db()
    assert (first.sent_at, first.attempts, first.skipped) == (None, 1, "")
    assert "Connection refused" in first.last_error or "ConnectionRefused" in first.last_error
    assert (second.sent_at, second.attempts, second.last_error) == (None, 0, "")  # not tried
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"  # the server is back
    assert outbox_sweep(older_than=GRACE).sent == 2
    first.refresh_from_db()
    assert (first.attempts, first.last_error) == (2, "")
    assert sorted(m.to[0] for m in mail.outbox) == ["alice@example.org", "ben@example.org"]


def test_a_row_that_keeps_failing_is_given_up(alice, settings) -> None:
    with_email(alice)
    [row] = tell(alice)
    aged(row)
    settings.SPEED_OUTBOX_MAX_ATTEMPTS = 2
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST, settings.EMAIL_PORT, settings.EMAIL_USE_TLS, settings.EMAIL_TIMEOUT = "127.0.0.1", 1, False, 2
    assert [outbox_sweep(older_than=GRACE).failed for _ in range(3)] == [1, 1, 0]
    row.refresh_from_db()
    assert (row.sent_at, row.attempts, row.skipped) == (None, 2, GAVE_UP)


def test_rows_done_long_ago_are_forgotten_and_pending_ones_kept(alice, ben) -> None:
    with_email(alice)
    [sent], [pending], [recent] = tell(alice), tell(ben), tell(alice)
    OutboxEmail.objects.filter(pk__in=[sent.pk, recent.pk]).update(sent_at=timezone.now())
    aged(sent, pending, by=timedelta(days=django_settings.SPEED_OUTBOX_KEEP_DAYS + 1))
    assert outbox_prune() == 1
    assert sorted(OutboxEmail.objects.values_list("pk", flat=True)) == [pending.pk, recent.pk]


def test_the_beat_sweeps_the_outbox() -> None:
    celery_app.autodiscover_tasks(force=True)  # as a worker or beat does at start
    entries = {entry["task"]: entry["schedule"] for entry in django_settings.CELERY_BEAT_SCHEDULE.values()}
    assert "matches.outbox_sweep" in entries
    assert "matches.outbox_sweep" in celery_app.tasks and "matches.outbox_send" in celery_app.tasks
    assert entries["matches.outbox_sweep"] <= django_settings.SPEED_OUTBOX_SWEEP_AFTER_SECONDS
    assert "matches.outbox_prune" in entries and "matches.outbox_prune" in celery_app.tasks


def test_a_message_queued_before_the_outbox_is_still_sent(alice, capture) -> None:
    """A deploy's in-flight `matches.notification_send` (the old task's arguments) goes through the outbox."""
    with_email(alice)
    with capture(execute=True):
        celery_app.tasks["matches.notification_send"].delay("match_called", [alice.user_id], "Speed: old", "body")
    assert [(m.to, m.subject) for m in mail.outbox] == [(["alice@example.org"], "Speed: old")]
    assert OutboxEmail.objects.get().sent_at is not None
