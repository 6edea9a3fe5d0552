"""Telling a match's players that someone is waiting for them at its table: on their page, or by email.

A seat taken at a match's table writes a `TableWaitNotice` for each other player of it
(`table_wait_notices_open`, under the table's lock, one INSERT that keeps the first row of each).
Their page's live poll shows the banner and marks it told on a page (`table_wait_notices_shown`);
the beat's sweep (`table_wait_notices_send`) emails, through the outbox, those still not at the
table after the grace whose pages have not been seen for SPEED_SITE_ONLINE_SECONDS. The decision
is the database's, made by Celery: no socket process has to live for the email to leave.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.urls import reverse
from django.utils import timezone

from matches.selectors import AnyUser, users_with_kind_off
from matches.services.notifications import Kind, notify

from ..models import SiteSeen, Table, TableSeat, TableWaitNotice

#: Notices one sweep decides at most (the next sweep goes on).
SWEEP_LIMIT = 100


def table_wait_notices_open(*, table: Table, seat: int) -> None:
    """`seat` was taken at `table` (locked by the caller): a notice for each other player, kept if one exists."""
    if table.game_id is None or table.status not in Table.LIVE:
        return
    due = timezone.now() + timedelta(seconds=settings.SPEED_TABLE_WAIT_EMAIL_AFTER_SECONDS)
    handle = str(table.players[seat])
    notices = [
        TableWaitNotice(table_id=table.pk, user_id=user_id, seat=other, waiting_handle=handle, due_at=due)
        for other, user_id in enumerate(table.seat_users)
        if other != seat and user_id is not None and user_id != table.seat_users[seat]
    ]
    if notices:
        TableWaitNotice.objects.bulk_create(notices, ignore_conflicts=True)


def site_seen_touch(*, user: AnyUser, now: datetime | None = None) -> None:
    """A page of the signed-in user polled: they are on the site (written at most every few seconds)."""
    if user is None or not user.is_authenticated:
        return
    now = now or timezone.now()
    stale = now - timedelta(seconds=settings.SPEED_SITE_SEEN_WRITE_SECONDS)
    # Most polls find a fresh row and only read; a missing or stale one is upserted (two polls at once
    # both may: the same value, written twice).
    if SiteSeen.objects.filter(user_id=user.pk, seen_at__gt=stale).exists():
        return
    SiteSeen.objects.bulk_create(
        [SiteSeen(user_id=user.pk, seen_at=now)],
        update_conflicts=True,
        unique_fields=["user"],
        update_fields=["seen_at"],
    )


def table_wait_notices_shown(*, user_id: int, table_ids: Iterable[int]) -> None:
    """The user's page showed them these tables' banners: told on a page (the first time only)."""
    ids = list(table_ids)
    if ids:
        TableWaitNotice.objects.filter(user_id=user_id, table_id__in=ids, told=TableWaitNotice.Told.PENDING).update(
            told=TableWaitNotice.Told.PAGE, told_at=timezone.now()
        )


def _email(notice: TableWaitNotice) -> None:
    table = notice.table
    game = table.game
    where = f"game {game.number} of match {game.match_id}" if game else "your table"
    notify(
        kind=Kind.TABLE_WAITING,
        user_ids=[notice.user_id],
        subject=f"{notice.waiting_handle} is waiting at your table",
        lines=[f"{notice.waiting_handle} is waiting for you at the table of {where}. Join them there."],
        path=reverse("web:table", args=[table.pk]),
    )


@transaction.atomic
def table_wait_notices_send(*, now: datetime | None = None) -> int:
    """Decide the notices past their grace: email, nothing more to tell, or wait (their page was just seen).

    A notice stays pending while nobody else holds a seat (whoever was waiting left for now) or while
    its user was seen on the site lately (their page will show the banner). Returns how many were emailed.
    """
    now = now or timezone.now()
    notices = list(
        TableWaitNotice.objects.select_for_update(skip_locked=True, of=("self",))
        .filter(told=TableWaitNotice.Told.PENDING, due_at__lte=now)
        .select_related("table", "table__game")
        .order_by("due_at")[:SWEEP_LIMIT]
    )
    if not notices:
        return 0
    held = set(
        TableSeat.objects.filter(table_id__in={n.table_id for n in notices}, channel__gt="").values_list(
            "table_id", "seat"
        )
    )
    users = {n.user_id for n in notices}
    online_since = now - timedelta(seconds=settings.SPEED_SITE_ONLINE_SECONDS)
    online = set(
        SiteSeen.objects.filter(user_id__in=users, seen_at__gte=online_since).values_list("user_id", flat=True)
    )
    off = users_with_kind_off(kind=Kind.TABLE_WAITING.value, user_ids=users)
    emailed = 0
    for notice in notices:
        table = notice.table
        someone_waits = any((table.pk, seat) in held for seat in range(len(table.seat_users)) if seat != notice.seat)
        if table.status not in Table.LIVE or (table.pk, notice.seat) in held or notice.user_id in off:
            notice.told = TableWaitNotice.Told.NONE
        elif not someone_waits or notice.user_id in online:
            continue
        else:
            _email(notice)
            notice.told = TableWaitNotice.Told.EMAIL
            emailed += 1
        notice.told_at = now
        notice.save(update_fields=["told", "told_at"])
    return emailed
