"""Nudging every connection of a table: at once in this process, and once per other process through the layer.

A nudge carries no state (the database is the truth; the Redis layer drops
messages beyond a group's capacity): it says the table reached `v`. Each
server process has one hub per event loop: its connections register with it,
and it alone is in the table's channel-layer group, so a change costs one
layer message per process, not one per connection, and this process's own
connections are told directly, with no round trip through Redis. The hub's
own messages come back to it through the group and are skipped by origin.
"""

from __future__ import annotations

import asyncio
import logging
import uuid
import weakref
from typing import Any, Protocol

from channels.layers import get_channel_layer

from core.outages import outage_kind

logger = logging.getLogger(__name__)

ORIGIN = uuid.uuid4().hex


class Listener(Protocol):
    async def changed(self, v: int) -> None: ...


def table_group(table_id: int) -> str:
    return f"play.table.{table_id}"


class _Hub:
    def __init__(self) -> None:
        self.members: dict[int, set[Listener]] = {}
        self.channel: str | None = None
        self.task: asyncio.Task[None] | None = None

    async def start(self, layer: Any) -> None:
        if self.channel is None:
            # The layer's own prefix: channels_redis reads every channel of a process from one Redis list
            # per prefix, and a second prefix would wait behind the connections' reads.
            self.channel = await layer.new_channel()
        if self.task is None or self.task.done():
            self.task = asyncio.get_running_loop().create_task(self.listen(layer))

    async def listen(self, layer: Any) -> None:
        """Deliver other processes' nudges; after a layer outage, join every group again (they may be gone)."""
        assert self.channel is not None
        retry = 0.2
        while True:
            try:
                message = await layer.receive(self.channel)
                retry = 0.2
            except asyncio.CancelledError:
                raise
            except Exception as error:
                logger.warning("table hub: the channel layer failed (%s), again in %.1f s", outage_kind(error), retry)
                await asyncio.sleep(retry)
                retry = min(5.0, retry * 2)
                await self.rejoin(layer)
                continue
            if message.get("origin") != ORIGIN:
                await self.deliver(int(message["table"]), int(message["v"]))

    async def rejoin(self, layer: Any) -> None:
        for table_id in list(self.members):
            try:
                await layer.group_add(table_group(table_id), self.channel)
            except Exception:  # still down: the next failure of `receive` tries again
                return

    async def deliver(self, table_id: int, v: int) -> None:
        for listener in list(self.members.get(table_id, ())):
            try:
                await listener.changed(v)
            except Exception:  # one connection's failure (it is closing) must not keep the others from the news
                logger.warning("table %s: a connection failed to take a nudge", table_id, exc_info=True)


_hubs: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, _Hub] = weakref.WeakKeyDictionary()


def _hub() -> _Hub:
    loop = asyncio.get_running_loop()
    hub = _hubs.get(loop)
    if hub is None:
        hub = _hubs[loop] = _Hub()
    return hub


async def hub_join(table_id: int, listener: Listener) -> None:
    """`listener` hears every change of the table from now on (raises when the layer is down)."""
    layer: Any = get_channel_layer()
    hub = _hub()
    await hub.start(layer)
    first = table_id not in hub.members
    hub.members.setdefault(table_id, set()).add(listener)
    if first:
        try:
            await layer.group_add(table_group(table_id), hub.channel)
        except BaseException:
            hub.members[table_id].discard(listener)
            if not hub.members[table_id]:
                del hub.members[table_id]
            _stop_if_empty(hub)  # the layer is down at the first join: no reader left for no one
            raise


def _stop_if_empty(hub: _Hub) -> None:
    """No connection left in this process: no reader left behind either."""
    if not hub.members and hub.task is not None:
        hub.task.cancel()
        hub.task = None


async def hub_leave(table_id: int, listener: Listener) -> None:
    hub = _hub()
    members = hub.members.get(table_id)
    if members is None:
        return
    members.discard(listener)
    if members:
        return
    del hub.members[table_id]
    _stop_if_empty(hub)
    layer: Any = get_channel_layer()
    try:
        await layer.group_discard(table_group(table_id), hub.channel)
    except Exception:  # the layer is down; the membership expires, and a nudge for no one is skipped
        logger.warning("table %s: could not leave its group", table_id, exc_info=True)


async def table_changed_notify(table_id: int, v: int) -> None:
    """Tell every connection of the table, here and in every other process, that it reached `v` (-1: unknown).

    A layer outage loses the other processes' nudge (logged; their next nudge or read catches up), never
    this process's: the change is committed, and its own connections are told first.
    """
    hub = _hubs.get(asyncio.get_running_loop())
    if hub is not None:
        await hub.deliver(table_id, v)
    layer: Any = get_channel_layer()
    try:
        await layer.group_send(
            table_group(table_id), {"type": "table.changed", "table": table_id, "v": v, "origin": ORIGIN}
        )
    except Exception as error:
        if outage_kind(error) is None:
            raise
        logger.warning("table %s: other processes missed a nudge (%s)", table_id, outage_kind(error))
