"""Bots that play at a table as any client does: over a real WebSocket, speaking speed-table/1.

A client sees only what the table shows it (its hand, the piles' tops), so the
bot cannot use the engine's `GameState`; it chooses the way the simulator's bots
do (`speedrules.simulate`): among the plays that fit, one at random, after its
`Bot`'s reaction time, and with `multi_card` grows a run while its appetite
lasts. Whether a card fits is the engine's one fit table. Each bot measures,
on its own socket, the time from a play to the first state that shows it (the
card gone from its hand) and a ping's round trip.
"""

from __future__ import annotations

import asyncio
import json
import random
import time
from dataclasses import dataclass, field
from typing import Any

import websockets

from speedrules.cards import CARD_ID, EMPTY_PILE, JOKER, fit_table_of
from speedrules.simulate import Bot

PING_EVERY_S = 0.5


@dataclass
class SeatStats:
    """What one bot saw: milliseconds per measured round, and how its intents fared."""

    play_ms: list[float] = field(default_factory=list)
    ping_ms: list[float] = field(default_factory=list)
    refused: dict[str, int] = field(default_factory=dict)
    plays: int = 0
    states: int = 0
    status: str = ""
    result: Any = None
    reconnects: int = 0


def choose_play(
    hand: list[str], piles: list[str | None], ruleset: dict[str, Any], bot: Bot, rng: random.Random
) -> tuple[list[str], int] | None:
    """The simulator bot's choice from what a client sees: a fitting (card, pile) at random, maybe a run."""
    fits = fit_table_of(bool(ruleset.get("same_rank")), bool(ruleset.get("joker_on_joker")))
    tops = [CARD_ID[top] if top else EMPTY_PILE for top in piles]
    plays = [(card, pile) for card in hand for pile, top in enumerate(tops) if fits[CARD_ID[card]][top]]
    if not plays:
        return None
    first, pile = rng.choice(plays)
    run = [first]
    if ruleset.get("multi_card"):
        rest = list(hand)
        rest.remove(first)
        while rest and rng.random() < bot.run_appetite:
            nexts = [card for card in rest if fits[CARD_ID[card]][CARD_ID[run[-1]]]]
            if not nexts:
                break
            card = rng.choice(nexts)
            if CARD_ID[card] == JOKER and len(rest) == 1:
                break  # never risk a joker as the last card
            run.append(card)
            rest.remove(card)
    return run, pile


class TableBot:
    """One seat's client: ready, then play whenever a card fits, ping twice a second, until the game ends."""

    def __init__(self, *, url: str, token: str, bot: Bot, rng: random.Random, fixed_reaction_ms: int | None) -> None:
        self.url = url
        self.token = token
        self.bot = bot
        self.rng = rng
        self.fixed_reaction_ms = fixed_reaction_ms
        self.stats = SeatStats()
        self._refs = 0
        self._pings: dict[str, float] = {}
        # The play in flight: its ref, its first card, when it was sent.
        self._pending: tuple[str, str, float] | None = None
        self._flipped_v: int | None = None
        self._state: dict[str, Any] | None = None
        self._move: asyncio.Task[None] | None = None

    def _ref(self, prefix: str) -> str:
        self._refs += 1
        return f"{prefix}{self._refs}"

    async def run(self, *, until: float) -> SeatStats:
        headers = {"Authorization": f"Token {self.token}"}
        async with websockets.connect(self.url, additional_headers=headers, max_size=2**20) as socket:
            pinger = asyncio.create_task(self._ping(socket))
            try:
                while time.monotonic() < until:
                    try:
                        raw = await asyncio.wait_for(socket.recv(), timeout=max(0.01, until - time.monotonic()))
                    except TimeoutError:
                        break
                    if await self._on_message(socket, json.loads(raw)):
                        break
            finally:
                pinger.cancel()
                if self._move is not None:
                    self._move.cancel()
        return self.stats

    async def _ping(self, socket: Any) -> None:
        while True:
            ref = self._ref("p")
            self._pings[ref] = time.perf_counter()
            await socket.send(json.dumps({"type": "ping", "ref": ref}))
            await asyncio.sleep(PING_EVERY_S)

    async def _on_message(self, socket: Any, message: dict[str, Any]) -> bool:
        """Handle one message; True when the game is over for this bot."""
        now = time.perf_counter()
        kind = message.get("type")
        if kind == "pong":
            sent = self._pings.pop(str(message.get("ref")), None)
            if sent is not None:
                self.stats.ping_ms.append((now - sent) * 1000)
            return False
        if kind == "refused":
            code = str(message.get("code"))
            self.stats.refused[code] = self.stats.refused.get(code, 0) + 1
            if self._pending and message.get("ref") == self._pending[0]:
                self._pending = None
                self._schedule(socket)
            return False
        if kind != "state":
            return False
        if self._state is not None and message["v"] < self._state["v"]:
            return False
        self._state = message
        self.stats.states += 1
        self.stats.status = message["status"]
        if self._pending and message.get("hand") is not None and self._pending[1] not in message["hand"]:
            self.stats.play_ms.append((now - self._pending[2]) * 1000)
            self.stats.plays += 1
            self._pending = None
        if message["status"] in ("over", "abandoned"):
            self.stats.result = message.get("result")
            return True
        if message["status"] == "waiting" and not message["ready"][message["you"]]:
            await socket.send(json.dumps({"type": "ready"}))
        self._schedule(socket)
        return False

    def _schedule(self, socket: Any) -> None:
        """After a change: reach for a card after the bot's reaction time (the choice is made on arrival)."""
        if self._pending is not None or (self._move is not None and not self._move.done()):
            return
        self._move = asyncio.ensure_future(self._reach(socket))

    async def _reach(self, socket: Any) -> None:
        reaction = self.fixed_reaction_ms if self.fixed_reaction_ms is not None else self.bot.reaction(self.rng)
        await asyncio.sleep(reaction / 1000)
        state = self._state
        if state is None or self._pending is not None:
            return
        you = state["you"]
        if state["status"] == "stuck" and state["ruleset"].get("stall_source") == "draw_piles":
            if state["draw_counts"][you] and self._flipped_v != state["v"]:
                self._flipped_v = state["v"]
                await socket.send(json.dumps({"type": "flip", "pile": you % len(state["piles"])}))
            return
        if state["status"] != "playing" or not state.get("hand"):
            return
        choice = choose_play(state["hand"], state["piles"], state["ruleset"], self.bot, self.rng)
        if choice is None:
            return
        cards, pile = choice
        ref = self._ref("c")
        message: dict[str, Any] = {"type": "play", "pile": pile, "ref": ref}
        if state["ruleset"].get("multi_card"):
            message["cards"] = cards
        else:
            message["card"] = cards[0]
        self._pending = (ref, cards[0], time.perf_counter())
        await socket.send(json.dumps(message))


async def play_tables(
    seats: list[tuple[str, str]], *, seconds: float, seed: int, reaction_ms: int | None
) -> list[SeatStats]:
    """Play every (socket URL, token) seat at once until its game ends or `seconds` pass."""
    rng = random.Random(seed)
    until = time.monotonic() + seconds
    bots = [
        TableBot(
            url=url,
            token=token,
            bot=Bot(rng.randint(350, 1100), rng.uniform(0.3, 0.9)),
            rng=random.Random(rng.random()),
            fixed_reaction_ms=reaction_ms,
        )
        for url, token in seats
    ]
    return list(await asyncio.gather(*(bot.run(until=until) for bot in bots)))
