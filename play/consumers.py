"""The socket of a table, `/ws/tables/{id}/` (speed-table/1 section 2).

A connection by the user of a seat takes that seat (a second one replaces the
first); anyone else watches. Intents go to the referee one at a time; after
a change every connection gets a "changed" nudge through the channel layer
and sends the state if it is newer than the one it sent last. The process
that made the change built that state once per seat right after the commit
(`latest`), so its connections send it without a database read; a nudge for
a newer `v` than this process knows (another process's change) reads the
state from the database. Each connection is throttled on its own: a flood
waits its turn and the table's other connections are not slowed.
"""

from __future__ import annotations

import asyncio
import random
import time
from typing import Any

import orjson
from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings

from .groups import table_changed_notify, table_group
from .latest import intent_with_states, latest_get, latest_keep
from .models import Table
from .selectors import table_state
from .services import table_connect, table_disconnect, table_heartbeat
from .ticker import ticker_join, ticker_leave, ticker_wake

#: Close code sent to a connection whose seat another connection took.
REPLACED = 4001


def _state_for(table_id: int, seat: int | None, sent_v: int) -> dict[str, Any] | None:
    table = Table.objects.filter(pk=table_id).first()
    if table is None or table.v <= sent_v:
        return None
    return table_state(table=table, seat=seat)


def _table_exists(table_id: int) -> bool:
    return Table.objects.filter(pk=table_id).exists()


class _Bucket:
    """A token bucket: `rate` messages a second, bursts of `burst`."""

    def __init__(self, rate: float, burst: int) -> None:
        self.rate, self.burst = rate, burst
        self.tokens = float(burst)
        self.at = time.monotonic()

    def wait_needed(self) -> float:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
        self.at = now
        if self.tokens >= 1:
            self.tokens -= 1
            return 0.0
        wait = (1 - self.tokens) / self.rate
        self.tokens -= 1
        return wait


class TableConsumer(AsyncWebsocketConsumer):
    table_id: int
    seat: int | None = None
    sent_v = -1
    joined = False
    heartbeat: asyncio.Task[None] | None = None

    async def connect(self) -> None:
        self.table_id = int(self.scope["url_route"]["kwargs"]["table_id"])
        if not await database_sync_to_async(_table_exists)(self.table_id):
            await self.close(code=4004)
            return
        user = self.scope.get("user")
        user_id = user.pk if user is not None and user.is_authenticated else None
        self.bucket = _Bucket(settings.SPEED_TABLE_MESSAGES_PER_SECOND, settings.SPEED_TABLE_MESSAGE_BURST)
        await self.channel_layer.group_add(table_group(self.table_id), self.channel_name)
        await self.accept()
        self.seat, replaced = await database_sync_to_async(table_connect)(
            table_id=self.table_id, user_id=user_id, channel=self.channel_name
        )
        self.joined = True
        if replaced is not None:
            await self.channel_layer.send(replaced, {"type": "table.replaced"})
        await self._send_state()
        if self.seat is not None:
            await table_changed_notify(self.table_id, self.sent_v)
            self.heartbeat = asyncio.get_running_loop().create_task(self._beat(self.seat))
        ticker_join(self.table_id)

    async def _beat(self, seat: int) -> None:
        """Say the seat's connection is alive, so a seat of a dead process is seen to be away.

        The first beat comes after a random part of the interval: connections opened together (many
        tables starting at once, a server's restart) would otherwise beat together for ever, their
        transactions queueing in the process's one sync thread in a burst, ahead of every play.
        """
        interval = settings.SPEED_TABLE_HEARTBEAT_MS / 1000
        wait = interval * random.random()
        while self.joined and self.seat == seat:
            await asyncio.sleep(wait)
            wait = interval
            if not self.joined or self.seat != seat:
                return
            holds = await database_sync_to_async(table_heartbeat)(
                table_id=self.table_id, seat=seat, channel=self.channel_name
            )
            if not holds:
                return

    async def disconnect(self, code: int) -> None:
        if not self.joined:
            return
        self.joined = False
        if self.heartbeat is not None:
            self.heartbeat.cancel()
        ticker_leave(self.table_id)
        await self.channel_layer.group_discard(table_group(self.table_id), self.channel_name)
        if self.seat is not None:
            left = await database_sync_to_async(table_disconnect)(
                table_id=self.table_id, seat=self.seat, channel=self.channel_name
            )
            if left:
                await table_changed_notify(self.table_id, -1)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        wait = self.bucket.wait_needed()
        if wait > 0:  # throttled: this connection waits; the table and its other connections go on
            await asyncio.sleep(wait)
        raw = text_data if text_data is not None else bytes_data
        if raw is None or len(raw) > settings.SPEED_TABLE_MESSAGE_MAX_BYTES:
            await self._refuse(
                None, "bad_message", f"A message is at most {settings.SPEED_TABLE_MESSAGE_MAX_BYTES} bytes."
            )
            return
        try:
            message = orjson.loads(raw)
        except orjson.JSONDecodeError:
            await self._refuse(None, "bad_message", "A message is a JSON object.")
            return
        if not isinstance(message, dict):
            await self._refuse(None, "bad_message", "A message is a JSON object.")
            return
        ref = message.get("ref")
        ref = ref if type(ref) is str and len(ref) <= 64 else None
        if message.get("type") == "ping":
            await self.send(text_data=orjson.dumps({"type": "pong", "ref": ref}).decode())
            return
        reply, latest = await database_sync_to_async(intent_with_states)(
            table_id=self.table_id, seat=self.seat, message=message
        )
        latest_keep(self.table_id, latest)
        if reply.refusal is not None:
            await self._refuse(ref, reply.refusal.code, reply.refusal.message)
        if reply.changed:
            await table_changed_notify(self.table_id, reply.v)
        elif reply.refusal is None:
            await self._send_state(force=True)  # a duplicate ref, a repeated ready: the current state answers

    async def _refuse(self, ref: str | None, code: str, message: str) -> None:
        await self.send(
            text_data=orjson.dumps({"type": "refused", "ref": ref, "code": code, "message": message}).decode()
        )

    async def _send_state(self, *, force: bool = False) -> None:
        state = await database_sync_to_async(_state_for)(self.table_id, self.seat, -1 if force else self.sent_v)
        if state is not None:
            self.sent_v = max(self.sent_v, state["v"])
            await self.send(text_data=orjson.dumps(state).decode())

    async def table_changed(self, event: dict[str, Any]) -> None:
        v = event["v"]
        ticker_wake(self.table_id, v)
        if 0 <= v <= self.sent_v:
            return
        latest = latest_get(self.table_id)
        if latest is not None and v >= 0 and latest.v >= v:
            if latest.v > self.sent_v:  # built by this process after the commit: no database read
                self.sent_v = latest.v
                await self.send(text_data=latest.states[self.seat])
            return
        await self._send_state()  # another process's change (or a seat's coming and going): the database

    async def table_replaced(self, event: dict[str, Any]) -> None:
        self.seat = None
        await self.close(code=REPLACED)
