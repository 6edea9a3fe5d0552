"""The table sockets' edge on a real daphne: its handshake answers, its memory under a flood, real outages.

Outages are cut in front of the shared PostgreSQL and Redis (tests/proxy.py), for
the one daphne under test. See test_edge.py for the edge's rules in-process.
"""

from __future__ import annotations

import asyncio
import json
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml
from asgiref.sync import async_to_sync
from django.conf import settings
from django.test import override_settings
from rest_framework.authtoken.models import Token
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidStatus

from play import edge
from play.models import Table
from play.selectors import table_state
from play.services import table_open_for_game, table_practice_create
from tests.factories import make_match, make_player
from tests.proxy import CuttableProxy

from .servers import LAYER_URL, ROOT, Server, database_url

pytestmark = pytest.mark.django_db(transaction=True)


def _deploy_flags() -> tuple[str, ...]:
    """The websocket limits docker-compose.yml gives daphne (the flags between the port and the application)."""
    command = yaml.safe_load((ROOT / "docker-compose.yml").read_text())["services"]["ws"]["command"]
    return tuple(command[command.index("8001") + 1 : command.index("speedsite.asgi:application")])


DEPLOY_FLAGS = _deploy_flags()
REDIS_PORT = int(LAYER_URL.rsplit(":", 1)[1].split("/")[0])
REDIS_DB = LAYER_URL.rsplit("/", 1)[1]
MIB = 1024 * 1024


@pytest.fixture
def started() -> Iterator[list[Server]]:
    """Servers a test starts (`started.append(Server(...))`), stopped after it with their logs printed."""
    servers: list[Server] = []
    try:
        yield servers
    finally:
        for server in servers:
            server.stop()
            print(f"--- daphne on {server.port}:\n{server.output()[-4000:]}")


@pytest.fixture
def proxies() -> Iterator[list[CuttableProxy]]:
    made: list[CuttableProxy] = []
    try:
        yield made
    finally:
        for proxy in made:
            proxy.close()


def _practice_table() -> Table:
    return table_practice_create(user=make_player("host").user, ruleset="speed", bots=["easy"])


async def _until_closed(socket: ClientConnection, timeout: float = 15) -> tuple[list[dict[str, Any]], int | None]:
    """Every message until the socket closes, and the close code the server sent (None: no close frame)."""
    messages = []
    try:
        async with asyncio.timeout(timeout):
            while True:
                messages.append(json.loads(await socket.recv()))
    except ConnectionClosed as closed:
        return messages, closed.rcvd.code if closed.rcvd is not None else None


async def _first_state(socket: ClientConnection) -> dict[str, Any]:
    async with asyncio.timeout(10):
        while True:
            message = json.loads(await socket.recv())
            if message["type"] == "state":
                return message


def _rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise AssertionError("no VmRSS")


class PeakRss:
    """The highest VmRSS of a process while the block runs, sampled every 20 ms."""

    def __init__(self, pid: int) -> None:
        self.pid = pid
        self.peak = _rss_kib(pid)
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._sample, daemon=True)

    def _sample(self) -> None:
        while not self._stop.wait(0.02):
            self.peak = max(self.peak, _rss_kib(self.pid))

    def __enter__(self) -> PeakRss:
        self._thread.start()
        return self

    def __exit__(self, *exc_info: object) -> None:
        self._stop.set()
        self._thread.join()
        self.peak = max(self.peak, _rss_kib(self.pid))


# -- handshakes ----------------------------------------------------------------------------------


def test_an_unrouted_path_is_a_4xx_handshake_answer_not_a_500(started: list[Server]) -> None:
    server = Server()
    started.append(server)

    async def scenario() -> None:
        for path in ("/ws/tables/-1/", "/ws/tables/1", "/ws/nope/"):
            with pytest.raises(InvalidStatus) as refused:
                await connect(server.url(path))
            assert refused.value.response.status_code == 403, path  # daphne's answer to a close before accept

    async_to_sync(scenario)()
    assert "Exception inside application" not in server.output()


# -- a flood of large frames ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "closed_with"),
    [
        # Daphne's defaults let a 1 MiB frame through: the edge drops it and closes with 4009.
        ((), edge.MESSAGE_TOO_BIG),
        # The deploy's flags (docker-compose.yml): daphne drops the connection at the frame's header.
        (DEPLOY_FLAGS, None),
    ],
)
def test_a_flood_of_one_mib_frames_leaves_daphnes_memory_bounded_and_the_socket_closed(
    started: list[Server], args: tuple[str, ...], closed_with: int | None
) -> None:
    table = _practice_table()
    server = Server(args=args)
    started.append(server)
    frame = "x" * MIB

    async def scenario() -> tuple[int, int, int | None]:
        async with connect(server.url(f"/ws/tables/{table.pk}/"), max_size=None) as warm:
            await _first_state(warm)  # the consumer's code is loaded and has served one socket
        await asyncio.sleep(0.5)
        before = _rss_kib(server.process.pid)
        sent = 0
        socket = await connect(server.url(f"/ws/tables/{table.pk}/"), max_size=None)
        await _first_state(socket)
        with PeakRss(server.process.pid) as rss:
            try:
                for _ in range(300):
                    await socket.send(frame)
                    sent += 1
            except ConnectionClosed:
                pass
            _messages, code = await _until_closed(socket)
        return rss.peak - before, sent, code

    grown_kib, sent, code = async_to_sync(scenario)()
    assert grown_kib < 60 * 1024, f"daphne grew by {grown_kib} KiB after {sent} frames"
    assert sent < 300  # the server closed the socket long before the flood was sent
    assert code == closed_with


def test_the_deploys_limits_are_the_tables_message_limit_and_far_above_any_state() -> None:
    flags = dict(zip(DEPLOY_FLAGS[::2], DEPLOY_FLAGS[1::2], strict=True))
    assert int(flags["--websocket-max-frame-size"]) == settings.SPEED_TABLE_MESSAGE_MAX_BYTES
    # The message limit bounds what daphne sends too (autobahn refuses to send more): a four-way
    # table's state, the largest there is, must stay far below it.
    table = table_practice_create(user=make_player("host").user, ruleset="four-way", bots=["hard"] * 3)
    state = json.dumps(table_state(table=table, seat=0)).encode()
    assert 16 * len(state) < int(flags["--websocket-max-message-size"])


# -- outages -------------------------------------------------------------------------------------


def _with_token(name: str) -> str:
    return Token.objects.create(user=make_player(name).user).key


def test_a_handshake_and_an_open_socket_meet_a_database_outage_with_4013(
    started: list[Server], proxies: list[CuttableProxy]
) -> None:
    table = _practice_table()
    token = _with_token("alice")
    database = CuttableProxy(5432)
    proxies.append(database)
    server = Server(env={"DATABASE_URL": database_url(database.port)})
    started.append(server)
    url = server.url(f"/ws/tables/{table.pk}/")
    auth = {"Authorization": f"Token {token}"}

    async def scenario() -> None:
        spectator = await connect(url)
        await _first_state(spectator)
        database.cut()
        try:
            for headers in (auth, {}):  # the token's lookup (the auth stack), the table's (the consumer)
                socket = await connect(url, additional_headers=headers)
                messages, code = await _until_closed(socket)
                assert code == edge.UNAVAILABLE
                assert messages == [{"type": "unavailable", "reason": "database_unavailable", "retry_after_ms": 5000}]
            # A spectator's intent is refused with no query at all: the outage does not reach it.
            await spectator.send(json.dumps({"type": "ready", "ref": "r"}))
            refused = json.loads(await asyncio.wait_for(spectator.recv(), 5))
            assert (refused["type"], refused["code"], refused["ref"]) == ("refused", "not_seated", "r")
        finally:
            database.restore()
        socket = await connect(url, additional_headers=auth)
        assert (await _first_state(socket))["you"] is None  # not a seat of this table: watching
        await socket.close()

    async_to_sync(scenario)()
    assert "Exception inside application" not in server.output()


def test_a_handshake_during_a_redis_outage_is_answered_4013_in_time(
    started: list[Server], proxies: list[CuttableProxy]
) -> None:
    table = _practice_table()
    layer = CuttableProxy(REDIS_PORT)
    proxies.append(layer)
    server = Server(env={"CHANNEL_LAYER_URL": f"redis://127.0.0.1:{layer.port}/{REDIS_DB}"})
    started.append(server)
    url = server.url(f"/ws/tables/{table.pk}/")

    async def scenario() -> None:
        layer.cut()
        try:
            started_at = time.monotonic()
            socket = await connect(url)
            messages, code = await _until_closed(socket)
            # The layer's retries give up before daphne's 5 s handshake timeout would drop the socket.
            assert time.monotonic() - started_at < 5
            assert code == edge.UNAVAILABLE
            assert messages == [{"type": "unavailable", "reason": "redis_unavailable", "retry_after_ms": 5000}]
        finally:
            layer.restore()
        socket = await connect(url)
        await _first_state(socket)
        await socket.close()

    async_to_sync(scenario)()


def test_after_a_redis_outage_the_layers_pool_heals_and_no_socket_gets_1011(
    started: list[Server], proxies: list[CuttableProxy]
) -> None:
    alice, ben = make_player("alice"), make_player("ben")
    match = make_match(alice, ben)
    # The tests' tables abort 2 s after opening unless both seats are ready (amendment L's abort timer):
    # this one must still be waiting for its players after the outage, so it waits a minute.
    with override_settings(SPEED_TABLE_SETTINGS={**settings.SPEED_TABLE_SETTINGS, "abandon_ms": 60_000}):
        table, _ = table_open_for_game(game_id=match.games.get(number=1).pk, user=alice.user)
    tokens = [Token.objects.create(user=player.user).key for player in (alice, ben)]
    layer = CuttableProxy(REDIS_PORT)
    proxies.append(layer)
    server = Server(env={"CHANNEL_LAYER_URL": f"redis://127.0.0.1:{layer.port}/{REDIS_DB}"})
    started.append(server)
    url = server.url(f"/ws/tables/{table.pk}/")

    async def seat(index: int) -> ClientConnection:
        socket = await connect(url, additional_headers={"Authorization": f"Token {tokens[index]}"})
        assert (await _first_state(socket))["you"] == index
        return socket

    async def ready_seen(by: ClientConnection, sender: ClientConnection, seat_index: int) -> None:
        """`sender` says ready; `by` hears of it through the layer (a nudge from the other connection)."""
        await sender.send(json.dumps({"type": "ready"}))
        async with asyncio.timeout(10):
            while True:
                message = json.loads(await by.recv())
                if message["type"] == "state":
                    assert message["status"] in ("waiting", "countdown"), message  # not aborted meanwhile
                    if message["ready"][seat_index]:
                        return

    async def scenario() -> None:
        sockets = [await seat(0), await seat(1)]
        # A short outage (a Redis restart): within the pools' retries, the open sockets ride it out.
        layer.cut()
        await asyncio.sleep(1.5)
        layer.restore()
        await ready_seen(sockets[0], sockets[1], 1)
        # A long one: the sockets may be closed, but only ever with 4013.
        layer.cut()
        await asyncio.sleep(6)
        layer.restore()
        await asyncio.sleep(0.5)
        for index, socket in enumerate(sockets):
            try:
                await socket.send(json.dumps({"type": "ping", "ref": "after"}))
                async with asyncio.timeout(3):
                    while json.loads(await socket.recv())["type"] != "pong":
                        pass
            except (ConnectionClosed, TimeoutError):
                _messages, code = await _until_closed(socket, timeout=5)
                assert code == edge.UNAVAILABLE, code
                sockets[index] = await seat(index)
        # Every pooled connection was broken by the cut; each new use must heal, not fail.
        fresh = [await connect(url) for _ in range(6)]
        for socket in fresh:
            await _first_state(socket)
        await ready_seen(sockets[1], sockets[0], 0)
        for socket in fresh + sockets:
            await socket.close()

    async_to_sync(scenario)()
    assert "Exception inside application" not in server.output()
