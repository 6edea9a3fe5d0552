"""A TCP proxy a test can cut and restore: an outage of PostgreSQL or Redis without stopping either.

The machine's PostgreSQL and Redis are shared (other test runs use them at the
same time), so an outage is simulated in front of them: point a server process
at the proxy's port (DATABASE_URL, CACHE_URL, CHANNEL_LAYER_URL), then `cut()`
closes the listener and every open connection (new connections are refused,
as by a stopped server, and kept ones end, as at a restart) and `restore()`
listens again on the same port. The proxy runs its own event loop in a thread.

    with CuttableProxy(5432) as db:
        url = f"postgres://postgres@127.0.0.1:{db.port}/name"
        ...
        db.cut(); ...; db.restore()
"""

from __future__ import annotations

import asyncio
import socket
import threading
from types import TracebackType

_CHUNK = 65536


class CuttableProxy:
    def __init__(self, target_port: int, target_host: str = "127.0.0.1", *, host: str = "127.0.0.1") -> None:
        self.target = (target_host, target_port)
        self.host = host
        with socket.socket() as probe:
            probe.bind((host, 0))
            self.port = int(probe.getsockname()[1])
        self.connections = 0  # accepted so far, for tests that want to see traffic went through
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, name=f"proxy:{self.port}", daemon=True)
        self._server: asyncio.Server | None = None
        self._writers: set[asyncio.StreamWriter] = set()
        self._thread.start()
        self.restore()

    def _call(self, coroutine: object) -> object:
        return asyncio.run_coroutine_threadsafe(coroutine, self._loop).result(timeout=10)  # type: ignore[arg-type]

    @property
    def is_cut(self) -> bool:
        return self._server is None

    def restore(self) -> None:
        """Listen again (on the same port) and forward new connections to the target."""
        if self._server is None:
            self._call(self._listen())

    def cut(self) -> None:
        """Stop listening and end every open connection, both ways, at once."""
        self._call(self._cut())

    def close(self) -> None:
        self.cut()
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(timeout=10)
        self._loop.close()

    def __enter__(self) -> CuttableProxy:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, traceback: TracebackType | None
    ) -> None:
        self.close()

    async def _listen(self) -> None:
        self._server = await asyncio.start_server(self._serve, self.host, self.port, reuse_address=True)

    async def _cut(self) -> None:
        server, self._server = self._server, None
        if server is not None:
            server.close()
        for writer in list(self._writers):
            writer.transport.abort()  # a reset, not a polite close: nothing in flight survives
        self._writers.clear()
        if server is not None:
            await server.wait_closed()

    async def _serve(self, client_reader: asyncio.StreamReader, client_writer: asyncio.StreamWriter) -> None:
        if self._server is None:
            client_writer.transport.abort()
            return
        self.connections += 1
        try:
            upstream_reader, upstream_writer = await asyncio.open_connection(*self.target)
        except OSError:
            client_writer.transport.abort()
            return
        self._writers.update((client_writer, upstream_writer))
        await asyncio.gather(
            self._pipe(client_reader, upstream_writer),
            self._pipe(upstream_reader, client_writer),
            return_exceptions=True,
        )
        for writer in (client_writer, upstream_writer):
            self._writers.discard(writer)
            writer.transport.abort()

    @staticmethod
    async def _pipe(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            while data := await reader.read(_CHUNK):
                writer.write(data)
                await writer.drain()
        finally:
            if not writer.transport.is_closing():
                writer.transport.abort()
