"""The table sockets' edge: ASGI middleware between the server (daphne) and the Channels stack.

`speedsite/asgi.py` wraps the socket application in `SocketEdge` (outermost) and
puts `SocketsPerUser` inside the auth stack, around the router. Together they
answer what the consumer never should have to:

- **A path no route matches** (`/ws/tables/-1/`, `/ws/tables/1`, `/ws/nope/`) is
  refused at the handshake, before the auth stack reads a session; Channels'
  router would raise, and daphne answer 500.
- **Too many sockets**: per client address (here, before any database work) and
  per signed-in user (`SocketsPerUser`, once the auth stack knows the user), counted
  in this server process only: N processes allow N times as many.
- **A bounded receive queue**: daphne queues every frame for the application
  without a bound, so a client writing faster than its consumer reads grows the
  process without limit. The edge takes each message off daphne's queue as it
  arrives and keeps at most `SPEED_TABLE_RECEIVE_QUEUE` for the consumer; beyond
  that the socket is closed with 4008 and what waits is dropped. A message over
  `SPEED_TABLE_MESSAGE_MAX_BYTES` is dropped at once (the consumer never sees it)
  and the socket closed with 4009.
- **Outages**: an exception of a PostgreSQL or Redis outage (`core.outages`)
  escaping the stack, at the handshake (the session or token lookup, `group_add`)
  or on an open socket (the consumer's safety net), becomes an "unavailable"
  message and close code 4013, never daphne's 500 or 1011.

How a refusal looks depends on the server. Daphne 4.2 does not implement the ASGI
"websocket.http.response" extension (it advertises no `extensions` in the scope and
ignores those messages), so before `accept` the only answer is a close, which daphne
sends as a bare 403. Where the route is wrong that is the answer; everything the
client should be told (caps, outages) is said after accepting: a JSON message, then
a close code. A server that advertises the extension (uvicorn, hypercorn) gets the
same refusals as HTTP answers instead: 404, 429, 503 with `Retry-After`, each with a
JSON body in the API's error shape.
"""

from __future__ import annotations

import asyncio
import logging
from collections import Counter
from collections.abc import Awaitable, Callable, Hashable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

import orjson
from django.conf import settings

from core.api_errors import is_busy
from core.clientip import scope_client_ip
from core.outages import MESSAGES, Outage, outage_kind, retry_after_seconds

logger = logging.getLogger(__name__)

Scope = dict[str, Any]
Message = dict[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
Application = Callable[[Scope, Receive, Send], Awaitable[None]]

#: Close codes the edge sends (the table page explains them; see docs/security.md). Daphne sends an
#: application's close through autobahn, which refuses every code but 1000 and 3000-4999: RFC 6455's
#: 1009 ("message too big") and 1013 ("try again later") cannot be sent, so their private-use twins
#: are, 4000 plus the RFC's number, as the project's other codes are 4000 plus an HTTP status.
MESSAGE_TOO_BIG = 4009  # a message larger than SPEED_TABLE_MESSAGE_MAX_BYTES (RFC 6455's 1009)
UNAVAILABLE = 4013  # the database or Redis is down: try again later (RFC 6455's 1013)
QUEUE_OVERFLOW = 4008  # more messages waiting than SPEED_TABLE_RECEIVE_QUEUE
TOO_MANY_SOCKETS = 4029  # over SPEED_TABLE_SOCKETS_PER_USER or SPEED_TABLE_SOCKETS_PER_ADDRESS

DENIAL_EXTENSION = "websocket.http.response"

# Open sockets in this process, by client address and by user id.
_per_address: Counter[Hashable] = Counter()
_per_user: Counter[Hashable] = Counter()


class TooManySockets(Exception):
    """Raised inside the stack (`SocketsPerUser`) for the edge to answer as any cap is answered."""


def socket_outage(error: BaseException) -> Outage | None:
    """The outage an exception that escaped a socket's application stands for, or None.

    A lock or statement timeout counts as the database being unavailable here: over HTTP it is
    a 503 "busy" too, and a socket has no better answer than "try again later".
    """
    kind = outage_kind(error)
    if kind is None and isinstance(error, Exception) and is_busy(error):
        return "database_unavailable"
    return kind


def routes_match(routes: Sequence[Any], scope: Scope) -> bool:
    """Whether a Channels `URLRouter`'s routes have one for the scope's path, as the router would look."""
    path = str(scope.get("path", ""))
    root = str(scope.get("root_path", "") or "")
    if root:
        if not path.startswith(root):
            return False
        path = path[len(root) :]
    path = path.lstrip("/")
    return any(route.pattern.match(path) for route in routes)


@contextmanager
def _held(counts: Counter[Hashable], key: Hashable, limit: int) -> Iterator[bool]:
    """One more socket for `key` while the block runs, if under `limit` (0: no limit); whether it was."""
    if 0 < limit <= counts[key]:
        yield False
        return
    counts[key] += 1
    try:
        yield True
    finally:
        counts[key] -= 1
        if counts[key] <= 0:
            del counts[key]


def open_sockets(*, address: str | None = None, user_id: int | None = None) -> int:
    """How many sockets this process holds open for an address or a user (for tests and diagnostics)."""
    return _per_address[address] if address is not None else _per_user[user_id]


def _too_big(message: Message, limit: int) -> bool:
    text = message.get("text")
    if text is not None:
        # A character is one to four bytes in UTF-8: encode only when the count cannot tell.
        if len(text) > limit:
            return True
        return len(text) * 4 > limit and len(text.encode("utf-8")) > limit
    data = message.get("bytes")
    return data is not None and len(data) > limit


def _json(value: dict[str, Any]) -> str:
    return orjson.dumps(value).decode()


class _Link:
    """One socket between the server and the application: the bounded queue and who said what last."""

    def __init__(self, scope: Scope, receive: Receive, send: Send) -> None:
        self.scope = scope
        self.server_receive = receive
        self.server_send = send
        self.denial = DENIAL_EXTENSION in (scope.get("extensions") or {})
        self.inbox: asyncio.Queue[Message] = asyncio.Queue()
        self.waiting = 0  # "websocket.receive" messages in the inbox
        self.accepted = False
        self.closed = False
        self.max_bytes = int(settings.SPEED_TABLE_MESSAGE_MAX_BYTES)
        self.queue_limit = int(settings.SPEED_TABLE_RECEIVE_QUEUE)

    # -- the application's side ----------------------------------------------------------------

    async def receive(self) -> Message:
        message = await self.inbox.get()
        if message["type"] == "websocket.receive":
            self.waiting -= 1
        return message

    async def send(self, message: Message) -> None:
        if self.closed:
            return  # the edge closed the socket: what the application still says goes nowhere
        kind = message["type"]
        if kind == "websocket.accept":
            self.accepted = True
        elif kind == "websocket.close" or (kind == "websocket.http.response.body" and not message.get("more_body")):
            self.closed = True
        await self.server_send(message)

    # -- the server's side ---------------------------------------------------------------------

    async def pump(self) -> None:
        """Take every message off the server's unbounded queue as it comes; keep a bounded number."""
        try:
            while True:
                message = await self.server_receive()
                kind = message.get("type")
                if kind == "websocket.receive":
                    if self.closed:
                        continue
                    if _too_big(message, self.max_bytes):
                        await self._close_for(
                            MESSAGE_TOO_BIG, "bad_message", f"A message is at most {self.max_bytes} bytes."
                        )
                        continue
                    if self.waiting >= self.queue_limit:
                        await self._close_for(
                            QUEUE_OVERFLOW,
                            "too_many_messages",
                            f"More than {self.queue_limit} messages were waiting to be read.",
                        )
                        continue
                    self.waiting += 1
                self.inbox.put_nowait(message)
                if kind == "websocket.disconnect":
                    return
        except Exception:
            # The application must still hear that the socket is gone, or it would wait for ever.
            logger.exception("socket %s: reading from the server failed", self.scope.get("path"))
            self.inbox.put_nowait({"type": "websocket.disconnect", "code": 1011})

    def _drop_waiting(self) -> None:
        kept = []
        while not self.inbox.empty():
            message = self.inbox.get_nowait()
            if message["type"] != "websocket.receive":
                kept.append(message)
        for message in kept:
            self.inbox.put_nowait(message)
        self.waiting = 0

    async def _close_for(self, code: int, refusal: str, text: str) -> None:
        """Close an accepted socket for what its client sent, telling it why; drop what waits unread."""
        self._drop_waiting()
        await self.answer(close=code, message={"type": "refused", "ref": None, "code": refusal, "message": text})

    # -- the edge's own answers -----------------------------------------------------------------

    async def answer(
        self,
        *,
        close: int,
        message: dict[str, Any] | None,
        status: int | None = None,
        body: dict[str, Any] | None = None,
        retry_after: int | None = None,
    ) -> None:
        """Refuse or end the socket in the way the server allows.

        Before `accept`, with denial responses: the HTTP `status` with `body`. Before `accept`
        without them and no `message`: a close, which daphne answers 403. Otherwise accept if
        needed, send `message` and close with `close`.
        """
        if self.closed:
            return
        self.closed = True
        if not self.accepted and self.denial and status is not None:
            headers = [(b"content-type", b"application/json")]
            if retry_after is not None:
                headers.append((b"retry-after", str(retry_after).encode()))
            await self.server_send({"type": "websocket.http.response.start", "status": status, "headers": headers})
            await self.server_send({"type": "websocket.http.response.body", "body": orjson.dumps(body or {})})
            return
        if not self.accepted:
            if message is None:
                await self.server_send({"type": "websocket.close"})
                return
            await self.server_send({"type": "websocket.accept"})
            self.accepted = True
        if message is not None:
            await self.server_send({"type": "websocket.send", "text": _json(message)})
        await self.server_send({"type": "websocket.close", "code": close})

    async def refuse_route(self) -> None:
        path = self.scope.get("path")
        await self.answer(
            close=4004,
            message=None,
            status=404,
            body={"message": f"There is no socket at {path!r}.", "extra": {"code": "not_found"}},
        )

    async def refuse_too_many(self, what: str) -> None:
        text = f"Too many sockets open for this {what}; close one and try again."
        await self.answer(
            close=TOO_MANY_SOCKETS,
            message={"type": "refused", "ref": None, "code": "too_many_sockets", "message": text},
            status=429,
            body={"message": text, "extra": {"code": "too_many_sockets"}},
        )

    async def unavailable(self, kind: Outage) -> None:
        wait = retry_after_seconds()
        await self.answer(
            close=UNAVAILABLE,
            message={"type": "unavailable", "reason": kind, "retry_after_ms": wait * 1000},
            status=503,
            body={"message": MESSAGES[kind], "extra": {"code": kind, "retry_after": wait}},
            retry_after=wait,
        )

    async def run(self, application: Application) -> None:
        pump = asyncio.ensure_future(self.pump())
        try:
            await application(self.scope, self.receive, self.send)
        except TooManySockets:
            await self.refuse_too_many("account")
        except Exception as error:
            kind = socket_outage(error)
            if kind is None:
                raise  # a bug: daphne logs it and answers 500 or 1011, as it should
            logger.warning("socket %s: %s (%r), closed with %d", self.scope.get("path"), kind, error, UNAVAILABLE)
            await self.unavailable(kind)
        finally:
            pump.cancel()


class SocketEdge:
    """The outermost socket middleware: routes, the per-address cap, the bounded queue, outages.

    `routes` are the `URLRouter`'s (`router.routes`), so the edge refuses exactly the paths the
    router would fail on.
    """

    def __init__(self, inner: Application, *, routes: Sequence[Any]) -> None:
        self.inner = inner
        self.routes = routes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "websocket":
            await self.inner(scope, receive, send)
            return
        link = _Link(scope, receive, send)
        if not routes_match(self.routes, scope):
            await receive()  # the handshake's "websocket.connect", answered next
            await link.refuse_route()
            return
        with _held(_per_address, scope_client_ip(scope), int(settings.SPEED_TABLE_SOCKETS_PER_ADDRESS)) as allowed:
            if not allowed:
                await receive()
                await link.refuse_too_many("address")
                return
            await link.run(self.inner)


class SocketsPerUser:
    """The per-user cap: inside the auth stack (it needs `scope["user"]`), around the router.

    A spectator who is not signed in is counted by address only.
    """

    def __init__(self, inner: Application) -> None:
        self.inner = inner

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        user = scope.get("user")
        if user is None or not user.is_authenticated:
            await self.inner(scope, receive, send)
            return
        with _held(_per_user, user.pk, int(settings.SPEED_TABLE_SOCKETS_PER_USER)) as allowed:
            if not allowed:
                raise TooManySockets
            await self.inner(scope, receive, send)
