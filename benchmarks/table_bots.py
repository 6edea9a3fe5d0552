"""Bots that play at a table as any client does: over a real WebSocket, speaking speed-table/1.

A client sees only what the table shows it (its hand, the piles' tops), so the
bot cannot use the engine's `GameState`; it chooses with the simulator's and
the practice tables' brain (`speedrules.bots`), which reads only what a seat
sees: among the plays that fit, one at random for the simulator's bots (never a
joker as its side's last card, which the referee refuses), and with
`multi_card` a run grown while its appetite lasts; it also says where a flip
goes in a draw-pile stall. Each bot measures, on its own socket, the time from a
play to the first state that shows it (its side with fewer cards left, hand
and draw pile) and a ping's round trip.

How fast it moves is its pace:

- `sim`: the simulator's bots. A reach starts when a state shows a change and
  takes the `Bot`'s reaction (each bot's own mean, 350 to 1,100 ms); while a
  play is in flight the bot waits for its state before reaching again.
- `human`: fast human players. A reach takes 300 to 900 ms, most often near
  the quick end (a triangular law with its mode at 300 ms, mean 500 ms: human
  reaction times are skewed that way), and the next reach starts as the card
  goes down, not when its state comes back, so a bot plays about two cards a
  second while cards fit. The choice is still made from the newest state, after
  the card in flight is shown. It pings every 2 s, as the table page does (the
  `sim` bots twice a second).

A bot keeps playing until its game is over or the time is up: it readies,
flips when a draw-pile ruleset asks for it, and reconnects when its socket
drops (the play in flight is then not measured).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import time
from dataclasses import dataclass, field
from typing import Any

import websockets

from speedrules.bots import Bot, choose_flip
from speedrules.bots import choose_play as choose_play_of
from speedrules.cards import CARD_ID, CARD_NAMES, EMPTY_PILE, Card, FitTable, fit_table_of

PACES = ("sim", "human")
#: Seconds between a bot's pings: the human pace pings as the table page does (static/js/table.js).
PING_EVERY_S = {"sim": 0.5, "human": 2.0}
#: The human pace's reach: fastest, slowest, and most often (ms).
HUMAN_REACTION_MS = (300.0, 900.0, 300.0)
#: Between a dropped socket and the next attempt.
RECONNECT_PAUSE_S = 0.5


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
    # When this bot first saw its game on (playing) and last saw it (over, or the time up): monotonic seconds.
    on_from: float | None = None
    on_until: float | None = None


def choose_play(
    hand: list[str],
    piles: list[str | None],
    ruleset: dict[str, Any],
    bot: Bot,
    rng: random.Random,
    *,
    draw_count: int = 0,
) -> tuple[list[str], int] | None:
    """The bots' brain's choice (`speedrules.bots`) from what a client sees: a card or run, and its pile.

    `draw_count`: the cards left in the seat's draw pile; with none and one card in hand, a joker is not played.
    """
    aim = choose_play_of(
        bot,
        [CARD_ID[card] for card in hand],
        _tops(piles),
        left=len(hand) + draw_count,
        fits_on=_fits(ruleset),
        multi_card=bool(ruleset.get("multi_card")),
        rng=rng,
    )
    if aim is None:
        return None
    cards, pile = aim
    return [CARD_NAMES[card] for card in cards], pile


def choose_flip_pile(
    hand: list[str], piles: list[str | None], ruleset: dict[str, Any], bot: Bot, rng: random.Random
) -> int:
    """Where the brain flips the draw pile's top card in a draw-pile stall, from what a client sees."""
    return choose_flip(bot, [CARD_ID[card] for card in hand], _tops(piles), taken=[], fits_on=_fits(ruleset), rng=rng)


def _tops(piles: list[str | None]) -> list[Card]:
    return [CARD_ID[top] if top else EMPTY_PILE for top in piles]


def _fits(ruleset: dict[str, Any]) -> FitTable:
    return fit_table_of(bool(ruleset.get("same_rank")), bool(ruleset.get("joker_on_joker")))


class TableBot:
    """One seat's client: ready, then play whenever a card fits, ping now and then, until the game ends."""

    def __init__(
        self,
        *,
        url: str,
        token: str,
        bot: Bot,
        rng: random.Random,
        fixed_reaction_ms: int | None,
        pace: str = "sim",
    ) -> None:
        if pace not in PACES:
            raise ValueError(f"pace is one of {PACES}, not {pace!r}")
        self.url = url
        self.token = token
        self.bot = bot
        self.rng = rng
        self.fixed_reaction_ms = fixed_reaction_ms
        self.looks_ahead = pace == "human"
        self.pace = pace
        self.stats = SeatStats()
        self._refs = 0
        self._pings: dict[str, float] = {}
        # The play in flight: its ref, the cards its side had left before it (hand and draw pile), when it was sent.
        self._pending: tuple[str, int, float] | None = None
        # Set whenever no play is in flight: a reach that looked ahead waits on it.
        self._landed = asyncio.Event()
        self._landed.set()
        self._flipped_v: int | None = None
        self._state: dict[str, Any] | None = None
        self._move: asyncio.Task[None] | None = None

    def _ref(self, prefix: str) -> str:
        self._refs += 1
        return f"{prefix}{self._refs}"

    async def run(self, *, until: float) -> SeatStats:
        """Play until the game is over or `until`, connecting again whenever the socket drops."""
        headers = {"Authorization": f"Token {self.token}"}
        attempts = 0
        while time.monotonic() < until:
            attempts += 1
            if attempts > 1:
                self.stats.reconnects += 1
            try:
                async with websockets.connect(
                    self.url,
                    additional_headers=headers,
                    max_size=2**20,
                    open_timeout=max(1.0, until - time.monotonic()),
                ) as socket:
                    if await self._session(socket, until=until):
                        break
            except (OSError, TimeoutError, websockets.exceptions.WebSocketException):
                # Whatever was in flight may have landed unseen: its latency is not measured.
                self._settle()
                self._pings.clear()
                await asyncio.sleep(min(RECONNECT_PAUSE_S, max(0.0, until - time.monotonic())))
        if self.stats.on_from is not None and self.stats.on_until is None:
            self.stats.on_until = time.monotonic()
        return self.stats

    async def _session(self, socket: Any, *, until: float) -> bool:
        """One connection's life: True when the game is over, False when the time is up."""
        pinger = asyncio.create_task(self._ping(socket))
        try:
            while time.monotonic() < until:
                try:
                    raw = await asyncio.wait_for(socket.recv(), timeout=max(0.01, until - time.monotonic()))
                except TimeoutError:
                    return False
                if await self._on_message(socket, json.loads(raw)):
                    return True
            return False
        finally:
            pinger.cancel()
            if self._move is not None:
                self._move.cancel()
                self._move = None

    async def _send(self, socket: Any, message: dict[str, Any]) -> None:
        # A closed socket is noticed by the receiving loop, which connects again.
        with contextlib.suppress(websockets.exceptions.ConnectionClosed):
            await socket.send(json.dumps(message))

    async def _ping(self, socket: Any) -> None:
        while True:
            ref = self._ref("p")
            self._pings[ref] = time.perf_counter()
            await self._send(socket, {"type": "ping", "ref": ref})
            await asyncio.sleep(PING_EVERY_S[self.pace])

    @staticmethod
    def _left(state: dict[str, Any]) -> int:
        return len(state["hand"]) + state["draw_counts"][state["you"]]

    def _settle(self) -> None:
        self._pending = None
        self._landed.set()

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
                self._settle()
                self._schedule(socket)
            return False
        if kind != "state":
            return False
        if self._state is not None and message["v"] < self._state["v"]:
            return False
        self._state = message
        self.stats.states += 1
        self.stats.status = message["status"]
        # Shown once the side has fewer cards left: a card's name alone could be a second deck's twin.
        if self._pending and message.get("hand") is not None and self._left(message) < self._pending[1]:
            self.stats.play_ms.append((now - self._pending[2]) * 1000)
            self.stats.plays += 1
            self._settle()
        if message["status"] in ("playing", "stuck") and self.stats.on_from is None:
            self.stats.on_from = time.monotonic()
        if message["status"] in ("over", "abandoned"):
            self.stats.result = message.get("result")
            self.stats.on_until = time.monotonic()
            return True
        if message["status"] == "waiting" and not message["ready"][message["you"]]:
            await self._send(socket, {"type": "ready"})
        self._schedule(socket)
        return False

    def _schedule(self, socket: Any) -> None:
        """After a change: reach for a card after the bot's reaction time (the choice is made on arrival)."""
        if self._move is not None and not self._move.done():
            return
        if self._pending is not None and not self.looks_ahead:
            return
        self._move = asyncio.ensure_future(self._reach(socket))

    def _reaction_ms(self) -> float:
        if self.fixed_reaction_ms is not None:
            return self.fixed_reaction_ms
        if self.pace == "human":
            low, high, mode = HUMAN_REACTION_MS
            return self.rng.triangular(low, high, mode)
        return self.bot.reaction(self.rng)

    async def _reach(self, socket: Any) -> None:
        await asyncio.sleep(self._reaction_ms() / 1000)
        # Looking ahead, the hand is ready before the card in flight is shown: choose once it is.
        while self._pending is not None:
            if not self.looks_ahead:
                return
            await self._landed.wait()
        state = self._state
        if state is None:
            return
        you = state["you"]
        if state["status"] == "stuck" and state["ruleset"].get("stall_source") == "draw_piles":
            if state["draw_counts"][you] and self._flipped_v != state["v"]:
                self._flipped_v = state["v"]
                pile = choose_flip_pile(state.get("hand") or [], state["piles"], state["ruleset"], self.bot, self.rng)
                await self._send(socket, {"type": "flip", "pile": pile})
            return
        if state["status"] != "playing" or not state.get("hand"):
            return
        choice = choose_play(
            state["hand"], state["piles"], state["ruleset"], self.bot, self.rng, draw_count=state["draw_counts"][you]
        )
        if choice is None:
            return
        cards, pile = choice
        ref = self._ref("c")
        message: dict[str, Any] = {"type": "play", "pile": pile, "ref": ref}
        if state["ruleset"].get("multi_card"):
            message["cards"] = cards
        else:
            message["card"] = cards[0]
        self._pending = (ref, self._left(state), time.perf_counter())
        self._landed.clear()
        await self._send(socket, message)
        if self.looks_ahead:
            self._move = asyncio.ensure_future(self._reach(socket))


@dataclass
class SpectatorStats:
    """What one anonymous spectator of the attack managed: messages sent, answers, and how its socket ended."""

    sent: int = 0
    refused: dict[str, int] = field(default_factory=dict)
    states: int = 0
    connected: bool = False
    closed_with: int | None = None


async def spectate(url: str, *, every_s: float, until: float, stop: asyncio.Event) -> SpectatorStats:
    """An anonymous socket on a table that sends `ready` every `every_s` until `until` (the issue's attack).

    A spectator's intent is refused (`not_seated`); the point is what answering
    it costs the server, and whether it slows play at other tables.
    """
    stats = SpectatorStats()
    refs = 0
    try:
        async with websockets.connect(url, max_size=2**20, open_timeout=max(1.0, until - time.monotonic())) as socket:
            stats.connected = True

            async def read() -> None:
                async for raw in socket:
                    message = json.loads(raw)
                    if message.get("type") == "refused":
                        code = str(message.get("code"))
                        stats.refused[code] = stats.refused.get(code, 0) + 1
                    elif message.get("type") == "state":
                        stats.states += 1

            reader = asyncio.create_task(read())
            try:
                while time.monotonic() < until and not reader.done() and not stop.is_set():
                    refs += 1
                    await socket.send(json.dumps({"type": "ready", "ref": f"s{refs}"}))
                    stats.sent += 1
                    await asyncio.sleep(every_s)
            finally:
                reader.cancel()
    except websockets.exceptions.ConnectionClosed as closed:
        stats.closed_with = closed.rcvd.code if closed.rcvd is not None else None
    except websockets.exceptions.InvalidStatus as refused:
        stats.closed_with = refused.response.status_code
    except (OSError, TimeoutError, websockets.exceptions.WebSocketException):
        pass
    return stats


async def play_tables(
    seats: list[tuple[str, str]],
    *,
    seconds: float,
    seed: int,
    reaction_ms: int | None,
    pace: str = "sim",
    spectators: tuple[str, int, float] | None = None,
) -> tuple[list[SeatStats], list[SpectatorStats]]:
    """Play every (socket URL, token) seat at once until its game ends or `seconds` pass.

    `spectators` (socket URL, how many, seconds between messages) runs the
    spectator attack on that table for the whole run.
    """
    rng = random.Random(seed)
    until = time.monotonic() + seconds
    bots = [
        TableBot(
            url=url,
            token=token,
            bot=Bot(rng.randint(350, 1100), rng.uniform(0.3, 0.9)),
            rng=random.Random(rng.random()),
            fixed_reaction_ms=reaction_ms,
            pace=pace,
        )
        for url, token in seats
    ]
    url, count, every_s = spectators or ("", 0, 1.0)
    games_done = asyncio.Event()

    async def play() -> list[SeatStats]:
        try:
            return list(await asyncio.gather(*(bot.run(until=until) for bot in bots)))
        finally:
            games_done.set()  # the attack stops with the games it was measured against

    async def watch() -> list[SpectatorStats]:
        return list(
            await asyncio.gather(*(spectate(url, every_s=every_s, until=until, stop=games_done) for _ in range(count)))
        )

    return await asyncio.gather(play(), watch())
