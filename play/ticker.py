"""A table's clock and bots in one server process: sleep until the next timer or bot move, then act.

Every process holding a connection to a table runs one ticker for it, for
precision: it fires a timer the moment it is due. It is not what makes
timers happen: the table's due time is stored, and Celery (a task for the due
time, the beat's sweep) fires it with every socket process gone. Firing is
idempotent under the table row's lock, so both firing records one event.
Bots run only in the process holding the table's bot lease (renewed while it
lives, taken over when it lapses), so a table's bots play once. A ticker ends
with its last connection, and on its own once its table is gone or over.
"""

from __future__ import annotations

import asyncio
import logging
import os
import random
import secrets
import uuid
from dataclasses import dataclass
from typing import TYPE_CHECKING

from django.conf import settings

from .acting import table_act, table_fire
from .bots import bot_aim, bot_delay_ms, bot_flip_pile, bot_keeps_aim, bot_play_fields, bot_tableau_move
from .database import on_table_thread
from .latest import latest_forget, latest_get
from .messages import Intent
from .models import Table
from .services import live_game_build, now_ms
from .services.presence import table_bot_lease

if TYPE_CHECKING:
    from speedrules.bots import Aim

logger = logging.getLogger(__name__)

#: This process's name for the bot lease.
PROCESS = f"{os.getpid()}-{uuid.uuid4().hex[:8]}"
LEASE_MS = 5000
#: A failing step is retried after this many seconds, doubling up to the longest.
RETRY_FIRST, RETRY_LONGEST = 0.2, 5.0
_tickers: dict[int, Ticker] = {}


@dataclass(slots=True)
class _Plan:
    v: int
    due: int
    intent: Intent
    #: A play's card or run and pile: the reach a steady bot keeps while the table's changes leave it legal.
    aim: Aim | None = None


@dataclass(frozen=True, slots=True)
class _Outlook:
    """What the ticker waits for: the table's timer, each bot's next move, and whether the table still lives."""

    due: int | None
    plans: dict[int, _Plan]
    live: bool


def _outlook(table_id: int, plans: dict[int, _Plan], rng: random.Random, known: Table | None) -> _Outlook:
    """The table's next timer, and each bot's next move (kept while `v` is unchanged, or while a steady bot's play is legal).

    `known`: the row as this process saved it at the newest `v` it was told of, else None (read it).
    """
    table = known if known is not None else Table.objects.filter(pk=table_id).first()
    if table is None or table.status not in Table.LIVE:
        return _Outlook(None, {}, live=False)
    if not any(table.bots) or table.status not in (Table.Status.PLAYING, Table.Status.STUCK):
        return _Outlook(table.due_at, {}, live=True)
    game = live_game_build(table)
    state = game.state
    scale = settings.SPEED_TABLE_BOT_DELAY_SCALE
    last = game.events[-1] if game.events else None
    fresh: dict[int, _Plan] = {}
    for seat, level in enumerate(table.bots):
        if level is None:
            continue
        plan = plans.get(seat)
        if plan is not None and (
            plan.v == table.v
            or (
                plan.aim is not None
                and table.status == Table.Status.PLAYING
                and bot_keeps_aim(state, seat, level, plan.aim)
            )
        ):
            fresh[seat] = plan
            continue
        intent: Intent | None = None
        aim = None
        side = game.ruleset.side_of(seat)  # a team shares one draw pile, flipped by either partner
        if table.status == Table.Status.PLAYING and state.tableau:
            chosen = bot_tableau_move(state, seat, level, rng)
            if chosen is not None:
                intent = Intent(chosen[0], f"bot-{secrets.token_hex(8)}", chosen[1])
        elif table.status == Table.Status.PLAYING:
            aim = bot_aim(state, seat, level, rng)
            if aim is not None:
                fields = bot_play_fields(aim, multi_card=game.ruleset.multi_card)
                intent = Intent("play", f"bot-{secrets.token_hex(8)}", fields)
        elif table.flips is not None and state.draws[side] and table.flips[side] is None:
            intent = Intent("flip", None, {"pile": bot_flip_pile(state, seat, level, table.flips, rng)})
        if intent is not None:
            # Its own play just shown and nothing since: the next card was planned while laying that one.
            follow_up = aim is not None and last is not None and last["type"] == "play" and last["player"] == seat
            delay = bot_delay_ms(level, rng, follow_up=follow_up)
            fresh[seat] = _Plan(table.v, now_ms() + int(delay * scale), intent, aim)
    return _Outlook(table.due_at, fresh, live=True)


class Ticker:
    def __init__(self, table_id: int) -> None:
        self.table_id = table_id
        self.members = 0
        self.wake = asyncio.Event()
        self.task: asyncio.Task[None] | None = None
        self.rng = random.Random(secrets.randbits(64))
        self.plans: dict[int, _Plan] = {}
        self.lease_until = 0
        # The newest `v` a nudge named, and whether one could not say: read the row.
        self.told_v = 0
        self.must_read = True

    async def run(self) -> None:
        retry = RETRY_FIRST
        while self.members > 0:
            try:
                if not await self._step():
                    return  # the table is gone or over: nothing more to time
                retry = RETRY_FIRST
            except Exception:  # a failed step must not stop the table's clock; the next one re-reads everything
                logger.warning("table %s: ticker step failed, again in %.1f s", self.table_id, retry, exc_info=True)
                self.must_read = True
                await asyncio.sleep(retry)
                retry = min(RETRY_LONGEST, retry * 2)

    def _known(self) -> Table | None:
        latest = latest_get(self.table_id)
        known = None if self.must_read or latest is None or latest.v < self.told_v else latest.table
        self.must_read = False
        return known

    async def _step(self) -> bool:
        """Wait for the next thing due and do it; False when the table no longer lives."""
        # Cleared before the read, not after: a nudge that comes while the row is read must still wake us.
        self.wake.clear()
        outlook = await on_table_thread(self.table_id, _outlook)(self.table_id, self.plans, self.rng, self._known())
        if not outlook.live:
            return False
        plans = outlook.plans
        if plans and now_ms() >= self.lease_until - LEASE_MS // 2:
            if await on_table_thread(self.table_id, table_bot_lease)(
                table_id=self.table_id, owner=PROCESS, for_ms=LEASE_MS
            ):
                self.lease_until = now_ms() + LEASE_MS
            else:
                self.lease_until = 0
        if self.lease_until <= now_ms():
            plans = {}
        self.plans = plans
        dues = [plan.due for plan in plans.values()]
        if outlook.due is not None:
            dues.append(outlook.due)
        if plans:
            dues.append(self.lease_until - LEASE_MS // 2)
        timeout = 30.0 if not dues else max(0.0, (min(dues) - now_ms()) / 1000)
        try:
            await asyncio.wait_for(self.wake.wait(), timeout=timeout)
            return True  # something changed: plan again
        except TimeoutError:
            pass
        now = now_ms()
        if outlook.due is not None and now >= outlook.due:
            reply = await table_fire(self.table_id)
            if not reply.changed:
                self.must_read = True  # another process fired it, or it moved: read the row next time
            return True
        for seat, plan in sorted(plans.items(), key=lambda item: item[1].due):
            if plan.due <= now:
                reply = await table_act(self.table_id, seat, plan.intent)
                self.plans.pop(seat, None)
                if reply.changed:
                    return True
        return True


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
