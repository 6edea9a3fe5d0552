"""Seats and their connections (amendment L2), and the bot lease: none of it waits on a play.

A heartbeat is one UPDATE of the seat's own row (`TableSeat`), never the
table row every play locks. Only what changes the game's view of a seat (a
connection taking it, closing, falling silent, coming back) takes the table
row's lock and bumps `v`, since every state shows it.

Whether a seat is shown away is kept on its own row too (`away_since`: set when
its connection closed, or when the referee noticed it silent), so the beat that
lands after the referee noticed a silence knows it at once, in the database,
whatever either side's clock said: a silence noticed is always ended by the
next beat, however short the silence was (a slow beat under load, a database
outage that kept every beat from landing).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from django.db import transaction
from django.db.models import Q

from ..models import Table, TableBotLease, TableSeat
from .live import now_ms, stale_after_ms
from .referee import Reply, bump, lock
from .waiting import table_wait_notices_open


@dataclass(frozen=True, slots=True)
class Taken:
    """A connection took a seat: the reply (the table changed), and the connection it replaced, if any."""

    reply: Reply
    replaced: str | None


def seat_of(seat_users: list[int | None], user_id: int | None) -> int | None:
    """The seat `user_id` holds at a table with these `seat_users`, or None (a spectator)."""
    if user_id is None:
        return None
    return next((seat for seat, owner in enumerate(seat_users) if owner == user_id), None)


@transaction.atomic
def seat_take(*, table_id: int, seat: int, channel: str) -> Taken:
    """A connection of the seat's user opened: it holds the seat now; the older connection is replaced."""
    table = lock(table_id)
    row = TableSeat.objects.select_for_update().get(table_id=table_id, seat=seat)
    replaced = row.channel or None
    row.channel, row.seen, row.away_since = channel, now_ms(), None
    row.save(update_fields=["channel", "seen", "away_since"])
    table.away[seat] = None
    bump(table, None, ["away"])
    # The match's other players learn someone is waiting for them (once per table and player).
    table_wait_notices_open(table=table, seat=seat)
    return Taken(Reply(None, table.v, changed=True, table=table), replaced if replaced != channel else None)


@transaction.atomic
def seat_release(*, table_id: int, seat: int, channel: str) -> Reply | None:
    """A seat's connection closed or failed: the seat is away now, unless another connection took it since."""
    table = lock(table_id)  # first, as every change of a table does: no two locks taken in two orders
    released = TableSeat.objects.filter(table_id=table_id, seat=seat, channel=channel).update(
        channel="", away_since=now_ms()
    )
    if not released:
        return None
    if table.away[seat] is None:
        table.away[seat] = now_ms()
        bump(table, None, ["away"])
        return Reply(None, table.v, changed=True, table=table)
    return None


Beat = Literal["present", "back", "gone"]


def seat_beat(*, table_id: int, seat: int, channel: str) -> Beat:
    """The connection is alive: one UPDATE, no lock on the table.

    "present": nothing more to do. "back": the seat had been noticed silent, so it is shown away; the
    caller shows it present again (`seat_back`). "gone": another connection holds the seat.
    """
    held = TableSeat.objects.filter(table_id=table_id, seat=seat, channel=channel)
    now = now_ms()
    if held.filter(away_since__isnull=True).update(seen=now):
        return "present"
    # Only `seat_back` clears `away_since`, with the table's `away`: a beat that failed in between still
    # finds the seat away, and the next one tries again.
    return "back" if held.update(seen=now) else "gone"


@transaction.atomic
def seat_back(*, table_id: int, seat: int, channel: str) -> Reply | None:
    """A connection noticed silent beat again: the seat is present again (None when nothing changed)."""
    table = lock(table_id)
    holds = TableSeat.objects.filter(table_id=table_id, seat=seat, channel=channel).update(away_since=None)
    if not holds or table.away[seat] is None or table.status not in Table.LIVE:
        return None
    table.away[seat] = None
    bump(table, None, ["away"])
    return Reply(None, table.v, changed=True, table=table)


def silent_tables(*, now: int, limit: int) -> list[int]:
    """Live tables with a seat whose connection fell silent and is not yet shown away (for the sweep)."""
    return list(
        TableSeat.objects.filter(
            channel__gt="", seen__lte=now - stale_after_ms(), away_since__isnull=True, table__status__in=Table.LIVE
        )
        .values_list("table_id", flat=True)
        .distinct()[:limit]
    )


def table_bot_lease(*, table_id: int, owner: str, for_ms: int) -> bool:
    """Take or renew the right to run the table's bots (one process at a time); False if another holds it."""
    now = now_ms()
    return bool(
        TableBotLease.objects.filter(table_id=table_id)
        .filter(Q(owner__in=("", owner)) | Q(until__lte=now))
        .update(owner=owner, until=now + for_ms)
    )
