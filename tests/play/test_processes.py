"""One game over two server processes sharing Redis, and a server process killed mid-game."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import redis
from asgiref.sync import async_to_sync, sync_to_async
from django.conf import settings
from rest_framework.authtoken.models import Token
from websockets.asyncio.client import ClientConnection, connect

from matches.models import Game
from play.models import Table, TableEvent
from play.services import table_open_for_game
from tests.factories import make_match, make_player

from .conftest import driver_move, find_deck, game_now, table_now
from .servers import Server, timer_worker

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def servers(tmp_path: Path) -> Iterator[list[Server]]:
    """Two daphne processes, and the Celery worker (with its beat) that fires the tables' timers."""
    redis.Redis.from_url(settings.CELERY_BROKER_URL).flushdb()
    started: list[Server] = []
    worker = timer_worker(tmp_path / "worker.log")
    try:
        started.extend([Server(), Server()])
        yield started
    finally:
        for server in started:
            server.stop()
            print(f"--- daphne on {server.port}:\n{server.output()[-3000:]}")
        worker.stop()
        print(f"--- worker:\n{worker.output()[-3000:]}")


class Client:
    """A real WebSocket client with a token, keeping the last state it received."""

    def __init__(self, url: str, token: str) -> None:
        self.url, self.token = url, token
        self.socket: ClientConnection | None = None
        self.state: dict[str, Any] | None = None
        self.states: list[dict[str, Any]] = []

    async def open(self) -> dict[str, Any]:
        self.socket = await connect(self.url, additional_headers={"Authorization": f"Token {self.token}"})
        self.state = None
        return await self.until(lambda state: True)

    async def send(self, message: dict[str, Any]) -> None:
        assert self.socket is not None
        await self.socket.send(json.dumps(message))

    async def until(self, predicate: Any, timeout: float = 10) -> dict[str, Any]:
        assert self.socket is not None
        if self.state is not None and predicate(self.state):
            return self.state
        async with asyncio.timeout(timeout):
            while True:
                message = json.loads(await self.socket.recv())
                if message["type"] == "state":
                    self.state = message
                    self.states.append(message)
                    if predicate(message):
                        return message

    async def close(self) -> None:
        if self.socket is not None:
            await self.socket.close()


def _table() -> tuple[Table, list[str], Any]:
    deck = find_deck(
        "speed", lambda types, result, deck: result is not None and "winner" in result and "stall" in types
    )
    alice, ben = make_player("alice"), make_player("ben")
    match = make_match(alice, ben)
    table, _ = table_open_for_game(game_id=match.games.get(number=1).pk, user=alice.user, deck=deck)
    tokens = [Token.objects.create(user=player.user).key for player in (alice, ben)]
    return table, tokens, match


async def _move(clients: list[Client], table_id: int) -> bool:
    """One move of the driver (or a wait for the table's timers); False when the game is over."""
    table = await table_now(table_id)
    if table.status == Table.Status.OVER:
        return False
    game = await game_now(table_id)
    move = driver_move(game.state) if table.status == Table.Status.PLAYING else None
    if move is None:
        await clients[0].until(lambda state: state["v"] > table.v)
        return True
    seat, card, pile = move
    await clients[seat].send({"type": "play", "card": card, "pile": pile, "ref": f"m{table.v}"})
    await clients[seat].until(lambda state: state["v"] > table.v)
    return True


def test_one_game_on_two_server_processes(servers: list[Server]) -> None:
    table, tokens, match = _table()
    path = f"/ws/tables/{table.pk}/"

    async def scenario() -> list[Client]:
        clients = [Client(servers[0].url(path), tokens[0]), Client(servers[1].url(path), tokens[1])]
        for client in clients:
            await client.open()
        for client in clients:
            await client.send({"type": "ready"})
        await clients[0].until(lambda state: state["status"] in ("playing", "stuck"))
        while await _move(clients, table.pk):
            pass
        for client in clients:
            await client.until(lambda state: state["status"] == "over")
            await client.close()
        return clients

    clients = async_to_sync(scenario)()
    # Both processes showed the same end; the log holds the events and decided the game.
    assert clients[0].state["result"] == clients[1].state["result"] == Table.objects.get(pk=table.pk).result
    assert clients[0].state["last"] == clients[1].state["last"]
    game = Game.objects.get(match=match, number=1)
    assert game.decided_by == Game.DecidedBy.TABLE


def test_a_server_killed_mid_game_loses_no_event_and_the_game_goes_on(servers: list[Server]) -> None:
    table, tokens, match = _table()
    path = f"/ws/tables/{table.pk}/"

    async def scenario() -> dict[str, Any]:
        first = [Client(servers[0].url(path), token) for token in tokens]
        for client in first:
            await client.open()
        for client in first:
            await client.send({"type": "ready"})
        await first[0].until(lambda state: state["status"] in ("playing", "stuck"))
        for _ in range(8):
            assert await _move(first, table.pk)
        seen = max(first, key=lambda client: client.state["v"]).state
        await sync_to_async(servers[0].kill)()
        # Every event anyone saw is stored.
        stored = await sync_to_async(
            lambda: list(TableEvent.objects.filter(table_id=table.pk).order_by("index").values_list("data", flat=True))
        )()
        assert seen["last"] in stored
        # The players reconnect to the other process: the whole state, and the game goes on to its end.
        second = [Client(servers[1].url(path), token) for token in tokens]
        state = await second[0].open()
        assert state["v"] >= seen["v"] and state["hand"] is not None
        # The other seat's connection died with its process: once its heartbeats stop it is shown away.
        await second[0].until(lambda state: state["connected"] == [True, False])
        state = await second[1].open()
        assert state["connected"] == [True, True] and state["hand"] is not None
        while await _move(second, table.pk):
            pass
        for client in second:
            await client.until(lambda state: state["status"] == "over")
            await client.close()
        return seen

    async_to_sync(scenario)()
    table.refresh_from_db()
    assert table.status == Table.Status.OVER and table.log_id is not None
    assert Game.objects.get(match=match, number=1).decided_by == Game.DecidedBy.TABLE


def test_a_table_with_every_server_process_killed_ends_on_its_timers(servers: list[Server]) -> None:
    """Amendment L1: the countdown, then the abandonment, are fired by Celery with no socket process left."""
    table, tokens, match = _table()
    path = f"/ws/tables/{table.pk}/"

    async def scenario() -> None:
        clients = [Client(servers[0].url(path), tokens[0]), Client(servers[1].url(path), tokens[1])]
        for client in clients:
            await client.open()
        for client in clients:
            await client.send({"type": "ready"})
        await clients[0].until(lambda state: state["status"] == "countdown")
        for server in servers:
            await sync_to_async(server.kill)()

    async_to_sync(scenario)()
    deadline = time.monotonic() + 20
    seen: list[str] = []
    while time.monotonic() < deadline:
        current = Table.objects.get(pk=table.pk)
        seen.append(current.status)
        if current.status == Table.Status.ABANDONED:
            break
        time.sleep(0.1)
    assert current.status == Table.Status.ABANDONED, seen[-5:]
    # The worker turned the starters (no process was left to) before the seats' silence ran out.
    assert (
        current.started_at is not None and current.started_at == current.countdown_at + current.settings["countdown_ms"]
    )
    assert Game.objects.get(match=match, number=1).status == Game.Status.OPEN
