"""The outbox: every email is a row (`OutboxEmail`) written by the change it tells of, sent after the commit.

Writing: `outbox_write` (notifications, from `notifications.notify`) and
`password_reset_request` (the password reset form) add rows in the caller's
transaction, one INSERT, and ask a worker to send them once it commits
(`on_commit`, robust). A change rolled back leaves no row and sends nothing.

Sending: `outbox_send` takes pending rows with `SELECT … FOR UPDATE SKIP
LOCKED` and keeps them locked while Django's email backend sends them, so two
workers (the commit's task and the beat's sweep, or two sweeps) never send one
row twice: the second skips what the first holds, and finds it sent once the
first commits. A row is marked sent only after the backend accepted its
message; a backend that fails leaves it pending with the error and one more
attempt, and after `SPEED_OUTBOX_MAX_ATTEMPTS` it is given up. Delivery is at
least once: a worker killed between the backend's yes and the commit sends
that row again. Who has an address and wants the kind is read at send time,
and so is the zone each time in it is written in (`email_times`);
a password reset's user, token and link are made at send time too, so the
request that asked never looks the address up (a known and an unknown one
are answered alike) and no usable link is ever stored.

Sweeping: when the broker was down at the commit, the task never left;
`outbox_sweep` (Celery beat, `CELERY_BEAT_SCHEDULE`) sends the rows still
pending after `SPEED_OUTBOX_SWEEP_AFTER_SECONDS`; once a day `outbox_prune`
forgets sent and skipped rows older than `SPEED_OUTBOX_KEEP_DAYS`.
"""

from __future__ import annotations

import logging
import smtplib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.contrib.auth.forms import PasswordResetForm
from django.contrib.auth.tokens import default_token_generator
from django.core.mail import EmailMessage, get_connection
from django.db import transaction
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode

from ..email_times import email_times_render
from ..models import NotificationPreference, OutboxEmail, TimeZonePreference

logger = logging.getLogger(__name__)

#: The outbox kind of a password reset (the notifications' kinds are `notifications.Kind`'s values).
PASSWORD_RESET = "password_reset"  # noqa: S105 - a kind's name, not a password
#: Rows one transaction of `outbox_send` locks and sends; a sweep takes batch after batch.
BATCH = 100
#: Batches one sweep sends at most (the next sweep goes on), so that a task stays short.
SWEEP_BATCHES = 20

#: A mail server's refusal of one message (its recipient, its sender, its data); any other failure
#: (a connection refused or timed out, a login refused) is the backend's, and ends the batch.
MESSAGE_REFUSED = (smtplib.SMTPRecipientsRefused, smtplib.SMTPSenderRefused, smtplib.SMTPDataError)

#: Why a row is not sent, and never will be (`OutboxEmail.skipped`).
NO_ADDRESS = "no address"
INACTIVE = "inactive"
TURNED_OFF = "turned off"
UNKNOWN_ADDRESS = "unknown address"
GAVE_UP = "gave up"


def site_url(path: str) -> str:
    """An absolute link to a page of the site (SPEED_SITE_URL, the address people reach it at).

    Every link in every email is made here: never from a request's Host, which
    a client chooses (any name ALLOWED_HOSTS lets through).
    """
    return settings.SPEED_SITE_URL.rstrip("/") + path


def _send_after_commit(ids: list[int]) -> None:
    def send() -> None:  # a named function: Django logs a robust callback's __qualname__
        from ..tasks import outbox_send_task  # noqa: PLC0415 - the tasks module imports the services

        outbox_send_task.delay(ids)

    # Robust: a broker down at the commit is logged, and the rows wait for the sweep.
    transaction.on_commit(send, robust=True)


def _add(rows: list[OutboxEmail]) -> list[int]:
    now = timezone.now()
    for row in rows:
        row.created_at = now
    OutboxEmail.objects.bulk_create(rows)  # one INSERT … RETURNING id
    ids = [row.pk for row in rows]
    assert all(ids), "the database returned no ids for the outbox rows"
    _send_after_commit(ids)
    return ids


def outbox_write(*, kind: str, user_ids: Iterable[int], subject: str, body: str) -> list[int]:
    """One row per user (one INSERT), sent once the current transaction commits; the rows' ids."""
    ids = sorted(set(user_ids))
    if not ids:
        return []
    return _add([OutboxEmail(kind=kind, user_id=user_id, subject=subject, body=body) for user_id in ids])


def password_reset_request(*, address: str) -> None:
    """Someone asked for a password reset link at this address: one row, whoever it belongs to.

    No lookup here: whether an account has this address is found by the task
    (`outbox_send`), so the answer takes the same statements, and the same
    time, for an address that has an account and one that has none.
    """
    _add([OutboxEmail(kind=PASSWORD_RESET, address=address.strip())])


@dataclass
class OutboxResult:
    """What one `outbox_send` or `outbox_sweep` did with the rows it took."""

    sent: int = 0
    skipped: int = 0
    failed: int = 0
    # The backend failed as a whole (not one message): the rows after it were left as they were.
    backend_down: bool = False

    def add(self, other: OutboxResult) -> None:
        self.sent, self.skipped, self.failed = (
            self.sent + other.sent,
            self.skipped + other.skipped,
            self.failed + other.failed,
        )
        self.backend_down = self.backend_down or other.backend_down


def _password_reset_messages(row: OutboxEmail, sender: str) -> list[EmailMessage]:
    """One message per active account with a usable password at the address (Django's rule), with its link."""
    messages = []
    for user in PasswordResetForm().get_users(row.address):
        uid = urlsafe_base64_encode(force_bytes(user.pk))
        token = default_token_generator.make_token(user)
        context = {
            "user": user,
            "site": settings.SPEED_SITE_URL.rstrip("/"),
            "link": site_url(reverse("password_reset_confirm", kwargs={"uidb64": uid, "token": token})),
        }
        subject = "".join(render_to_string("registration/password_reset_subject.txt", context).splitlines())
        body = render_to_string("registration/password_reset_email.html", context)
        messages.append(EmailMessage(subject, body, sender, [user.email]))
    return messages


def _notification_skip(row: OutboxEmail, preferences: dict[int, NotificationPreference]) -> str:
    """Why this notification is not for sending now (or "": send it), as its person's settings are now."""
    user = row.user
    if user is None:
        return NO_ADDRESS
    if not user.is_active:
        return INACTIVE
    if not getattr(user, "email", ""):
        return NO_ADDRESS
    preference = preferences.get(user.pk)
    if preference is not None and not getattr(preference, row.kind, True):
        return TURNED_OFF
    return ""


def _notification_message(row: OutboxEmail, sender: str, zones: dict[int, str]) -> EmailMessage:
    """A notification as its recipient reads it: every time in it in their zone (UTC when they chose none)."""
    assert row.user is not None
    subject, body = (email_times_render(text, zones.get(row.user.pk)) for text in (row.subject, row.body))
    return EmailMessage(subject, body, sender, [row.user.email])


def outbox_send(
    *, ids: Sequence[int] | None = None, created_before: datetime | None = None, limit: int = BATCH
) -> OutboxResult:
    """Send pending rows (these `ids`, or any created before `created_before`), at most `limit`, in one transaction.

    The rows taken stay locked until they are marked (SKIP LOCKED: rows another
    worker holds are left to it), oldest first. A mail server that refuses one
    message fails that row only; a backend that fails as a whole (unreachable)
    fails the row it was sending and leaves the rest untried: each would wait
    out EMAIL_TIMEOUT in turn, holding the batch's locks.
    """
    result = OutboxResult()
    with transaction.atomic():
        pending = OutboxEmail.objects.select_for_update(skip_locked=True, of=("self",)).filter(
            sent_at__isnull=True, skipped=""
        )
        if ids is not None:
            pending = pending.filter(pk__in=list(ids))
        if created_before is not None:
            pending = pending.filter(created_at__lt=created_before)
        rows = list(pending.select_related("user").order_by("id")[:limit])
        if not rows:
            return result
        users = [row.user_id for row in rows if row.user_id is not None]
        preferences = {p.user_id: p for p in NotificationPreference.objects.filter(user_id__in=users)}
        zones = dict(TimeZonePreference.objects.filter(user_id__in=users).values_list("user_id", "name"))
        sender = settings.DEFAULT_FROM_EMAIL
        connection = get_connection(fail_silently=False)
        now = timezone.now()
        try:
            for row in rows:
                if result.backend_down:
                    break
                if row.kind == PASSWORD_RESET:
                    messages = _password_reset_messages(row, sender)
                    row.skipped = "" if messages else UNKNOWN_ADDRESS
                else:
                    row.skipped = _notification_skip(row, preferences)
                    messages = [] if row.skipped else [_notification_message(row, sender, zones)]
                if row.skipped:
                    result.skipped += 1
                    continue
                row.attempts += 1
                try:
                    accepted = connection.send_messages(messages) or 0
                    if accepted < len(messages):
                        raise RuntimeError(f"the email backend accepted {accepted} of {len(messages)} messages")
                except Exception as exc:  # any backend failure (SMTP, a socket, …) leaves the row to try again
                    row.last_error = f"{type(exc).__name__}: {exc}"[:2000]
                    result.failed += 1
                    logger.warning("outbox email %s not sent (attempt %s): %s", row.pk, row.attempts, row.last_error)
                    if row.attempts >= settings.SPEED_OUTBOX_MAX_ATTEMPTS:
                        row.skipped = GAVE_UP
                    result.backend_down = not isinstance(exc, MESSAGE_REFUSED)
                    continue
                row.sent_at = now
                row.last_error = ""
                result.sent += 1
        finally:
            connection.close()
        OutboxEmail.objects.bulk_update(rows, ["sent_at", "attempts", "last_error", "skipped"])
    return result


def outbox_sweep(*, older_than: timedelta, batches: int = SWEEP_BATCHES) -> OutboxResult:
    """Send the rows still pending `older_than` after they were written (the broker was down), batch by batch.

    Each batch is its own transaction; the cursor moves past rows that failed,
    so one sweep tries each row once, and a backend down ends the sweep.
    """
    total = OutboxResult()
    cutoff = timezone.now() - older_than
    after_id = 0
    for _ in range(batches):
        ids = list(
            OutboxEmail.objects.filter(sent_at__isnull=True, skipped="", created_at__lt=cutoff, pk__gt=after_id)
            .order_by("id")
            .values_list("id", flat=True)[:BATCH]
        )
        if not ids:
            break
        batch = outbox_send(ids=ids, created_before=cutoff)
        total.add(batch)
        if batch.backend_down:
            break
        after_id = ids[-1]
    return total


def outbox_prune() -> int:
    """Delete rows sent or skipped more than SPEED_OUTBOX_KEEP_DAYS ago; how many."""
    before = timezone.now() - timedelta(days=settings.SPEED_OUTBOX_KEEP_DAYS)
    deleted, _ = OutboxEmail.objects.filter(created_at__lt=before).exclude(sent_at__isnull=True, skipped="").delete()
    return deleted
