"""The socket of a table, `/ws/tables/{id}/` (speed-table/1 section 2 and amendment L).

A connection by the user of a seat takes that seat (the older connection is
told `replaced` and closed with 4001); anyone else watches. Every frame is
read and checked (`play.messages`) before any query, and a spectator's intent
is refused without one. A seat's intents go through `play.acting`, the one way
from a message to every socket: the referee under the table's lock, the
states built once, a nudge to every connection. After a nudge a connection
sends the state if it is newer than the one it sent last, without a database
read when this process made the change. Each connection is throttled on its
own, and everything it started (its heartbeat, its place in the table's
ticker, its seat, its row as a spectator) ends with it, however it ends.
"""

from __future__ import annotations

import asyncio
import logging
import random
import time
from typing import Any

import orjson
from channels.consumer import get_handler_name
from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings

from core.outages import outage_kind

from .acting import seat_arrive, seat_leave, seat_return, table_act
from .auth import IDENTITY_GONE, socket_identity, socket_identity_valid
from .database import on_table_thread
from .groups import hub_join, hub_leave
from .latest import latest_get
from .messages import BadMessage, read_message
from .models import Table
from .selectors import table_state, table_who
from .services.presence import seat_beat, seat_of
from .services.watchers import watcher_add, watcher_beat, watcher_remove
from .ticker import ticker_join, ticker_leave, ticker_wake

logger = logging.getLogger(__name__)

#: Close codes of the consumer (the edge's are in `play.edge`; docs/security.md lists them all).
REPLACED = 4001
NO_TABLE = 4004
#: A failed heartbeat is tried again after about this long (at most the interval), not a whole interval on.
BEAT_RETRY_SECONDS = 1.0


def _state_for(table_id: int, seat: int | None, sent_v: int) -> dict[str, Any] | None:
    table = Table.objects.filter(pk=table_id).first()
    if table is None or table.v <= sent_v:
        return None
    return table_state(table=table, seat=seat)


def _table_facts(table_id: int) -> tuple[dict[str, Any], list[int | None]] | None:
    """What a connection keeps of its table for its whole life: the ruleset and who holds each seat."""
    row = Table.objects.filter(pk=table_id).values_list("ruleset", "seat_users").first()
    return None if row is None else (row[0], row[1])


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


class TableConsumer(AsyncWebsocketConsumer):  # type: ignore[misc]  # channels ships no types
    table_id: int
    ruleset: dict[str, Any]
    seat: int | None = None
    sent_v = -1
    joined = False
    grouped = False
    watching = False
    user_id: int | None = None
    heartbeat: asyncio.Task[None] | None = None

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        try:
            await super().__call__(scope, receive, send)
        finally:  # also when a handler raised and `disconnect()` never ran: no ghost seat, beat or ticker
            await self._leave()

    async def dispatch(self, message: dict[str, Any]) -> None:
        """Channels' dispatch, less its hop to the sync thread to close old connections before each message:
        this consumer's database work runs on its table's thread (`play.database`), which closes them around
        every call, so the hop cost a thread switch per frame and per nudge for nothing. An error escapes to
        `play.edge.SocketEdge`, which answers an outage with `unavailable` and 4013."""
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)

    async def connect(self) -> None:
        self.table_id = int(self.scope["url_route"]["kwargs"]["table_id"])
        facts = await on_table_thread(self.table_id, _table_facts)(self.table_id)
        if facts is None:
            await self.close(code=NO_TABLE)
            return
        self.ruleset, seat_users = facts
        self.identity = socket_identity(self.scope)
        user = self.scope.get("user")
        user_id = user.pk if user is not None and user.is_authenticated else None
        self.bucket = _Bucket(settings.SPEED_TABLE_MESSAGES_PER_SECOND, settings.SPEED_TABLE_MESSAGE_BURST)
        await hub_join(self.table_id, self)
        self.grouped = True
        await self.accept()
        self.joined = True
        ticker_join(self.table_id)
        self.user_id = user_id
        seat = seat_of(seat_users, user_id)
        if seat is not None:
            self.seat = seat
            replaced = await seat_arrive(self.table_id, seat, self.channel_name)
            if replaced is not None:
                await self.channel_layer.send(replaced, {"type": "table.replaced"})
            self.heartbeat = asyncio.get_running_loop().create_task(self._beat(seat))
        else:
            self.watching = True
            await self._watch_add()
            self.heartbeat = asyncio.get_running_loop().create_task(self._watch())
        await self._send_state()

    async def _watch_add(self) -> None:
        """Count this spectator (its own row, no lock on the table); a failure is logged, and the beat adds it."""
        try:
            await on_table_thread(self.table_id, watcher_add)(
                table_id=self.table_id, key=self.channel_name, user_id=self.user_id
            )  # past a cap it stays uncounted; its beats ask again, so it is counted once there is room
        except Exception as error:
            logger.warning("table %s: a spectator went uncounted (%s)", self.table_id, outage_kind(error) or error)

    async def _watch(self) -> None:
        """A spectator's heartbeat, at the seats' cadence: one UPDATE of its row, so a dead process's falls stale.

        A row gone (pruned while the database was away) is added again; a beat that failed is tried at the next.
        """
        interval = settings.SPEED_TABLE_HEARTBEAT_MS / 1000
        wait = interval * random.random()
        while self.joined and self.watching:
            await asyncio.sleep(wait)
            wait = interval
            try:
                if not await on_table_thread(self.table_id, watcher_beat)(key=self.channel_name):
                    await self._watch_add()
            except Exception as error:
                logger.info("table %s: a spectator missed a heartbeat (%s)", self.table_id, outage_kind(error) or error)

    async def _beat(self, seat: int) -> None:
        """Say the seat's connection is alive, so a seat of a dead process is seen to be away.

        One UPDATE of the seat's own row, never the table's lock. A seat the referee noticed silent (its
        beats were late, or the database was away) is shown present again by the next beat that lands: the
        database says it was noticed (`seat_beat`), not this connection's own reckoning of its silence,
        which a slow beat or another process's clock could contradict. A failed beat is retried sooner
        than the interval, so after an outage the seat is shown present again soon; only the first of a
        run of failures is logged. The first beat comes after a random part of the interval, so
        connections opened together do not beat together.
        """
        interval = settings.SPEED_TABLE_HEARTBEAT_MS / 1000
        wait = interval * random.random()
        missed = 0
        while self.joined and self.seat == seat:
            await asyncio.sleep(wait)
            wait = interval
            try:
                beat = await on_table_thread(self.table_id, seat_beat)(
                    table_id=self.table_id, seat=seat, channel=self.channel_name
                )
                if beat == "gone":
                    return  # another connection holds the seat: it was told, or will be
                if beat == "back":
                    await seat_return(self.table_id, seat, self.channel_name)
                if missed:
                    logger.info("table %s: seat %s heard again after %d missed heartbeats", self.table_id, seat, missed)
                    missed = 0
                # Signed out, token revoked, password changed, account disabled: the seat's socket ends here.
                if not await on_table_thread(self.table_id, socket_identity_valid)(self.identity):
                    await self.close(code=IDENTITY_GONE)
                    return
            except Exception as error:
                missed += 1
                wait = min(interval, BEAT_RETRY_SECONDS * (0.5 + random.random()))
                if missed == 1:
                    kind = outage_kind(error)
                    logger.warning(
                        "table %s: seat %s missed a heartbeat%s",
                        self.table_id,
                        seat,
                        f" ({kind})" if kind else "",
                        exc_info=kind is None,  # a bug's traceback; an outage's says nothing more
                    )

    async def disconnect(self, code: int) -> None:
        await self._leave()

    async def _leave(self) -> None:
        """End everything this connection started; each step on its own, so one failure stops none of the rest."""
        if not self.joined and not self.grouped:
            return
        joined, self.joined = self.joined, False
        if self.heartbeat is not None:
            self.heartbeat.cancel()
            self.heartbeat = None
        if joined:
            ticker_leave(self.table_id)
        if self.grouped:
            self.grouped = False
            await hub_leave(self.table_id, self)
        watching, self.watching = self.watching, False
        if watching:
            try:
                await on_table_thread(self.table_id, watcher_remove)(key=self.channel_name)
            except Exception:  # its beats have stopped: the row falls stale, uncounted, and the prune deletes it
                logger.info("table %s: a spectator left without a word", self.table_id, exc_info=True)
        seat, self.seat = self.seat, None
        if seat is not None:
            try:
                await seat_leave(self.table_id, seat, self.channel_name)
            except Exception:  # its heartbeats have stopped: the seat falls silent, and away, all the same
                logger.warning("table %s: seat %s left without a word", self.table_id, seat, exc_info=True)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        wait = self.bucket.wait_needed()
        if wait > 0:  # throttled: this connection waits; the table and its other connections go on
            await asyncio.sleep(wait)
        try:
            intent = read_message(
                text_data if text_data is not None else bytes_data,
                ruleset=self.ruleset,
                max_bytes=settings.SPEED_TABLE_MESSAGE_MAX_BYTES,
            )
        except BadMessage as bad:
            await self._refuse(bad.ref, "bad_message", bad.message)
            return
        if intent.kind == "ping":
            await self.send(text_data=orjson.dumps({"type": "pong", "ref": intent.ref}).decode())
            return
        if intent.kind == "who":  # a read without a lock: a spectator may ask too
            who = await on_table_thread(self.table_id, table_who)(
                table_id=self.table_id, user_id=self.user_id, seated=self.seat is not None
            )
            await self.send(text_data=orjson.dumps({"type": "who", "ref": intent.ref, **who}).decode())
            return
        if self.seat is None:  # a spectator: refused here, with no query and no lock
            await self._refuse(intent.ref, "not_seated", "You are watching: only the players at the table play.")
            return
        reply = await table_act(self.table_id, self.seat, intent)
        if reply.refusal is not None:
            await self._refuse(intent.ref, reply.refusal.code, reply.refusal.message)
        elif not reply.changed:
            await self._send_state(force=True)  # a duplicate ref, a repeated ready: the current state answers

    async def _refuse(self, ref: str | None, code: str, message: str) -> None:
        await self.send(
            text_data=orjson.dumps({"type": "refused", "ref": ref, "code": code, "message": message}).decode()
        )

    async def _send_state(self, *, force: bool = False) -> None:
        state = await on_table_thread(self.table_id, _state_for)(self.table_id, self.seat, -1 if force else self.sent_v)
        if state is not None:
            self.sent_v = max(self.sent_v, state["v"])
            await self.send(text_data=orjson.dumps(state).decode())

    async def changed(self, v: int) -> None:
        """The table reached `v` (-1: it could not say), as this process's hub tells every connection."""
        ticker_wake(self.table_id, v)
        if 0 <= v <= self.sent_v:
            return
        latest = latest_get(self.table_id)
        if latest is not None and v >= 0 and latest.v >= v:
            if latest.v > self.sent_v:  # built by this process after the commit: no database read
                self.sent_v = latest.v
                await self.send(text_data=latest.states[self.seat])
            return
        await self._send_state()  # another process's change: the database

    async def table_replaced(self, event: dict[str, Any]) -> None:
        """Another connection took this one's seat (amendment L2): say so, then close with 4001."""
        seat, self.seat = self.seat, None
        if self.heartbeat is not None:
            self.heartbeat.cancel()
            self.heartbeat = None
        if seat is not None:
            await self.send(text_data=orjson.dumps({"type": "replaced", "seat": seat}).decode())
        await self.close(code=REPLACED)
