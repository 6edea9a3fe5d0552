"""Helpers for the table tests: sockets through Channels' WebsocketCommunicator, tables with fixed decks."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import AnonymousUser
from django.test import override_settings

from play.models import Table
from play.services import live_game_build
from speedrules import PRESETS
from speedrules.cards import build_pack
from speedsite.asgi import websocket_application

IN_MEMORY = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}


@pytest.fixture(autouse=True)
def _in_memory_layer() -> Any:
    with override_settings(CHANNEL_LAYERS=IN_MEMORY):
        from channels.layers import channel_layers

        channel_layers.backends.clear()
        yield
        channel_layers.backends.clear()


def fixed_deck(ruleset: str = "speed", seed: int = 1) -> list[str]:
    rules = PRESETS[ruleset]
    deck = build_pack(decks=rules.decks, jokers=rules.jokers)
    random.Random(seed).shuffle(deck)
    return deck


class Seat:
    """One socket to a table, with every message it received kept for the leak checks."""

    def __init__(self, table_id: int, user: Any = None, headers: list[tuple[bytes, bytes]] | None = None) -> None:
        self.communicator = WebsocketCommunicator(
            websocket_application, f"/ws/tables/{table_id}/", headers=headers or []
        )
        self.communicator.scope["user"] = user if user is not None else AnonymousUser()
        self.received: list[dict[str, Any]] = []
        self.state: dict[str, Any] | None = None

    async def connect(self) -> dict[str, Any]:
        connected, _ = await self.communicator.connect()
        assert connected
        return await self.next_state()

    async def send(self, message: Any) -> None:
        await self.communicator.send_to(text_data=message if isinstance(message, str) else json.dumps(message))

    async def receive(self, timeout: float = 3) -> dict[str, Any]:
        message = json.loads(await self.communicator.receive_from(timeout=timeout))
        self.received.append(message)
        if message["type"] == "state":
            self.state = message
        return message

    async def next_state(self, timeout: float = 3) -> dict[str, Any]:
        while True:
            message = await self.receive(timeout)
            if message["type"] == "state":
                return message

    async def until(self, predicate: Any, timeout: float = 5) -> dict[str, Any]:
        """Receive until a state satisfies `predicate` (the last state counts)."""
        if self.state is not None and predicate(self.state):
            return self.state
        while True:
            state = await self.next_state(timeout)
            if predicate(state):
                return state

    async def refusal(self, timeout: float = 3) -> dict[str, Any]:
        while True:
            message = await self.receive(timeout)
            if message["type"] == "refused":
                return message

    async def drain(self) -> None:
        while not await self.communicator.receive_nothing(timeout=0.05):
            await self.receive()

    async def close(self) -> None:
        await self.communicator.disconnect()


def table_game(table_id: int) -> Any:
    return live_game_build(Table.objects.get(pk=table_id))


# -- a deterministic player for both seats, and the search for decks that lead somewhere -----------

from speedrules import Judge  # noqa: E402
from speedrules.cards import CARD_NAMES, JOKER  # noqa: E402


def driver_move(state: Any) -> tuple[int, str, int] | None:
    """The move the tests' driver makes: the lowest seat's first legal play, jokers only when nothing else fits."""
    fallback = None
    for seat in range(len(state.hands)):
        for card, pile in sorted(state.legal_single_plays(seat)):
            if card != JOKER:
                return seat, CARD_NAMES[card], pile
            fallback = fallback or (seat, CARD_NAMES[card], pile)
    return fallback


def driver_intent(state: Any) -> tuple[int, dict[str, Any]] | None:
    """The driver's next message and its seat, in any game: a play (with `from` in a tableau game), else in
    Spit the lowest seat's first move that turns a card up."""
    if not state.tableau:
        move = driver_move(state)
        if move is None:
            return None
        seat, card, pile = move
        return seat, {"type": "play", "card": card, "pile": pile}
    for seat in range(len(state.stock)):
        plays = sorted(state.legal_plays(seat))
        if plays:
            card, pile, source = plays[0]
            return seat, {"type": "play", "card": CARD_NAMES[card], "from": source, "pile": pile}
    for seat in range(len(state.stock)):
        for source, target in state.turning_moves(seat):
            card = CARD_NAMES[state.stock[seat][source][-1]]
            return seat, {"type": "move", "card": card, "from": source, "to": target}
    return None


def emulate(
    ruleset: str, deck: list[str], *, max_events: int = 3000, stop: Any = None
) -> tuple[list[str], dict[str, Any] | None]:
    """Play `deck` as the tests' driver and the referee would (stalls with the default flips; a reshuffle stops
    the emulation, its order being random): the event types, and the result (None: stopped)."""
    rules = PRESETS[ruleset]
    game = Judge(rules, tuple(f"p{seat}" for seat in range(rules.players)), deck)
    t = 0
    while len(game.events) < max_events:
        state = game.state
        if stop is not None and stop(state):
            return [event["type"] for event in game.events] + ["stop"], None
        move = driver_move(state)
        t += 10
        if move is not None:
            seat, card, pile = move
            game.push({"t": t, "type": "play", "player": seat, "card": card, "pile": pile})
            if state.remaining(seat) == 0:
                game.push({"t": t, "type": "speed", "player": seat})
                return [event["type"] for event in game.events], {"winner": seat}
            continue
        if state.is_dead():
            return [event["type"] for event in game.events], {"deadlock": True}
        if rules.stalls_from_draw_piles:
            piles = [index % rules.center_piles if draw else None for index, draw in enumerate(state.draws)]
            game.push({"t": t, "type": "stall", "piles": piles})
        elif any(state.stacks):
            game.push({"t": t, "type": "stall"})
        else:
            return [event["type"] for event in game.events] + ["reshuffle"], None
    return [event["type"] for event in game.events], None


def find_deck(ruleset: str, wanted: Any, *, seeds: int = 3000, stop: Any = None) -> list[str]:
    """The first fixed deck whose emulated game satisfies `wanted(event_types, result, deck)`."""
    for seed in range(seeds):
        deck = fixed_deck(ruleset, seed)
        types, result = emulate(ruleset, deck, stop=stop)
        if wanted(types, result, deck):
            return deck
    raise AssertionError("no deck found")


# -- driving a table over its sockets ------------------------------------------------------------

import asyncio  # noqa: E402
import re  # noqa: E402

from asgiref.sync import async_to_sync, sync_to_async  # noqa: E402

_CARD = re.compile(r"^(?:10|[2-9AJQK])[SHDC]$|^JK$")


async def table_now(table_id: int) -> Table:
    return await sync_to_async(Table.objects.get)(pk=table_id)


async def game_now(table_id: int) -> Any:
    return await sync_to_async(table_game)(table_id)


async def play_out(seats: dict[int, Seat], table_id: int, *, max_moves: int = 2000, hook: Any = None) -> Table:
    """Play the table to its end with the tests' driver, each move sent on its seat's socket.

    While stuck it waits for the table's own timers; `hook(table, game)` may act first (return True when it did).
    """
    for _ in range(max_moves):
        table = await table_now(table_id)
        if table.status in (Table.Status.OVER, Table.Status.ABANDONED):
            return table
        game = await game_now(table_id)
        if hook is not None and await hook(table, game):
            continue
        move = driver_intent(game.state) if table.status == Table.Status.PLAYING else None
        if move is None:
            await next(iter(seats.values())).until(lambda state, v=table.v: state["v"] > v, timeout=10)
            continue
        seat, message = move
        await seats[seat].send({**message, "ref": f"m{table.v}"})
        await seats[seat].until(lambda state, v=table.v: state["v"] > v, timeout=10)
    raise AssertionError("the game did not end")


async def only_seat_zero(table: Table, game: Any) -> bool:
    """A `play_out` hook: the driver plays seat 0 only; when seat 0 has no move it waits for the bots or timers."""
    move = driver_intent(game.state) if table.status == Table.Status.PLAYING else None
    if move is not None and move[0] == 0:
        return False
    await asyncio.sleep(0.02)
    return True


def play_match(table_id: int, users: list[Any], *, max_moves: int = 2000) -> tuple[list[Seat], Seat]:
    """Every player of a match table sits, readies and plays it out with the driver, watched by a spectator;
    the seats and the spectator, each with every message it received."""

    async def scenario() -> tuple[list[Seat], Seat]:
        seats = [Seat(table_id, user) for user in users]
        watcher = Seat(table_id)
        for seat in (*seats, watcher):
            await seat.connect()
        for seat in seats:
            await seat.send({"type": "ready"})
        await seats[0].until(lambda state: state["status"] in ("playing", "stuck"), timeout=5)
        await play_out(dict(enumerate(seats)), table_id, max_moves=max_moves)
        for seat in (*seats, watcher):
            await seat.until(lambda state: state["status"] == "over", timeout=5)
            await seat.close()
        return seats, watcher

    return async_to_sync(scenario)()


def _cards_in(value: Any, out: list[str]) -> None:
    if isinstance(value, str):
        out.extend(word for word in re.split(r"[\s,.:;()]+", value) if _CARD.match(word))
    elif isinstance(value, dict):
        for item in value.values():
            _cards_in(item, out)
    elif isinstance(value, list):
        for item in value:
            _cards_in(item, out)


def assert_no_leak(messages: list[dict[str, Any]], *, seat: int | None, own: set[str]) -> None:
    """No message before the game is over shows a card the receiver may not see (speed-table/1 section 4).

    A card is public once it was a pile's top after the starters were turned (t = 0), or the card of the
    latest event; the receiver's own cards (its hand and draw pile as dealt) it may see in its hand and in
    its refusals. Before t = 0 the starters are face down: no pile shows a card.
    """
    public: set[str] = set()
    for message in messages:
        if message["type"] == "state" and message["status"] == "over":
            return
        if message["type"] == "state":
            if message["t"] is None:
                assert not any(message["piles"]), f"a face-down starter was shown before t = 0: {message['piles']}"
            public.update(card for card in message["piles"] if card)
            last = message["last"] or {}
            assert "order" not in last, "a reshuffle's order was shown before the end"
            public.update(last.get("cards", [last.get("card")]) if last else [])
            if seat is None:
                assert message["hand"] is None
            else:
                assert set(message["hand"] or ()) <= own, f"seat {seat} was shown another seat's card"
            rest = {key: value for key, value in message.items() if key != "hand"}
        else:
            rest = message
        shown: list[str] = []
        _cards_in(rest, shown)
        allowed = public | (own if seat is not None and message["type"] == "refused" else set())
        leaked = set(shown) - allowed
        assert not leaked, f"{message['type']} to seat {seat} shows {leaked}"


def dealt_to(ruleset: str, deck: list[str], seat: int) -> set[str]:
    """The cards dealt to `seat` (its hand and draw pile)."""
    rules = PRESETS[ruleset]
    per_seat = rules.hand_size + rules.draw_size
    return set(deck[seat * per_seat : (seat + 1) * per_seat])
