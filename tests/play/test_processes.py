"""One game over two server processes sharing Redis, a server process killed mid-game, and a database outage."""

from __future__ import annotations

import asyncio
import json
import re
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import redis
from asgiref.sync import async_to_sync, sync_to_async
from django.conf import settings
from rest_framework.authtoken.models import Token
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from benchmarks.workers import WorkerProcess
from matches.models import Game
from play import edge
from play.models import Table, TableEvent
from play.services import table_open_for_game
from tests.factories import make_match, make_player
from tests.faults.production_settings import production_env
from tests.proxy import CuttableProxy

from .conftest import driver_move, find_deck, game_now, table_now
from .servers import LAYER_URL, Server, database_url, timer_worker

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


# -- a database outage under live tables -----------------------------------------------------------

OUTAGE_SECONDS = 10  # far longer than a seat's silence (three heartbeats) and than a table's abandon_ms


@dataclass
class BehindAProxy:
    database: CuttableProxy
    servers: list[Server]
    worker: WorkerProcess


@pytest.fixture
def behind_a_proxy(tmp_path: Path) -> Iterator[BehindAProxy]:
    """Two daphne processes and the timer worker, all reaching PostgreSQL through one cuttable proxy.

    The servers run with DEBUG off, as production does: an outage's HTTP answer is then the site's 503.
    """
    redis.Redis.from_url(settings.CELERY_BROKER_URL).flushdb()
    database = CuttableProxy(5432)
    through = database_url(database.port)
    started: list[Server] = []
    worker = None
    try:
        worker = timer_worker(tmp_path / "worker.log", database=through)
        # The cache in Redis, as deployed: without CACHE_URL production keeps it in a table the tests lack.
        env = {**production_env(), "DATABASE_URL": through, "CACHE_URL": LAYER_URL}
        started.extend(Server(env=env) for _ in range(2))
        yield BehindAProxy(database, started, worker)
    finally:
        for server in started:
            server.stop()
            print(f"--- daphne on {server.port}:\n{server.output()[-3000:]}")
        if worker is not None:
            worker.stop()
            print(f"--- worker:\n{worker.output()[-3000:]}")
        database.close()


def _http(server: Server, path: str) -> tuple[int, bytes]:
    accept = "application/json" if path.startswith("/api/") else "text/html"
    request = urllib.request.Request(f"http://127.0.0.1:{server.port}{path}", headers={"Accept": accept})
    try:
        with urllib.request.urlopen(request, timeout=20) as response:
            return response.status, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.read()


def _matches(count: int) -> list[tuple[Any, list[str]]]:
    made = []
    for index in range(count):
        players = [make_player(f"a{index}"), make_player(f"b{index}")]
        made.append((make_match(*players), [Token.objects.create(user=player.user).key for player in players]))
    return made


def _open(match: Any, deck: list[str]) -> Table:
    return table_open_for_game(game_id=match.games.get(number=1).pk, user=match.player_one.user, deck=deck)[0]


def _everyone_present(table_ids: list[int]) -> bool:
    return all(away == [None, None] for away in Table.objects.filter(pk__in=table_ids).values_list("away", flat=True))


def test_a_database_outage_under_live_tables_abandons_none_and_every_game_plays_on(
    behind_a_proxy: BehindAProxy,
) -> None:
    """Issue 30: PostgreSQL away for longer than a seat's silence, under four tables being played.

    Every socket that needs nothing of the database rides the outage out (a ping is answered); a play
    sent during it closes its socket with 4013, never 1011, and the client reconnects as the page does;
    HTTP answers 503. After, no table is abandoned (the seats' beats failed, yet their players were
    there all along: the tests' abandon_ms is far shorter than the outage) and every game is played
    to its end.
    """
    database, servers = behind_a_proxy.database, behind_a_proxy.servers
    deck = find_deck("speed", lambda types, result, deck: result is not None and "winner" in result)
    matches = _matches(4)
    codes: list[int | None] = []

    async def seated(match: Any, tokens: list[str]) -> tuple[Table, list[Client]]:
        table = await sync_to_async(_open)(match, deck)  # just before its players sit: it aborts if never readied
        path = f"/ws/tables/{table.pk}/"
        clients = [Client(servers[seat].url(path), tokens[seat]) for seat in range(2)]
        for client in clients:
            await client.open()
        for client in clients:
            await client.send({"type": "ready"})
        await clients[0].until(lambda state: state["status"] in ("playing", "stuck"))
        for _ in range(3):
            assert await _move(clients, table.pk)
        return table, clients

    async def pong(client: Client, ref: str) -> None:
        assert client.socket is not None
        await client.send({"type": "ping", "ref": ref})
        async with asyncio.timeout(5):
            while (message := json.loads(await client.socket.recv()))["type"] != "pong":
                assert message["type"] == "state", message
        assert message["ref"] == ref

    async def until_closed(client: Client) -> list[dict[str, Any]]:
        assert client.socket is not None
        messages = []
        try:
            async with asyncio.timeout(10):
                while True:
                    messages.append(json.loads(await client.socket.recv()))
        except ConnectionClosed as closed:
            codes.append(closed.rcvd.code if closed.rcvd is not None else None)
        return messages

    async def reopen(client: Client) -> None:
        """As the page does after 4013: try again until the server answers with a state."""
        async with asyncio.timeout(20):
            while True:
                try:
                    await client.open()
                    return
                except ConnectionClosed as closed:
                    codes.append(closed.rcvd.code if closed.rcvd is not None else None)
                    await asyncio.sleep(0.5)

    async def play_out(table_id: int, clients: list[Client]) -> None:
        while await _move(clients, table_id):
            pass

    async def scenario() -> list[tuple[Table, list[Client]]]:
        tables = [await seated(match, tokens) for match, tokens in matches]
        first, first_clients = tables[0]
        database.cut()
        cut_at = time.monotonic()
        try:
            for server in servers:
                for path in (f"/api/tables/{first.pk}/", f"/tables/{first.pk}/"):
                    status, body = await sync_to_async(_http)(server, path)
                    assert status == 503, (path, body[:300])
            # A play needs the database (before it is even judged): its socket is told so and closed with 4013.
            seat, card, pile = driver_move((await game_now(first.pk)).state) or (0, "AS", 0)
            player = first_clients[seat]
            await player.send({"type": "play", "card": card, "pile": pile, "ref": "during"})
            unavailable = {"type": "unavailable", "reason": "database_unavailable", "retry_after_ms": 5000}
            assert unavailable in await until_closed(player)
            await asyncio.sleep(OUTAGE_SECONDS - (time.monotonic() - cut_at))
            # Every other socket is still open, its heartbeats failing all along.
            for _table, clients in tables:
                for client in clients:
                    if client is not player:
                        await pong(client, f"cut-{id(client)}")
        finally:
            database.restore()
        await reopen(player)
        # Whatever the sweeps noticed when the database came back (every seat had been silent), each seat's
        # next beat undid: a while on, every seat is shown present, none left away with its player there.
        await asyncio.sleep(2)
        async with asyncio.timeout(15):
            while not await sync_to_async(_everyone_present)([table.pk for table, _clients in tables]):
                await asyncio.sleep(0.2)
        await asyncio.gather(*(play_out(table.pk, clients) for table, clients in tables))
        for _table, clients in tables:
            for client in clients:
                await client.until(lambda state: state["status"] == "over")
                await client.close()
        return tables

    tables = async_to_sync(scenario)()
    assert set(codes) == {edge.UNAVAILABLE}, codes
    for (table, clients), (match, _tokens) in zip(tables, matches, strict=True):
        assert Table.Status.ABANDONED not in {state["status"] for client in clients for state in client.states}
        table.refresh_from_db()
        assert table.status == Table.Status.OVER and table.log_id is not None
        assert Game.objects.get(match=match, number=1).decided_by == Game.DecidedBy.TABLE
    for server in servers:
        assert "Exception inside application" not in server.output()
        assert "Internal Server Error" not in server.output()
    # A sweep the outage failed was not retried (the next one came anyway): none piled up for its end.
    worker_log = behind_a_proxy.worker.output()
    assert "tables sweep: database_unavailable" in worker_log
    assert not re.search(r"play\.tables_sweep\[[^]]+\] retry", worker_log)
