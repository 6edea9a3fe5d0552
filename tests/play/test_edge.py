"""The table sockets' edge (play.edge) in-process: routes, caps, the bounded queue, message sizes, outages.

Most tests put a small application of their own behind `SocketEdge`, so what is
checked is the edge alone; the last ones go through the site's real stack
(`speedsite.asgi.websocket_application`). The real server's side (daphne's
answers, its memory, real outages) is in test_edge_servers.py.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable
from typing import Any

import pytest
import redis.exceptions
from asgiref.sync import async_to_sync
from channels.routing import URLRouter
from channels.testing import ApplicationCommunicator, WebsocketCommunicator
from django.db import OperationalError
from django.test import override_settings
from django.urls import path

from play import edge
from play.edge import SocketEdge, SocketsPerUser, routes_match, socket_outage
from play.services import table_practice_create
from speedsite.asgi import websocket_application
from tests.factories import make_player

from .conftest import Seat

pytestmark = pytest.mark.django_db(transaction=True)


class Behind:
    """The application behind the edge: accepts, records what it receives, answers "echo" frames.

    `gate` (when set) holds it back before each read: a consumer too slow for its client.
    `fail` raises in the handshake ("connect") or on the first frame ("receive").
    """

    def __init__(self, *, fail: tuple[str, BaseException] | None = None) -> None:
        self.received: list[dict[str, Any]] = []
        self.gate: asyncio.Event | None = None
        self.fail = fail

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        message = await receive()
        assert message["type"] == "websocket.connect"
        if self.fail and self.fail[0] == "connect":
            raise self.fail[1]
        await send({"type": "websocket.accept"})
        while True:
            if self.gate is not None:
                await self.gate.wait()
            message = await receive()
            self.received.append(message)
            if message["type"] == "websocket.disconnect":
                return
            if self.fail and self.fail[0] == "receive":
                raise self.fail[1]
            await send({"type": "websocket.send", "text": json.dumps({"echo": message.get("text")})})


def _edge(behind: Any) -> SocketEdge:
    router = URLRouter([path("ws/tables/<int:table_id>/", behind)])
    return SocketEdge(router, routes=router.routes)


def _communicator(
    app: Any, url: str = "/ws/tables/1/", client: str = "10.0.0.1", **scope: Any
) -> WebsocketCommunicator:
    communicator = WebsocketCommunicator(app, url)
    communicator.scope["client"] = [client, 50000]
    communicator.scope.update(scope)
    return communicator


async def _close_code(communicator: ApplicationCommunicator) -> tuple[list[dict[str, Any]], int | None]:
    """The JSON messages before the close, and its code."""
    messages = []
    while True:
        output = await communicator.receive_output(timeout=3)
        if output["type"] == "websocket.close":
            return messages, output.get("code")
        messages.append(json.loads(output["text"]))


def run(coroutine: Callable[[], Awaitable[None]]) -> None:
    async_to_sync(coroutine)()


# -- routes --------------------------------------------------------------------------------------


@pytest.mark.parametrize("url", ["/ws/tables/-1/", "/ws/tables/1", "/ws/nope/", "/ws/tables/x/", "/"])
def test_a_path_no_route_matches_is_refused_before_accept(url: str) -> None:
    behind = Behind()

    async def scenario() -> None:
        communicator = _communicator(_edge(behind), url)
        connected, _code = await communicator.connect()
        assert not connected  # closed before accept: daphne answers the handshake 403
        await communicator.wait()

    run(scenario)
    assert behind.received == []


def test_the_edge_matches_exactly_what_the_router_routes() -> None:
    router = URLRouter([path("ws/tables/<int:table_id>/", Behind())])
    assert routes_match(router.routes, {"path": "/ws/tables/12/"})
    assert not routes_match(router.routes, {"path": "/ws/tables/12/x/"})
    assert not routes_match(router.routes, {"path": "/ws/tables/12"})
    assert routes_match(router.routes, {"path": "/app/ws/tables/3/", "root_path": "/app"})
    assert not routes_match(router.routes, {"path": "/ws/tables/3/", "root_path": "/app"})


def test_a_server_with_denial_responses_answers_an_unknown_path_404_in_the_apis_shape() -> None:
    async def scenario() -> None:
        communicator = _communicator(_edge(Behind()), "/ws/nope/", extensions={"websocket.http.response": {}})
        await communicator.send_input({"type": "websocket.connect"})
        start = await communicator.receive_output()
        body = await communicator.receive_output()
        assert (start["type"], start["status"]) == ("websocket.http.response.start", 404)
        assert json.loads(body["body"])["extra"] == {"code": "not_found"}

    run(scenario)


# -- message sizes and the queue -----------------------------------------------------------------


def test_a_message_over_the_limit_is_dropped_and_the_socket_closed_4009() -> None:
    behind = Behind()

    async def scenario() -> None:
        communicator = _communicator(_edge(behind))
        assert (await communicator.connect())[0]
        await communicator.send_to(text_data="a" * 4097)
        messages, code = await _close_code(communicator)
        assert code == edge.MESSAGE_TOO_BIG
        assert messages == [
            {"type": "refused", "ref": None, "code": "bad_message", "message": "A message is at most 4096 bytes."}
        ]
        await communicator.send_input({"type": "websocket.disconnect", "code": 4009})
        await communicator.wait()

    run(scenario)
    assert [message["type"] for message in behind.received] == ["websocket.disconnect"]  # never the frame


def test_the_limit_counts_bytes_not_characters() -> None:
    limit = 4096
    assert not edge._too_big({"text": "a" * limit}, limit)
    assert edge._too_big({"text": "é" * (limit // 2 + 1)}, limit)  # two bytes each in UTF-8
    assert not edge._too_big({"text": "é" * (limit // 2)}, limit)
    assert edge._too_big({"bytes": b"x" * (limit + 1)}, limit)


@override_settings(SPEED_TABLE_RECEIVE_QUEUE=5)
def test_a_client_faster_than_its_consumer_is_closed_4008_and_the_excess_dropped() -> None:
    behind = Behind()

    async def scenario() -> None:
        communicator = _communicator(_edge(behind))
        assert (await communicator.connect())[0]
        behind.gate = asyncio.Event()  # the consumer stops reading
        await communicator.send_to(text_data="first")
        await asyncio.sleep(0.05)
        for number in range(20):
            await communicator.send_to(text_data=f"m{number}")
        messages, code = await _close_code(communicator)
        assert code == edge.QUEUE_OVERFLOW
        assert messages[-1]["code"] == "too_many_messages"
        await communicator.send_input({"type": "websocket.disconnect", "code": 4008})
        behind.gate.set()
        await communicator.wait()

    run(scenario)
    # What waited when the queue overflowed was dropped: the consumer reads only the disconnect.
    texts = [message.get("text") for message in behind.received]
    assert texts[-1] is None and behind.received[-1]["type"] == "websocket.disconnect"
    assert not any(text and text.startswith("m") for text in texts)


def test_the_queue_holds_more_than_the_throttles_burst() -> None:
    from django.conf import settings

    assert settings.SPEED_TABLE_RECEIVE_QUEUE > settings.SPEED_TABLE_MESSAGE_BURST


# -- outages -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("error", "reason"),
    [
        (OperationalError("connection to server at 127.0.0.1 failed: Connection refused"), "database_unavailable"),
        (redis.exceptions.ConnectionError("Error 111 connecting to 127.0.0.1:6379."), "redis_unavailable"),
        (redis.exceptions.TimeoutError("Timeout reading from socket"), "redis_unavailable"),
    ],
)
@pytest.mark.parametrize("when", ["connect", "receive"])
def test_an_outage_escaping_the_stack_is_an_unavailable_message_and_4013(
    error: BaseException, reason: str, when: str
) -> None:
    async def scenario() -> None:
        communicator = _communicator(_edge(Behind(fail=(when, error))))
        connected, _ = await communicator.connect()
        assert connected  # daphne could only say 403 before accept: the client is told why after it
        if when == "receive":
            await communicator.send_to(text_data='{"type": "ready"}')
        messages, code = await _close_code(communicator)
        assert code == edge.UNAVAILABLE
        assert messages == [{"type": "unavailable", "reason": reason, "retry_after_ms": 5000}]
        await communicator.wait()

    run(scenario)


def test_a_server_with_denial_responses_answers_an_outage_at_the_handshake_503() -> None:
    async def scenario() -> None:
        communicator = _communicator(
            _edge(Behind(fail=("connect", OperationalError("gone")))), extensions={"websocket.http.response": {}}
        )
        await communicator.send_input({"type": "websocket.connect"})
        start = await communicator.receive_output()
        body = await communicator.receive_output()
        assert start["status"] == 503 and (b"retry-after", b"5") in start["headers"]
        assert json.loads(body["body"])["extra"] == {"code": "database_unavailable", "retry_after": 5}

    run(scenario)


def test_any_other_exception_is_left_to_the_server() -> None:
    async def scenario() -> None:
        communicator = _communicator(_edge(Behind(fail=("connect", KeyError("bug")))))
        await communicator.send_input({"type": "websocket.connect"})
        with pytest.raises(KeyError):
            await communicator.wait()

    run(scenario)


def test_what_counts_as_an_outage() -> None:
    import psycopg

    wrapped = OperationalError("server closed the connection unexpectedly")
    wrapped.__cause__ = psycopg.OperationalError("server closed the connection unexpectedly")
    assert socket_outage(wrapped) == "database_unavailable"
    try:
        try:
            raise redis.exceptions.ConnectionError("Connection closed by server.")
        except redis.exceptions.ConnectionError:
            raise RuntimeError("while handling it")  # noqa: B904 - what a library might do
    except RuntimeError as raised:
        assert socket_outage(raised) == "redis_unavailable"
    assert socket_outage(ExceptionGroup("tasks", [ValueError(), redis.exceptions.TimeoutError()])) == (
        "redis_unavailable"
    )
    assert socket_outage(ValueError("a bug")) is None
    assert socket_outage(redis.exceptions.ResponseError("WRONGTYPE")) is None  # Redis answered


# -- caps ----------------------------------------------------------------------------------------


@override_settings(SPEED_TABLE_SOCKETS_PER_ADDRESS=2)
def test_sockets_over_the_cap_for_an_address_are_refused_4029_and_the_count_frees_on_close() -> None:
    app = _edge(Behind())

    async def scenario() -> None:
        first, second = _communicator(app), _communicator(app)
        for communicator in (first, second):
            assert (await communicator.connect())[0]
        assert edge.open_sockets(address="10.0.0.1") == 2
        third = _communicator(app)
        assert (await third.connect())[0]
        messages, code = await _close_code(third)
        assert code == edge.TOO_MANY_SOCKETS
        assert messages[0]["type"] == "refused" and messages[0]["code"] == "too_many_sockets"
        other = _communicator(app, client="10.0.0.2")  # another address has its own count
        assert (await other.connect())[0]
        await first.disconnect()
        again = _communicator(app)
        assert (await again.connect())[0]
        for communicator in (second, other, again):
            await communicator.disconnect()

    run(scenario)
    assert edge.open_sockets(address="10.0.0.1") == 0


@override_settings(SPEED_TABLE_SOCKETS_PER_ADDRESS=1, SPEED_TRUSTED_PROXIES=1)
def test_behind_the_trusted_proxy_the_address_is_the_forwarded_one() -> None:
    app = _edge(Behind())

    def forwarded(address: str) -> list[tuple[bytes, bytes]]:
        return [(b"x-forwarded-for", f"6.6.6.6, {address}".encode())]

    async def scenario() -> None:
        first = _communicator(app, client="172.16.0.9", headers=forwarded("203.0.113.1"))
        second = _communicator(app, client="172.16.0.9", headers=forwarded("203.0.113.2"))
        for communicator in (first, second):
            assert (await communicator.connect())[0]  # one proxy, two clients: two counts
        assert edge.open_sockets(address="203.0.113.1") == 1
        for communicator in (first, second):
            await communicator.disconnect()

    run(scenario)


@override_settings(SPEED_TABLE_SOCKETS_PER_USER=2)
def test_sockets_over_the_cap_for_a_user_are_refused_4029() -> None:
    class User:
        is_authenticated = True

        def __init__(self, pk: int) -> None:
            self.pk = pk

    router = URLRouter([path("ws/tables/<int:table_id>/", SocketsPerUser(Behind()))])
    app = SocketEdge(router, routes=router.routes)

    async def scenario() -> None:
        opened = []
        for number in range(2):
            communicator = _communicator(app, client=f"10.1.0.{number}", user=User(7))
            assert (await communicator.connect())[0]
            opened.append(communicator)
        over = _communicator(app, client="10.1.0.9", user=User(7))
        assert (await over.connect())[0]
        messages, code = await _close_code(over)
        assert (code, messages[0]["code"]) == (edge.TOO_MANY_SOCKETS, "too_many_sockets")
        someone_else = _communicator(app, client="10.1.0.9", user=User(8))
        assert (await someone_else.connect())[0]
        for communicator in [*opened, someone_else]:
            await communicator.disconnect()

    run(scenario)
    assert edge.open_sockets(user_id=7) == 0


# -- through the site's own stack ----------------------------------------------------------------


def test_the_sites_stack_refuses_an_unrouted_path_and_serves_a_table() -> None:
    player = make_player("alice")
    table = table_practice_create(user=player.user, ruleset="speed", bots=["easy"])

    async def scenario() -> None:
        for url in ("/ws/tables/-1/", f"/ws/tables/{table.pk}", "/ws/nope/"):
            communicator = WebsocketCommunicator(websocket_application, url)
            assert not (await communicator.connect())[0]
        seat = Seat(table.pk, user=player.user)
        state = await seat.connect()
        assert state["you"] == 0
        await seat.send("x" * 5000)
        output = await seat.communicator.receive_output(timeout=3)
        while output["type"] != "websocket.close":
            output = await seat.communicator.receive_output(timeout=3)
        assert output["code"] == edge.MESSAGE_TOO_BIG
        await seat.close()

    run(scenario)


@override_settings(SPEED_TABLE_SOCKETS_PER_USER=1)
def test_the_sites_stack_caps_a_users_sockets() -> None:
    player = make_player("alice")
    table = table_practice_create(user=player.user, ruleset="speed", bots=["easy"])

    async def scenario() -> None:
        first = Seat(table.pk, user=player.user)
        await first.connect()
        second = Seat(table.pk, user=player.user)
        connected, _ = await second.communicator.connect()
        assert connected
        messages, code = await _close_code(second.communicator)
        assert code == edge.TOO_MANY_SOCKETS and messages[-1]["code"] == "too_many_sockets"
        await first.close()

    run(scenario)
    assert edge.open_sockets(user_id=player.user.pk) == 0


def test_an_outage_in_the_sites_stack_at_the_handshake_is_4013(monkeypatch: pytest.MonkeyPatch) -> None:
    """The token lookup (the auth stack, outside the consumer) meets a database that is gone."""
    import play.auth

    def gone(key: str) -> Any:
        raise OperationalError("connection to server at 127.0.0.1 failed: Connection refused")

    monkeypatch.setattr(play.auth, "user_for_token", gone)

    async def scenario() -> None:
        communicator = WebsocketCommunicator(
            websocket_application, "/ws/tables/1/", headers=[(b"authorization", b"Token abc")]
        )
        assert (await communicator.connect())[0]
        messages, code = await _close_code(communicator)
        assert code == edge.UNAVAILABLE and messages[0]["reason"] == "database_unavailable"

    run(scenario)
