"""A table's clock and bots in one server process: sleep until the next timer or bot move, then ask the referee.

Every process holding a connection to a table runs one ticker for it. The
timers are idempotent (`table_tick` re-checks under the row's lock), so two
processes firing the same timer record one event, and after a process dies
the players' reconnections elsewhere start tickers there: the timers resume.
Bots run only in the process holding the table's bot lease (renewed while it
lives, taken over when it lapses), so a table's bots play once.
"""

from __future__ import annotations

import asyncio
import logging
import os
import random
import secrets
import uuid
from dataclasses import dataclass
from typing import Any

from channels.db import database_sync_to_async
from django.conf import settings

from .bots import bot_choice, bot_reaction_ms
from .groups import table_changed_notify
from .latest import intent_with_states, latest_forget, latest_get, latest_keep, tick_with_states
from .models import Table
from .services import live_game_build, now_ms, table_bot_lease, table_next_due

logger = logging.getLogger(__name__)

#: This process's name for the bot lease.
PROCESS = f"{os.getpid()}-{uuid.uuid4().hex[:8]}"
LEASE_MS = 5000
_tickers: dict[int, Ticker] = {}


@dataclass(slots=True)
class _Plan:
    v: int
    due: int
    message: dict[str, Any]


def _bot_plans(
    table_id: int, plans: dict[int, _Plan], rng: random.Random, known: Table | None
) -> tuple[int | None, dict[int, _Plan]]:
    """The table's next timer, and each bot's next move as the table stands (kept while `v` is unchanged).

    `known`: the row as this process saved it at the newest `v` it was told of, else None (read it).
    """
    table = known if known is not None else Table.objects.get(pk=table_id)
    due = table_next_due(table)
    if not any(table.bots) or table.status not in (Table.Status.PLAYING, Table.Status.STUCK):
        return due, {}
    game = live_game_build(table)
    scale = settings.SPEED_TABLE_BOT_DELAY_SCALE
    fresh: dict[int, _Plan] = {}
    for seat, level in enumerate(table.bots):
        if level is None:
            continue
        if seat in plans and plans[seat].v == table.v:
            fresh[seat] = plans[seat]
            continue
        message: dict[str, Any] | None = None
        if table.status == Table.Status.PLAYING:
            choice = bot_choice(game.state, seat, rng)
            if choice is not None:
                message = {"type": "play", "card": choice[0], "pile": choice[1], "ref": f"bot-{secrets.token_hex(8)}"}
        elif table.flips is not None and game.state.draws[seat] and table.flips[seat] is None:
            message = {"type": "flip", "pile": seat % game.ruleset.center_piles}
        if message is not None:
            fresh[seat] = _Plan(table.v, now_ms() + int(bot_reaction_ms(level, rng) * scale), message)
    return due, fresh


class Ticker:
    def __init__(self, table_id: int) -> None:
        self.table_id = table_id
        self.members = 0
        self.wake = asyncio.Event()
        self.task: asyncio.Task[None] | None = None
        self.rng = random.Random(secrets.randbits(64))
        self.plans: dict[int, _Plan] = {}
        self.lease_until = 0
        # The newest `v` a nudge named, and whether one could not say (a seat came or went): read the row.
        self.told_v = 0
        self.must_read = True

    async def run(self) -> None:
        while self.members > 0:
            try:
                await self._step()
            except Exception:  # a failed step must not stop the table's clock; the next one re-reads everything
                logger.exception("table %s: ticker step failed", self.table_id)
                await asyncio.sleep(0.2)

    def _known(self) -> Table | None:
        latest = latest_get(self.table_id)
        known = None if self.must_read or latest is None or latest.v < self.told_v else latest.table
        self.must_read = False
        return known

    async def _step(self) -> None:
        due, plans = await database_sync_to_async(_bot_plans)(self.table_id, self.plans, self.rng, self._known())
        if plans and now_ms() >= self.lease_until - LEASE_MS // 2:
            if await database_sync_to_async(table_bot_lease)(table_id=self.table_id, owner=PROCESS, for_ms=LEASE_MS):
                self.lease_until = now_ms() + LEASE_MS
            else:
                self.lease_until = 0
        if self.lease_until <= now_ms():
            plans = {}
        self.plans = plans
        dues = [plan.due for plan in plans.values()]
        if due is not None:
            dues.append(due)
        if plans:
            dues.append(self.lease_until - LEASE_MS // 2)
        timeout = None if not dues else max(0.0, (min(dues) - now_ms()) / 1000)
        self.wake.clear()
        try:
            await asyncio.wait_for(self.wake.wait(), timeout=timeout if timeout is not None else 30)
            return  # something changed: plan again
        except TimeoutError:
            pass
        now = now_ms()
        if due is not None and now >= due:
            reply, latest = await database_sync_to_async(tick_with_states)(table_id=self.table_id)
            latest_keep(self.table_id, latest)
            if reply.changed:
                await table_changed_notify(self.table_id, reply.v)
                return
            # Nothing was due after all: a heartbeat moved the row without a new `v`; read it next time.
            self.must_read = True
        for seat, plan in sorted(plans.items(), key=lambda item: item[1].due):
            if plan.due <= now:
                reply, latest = await database_sync_to_async(intent_with_states)(
                    table_id=self.table_id, seat=seat, message=plan.message
                )
                latest_keep(self.table_id, latest)
                self.plans.pop(seat, None)
                if reply.changed:
                    await table_changed_notify(self.table_id, reply.v)
                    return


def ticker_join(table_id: int) -> Ticker:
    ticker = _tickers.get(table_id)
    if ticker is None:
        ticker = _tickers[table_id] = Ticker(table_id)
    ticker.members += 1
    if ticker.task is None or ticker.task.done():
        ticker.task = asyncio.get_running_loop().create_task(ticker.run())
    return ticker


def ticker_leave(table_id: int) -> None:
    ticker = _tickers.get(table_id)
    if ticker is None:
        return
    ticker.members -= 1
    if ticker.members <= 0:
        _tickers.pop(table_id, None)
        latest_forget(table_id)
        ticker.wake.set()
        if ticker.task is not None:
            ticker.task.cancel()


def ticker_wake(table_id: int, v: int) -> None:
    """A nudge named `v` (-1: it could not say): plan again."""
    ticker = _tickers.get(table_id)
    if ticker is not None:
        if v < 0:
            ticker.must_read = True
        ticker.told_v = max(ticker.told_v, v)
        ticker.wake.set()
