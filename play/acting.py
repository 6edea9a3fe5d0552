"""One way from an intent, a timer or a seat's coming and going to every socket of the table.

Call the referee (sync, in the sync thread), build the states it made once
per seat right after its commit, keep them for this process's connections,
then nudge every connection of the table in every process. The consumer,
the ticker (timers and bots) and the Celery tasks all go through here.
"""

from __future__ import annotations

from collections.abc import Callable

from asgiref.sync import async_to_sync

from .database import on_table_thread
from .groups import table_changed_notify
from .latest import Latest, latest_build, latest_keep
from .messages import Intent
from .models import Table
from .services import Reply, again_expire, table_intent, table_tick
from .services.live import now_ms
from .services.presence import Taken, seat_back, seat_release, seat_take, silent_tables

#: How many tables one sweep fires at most: the rest wait for the next sweep, a few seconds on.
SWEEP_LIMIT = 200


def _with_states(step: Callable[[], Reply | None]) -> tuple[Reply | None, Latest | None]:
    reply = step()
    if reply is None or reply.table is None:
        return reply, None
    return reply, latest_build(reply.table)


async def _publish(table_id: int, step: Callable[[], Reply | None]) -> Reply | None:
    made: tuple[Reply | None, Latest | None] = await on_table_thread(table_id, _with_states)(step)
    reply, latest = made
    latest_keep(table_id, latest)
    if reply is not None and reply.changed:
        await table_changed_notify(table_id, reply.v)
    return reply


async def table_act(table_id: int, seat: int, intent: Intent) -> Reply:
    """A seat's intent (a person's or a bot's), refereed and shown to everyone."""
    reply = await _publish(table_id, lambda: table_intent(table_id=table_id, seat=seat, intent=intent))
    assert reply is not None
    return reply


async def table_fire(table_id: int, now: int | None = None) -> Reply:
    """Whatever the table's clock makes due `now` (None: the clock's now), recorded and shown to everyone."""
    reply = await _publish(table_id, lambda: table_tick(table_id=table_id, now=now))
    assert reply is not None
    return reply


async def seat_arrive(table_id: int, seat: int, channel: str) -> str | None:
    """A connection takes the seat; the channel of the connection it replaced, if any."""
    taken: list[Taken] = []

    def step() -> Reply:
        taken.append(seat_take(table_id=table_id, seat=seat, channel=channel))
        return taken[0].reply

    await _publish(table_id, step)
    return taken[0].replaced


async def seat_leave(table_id: int, seat: int, channel: str) -> None:
    """The seat's connection closed or failed: the seat is away, unless another connection holds it."""
    await _publish(table_id, lambda: seat_release(table_id=table_id, seat=seat, channel=channel))


async def seat_return(table_id: int, seat: int, channel: str) -> None:
    """A connection taken for silent beats again: the seat is present again."""
    await _publish(table_id, lambda: seat_back(table_id=table_id, seat=seat, channel=channel))


def table_fire_sync(table_id: int, now: int | None = None) -> Reply:
    """`table_fire` from sync code (a Celery task)."""
    return async_to_sync(table_fire)(table_id, now)


def tables_nudge_sync(changed: list[tuple[int, int]]) -> None:
    """Tell every connection of each (table, `v`) a sync service changed outside the referee's intents (the
    offer to play again: its answers over HTTP, the beat's sweep). Their states are read from the database."""
    for table_id, v in changed:
        async_to_sync(table_changed_notify)(table_id, v)


def again_sweep() -> int:
    """The beat's sweep of the offers to play again: expire (or start) those due, nudge their tables; how many."""
    changed = again_expire()
    tables_nudge_sync(changed)
    return len(changed)


def tables_sweep(*, now: int | None = None) -> int:
    """Fire every live table whose timer is overdue or whose seat fell silent; how many were fired (sync)."""
    now = now_ms() if now is None else now
    overdue = list(
        Table.objects.filter(status__in=Table.LIVE, due_at__lte=now)
        .order_by("due_at")
        .values_list("pk", flat=True)[:SWEEP_LIMIT]
    )
    ids = list(dict.fromkeys([*overdue, *silent_tables(now=now, limit=SWEEP_LIMIT)]))[:SWEEP_LIMIT]
    for table_id in ids:
        table_fire_sync(table_id, now)
    return len(ids)
